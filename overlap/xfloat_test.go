package overlap

import (
	"math"
	"math/big"
	"testing"

	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// bigRound returns the big.Float v rounded to float64 (nearest, ties to
// even, with subnormals and overflow to +Inf): the reference for
// xfloat.float.
func bigRound(v *big.Float) float64 {
	f, _ := v.Float64()
	return f
}

// ulpsApart reports whether got is within k units in the last place of
// want (for subnormal want, k multiples of the smallest subnormal).
func ulpsApart(got, want float64, k float64) bool {
	if got == want {
		return true
	}
	if math.IsInf(want, 1) || math.IsInf(got, 1) {
		return got > math.MaxFloat64*(1-1e-15) && want > math.MaxFloat64*(1-1e-15)
	}
	ulp := math.Max(math.Nextafter(want, math.Inf(1))-want, math.SmallestNonzeroFloat64)
	return math.Abs(got-want) <= k*ulp
}

// testXfloat: products and quotients of values over float64's whole range,
// formed in xfloat and rounded once, agree with math/big to a few ulps;
// less orders them exactly as big.Float does (up to the same roundings).
func testXfloat(t *rapid.T) {
	a := testutil.Magnitude().Draw(t, "a")
	b := testutil.PositiveMagnitude().Draw(t, "b")
	c := testutil.PositiveMagnitude().Draw(t, "c")
	got := xf(a).mul(xf(b)).div(xf(c)).float()
	want := bigRound(bquo(bmul(bf(a), bf(b)), bf(c)))
	if !ulpsApart(got, want, 3) {
		t.Fatalf("%v·%v/%v: xfloat %v, exact %v", a, b, c, got, want)
	}
	if got := xf(a).float(); got != a {
		t.Fatalf("xf(%v).float() = %v", a, got)
	}
	if got, want := scaledRate(a, c, xf(b), b), bigRound(bquo(bmul(bf(a), bf(b)), bf(c))); !ulpsApart(got, want, 3) {
		t.Fatalf("scaledRate(%v, %v, %v) = %v, exact %v", a, c, b, got, want)
	}
	// less: a·b vs c·d exactly (products of two, no rounding in big).
	d := testutil.PositiveMagnitude().Draw(t, "d")
	p, q := bmul(bf(a), bf(b)), bmul(bf(c), bf(d))
	if cmpX, cmpB := xf(a).mul(xf(b)).less(xf(c).mul(xf(d))), p.Cmp(q) < 0; cmpX != cmpB {
		// The two products may round to the same mantissa: allow only that.
		if bigRound(p) != bigRound(q) && !ulpsApart(bigRound(p), bigRound(q), 2) {
			t.Fatalf("%v·%v < %v·%v: xfloat says %v, exact %v", a, b, c, d, cmpX, cmpB)
		}
	}
}

func TestXfloat(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testXfloat)
}

