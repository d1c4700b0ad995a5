package selection

import (
	"math"
	"math/bits"
	"slices"
)

// Order is an order statistic of a slice: the value of the element of a
// given rank (0-based, in increasing order) and how many elements are
// smaller than it.
//
// A caller finds order statistics in three steps, the middle one fused
// into a pass of its own over the values: NewHistogram counts the values
// into buckets and Locate finds the bucket holding each rank; the caller's
// pass gathers the values of those buckets (deciding every other value by
// its bucket alone); Settle finds the rank within a bucket's values. Two
// ranks cost one histogram. Values below the histogram's smallest are
// allowed — they share the lowest bucket — so a caller can give the
// smallest positive value of data padded with zeros, and the histogram
// resolves the positive values instead of spending its buckets on the gap
// from 0.
type Order struct {
	Value  float64
	Before int
}

// Histogram is the first level of a radix selection: the counts of a
// slice's values in up to 2048 buckets of [smallest, largest], values
// below smallest counted in the first. Its counts live in the Workspace
// until the next NewHistogram.
type Histogram struct {
	lo     uint64 // key of smallest
	shift  uint   // a bucket spans 2^shift keys
	counts []int
}

// countBits is the most bits a Histogram resolves: 2048 buckets, as many
// as a level of Search.
const countBits = 11

// NewHistogram counts vals (finite, at most largest) into buckets of
// [smallest, largest]. O(len(vals)).
func NewHistogram(ws *Workspace, vals []float64, smallest, largest float64) Histogram {
	lo, hi := key(smallest), key(largest)
	span := hi - lo
	levelBits := min(max(bits.Len(uint(len(vals)))-4, 4), countBits)
	shift := uint(max(bits.Len64(span)-levelBits, 0))
	buckets := int(span>>shift) + 1
	ws.counts = slices.Grow(ws.counts[:0], buckets)[:buckets]
	clear(ws.counts)
	h := Histogram{lo: lo, shift: shift, counts: ws.counts}
	for _, v := range vals {
		h.counts[h.Bucket(v)]++
	}
	return h
}

// Bucket returns the bucket of a value ≤ the histogram's largest. Buckets
// are in increasing order of value.
func (h *Histogram) Bucket(v float64) int {
	return int((max(key(v), h.lo) - h.lo) >> (h.shift & 63)) // < 64: no check
}

// BucketNonNegative is Bucket for a value ≥ 0 (+0 or −0), in fewer
// instructions: such a value's key is its bits with the sign bit set.
func (h *Histogram) BucketNonNegative(v float64) int {
	return int((max(math.Float64bits(v)|1<<63, h.lo) - h.lo) >> (h.shift & 63))
}

// Locate returns the bucket holding the value of rank r (0 ≤ r < the
// number of values counted) and how many values lie in earlier buckets.
func (h *Histogram) Locate(r int) (bucket, before int) {
	last := len(h.counts) - 1
	for b, c := range h.counts[:last] {
		if before+c > r {
			return b, before
		}
		before += c
	}
	return last, before // the rank is in the last bucket
}

// Settle returns the order statistic of rank r given group, the values of
// the bucket that holds it (in any order), and before, the number of
// values in earlier buckets. O(len(group)).
func Settle(ws *Workspace, group []float64, before, r int) Order {
	cut := Search(ws, group, Count, func(incl Stats, _ float64, _ bool) bool {
		return before+incl.Count > r
	})
	return Order{Value: cut.Value, Before: before + cut.Before.Count}
}
