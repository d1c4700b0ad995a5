package hopper_test

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
)

// slotsGen draws a snapshot of task counts (the simulators' inputs: ties,
// finished jobs) and an integer number of slots on the scale of ΣT, so
// that both of Algorithm 1's cases (and ties between fractional parts of
// different T_i, as T·S/ΣT = 4.5 and 1.5) come up.
func slotsGen(t *rapid.T) (remaining []float64, beta float64, slots int) {
	remaining = make([]float64, rapid.IntRange(0, 40).Draw(t, "n"))
	total := 0
	for i := range remaining {
		x := rapid.OneOf(rapid.IntRange(0, 60), rapid.SampledFrom([]int{0, 1, 2, 3, 5})).Draw(t, "T")
		remaining[i] = float64(x)
		total += x
	}
	beta = rapid.SampledFrom([]float64{1.1, 1.5, 1.9, 2, 4}).Draw(t, "beta")
	return remaining, beta, rapid.IntRange(0, 3*total+3).Draw(t, "slots")
}

// checkRounded: got is the textbook largest-remainder rounding
// (testutil.LargestRemainder, a sort) of the real shares to total, ties
// to the smaller T_i, then the smaller index.
func checkRounded(t *rapid.T, got []int, shares, remaining []float64, total int) {
	want, ok := testutil.LargestRemainder(shares, total, remaining)
	if !ok {
		t.Fatalf("shares %v do not round textbook-wise to %d", shares, total)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, largest remainder of %v to %d: %v (T = %v)", got, shares, total, want, remaining)
	}
}

// testAllocateSlotsRounds: AllocateSlots is Allocate's real shares
// (checked against the sort-based reference by
// TestAllocateMatchesReference) rounded by largest remainder to exactly S
// when some job has work, to 0 otherwise; remaining is left as it was.
func testAllocateSlotsRounds(t *rapid.T) {
	remaining, beta, slots := slotsGen(t)
	orig := slices.Clone(remaining)
	snap := hopper.Summarize(remaining, beta)
	got := make([]int, len(remaining))
	for i := range got {
		got[i] = -1 // every slot must be written
	}
	hopper.AllocateSlots(got, remaining, slots, snap, new(selection.Workspace))
	if !slices.Equal(remaining, orig) {
		t.Fatal("AllocateSlots modified remaining")
	}
	shares := make([]float64, len(remaining))
	hopper.Allocate(shares, remaining, float64(slots), snap, new(selection.Workspace))
	total := slots
	if snap.Total == 0 {
		total = 0
	}
	checkRounded(t, got, shares, remaining, total)
}

func TestAllocateSlotsRounds(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateSlotsRounds) }

func FuzzAllocateSlotsRounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateSlotsRounds)) }

// testFairSlotsRounds: FairSlots is Fair's real shares (checked against
// testutil.FairReference by TestFairMatchesReference) rounded by largest
// remainder to exactly S when some job is active, to 0 otherwise; and every
// active job keeps at least ⌊(1−ε)·S/N⌋ slots.
func testFairSlotsRounds(t *rapid.T) {
	remaining, beta, slots := slotsGen(t)
	eps := epsGen().Draw(t, "eps")
	orig := slices.Clone(remaining)
	snap := hopper.Summarize(remaining, beta)
	got := make([]int, len(remaining))
	for i := range got {
		got[i] = -1
	}
	hopper.FairSlots(got, remaining, slots, eps, snap, new(selection.Workspace))
	if !slices.Equal(remaining, orig) {
		t.Fatal("FairSlots modified remaining")
	}
	shares := fair(t, remaining, float64(slots), beta, eps)
	active := 0
	for _, x := range remaining {
		if x > 0 {
			active++
		}
	}
	total := slots
	if active == 0 {
		total = 0
	}
	checkRounded(t, got, shares, remaining, total)
	for i, x := range remaining {
		if floor := int((1 - eps) * float64(slots) / float64(max(active, 1))); x > 0 && got[i] < floor {
			t.Fatalf("job %d gets %d below the floor %d", i, got[i], floor)
		}
	}
}

func TestFairSlotsRounds(t *testing.T) { t.Parallel(); rapid.Check(t, testFairSlotsRounds) }

func FuzzFairSlotsRounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testFairSlotsRounds)) }