// TestXfloatCases: hand-checked values at the edges of float64's range.
func TestXfloatCases(t *testing.T) {
	t.Parallel()
	huge := xf(1e300).mul(xf(1e300)) // 1e600
	if got := huge.div(xf(1e300)).float(); math.Abs(got-1e300) > 1e285 {
		t.Errorf("1e300·1e300/1e300 = %v", got)
	}
	if got := huge.float(); !math.IsInf(got, 1) {
		t.Errorf("1e600 rounds to %v, want +Inf", got)
	}
	tiny := xf(1e-300).mul(xf(1e-300))
	if got := tiny.float(); got != 0 {
		t.Errorf("1e-600 rounds to %v, want 0", got)
	}
	if got := xf(0x1p-1074).mul(xf(0.75)).float(); got != 0x1p-1074 {
		t.Errorf("0.75·2^-1074 rounds to %v, want 2^-1074", got)
	}
	if got := xf(0x1p-1074).mul(xf(0.5)).float(); got != 0 {
		t.Errorf("0.5·2^-1074 rounds to %v, want 0 (tie to even)", got)
	}
	if got := xf(math.MaxFloat64).mul(xf(2)).div(xf(2)).float(); got != math.MaxFloat64 {
		t.Errorf("MaxFloat64·2/2 = %v", got)
	}
	if !tiny.less(huge) || huge.less(tiny) || huge.less(huge) || !(xfloat{}).less(tiny) || tiny.less(xfloat{}) || (xfloat{}).less(xfloat{}) {
		t.Error("less: 1e-600 < 1e600, 0 < 1e-600, and no value below itself")
	}
	if !xf(0.75).less(xf(0.875)) || xf(0.875).less(xf(0.75)) {
		t.Error("less on equal exponents")
	}
	// splitShares: β = hi/lo; μ₁ = lo/(lo+hi), μ₂ = hi/(lo+hi).
	for _, c := range []struct{ hi, lo, mu1, mu2 float64 }{
		{3, 1, 0.25, 0.75},
		{1, 1, 0.5, 0.5},
		{5, 0, 0, 1},
		{math.MaxFloat64, math.MaxFloat64, 0.5, 0.5},
		{1e300, 1e-300, 0, 1}, // μ₁ = 1e-600 rounds to 0; μ₂ = 1 − 1e-600 to 1
	} {
		m1, m2 := splitShares(c.hi, c.lo)
		if m1.float() != c.mu1 || m2.float() != c.mu2 {
			t.Errorf("splitShares(%v, %v) = %v, %v; want %v, %v", c.hi, c.lo, m1.float(), m2.float(), c.mu1, c.mu2)
		}
	}
	if m1, _ := splitShares(1e300, 1e-300); m1.mul(xf(1e300)).mul(xf(1e300)).float() != 1 {
		t.Errorf("μ₁ at β = 1e600 is not 1e-600 exactly enough: %v·1e600", m1.mul(xf(1e300)).mul(xf(1e300)).float())
	}
	// lessImbalance: hi/lo vs hi'/lo', +∞ at lo = 0, beyond MaxFloat64.
	for _, c := range []struct {
		h1, l1, h2, l2 float64
		want           bool
	}{
		{2, 1, 3, 1, true},
		{3, 1, 2, 1, false},
		{2, 1, 2, 1, false},
		{1e300, 1e-300, 1e300, 1e-200, false}, // 1e600 vs 1e500
		{1e300, 1e-200, 1e300, 1e-300, true},
		{1, 1, 1, 0, true},  // finite < +∞
		{1, 0, 1, 1, false}, // +∞ < finite
		{1, 0, 1, 0, false}, // +∞ < +∞
		{1e300, 1e-300, 2, 1, false},
		{2, 1, 1e300, 1e-300, true},
	} {
		if got := lessImbalance(c.h1, c.l1, c.h2, c.l2); got != c.want {
			t.Errorf("lessImbalance(%v/%v < %v/%v) = %v, want %v", c.h1, c.l1, c.h2, c.l2, got, c.want)
		}
	}
	// imbalanceKey orders like the imbalance.
	e1, m1 := imbalanceKey(1e-300, 1e300)
	e2, m2 := imbalanceKey(1e-300, 1e299)
	if !(e2 < e1 || (e2 == e1 && m2 < m1)) {
		t.Errorf("imbalanceKey: 1e599 not below 1e600: (%v, %v) vs (%v, %v)", e2, m2, e1, m1)
	}
	if e, m := imbalanceKey(0, 5); !math.IsInf(e, 1) || m != 0 {
		t.Errorf("imbalanceKey(0, 5) = (%v, %v), want (+Inf, 0)", e, m)
	}
	if e, m := imbalanceKey(6, 2); e != 2 || m != 0.75 {
		t.Errorf("imbalanceKey(6, 2) = (%v, %v), want 3 = 0.75·2^2", e, m)
	}
}
