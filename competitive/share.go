package competitive

import (
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/srewc"
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
// Complexity: O(n) time for n jobs, no sort: a pass validating the jobs
// and computing Υ_j(t); a histogram pass of a radix selection that
// locates the ⌈βN⌉-th ranked job's bucket; and a pass writing the shares,
// which settles the few jobs of that bucket last. With a dst of capacity n
// and a reused ws, Shares allocates nothing. At n = 10 000 it takes about
// 4× a bare two-pass scan of the snapshot (BenchmarkRatio).
//
// Special cases: no jobs gives an empty result. Inactive jobs get 0 and do
// not count in N; with no active job, or M = 0, every job gets 0. The
// entries of Running are not read, only its length. An error, with dst
// untouched, is returned for β outside (0, 1] or NaN, for λ < 0, NaN or
// ±Inf, for machines < 0 or > 2⁵³, for an invalid job (see
// EffectiveWorkload), and for a dst that overlaps jobs or a job's Running
// (dst must not overlap an input).
func Shares(dst []float64, jobs []Job, machines int, beta, lambda float64, ws *Workspace) ([]float64, error) {
	const fn = "competitive.Shares"
	// Validation, then the kernel; Machines repeats the shape on purpose.
	if err := checkShareArgs(fn, machines, beta, lambda); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	ws.load = floats(ws.load, len(jobs))
	active, r, err := scanJobs(fn, ws.load, jobs, lambda, check.SpanOf(dst, len(jobs)))
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(jobs))[:len(jobs)]
	srewc.Shares(&ws.share, dst, ws.load, active, r, machines, beta)
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
// Complexity: O(n), the passes of Shares: the rounding is worked out from
// the shares' structure (the R leftover machines go to the first R ranked
// jobs), whose one extra rank the same histogram locates. Allocation-free
// with a dst of capacity n and a reused ws. Errors are those of Shares
// (the same rule for dst).
func Machines(dst []int, jobs []Job, machines int, beta, lambda float64, ws *Workspace) ([]int, error) {
	const fn = "competitive.Machines"
	// As Shares: validation, then the kernel.
	if err := checkShareArgs(fn, machines, beta, lambda); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
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

// machines validates the jobs, computing Υ_j(t) into ws.load in the same
// pass (scanJobs), and writes the integer g_j(t) to dst by the kernel
// (srewc.Machines, whose doc comment gives the rounding).
func (ws *Workspace) machines(fn string, dst []int, jobs []Job, machines int, beta, lambda float64) ([]int, error) {
	n := len(jobs)
	ws.load = floats(ws.load, n)
	active, r, err := scanJobs(fn, ws.load, jobs, lambda, check.SpanOf(dst, n))
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], n)[:n]
	srewc.Machines(&ws.share, dst, ws.load, active, r, machines, beta)
	return dst, nil
}

// validMachines is machines on a snapshot competitive.Simulate has built
// from its validated state, without the checks: Υ_j(t) by Job.remaining
// (the value scanJobs computes, bit for bit), then the kernel. O(n).
func (ws *Workspace) validMachines(dst []int, jobs []Job, machines int, beta, lambda float64) []int {
	n := len(jobs)
	ws.load = floats(ws.load, n)
	for j := range jobs {
		ws.load[j] = jobs[j].remaining(lambda)
	}
	active, r := srewc.Summarize(ws.load)
	dst = slices.Grow(dst[:0], n)[:n]
	srewc.Machines(&ws.share, dst, ws.load, active, r, machines, beta)
	return dst
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
