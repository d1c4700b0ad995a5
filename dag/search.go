package dag

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// record is an active job (T_i > 0) as the cut-off search sees it.
type record struct {
	key   float64 // max{T_i, T'_i}: Algorithm 3's order, ascending
	alpha float64 // α_i: descending among equal keys
	v     float64 // Ṽ_i, V_i on the scaled problem (scale.go)
	idx   int     // input index: ascending among equal keys and weights
}

// compareOrder is Algorithm 3's order: max{T, T'} ascending, then α
// descending, then input index ascending. (No NaN reaches it.)
func compareOrder(r, s record) int {
	return cmp.Or(cmp.Compare(r.key, s.key), cmp.Compare(s.alpha, r.alpha), cmp.Compare(r.idx, s.idx))
}

// upTo reports whether r comes no later than s in Algorithm 3's order.
func (r *record) upTo(s *record) bool {
	if r.key != s.key {
		return r.key < s.key
	}
	if r.alpha != s.alpha {
		return r.alpha > s.alpha
	}
	return r.idx <= s.idx
}

// prefix aggregates a set of jobs: how many, ΣV_i and min α_i.
type prefix struct {
	count    int
	sumV     float64
	minAlpha float64 // +Inf for the empty set
}

func emptyPrefix() prefix { return prefix{minAlpha: math.Inf(1)} }

func (p prefix) plus(count int, sumV, minAlpha float64) prefix {
	return prefix{count: p.count + count, sumV: p.sumV + sumV, minAlpha: min(p.minAlpha, minAlpha)}
}

// reaches is the monotone predicate that locates Algorithm 3's case: with
// incl the first m jobs of the order and next the weight α_{m+1} of the
// job after them (hasNext false when there is none),
//
//	S ≤ Σ_{i≤m} V_i / √α_min^(m+1),
//
// evaluated on the scaled problem (scale.go) as S̃ ≤ Σ Ṽ_i/√α_min^(m+1). It
// is the upper end of case 3 with k+1 = m (of case 1 for m = 1); the first
// m at which it holds is the number of jobs that receive slots. It always
// holds after the last job.
func reaches(sc *scale, incl prefix, next float64, hasNext bool) bool {
	if !hasNext {
		return true
	}
	return incl.sumV/math.Sqrt(min(incl.minAlpha, next)) >= sc.slots
}

// cut is the outcome of search: the m-th job of the order, the first at
// whose end reaches holds, and the aggregate of the first m jobs.
type cut struct {
	at   record
	incl prefix
}

// The search orders by one field at a time: the key, then (within a group
// of equal keys) the weight, then (within equal weights) the input index.
const (
	byKey = iota
	byAlpha
)

// fieldKey maps a record's field to a uint64 with the order of that field in
// Algorithm 3's order. key ≥ T > 0 and α > 0 are positive floats, whose
// IEEE bits are ordered like their values.
func fieldKey(r *record, field int) uint64 {
	if field == byKey {
		return math.Float64bits(r.key)
	}
	return ^math.Float64bits(r.alpha) // descending
}

// bucket aggregates the records whose field key falls in one histogram cell.
type bucket struct {
	count    int
	sumV     float64
	minAlpha float64
	lo, hi   uint64  // smallest and largest field key
	first    float64 // α of the bucket's first record: the largest α among those at key lo
}

// smallSort is the size below which sorting the candidates beats another
// histogram level.
const smallSort = 48

