package overlap

import (
	"math"
	"testing"

	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// refLog is the tests' own ln x for finite x > 0: x is rescaled by an exact
// power of two into [1, 2), where math.Log is correct, and the power is
// added back. (math.Log on amd64 is wrong on subnormals: −709.09 for
// 5e-324.)
func refLog(x float64) float64 {
	f, e := math.Frexp(x) // x = f·2^e, f ∈ [0.5, 1)
	return math.Log(2*f) + float64(e-1)*math.Ln2
}

// TestLogNormalParamsExtremes pins LogNormalParams at the magnitudes where
// the old code went wrong, against values worked out by hand:
//   - a subnormal mean: ln 2^-1074 is −1074·ln 2, where math.Log gives
//     −709.09, so μ was off by 35;
//   - sd/mean below 2^-511, where c² underflows and σ = √ln(1+c²) came out
//     0 (or with a few digits when c² was subnormal) instead of c;
//   - sd/mean whose square (or itself) overflows, which were rejected
//     although σ² = 2·ln c and μ = ln mean − ln c are finite.
func TestLogNormalParamsExtremes(t *testing.T) {
	t.Parallel()
	ln2, ln10 := math.Ln2, math.Ln10
	tiny := math.SmallestNonzeroFloat64 // 2^-1074
	for _, c := range []struct {
		mean, sd  float64
		mu, sigma float64 // the exact values, rounded
	}{
		{tiny, 0, -1074 * ln2, 0},
		// c = 1: σ² = ln 2, μ = −1074·ln 2 − ln 2/2.
		{tiny, tiny, -1074.5 * ln2, math.Sqrt(ln2)},
		{3 * tiny, 0, math.Log(3) - 1074*ln2, 0},
		{0x1p-1030, 0x1p-1030, -1030.5 * ln2, math.Sqrt(ln2)},
		// c ≤ 2^-30: σ = c·(1 − c²/4 + …) rounds to c, μ = −c²/2 (here 0).
		{1, 1e-200, 0, 1e-200},
		{1, 1e-160, 0, 1e-160},
		{1, tiny, 0, tiny},
		{0x1p-1000, 0x1p-1040, -1000 * ln2, 0x1p-40},
		// c = 1e600: σ² = ln(1 + 1e1200) = 1200·ln 10 (+1e-1200),
		// μ = ln 1e-300 − 600·ln 10.
		{1e-300, 1e300, -900 * ln10, math.Sqrt(1200 * ln10)},
		// c = 2^1024·2^1074 (up to 1 − 2^-53): σ²/2 = 2098·ln 2.
		{tiny, math.MaxFloat64, -3172 * ln2, math.Sqrt(4196 * ln2)},
		// c = 2^600 (c² overflows): σ²/2 = 600·ln 2, μ = −600·ln 2.
		{1, 0x1p600, -600 * ln2, math.Sqrt(1200 * ln2)},
	} {
		mu, sigma, err := LogNormalParams(c.mean, c.sd)
		if err != nil {
			t.Errorf("LogNormalParams(%v, %v): %v", c.mean, c.sd, err)
			continue
		}
		if math.Abs(mu-c.mu) > 1e-15*math.Max(1, math.Abs(c.mu)) || math.Abs(sigma-c.sigma) > 1e-15*c.sigma {
			t.Errorf("LogNormalParams(%v, %v) = (%v, %v), want (%v, %v)", c.mean, c.sd, mu, sigma, c.mu, c.sigma)
		}
	}
}

// testLogNormalParamsMagnitudes draws mean and sd from float64's whole
// range (every pair with mean > 0 is accepted) and checks the answer against the defining equations, in log
// space with the tests' own logarithm refLog: μ + σ²/2 = ln mean, and
// σ² = ln(1 + c²) with ln c = ln sd − ln mean, evaluated in the form that
// cannot overflow or underflow (σ = c for ln c < −300, σ² = 2·ln c for
// ln c > 300). It also checks that scaling mean and sd by the same exact
// power of two 2^k leaves σ unchanged and adds k·ln 2 to μ.
func testLogNormalParamsMagnitudes(t *rapid.T) {
	mean := testutil.PositiveMagnitude().Draw(t, "mean")
	sd := testutil.Magnitude().Draw(t, "sd")
	mu, sigma, err := LogNormalParams(mean, sd)
	if err != nil {
		t.Fatalf("LogNormalParams(%v, %v): %v", mean, sd, err)
	}
	if !finite(mu) || !finite(sigma) || sigma < 0 {
		t.Fatalf("LogNormalParams(%v, %v) = (%v, %v)", mean, sd, mu, sigma)
	}
	lnMean := refLog(mean)
	s2 := sigma * sigma
	if d := math.Abs(mu + s2/2 - lnMean); d > 1e-14*math.Max(1, math.Max(math.Abs(lnMean), s2)) {
		t.Fatalf("LogNormalParams(%v, %v) = (%v, %v): μ + σ²/2 = %v, ln mean = %v", mean, sd, mu, sigma, mu+s2/2, lnMean)
	}
	want := 0.0
	if sd > 0 {
		lnc := refLog(sd) - lnMean
		switch {
		case lnc < -300:
			want = math.Exp(lnc)
		case lnc > 300:
			want = math.Sqrt(2 * lnc)
		default:
			want = math.Sqrt(math.Log1p(math.Exp(2 * lnc)))
		}
	}
	// ln c carries ~2 ulps of up to 1454 (≈ 5e-13): σ to ~1e-12 relative,
	// and a subnormal σ to its last place.
	if math.Abs(sigma-want) > 1e-11*want+2*math.SmallestNonzeroFloat64 {
		t.Fatalf("LogNormalParams(%v, %v) = (%v, %v), want σ = %v", mean, sd, mu, sigma, want)
	}
	k := rapid.IntRange(-1100, 1100).Draw(t, "k")
	m2, sd2 := math.Ldexp(mean, k), math.Ldexp(sd, k)
	if m2 == 0 || !finite(m2) || !finite(sd2) || math.Ldexp(m2, -k) != mean || math.Ldexp(sd2, -k) != sd {
		return // not an exact rescaling
	}
	mu2, sigma2, err := LogNormalParams(m2, sd2)
	if err != nil {
		t.Fatalf("LogNormalParams(%v, %v) (the instance ×2^%d): %v", m2, sd2, k, err)
	}
	shift := float64(k) * math.Ln2
	if math.Abs(sigma2-sigma) > 1e-14*sigma || math.Abs(mu2-mu-shift) > 1e-14*math.Max(1, math.Max(math.Abs(mu), math.Abs(mu2))) {
		t.Fatalf("LogNormalParams(%v, %v) = (%v, %v) but ×2^%d gives (%v, %v): want σ equal (to rounding), μ + %v", mean, sd, mu, sigma, k, mu2, sigma2, shift)
	}
}

func TestLogNormalParamsMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLogNormalParamsMagnitudes)
}
