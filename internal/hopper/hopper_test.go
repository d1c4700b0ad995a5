package hopper_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
)

// TestMain: SPECSCHED_RAPID_SHRINKTIME caps rapid's shrinking in mutation
// runs (testutil.Main); unset, the tests run as usual.
func TestMain(m *testing.M) { testutil.Main(m) }

// betaGen draws a valid tail index: the edges of (1, 2), 2 itself, and
// values on both sides of it.
func betaGen() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Float64Range(1, 3).Filter(func(b float64) bool { return b > 1 }),
		rapid.SampledFrom([]float64{math.Nextafter(1, 2), 1.5, math.Nextafter(2, 1), 2, 7, math.MaxFloat64}),
	)
}

// snapshotGen draws a valid snapshot for Algorithm 1: magnitudes from the
// whole float64 range, some −0, and sometimes a few values near MaxFloat64/4
// so that the pairwise sum reaches MaxFloat64/2 (Summarize's running-sum
// path).
func snapshotGen(t *rapid.T) []float64 {
	xs := testutil.Magnitudes(0, 40).Draw(t, "remaining")
	for i := range xs {
		switch rapid.IntRange(0, 15).Draw(t, "special") {
		case 0:
			xs[i] = math.Copysign(0, -1)
		case 1:
			xs[i] = rapid.SampledFrom([]float64{0x1p1021, 0x1p1022, 0x1.8p1021, math.MaxFloat64 / 3}).Draw(t, "large")
		}
	}
	return xs
}

// testKernelsAgree: on every valid input the kernels give, bit for bit, what
// alloc's exported functions give; Summarize gives check.Summarize's values.
func testKernelsAgree(t *rapid.T) {
	remaining := snapshotGen(t)
	beta := betaGen().Draw(t, "beta")
	slots := testutil.Magnitude().Draw(t, "slots")

	got := hopper.Summarize(remaining, beta)
	sum, err := check.Summarize("test", "remaining", remaining)
	if err != nil {
		return // ΣT overflows: not a valid snapshot
	}
	want := hopper.NewSummary(hopper.Factor(beta), sum.Total, sum.Least, sum.Most)
	for _, f := range [][3]any{
		{"Factor", got.Factor, want.Factor}, {"Total", got.Total, want.Total},
		{"Least", got.Least, want.Least}, {"Most", got.Most, want.Most},
		{"VirtualTotal", got.VirtualTotal, want.VirtualTotal},
	} {
		if math.Float64bits(f[1].(float64)) != math.Float64bits(f[2].(float64)) {
			t.Fatalf("Summarize(%v, %v).%s = %v, check.Summarize gives %v", remaining, beta, f[0], f[1], f[2])
		}
	}

	wantAlloc, err := alloc.Allocate(nil, remaining, slots, beta, nil)
	if err != nil {
		t.Fatalf("alloc.Allocate rejects a valid snapshot: %v", err)
	}
	gotAlloc := make([]float64, len(remaining))
	hopper.Allocate(gotAlloc, remaining, slots, got, new(selection.Workspace))
	for i := range gotAlloc {
		if math.Float64bits(gotAlloc[i]) != math.Float64bits(wantAlloc[i]) {
			t.Fatalf("job %d: Allocate gives %v, alloc.Allocate %v", i, gotAlloc[i], wantAlloc[i])
		}
	}

	for _, x := range remaining {
		if level, err := alloc.SpeculationLevel(x, slots, beta); err == nil {
			if got := hopper.Level(x, slots, beta); math.Float64bits(got) != math.Float64bits(level) {
				t.Fatalf("Level(%v, %v, %v) = %v, alloc.SpeculationLevel gives %v", x, slots, beta, got, level)
			}
		}
	}
	if v, err := alloc.VirtualSize(1, beta); err != nil || v != hopper.Factor(beta) {
		t.Fatalf("Factor(%v) = %v, alloc.VirtualSize(1, β) = %v, %v", beta, hopper.Factor(beta), v, err)
	}
}

func TestKernelsAgree(t *testing.T) { t.Parallel(); rapid.Check(t, testKernelsAgree) }

// TestSummarizeRunningSum: at a pairwise sum of MaxFloat64/2 or more the
// total is the running sum in index order, as check.Summarize's is — here
// they differ in the last bit.
func TestSummarizeRunningSum(t *testing.T) {
	t.Parallel()
	// even = 2^1022 + 2^970, odd = 2^1021 + 2^969·3: pairwise and running
	// sums round differently.
	remaining := []float64{0x1p1022, 0x1p1021, 0x1p970, 0x1.8p970, 0x1p969}
	sum, err := check.Summarize("test", "remaining", remaining)
	if err != nil {
		t.Fatal(err)
	}
	if got := hopper.Summarize(remaining, 1.5).Total; math.Float64bits(got) != math.Float64bits(sum.Total) {
		t.Fatalf("Summarize(%v).Total = %v, check.Summarize gives %v", remaining, got, sum.Total)
	}
}
