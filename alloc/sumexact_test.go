package alloc

import (
	"slices"
	"testing"
)

// TestAllocateCutReachedByBucketOnly is the regression test of a cut that
// the search's coarse level found and its finer level lost (found by
// stragglers' TestAllocateSlots at 12 792 checks): T = 28 zeros, twelve
// 1s, six 2s, two 3s, five 4s, two 5s, thirty-three 6s and a 40, β = 1.5,
// S = 80. The virtual sizes (4/3)·T of the jobs up to T = 5 sum to exactly
// 80, so by Algorithm 1 those jobs get V_i and the others 0. The histogram
// bucket holding T = 5 reached 80, the finer level's running sum 80 − ulp,
// and the search reported no cut: every job got its virtual size, Σ = 397.
func TestAllocateCutReachedByBucketOnly(t *testing.T) {
	t.Parallel()
	var remaining []float64
	for _, g := range []struct {
		t float64
		n int
	}{{0, 28}, {1, 12}, {2, 6}, {3, 2}, {4, 5}, {5, 2}, {6, 33}, {40, 1}} {
		for range g.n {
			remaining = append(remaining, g.t)
		}
	}
	got, err := Allocate(nil, remaining, 80, 1.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i, x := range got {
		sum += x
		want := 0.0
		if remaining[i] <= 5 {
			want = remaining[i] * 2 / 1.5
		}
		if d := x - want; d > 1e-12*80 || d < -1e-12*80 {
			t.Errorf("job %d (T = %v): %v, want %v", i, remaining[i], x, want)
		}
	}
	if d := sum - 80; d > 1e-12*80 || d < -1e-12*80 {
		t.Errorf("ΣS_i = %v, want 80", sum)
	}
	slots, err := AllocateSlots(nil, remaining, 80, 1.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, x := range slots {
		total += x
	}
	if total != 80 || slices.Max(slots[:40]) < 1 {
		t.Errorf("AllocateSlots = %v (Σ %d), want Σ 80 with every T = 1 job served", slots, total)
	}
}
