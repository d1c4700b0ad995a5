package waterfill

import (
	"cmp"
	"math"
	"slices"

	"github.com/specsched/specsched/internal/selection"
)

// record is a job as the water-filling search sees it.
type record struct {
	key float64 // min(β, 2): the level order, ascending (heaviest tail first)
	w   float64 // T/√(β−1) for β < 2, 0 for β ≥ 2
	v   float64 // the virtual size: (2/β)·T for β < 2, T for β ≥ 2
}

// level aggregates a set of jobs.
type level struct {
	w, v float64 // Σw and Σv
}

func (l level) plus(w, v float64) level {
	return level{w: l.w + w, v: l.v + v}
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

// search finds the first group of equal keys, in increasing order, at whose
// end reaches holds, without sorting (selection.Select). O(n). ws.recs (at
// least one record, keys in [least, most]) is left as it is.
func (ws *Workspace) search(slots, least, most float64) cut {
	c := selection.Select(waterLevel{}, func(incl level, next float64, hasNext bool) bool {
		return reaches(slots, incl, next, hasNext)
	}, searchShape, ws.recs, orderKey(least), orderKey(most), &ws.scratch, &ws.hist)
	return cut{key: math.Float64frombits(c.Key), before: c.Before, group: c.Group}
}

// orderKey is the search's key for a record's key β ∈ (1, 2]: its IEEE
// bits, which order positive floats as the floats themselves.
func orderKey(key float64) uint64 { return math.Float64bits(key) }

// searchShape: one key field (β), groups of equal β, reaches true at the
// end, and levels of up to 2^10 buckets, the levels the water-fill's
// search has always had — they group its sums, and so round its shares.
var searchShape = selection.Shape{Fields: 1, Sure: true, LevelBits: 10}

// waterLevel is the water-fill's order and totals as a selection.Rule: the
// jobs in the level order (β ascending, grouped by β, by orderKey), the
// running Σw and Σv.
type waterLevel struct{}

func (waterLevel) Fill(l selection.Level[level], h []selection.Bucket[level], recs []record, _ int) {
	for i := range recs {
		r := &recs[i]
		b := l.Put(h, orderKey(r.key))
		b.Sum = b.Sum.plus(r.w, r.v)
	}
}

func (waterLevel) Gather(dst, recs []record, l selection.Level[level], bucket, _ int) int {
	n := 0
	for i := range recs {
		if l.Index(orderKey(recs[i].key)) == bucket {
			dst[n] = recs[i]
			n++
		}
	}
	return n
}

func (waterLevel) Sort(recs []record) {
	slices.SortFunc(recs, func(a, b record) int { return cmp.Compare(a.key, b.key) })
}

func (waterLevel) Key(r *record) uint64 { return orderKey(r.key) }

func (waterLevel) Sum(recs []record) level {
	var g level
	for i := range recs {
		g = g.plus(recs[i].w, recs[i].v)
	}
	return g
}

func (waterLevel) Plus(a, b level) level { return a.plus(b.w, b.v) }

func (waterLevel) Step(incl level, b *selection.Bucket[level]) (level, float64) {
	return incl.plus(b.Sum.w, b.Sum.v), math.Float64frombits(b.Lo)
}

func (waterLevel) NextOf(r *record) float64 { return r.key }
