package stats

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// exactQuantile is the definition, in integers: the smallest c among the
// times with #{x ≤ c}·den ≥ num·n (at least a fraction num/den of the
// times are ≤ c), found by counting for every candidate.
func exactQuantile(num, den int, times []float64) float64 {
	best := math.Inf(1)
	for _, c := range times {
		k := 0
		for _, x := range times {
			if x <= c {
				k++
			}
		}
		if k*den >= num*len(times) && c < best {
			best = c
		}
	}
	return best
}

// exactMean is the mean with the sum in math/big, rounded once.
func exactMean(times []float64) float64 {
	sum := new(big.Float).SetPrec(2000)
	for _, x := range times {
		sum.Add(sum, new(big.Float).SetFloat64(x))
	}
	m, _ := sum.Quo(sum, new(big.Float).SetInt64(int64(len(times)))).Float64()
	return m
}

// testSummarize: on random times with ties, the percentiles are the exact
// quantiles of the definition, the mean is within a few ulps of the exact
// mean, Jobs counts the times and times end sorted (a permutation of the
// input).
func testSummarize(t *rapid.T) {
	times := rapid.SliceOfN(rapid.OneOf(
		rapid.Float64Range(0, 1e6),
		rapid.SampledFrom([]float64{0, 1, 2, 2.5, 1e300, 5e-324}),
	), 1, 300).Draw(t, "times")
	input := slices.Clone(times)
	s := Summarize(times)
	if s.Jobs != len(input) {
		t.Fatalf("Jobs %d, want %d", s.Jobs, len(input))
	}
	sorted := slices.Clone(input)
	slices.Sort(sorted)
	if !slices.Equal(times, sorted) {
		t.Fatalf("times not sorted in place: %v", times)
	}
	for _, c := range []struct {
		num  int
		got  float64
		name string
	}{{50, s.P50, "p50"}, {90, s.P90, "p90"}, {99, s.P99, "p99"}} {
		if want := exactQuantile(c.num, 100, input); c.got != want {
			t.Fatalf("%s = %v, want %v", c.name, c.got, want)
		}
	}
	const tol = 1e-12 // relative: the sum of n ≤ 300 positive terms
	if want := exactMean(input); math.Abs(s.Mean-want) > tol*want {
		t.Fatalf("mean %v, exact %v", s.Mean, want)
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSummarize)
}

// TestSummarizeWorked: a sample worked by hand. n = 10 sorted times
// 1..10: p50 is the 5th (⌈5⌉), p90 the 9th, p99 the 10th (⌈9.9⌉); the
// mean is 5.5.
func TestSummarizeWorked(t *testing.T) {
	t.Parallel()
	times := []float64{10, 3, 7, 1, 9, 2, 8, 4, 6, 5}
	got := Summarize(times)
	want := specsched.Summary{Jobs: 10, Mean: 5.5, P50: 5, P90: 9, P99: 10}
	if got != want {
		t.Fatalf("Summarize = %+v, want %+v", got, want)
	}
	if q := Quantile(0, times); q != 1 {
		t.Fatalf("Quantile(0) = %v, want the least, 1", q)
	}
}

// TestSummarizeMeanOrder: the mean is summed in the order given, before
// the sort. [1e16, 1, 1] loses both ones (1e16 + 1 rounds back to 1e16,
// the ulp there being 2), while the sorted [1, 1, 1e16] sums exactly to
// 1e16 + 2.
func TestSummarizeMeanOrder(t *testing.T) {
	t.Parallel()
	given := []float64{1e16, 1, 1}
	got := Summarize(given).Mean
	if want := 1e16 / 3; got != want {
		t.Fatalf("mean of [1e16 1 1] = %v, want %v (summed in the given order)", got, want)
	}
	sortedFirst := []float64{1, 1, 1e16}
	if got, want := Summarize(sortedFirst).Mean, (1e16+2)/3; got != want {
		t.Fatalf("mean of [1 1 1e16] = %v, want %v", got, want)
	}
}

// TestSummarizeEmpty: no times, NaN statistics and no panic.
func TestSummarizeEmpty(t *testing.T) {
	t.Parallel()
	s := Summarize(nil)
	if s.Jobs != 0 || !math.IsNaN(s.Mean) || !math.IsNaN(s.P50) || !math.IsNaN(s.P90) || !math.IsNaN(s.P99) {
		t.Fatalf("Summarize(nil) = %+v, want Jobs 0 and NaNs", s)
	}
}
