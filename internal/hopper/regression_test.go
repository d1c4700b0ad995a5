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
// is max{f, V_i} scaled up by S/Σmax{f, V_i} ≈ 1 + 5e−13, so ΣS_i = S
// (no slot idle) and no job falls below its floor or virtual size; the job
// at the floor is scaled too (case 2 would hold it at exactly f). By hand: β = 1.5
// (c = 4/3), T = {3/4, 3}: V = {1, 4}.
//   - ε = 1 (f = 0): Σmax{f, V_i} = 5; S = 5·(1 + 5e−13).
//   - ε = 0.5, two jobs (f = S/4): with S ≈ 16/3, f ≈ 4/3 > V_1 = 1, and
//     Σmax{f, V_i} = S/4 + 4, which S exceeds by the factor 1 + 5e−13 for
//     S = 4·(1 + δ)/(1 − (1 + δ)/4), δ = 5e−13.
func TestFairCutUnreached(t *testing.T) {
	t.Parallel()
	remaining := []float64{0.75, 0, 3} // a finished job gets 0 in the fallback too
	v := []float64{1, 0, 4}
	const delta = 5e-13
	for _, c := range []struct{ eps, slots float64 }{
		{1, 5 * (1 + delta)},
		{0.5, 4 * (1 + delta) / (1 - (1+delta)/4)},
	} {
		floor := (1 - c.eps) * c.slots / 2
		dst := make([]float64, len(remaining))
		hopper.Fair(dst, remaining, c.slots, c.eps, hopper.Summarize(remaining, 1.5), new(selection.Workspace))
		sum := dst[0] + dst[1] + dst[2]
		if dst[1] != 0 || math.Signbit(dst[1]) {
			t.Errorf("ε = %v: the finished job gets %v, want +0", c.eps, dst[1])
		}
		if math.Abs(sum-c.slots) > 2*0x1p-52*c.slots {
			t.Errorf("ε = %v: ΣS_i = %v, want S = %v (shares %v)", c.eps, sum, c.slots, dst)
		}
		for i := range dst {
			if remaining[i] == 0 {
				continue
			}
			base := max(floor, v[i])
			if dst[i] < base*(1+delta/2) || dst[i] > base*(1+2*delta) {
				t.Errorf("ε = %v: job %d gets %v, want max{f, V_i} = %v scaled by ≈ 1 + %v", c.eps, i, dst[i], base, delta)
			}
		}
	}
}

// tie searches the floats near s0 for one at which holds is exactly true:
// the case splits compare rounded expressions, and a tie is only a tie in
// the bits.
func tie(t *testing.T, s0 float64, holds func(s float64) bool) float64 {
	t.Helper()
	up, down := s0, s0
	for range 4096 {
		if holds(up) {
			return up
		}
		if holds(down) {
			return down
		}
		up, down = math.Nextafter(up, math.Inf(1)), math.Nextafter(down, 0)
	}
	t.Fatalf("no exact tie near %v", s0)
	return 0
}

// TestCaseTies: an exact tie at a case split's tolerance is the
// capacity-constrained case (CaseTolerance: "within" includes the bound).
//   - Algorithm 1 with ΣV = S·(1 − CaseTolerance) exactly: the fill, which
//     falls short of S, gives every job its virtual size V_i = c·T_i, not
//     the proportional T_i/ΣT·S ≈ V_i·(1 + 1e−12).
//   - Algorithm 2 with S = (Σ_{i>m₁}V_i + m₁·f)·(1 + CaseTolerance)
//     exactly, ε = 0.5, T = {3/4, 3} (V = {1, 4}, f = S/4 ≈ 4/3 > V_1):
//     case 1 scales max{f, V_i} up to S, so job 0 gets more than the floor,
//     where case 2 would hold it at exactly f.
func TestCaseTies(t *testing.T) {
	t.Parallel()
	remaining := []float64{1, 2, 3}
	snap := hopper.Summarize(remaining, 1.5)
	slots := tie(t, snap.VirtualTotal/(1-hopper.CaseTolerance), func(s float64) bool {
		return snap.VirtualTotal == s*(1-hopper.CaseTolerance)
	})
	dst := make([]float64, len(remaining))
	hopper.Allocate(dst, remaining, slots, snap, new(selection.Workspace))
	for i, x := range remaining {
		if want := snap.Factor * x; dst[i] != want {
			t.Errorf("Algorithm 1, ΣV = S·(1 − CaseTolerance): job %d gets %v, want its virtual size %v", i, dst[i], want)
		}
	}

	remaining = []float64{0.75, 3}
	snap = hopper.Summarize(remaining, 1.5)
	const eps = 0.5
	floorOf := func(s float64) float64 { return (1 - eps) * s / 2 }
	slots = tie(t, 4*(1+hopper.CaseTolerance)/(1-(1+hopper.CaseTolerance)/4), func(s float64) bool {
		return s == (4+1*floorOf(s))*(1+hopper.CaseTolerance) && 1 <= floorOf(s)
	})
	dst = make([]float64, len(remaining))
	hopper.Fair(dst, remaining, slots, eps, snap, new(selection.Workspace))
	if f := floorOf(slots); !(dst[0] >= f*(1+hopper.CaseTolerance/2)) {
		t.Errorf("Algorithm 2 at the case-1 bound: job 0 gets %v, want the floor %v scaled up by ≈ 1 + 1e−12 (shares %v)", dst[0], f, dst)
	}
}

// TestFairSubnormalQuotient: a proportional share whose quotient T_i/ΣT
// lies below float64's normal range keeps its digits: with ε = 1 (no
// floor) and S = 1e300 far above ΣV, T = {1e−200, 1e200} gives job 0
// 1e−200/(1e200 + 1e−200)·1e300 = 1e−100 (to rounding), where forming the
// quotient first would give 0.
func TestFairSubnormalQuotient(t *testing.T) {
	t.Parallel()
	remaining := []float64{1e-200, 1e200}
	dst := make([]float64, 2)
	hopper.Fair(dst, remaining, 1e300, 1, hopper.Summarize(remaining, 1.5), new(selection.Workspace))
	if math.Abs(dst[0]-1e-100) > 1e-15*1e-100 || math.Abs(dst[1]-1e300) > 1e-15*1e300 {
		t.Fatalf("shares %v, want [1e-100 1e300]", dst)
	}
}
