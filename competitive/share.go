package competitive

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
)

// Shares computes SREW+C(β)'s machine shares g_j(t) of Xu et al., §4.1
// (Algorithm 2, line 4), real-valued exactly as the paper's formula, for
// the jobs of a snapshot on a cluster of M = machines machines.
//
// Let N = |ψ^s(t)| be the number of active jobs (jobs with an unfinished
// task) and, for an active job j, |ψ_j^s(t)| the number of active jobs
// whose remaining effective workload Υ_k(t) (eq. 25) is ≥ Υ_j(t), j
// included. The paper's formula is
//
//	g_j(t) = M/(βN)                          if |ψ_j^s(t)| − 1 ≥ (1−β)N,
//	g_j(t) = 0                               if |ψ_j^s(t)| < (1−β)N,
//	g_j(t) = (|ψ_j^s(t)| − (1−β)N)·M/(βN)    otherwise.
//
// Ties. Read literally, jobs with equal Υ_j(t) would all count each other
// in |ψ_j^s(t)| and could all get M/(βN), over-committing the cluster.
// Active jobs are therefore ranked in the strict order of increasing
// (Υ_j(t), index): a tie goes to the job with the smaller index, which
// counts the tied jobs after it. Then |ψ_j^s(t)| = N − i_j, where i_j is
// the number of active jobs ranked before j, so the ranks take each value
// 1, …, N once.
//
// How many jobs get machines. Writing the formula with y = βN and
// |ψ_j^s(t)| = N − i_j, the three cases become: i_j + 1 ≤ y gives M/y;
// i_j ≥ y gives 0; i_j < y < i_j + 1 gives (y − i_j)·M/y. So exactly
// ⌈βN⌉ jobs get machines — the ⌊βN⌋ jobs ranked first get M/(βN) each,
// and when βN is not an integer the next job gets the remainder
// (βN − ⌊βN⌋)·M/(βN) — and Σ_j g_j(t) = M. (βN is the float64 product
// beta·float64(N); the rank-based form is the one computed, which avoids
// the cancellation in (1−β)N.) β = 1 gives every active job M/N, the Fair
// scheduler; β → 0 gives all M machines to the single smallest job, FIFO
// on Υ. Smaller Υ_j(t) never gets a smaller share.
//
// Complexity: O(n) time for n jobs: a pass validating the jobs and
// computing Υ_j(t), a radix selection (alloc.Workspace's Search) of the
// ⌈βN⌉-th ranked job instead of a sort (a maximum when ⌈βN⌉ = N, as for
// β = 1), and a pass writing the shares. With a dst of capacity n and a
// reused ws, Shares allocates nothing.
//
// Special cases: no jobs gives an empty result. Inactive jobs get 0 and do
// not count in N; with no active job, or M = 0, every job gets 0. The
// entries of Running are not read, only its length. An error, with dst
// untouched, is returned for β outside (0, 1] or NaN, for λ < 0, NaN or
// ±Inf, for machines < 0 or > 2⁵³, and for an invalid job (see
// EffectiveWorkload).
func Shares(dst []float64, jobs []Job, machines int, beta, lambda float64, ws *Workspace) ([]float64, error) {
	const fn = "competitive.Shares"
	if err := checkShareArgs(fn, machines, beta, lambda); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	ws.load = floats(ws.load, len(jobs))
	active, err := scanJobs(fn, ws.load, jobs, lambda)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(jobs))[:len(jobs)]
	ws.shareOut(dst, ws.load, active, machines, beta)
	return dst, nil
}

// Machines is the integer form of Shares: SREW+C(β)'s g_j(t) as whole
// machines. The paper assumes g_j(t) is an integer; here the real shares
// are rounded by alloc.Apportion (largest remainder) with priority key
// Υ_j(t), so a remainder tie goes to the smaller Υ_j(t), then the smaller
// index — the ranking order of Shares.
//
// Guarantees: Σ_j g_j(t) = M exactly whenever a job is active (0
// otherwise); every job is within one machine of its real share, so
// exactly the jobs with a positive real share can get machines and an
// inactive job gets none; a job ranked before another (smaller Υ_j(t), or
// equal and a smaller index) never gets fewer machines. The β = 1 shares
// are ⌊M/N⌋ or ⌈M/N⌉, the extra machines going to the smallest jobs.
// Theorem 4 assumes β < M/N, i.e. M/(βN) > 1: every served job then gets at
// least one machine.
//
// Complexity: O(n); allocation-free with a dst of capacity n and a reused
// ws. Errors are those of Shares.
func Machines(dst []int, jobs []Job, machines int, beta, lambda float64, ws *Workspace) ([]int, error) {
	const fn = "competitive.Machines"
	if err := checkShareArgs(fn, machines, beta, lambda); err != nil {
		return nil, err
	}
	return orNew(ws).machines(fn, dst, jobs, machines, beta, lambda)
}

