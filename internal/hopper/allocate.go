package hopper

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
)

// CaseTolerance is alloc.CaseTolerance: how close, relative to S, ΣV must
// be to S for Algorithm 1 to take the capacity-constrained case.
const CaseTolerance = 1e-12

// Summary is what Algorithm 1 needs to know of a snapshot beyond its
// values: what alloc's validation learns in its one pass (check.Summarize),
// or what Summarize computes, bit for bit the same, for valid input.
type Summary struct {
	Factor       float64 // the speculation factor c = 2/β (1 for β ≥ 2)
	Total        float64 // ΣT_i
	Least, Most  float64 // min and max T_i (+0 for −0)
	VirtualTotal float64 // c·ΣT_i, possibly +Inf
}

// NewSummary is the Summary of a snapshot with speculation factor c, sum
// total and extremes least and most.
func NewSummary(c, total, least, most float64) Summary {
	// c·ΣT may overflow to +Inf: the case is then certainly the
	// constrained one (ΣV > MaxFloat64 ≥ S), whose fill only sums the
	// virtual sizes below the cut-off, all below S.
	return Summary{Factor: c, Total: total, Least: least, Most: most, VirtualTotal: c * total}
}

// Summarize returns the Summary of remaining (every T_i finite and ≥ 0,
// ΣT_i finite) for tail index beta, unchecked: check.SummaryOf's total
// and extremes, bit for bit those alloc's validation gets from
// check.Summarize. O(n).
func Summarize(remaining []float64, beta float64) Summary {
	sum := check.SummaryOf(remaining)
	return NewSummary(Factor(beta), sum.Total, sum.Least, sum.Most)
}

// Allocate is Hopper's Algorithm 1 (alloc.Allocate, whose doc comment
// gives the algorithm, its special cases and its O(n) cost) on a snapshot
// summarised by snap, for slots ≥ 0; dst has len(remaining) elements and
// must not overlap remaining.
func Allocate(dst, remaining []float64, slots float64, snap Summary, ws *selection.Workspace) {
	c, total := snap.Factor, snap.Total
	if total == 0 || slots == 0 {
		clear(dst)
		return
	}
	if snap.VirtualTotal < slots*(1-CaseTolerance) {
		// Case 2: proportional sharing, eq. 3.6 (proportional: T_i/ΣT ≤ 1
		// cannot overflow, and a quotient below the normal range — 0, −0,
		// or one that lost bits to underflow — takes the scaled path).
		for i, t := range remaining {
			dst[i] = proportional(t, total, slots)
		}
		return
	}
	// Case 1: fill virtual sizes smallest-first. The cut-off group is the
	// first value of T at which the virtual sizes so far reach S.
	cut := selection.SearchRange(ws, remaining, snap.Least, snap.Most, selection.Weight{A: c}, func(incl selection.Stats, _ float64, _ bool) bool {
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
func fillBelow(dst, remaining []float64, c float64, cut selection.Cut, left float64, ws *selection.Workspace) {
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
