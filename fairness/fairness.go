package fairness

import (
	"math"
	"slices"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/scale"
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
// Magnitudes: every T_i and S in [0, MaxFloat64] is accepted, subnormals
// included, as long as ΣV_i does not overflow float64 (the bound of
// alloc.Allocate); the result is finite and within rounding of the exact
// allocation at any scale — the case-2 tests compare a job's share
// T_i/ΣT·S' with the floor instead of forming T_i·S', which leaves
// float64's range (issue 11) — except that a share below 2^−1022 keeps only
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
func Allocate(dst, remaining []float64, slots, beta, eps float64, ws *alloc.Workspace) ([]float64, error) {
	const fn = "fairness.Allocate"
	if err := check.Disjoint(fn, dst, len(remaining), "remaining", remaining); err != nil {
		return nil, err
	}
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
// slots < 0 or > alloc.MaxTotal (2^53) rejected. A ws whose Shares overlap
// remaining is not written through: AllocateSlots then allocates its
// scratch.
func AllocateSlots(dst []int, remaining []float64, slots int, beta, eps float64, ws *alloc.Workspace) ([]int, error) {
	const fn = "fairness.AllocateSlots"
	n := len(remaining)
	if err := check.Disjoint(fn, dst, n, "remaining", remaining); err != nil {
		return nil, err
	}
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
	shares := selection.Shares(ws, n)
	total := 0
	if allocate(shares, remaining, float64(slots), c, eps, snap, ws) {
		total = slots
	}
	dst = slices.Grow(dst[:0], n)[:n]
	selection.Apportion(ws, dst, shares, total, remaining)
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
		if err := virtualOverflow(fn, remaining, c); err != nil {
			return 0, check.Summary{}, err
		}
	}
	return c, sum, nil
}

// virtualOverflow decides, when c·ΣT_i rounds past MaxFloat64, by the sum
// the algorithm forms: the running sum of V_i = c·T_i in index order. It
// names the job at which that sum overflows, or returns nil when it does
// not (c·ΣT_i rounds differently; allocate never forms it).
func virtualOverflow(fn string, remaining []float64, c float64) error {
	var sum float64
	for i, t := range remaining {
		sum += c * t
		if math.IsInf(sum, 1) {
			return check.Err(fn, i, "remaining", t, "the total virtual size Σ(2/β)·T overflows float64")
		}
	}
	return nil
}

// allocate is Algorithm 2 on validated input, snap being validate's
// summary of remaining; dst has len(remaining) elements. It reports
// whether any job is active.
//
// No product or sum of two inputs is formed that the validated bound
// (c·ΣT_i finite) does not keep in range: the case-2 comparisons test a
// job's proportional share T/ΣT·S' against the floor — the value the job
// would be written — rather than T·S' against f·ΣT, whose two products
// overflow near 1e308 or vanish near 1e−308 (issue 11), and the shares
// themselves go through proportional.
func allocate(dst, remaining []float64, slots, c, eps float64, snap check.Summary, ws *alloc.Workspace) bool {
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
	total := snap.Total // ΣT_i, finite: validate bounds c·ΣT_i
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

	// Case 1 when S ≤ Σ_{i>m₁} V_i + m₁·f, a tie included, as in alloc.
	// The sum is rounded: within alloc.CaseTolerance of it case 1 is taken
	// and its fill settles what is left. (A sum that overflows is above
	// S ≤ MaxFloat64: case 1, rightly.)
	if slots <= (aboveV+float64(m1)*floor)*(1+alloc.CaseTolerance) {
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
// Σmax{f, V_i} by less than alloc.CaseTolerance: every job would get
// max{f, V_i} and up to 1e-12·S slots stay idle (9 007 at S = 2^53). Then
// every share is scaled by S/Σmax{f, V_i} ≥ 1 instead: ΣS_i = S, no job
// falls below its floor or its virtual size (where, for β ≥ 2, a share a
// rounding below V_i would be a slot left unused by the throughput), and
// each share moves by at most the tolerance — the water-fill of case 2
// agrees with it to that order.
func fillAboveFloor(dst, remaining []float64, slots, c, floor float64, active int, snap check.Summary, ws *alloc.Workspace) {
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
