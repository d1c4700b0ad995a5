// Package selection finds cut-offs in the sorted order of a slice of values
// without sorting it: the smallest group of equal values at which a monotone
// predicate on the prefix first holds. Hopper's Algorithm 1 needs the one job
// at which the smallest-first fill runs out of slots, Algorithm 2 needs the
// last job held at its fairness floor, and largest-remainder apportionment
// needs the R-th largest remainder; each is such a cut-off.
//
// The search is a radix selection on the bits of the values: a histogram of
// counts, weight sums and value ranges over up to 2048 buckets of the value
// range, a scan of the buckets for the one in which the predicate first
// holds, and a recursion into that bucket alone. Each level narrows the
// range by 2^(bits per level), so the cost is O(n) with at most ⌈64/4⌉
// levels, and in practice one or two passes over the data. Values are never
// reordered: the caller makes a final pass in index order and settles the
// group at the cut-off by index, which is the tie-break every algorithm in
// the library documents.
package selection

import (
	"math"
	"math/bits"
	"slices"
)

// Workspace holds scratch memory for searches and apportionment. The zero
// value is ready; buffers grow to the largest input seen. It is exposed to
// users as alloc.Workspace, an opaque type: it has no exported fields or
// methods, and its operations are functions of this internal package, so
// that code outside the module can neither call them with input the
// exported functions have not validated nor hand its scratch back as an
// input.
type Workspace struct {
	shares  []float64 // Shares: the real-valued shares of the integer forms
	keys    []float64 // values of the bucket being refined, or of a small input
	counts  []int     // NewHistogram: the counts
	indices []int32   // job indices, for callers (Indices)
	fracs   []float64 // apportionment: minus the fractional parts
	prio    []float64 // apportionment: priorities of the tied remainders
	hist    []bucket
}

type bucket struct {
	count  int
	sum    float64
	lo, hi uint64 // smallest and largest key in the bucket
}

// Stats aggregates a set of values: how many, and their total weight.
type Stats struct {
	Count int
	Sum   float64
}

func (s Stats) add(count int, sum float64) Stats {
	return Stats{Count: s.Count + count, Sum: s.Sum + sum}
}

// Weight maps a value v to the weight max(0, A·v + B) that Stats sums.
// It is evaluated in float64: where A·v overflows, the weight is +Inf (or
// 0 under the clamp) whatever B — callers keep A·v + B finite (fairness's
// top-ups c·T − f) or want that saturation (alloc's virtual sizes past
// MaxFloat64). A sum of weights past MaxFloat64 is +Inf, never NaN.
type Weight struct{ A, B float64 }

func (w Weight) of(v float64) float64 {
	// max(0, x) by clearing every bit of a negative x: no branch to
	// mispredict when the sign varies from value to value.
	bits := math.Float64bits(w.A*v + w.B)
	return math.Float64frombits(bits &^ uint64(int64(bits)>>63))
}

// linear reports whether max(0, A·v + B) = A·v + B for every v ≥ least.
func (w Weight) linear(least float64) bool {
	return w.A >= 0 && w.A*least+w.B >= 0
}

// Count weighs every value 1, so that Stats.Sum equals Stats.Count.
var Count = Weight{A: 0, B: 1}

// Done is a predicate on the prefix of the sorted order that ends with a
// group of equal values: incl aggregates every value ≤ the group's value,
// next is the smallest value greater than it, and hasNext is false when the
// group is the last. It must be monotone: once true for a group, true for
// every later group, the last one included.
type Done func(incl Stats, next float64, hasNext bool) bool

// Cut is the outcome of a search.
type Cut struct {
	Value  float64 // the value of the first group at whose end Done holds
	Before Stats   // aggregate of the values < Value
	Group  Stats   // aggregate of the values == Value
	Found  bool    // false if Done holds for no group; Before then aggregates all values
}

// Search returns the first group of equal values, in increasing order, at
// whose end done holds. The values must be finite; -0 and +0 are equal.
// It does not modify vals. O(len(vals)).
func Search(ws *Workspace, vals []float64, w Weight, done Done) Cut {
	if len(vals) == 0 {
		return Cut{}
	}
	// Integer min/max of the order-preserving keys: the float builtins
	// would pay for NaN and ±0 handling on every value.
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for _, v := range vals {
		k := key(v)
		lo = min(lo, k)
		hi = max(hi, k)
	}
	return SearchRange(ws, vals, value(lo), value(hi), w, done)
}

