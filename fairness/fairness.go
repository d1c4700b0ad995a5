package fairness

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// Allocate computes Hopper's ε-fair allocation, Algorithm 2 of the thesis
// (§3.5, Theorem 2), writing every job's real-valued slots to dst.
//
// Let N be the number of active jobs (T_i > 0), f = (1−ε)·S/N the fairness
// floor, V_i = (2/β)·T_i the virtual sizes, jobs ordered by increasing T_i
// (ties by input index), and m₁ the number of active jobs with V_i ≤ f.
//
//  1. If S ≤ Σ_{i>m₁} V_i + m₁·f (capacity constrained above the floor):
//     every active job gets f, then jobs m₁+1, …, N in order get V_i − f
//     more until the slots run out.
//  2. Otherwise let m₂ be the smallest m ≥ 0 with
//     T_{m+1}·(S − m·f) / Σ_{i>m} T_i ≥ max{f, V_{m+1}}:
//     jobs 1…m₂ get f and jobs m₂+1…N share S − m₂·f in proportion to T_i.
//
// The thesis writes 1 ≤ m₂ ≤ m₁, but its derivation (the throughput falls
// as m₂ grows, and the condition only asks that the proportional shares
// respect both floors) allows m₂ = 0, which is the answer whenever the
// proportional allocation of Algorithm 1 is already ε-fair; m₂ = 0 is
// allowed here. In case 2 the V-part of the condition holds for every
// m ≤ m₁ (S − m·f > Σ_{i>m} V_i there), and the condition is monotone in m,
// so m₂ is where the share of job m+1 first reaches the floor — a
// water-fill: S_i = max{f, g·T_i} with g fixed by ΣS_i = S. Jobs with equal
// T_i are never split across the floor.
//
// Theorem 2: the allocation maximises the total throughput Σμ_i of eq. 3.3
// over allocations with S_i ≥ f for every active job and ΣS_i = S. In case
// 1 all such allocations with S_i ≤ max{f, V_i} have the same throughput,
// and the fill order is Guideline 1's.
//
// Complexity: O(n) time, with two radix selections (the fill's cut-off job
// in case 1, m₂ in case 2) instead of the thesis's sort. With a dst of
// capacity n and a reused ws it allocates nothing.
//
// Magnitudes: every T_i and S in [0, MaxFloat64] is accepted, subnormals
// included, as long as ΣV_i does not overflow float64 (the bound of
// alloc.Allocate); the result is finite and within rounding of the exact
// allocation at any scale — the case-2 tests compare a job's share
// T_i/ΣT·S' with the floor instead of forming T_i·S', which leaves
// float64's range — except that a share below 2^−1022 keeps only
// the bits a subnormal holds.
//
// Special cases: ε = 0 gives every active job S/N (the Fair scheduler);
// ε = 1 gives Algorithm 1 (alloc.Allocate). Jobs with T_i = 0 (or −0) are
// finished: they get +0 and do not count in N. No active job gives all
// zeros. ΣS_i = S whenever some job is active. β ≥ 2 means no speculation
// (V_i = T_i). An error, with dst untouched, is returned for ε outside
// [0, 1] or NaN; for a dst that would be reused (capacity ≥ n) and shares
// memory with remaining — dst must not overlap remaining; for a T_i < 0,
// NaN or ±Inf (naming the job); when ΣV_i, summed in index order,
// overflows float64 (naming the job at which it does); and for everything else
// alloc.Allocate rejects (β ≤ 1, NaN or ±Inf; S < 0, NaN or ±Inf).
func Allocate(dst, remaining []float64, slots, beta, eps float64, ws *Workspace) ([]float64, error) {
	const fn = "fairness.Allocate"
	if err := check.Disjoint(fn, dst, len(remaining), "remaining", remaining); err != nil {
		return nil, err
	}
	snap, err := validate(fn, remaining, slots, beta, eps)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(remaining))[:len(remaining)]
	hopper.Fair(dst, remaining, slots, eps, snap, orNew(ws))
	return dst, nil
}

// AllocateSlots is the integer form of Algorithm 2: the real-valued
// allocation of Allocate for S = slots, rounded by alloc.Apportion with ties
// in the algorithm's order (fewer remaining tasks first, then index). The
// result sums to exactly slots when some job is active (finished jobs get
// 0), every job is within one slot of its real share, and every active job
// gets at least ⌊(1−ε)·S/N⌋ slots. Near 2^53 the real shares are
// themselves rounded to whole or half slots and their floors may sum past
// slots (the apportionment then takes units back, lowest fractional part
// first): there "within one slot" holds up to that rounding — a random
// campaign of 10^5 snapshots with slots in [2^53−8, 2^53] found every job
// within 2 slots of the exact share, and the floor guarantee intact.
//
// Complexity: O(n); allocation-free with a dst of capacity n and a reused
// ws. Errors are those of Allocate (dst must not overlap remaining), with
// slots < 0 or > alloc.MaxTotal (2^53) rejected.
func AllocateSlots(dst []int, remaining []float64, slots int, beta, eps float64, ws *Workspace) ([]int, error) {
	const fn = "fairness.AllocateSlots"
	n := len(remaining)
	if err := check.Disjoint(fn, dst, n, "remaining", remaining); err != nil {
		return nil, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	snap, err := validate(fn, remaining, float64(slots), beta, eps)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], n)[:n]
	hopper.FairSlots(dst, remaining, slots, eps, snap, orNew(ws))
	return dst, nil
}

// validate checks the arguments in one pass over the snapshot
// (check.Summarize, as alloc does) and returns the summary hopper.Fair
// needs: the speculation factor 2/β (1 for β ≥ 2), ΣT_i and the least and
// most T_i, which bound Fair's selections.
func validate(fn string, remaining []float64, slots, beta, eps float64) (hopper.Summary, error) {
	if err := check.Unit(fn, check.Scalar, "eps", eps); err != nil {
		return hopper.Summary{}, err
	}
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return hopper.Summary{}, err
	}
	c := hopper.Factor(beta)
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return hopper.Summary{}, err
	}
	sum, err := check.Summarize(fn, "remaining", remaining)
	if err != nil {
		return hopper.Summary{}, err
	}
	if math.IsInf(c*sum.Total, 1) {
		// Decided by the sum the algorithm forms, Σ c·T_i in index order
		// (c·ΣT_i rounds differently; the kernel never forms it).
		if err := check.ScaledSumOverflow(fn, "remaining", remaining, c, "the total virtual size Σ(2/β)·T overflows float64"); err != nil {
			return hopper.Summary{}, err
		}
	}
	return hopper.NewSummary(c, sum.Total, sum.Least, sum.Most), nil
}
