package selection

import (
	"slices"
)

// Apportion writes to dst (which must have len(shares) elements) the
// largest-remainder rounding of shares to the integer total: every job gets
// ⌊shares[i]⌋, and the R = total − Σ⌊shares[i]⌋ remaining units go to the
// jobs with the largest fractional parts, ties to the smaller priority value
// (nil priority: every priority equal), then to the smaller index.
//
// The caller guarantees finite, non-negative shares whose sum is within a
// unit of total, so that 0 ≤ R ≤ the number of non-zero fractional parts.
// O(n): two passes and at most two searches.
func Apportion(ws *Workspace, dst []int, shares []float64, total int, priority []float64) {
	if priority == nil {
		ApportionBy(ws, dst, shares, total)
		return
	}
	ApportionBy(ws, dst, shares, total, priority)
}

// ApportionBy is Apportion with ties between equal fractional parts broken
// by several priority keys in turn (each smaller first), then by index —
// for algorithms whose order has a tie-break of its own, such as Hopper's
// Algorithm 3 (max{T, T'} first, then the larger α). O(n) plus one search
// per key over the jobs still tied.
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
	if remaining <= 0 {
		return
	}
	remaining = min(remaining, n)
	byFrac := Search(ws, ws.fracs, Count, func(incl Stats, _ float64, _ bool) bool {
		return incl.Count >= remaining
	})
	tied := remaining - byFrac.Before.Count // units left for the group at the cut

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
