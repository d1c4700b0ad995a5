package selection

import (
	"slices"
)

// Apportion writes to dst (which must have len(shares) elements) the
// largest-remainder rounding of shares to the integer total, with ties
// between equal fractional parts going to the smaller priority value (nil
// priority: every priority equal), then to the smaller index. See
// ApportionBy for the rule and its guarantees.
func Apportion(ws *Workspace, dst []int, shares []float64, total int, priority []float64) {
	if priority == nil {
		ApportionBy(ws, dst, shares, total)
		return
	}
	ApportionBy(ws, dst, shares, total, priority)
}

// ApportionBy writes to dst (len(shares) elements) integers that sum to
// exactly total, by the largest-remainder (Hamilton) method generalised to
// shares whose sum is not total: think of job i's k-th unit (k = 1, 2, …)
// as ranked by shares[i] − k + 1, the part of its share that unit covers;
// total units are handed out in that order (ties: each key of keys in turn,
// smaller first, then the smaller index), and a job with share 0 gets
// none.
//
// When the shares sum to total up to rounding — the callers' usual case,
// |Σshares − total| < 1 — this is the textbook method: every job gets
// ⌊shares[i]⌋, the R = total − Σ⌊shares[i]⌋ units left go to the jobs with
// the largest fractional parts, and |dst[i] − shares[i]| < 1. Rounding can
// leave R outside [0, number of fractional parts) — shares of 2^52 and more
// are integers, so near total = 2^53 the floors may sum to more than total
// — and then the rule above still holds, in both directions:
//
//   - R ≥ 0 (too few units): each job with a positive share gets ⌊R/m⌋ more
//     (m such jobs), and the R mod m largest fractional parts one more.
//   - R < 0 (too many): the last units are taken back in reverse order —
//     one from each job holding at least one, lowest fractional part (the
//     lowest ranked unit) first, ties to the larger key and then the larger
//     index, round after round until −R units are back.
//
// The shares must be finite and ≥ 0 with Σ⌊shares[i]⌋ + |total| within
// the range of int; with all shares 0 and total > 0 there is nothing to
// give and dst is all zeros. O(n) when |R| is less than the number of jobs
// it goes to or comes from — two passes and at most two radix selections,
// plus one search per key over the jobs still tied; otherwise
// O(n·log(max share)) for the rounds. (Hopper's Algorithm 3 uses the keys:
// max{T, T'} first, then the larger α.)
func ApportionBy(ws *Workspace, dst []int, shares []float64, total int, keys ...[]float64) {
	n := len(shares)
	ws.fracs = slices.Grow(ws.fracs[:0], n)[:n]
	remaining := total
	for i, s := range shares {
		// Truncation is the floor for s ≥ 0, and a single instruction where
		// math.Floor is a call.
		whole := int(s)
		dst[i] = whole
		remaining -= whole
		ws.fracs[i] = float64(whole) - s // minus the fractional part: largest first
	}
	if remaining == 0 {
		return
	}
	if remaining > 0 && remaining <= n {
		// The usual case: the units left go to fractional parts alone when
		// the R-th largest is not 0.
		byFrac := Search(ws, ws.fracs, Count, func(incl Stats, _ float64, _ bool) bool {
			return incl.Count >= remaining
		})
		if byFrac.Value < 0 {
			give(ws, dst, byFrac, remaining, keys)
			return
		}
	}
	rebalance(ws, dst, shares, remaining, keys)
}

// excluded is the value of ws.fracs for a job that takes no part in the
// last round of rebalance: larger than every minus-fractional-part (≤ 0).
const excluded = 1

