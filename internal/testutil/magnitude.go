package testutil

import (
	"math"

	"pgregory.net/rapid"
)

// The generator classes of the adversarial review: every
// package's property tests draw from them so that inputs across float64's
// whole range, exact ties and counts at the 2^53 limit stay covered.

// MaxExact is 2^53, the largest count below which every integer is exact in
// float64 (alloc.MaxTotal).
const MaxExact = 1 << 53

// Magnitude draws a finite value ≥ 0 from anywhere in float64's range: 0,
// subnormals (down to 5e-324), normal values whose decimal exponent is
// uniform in [−300, 300] with a random mantissa, exact powers of two,
// MaxFloat64, and small integers.
func Magnitude() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Just(0.0),
		rapid.Custom(func(t *rapid.T) float64 { // subnormal
			return math.Float64frombits(rapid.Uint64Range(1, 1<<52-1).Draw(t, "subnormalBits"))
		}),
		rapid.Custom(func(t *rapid.T) float64 {
			m := rapid.Float64Range(1, 10).Draw(t, "mantissa")
			e := rapid.IntRange(-300, 300).Draw(t, "exp10")
			return m * math.Pow(10, float64(e))
		}),
		rapid.Custom(func(t *rapid.T) float64 {
			return math.Ldexp(1, rapid.IntRange(-1074, 1023).Draw(t, "exp2"))
		}),
		rapid.SampledFrom([]float64{math.SmallestNonzeroFloat64, math.MaxFloat64, 1, 2, 3}),
	)
}

// Magnitudes draws between minLen and maxLen values of Magnitude with exact
// ties: each value is either fresh or a repeat of one drawn before.
func Magnitudes(minLen, maxLen int) *rapid.Generator[[]float64] {
	return rapid.Custom(func(t *rapid.T) []float64 {
		n := rapid.IntRange(minLen, maxLen).Draw(t, "n")
		xs := make([]float64, n)
		for i := range xs {
			if i > 0 && rapid.IntRange(0, 3).Draw(t, "tie") == 0 {
				xs[i] = xs[rapid.IntRange(0, i-1).Draw(t, "tieWith")]
				continue
			}
			xs[i] = Magnitude().Draw(t, "x")
		}
		return xs
	})
}

// PositiveMagnitude is Magnitude without 0.
func PositiveMagnitude() *rapid.Generator[float64] {
	return Magnitude().Filter(func(x float64) bool { return x > 0 })
}

// NearMaxCount draws a count in [2^53−8, 2^53], where a float64 holds every
// integer but a sum of two may not.
func NearMaxCount() *rapid.Generator[int] {
	return rapid.IntRange(MaxExact-8, MaxExact)
}
