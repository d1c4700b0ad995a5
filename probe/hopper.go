package probe

import (
	"cmp"
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// HopperPick is decentralized Hopper's decision at a worker with a free
// slot (Hopper §6.1): which of the jobs with a request queued at the worker
// gets the slot. It returns a position in queued (−1 when queued is empty).
//
// The worker's view: remaining[i] is job i's number of unfinished tasks
// T_i, running[i] the slots it holds now (its tasks and speculative copies
// running), slots the cluster's slots S, beta the Pareto shape of task
// durations and eps the fairness allowance ε. queued lists the jobs with a
// request at this worker, in queue order (a job may appear once). In
// decentralized Hopper the schedulers piggyback the job state on their
// replies ("the worker augments its local view by coordinating with the
// scheduler"); the simulator hands the worker the exact state of every
// active job.
//
// The decision follows the guidelines the workers implement — "determining
// if the system is slot-constrained and accordingly prioritizing jobs as
// per their virtual sizes" — with ε-fairness:
//
//  1. Targets: target_i = fairness.Allocate(remaining, slots, beta, eps),
//     Algorithm 2's ε-fair, throughput-maximal shares (Theorem 2).
//  2. Constrained: Σ_i V_i ≥ S with V_i = alloc.VirtualSize(T_i, β)
//     (eq. 3.5), the case split of Algorithm 1.
//  3. A queued job below its target (running_i < target_i, up to
//     TargetTolerance) goes before every job at or above it.
//  4. Among them, when constrained, the smallest virtual size first
//     (Guideline 1: fill the smallest jobs up to their virtual sizes);
//     when not constrained, the smallest fill ratio running_i / target_i
//     first (Guideline 2: proportional sharing — serve the job furthest
//     below its share). Ties: smaller virtual size, then queue order.
//
// When every queued job is at or above its target the slot still goes to
// the first job by rule 4: "if the system is not slot-constrained, it would
// be able to use more slots (as per Guideline 3)" — the slot is not left
// idle. A job whose target is 0 has fill ratio +Inf (0/0 counts as +Inf:
// the job should get nothing). Fill ratios are compared without forming
// a quotient that could overflow or underflow (fillCmp), so a job holding
// 1e300 slots against a target of 1e-300 still ranks below one whose
// target is 0.
//
// Complexity: O(n) for n jobs (Allocate is linear) plus O(len(queued));
// allocation-free with a reused ws.
//
// Special cases: queued empty returns −1. No active job (all T_i = 0)
// makes every target 0: the first queued job by virtual size, then queue
// order. β ≥ 2 means no speculation (V_i = T_i). An error is returned for a
// remaining or running entry that is NaN, ±Inf or negative, mismatched
// lengths, a queued index out of range or repeated, a slots that is not
// finite and ≥ 0, for β and ε as fairness.Allocate rejects them (β ≤ 1,
// ε outside [0, 1]), and when ΣT_i or Σ(2/β)·T_i, summed in index order,
// overflows float64 (naming the job at which it does), as fairness.Allocate
// does. On an error the position is −1.
func HopperPick(queued []int, remaining, running []float64, slots, beta, eps float64, ws *Workspace) (int, error) {
	const fn = "probe.HopperPick"
	if len(running) != len(remaining) {
		return -1, check.Err(fn, check.Scalar, "len(running)", float64(len(running)), "must equal len(remaining)")
	}
	totalT := 0.0 // ΣT for the case split below
	for i := range remaining {
		if err := check.NonNegative(fn, i, "remaining", remaining[i]); err != nil {
			return -1, err
		}
		if err := check.NonNegative(fn, i, "running", running[i]); err != nil {
			return -1, err
		}
		totalT += remaining[i]
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return -1, err
	}
	factor, err := speculationFactor(fn, "beta", beta)
	if err != nil {
		return -1, err
	}
	if err := check.Unit(fn, check.Scalar, "eps", eps); err != nil {
		return -1, err
	}
	ws = orNew(ws)
	ws.nextGen(len(remaining))
	for k, i := range queued {
		if i < 0 || i >= len(remaining) {
			return -1, check.Err(fn, k, "queued", float64(i), "must index remaining")
		}
		if ws.stamp[i] == ws.gen {
			return -1, check.Err(fn, k, "queued", float64(i), "must not repeat a job")
		}
		ws.stamp[i] = ws.gen
	}
	// Algorithm 2's kernel needs ΣT and Σ(2/β)·T_i, summed in index order
	// as fairness.Allocate checks them, finite.
	if math.IsInf(totalT, 1) {
		return -1, check.ScaledSumOverflow(fn, "remaining", remaining, 1, "the sum over jobs overflows float64")
	}
	if math.IsInf(factor*totalT, 1) {
		if err := check.ScaledSumOverflow(fn, "remaining", remaining, factor, "the total virtual size Σ(2/β)·T overflows float64"); err != nil {
			return -1, err
		}
	}
	targets := ws.fairTargets(remaining, slots, beta, eps)
	// Algorithm 1's case split, computed as alloc computes it: (2/β)·ΣT,
	// not Σ(2/β)·T_i, which can differ by an ulp exactly at ΣV = S. A ΣV
	// that rounds past MaxFloat64 (fairness.Allocate accepts it when the
	// sum Σ(2/β)·T_i it forms stays finite) is +Inf here: constrained.
	constrained := factor*totalT >= slots
	return hopperChoose(queued, remaining, running, targets, constrained, factor), nil
}

// speculationFactor returns the factor c = V/T of Hopper's virtual size
// (thesis eq. 3.5): the optimal speculation level 2/β, 1 for β ≥ 2
// (hopper.Factor, the factor alloc applies, so that every virtual size c·T
// formed here is alloc.VirtualSize(T, β) bit for bit while it is finite),
// after validating β for fn, whose parameter field names it. O(1).
func speculationFactor(fn, field string, beta float64) (float64, error) {
	if err := check.TailIndex(fn, check.Scalar, field, beta); err != nil {
		return 0, err
	}
	return hopper.Factor(beta), nil
}

// fairTargets computes the ε-fair targets into ws.targets by Algorithm 2's
// unchecked kernel (hopper.Fair), on data checked as fairness.Allocate
// checks it: by HopperPick, or, in the simulator, by validateSim (β, ε; S
// = Nodes ≤ 2³¹) and by construction (the view holds task counts, integers
// ≥ 0 whose virtual sizes sum to at most 2·(the tasks of all jobs)). The
// result is fairness.Allocate's, bit for bit. O(n).
func (ws *Workspace) fairTargets(remaining []float64, slots, beta, eps float64) []float64 {
	ws.targets = slices.Grow(ws.targets[:0], len(remaining))[:len(remaining)]
	hopper.Fair(ws.targets, remaining, slots, eps, hopper.Summarize(remaining, beta), &ws.alloc)
	return ws.targets
}

// TargetTolerance is how far below its target, relative to max(1, target),
// a job must be to count as below it. Targets are real-valued shares summed
// in floating point: a target of 5 may come out as 5.000000000000001, and a
// job already holding 5 slots must not take a sixth for that ulp.
const TargetTolerance = 1e-9

// hopperChoose applies rules 3 and 4 of HopperPick, factor being
// speculationFactor's 2/β: job i's virtual size is factor·T_i, finite
// (T_i ≤ ΣT, whose virtual size fairness.Allocate or Simulate bounded).
func hopperChoose(queued []int, remaining, running, targets []float64, constrained bool, factor float64) int {
	best := -1
	var bestJob int // read only once best ≥ 0
	var bestBelow bool
	var bestV float64
	for k, i := range queued {
		below := running[i] < targets[i]-TargetTolerance*max(1, targets[i])
		v := factor * remaining[i]
		better := best < 0 || (below && !bestBelow)
		if !better && below == bestBelow {
			c := cmp.Compare(v, bestV)
			if !constrained {
				c = fillCmp(running[i], targets[i], running[bestJob], targets[bestJob])
				if c == 0 {
					c = cmp.Compare(v, bestV)
				}
			}
			better = c < 0
		}
		if better {
			best, bestJob, bestBelow, bestV = k, i, below, v
		}
	}
	return best
}

// fillCmp compares the fill ratios r1/t1 and r2/t2 (r, t finite and ≥ 0)
// as −1, 0 or +1. A target of 0 ranks above every positive one (its ratio
// counts as +Inf, 0/0 included) and ties with another 0. Otherwise the
// ratios are compared as their correctly rounded quotients would be, but
// without overflow or underflow: 1e300/1e-300 is not +Inf, tied with
// every other overflow, nor 1e-300/1e300 a 0 tied with a job that holds no
// slot. O(1).
func fillCmp(r1, t1, r2, t2 float64) int {
	if t1 == 0 || t2 == 0 {
		return boolCmp(t1 == 0, t2 == 0)
	}
	q1, q2 := r1/t1, r2/t2
	if min(q1, q2) >= 0x1p-1022 && max(q1, q2) <= math.MaxFloat64 { // both normal
		return cmp.Compare(q1, q2)
	}
	if r1 == 0 || r2 == 0 {
		return boolCmp(r1 != 0, r2 != 0)
	}
	m1, e1 := ratioParts(r1, t1)
	m2, e2 := ratioParts(r2, t2)
	if e1 != e2 {
		return cmp.Compare(e1, e2)
	}
	return cmp.Compare(m1, m2)
}

// ratioParts returns r/t > 0 as m·2^e with m in [1, 2) the correctly
// rounded quotient of the two mantissas (1 when it rounds up to it).
func ratioParts(r, t float64) (float64, int) {
	fr, er := math.Frexp(r)
	ft, et := math.Frexp(t)
	m, e := fr/ft, er-et // fr/ft in (1/2, 2)
	if m < 1 {
		m, e = 2*m, e-1
	}
	return m, e
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
