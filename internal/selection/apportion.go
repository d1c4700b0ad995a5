package selection

import (
	"math"
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
func (ws *Workspace) Apportion(dst []int, shares []float64, total int, priority []float64) {
	n := len(shares)
	ws.fracs = slices.Grow(ws.fracs[:0], n)[:n]
	remaining := total
	for i, s := range shares {
		whole := math.Floor(s)
		dst[i] = int(whole)
		remaining -= dst[i]
		ws.fracs[i] = whole - s // minus the fractional part: largest first
	}
	if remaining <= 0 {
		return
	}
	remaining = min(remaining, n)
	byFrac := ws.Search(ws.fracs, Count, func(incl Stats, _ float64, _ bool) bool {
		return incl.Count >= remaining
	})
	tied := remaining - byFrac.Before.Count // units left for the group at the cut

	// Within the tied group, order by priority when one is given.
	var byPrio Cut
	if priority != nil && tied < byFrac.Group.Count {
		ws.prio = ws.prio[:0]
		for i, f := range ws.fracs {
			if f == byFrac.Value {
				ws.prio = append(ws.prio, priority[i])
			}
		}
		byPrio = ws.Search(ws.prio, Count, func(incl Stats, _ float64, _ bool) bool {
			return incl.Count >= tied
		})
		tied -= byPrio.Before.Count
	}
	for i, f := range ws.fracs {
		switch {
		case f < byFrac.Value:
			dst[i]++
		case f != byFrac.Value:
		case byPrio.Found:
			if p := priority[i]; p < byPrio.Value {
				dst[i]++
			} else if p == byPrio.Value && tied > 0 {
				dst[i]++
				tied--
			}
		case tied > 0:
			dst[i]++
			tied--
		}
	}
}