// checkShareArgs validates the scalar arguments of Shares and Machines.
func checkShareArgs(fn string, machines int, beta, lambda float64) error {
	if !(beta > 0 && beta <= 1) {
		return check.Err(fn, check.Scalar, "beta", beta, "must lie in (0, 1]")
	}
	if machines < 0 || machines > maxCount {
		return check.Err(fn, check.Scalar, "machines", float64(machines), "must lie in [0, 2^53]")
	}
	return checkLambda(fn, lambda)
}

// machines validates the jobs and computes the integer g_j(t) into dst.
func (ws *Workspace) machines(fn string, dst []int, jobs []Job, machines int, beta, lambda float64) ([]int, error) {
	n := len(jobs)
	ws.load = floats(ws.load, n)
	active, err := scanJobs(fn, ws.load, jobs, lambda)
	if err != nil {
		return nil, err
	}
	ws.shares = floats(ws.shares, n)
	ws.shareOut(ws.shares, ws.load, active, machines, beta)
	total := 0
	if active > 0 {
		total = machines
	}
	// The shares sum to total and are finite and non-negative by
	// construction: round them with alloc's apportionment routine itself,
	// without Apportion's second validation pass.
	dst = slices.Grow(dst[:0], n)[:n]
	selection.Apportion(&ws.sel, dst, ws.shares, total, ws.load)
	return dst, nil
}

// shareOut writes the shares of the β-fraction rule to dst given the
// remaining effective workloads (0 exactly for an inactive job, > 0 for an
// active one) and the number of active jobs.
func (ws *Workspace) shareOut(dst, load []float64, active, machines int, beta float64) {
	if active == 0 || machines == 0 {
		clear(dst)
		return
	}
	m := float64(machines)
	y := beta * float64(active)            // βN ∈ (0, N]
	served := int(math.Ceil(y))            // ⌈βN⌉ ∈ [1, N]
	full := int(math.Floor(y))             // ⌊βN⌋ jobs get M/(βN)
	partial := (y - float64(full)) / y * m // the next job, if βN ∉ ℕ; (y−⌊y⌋)/y first: M/y may overflow when y < 1
	whole := 0.0                           // M/(βN), needed only when full ≥ 1 (then y ≥ 1)
	if full > 0 {
		whole = m / y
	}
	var cutValue float64 // the Υ_j(t) of the job ranked served-th
	var before int       // active jobs ranked strictly before the cut value
	if served == active {
		// Every active job is served: the cut is the largest Υ_j(t), found
		// by one pass instead of a selection (β = 1, or βN > N − 1).
		ties := 0
		for _, v := range load {
			switch {
			case v > cutValue:
				cutValue, ties = v, 1
			case v == cutValue:
				ties++
			}
		}
		before = active - ties
	} else {
		// The served-th ranked active job: inactive jobs (Υ = 0) form the
		// first group of values and are not counted.
		inactive := len(load) - active
		cut := selection.Search(&ws.sel, load, selection.Count, func(incl selection.Stats, _ float64, _ bool) bool {
			return incl.Count-inactive >= served
		})
		cutValue, before = cut.Value, cut.Before.Count-inactive
	}
	fullAtCut := full - before // ≥ 0: the cut group holds rank `served`, and before ≤ served−1
	hasPartial := served > full
	for j, v := range load {
		switch {
		case v == 0 || v > cutValue:
			dst[j] = 0
		case v < cutValue:
			dst[j] = whole
		case fullAtCut > 0: // the cut group, in index order
			dst[j] = whole
			fullAtCut--
		case hasPartial:
			dst[j] = partial
			hasPartial = false
		default:
			dst[j] = 0
		}
	}
}
