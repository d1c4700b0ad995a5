package alloc

import (
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// Allocate computes Hopper's Algorithm 1 (thesis §3.4; Theorem 1) for jobs of
// one phase: given the remaining task counts T_i, S slots and the Pareto tail
// index β, it writes the real-valued slots S_i of every job to dst and
// returns it.
//
// With virtual sizes V_i = (2/β)·T_i (eq. 3.5):
//
//  1. Capacity constrained, ΣV_i ≥ S (within CaseTolerance, where both
//     cases give every job V_i): jobs in increasing order of T_i
//     (equivalently V_i; ties by input index) get S_i = V_i until the slots
//     run out; the job at which they do gets what is left, later jobs 0
//     (Guideline 1).
//  2. Otherwise: S_i = (T_i/ΣT_j)·S, proportional to the virtual sizes
//     (Guideline 2, eq. 3.6).
//
// Theorem 1: the allocation maximises the total throughput Σμ_i(S_i) of
// eq. 3.3 over all S_i ≥ 0 with ΣS_i ≤ S. In case 1 every allocation with
// S_i ≤ V_i and ΣS_i = S has the same throughput; the smallest-first order is
// the completion-time choice among them (SRPT on virtual sizes).
//
// Complexity: O(n) time. Case 2 needs no order at all; case 1 needs only the
// cut-off job, which a radix selection on the values of T_i finds in one or
// two histogram passes, without sorting. With a dst of capacity n and a
// reused ws, Allocate allocates nothing.
//
// Special cases: no jobs gives an empty result. Jobs with T_i = 0 (or −0)
// get +0. If every T_i is 0 there is no work and every job gets 0
// (ΣS_i = 0 < S); otherwise ΣS_i = S up to rounding. S = 0 gives every job
// 0. β ≥ 2 means no speculation: V_i = T_i. Every share is rounded from
// its exact value, whatever the magnitudes: a positive T_i/ΣT_j below
// float64's normal range is scaled before it is multiplied by S, so a
// share is 0 only where the exact one rounds to 0. An error, with dst
// untouched, is returned for β ≤ 1, NaN or ±Inf; for S < 0, NaN or ±Inf;
// for a T_i < 0, NaN or ±Inf (naming the job); when ΣT_i overflows float64
// (the running sum, naming the job where it does; ΣV_i may overflow, the
// case is then the constrained one); and when dst would be reused (capacity ≥ n) and overlaps remaining: dst must not
// overlap remaining.
func Allocate(dst, remaining []float64, slots, beta float64, ws *Workspace) ([]float64, error) {
	const fn = "alloc.Allocate"
	if err := check.Disjoint(fn, dst, len(remaining), "remaining", remaining); err != nil {
		return nil, err
	}
	snap, err := validate(fn, remaining, slots, beta)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(remaining))[:len(remaining)]
	hopper.Allocate(dst, remaining, slots, snap, orNew(ws))
	return dst, nil
}

// CaseTolerance is how close, relative to S, the total virtual size must be
// to S for Algorithm 1 (and Algorithm 2, whose case split is the same at
// ε = 1) to take the capacity-constrained case. At ΣV = S both cases give
// every job exactly V_i; which branch a sum rounded one way or the other
// picks must not matter, and the constrained case returns V_i exactly
// where the proportional one returns V_i·(1 ± ulp) — which, for β ≥ 2,
// lands on the kink of μ = min(S_i, T_i).
const CaseTolerance = 1e-12

// validate checks the arguments of Algorithm 1 in one pass over the
// snapshot (check.Summarize) and summarises it for the kernel.
func validate(fn string, remaining []float64, slots, beta float64) (hopper.Summary, error) {
	c, err := speculationFactor(fn, beta)
	if err != nil {
		return hopper.Summary{}, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return hopper.Summary{}, err
	}
	sum, err := check.Summarize(fn, "remaining", remaining)
	if err != nil {
		return hopper.Summary{}, err
	}
	return hopper.NewSummary(c, sum.Total, sum.Least, sum.Most), nil
}
