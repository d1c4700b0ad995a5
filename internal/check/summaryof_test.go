package check_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/check"
)

// testSummaryOfAgrees: on valid values — magnitudes over float64's range,
// −0, sums near MaxFloat64/2 — SummaryOf returns Summarize's summary bit
// for bit.
func testSummaryOfAgrees(t *rapid.T) {
	xs := rapid.SliceOfN(rapid.OneOf(
		rapid.Float64Range(0, 1e6),
		rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 5e-324, 1e-300, 0x1p1021, math.MaxFloat64 / 3, 1e300}),
	), 0, 30).Draw(t, "xs")
	want, err := check.Summarize("f", "x", xs)
	if err != nil {
		return // the sum overflows: not valid
	}
	got := check.SummaryOf(xs)
	if math.Float64bits(got.Total) != math.Float64bits(want.Total) || math.Float64bits(got.Least) != math.Float64bits(want.Least) || math.Float64bits(got.Most) != math.Float64bits(want.Most) {
		t.Fatalf("SummaryOf(%v) = %+v, Summarize %+v", xs, got, want)
	}
}

func TestSummaryOfAgrees(t *testing.T) { t.Parallel(); rapid.Check(t, testSummaryOfAgrees) }

func FuzzSummaryOfAgrees(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSummaryOfAgrees)) }

// TestSummaryOfThresholdExact: a pairwise total of exactly MaxFloat64/2
// takes the running sum, as Summarize does (the instance of
// internal/hopper's TestSummarizeThresholdExact).
func TestSummaryOfThresholdExact(t *testing.T) {
	t.Parallel()
	xs := []float64{0x1p1022 - 0x1p969, 0x1p1022 - 0x1p970, 0x1p968}
	if got, want := check.SummaryOf(xs).Total, 0x1p1023-0x1p971; got != want {
		t.Errorf("SummaryOf total = %v, want the running sum %v", got, want)
	}
}
