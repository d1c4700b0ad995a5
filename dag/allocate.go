package dag

import (
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/dagkernel"
)

// Job is the snapshot of one DAG job that Algorithm 3 needs: Remaining
// (T_i, the tasks remaining in the job's running phase; 0: no slots),
// Downstream (T'_i, the downstream phase's remaining communication work,
// which only orders the jobs) and Alpha (α_i > 0, EstimateAlpha; 1 for a
// job without a pipelined downstream phase). The type is the kernel's
// (internal/dagkernel), whose doc comment gives each field in full; the
// alias keeps dag.Job the one type the simulators and callers share.
type Job = dagkernel.Job

// Allocate computes Hopper's allocation for DAG jobs, Algorithm 3 of the
// thesis (§4.1), writing every job's real-valued slots to dst.
//
// Jobs with T_i > 0 are ordered by max{T_i, T'_i} ascending (MaxSRPT), ties
// by α_i descending, then by input index; J_1, …, J_n is that order.
// V_i = (2/β)·T_i·√α_i is the virtual size, α_min^(k) = min{α_1, …, α_k},
// and t_i^(k) = V_i/√α_min^(k) = (2/β)·T_i·√(α_i/α_min^(k)) is the
// speculation target of job i when the first k jobs run. With S slots:
//
//  1. S ≤ t_1^(2): S_1 = S, every other job 0.
//  2. Σ_{i≤k} t_i^(k+1) < S ≤ Σ_{i≤k+1} t_i^(k+1) for some k < n: jobs
//     1, …, k+1 get t_i^(k+1) in the order 1, …, k_min−1, k_min+1, …, k+1,
//     k_min until the slots run out; later jobs get 0.
//  3. Σ_{i≤k+1} t_i^(k+1) < S ≤ Σ_{i≤k+1} t_i^(k+2) for some k < n−1: jobs
//     1, …, k+1 share S in proportion to V_i; later jobs get 0.
//  4. S > Σ_{i≤n} t_i^(n): every job gets V_i/ΣV_j·S.
//
// The boundaries chain: case 1 ends where case 2 with k = 1 begins, case
// 2 with k ends where case 3 with k begins, case 3 with k ends where case 2
// with k+1 begins, and case 2 with k = n−1 ends where case 4 begins; so
// exactly one case applies to every S ≥ 0. Let m be the smallest number of
// jobs with S ≤ Σ_{i≤m} V_i/√α_min^(m+1) (m = n if there is none): the
// first m jobs get slots, and the case is 2 (with k+1 = m) when m ≥ 2 and
// S ≤ Σ_{i≤m} t_i^(m), and otherwise the proportional share among the first
// m jobs (case 1 for m = 1, case 3 for 1 < m < n, case 4 for m = n).
//
// Reading of the garbled parts of the thesis. The paper defines J_kmin as
// the job of least weight "in the first k jobs" but lists k+1 separately in
// case 2's order. Here k_min is the job of least weight among the k+1 jobs
// of case 2, and among several with that weight the last in the order. The
// derivation: maximising the α-weighted throughput Σα_i·μ_i over the k+1
// running jobs (μ_i of eq. 3.3, slope β²/(4(β−1)) up to (2/β)·T_i, then
// T_i²/((β−1)·S_i²)) has a Lagrange multiplier λ = α_min^(k+1)·β²/(4(β−1))
// throughout case 2: a job of weight α_i > α_min sits where its marginal
// α_i·T_i²/((β−1)·S_i²) equals λ, at S_i = t_i^(k+1), while a job of the
// least weight is on its linear part, where any S_i ∈ [0, (2/β)·T_i] is
// optimal — it is the one that absorbs the remainder, so it is served last.
// If k_min were restricted to the first k jobs, a new job k+1 of strictly
// least weight would be filled before an earlier, heavier one, against the
// same multiplier; and with all α equal, only "the last job of least weight
// among k+1" makes case 2 the fill of Algorithm 1 (job k+1 partial).
//
// Consequences, tested: with every α equal and T'_i ≤ T_i this is exactly
// Algorithm 1 (alloc.Allocate), up to floating-point summation order. Case
// 4 maximises Σα_i·μ_i over all allocations (KKT: every job is past its
// virtual size with marginal α_i·T_i²/((β−1)·S_i²) equal across jobs, and
// that marginal is at most α_min·β²/(4(β−1)) exactly when S ≥ Σ t_i^(n)).
// Each S_i is continuous and non-decreasing in S within every case, and
// across every boundary when α is non-increasing along the order (in
// particular within a group of equal max{T, T'}, which the tie rule orders
// that way). It is not continuous across the start of case 2 when job k+1
// is heavier than an earlier job: at that boundary the literal order hands
// the earlier light job's slots to job k+1 (the throughput-optimal choice
// among the k+1 jobs, which the MaxSRPT order withheld from job k+1 before
// it was admitted). Example: T = (1, 1), T' = (0, 2), α = (1, 4), β = 1.5:
// case 1 gives job 1 all of S ≤ 4/3; just above 4/3, case 2 serves job 2
// first and job 1 drops to 0 until S exceeds 8/3.
//
// Complexity: O(n) time. The number of served jobs m is the first prefix of
// the order at which a monotone predicate holds; a radix selection over
// max{T, T'} (then α, then the index) finds it without sorting, and two
// passes in index order write the slots. With a dst of capacity n and a
// reused ws, Allocate allocates nothing.
//
// Magnitudes: every finite T_i, T'_i and S ≥ 0 and every finite α_i > 0 is
// accepted, from subnormals to math.MaxFloat64. The cut-off is found on the
// instance rescaled by a power of two that puts S in [1, 2), where neither
// a sum that overflows nor a size that underflows can change a comparison;
// the slots are computed in the caller's units, every share to a few ulps
// (a share far below S, or of a subnormal T_i, included) unless it is
// itself subnormal. Sums such as ΣT_i or ΣV_i may exceed float64: they are
// never formed where that could change the answer.
//
// Special cases: no jobs gives an empty result. Jobs with T_i = 0 get 0 and
// do not take part in the order (their α does not count in α_min). If every
// T_i is 0, or S = 0, every job gets 0; otherwise ΣS_i = S up to rounding.
// β ≥ 2 means no speculation: V_i = T_i·√α_i. An error, with dst untouched,
// is returned for β ≤ 1, NaN or ±Inf; for S < 0, NaN or ±Inf; for a T_i or
// T'_i that is negative, NaN or ±Inf, or an α_i that is not a finite number
// > 0, naming the job; and when dst would be reused (its capacity holds
// len(jobs)) and overlaps jobs: dst must not overlap jobs.
func Allocate(dst []float64, jobs []Job, slots, beta float64, ws *Workspace) ([]float64, error) {
	const fn = "dag.Allocate"
	// Validation, then the kernel: the shape stragglers.Allocate shares on
	// purpose (each package validates its own inputs and names itself).
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	k := orNew(ws)
	p, err := prepare(fn, k, jobs, slots, beta)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(jobs))[:len(jobs)]
	k.Allocate(dst, jobs, slots, &p)
	return dst, nil
}

