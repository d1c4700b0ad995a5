package stragglers

import (
	"math"
	"testing"
)

// TestAllocateNoSpeculationWeight: a job with β = 2 runs no speculation
// (μ = min(S, T)) and contributes no weight T/√(β−1) to the water level,
// so only the jobs with β < 2 count toward the ΣT/√(β−1) ≤ MaxFloat64/2
// bound. T = (2e307, 5e307), β = (1.25, 2): ΣT = 7e307 and the weights sum
// to 4e307, both within the bound, so the snapshot is accepted (counting
// the β = 2 job's T as a weight would give 9e307 and reject it), and the
// shares sum to S.
func TestAllocateNoSpeculationWeight(t *testing.T) {
	t.Parallel()
	remaining, beta := []float64{2e307, 5e307}, []float64{1.25, 2}
	for _, slots := range []float64{1, 1e308} {
		got, err := Allocate(nil, remaining, beta, slots, nil)
		if err != nil {
			t.Fatalf("S = %g: %v", slots, err)
		}
		if s := got[0] + got[1]; math.Abs(s-slots) > 1e-12*slots {
			t.Errorf("S = %g: shares %v sum to %g", slots, got, s)
		}
	}
}
