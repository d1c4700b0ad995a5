// Package selection finds cut-offs in the sorted order of a slice of values
// without sorting it: the smallest group of equal values at which a monotone
// predicate on the prefix first holds. Hopper's Algorithm 1 needs the one job
// at which the smallest-first fill runs out of slots, Algorithm 2 needs the
// last job held at its fairness floor, and largest-remainder apportionment
// needs the R-th largest remainder; each is such a cut-off. For the
// speculation baselines' order statistics over arbitrary keys (a
// percentile of progress rates, a median, the k most urgent tasks) it has
// NthElement, a comparison-based quickselect.
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
//
// The search is one engine (engine.go): Select runs it over records of any
// type, in any order given by up to a few key fields, keeping any running
// totals, with a caller's stopping rule. Search is Select over float64
// values with a count and one weight; dag's Algorithm 3 (jobs by max{T, T'},
// then α, with ΣV and min α) and stragglers' water-fill (jobs by β, with
// ΣT/√(β−1) and ΣV) are its other callers. Each keeps only its order, its
// totals and its stopping rule; the histogram levels, the walk, the
// recursion and the final sort-and-scan are the engine's. Each states its
// histogram's shape (Shape.LevelBits), on which its rounding depends.
//
// The package also holds the branch-free building blocks of the algorithm
// packages' hot loops (branchfree.go: Indicator, AppendIfBoth and
// AppendIfAll, Span, Smallest), so that their own files read like the
// papers; internal/check holds the validating ones (Tally, CopyTally).
package selection

import (
	"math"
	"slices"
)

// Workspace holds scratch memory for searches and apportionment. The zero
// value is ready; buffers grow to the largest input seen. Users never see
// it: each package's Workspace (alloc.Workspace, fairness.Workspace, …) is
// an opaque struct holding one in an unexported field, and its operations
// are functions of this internal package, so that code outside the module
// can neither call them with input the exported functions have not
// validated nor hand its scratch back as an input.
type Workspace struct {
	shares  []float64        // Shares: the real-valued shares of the integer forms
	scratch Scratch[float64] // Search: the values of the bucket being refined, or of a small input
	hist    []Bucket[Stats]  // and its histogram
	counts  []int            // NewHistogram: the counts
	indices []int32          // job indices, for callers (Indices)
	fracs   []float64        // apportionment: minus the fractional parts
	prio    []float64        // apportionment: priorities of the tied remainders
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
// saves Search's first pass. It is Select over the values, weighed by w.
func SearchRange(ws *Workspace, vals []float64, smallest, largest float64, w Weight, done Done) Cut {
	if len(vals) == 0 {
		return Cut{}
	}
	c := Select(byValue{w}, Stop[Stats](done), valueShape, vals, key(smallest), key(largest), &ws.scratch, &ws.hist)
	if !c.Found {
		return Cut{Before: c.Before}
	}
	return Cut{Value: value(c.Key), Before: c.Before, Group: c.Group, Found: true}
}

// valueShape is Search's: one key field, groups of equal values, and
// levels of up to 2^11 buckets (32 bytes each: 64 KiB), the levels Search
// has always had.
var valueShape = Shape{Fields: 1, LevelBits: 11}

// byValue is Search as a Rule: float64 values in increasing order, grouped
// by value, with their count and the sum of their weights.
type byValue struct{ w Weight }

// Fill sums the weights per bucket by the cheapest of four loops the
// weight and the level's least value allow.
func (s byValue) Fill(l Level[Stats], h []Bucket[Stats], vals []float64, _ int) {
	w := s.w
	if least := value(l.lo); least > 0 && w.linear(least) {
		// Every value is positive (so none is -0) and the weight is
		// A·v + B ≥ 0 over the whole range: the key is the bits with the
		// sign bit set, and the values are summed and weighed per bucket.
		// (The common case: Hopper's remaining task counts.)
		for _, v := range vals {
			b := l.Put(h, math.Float64bits(v)|1<<63)
			b.Sum.Count++
			b.Sum.Sum += v
		}
		w.perBucket(l, h, vals)
	} else if w.A == 0 && w.B >= 0 {
		// A constant weight (Count): no sum per value — its add through
		// the bucket is the loop's longest dependency when values crowd
		// into a few buckets.
		for _, v := range vals {
			l.Put(h, key(v)).Sum.Count++
		}
		for i := range h {
			h[i].Sum.Sum = w.B * float64(h[i].Sum.Count)
		}
	} else if w.linear(least) {
		// The weight is A·v + B ≥ 0 over the whole range: sum the values
		// and apply it per bucket.
		for _, v := range vals {
			b := l.Put(h, key(v))
			b.Sum.Count++
			b.Sum.Sum += v
		}
		w.perBucket(l, h, vals)
	} else {
		for _, v := range vals {
			b := l.Put(h, key(v))
			b.Sum.Count++
			b.Sum.Sum += w.of(v)
		}
	}
}

func (byValue) Gather(dst, vals []float64, l Level[Stats], bucket, _ int) int {
	n := 0
	for _, v := range vals {
		if l.Index(key(v)) == bucket {
			dst[n] = v
			n++
		}
	}
	return n
}

func (byValue) Sort(vals []float64) { slices.Sort(vals) }

func (byValue) Key(v *float64) uint64 { return key(*v) }

func (s byValue) Sum(vals []float64) Stats {
	g := Stats{Count: len(vals)}
	for _, v := range vals {
		g.Sum += s.w.of(v)
	}
	return g
}

func (byValue) Plus(a, b Stats) Stats { return a.add(b.Count, b.Sum) }

func (byValue) Step(incl Stats, b *Bucket[Stats]) (Stats, float64) {
	return incl.add(b.Sum.Count, b.Sum.Sum), value(b.Lo)
}

func (byValue) NextOf(v *float64) float64 { return *v }

// perBucket turns the value sums of the buckets h of vals (a level l of
// Select) into weight sums, A·Σv +
// B·count each, for a weight linear over vals. Should a sum of values
// overflow (values near MaxFloat64, whose weights A·v + B may still sum to
// a finite total), or A·Σv, or 0·∞ give NaN (Count on such values), the
// weights are summed value by value instead, as the other paths do: a
// second pass, only then.
func (w Weight) perBucket(l Level[Stats], h []Bucket[Stats], vals []float64) {
	finite := true
	for i := range h {
		s := w.A*h[i].Sum.Sum + w.B*float64(h[i].Sum.Count)
		h[i].Sum.Sum = s
		finite = finite && math.Abs(s) <= math.MaxFloat64 // false for ±Inf and NaN
	}
	if finite {
		return
	}
	for i := range h {
		h[i].Sum.Sum = 0
	}
	for _, v := range vals {
		h[l.Index(key(v))].Sum.Sum += w.of(v)
	}
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
