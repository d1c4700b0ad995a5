package hopper

import (
	"github.com/specsched/specsched/internal/scale"
	"github.com/specsched/specsched/internal/selection"
)

// Fair is Hopper's ε-fair allocation, Algorithm 2 of the thesis (§3.5,
// Theorem 2; fairness.Allocate, whose doc comment gives the algorithm, its
// reading of m₂, its special cases and its O(n) cost), on a snapshot
// summarised by snap, for slots ≥ 0 and eps in [0, 1]; dst has
// len(remaining) elements and must not overlap remaining. It reports
// whether any job is active (some T_i > 0).
//
// snap must be the Summary of remaining (Summarize, or fairness's
// validation) with Σ c·T_i, summed in index order, finite: no product or
// sum of two inputs is formed that this bound does not keep in range. The
// case-2 comparisons test a job's proportional share T/ΣT·S' against the
// floor — the value the job would be written — rather than T·S' against
// f·ΣT, whose two products overflow near 1e308 or vanish near 1e−308, and
// the shares themselves go through proportional.
func Fair(dst, remaining []float64, slots, eps float64, snap Summary, ws *selection.Workspace) bool {
	var (
		active   int     // N
		smallest float64 // min T_i over active jobs
	)
	for _, t := range remaining {
		if t > 0 {
			if active == 0 || t < smallest {
				smallest = t
			}
			active++
		}
	}
	if active == 0 {
		clear(dst)
		return false
	}
	c, total := snap.Factor, snap.Total // ΣT_i, finite: c·ΣT_i is bounded
	floor := (1 - eps) * slots / float64(active)

	// m₁ and the virtual sizes above the floor.
	var (
		m1       int
		aboveV   float64 // Σ_{i>m₁} V_i
		finished = len(remaining) - active
	)
	for _, t := range remaining {
		if t > 0 && c*t <= floor {
			m1++
		} else if t > 0 {
			aboveV += c * t
		}
	}

	// Case 1 when S ≤ Σ_{i>m₁} V_i + m₁·f, a tie included, as in
	// Algorithm 1. The sum is rounded: within CaseTolerance of it case 1
	// is taken and its fill settles what is left. (A sum that overflows is
	// above S ≤ MaxFloat64: case 1, rightly.)
	if slots <= (aboveV+float64(m1)*floor)*(1+CaseTolerance) {
		fillAboveFloor(dst, remaining, slots, c, floor, active, snap, ws)
		return true
	}

	// Case 2: the water-fill. m₂ = 0 when the smallest job's proportional
	// share already reaches the floor.
	clampedT, clampedUpTo := 0.0, -1.0 // ΣT and largest T of the jobs at the floor
	m2 := 0
	if proportional(smallest, total, slots) < floor {
		cut := selection.SearchRange(ws, remaining, snap.Least, snap.Most, selection.Weight{A: 1}, func(incl selection.Stats, next float64, hasNext bool) bool {
			m := float64(incl.Count - finished)
			// The last group satisfies it vacuously; the condition already
			// holds at the group before it (S ≥ N·f), so that is never the
			// cut. The test is the one the output loop writes: job m+1's
			// share of what the floors leave, against the floor.
			return !hasNext || proportional(next, total-incl.Sum, slots-m*floor) >= floor
		})
		if cut.Found {
			clampedT = cut.Before.Sum + cut.Group.Sum
			clampedUpTo = cut.Value
			m2 = cut.Before.Count + cut.Group.Count - finished
		}
	}
	rest, share := total-clampedT, slots-float64(m2)*floor
	for i, t := range remaining {
		if t == 0 {
			dst[i] = 0
		} else if t <= clampedUpTo {
			dst[i] = floor
		} else {
			dst[i] = proportional(t, rest, share)
		}
	}
	return true
}

// fillAboveFloor is case 1 of Algorithm 2: every active job gets the
// floor, then jobs in increasing order of T_i get V_i − f more until the
// slots run out.
//
// When the top-ups Σmax{0, V_i − f} do not reach S − N·f, S lies past
// Σmax{f, V_i} by less than CaseTolerance: every job would get
// max{f, V_i} and up to 1e-12·S slots stay idle (9 007 at S = 2^53). Then
// every share is scaled by S/Σmax{f, V_i} ≥ 1 instead: ΣS_i = S, no job
// falls below its floor or its virtual size (where, for β ≥ 2, a share a
// rounding below V_i would be a slot left unused by the throughput), and
// each share moves by at most the tolerance — the water-fill of case 2
// agrees with it to that order.
func fillAboveFloor(dst, remaining []float64, slots, c, floor float64, active int, snap Summary, ws *selection.Workspace) {
	extra := slots - float64(active)*floor
	cut := selection.SearchRange(ws, remaining, snap.Least, snap.Most, selection.Weight{A: c, B: -floor}, func(incl selection.Stats, _ float64, _ bool) bool {
		return incl.Sum >= extra
	})
	if !cut.Found {
		// cut.Before sums the top-ups of every job; the quotient is > 1.
		scale := slots / (float64(active)*floor + cut.Before.Sum)
		for i, t := range remaining {
			dst[i] = 0
			if t > 0 {
				dst[i] = min(max(floor, c*t)*scale, slots)
			}
		}
		return
	}
	left := extra - cut.Before.Sum
	for i, t := range remaining {
		if t == 0 {
			dst[i] = 0
		} else if t < cut.Value {
			dst[i] = max(floor, c*t)
		} else if t == cut.Value {
			// The cut's group, in index order; left < 0 (ε = 0 and N·f
			// rounded above S) gives it nothing above the floor, and a
			// share is at most S (f + top rounds past MaxFloat64 when
			// T = S = MaxFloat64).
			top := max(0, min(c*t-floor, left))
			dst[i] = min(floor+top, slots)
			left -= top
		} else {
			dst[i] = floor
		}
	}
}

// proportional returns t/pool·share, the part of share that work t gets
// when share is split in proportion to a pool of work pool ≥ t > 0. The
// quotient t/pool ≤ 1 cannot overflow (and the result is capped at share,
// which rounding of pool below t could exceed); when it falls below the
// normal range, where rounding it would lose digits that share may scale
// back up (t = 1e−200 in a pool of 1e200 sharing 1e300 slots gets 1e−100,
// not 0), the three numbers are split into mantissas and exponents and
// the result is scaled once, by math.Ldexp, which rounds correctly. O(1).
func proportional(t, pool, share float64) float64 {
	if r := t / pool; r >= scale.MinNormal {
		return min(r*share, share)
	}
	return scale.Share(t, pool, share)
}

// Proportional is the proportional share t/pool·share of Algorithm 1's case
// 2 (eq. 3.6), rounded from its exact value at every magnitude (a quotient
// below the normal range is scaled first), for 0 ≤ t ≤ pool, pool > 0 and
// share ≥ 0: what Allocate writes for a job of t remaining tasks.
func Proportional(t, pool, share float64) float64 { return proportional(t, pool, share) }
