package competitive

import (
	"math"
	"math/big"
	"testing"
)

// TestSREWCRatioHugeNumerator: Theorem 4's constant 2·(M + δ + M·Δ)/(β·ε)
// with δ = 1 + 2β + ε is finite when a huge ε offsets a numerator that
// overflows on its own (M·Δ = 2^53·1e300): the result must be the exact
// constant rounded (math/big), not +Inf, an error, or a rearrangement's
// wrong value (to a few ulps: the rearranged form rounds a few
// times). A case whose constant really overflows (β·ε tiny) is an
// error.
func TestSREWCRatioHugeNumerator(t *testing.T) {
	t.Parallel()
	exact := func(m, beta, eps, peak float64) float64 {
		const prec = 4000
		f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
		delta := new(big.Float).SetPrec(prec).Add(f(1), new(big.Float).Mul(f(2), f(beta)))
		delta.Add(delta, f(eps))
		num := new(big.Float).SetPrec(prec).Add(f(m), delta)
		num.Add(num, new(big.Float).SetPrec(prec).Mul(f(m), f(peak)))
		num.Mul(num, f(2))
		den := new(big.Float).SetPrec(prec).Mul(f(beta), f(eps))
		v, _ := num.Quo(num, den).Float64()
		return v
	}
	for _, c := range []struct {
		machines      int
		beta, eps, pk float64
	}{
		{1 << 53, 0.5, 1e308, 1e300},
		{1 << 53, 0.25, 1e308, 1e300},
		{1000, 0.125, 1e300, 1e307},
		{3, 0.5, math.MaxFloat64, math.MaxFloat64},
		// β tiny: (M + 1 + 2β)/ε is 2e-15 of the sum, not negligible at the
		// tolerance below.
		{1 << 53, 1e-300, 1e308, 1e299},
	} {
		got, err := SREWCRatio(c.machines, c.beta, c.eps, c.pk)
		want := exact(float64(c.machines), c.beta, c.eps, c.pk)
		if err != nil || math.IsInf(got, 0) || math.Abs(got-want) > 8*0x1p-53*want {
			t.Errorf("SREWCRatio(%d, %g, %g, %g) = %g, %v; want %g", c.machines, c.beta, c.eps, c.pk, got, err, want)
		}
	}
	if got, err := SREWCRatio(1<<53, 1e-300, 1e-20, 1e300); err == nil {
		t.Errorf("SREWCRatio with β·ε = 1e-320: got %g, want an error (the constant overflows)", got)
	}
}
