package hopper

import (
	"math"

	"github.com/specsched/specsched/internal/selection"
)

// The single-job speculation of stragglers.Speculate (thesis §3.2–3.3)
// that the slot simulator's built-in rules also take from a job's counts
// alone (sim's straggler index): one copy of each, so that both decide to
// the last bit alike.

// SpeculationSplit is steps 1 and 2 of stragglers.Speculate's division of
// a job's slots (see its doc comment): with unscheduled tasks shown,
// running tasks of busy live copies and slots > busy, eq. 3.2's level sets
// the distinct-task target D = min(T, slots/k) for T = unscheduled +
// running ≥ 1, apportioned (largest remainder, ties to the distinct tasks)
// against the copies B = slots − D. launches is step 1's, min(unscheduled,
// D − running, free) for free = slots − busy, and budget what step 1
// leaves of the free slots, free − launches: as the two integers sum to
// slots, that is exactly step 2's copy budget B − (busy − running) (or,
// with more extra copies running than B, nothing). O(1).
func SpeculationSplit(ws *selection.Workspace, unscheduled, running, busy, slots int, beta float64) (launches, budget int) {
	unfinished := float64(unscheduled + running)
	level := Level(unfinished, float64(slots), beta) // eq. 3.2; unfinished ≥ 1
	distinct := min(unfinished, float64(slots)/level)
	// The two shares are non-negative and sum to slots (up to rounding):
	// the apportionment kernel, without alloc.Apportion's checks.
	var split [2]int
	shares := [2]float64{distinct, float64(slots) - distinct}
	selection.Apportion(ws, split[:], shares[:], slots, nil)
	free := slots - busy
	launches = min(unscheduled, max(0, split[0]-running), free)
	return launches, free - launches
}

// MantriCutoff returns the δ-quantile of a new copy's duration, Pareto with
// x_m = t_new·(β−1)/β and tail index β (the thesis's model): P(t_new < y)
// > δ ⇔ y > x_m·(1−δ)^(−1/β), the CDF being continuous and strictly
// increasing above x_m and 0 up to it. δ = 1 gives +Inf: no y qualifies.
//
// x_m itself is never formed: for a subnormal t_new it underflows (to 0
// for t_new = 5e-324, β = 1.5, and the quantile 0·∞ = NaN at δ = 1). The
// factor (β−1)/β·(1−δ)^(−1/β) lies in [2^−54, 2^53] (β−1 ≥ 2^−52 and 1−δ
// ≥ 2^−53 for float64 β > 1 and δ < 1), so it is applied to t_new's
// mantissa and t_new's power of two last, with one rounding (math.Ldexp):
// the cut-off is the quantile to within rounding over float64's whole
// range — +Inf when it exceeds MaxFloat64 (no task qualifies), 0 when it
// lies below half the smallest subnormal (every task with t_rem > 0
// qualifies, as it does exactly). At δ = 1 the division by (1−δ)^(1/β) =
// 0 gives the +Inf itself. Precondition (the callers', checked): newCopy
// finite and > 0, beta finite and > 1, threshold in [0, 1]. O(1).
func MantriCutoff(newCopy, beta, threshold float64) float64 {
	frac, exp := math.Frexp(newCopy) // newCopy = frac·2^exp, frac ∈ [1/2, 1)
	q := frac * ((beta - 1) / beta) / math.Pow(1-threshold, 1/beta)
	return math.Ldexp(q, exp)
}

// CopyFactor returns c/(c+1), Mantri's factor for a task running c copies
// (Mantri's rule compares c/(c+1)·t_rem with t_new; Xu et al. §5). Most
// running tasks have one copy; for them the factor is 1/2 without the
// division, which costs more than the rest of a pass over the tasks. The
// value is float64(c)/float64(c+1) for every c in [1, 2^53]: c+1 is
// rounded once either way. O(1).
func CopyFactor(c int) float64 {
	if c == 1 {
		return 0.5 // = 1/(1+1) exactly
	}
	x := float64(c)
	return x / (x + 1)
}
