package hopper_test

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
)

// The kernels on their own, against worked values and a sort-based
// reference of Algorithm 1 written from the thesis (§3.3: fill the virtual
// sizes smallest job first until S, or share S in proportion to T when the
// virtual sizes do not reach it), so that a change to the kernels cannot
// pass by agreeing with alloc, which calls them.

// TestFactorLevelWorked: c = 2/β below 2 and 1 from 2 on (eq. 3.2); the
// level is 0 without tasks, 1 from β = 2 on, and max(2/β, S/T) otherwise.
func TestFactorLevelWorked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ beta, want float64 }{{1.5, 4.0 / 3}, {1.25, 1.6}, {math.Nextafter(2, 1), 2 / math.Nextafter(2, 1)}, {2, 1}, {3, 1}} {
		if got := hopper.Factor(c.beta); got != c.want {
			t.Errorf("Factor(%v) = %v, want %v", c.beta, got, c.want)
		}
	}
	for _, c := range []struct{ remaining, slots, beta, want float64 }{
		{0, 5, 1.5, 0},       // no task to copy
		{4, 10, 2, 1},        // no speculation
		{4, 10, 1.5, 2.5},    // above the virtual size: S/T
		{4, 2, 1.5, 4.0 / 3}, // below it: 2/β
		{3, 4, 1.5, 4.0 / 3}, // at it: both 4/3
		{1, 1e6, 1.25, 1e6},  // far above
		{5, 0, 1.25, 1.6},    // no slots: 2/β
		{0, 0, 2, 0},         // no tasks beats β ≥ 2
		{2, 3, 3, 1},         // β ≥ 2 beats S/T
	} {
		if got := hopper.Level(c.remaining, c.slots, c.beta); got != c.want {
			t.Errorf("Level(%v, %v, %v) = %v, want %v", c.remaining, c.slots, c.beta, got, c.want)
		}
	}
}

// refAllocate is Algorithm 1 from the thesis, by a sort.
func refAllocate(remaining []float64, slots, beta float64) []float64 {
	c := testutil.Factor(beta)
	out := make([]float64, len(remaining))
	total := 0.0
	for _, t := range remaining {
		total += t
	}
	if total == 0 || slots == 0 {
		return out
	}
	if c*total < slots*(1-hopper.CaseTolerance) {
		for i, t := range remaining {
			out[i] = t / total * slots
		}
		return out
	}
	idx := make([]int, len(remaining))
	for i := range idx {
		idx[i] = i
	}
	left := slots
	for _, i := range testutil.SmallestFirst(idx, remaining) {
		v := math.Min(c*remaining[i], left)
		out[i] = v
		left -= v
	}
	return out
}

// smallGen draws a snapshot of up to maxJobs jobs on a small scale, with
// ties and finished jobs, and a tail index on both sides of 2.
func smallGen(t *rapid.T, maxJobs int) (remaining []float64, beta float64) {
	remaining = make([]float64, rapid.IntRange(0, maxJobs).Draw(t, "n"))
	for i := range remaining {
		remaining[i] = rapid.OneOf(rapid.Float64Range(0, 50), rapid.Just(0.0), rapid.SampledFrom([]float64{1, 2, 3, 5})).Draw(t, "T")
	}
	return remaining, rapid.SampledFrom([]float64{1.1, 1.5, 1.9, 2, 4}).Draw(t, "beta")
}

// testAllocateMatchesReference: the kernel agrees with the sort-based
// reference to rounding, sums to S (or to ΣV when that is below S), and
// leaves the snapshot as it was.
func testAllocateMatchesReference(t *rapid.T) {
	remaining, beta := smallGen(t, 60)
	n := len(remaining)
	slots := rapid.Float64Range(0, 200).Draw(t, "slots")
	orig := slices.Clone(remaining)
	var ws selection.Workspace
	dst := make([]float64, n)
	hopper.Allocate(dst, remaining, slots, hopper.Summarize(remaining, beta), &ws)
	if !slices.Equal(remaining, orig) {
		t.Fatal("remaining modified")
	}
	want := refAllocate(remaining, slots, beta)
	tol := 1e-9 * max(1, slots)
	for i := range dst {
		if math.Abs(dst[i]-want[i]) > tol {
			t.Fatalf("job %d (T = %v): %v, reference %v\nT = %v, S = %v, β = %v", i, remaining[i], dst[i], want[i], remaining, slots, beta)
		}
	}
}

func TestAllocateMatchesReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateMatchesReference)
}

func FuzzAllocateMatchesReference(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateMatchesReference)) }

// TestSummarizeThresholdExact: a pairwise total of exactly MaxFloat64/2 is
// already "at the threshold", so the total is the running sum in index
// order, as check.Summarize has it. T = {2^1022 − 2^969, 2^1022 − 2^970,
// 2^968}: the even accumulator rounds (2^1022 − 2^969) + 2^968 up to 2^1022
// (a tie, to even), so even + odd = 2^1023 − 2^970 = MaxFloat64/2 exactly;
// the running sum rounds the first two to 2^1023 − 2^971 and stays there.
func TestSummarizeThresholdExact(t *testing.T) {
	t.Parallel()
	xs := []float64{0x1p1022 - 0x1p969, 0x1p1022 - 0x1p970, 0x1p968}
	want := 0x1p1023 - 0x1p971
	if got := hopper.Summarize(xs, 1.5).Total; got != want {
		t.Errorf("Summarize total = %v, want the running sum %v (the pairwise sum is MaxFloat64/2 = %v)", got, want, math.MaxFloat64/2)
	}
}

// testAllocateMagnitudes: on snapshots over float64's whole range (the
// kernel's precondition: ΣT_i finite; ΣV_i may overflow, the case is then
// the constrained one), the kernel gives the exact Algorithm 1 up to
// rounding (testutil.CheckAllocateExact, in big.Float): the scaled path of
// a case-2 quotient below the normal range, and the fill when rounding
// leaves the cut-off unreached, included.
func testAllocateMagnitudes(t *rapid.T) {
	remaining := snapshotGen(t)
	beta := betaGen().Draw(t, "beta")
	slots := testutil.Magnitude().Draw(t, "slots")
	snap := hopper.Summarize(remaining, beta)
	if math.IsInf(snap.Total, 1) {
		t.Skip("ΣT overflows: outside the kernel's precondition")
	}
	dst := make([]float64, len(remaining))
	hopper.Allocate(dst, remaining, slots, snap, new(selection.Workspace))
	testutil.CheckAllocateExact(t, dst, remaining, slots, beta)
}

func TestAllocateMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateMagnitudes) }