// search finds the first m at which reaches holds, without sorting the
// jobs: a radix selection over the key (then the weight, then the index
// order) that aggregates count, ΣV and min α per histogram bucket, walks the
// buckets for the first whose end satisfies reaches, and recurses into that
// bucket alone. The "next" weight at a bucket's end is the first record of
// the next non-empty bucket, which the bucket aggregates keep. O(n): each
// level narrows the field's range by 2^bits.
//
// ws.recs holds the active jobs in index order (at least one), whose keys
// range over [lo, hi]; it is left as it is, and the candidates of each level
// are gathered into ws.cand.
func (ws *Workspace) search(sc *scale, lo, hi uint64) cut {
	cur := ws.recs
	owned := false // cur is ws.cand, which may be reordered
	base := emptyPrefix()
	after, hasAfter := 0.0, false
	field := byKey
	haveRange := true
	for {
		if len(cur) <= smallSort {
			if !owned {
				ws.cand = append(ws.cand[:0], cur...)
				cur = ws.cand
			}
			slices.SortFunc(cur, compareOrder)
			return scan(cur, base, after, hasAfter, sc)
		}
		if !haveRange {
			lo, hi = math.MaxUint64, 0
			for i := range cur {
				k := fieldKey(&cur[i], field)
				lo, hi = min(lo, k), max(hi, k)
			}
			haveRange = true
		}
		if lo == hi {
			if field == byKey {
				field, haveRange = byAlpha, false
				continue
			}
			// Equal keys and weights: the order is the index order, which
			// gathering has kept.
			return scan(cur, base, after, hasAfter, sc)
		}

		levelLo, span := lo, hi-lo
		levelBits := min(max(bits.Len(uint(len(cur)))-4, 4), maxBits)
		shift := uint(max(bits.Len64(span)-levelBits, 0))
		h := ws.histogram(int(span>>shift) + 1)
		for i := range cur {
			r := &cur[i]
			k := fieldKey(r, field)
			b := &h[(k-levelLo)>>shift]
			b.count++
			b.sumV += r.v
			if r.alpha < b.minAlpha { // plain comparisons: no NaN here
				b.minAlpha = r.alpha
			}
			if k < b.lo {
				b.lo, b.first = k, r.alpha
			} else if k == b.lo && r.alpha > b.first {
				b.first = r.alpha
			}
			if k > b.hi {
				b.hi = k
			}
		}

		// Walk the non-empty buckets, testing each one's end once the next
		// non-empty bucket (whose first record is the next job) is known.
		found, prev := -1, -1
		incl, before := base, base
		next, hasNext := after, hasAfter
		for i := range h {
			if h[i].count == 0 {
				continue
			}
			if prev >= 0 && reaches(sc, incl, h[i].first, true) {
				found, next, hasNext = prev, h[i].first, true
				break
			}
			before = incl
			incl = incl.plus(h[i].count, h[i].sumV, h[i].minAlpha)
			prev = i
		}
		if found < 0 {
			// The last bucket: callers only descend into a range at whose
			// end reaches holds.
			found = prev
		}
		b := h[found]
		base = before
		after, hasAfter = next, hasNext
		lo, hi = b.lo, b.hi // the bucket's range in the same field
		if !owned {
			ws.cand = slices.Grow(ws.cand[:0], b.count)
		}
		out := ws.cand[:0] // in place once owned, reading ahead of writing
		for i := range cur {
			if (fieldKey(&cur[i], field)-levelLo)>>shift == uint64(found) {
				out = append(out, cur[i])
			}
		}
		ws.cand = out
		cur, owned = out, true
	}
}

// maxBits is the largest number of bits a histogram level resolves: 1024
// buckets of 48 bytes, 48 KiB, about an L1 data cache.
const maxBits = 10

// histogram returns n zeroed buckets.
func (ws *Workspace) histogram(n int) []bucket {
	ws.hist = slices.Grow(ws.hist[:0], n)[:n]
	for i := range ws.hist {
		ws.hist[i] = bucket{minAlpha: math.Inf(1), lo: math.MaxUint64}
	}
	return ws.hist
}

// scan walks records already in Algorithm 3's order one at a time.
func scan(recs []record, base prefix, after float64, hasAfter bool, sc *scale) cut {
	incl := base
	for i := range recs {
		r := recs[i]
		incl = incl.plus(1, r.v, r.alpha)
		next, hasNext := after, hasAfter
		if i+1 < len(recs) {
			next, hasNext = recs[i+1].alpha, true
		}
		if reaches(sc, incl, next, hasNext) {
			return cut{at: r, incl: incl}
		}
	}
	// Only reached when the bucket sums that chose these records rounded
	// differently from the running sum here: the bucket's end is the cut.
	return cut{at: recs[len(recs)-1], incl: incl}
}
