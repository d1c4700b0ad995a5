package dagkernel

import (
	"cmp"
	"math"
	"slices"

	"github.com/specsched/specsched/internal/selection"
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

// prefix aggregates a set of jobs: how many, ΣV_i and min α_i. For a
// histogram bucket it also keeps first, the α of the bucket's first job in
// the order (the largest α among the jobs at its least key): the look-ahead
// weight α_{m+1} when the cut falls at the end of the bucket before.
type prefix struct {
	count    int
	sumV     float64
	minAlpha float64 // +Inf for the empty set
	first    float64 // buckets only
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

// search finds the first m at which reaches holds, without sorting the
// jobs (selection.Select over Algorithm 3's order: the key, then the
// weight, then the index order, which gathering keeps). O(n).
//
// ws.recs holds the active jobs in index order (at least one), whose keys
// range over [lo, hi]; it is left as it is.
func (ws *Workspace) search(sc *scale, lo, hi uint64) cut {
	c := selection.Select(algorithm3{}, stop(sc), searchShape, ws.recs, lo, hi, &ws.scratch, &ws.hist)
	return cut{at: c.At, incl: c.Before.plus(c.Group.count, c.Group.sumV, c.Group.minAlpha)}
}

// scan walks records already in Algorithm 3's order one at a time (the
// search's last step, on its own for the tests). Where the running sums
// round below the bucket sums that chose these records, reaches never
// holds among them: the cut is then the last record.
func scan(recs []record, base prefix, after float64, hasAfter bool, sc *scale) cut {
	c := selection.Scan(algorithm3{}, stop(sc), searchShape, recs, base, after, hasAfter)
	return cut{at: c.At, incl: c.Before.plus(c.Group.count, c.Group.sumV, c.Group.minAlpha)}
}

// smallSort is the most jobs search sorts and scans one at a time.
const smallSort = selection.SmallSort

// searchShape: two key fields (max{T, T'}, then α), every job its own
// group (the index breaks ties), reaches true at the end, and levels of up
// to 2^10 buckets (48 bytes each: 48 KiB), the levels Algorithm 3's search
// has always had — they group its sums, and so round its shares.
var searchShape = selection.Shape{Fields: 2, Distinct: true, Sure: true, LevelBits: 10}

// stop is reaches on the scaled problem sc, as the search's stopping rule.
func stop(sc *scale) selection.Stop[prefix] {
	return func(incl prefix, next float64, hasNext bool) bool { return reaches(sc, incl, next, hasNext) }
}

// algorithm3 is the order and totals of Algorithm 3's search as a
// selection.Rule: max{T, T'} ascending, α descending, index; the running
// count, ΣV and min α.
type algorithm3 struct{}

func (algorithm3) Fill(l selection.Level[prefix], h []selection.Bucket[prefix], recs []record, field int) {
	for i := range recs {
		r := &recs[i]
		k := fieldKey(r, field)
		b := l.Find(h, k)
		if k < b.Lo {
			b.Lo, b.Sum.first = k, r.alpha
		} else if k == b.Lo && r.alpha > b.Sum.first {
			b.Sum.first = r.alpha
		}
		if k > b.Hi {
			b.Hi = k
		}
		b.Sum.count++
		b.Sum.sumV += r.v
		if r.alpha < b.Sum.minAlpha { // plain comparisons: no NaN here
			b.Sum.minAlpha = r.alpha
		}
	}
}

func (algorithm3) Gather(dst, recs []record, l selection.Level[prefix], bucket, field int) int {
	n := 0
	for i := range recs {
		if l.Index(fieldKey(&recs[i], field)) == bucket {
			dst[n] = recs[i]
			n++
		}
	}
	return n
}

func (algorithm3) Sort(recs []record) { slices.SortFunc(recs, compareOrder) }

func (algorithm3) Key(r *record) uint64 { return fieldKey(r, byKey) }

func (algorithm3) Sum(recs []record) prefix {
	p := emptyPrefix()
	for i := range recs {
		p = p.plus(1, recs[i].v, recs[i].alpha)
	}
	return p
}

func (algorithm3) Plus(a, b prefix) prefix { return a.plus(b.count, b.sumV, b.minAlpha) }

func (algorithm3) Step(incl prefix, b *selection.Bucket[prefix]) (prefix, float64) {
	return incl.plus(b.Sum.count, b.Sum.sumV, b.Sum.minAlpha), b.Sum.first
}

func (algorithm3) NextOf(r *record) float64 { return r.alpha }
