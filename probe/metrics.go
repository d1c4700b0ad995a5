package probe

import "github.com/specsched/specsched/internal/stats"

// Percentiles are the 50th, 90th and 99th percentiles of job completion
// times, the metrics of Eagle's evaluation (§5).
type Percentiles struct {
	P50, P90, P99 float64
	Jobs          int // how many jobs they summarise
}

// A Summary gives the completion-time percentiles of short and long jobs.
type Summary struct {
	Short, Long Percentiles
}

// Summarize returns the 50/90/99th percentiles of r's completion times for
// the jobs r classified short and long. A percentile is the empirical
// quantile: the smallest completion time c such that at least that
// fraction of the jobs completed within c (gonum stat.Quantile,
// stat.Empirical), the same percentiles sim's results and specsim's tables
// report. O(n log n). A class with no job has NaN percentiles and Jobs = 0.
func (r *Result) Summarize() Summary {
	var short, long []float64
	for j, c := range r.Completion {
		if r.Class[j] == Long {
			long = append(long, c)
		} else {
			short = append(short, c)
		}
	}
	return Summary{Short: percentiles(short), Long: percentiles(long)}
}

func percentiles(x []float64) Percentiles {
	s := stats.Summarize(x)
	return Percentiles{P50: s.P50, P90: s.P90, P99: s.P99, Jobs: s.Jobs}
}
