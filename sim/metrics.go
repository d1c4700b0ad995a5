package sim

import (
	"math"
	"slices"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/stats"
)

// A Summary condenses one run: the thesis's §6 metrics of job completion
// time, and what the run spent on speculation.
type Summary struct {
	Policy Preset
	// The job completion times: how many, their mean (summed over the
	// sorted times) and their empirical 50th, 90th and 99th percentiles.
	specsched.Summary
	Utilisation float64
	Copies      int     // speculative copies and clones started
	Killed      int     // copies killed when another copy of their task finished
	Wasted      float64 // slot-time held by killed copies
	// WastedFraction is Wasted over all the slot-time the run held.
	WastedFraction float64
}

// Summarize returns r's summary. A percentile q is the empirical quantile:
// the smallest completion time c such that a fraction ≥ q of the jobs
// completed within c (gonum stat.Quantile, stat.Empirical: the percentiles
// probe.Result.Summarize and specsim report).
// O(n log n).
// With no jobs the mean and percentiles are NaN.
func Summarize(r *Result) Summary {
	s := Summary{
		Policy:      r.Policy,
		Utilisation: r.Stats.Utilisation,
		Copies:      r.Stats.Copies,
		Killed:      r.Stats.Killed,
		Wasted:      r.Stats.WastedSlotTime,
	}
	if r.Stats.BusySlotTime > 0 {
		s.WastedFraction = r.Stats.WastedSlotTime / r.Stats.BusySlotTime
	}
	c := Completions(nil, r)
	slices.Sort(c) // the mean is summed over the sorted times
	s.Summary = stats.Summarize(c)
	return s
}

// Completions writes the jobs' completion times to dst, in input order, and
// returns it. O(n). dst, a []float64, cannot share memory with r.Jobs, a
// []JobResult, without unsafe code, and each entry is read before the one
// it would overlap is written, so Completions needs no aliasing check.
func Completions(dst []float64, r *Result) []float64 {
	dst = grow(dst, len(r.Jobs))
	for i := range r.Jobs {
		dst[i] = r.Jobs[i].Completion
	}
	return dst
}

// Gain returns the reduction of the mean job completion time of r against
// base, (mean_base − mean_r)/mean_base, the thesis's "gain" (§6.2: "Hopper
// improves the average job duration by 50% compared to SRPT"). It is
// negative when r is slower. O(n).
//
// An error is returned when the runs are of different numbers of jobs, a
// completion time is negative, NaN or ±Inf, base's mean is 0 (no jobs), or
// the gain overflows float64 (base's times next to nothing against r's).
func Gain(base, r *Result) (float64, error) {
	if err := sameJobs("sim.Gain", base, r); err != nil {
		return 0, err
	}
	var mb, mr float64
	for i := range base.Jobs {
		mb += base.Jobs[i].Completion
		mr += r.Jobs[i].Completion
	}
	if !(mb > 0) || math.IsInf(mb, 1) || math.IsInf(mr, 1) {
		return 0, check.Err("sim.Gain", check.Scalar, "base mean", mb, "must be finite and > 0")
	}
	g := (mb - mr) / mb
	if math.IsInf(g, 0) {
		return 0, check.Err("sim.Gain", check.Scalar, "gain", g, "overflows float64: the base completion times are too small")
	}
	return g, nil
}

// sameJobs checks that two results are of the same number of jobs, with
// completion times that are finite and ≥ 0 (as Simulate's always are).
func sameJobs(fn string, base, r *Result) error {
	if len(base.Jobs) != len(r.Jobs) {
		return check.Err(fn, check.Scalar, "len(jobs)", float64(len(r.Jobs)), "both runs must be of the same jobs")
	}
	for _, res := range []*Result{base, r} {
		for i := range res.Jobs {
			if err := check.NonNegative(fn, i, "completion", res.Jobs[i].Completion); err != nil {
				return err
			}
		}
	}
	return nil
}

// A Slowdown describes the jobs a policy slows down against a baseline run
// of the same jobs (thesis §6.3, Figure 6.4b–c, with Fair as the baseline):
// a job is slowed down when it completes strictly later, by (c − c_base)/c_base.
type Slowdown struct {
	Fraction float64 // of the jobs, slowed down
	Mean     float64 // average slow-down of the slowed jobs (0 if none)
	Worst    float64 // largest slow-down (0 if none)
}

