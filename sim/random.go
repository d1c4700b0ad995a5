package sim

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Common random numbers. Every random quantity of a run — the duration of
// the k-th copy of a task, the error of its estimate, which task's duration
// a copy borrows — is drawn from its own PCG stream, keyed by the run's seed,
// the purpose, the task and the copy number. So a task's k-th copy takes the
// same time under every policy that runs it, whatever else happened before:
// policies are compared on the same sample path (paired comparisons), and a
// run does not depend on the order in which events of equal time are taken.

// Purposes of keyed draws.
const (
	drawDuration uint64 = iota + 1 // a copy's duration under CopyService
	drawBorrow                     // which task's duration a copy of a traced task borrows
	drawEstimate                   // the error factor η of a copy's progress estimate
	drawMachine                    // a copy's machine slowdown under MachineService
	drawSlowdown                   // where a copy's progress slows down under Observed
)

// splitmix64 is a bijective 64-bit mixer (Steele, Lea, Flood 2014), used to
// spread structured keys over PCG's seed space.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// keyedUniform returns a uniform draw in (0, 1) from the stream keyed by
// (seed, purpose, task, copy): the first output of a PCG seeded from the
// mixed key, mapped to the centre of one of 2⁵³ equal cells, so that 0 and 1
// never occur and quantile functions stay finite.
func keyedUniform(seed, purpose uint64, task, copyNum int) float64 {
	var pcg rand.PCG
	pcg.Seed(splitmix64(seed^splitmix64(purpose)), splitmix64(uint64(task)<<24^uint64(copyNum)))
	return (float64(pcg.Uint64()>>11) + 0.5) / (1 << 53)
}

// paretoDuration returns the k-th copy's duration of task (global index) from
// Pareto(xm, β) truncated at limit (0: none), by the inverse CDF of gonum's
// distuv.Pareto: the quantile of u·F(limit).
func paretoDuration(seed uint64, task, copyNum int, xm, beta, limit float64) float64 {
	u := keyedUniform(seed, drawDuration, task, copyNum)
	d := distuv.Pareto{Xm: xm, Alpha: beta}
	if limit > 0 {
		return math.Min(d.Quantile(u*d.CDF(limit)), limit)
	}
	return d.Quantile(u)
}

// firstDuration is how long the first copy of task i of phase ph of job
// runs under CopyService, task being its global index (over all jobs and
// phases, in input order): Durations[i], or its keyed Pareto draw.
func firstDuration(seed uint64, job *Job, ph *Phase, i, task int) float64 {
	if ph.Durations != nil {
		return ph.Durations[i]
	}
	return paretoDuration(seed, task, 0, ph.Scale, job.Beta, ph.Cap)
}

// logNormalMedianOne returns e^{σZ}, Z standard normal, from the keyed
// stream: a log-normal factor with median 1 (gonum's distuv.LogNormal).
func logNormalMedianOne(seed, purpose uint64, task, copyNum int, sigma float64) float64 {
	if sigma == 0 {
		return 1
	}
	u := keyedUniform(seed, purpose, task, copyNum)
	return distuv.LogNormal{Mu: 0, Sigma: sigma}.Quantile(u)
}

// logNormalMeanOne returns a log-normal factor with mean 1 and coefficient
// of variation cv: σ² = ln(1 + cv²), μ = −σ²/2.
func logNormalMeanOne(seed, purpose uint64, task, copyNum int, cv float64) float64 {
	s2 := math.Log1p(cv * cv)
	u := keyedUniform(seed, purpose, task, copyNum)
	return distuv.LogNormal{Mu: -s2 / 2, Sigma: math.Sqrt(s2)}.Quantile(u)
}

// borrowIndex returns the task of a phase of n tasks whose duration the k-th
// copy of task (global index) borrows.
func borrowIndex(seed uint64, task, copyNum, n int) int {
	u := keyedUniform(seed, drawBorrow, task, copyNum)
	i := int(u * float64(n))
	if i >= n {
		i = n - 1
	}
	return i
}