// SearchRange is Search for a caller that already knows the smallest and
// largest of vals (a validation pass can find them at no extra cost); it
// saves Search's first pass.
func SearchRange(ws *Workspace, vals []float64, smallest, largest float64, w Weight, done Done) Cut {
	if len(vals) == 0 {
		return Cut{}
	}
	lo, hi := key(smallest), key(largest)
	var (
		base     Stats
		cur      = vals
		owned    = false // cur is ws.keys, which may be reordered
		after    float64
		hasAfter bool
	)
	for {
		if lo == hi {
			g := Stats{Count: len(cur)}
			for _, v := range cur {
				g.Sum += w.of(v)
			}
			incl := base.add(g.Count, g.Sum)
			if done(incl, after, hasAfter) {
				return Cut{Value: value(lo), Before: base, Group: g, Found: true}
			}
			return Cut{Before: incl}
		}
		if len(cur) <= SmallSort {
			if !owned {
				ws.keys = append(ws.keys[:0], cur...)
				cur = ws.keys
			}
			return scanSorted(cur, base, after, hasAfter, w, done)
		}

		span := hi - lo
		levelBits := min(max(bits.Len(uint(len(cur)))-4, 4), maxBits)
		shift := uint(max(bits.Len64(span)-levelBits, 0))
		h := ws.histogram(int(span>>shift) + 1)
		if least := value(lo); least > 0 && w.linear(least) {
			// Every value is positive (so none is -0) and the weight is
			// A·v + B ≥ 0 over the whole range: the key is the bits with
			// the sign bit set, and the values are summed and weighed per
			// bucket. (The common case: Hopper's remaining task counts.)
			for _, v := range cur {
				k := math.Float64bits(v) | 1<<63
				b := &h[(k-lo)>>shift]
				b.count++
				b.sum += v
				b.lo = min(b.lo, k)
				b.hi = max(b.hi, k)
			}
			w.perBucket(h, cur, lo, shift)
		} else if w.A == 0 && w.B >= 0 {
			// A constant weight (Count): no sum per value — its add through
			// the bucket is the loop's longest dependency when values
			// crowd into a few buckets.
			for _, v := range cur {
				k := key(v)
				b := &h[(k-lo)>>shift]
				b.count++
				b.lo = min(b.lo, k)
				b.hi = max(b.hi, k)
			}
			for i := range h {
				h[i].sum = w.B * float64(h[i].count)
			}
		} else if w.linear(value(lo)) {
			// The weight is A·v + B ≥ 0 over the whole range: sum the
			// values and apply it per bucket.
			for _, v := range cur {
				k := key(v)
				b := &h[(k-lo)>>shift]
				b.count++
				b.sum += v
				b.lo = min(b.lo, k)
				b.hi = max(b.hi, k)
			}
			w.perBucket(h, cur, lo, shift)
		} else {
			for _, v := range cur {
				k := key(v)
				b := &h[(k-lo)>>shift]
				b.count++
				b.sum += w.of(v)
				b.lo = min(b.lo, k)
				b.hi = max(b.hi, k)
			}
		}

		// Walk the non-empty buckets, testing each one's end once the
		// next non-empty bucket (which gives the next value) is known.
		found, prev := -1, -1
		incl, before := base, base // prefixes through the current and the previous bucket
		for i := range h {
			if h[i].count == 0 {
				continue
			}
			if prev >= 0 {
				if done(incl, value(h[i].lo), true) {
					found = prev
					break
				}
			}
			before = incl
			incl = incl.add(h[i].count, h[i].sum)
			prev = i
		}
		next, hasNext := after, hasAfter
		if found < 0 {
			if !done(incl, after, hasAfter) {
				return Cut{Before: incl}
			}
			found = prev
		} else {
			next, hasNext = value(h[firstAfter(h, found)].lo), true
		}
		b := h[found]
		base = before
		if b.lo == b.hi {
			return Cut{Value: value(b.lo), Before: base, Group: Stats{b.count, b.sum}, Found: true}
		}
		// Recurse into the bucket: gather its values (in place when cur is
		// already the scratch buffer; reading ahead of writing).
		if !owned {
			ws.keys = slices.Grow(ws.keys[:0], b.count)
		}
		out := ws.keys[:0]
		for _, v := range cur {
			if (key(v)-lo)>>shift == uint64(found) {
				out = append(out, v)
			}
		}
		ws.keys = out
		cur, owned = out, true
		lo, hi = b.lo, b.hi
		after, hasAfter = next, hasNext
	}
}

