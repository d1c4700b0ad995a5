package probe

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// badFloats are values rapid never generates; bad-input properties inject
// them.
var badFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-300, -math.MaxFloat64}

// anyFloat draws a float that is sometimes invalid (NaN, ±Inf, negative),
// sometimes huge, and otherwise an ordinary non-negative value.
func anyFloat(t *rapid.T, label string) float64 {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return rapid.SampledFrom(badFloats).Draw(t, label+"Bad")
	case 1:
		return rapid.SampledFrom([]float64{0, math.SmallestNonzeroFloat64, 1e300, math.MaxFloat64}).Draw(t, label+"Edge")
	}
	return rapid.Float64Range(0, 100).Draw(t, label)
}

// isInputError reports whether err is a *specsched.InputError.
func isInputError(err error) bool {
	var ie *specsched.InputError
	return errors.As(err, &ie)
}

// drawRNG returns a seeded generator whose seed rapid draws.
func drawRNG(t *rapid.T, label string) *rand.Rand {
	seed := rapid.Uint64().Draw(t, label)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// quarters draws a non-negative multiple of 1/4 up to hi: sums and
// differences of such values are exact in float64, so a reference written
// with the paper's "counter + estimate > cap" matches the code's
// "estimate > cap − counter" exactly.
func quarters(t *rapid.T, hi int, label string) float64 {
	return float64(rapid.IntRange(0, 4*hi).Draw(t, label)) / 4
}

// rngFrom returns a PCG generator seeded with seed.
func rngFrom(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

// fataler is what the shared checkers need from *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}