// Slowdowns compares r with base job by job. O(n).
//
// An error is returned when the runs are of different numbers of jobs, a
// completion time is negative, NaN or ±Inf, or a slow-down overflows
// float64. Jobs with a completion time of 0 in base are not counted as
// slowed.
func Slowdowns(base, r *Result) (Slowdown, error) {
	if err := sameJobs("sim.Slowdowns", base, r); err != nil {
		return Slowdown{}, err
	}
	var s Slowdown
	slowed := 0
	for i := range base.Jobs {
		b, c := base.Jobs[i].Completion, r.Jobs[i].Completion
		if c > b && b > 0 {
			d := (c - b) / b
			if math.IsInf(d, 1) {
				return Slowdown{}, check.Err("sim.Slowdowns", i, "slow-down", d, "overflows float64: the base completion time is too small")
			}
			slowed++
			s.Mean += (d - s.Mean) / float64(slowed) // a running mean cannot overflow
			s.Worst = math.Max(s.Worst, d)
		}
	}
	if len(base.Jobs) > 0 {
		s.Fraction = float64(slowed) / float64(len(base.Jobs))
	}
	return s, nil
}

// DefaultBins are the upper edges of the job-size bins of BinGains: 1–5,
// 6–20, 21–100 and > 100 tasks. The thesis reports gains by job bin (Figure
// 6.1) without the bins in our copy; these are the library's choice, four
// bins spanning, in power-law workloads such as DefaultWorkload's, the
// small jobs that dominate the count and the large ones that carry most of
// the work.
var DefaultBins = []int{5, 20, 100}

// A BinGain is the gain in one bin of job sizes: jobs with Lo ≤ tasks ≤ Hi
// (Hi = math.MaxInt for the last bin).
type BinGain struct {
	Lo, Hi int
	Jobs   int
	Gain   float64 // Gain over the bin's jobs; NaN for an empty bin
}

// BinGains writes to dst the gain of r over base within bins of job sizes
// (tasks over all phases): edges e_0 < e_1 < … give the bins [1, e_0],
// [e_0+1, e_1], …, [e_last+1, ∞). O(n·len(edges)), two passes.
//
// dst must not overlap edges, base.Jobs or r.Jobs (only unsafe code can make
// slices of different types share memory; the library's rule for every dst,
// an aliasing check, is applied all the same).
//
// An error is returned for runs of different numbers of jobs, a completion
// time that is negative, NaN or ±Inf, edges that are not increasing or start
// below 1, a gain that overflows float64 (naming the bin), and a dst that
// overlaps an input (Field "dst"); dst is then untouched.
func BinGains(dst []BinGain, base, r *Result, edges []int) ([]BinGain, error) {
	const fn = "sim.BinGains"
	n := len(edges) + 1
	if err := check.Disjoint(fn, dst, n, "edges", edges); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, n, "base.Jobs", base.Jobs); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, n, "r.Jobs", r.Jobs); err != nil {
		return nil, err
	}
	if err := sameJobs(fn, base, r); err != nil {
		return nil, err
	}
	for i, e := range edges {
		if e < 1 || (i > 0 && e <= edges[i-1]) {
			return nil, check.Err(fn, i, "edge", float64(e), "edges must be ≥ 1 and increasing")
		}
	}
	// Two passes: the first only checks, so that dst is untouched on error.
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			dst = grow(dst, len(edges)+1)
		}
		lo := 1
		for b := 0; b <= len(edges); b++ {
			hi := math.MaxInt
			if b < len(edges) {
				hi = edges[b]
			}
			var mb, mr float64
			n := 0
			for i := range base.Jobs {
				if t := base.Jobs[i].Tasks; t >= lo && t <= hi {
					mb += base.Jobs[i].Completion
					mr += r.Jobs[i].Completion
					n++
				}
			}
			g := math.NaN()
			if mb > 0 {
				g = (mb - mr) / mb
				if math.IsInf(g, 0) || math.IsInf(mb, 0) || math.IsInf(mr, 0) {
					return nil, check.Err(fn, b, "gain", g, "overflows float64")
				}
			}
			if pass == 1 {
				dst[b] = BinGain{Lo: lo, Hi: hi, Jobs: n, Gain: g}
			}
			if hi < math.MaxInt {
				lo = hi + 1
			}
		}
	}
	return dst, nil
}
