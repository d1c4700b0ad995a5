package selection

import (
	"math"
	"math/bits"
	"slices"
)

// The engine: one radix selection for every cut-off search of the library.
// Hopper's Algorithm 1 (alloc), Algorithm 2 (fairness), the K-class
// water-fill (stragglers) and Algorithm 3 (dag) each look for the first
// group of their order at whose end a monotone predicate holds; they differ
// only in their records, the running totals they keep (a count and one
// weight; ΣT/√(β−1) and ΣV; ΣV and min α) and their stopping rule. A
// Rule supplies those; Select does the rest: histogram levels, the walk of
// the buckets, the recursion into one bucket, the sort-and-scan of a few
// records, and the memory they use.

// Rule is what Select asks of a caller: its records R, in what order, and
// the running totals A it keeps over a prefix of that order. Select calls
// its methods once per histogram level, bucket or group of a scan — never
// once per record of a level, whose two loops are Fill's and Gather's — so
// that a call through the type parameter's method set, which is not
// inlined, costs nothing in the hot loops; those are the caller's concrete
// code, with l.Put and l.Index inlined into them.
type Rule[R, A any] interface {
	// Fill adds every record of recs, by its key k in field f, to its
	// bucket l.Put(h, k) and to that bucket's totals. (A Fill that must
	// see the bucket's range before k widens it takes l.Find(h, k) and
	// widens Lo and Hi itself.)
	Fill(l Level[A], h []Bucket[A], recs []R, f int)
	// Gather copies to the front of dst, in their order, the records of
	// recs whose key in field f lies in the given bucket (l.Index(k) ==
	// bucket), and returns how many there are. len(dst) == len(recs), and
	// dst may be recs itself: the copy never overtakes the read.
	Gather(dst, recs []R, l Level[A], bucket, f int) int
	// Sort sorts a few records (at most SmallSort) into the order.
	Sort(recs []R)
	// Key is r's key in the last field: records of equal key form a group
	// (unused by a Distinct order).
	Key(r *R) uint64
	// Sum is the totals of recs, added in their order; Sum(nil) is the
	// totals of no record.
	Sum(recs []R) A
	// Plus is the totals of a's records followed by b's.
	Plus(a, b A) A
	// Step is the walk's one call per bucket: Plus(incl, b.Sum), and the
	// look-ahead the predicate receives for the group that starts the
	// bucket (from its totals or its least key, b.Lo). NextOf is the
	// look-ahead for the group that starts at r.
	Step(incl A, b *Bucket[A]) (A, float64)
	NextOf(r *R) float64
}

// Stop is the stopping rule of a search: with incl the totals of a prefix
// of the order that ends with a group, next the look-ahead of the group
// after it, and hasNext false when there is none. It must be monotone:
// once true, true for every longer prefix. It is a function value, not a
// method of the Rule, so that a closure over the caller's variables stays
// on the caller's stack (a call through a type parameter's method would
// make them escape).
type Stop[A any] func(incl A, next float64, hasNext bool) bool

// Shape is what Select must know of an order besides its methods.
type Shape struct {
	// Fields is the number of key fields (at least 1), compared in turn:
	// Select switches to field f+1 within a range where field f is one
	// value.
	Fields int
	// Distinct: no two records are equal in the order (its last tie-break
	// is the records' position, which Select keeps), so every group is one
	// record.
	Distinct bool
	// Sure: stop holds after the last record, and at the end of every
	// bucket Select chose. Select then never reports "not found": where
	// the running totals of a finer level round below the bucket's, it
	// settles on the bucket's last group.
	Sure bool
	// LevelBits (at least 1) is the most bits of the key one histogram
	// level resolves: a level has at most 2^LevelBits buckets (fewer for
	// a few records: about one per 16). It decides which records are summed
	// together in a bucket, and so the rounding of every total: a caller
	// states it, and its results depend on it bit for bit, never on the
	// size of its totals. 11 (2048 buckets of 32 bytes) or 10 keep a
	// level within 64 KiB, about an L2 cache.
	LevelBits int
}

