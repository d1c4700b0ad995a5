package alloc_test

import (
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched/alloc"
)

// The reproducers of issues 11 and 17 for package alloc, each checked
// against a hand count or an independent computation.

// TestAllocateSlotsNearMaxTotal: near 2^53 the real shares ≥ 2^52 are
// integers and their floors summed past slots; the apportionment returned
// early and Σ was slots + 1 (issue 17). Σ must be slots, and every job
// within one slot of its real share (referenceAllocate, the sorted
// Algorithm 1).
func TestAllocateSlotsNearMaxTotal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		remaining []float64
		slots     int
		beta      float64
	}{
		{[]float64{1, 2, 5.296767113215933e-05}, 1 << 53, 3},
		{[]float64{3, 1, 2.371901274344719e-14}, 1<<53 - 3, 1.1},
	}
	for _, c := range cases {
		got, err := alloc.AllocateSlots(nil, c.remaining, c.slots, c.beta, nil)
		if err != nil {
			t.Fatalf("AllocateSlots(%v, %d, %g): %v", c.remaining, c.slots, c.beta, err)
		}
		if s := sumOf(got); s != c.slots {
			t.Errorf("AllocateSlots(%v, %d, %g) = %v, Σ = %d, want %d", c.remaining, c.slots, c.beta, got, s, c.slots)
		}
		real := referenceAllocate(c.remaining, float64(c.slots), c.beta)
		for i, x := range got {
			if math.Abs(float64(x)-real[i]) > 1 {
				t.Errorf("job %d: %d slots for real share %v", i, x, real[i])
			}
		}
	}
}

// TestApportionWithinTolerance: shares that sum to total only within
// ShareSumTolerance — a unit or more off — must still give Σdst = total
// (issue 17): the difference is taken back or given out unit by unit,
// lowest-ranked unit first (hand counts).
func TestApportionWithinTolerance(t *testing.T) {
	t.Parallel()
	cases := []struct {
		shares []float64
		total  int
		want   []int
	}{
		{[]float64{1e9 + 1}, 1e9, []int{1e9}},
		{[]float64{2e9 - 2}, 2e9, []int{2e9}},
		// 9e6 too many: 4.5e6 whole rounds, one unit from each job a round.
		{[]float64{1 << 52, 1<<52 + 9e6}, 1 << 53, []int{1<<52 - 4.5e6, 1<<52 + 4.5e6}},
		// 2 short with a zero share: both units to the one positive share.
		{[]float64{0, 2e9 - 2}, 2e9, []int{0, 2e9}},
	}
	for _, c := range cases {
		got, err := alloc.Apportion(nil, c.shares, c.total, nil, nil)
		if err != nil {
			t.Fatalf("Apportion(%v, %d): %v", c.shares, c.total, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Apportion(%v, %d) = %v, want %v", c.shares, c.total, got, c.want)
		}
	}
}
