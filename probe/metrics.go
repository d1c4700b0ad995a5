package probe

import (
	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/stats"
)

// A Summary gives the completion times of short and long jobs: how many,
// their mean and their 50th, 90th and 99th percentiles (the metrics of
// Eagle's evaluation, §5).
type Summary struct {
	Short, Long specsched.Summary
}

// Summarize returns the 50/90/99th percentiles of r's completion times for
// the jobs r classified short and long. A percentile is the empirical
// quantile: the smallest completion time c such that at least that
// fraction of the jobs completed within c (gonum stat.Quantile,
// stat.Empirical), the same percentiles sim's results and specsim's tables
// report. The mean is summed in job order. O(n log n). A class with no job
// has a NaN mean and percentiles and Jobs = 0.
func (r *Result) Summarize() Summary {
	var short, long []float64
	for j, c := range r.Completion {
		if r.Class[j] == Long {
			long = append(long, c)
		} else {
			short = append(short, c)
		}
	}
	return Summary{Short: stats.Summarize(short), Long: stats.Summarize(long)}
}
