package selection

import (
	"math/bits"
	"slices"
)

// Order is an order statistic of a slice: the value of the element of a
// given rank (0-based, in increasing order) and how many elements are
// smaller than it.
type Order struct {
	Value  float64
	Before int
}

// OrderStats returns the order statistics of ranks r1 ≤ r2 of vals (both in
// [0, len(vals))): two cut-offs for the price of about one Search. The
// values must be finite (−0 and +0 are equal) and at most largest; values
// below smallest are allowed — they share the lowest bucket — so a caller
// can give the smallest positive value of data padded with zeros, and the
// first histogram resolves the positive values instead of spending its
// buckets on the gap from 0.
//
// One pass counts the values into up to 2048 buckets of [smallest,
// largest]; a walk of the counts finds the bucket holding each rank; a
// second pass gathers the values of those one or two buckets; and a Search
// within each settles the rank. O(len(vals)).
func OrderStats(ws *Workspace, vals []float64, smallest, largest float64, r1, r2 int) (Order, Order) {
	lo, hi := key(smallest), key(largest)
	n := len(vals)
	span := hi - lo
	levelBits := min(max(bits.Len(uint(n))-4, 4), maxBits)
	shift := uint(max(bits.Len64(span)-levelBits, 0))
	buckets := int(span>>shift) + 1
	ws.counts = slices.Grow(ws.counts[:0], buckets)[:buckets]
	clear(ws.counts)
	counts := ws.counts
	for _, v := range vals {
		counts[(max(key(v), lo)-lo)>>shift]++
	}

	// The buckets of the two ranks, and the values before each.
	b1, b2, before1, before2 := -1, -1, 0, 0
	seen := 0
	for b, c := range counts {
		if b1 < 0 && seen+int(c) > r1 {
			b1, before1 = b, seen
		}
		if seen+int(c) > r2 {
			b2, before2 = b, seen
			break
		}
		seen += int(c)
	}
	// Gather both buckets' values (one buffer each; the same one when the
	// ranks share a bucket).
	g1 := slices.Grow(ws.fracs[:0], int(counts[b1]))
	g2 := slices.Grow(ws.prio[:0], int(counts[b2]))
	for _, v := range vals {
		b := int((max(key(v), lo) - lo) >> shift)
		if b == b1 {
			g1 = append(g1, v)
		} else if b == b2 {
			g2 = append(g2, v)
		}
	}
	ws.fracs, ws.prio = g1, g2
	if b1 == b2 {
		g2 = g1
	}
	return orderIn(ws, g1, before1, r1), orderIn(ws, g2, before2, r2)
}

// orderIn settles rank r among the values of one bucket, preceded by
// before values.
func orderIn(ws *Workspace, group []float64, before, r int) Order {
	cut := Search(ws, group, Count, func(incl Stats, _ float64, _ bool) bool {
		return before+incl.Count > r
	})
	return Order{Value: cut.Value, Before: before + cut.Before.Count}
}