// AllocateSlots is the integer form of Algorithm 3 (see Allocate): the
// real-valued allocation for S = slots, rounded by alloc's apportionment
// (largest remainder), with equal remainders going in Algorithm 3's own
// order: the smaller max{T_i, T'_i}, then the larger α_i, then the smaller
// index. The result sums
// to exactly slots whenever some job has work (to 0 otherwise), and every
// job is within one slot of its real-valued share: a job the real-valued
// algorithm gives nothing gets nothing. (Near 2^53 the real-valued shares
// are themselves rounded by up to (n+4)·2^−53·slots in all, a few units,
// and their floors may sum past slots; the apportionment then takes the
// excess back by rank — the lowest-ranked units first, whichever job holds
// them — so a job is within one slot of its share plus that rounding.)
//
// Complexity: O(n) time; allocation-free with a dst of capacity n and a
// reused ws. Errors are those of Allocate, with slots < 0 or
// > alloc.MaxTotal (2^53) rejected; dst must not overlap jobs.
func AllocateSlots(dst []int, jobs []Job, slots int, beta float64, ws *Workspace) ([]int, error) {
	const fn = "dag.AllocateSlots"
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	k := orNew(ws)
	p, err := prepare(fn, k, jobs, float64(slots), beta)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(jobs))[:len(jobs)]
	k.Slots(dst, jobs, slots, &p)
	return dst, nil
}

// prepare validates the arguments of Algorithm 3 and records the snapshot
// in k, in one pass over the jobs (dagkernel.PrepareChecked), naming the
// first invalid job and field.
func prepare(fn string, k *dagkernel.Workspace, jobs []Job, slots, beta float64) (dagkernel.Prepared, error) {
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return dagkernel.Prepared{}, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return dagkernel.Prepared{}, err
	}
	p, bad := k.PrepareChecked(jobs, slots, beta)
	if bad < 0 {
		return p, nil
	}
	j := &jobs[bad]
	if err := check.NonNegative(fn, bad, "Remaining", j.Remaining); err != nil {
		return dagkernel.Prepared{}, err
	}
	if err := check.NonNegative(fn, bad, "Downstream", j.Downstream); err != nil {
		return dagkernel.Prepared{}, err
	}
	return dagkernel.Prepared{}, check.Positive(fn, bad, "Alpha", j.Alpha)
}
