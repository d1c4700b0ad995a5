package specsched

// A Summary condenses a sample of times — a run's job completion (or
// response) times: how many, their mean and their empirical 50th, 90th and
// 99th percentiles, the metrics of the Hopper thesis (§6), Eagle (§5) and
// the overlapping-phases paper (§5.3). It is the one summary every
// simulator reports (sim.Summary embeds it; probe.Summary has one per job
// class) and the columns cmd/specsim prints, under the JSON names below.
//
// A percentile is the empirical quantile (gonum's stat.Quantile with
// stat.Empirical): the q-quantile of n times is the smallest time c such
// that at least a fraction q of the times are ≤ c, that is the ⌈q·n⌉-th
// smallest (the first, for q·n ≤ 1). The mean is gonum's stat.Mean, summed
// in the order the simulator documents. With no times, Jobs is 0 and the
// mean and percentiles are NaN.
type Summary struct {
	Jobs int     `json:"jobs"` // how many times
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
}