// Bucket aggregates the records of one histogram cell. A bucket is empty
// when Lo > Hi.
type Bucket[A any] struct {
	Lo, Hi uint64 // the least and the greatest key of its records
	Sum    A      // their totals, in the order Fill visits them
}

// Level is the geometry of one pass of the radix selection: buckets of
// 2^shift keys from lo. Two words, so that a Fill loop keeps it in
// registers.
type Level[A any] struct {
	lo    uint64
	shift uint // < 64
}

// Index is the bucket of key k (a key of the level's range). The mask
// spares the shift its check.
func (l Level[A]) Index(k uint64) int { return int((k - l.lo) >> (l.shift & 63)) }

// Find returns the bucket of h that holds key k.
func (l Level[A]) Find(h []Bucket[A], k uint64) *Bucket[A] { return &h[(k-l.lo)>>(l.shift&63)] }

// Put returns the bucket of h that holds key k, its range widened to k,
// for the caller to add the record to its totals (Find and the widening
// in one inlined call in the caller's loop).
func (l Level[A]) Put(h []Bucket[A], k uint64) *Bucket[A] {
	b := &h[(k-l.lo)>>(l.shift&63)]
	b.Lo = min(b.Lo, k)
	b.Hi = max(b.Hi, k)
	return b
}

// Scratch is the memory of Select, kept in the caller's workspace so that
// steady-state searches allocate nothing. The zero value is ready.
type Scratch[R any] struct {
	cand []R // the candidates of the current level, once gathered
}

// Outcome is the cut Select finds.
type Outcome[R, A any] struct {
	At     R      // the group's first record, when a scan settled it (always, for a Distinct order)
	Key    uint64 // the group's key in the last field (not for a Distinct order)
	Before A      // the totals of the records before the group
	Group  A      // the totals of the group
	Found  bool   // false if stop holds for no group: Before then totals every record
}

// SmallSort is the most candidates Select sorts and scans rather than
// histogram again: below it, sorting beats another level.
const SmallSort = 48

