package stragglers

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// record is a job as the water-filling search sees it.
type record struct {
	key float64 // min(β, 2): the level order, ascending (heaviest tail first)
	w   float64 // T/√(β−1) for β < 2, 0 for β ≥ 2
	v   float64 // the virtual size: (2/β)·T for β < 2, T for β ≥ 2
}

// level aggregates a set of jobs.
type level struct {
	count int
	w, v  float64 // Σw and Σv
}

func (l level) plus(count int, w, v float64) level {
	return level{count: l.count + count, w: l.w + w, v: l.v + v}
}

// slope is a(β) = β²/(4(β−1)), the marginal throughput of eq. 3.3 below the
// virtual size, for a key β < 2; 1 for the key 2 (β ≥ 2: μ = min(S, T)).
// It decreases on (1, 2] from +∞ to 1.
func slope(key float64) float64 {
	if key >= 2 {
		return 1
	}
	return key * key / (4 * (key - 1))
}

// reaches is the monotone predicate that locates the water level: with incl
// the jobs of the groups up to one (every job of them past its virtual
// size) and next the key of the following group, the slots those jobs can
// absorb before the following group's marginal a(next) is reached are
// Σ T_i/√((β_i−1)·a(next)) = Σw/√a(next). The first group at whose end
// S fits is the one the water level stops at. It always holds after the
// last group (the slope after it falls to 0, or the leftover is shared).
func reaches(slots float64, incl level, next float64, hasNext bool) bool {
	return !hasNext || incl.w/math.Sqrt(slope(next)) >= slots
}

// cut is the outcome of search: the group (key) at which the water level
// stops, the aggregate of the groups before it and of the group itself.
type cut struct {
	key           float64
	before, group level
}

type bucket struct {
	count  int
	w, v   float64
	lo, hi uint64
}

// smallSort is the size below which sorting the candidates beats another
// histogram level.
const smallSort = 48

// maxBits is the largest number of bits a histogram level resolves: 1024
// buckets of 40 bytes, about an L1 data cache.
const maxBits = 10

// search finds the first group of equal keys, in increasing order, at whose
// end reaches holds, without sorting: a radix selection on the keys' bits
// that aggregates count, Σw and Σv per histogram bucket and recurses into
// the bucket where the predicate first holds (as internal/selection does
// for a single weight). O(n). ws.recs (at least one record, keys in
// [lo, hi]) is left as it is.
func (ws *Workspace) search(slots float64, lo, hi uint64) cut {
	cur := ws.recs
	owned := false
	var base level
	after, hasAfter := 0.0, false
	for {
		if lo == hi {
			g := level{}
			for i := range cur {
				g = g.plus(1, cur[i].w, cur[i].v)
			}
			return cut{key: math.Float64frombits(lo), before: base, group: g}
		}
		if len(cur) <= smallSort {
			if !owned {
				ws.cand = append(ws.cand[:0], cur...)
				cur = ws.cand
			}
			return scanGroups(cur, base, after, hasAfter, slots)
		}
		levelLo, span := lo, hi-lo
		levelBits := min(max(bits.Len(uint(len(cur)))-4, 4), maxBits)
		shift := uint(max(bits.Len64(span)-levelBits, 0))
		h := ws.histogram(int(span>>shift) + 1)
		for i := range cur {
			r := &cur[i]
			k := math.Float64bits(r.key)
			b := &h[(k-levelLo)>>shift]
			b.count++
			b.w += r.w
			b.v += r.v
			if k < b.lo {
				b.lo = k
			}
			if k > b.hi {
				b.hi = k
			}
		}
		found, prev := -1, -1
		incl, before := base, base
		next, hasNext := after, hasAfter
		for i := range h {
			if h[i].count == 0 {
				continue
			}
			nextKey := math.Float64frombits(h[i].lo)
			if prev >= 0 && reaches(slots, incl, nextKey, true) {
				found, next, hasNext = prev, nextKey, true
				break
			}
			before = incl
			incl = incl.plus(h[i].count, h[i].w, h[i].v)
			prev = i
		}
		if found < 0 {
			found = prev // callers only descend into a range at whose end reaches holds
		}
		b := h[found]
		base, after, hasAfter = before, next, hasNext
		lo, hi = b.lo, b.hi
		if !owned {
			ws.cand = slices.Grow(ws.cand[:0], b.count)
		}
		out := ws.cand[:0] // in place once owned, reading ahead of writing
		for i := range cur {
			if (math.Float64bits(cur[i].key)-levelLo)>>shift == uint64(found) {
				out = append(out, cur[i])
			}
		}
		ws.cand = out
		cur, owned = out, true
	}
}

// histogram returns n zeroed buckets.
func (ws *Workspace) histogram(n int) []bucket {
	ws.hist = slices.Grow(ws.hist[:0], n)[:n]
	for i := range ws.hist {
		ws.hist[i] = bucket{lo: math.MaxUint64}
	}
	return ws.hist
}

// scanGroups sorts recs by key and walks its groups.
func scanGroups(recs []record, base level, after float64, hasAfter bool, slots float64) cut {
	slices.SortFunc(recs, func(a, b record) int { return cmp.Compare(a.key, b.key) })
	incl := base
	for i := 0; i < len(recs); {
		j := i
		g := level{}
		for ; j < len(recs) && recs[j].key == recs[i].key; j++ {
			g = g.plus(1, recs[j].w, recs[j].v)
		}
		next, hasNext := after, hasAfter
		if j < len(recs) {
			next, hasNext = recs[j].key, true
		}
		before := incl
		incl = incl.plus(g.count, g.w, g.v)
		if reaches(slots, incl, next, hasNext) || j == len(recs) {
			// The last group: the bucket that holds these records was
			// chosen because reaches held at its end.
			return cut{key: recs[i].key, before: before, group: g}
		}
		i = j
	}
	return cut{} // unreachable: recs is not empty
}
