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

// epsGen draws ε at its ends, just inside them, and within (0, 1).
func epsGen() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.1, 0.5, 1 - 0x1p-53, 1}))
}

// fair runs the kernel on a fresh dst, checks that remaining is left as it
// was and that Fair reports an active job exactly when some T_i > 0.
func fair(t *rapid.T, remaining []float64, slots, beta, eps float64) []float64 {
	orig := slices.Clone(remaining)
	dst := make([]float64, len(remaining))
	for i := range dst {
		dst[i] = math.NaN() // every share must be written
	}
	active := hopper.Fair(dst, remaining, slots, eps, hopper.Summarize(remaining, beta), new(selection.Workspace))
	if !slices.Equal(remaining, orig) {
		t.Fatal("Fair modified remaining")
	}
	if want := slices.ContainsFunc(remaining, func(x float64) bool { return x > 0 }); active != want {
		t.Fatalf("Fair(%v) reports active = %v, want %v", remaining, active, want)
	}
	return dst
}

// testFairMatchesReference: the kernel gives Algorithm 2 as the thesis
// states it (testutil.FairReference, a sort and a scan for m₂) to
// rounding, on snapshots with ties, finished jobs and ε at its ends.
func testFairMatchesReference(t *rapid.T) {
	remaining, beta := smallGen(t, 40)
	slots := rapid.OneOf(rapid.Float64Range(0, 200), rapid.Float64Range(0, 20)).Draw(t, "slots")
	eps := epsGen().Draw(t, "eps")
	got := fair(t, remaining, slots, beta, eps)
	want := testutil.FairReference(remaining, slots, beta, eps)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9*max(1, slots) || math.Signbit(got[i]) {
			t.Fatalf("job %d (T = %v): %v, reference %v\nT = %v, S = %v, β = %v, ε = %v\ngot %v", i, remaining[i], got[i], want[i], remaining, slots, beta, eps, got)
		}
	}
}

func TestFairMatchesReference(t *testing.T) { t.Parallel(); rapid.Check(t, testFairMatchesReference) }

// testFairMagnitudes: at every magnitude the kernel meets
// its precondition for (Σ c·T_i in index order finite), the allocation is
// Algorithm 2's exact one up to rounding (testutil.CheckFairExact, in
// big.Rat: each share, the floor of Theorem 2, ΣS_i = S).
func testFairMagnitudes(t *rapid.T) {
	remaining := snapshotGen(t)
	beta := rapid.SampledFrom([]float64{1.01, 1.5, 1.9, 2, 3}).Draw(t, "beta")
	var running float64
	for _, x := range remaining {
		running += testutil.Factor(beta) * x
	}
	if math.IsInf(running, 1) || math.IsInf(hopper.Summarize(remaining, beta).Total, 1) {
		t.Skip("ΣV overflows: outside the kernel's precondition")
	}
	var slots float64
	if rapid.Bool().Draw(t, "slotsFromVirtualTotal") {
		slots = min(math.MaxFloat64, running*rapid.Float64Range(0, 2.5).Draw(t, "slotsPerVirtualTotal"))
	} else {
		slots = testutil.Magnitude().Draw(t, "slots")
	}
	eps := epsGen().Draw(t, "eps")
	testutil.CheckFairExact(t, fair(t, remaining, slots, beta, eps), remaining, slots, beta, eps)
}

func TestFairMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testFairMagnitudes) }

func FuzzFairMagnitudes(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testFairMagnitudes)) }
