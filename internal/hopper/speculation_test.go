package hopper_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
)

// TestSpeculationSplit: steps 1 and 2 of Speculate's split against the
// arithmetic written out. Two shares D and S − D that sum to the integer
// S have fractional parts summing to 0 or 1, so the largest remainder
// with ties to the distinct tasks gives D rounded half up; then launches
// min(unscheduled, D − running, free) and the rest of the free slots.
func TestSpeculationSplit(t *testing.T) {
	t.Parallel()
	var ws selection.Workspace
	rapid.Check(t, func(t *rapid.T) {
		u := rapid.IntRange(0, 50).Draw(t, "unscheduled")
		r := rapid.IntRange(0, 50).Draw(t, "running")
		if u+r == 0 {
			t.Skip("no task")
		}
		busy := rapid.IntRange(r, 3*r).Draw(t, "busy")
		slots := rapid.IntRange(busy+1, busy+200).Draw(t, "slots")
		beta := rapid.SampledFrom([]float64{1.01, 1.2, 1.5, 1.99, 2, 3}).Draw(t, "beta")
		T := float64(u + r)
		d := min(T, float64(slots)/hopper.Level(T, float64(slots), beta))
		whole := int(math.Floor(d + 0.5))
		free := slots - busy
		wantL := min(u, max(0, whole-r), free)
		l, b := hopper.SpeculationSplit(&ws, u, r, busy, slots, beta)
		if l != wantL || b != free-wantL {
			t.Fatalf("launches %d, budget %d; want %d, %d (D = %v)", l, b, wantL, free-wantL, d)
		}
	})
	// Worked by hand: β = 2 (no speculation, k = 1): D = min(T, S). A job of
	// 3 unscheduled and 1 running task on 10 slots, 1 busy: D = 4, launch
	// min(3, 4 − 1, 9) = 3, budget 6.
	if l, b := hopper.SpeculationSplit(&ws, 3, 1, 1, 10, 2); l != 3 || b != 6 {
		t.Errorf("SpeculationSplit(3, 1, 1, 10, β 2) = %d, %d; want 3, 6", l, b)
	}
}

// TestMantriCutoff: the δ-quantile of a new copy's duration, Pareto with
// x_m = t_new·(β−1)/β and tail β, against gonum's quantile where x_m is a
// normal number, and the edges worked by hand: δ = 1 gives +Inf; a
// subnormal t_new gives a positive cut-off, where x_m itself underflows to
// 0; MaxFloat64 at δ near 1 overflows to +Inf.
func TestMantriCutoff(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		tnew := math.Ldexp(rapid.Float64Range(0.5, 1).Draw(t, "frac"), rapid.IntRange(-1000, 1000).Draw(t, "exp"))
		beta := rapid.Float64Range(1.01, 10).Draw(t, "beta")
		delta := rapid.Float64Range(0, 0.99).Draw(t, "delta")
		want := distuv.Pareto{Xm: tnew * (beta - 1) / beta, Alpha: beta}.Quantile(delta)
		got := hopper.MantriCutoff(tnew, beta, delta)
		if math.Abs(got-want) > 1e-12*want {
			t.Fatalf("MantriCutoff(%v, %v, %v) = %v; gonum %v", tnew, beta, delta, got, want)
		}
	})
	if c := hopper.MantriCutoff(1, 1.5, 1); !math.IsInf(c, 1) {
		t.Errorf("δ = 1: %v, want +Inf", c)
	}
	if c := hopper.MantriCutoff(5e-324, 1.5, 0.9); c != 2*5e-324 {
		t.Errorf("t_new = 5e-324, δ = 0.9: %v, want 2 × 5e-324 (x_m underflows to 0; the quantile, 1.547 × 5e-324, rounds to two units)", c)
	}
	if c := hopper.MantriCutoff(math.MaxFloat64, 1.5, 1-1e-9); !math.IsInf(c, 1) {
		t.Errorf("t_new = MaxFloat64, δ near 1: %v, want +Inf", c)
	}
}
