// Package stats computes the one summary (specsched.Summary) the simulators
// and cmd/specsim report about a run's completion (or response) times: how
// many, their mean and their empirical 50th, 90th and 99th percentiles, the
// metrics of the Hopper thesis (§6), Eagle (§5) and the overlapping-phases
// paper (§5.3).
//
// A percentile is gonum's empirical quantile (stat.Quantile with
// stat.Empirical): the q-quantile of n sorted times is the smallest time c
// such that at least a fraction q of the times are ≤ c, that is the
// ⌈q·n⌉-th smallest (the first, for q·n ≤ 1). The mean is gonum's
// stat.Mean. Both are called as they were before the summary was shared,
// so every printed number is the same bit for bit.
package stats

import (
	"math"
	"slices"

	"github.com/specsched/specsched"
	"gonum.org/v1/gonum/stat"
)

// Summarize returns the summary of times, and sorts times in place. The
// mean is summed in the order times are given, before the sort (floating
// point addition is not associative: sort times first for the mean of the
// sorted times). O(n log n). With no times, Jobs is 0 and the mean and
// percentiles are NaN.
func Summarize(times []float64) specsched.Summary {
	if len(times) == 0 {
		nan := math.NaN()
		return specsched.Summary{Mean: nan, P50: nan, P90: nan, P99: nan}
	}
	mean := stat.Mean(times, nil)
	slices.Sort(times)
	return specsched.Summary{
		Jobs: len(times),
		Mean: mean,
		P50:  Quantile(0.5, times),
		P90:  Quantile(0.9, times),
		P99:  Quantile(0.99, times),
	}
}

// Quantile returns the empirical q-quantile of sorted, which must be sorted
// in increasing order and not empty, and q in [0, 1]: the ⌈q·n⌉-th
// smallest value (the first for q·n ≤ 1). O(n).
func Quantile(q float64, sorted []float64) float64 {
	return stat.Quantile(q, stat.Empirical, sorted, nil)
}
