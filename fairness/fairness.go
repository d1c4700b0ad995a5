package fairness

import (
	"math"
	"slices"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
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
// Special cases: ε = 0 gives every active job S/N (the Fair scheduler);
// ε = 1 gives Algorithm 1 (alloc.Allocate). Jobs with T_i = 0 are finished:
// they get 0 and do not count in N. No active job gives all zeros.
// ΣS_i = S whenever some job is active. β ≥ 2 means no speculation
// (V_i = T_i). An error, with dst untouched, is returned for ε outside
// [0, 1] or NaN, and for everything alloc.Allocate rejects.
func Allocate(dst, remaining []float64, slots, beta, eps float64, ws *alloc.Workspace) ([]float64, error) {
	const fn = "fairness.Allocate"
	c, snap, err := validate(fn, remaining, slots, beta, eps)
	if err != nil {
		return nil, err
	}
	if ws == nil {
		ws = new(alloc.Workspace)
	}
	dst = slices.Grow(dst[:0], len(remaining))[:len(remaining)]
	allocate(dst, remaining, slots, c, eps, snap, ws)
	return dst, nil
}

// AllocateSlots is the integer form of Algorithm 2: the real-valued
// allocation of Allocate for S = slots, rounded by alloc.Apportion with ties
// in the algorithm's order (fewer remaining tasks first, then index). The
// result sums to exactly slots when some job is active, every job is within
// one slot of its real share, and every active job gets at least
// ⌊(1−ε)·S/N⌋ slots.
//
// Complexity: O(n); allocation-free with a dst of capacity n and a reused
// ws. Errors are those of Allocate, with slots < 0 or > alloc.MaxTotal
// rejected.
func AllocateSlots(dst []int, remaining []float64, slots int, beta, eps float64, ws *alloc.Workspace) ([]int, error) {
	const fn = "fairness.AllocateSlots"
	if slots < 0 || slots > alloc.MaxTotal {
		return nil, check.Err(fn, check.Scalar, "slots", float64(slots), "must lie in [0, 2^53]")
	}
	c, snap, err := validate(fn, remaining, float64(slots), beta, eps)
	if err != nil {
		return nil, err
	}
	if ws == nil {
		ws = new(alloc.Workspace)
	}
	n := len(remaining)
	ws.Shares = slices.Grow(ws.Shares[:0], n)[:n]
	total := 0
	if allocate(ws.Shares, remaining, float64(slots), c, eps, snap, ws) {
		total = slots
	}
	dst = slices.Grow(dst[:0], n)[:n]
	selection.Apportion(ws, dst, ws.Shares, total, remaining)
	return dst, nil
}

// validate checks the arguments in one pass over the snapshot
// (check.Summarize, as alloc does) and returns the speculation factor 2/β
// (1 for β ≥ 2) and the summary, whose least and most T_i bound the
// selections of allocate.
func validate(fn string, remaining []float64, slots, beta, eps float64) (float64, check.Summary, error) {
	if err := check.Unit(fn, check.Scalar, "eps", eps); err != nil {
		return 0, check.Summary{}, err
	}
	c, err := alloc.VirtualSize(1, beta)
	if err != nil {
		return 0, check.Summary{}, check.Err(fn, check.Scalar, "beta", beta, "must be a finite number > 1")
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return 0, check.Summary{}, err
	}
	sum, err := check.Summarize(fn, "remaining", remaining)
	if err != nil {
		return 0, check.Summary{}, err
	}
	if math.IsInf(c*sum.Total, 1) {
		return 0, check.Summary{}, check.Err(fn, check.Scalar, "remaining", sum.Total, "the total virtual size overflows float64")
	}
	return c, sum, nil
}

// allocate is Algorithm 2 on validated input, snap being validate's
// summary of remaining; dst has len(remaining) elements. It reports
// whether any job is active.
func allocate(dst, remaining []float64, slots, c, eps float64, snap check.Summary, ws *alloc.Workspace) bool {
	var (
		active   int     // N
		total    float64 // ΣT_i
		smallest float64 // min T_i over active jobs
	)
	for _, t := range remaining {
		if t > 0 {
			if active == 0 || t < smallest {
				smallest = t
			}
			active++
			total += t
		}
	}
	if active == 0 {
		clear(dst)
		return false
	}
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

	// Ties within rounding go to case 1, as in alloc (alloc.CaseTolerance).
	if slots <= (aboveV+float64(m1)*floor)*(1+alloc.CaseTolerance) {
		// Case 1: everyone at the floor, then top-ups V_i − f smallest-first.
		extra := slots - float64(active)*floor
		cut := selection.SearchRange(ws, remaining, snap.Least, snap.Most, selection.Weight{A: c, B: -floor}, func(incl selection.Stats, _ float64, _ bool) bool {
			return incl.Sum >= extra
		})
		left := extra - cut.Before.Sum
		for i, t := range remaining {
			switch {
			case t == 0:
				dst[i] = 0
			case !cut.Found || t < cut.Value:
				dst[i] = max(floor, c*t)
			case t == cut.Value && left > 0:
				top := min(max(0, c*t-floor), left)
				dst[i] = floor + top
				left -= top
			default:
				dst[i] = floor
			}
		}
		return true
	}

	// Case 2: the water-fill. m₂ = 0 when the smallest job's proportional
	// share already reaches the floor.
	clampedT, clampedUpTo := 0.0, -1.0 // ΣT and largest T of the jobs at the floor
	m2 := 0
	if smallest*slots < floor*total {
		cut := selection.SearchRange(ws, remaining, snap.Least, snap.Most, selection.Weight{A: 1}, func(incl selection.Stats, next float64, hasNext bool) bool {
			m := float64(incl.Count - finished)
			// The last group satisfies it vacuously; the condition already
			// holds at the group before it (S ≥ N·f), so that is never the cut.
			return !hasNext || next*(slots-m*floor) >= floor*(total-incl.Sum)
		})
		if cut.Found {
			clampedT = cut.Before.Sum + cut.Group.Sum
			clampedUpTo = cut.Value
			m2 = cut.Before.Count + cut.Group.Count - finished
		}
	}
	rest, share := total-clampedT, slots-float64(m2)*floor
	for i, t := range remaining {
		switch {
		case t == 0:
			dst[i] = 0
		case t <= clampedUpTo:
			dst[i] = floor
		default:
			dst[i] = t / rest * share // t/rest ≤ 1: no overflow
		}
	}
	return true
}