// perBucket turns the value sums of the buckets h of cur (a level of
// SearchRange, buckets of 2^shift keys from lo) into weight sums, A·Σv +
// B·count each, for a weight linear over cur. Should a sum of values
// overflow (values near MaxFloat64, whose weights A·v + B may still sum to
// a finite total), or A·Σv, or 0·∞ give NaN (Count on such values), the
// weights are summed value by value instead, as the other paths do: a
// second pass, only then.
func (w Weight) perBucket(h []bucket, cur []float64, lo uint64, shift uint) {
	finite := true
	for i := range h {
		s := w.A*h[i].sum + w.B*float64(h[i].count)
		h[i].sum = s
		finite = finite && math.Abs(s) <= math.MaxFloat64 // false for ±Inf and NaN
	}
	if finite {
		return
	}
	for i := range h {
		h[i].sum = 0
	}
	for _, v := range cur {
		h[(key(v)-lo)>>shift].sum += w.of(v)
	}
}

// maxBits is the largest number of bits a histogram level resolves (2048
// buckets of 32 bytes: 64 KiB, about an L2 cache's worth on the dev machine).
const maxBits = 11

func firstAfter(h []bucket, i int) int {
	for j := i + 1; j < len(h); j++ {
		if h[j].count != 0 {
			return j
		}
	}
	return len(h) // unreachable: callers know a later bucket exists
}

// Shares returns a scratch slice of n float64s for the real-valued shares
// that the integer forms of the allocation algorithms compute before
// apportioning them, valid until the next call to Shares on ws. Its
// contents are unspecified.
func Shares(ws *Workspace, n int) []float64 {
	ws.shares = slices.Grow(ws.shares[:0], n)[:n]
	return ws.shares
}

// Indices returns a scratch slice of n job indices, valid until the next
// call that uses the workspace.
func Indices(ws *Workspace, n int) []int32 {
	ws.indices = slices.Grow(ws.indices[:0], n)[:n]
	return ws.indices
}

// histogram returns n zeroed buckets.
func (ws *Workspace) histogram(n int) []bucket {
	ws.hist = slices.Grow(ws.hist[:0], n)[:n]
	for i := range ws.hist {
		ws.hist[i] = bucket{lo: math.MaxUint64}
	}
	return ws.hist
}

// scanSorted sorts keys in place and scans its groups.
func scanSorted(keys []float64, base Stats, after float64, hasAfter bool, w Weight, done Done) Cut {
	slices.Sort(keys)
	incl := base
	for i := 0; i < len(keys); {
		j := i
		g := Stats{}
		for ; j < len(keys) && keys[j] == keys[i]; j++ {
			g.Count++
			g.Sum += w.of(keys[j])
		}
		next, hasNext := after, hasAfter
		if j < len(keys) {
			next, hasNext = keys[j], true
		}
		before := incl
		incl = incl.add(g.Count, g.Sum)
		if done(incl, next, hasNext) {
			return Cut{Value: keys[i] + 0, Before: before, Group: g, Found: true}
		}
		i = j
	}
	return Cut{Before: incl}
}

// key maps a finite float64 to a uint64 with the same order (-0 == +0).
// Negative values have all their bits flipped, the others only the sign
// bit — with a mask rather than a branch, since the sign of a run of values
// (say, remainders and zeros) need not follow a pattern.
func key(v float64) uint64 {
	b := math.Float64bits(v + 0) // -0 + 0 == +0
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// value inverts key.
func value(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}
