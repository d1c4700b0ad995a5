package alloc

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/scale"
	"github.com/specsched/specsched/internal/selection"
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
	allocate(dst, remaining, slots, snap, orNew(ws))
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

// summary is what validation learns of a snapshot in its one pass.
type summary struct {
	factor       float64 // the speculation factor c = 2/β (1 for β ≥ 2)
	total        float64 // ΣT_i
	least, most  float64 // min and max T_i
	virtualTotal float64 // c·ΣT_i, possibly +Inf
}

// validate checks the arguments of Algorithm 1 in one pass over the
// snapshot (check.Summarize) and summarises it.
func validate(fn string, remaining []float64, slots, beta float64) (summary, error) {
	c, err := speculationFactor(fn, beta)
	if err != nil {
		return summary{}, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return summary{}, err
	}
	sum, err := check.Summarize(fn, "remaining", remaining)
	if err != nil {
		return summary{}, err
	}
	// c·ΣT may overflow to +Inf: the case is then certainly the
	// constrained one (ΣV > MaxFloat64 ≥ S), whose fill only sums the
	// virtual sizes below the cut-off, all below S.
	return summary{factor: c, total: sum.Total, least: sum.Least, most: sum.Most, virtualTotal: c * sum.Total}, nil
}

// allocate is Algorithm 1 on a validated snapshot; dst has len(remaining)
// elements.
func allocate(dst, remaining []float64, slots float64, snap summary, ws *Workspace) {
	c, total := snap.factor, snap.total
	if total == 0 || slots == 0 {
		clear(dst)
		return
	}
	if snap.virtualTotal < slots*(1-CaseTolerance) {
		// Case 2: proportional sharing, eq. 3.6. T_i/ΣT ≤ 1, so the
		// product cannot overflow; a quotient below the normal range (0,
		// −0, or one that lost bits to underflow) takes the scaled path.
		for i, t := range remaining {
			q := t / total
			if q < scale.MinNormal {
				dst[i] = scale.Share(t, total, slots)
				continue
			}
			dst[i] = q * slots
		}
		return
	}
	// Case 1: fill virtual sizes smallest-first. The cut-off group is the
	// first value of T at which the virtual sizes so far reach S.
	cut := selection.SearchRange(ws, remaining, snap.least, snap.most, selection.Weight{A: c}, func(incl selection.Stats, _ float64, _ bool) bool {
		return incl.Sum >= slots
	})
	if !cut.Found {
		// Rounding put ΣV_i a hair below S although c·ΣT_i ≥ S: every job
		// gets its virtual size, which is then S up to rounding.
		for i, t := range remaining {
			dst[i] = c*t + 0 // −0 + 0 = +0
		}
		return
	}
	fillBelow(dst, remaining, c, cut, slots-cut.Before.Sum, ws)
}

// fillBelow writes V_i = c·T_i for T_i below the cut, 0 above it, and hands
// left to the jobs with T_i at the cut in index order: each gets up to its
// V_i until left runs out.
//
// Which side of the cut a job falls on is data the CPU cannot predict, so
// the main loop selects with masks instead of branches — for non-negative
// floats the order of the values is the order of their IEEE bits — and
// appends the indices of the tied jobs without a branch; a second loop over
// those alone settles the tie. (A -0, whose bits sort above everything, is
// written as 0, which is its share on either side of the cut.)
func fillBelow(dst, remaining []float64, c float64, cut selection.Cut, left float64, ws *Workspace) {
	cutBits := int64(math.Float64bits(cut.Value))    // > 0: S > 0 is not reached by zeros
	tied := selection.Indices(ws, cut.Group.Count+1) // one spare slot for the unconditional store
	count := 0
	for i, t := range remaining {
		d := int64(math.Float64bits(t)) - cutBits
		below := d >> 63          // all ones iff t < cut
		notAbove := (d - 1) >> 63 // all ones iff t ≤ cut
		dst[i] = math.Float64frombits(math.Float64bits(c*t) & uint64(below))
		tied[count] = int32(i)
		count += int(below - notAbove) // +1 iff t == cut
	}
	for _, i := range tied[:min(count, cut.Group.Count)] {
		v := min(c*remaining[i], left)
		dst[i] = v
		left -= v
	}
}
