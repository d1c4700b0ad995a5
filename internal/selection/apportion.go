package selection

import (
	"math"
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
// exactly total by the largest-remainder (Hamilton) method, with ties
// between equal fractional parts going to each key of keys in turn
// (smaller first), then to the smaller index; a job with share 0 gets 0.
//
// When the shares sum to total up to rounding — the callers' usual case —
// this is the textbook method: every job gets ⌊shares[i]⌋ and the R =
// total − Σ⌊shares[i]⌋ units left go to the jobs with the largest
// fractional parts, so |dst[i] − shares[i]| < 1. That is the rule whenever
// 0 ≤ R ≤ the number of non-zero fractional parts, which |Σshares −
// total| < 1 implies. Otherwise — shares of 2^52 and more are integers, so
// near total = 2^53 their floors can sum past total; a real-valued
// allocation's relative rounding of n·2⁻⁵³ is several units there; or a
// caller's shares are a few units off — the shares are taken as Hamilton's
// weights: each job's quota is
// shares[i]·total/Σshares, the shares scaled to sum to total, and the
// quotas are rounded by largest remainder. The quotas are formed as
// ⌊shares[i]⌋ plus the fractional part minus shares[i]·(Σshares −
// total)/Σshares, so their integer and fractional parts stay exact to a
// few ulps of the correction, not of the share. (Should rounding still
// leave R outside [0, positive shares], the last units are handed out, or
// taken back, one per job a round: giving, to each job with a positive
// share, ⌊R/m⌋ and then one to the R mod m largest fractional parts;
// taking, one from each job holding a unit, the smallest fractional part
// first, ties to the larger key, then the larger index.)
//
// The shares must be finite and ≥ 0 and total ≥ 0, with Σ⌊shares[i]⌋ and
// total within the range of int (the callers validate); with all shares 0
// there is nothing to give and dst is all zeros. O(n): two passes and at
// most two radix selections, plus one search per key over the jobs still
// tied; shares that need scaling add a pass (and the rounds of the last
// resort a binary search, O(n·log R)). (Hopper's Algorithm 3 uses the
// keys: max{T, T'} first, then the larger α.)
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
	if remaining = toQuotas(ws, dst, shares, total, remaining); remaining != 0 {
		rounds(ws, dst, shares, remaining, keys)
	}
}

// excluded is the value of ws.fracs for a job that takes no unit: larger
// than every minus-fractional-part (≤ 0).
const excluded = 1

// toQuotas turns the floors in dst and the minus-fractional-parts in
// ws.fracs (remaining = total − Σdst) into those of the quotas
// shares[i]·total/Σshares, marks the jobs with share 0 excluded, and
// returns the units R the quotas' floors leave. With every share 0 there
// is nothing to give: it changes nothing and returns 0.
//
// Σshares − total is known to about n²·2⁻⁵³ (the sum of the fractional
// parts); each quota is off by that share of it and a few ulps of its
// correction s·(Σshares − total)/Σshares, so their floors leave 0 ≤ R ≤
// the positive shares — the R largest fractional parts get a unit —
// unless n is near 10⁸ or the correction near 2^52 (shares and total
// wholly apart), where rounds takes more than one round.
func toQuotas(ws *Workspace, dst []int, shares []float64, total, remaining int) int {
	var fracSum float64
	for _, f := range ws.fracs {
		fracSum -= f
	}
	sum := float64(total-remaining) + fracSum // Σshares
	if sum == 0 {
		return 0
	}
	// (Σshares − total)/Σshares ≤ 1 for total ≥ 0: the quota
	// ⌊s⌋ + (frac − s·ratio) ≥ 0, so no floor goes below 0. The ratio
	// overflows when Σshares is tiny (a subnormal share and a total of
	// units: −2/7e-310); the correction is then (s/Σshares)·(Σshares −
	// total), whose factors are at most 1 and finite.
	diff := fracSum - float64(remaining)
	ratio := diff / sum
	huge := math.IsInf(ratio, 0)
	for i, s := range shares {
		if s == 0 {
			ws.fracs[i] = excluded
			continue
		}
		corr := s * ratio
		if huge {
			corr = s / sum * diff
		}
		part := -ws.fracs[i] - corr // the quota minus ⌊s⌋
		whole := math.Floor(part)
		dst[i] += int(whole)
		remaining -= int(whole)
		ws.fracs[i] = whole - part
	}
	return remaining
}

// rounds finishes ApportionBy when the quotas' floors leave R ≠ 0 units:
// dst holds the floors and ws.fracs minus the fractional parts (excluded
// for a share of 0); some share is positive and total ≥ 0, so there is a
// job to give to or, when R < 0, one holding a unit. Whole rounds first
// (rarely any: usually 0 < R ≤ the positive shares, and the R largest
// fractional parts get a unit), then one partial round given out by give.
func rounds(ws *Workspace, dst []int, shares []float64, remaining int, keys [][]float64) {
	if remaining > 0 {
		positive := 0
		for _, s := range shares {
			if s > 0 {
				positive++
			}
		}
		round, last := remaining/positive, remaining%positive
		for i, s := range shares {
			if s > 0 {
				dst[i] += round
			} else {
				ws.fracs[i] = excluded
			}
		}
		giveLargest(ws, dst, last, keys) // none when last = 0
		return
	}
	// Too many units: take back whole rounds (every job loses min(floor,
	// rounds)) while at most −R units come back, then the partial round.
	over := -remaining
	most := 0
	for _, d := range dst {
		most = max(most, d)
	}
	taken := func(rounds int) int {
		sum := 0
		for _, d := range dst {
			sum += min(d, rounds)
		}
		return sum
	}
	// The largest number of whole rounds whose units fit in over: taken is
	// non-decreasing from taken(0) = 0, and each round gives back at least
	// one unit until taken(most) = Σ floors.
	lo, hi := 0, min(over, most)
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