// Select returns the first group of o's order at whose end stop holds,
// without sorting: a radix selection on the keys' bits that keeps o's
// totals per bucket of up to 2^shape.LevelBits buckets, walks the buckets
// for the first at whose end stop holds, and recurses into that bucket
// alone, switching to the next key field where one field is a single
// value. Each level narrows the range by 2^(bits per level), so the cost
// is O(len(recs)), in practice one or two passes. The keys of
// recs in field 0 lie in [lo, hi]; recs is not modified, and the
// candidates of each level are gathered into s in recs' order (the final
// tie-break of every order in the library). hist, the caller's, holds
// the buckets and keeps those of the last level.
func Select[R, A any, O Rule[R, A]](o O, stop Stop[A], shape Shape, recs []R, lo, hi uint64, s *Scratch[R], hist *[]Bucket[A]) Outcome[R, A] {
	if len(recs) == 0 {
		return Outcome[R, A]{Before: o.Sum(nil)}
	}
	var (
		cur      = recs
		owned    = false // cur is s.cand, which may be reordered
		empty    = o.Sum(nil)
		base     = empty
		after    float64 // the look-ahead past the current range
		hasAfter bool
		field    = 0
		last     = shape.Fields - 1
	)
	for {
		if lo == hi && field < last {
			// One value in this field: order by the next one.
			// Its range: two buckets, split at the top bit.
			field++
			l, h := newLevel(hist, 0, 63, 2, empty)
			o.Fill(l, h, cur, field)
			lo, hi = min(h[0].Lo, h[1].Lo), max(h[0].Hi, h[1].Hi)
			continue
		}
		if lo == hi {
			// Equal keys: one group, or, for a Distinct order, records in
			// their order of position.
			if shape.Distinct {
				return Scan(o, stop, shape, cur, base, after, hasAfter)
			}
			g := o.Sum(cur)
			incl := o.Plus(base, g)
			if shape.Sure || stop(incl, after, hasAfter) {
				return Outcome[R, A]{Key: lo, Before: base, Group: g, Found: true}
			}
			return Outcome[R, A]{Before: incl}
		}
		if len(cur) <= SmallSort {
			if !owned {
				s.cand = append(s.cand[:0], cur...)
				cur = s.cand
			}
			o.Sort(cur)
			return Scan(o, stop, shape, cur, base, after, hasAfter)
		}

		span := hi - lo
		levelBits := min(max(bits.Len(uint(len(cur)))-4, 4), shape.LevelBits)
		shift := uint(max(bits.Len64(span)-levelBits, 0))
		l, h := newLevel(hist, lo, shift, int(span>>shift)+1, empty)
		o.Fill(l, h, cur, field)

		// Walk the non-empty buckets, testing each one's end once the next
		// non-empty bucket (whose first group gives the look-ahead) is
		// known.
		found, prev := -1, -1
		incl, before := base, base // through the current and the previous bucket
		next, hasNext := after, hasAfter
		for i := range h {
			b := &h[i]
			if b.Lo > b.Hi {
				continue
			}
			through, ahead := o.Step(incl, b)
			if prev >= 0 && stop(incl, ahead, true) {
				found, next, hasNext = prev, ahead, true
				break
			}
			before, incl, prev = incl, through, i
		}
		if found < 0 {
			if !shape.Sure && !stop(incl, after, hasAfter) {
				return Outcome[R, A]{Before: incl}
			}
			found = prev
		}
		b := &h[found]
		base, after, hasAfter = before, next, hasNext
		// stop held at this bucket's end, by the totals of this level: the
		// cut lies in it, whatever the finer levels' sums, which add the
		// same records in another grouping and may round below the
		// threshold (Σ of 4/3·T reaching exactly 80 in a bucket of this
		// level, 80 − ulp by the next). Deeper down the search is Sure.
		shape.Sure = true
		if b.Lo == b.Hi && field == last && !shape.Distinct {
			return Outcome[R, A]{Key: b.Lo, Before: base, Group: b.Sum, Found: true}
		}
		// Recurse into the bucket: gather its records (in place once cur
		// is the scratch, reading ahead of writing).
		lo, hi = b.Lo, b.Hi
		if !owned {
			s.cand = slices.Grow(s.cand[:0], len(cur))
		}
		s.cand = s.cand[:o.Gather(s.cand[:len(cur)], cur, l, found, field)]
		cur, owned = s.cand, true
	}
}

// newLevel returns a level of n buckets of 2^shift keys from lo, each
// empty with the totals of no record; its buckets are *hist's memory.
func newLevel[A any](hist *[]Bucket[A], lo uint64, shift uint, n int, empty A) (Level[A], []Bucket[A]) {
	h := slices.Grow((*hist)[:0], n)[:n]
	for i := range h {
		// Field by field: a composite literal is built on the stack and
		// copied in 16-byte moves, whose loads stall on its 8-byte stores.
		b := &h[i]
		b.Lo, b.Hi, b.Sum = math.MaxUint64, 0, empty
	}
	*hist = h
	return Level[A]{lo: lo, shift: shift}, h
}

// Scan walks records already in the order, a group at a time — the records
// of equal Key, or each record of a Distinct order — after base, the
// totals of the records before them, with after and hasAfter the
// look-ahead past them. It is Select's last step; it is exported for the
// tests of its callers.
func Scan[R, A any, O Rule[R, A]](o O, stop Stop[A], shape Shape, recs []R, base A, after float64, hasAfter bool) Outcome[R, A] {
	incl := base
	for i := 0; i < len(recs); {
		j := i + 1
		var k uint64
		if !shape.Distinct {
			k = o.Key(&recs[i])
			for j < len(recs) && o.Key(&recs[j]) == k {
				j++
			}
		}
		g := o.Sum(recs[i:j])
		next, hasNext := after, hasAfter
		if j < len(recs) {
			next, hasNext = o.NextOf(&recs[j]), true
		}
		before := incl
		incl = o.Plus(incl, g)
		if stop(incl, next, hasNext) || (shape.Sure && j == len(recs)) {
			return Outcome[R, A]{At: recs[i], Key: k, Before: before, Group: g, Found: true}
		}
		i = j
	}
	return Outcome[R, A]{Before: incl}
}
