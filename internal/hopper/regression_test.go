package hopper_test

import (
	"math"
	"testing"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
)

// TestAllocateCutUnreached: S within CaseTolerance above ΣV takes case 1
// (the constrained fill), whose fill then never reaches S; every job gets
// its virtual size V_i = c·T_i (+0 for a −0), by hand: c = 2/1.5 = 4/3,
// ΣV = 8, S = 8·(1 + 5e−13).
func TestAllocateCutUnreached(t *testing.T) {
	t.Parallel()
	remaining := []float64{1, 2, math.Copysign(0, -1), 3}
	slots := 8 * (1 + 5e-13)
	c := 2 / 1.5
	dst := make([]float64, len(remaining))
	hopper.Allocate(dst, remaining, slots, hopper.Summarize(remaining, 1.5), new(selection.Workspace))
	want := []float64{c * 1, c * 2, 0, c * 3}
	for i := range want {
		if dst[i] != want[i] || math.Signbit(dst[i]) {
			t.Fatalf("job %d gets %v, want its virtual size %v (all: %v)", i, dst[i], want[i], dst)
		}
	}
}

// TestFairCutUnreached: case 1 of Algorithm 2 with S within CaseTolerance
// above Σmax{f, V_i}, where the top-ups cannot reach S − N·f: every share
// is max{f, V_i} scaled up by S/Σmax{f, V_i}, so ΣS_i = S (no slot idle)
// and no job falls below its floor or virtual size. By hand: β = 1.5
// (c = 4/3), T = {3/4, 3}: V = {1, 4}.
//   - ε = 1 (f = 0): Σmax{f, V_i} = 5; S = 5·(1 + 5e−13).
//   - ε = 0.5, two jobs (f = S/4): with S ≈ 16/3, f ≈ 4/3 > V_1 = 1, and
//     Σmax{f, V_i} = S/4 + 4, which S exceeds by the factor 1 + 5e−13 for
//     S = 4·(1 + δ)/(1 − (1 + δ)/4), δ = 5e−13.
func TestFairCutUnreached(t *testing.T) {
	t.Parallel()
	remaining := []float64{0.75, 3}
	v := []float64{1, 4}
	const delta = 5e-13
	for _, c := range []struct{ eps, slots float64 }{
		{1, 5 * (1 + delta)},
		{0.5, 4 * (1 + delta) / (1 - (1+delta)/4)},
	} {
		floor := (1 - c.eps) * c.slots / 2
		dst := make([]float64, 2)
		hopper.Fair(dst, remaining, c.slots, c.eps, hopper.Summarize(remaining, 1.5), new(selection.Workspace))
		sum := dst[0] + dst[1]
		if math.Abs(sum-c.slots) > 2*0x1p-52*c.slots {
			t.Errorf("ε = %v: ΣS_i = %v, want S = %v (shares %v)", c.eps, sum, c.slots, dst)
		}
		for i := range dst {
			base := max(floor, v[i])
			if dst[i] < base || dst[i] > base*(1+2*delta) {
				t.Errorf("ε = %v: job %d gets %v, want max{f, V_i} = %v scaled by at most 1 + %v", c.eps, i, dst[i], base, 2*delta)
			}
		}
	}
}
