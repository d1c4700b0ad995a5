package scale

import (
	"math"
	"math/big"
	"testing"
)

// TestShare compares Share with the exact t·s/total rounded once by
// math/big, at magnitudes where t/total underflows.
func TestShare(t *testing.T) {
	t.Parallel()
	cases := [][3]float64{
		{1e-200, 1e200, 1e300},
		{5e-324, 1, 3},
		{1e-300, 1e300, 1e300},
		{3, 7, 11},
		{0x1p-1074, 0x1p1023, 0x1p1023},
	}
	for _, c := range cases {
		got := Share(c[0], c[1], c[2])
		exact := new(big.Float).SetPrec(2000).Mul(big.NewFloat(c[0]).SetPrec(2000), big.NewFloat(c[2]))
		exact.Quo(exact, big.NewFloat(c[1]).SetPrec(2000))
		want, _ := exact.Float64()
		if d := math.Abs(got - want); d > 4*math.Abs(want)*0x1p-53 && d > 0x1p-1074 {
			t.Errorf("Share%v = %g, want %g", c, got, want)
		}
	}
	for _, c := range [][3]float64{{0, 1, 1}, {math.Copysign(0, -1), 1, 1}, {1, 2, 0}} {
		if got := Share(c[0], c[1], c[2]); got != 0 || math.Signbit(got) {
			t.Errorf("Share%v = %g, want +0", c, got)
		}
	}
}
