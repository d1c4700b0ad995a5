package overlap

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/minheap"
)

// A Workspace holds the scratch memory of Rates, Simulate, LowerBound and
// RunExperiment. The zero value is ready to use; it grows to the largest
// input seen and is then reused, so repeated calls allocate nothing. A nil
// *Workspace is allowed (a temporary one is allocated). A Workspace must not
// be used by concurrent calls.
type Workspace struct {
	selected minheap.Heap[struct{}] // k-LPS: the jobs in map service, ranked (−arrival, −index)
	limits   []limitEntry           // k-LPS: the rate-limited jobs of the water-fill
	prio     prioEngine
	lps      lpsEngine
	srpt     srptQueue
	resp     [2][]float64 // LowerBound: SRPT response times on x and on y
	workload []Arrival    // RunExperiment
	times    []float64    // RunExperiment
}

// Rates returns the rate each job of the snapshot jobs gets at this instant
// under policy, with both stations of speed speed, in dst[i] for jobs[i].
//
// The policies are described at the Algorithm constants (MaxSRPT: §4.1,
// Algorithm 1; SplitSRPT: §4.2, Algorithm 2; KLPS: §5.1). Every returned
// vector is feasible for constraint (1) and the station speeds: rates are ≥
// 0, each station's rates sum to at most speed, a job gets map rate only if
// it has map work left and shuffle rate only if it has shuffle work left,
// and a job with no available shuffle work gets a shuffle rate of at most
// (Shuffle/Map)·(its map rate), so its available work never goes negative.
//
// Every rate is the policy's exact rate to within a few ulps, for every
// accepted input (rounded once where it is a capacity share; a limit
// (y/x)·p of normal magnitude is rounded twice, and SplitSRPT compares
// imbalances rounded to float64, so of two jobs whose imbalances round to
// the same value the earlier in its order is taken): the products and
// quotients it is made of — the limit
// (y/x)·p, SplitSRPT's μ₁ = 1/(1+β) with β = max(x/y, y/x) — are formed
// with an unbounded exponent (x = 1e-300, y = 1e300 give β = 1e600 and
// μ₁·s = 1e-600·s, yet the job's shuffle rate (y/x)·μ₁·s is s), so no rate
// is NaN or ±Inf and none is lost to an intermediate overflow. The relations
// above hold for the exact rates; for the returned ones up to that
// rounding (a few units of relative 2^-53, or 2^-1074 absolute for a subnormal rate: two
// rates of 1.5·2^-1074 at speed 3·2^-1074 are each returned as 2·2^-1074;
// a map rate below 2^-1074 is returned as 0 even though the shuffle rate it
// allows is not).
//
// dst must not overlap jobs (its memory is written while jobs is read): an
// overlapping dst of sufficient capacity is an *specsched.InputError with
// Field "dst", and nothing is written.
//
// Time: O(n) for MaxSRPT, MaxSRPTStrict, SplitSRPT, SplitSRPTStrict and
// FIFO (one pass; no sort); O(n log k + k log k) for KLPS with limit k.
// With a reused dst and Workspace it allocates nothing.
//
// Special cases: no jobs, or only jobs that have left (both remaining sizes
// zero), give an empty or all-zero result; speed 0 gives all-zero rates
// (speed must be in [0, 1e300]). A
// job with Map = 0 has all its shuffle work available at once; a job with
// Shuffle = 0 gets no shuffle rate. For SplitSRPT, β(t) is +∞ when every
// job present has a zero size (μ₁ = 0, μ₂ = 1: map-heavy jobs, which then
// have no shuffle work, get the whole map station; shuffle-heavy jobs, which
// have no map work, the whole shuffle station).
func Rates(dst []Rate, jobs []Job, speed float64, policy Discipline, ws *Workspace) ([]Rate, error) {
	const fn = "overlap.Rates"
	// The same checks open Simulate, inline: one shared call cost Rates 4% at n = 10.
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	if err := validateSpeed(fn, speed, true); err != nil {
		return nil, err
	}
	if err := policy.validate(fn); err != nil {
		return nil, err
	}
	if err := validateJobs(fn, jobs); err != nil {
		return nil, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	n := len(jobs)
	if cap(dst) < n {
		dst = make([]Rate, n)
	}
	dst = dst[:n]
	clear(dst)
	if speed == 0 {
		return dst, nil
	}
	switch policy.Algorithm {
	case MaxSRPT, MaxSRPTStrict:
		orderedRates(dst, jobs, keyMax, speed, policy.Algorithm == MaxSRPTStrict)
	case FIFO:
		orderedRates(dst, jobs, keyArrival, speed, false)
	case SplitSRPT, SplitSRPTStrict:
		splitRates(dst, jobs, speed, policy.Algorithm == SplitSRPT)
	case KLPS:
		klpsRates(dst, jobs, speed, policy.k(), ws)
	}
	return dst, nil
}

// orderKey names the quantity a priority order sorts on.
type orderKey uint8

const (
	keyMax     orderKey = iota // max(x_i(t), y_i(t)): MaxSRPT
	keyMap                     // x_i(t): SplitSRPT's map-heavy class
	keyShuffle                 // y_i(t): SplitSRPT's shuffle-heavy class
	keyArrival                 // r_i: FIFO
)

func snapshotKey(key orderKey, j *Job) float64 {
	switch key {
	case keyMax:
		return math.Max(j.RemainingMap, j.RemainingShuffle)
	case keyMap:
		return j.RemainingMap
	case keyShuffle:
		return j.RemainingShuffle
	default:
		return j.Arrival
	}
}

// precedes reports whether job i comes before job l in the order of key:
// by key, then arrival, then index.
func precedes(jobs []Job, key orderKey, i, l int) bool {
	ki, kl := snapshotKey(key, &jobs[i]), snapshotKey(key, &jobs[l])
	if ki != kl {
		return ki < kl
	}
	if jobs[i].Arrival != jobs[l].Arrival {
		return jobs[i].Arrival < jobs[l].Arrival
	}
	return i < l
}