// rebalance finishes ApportionBy when its remaining units (R ≠ 0) are not
// the few largest fractional parts: dst holds the floors and ws.fracs minus
// the fractional parts. Whole rounds first, then one partial round given
// out by give.
func rebalance(ws *Workspace, dst []int, shares []float64, remaining int, keys [][]float64) {
	if remaining > 0 {
		positive := 0
		for _, s := range shares {
			if s > 0 {
				positive++
			}
		}
		if positive == 0 {
			return // nothing can take a unit
		}
		round, last := remaining/positive, remaining%positive
		for i, s := range shares {
			if s > 0 {
				dst[i] += round
			} else {
				ws.fracs[i] = excluded
			}
		}
		if last > 0 {
			giveLargest(ws, dst, last, keys)
		}
		return
	}
	// Too many units: take back whole rounds (every job loses min(floor,
	// rounds)) while at most −R units come back, then the partial round.
	over := -remaining
	holders, most := 0, 0
	for _, d := range dst {
		if d > 0 {
			holders++
		}
		most = max(most, d)
	}
	if holders == 0 {
		return // a negative total: nothing to take back
	}
	taken := func(rounds int) int {
		sum := 0
		for _, d := range dst {
			sum += min(d, rounds)
		}
		return sum
	}
	// The largest number of whole rounds whose units fit in over: taken is
	// non-decreasing, at most rounds·holders, and taken(most) = Σ floors.
	lo, hi := over/holders, min(over, most)
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if taken(mid) <= over {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	left := over - taken(lo) // units of the partial round, fewer than its jobs
	inRound := 0
	for i, d := range dst {
		d -= min(d, lo)
		if d > 0 {
			// In the partial round: take its unit now, give back the
			// inRound − left highest ranked below.
			d--
			inRound++
		} else {
			ws.fracs[i] = excluded
		}
		dst[i] = d
	}
	if back := inRound - left; back > 0 {
		giveLargest(ws, dst, back, keys)
	}
}

// giveLargest gives one unit to each of the units jobs with the smallest
// ws.fracs (the largest fractional parts), ties by keys, then index; fewer
// jobs than units have ws.fracs below excluded.
func giveLargest(ws *Workspace, dst []int, units int, keys [][]float64) {
	byFrac := Search(ws, ws.fracs, Count, func(incl Stats, _ float64, _ bool) bool {
		return incl.Count >= units
	})
	give(ws, dst, byFrac, units, keys)
}

// give hands one unit to each job whose ws.fracs is below byFrac.Value and
// the rest of units to the group at byFrac.Value, by keys, then index.
func give(ws *Workspace, dst []int, byFrac Cut, units int, keys [][]float64) {
	tied := units - byFrac.Before.Count // units left for the group at the cut

	// Every job with a larger fractional part than the cut's gets a unit.
	// (Integer 0/1 selects compile to conditional moves: which remainders
	// beat the cut follows no pattern a branch predictor could learn.) The
	// indices of the tied group are stored unconditionally and kept by
	// advancing the count, for the same reason.
	cut := byFrac.Value
	group := Indices(ws, byFrac.Group.Count+1) // a spare slot for the last store
	count := 0
	for i, f := range ws.fracs {
		up, same := 0, 0
		if f < cut {
			up = 1
		}
		if f == cut {
			same = 1
		}
		dst[i] += up
		group[count] = int32(i)
		count += same
	}
	group = group[:min(count, byFrac.Group.Count)]

	// Within the tied group: each key in turn, smaller first; the jobs
	// still tied on every key, in index order.
	for _, key := range keys {
		if tied <= 0 || tied >= len(group) {
			break
		}
		ws.prio = ws.prio[:0]
		for _, i := range group {
			ws.prio = append(ws.prio, key[i])
		}
		byKey := Search(ws, ws.prio, Count, func(incl Stats, _ float64, _ bool) bool {
			return incl.Count >= tied
		})
		tied -= byKey.Before.Count
		still := group[:0]
		for _, i := range group {
			up := 0
			if key[i] < byKey.Value {
				up = 1
			}
			dst[i] += up
			if key[i] == byKey.Value {
				still = append(still, i)
			}
		}
		group = still
	}
	for _, i := range group[:max(0, min(tied, len(group)))] {
		dst[i]++
	}
}
