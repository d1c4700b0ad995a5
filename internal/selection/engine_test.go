package selection

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The engine on its own: a test Rule over records of up to two key fields
// and one weight, checked against a sort of the records and a walk of the
// groups (the definition of Select's result), for every Shape the
// library's searches use: one field with groups of equal keys (Search,
// the water-fill), two fields with distinct records (Algorithm 3), with
// and without Sure.

type engRec struct {
	k   [2]uint64
	w   float64
	idx int
}

// engTot is a count, a weight and the least field-0 key: the look-ahead
// of a bucket's first group in any field's level (in a field-1 level
// every record has the same field-0 key).
type engTot struct {
	N     int
	W     float64
	MinK0 uint64
}

type engRule struct{ fields int }

func (engRule) Fill(l Level[engTot], h []Bucket[engTot], recs []engRec, f int) {
	for i := range recs {
		b := l.Put(h, recs[i].k[f])
		b.Sum.N++
		b.Sum.W += recs[i].w
		b.Sum.MinK0 = min(b.Sum.MinK0, recs[i].k[0])
	}
}

func (engRule) Gather(dst, recs []engRec, l Level[engTot], bucket, f int) int {
	n := 0
	for i := range recs {
		if l.Index(recs[i].k[f]) == bucket {
			dst[n] = recs[i]
			n++
		}
	}
	return n
}

func (o engRule) Sort(recs []engRec) { slices.SortFunc(recs, o.compare) }

func (o engRule) compare(a, b engRec) int {
	for f := 0; f < o.fields; f++ {
		if c := cmp.Compare(a.k[f], b.k[f]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.idx, b.idx)
}

func (o engRule) Key(r *engRec) uint64 { return r.k[o.fields-1] }

func (engRule) Sum(recs []engRec) engTot {
	t := engTot{MinK0: ^uint64(0)}
	for i := range recs {
		t.N++
		t.W += recs[i].w
		t.MinK0 = min(t.MinK0, recs[i].k[0])
	}
	return t
}

func (engRule) Plus(a, b engTot) engTot { return engTot{a.N + b.N, a.W + b.W, min(a.MinK0, b.MinK0)} }

// The look-ahead is the next group's first key in field 0 (its bucket's
// least field-0 key when the walk knows only the bucket).
func (o engRule) Step(incl engTot, b *Bucket[engTot]) (engTot, float64) {
	return o.Plus(incl, b.Sum), float64(b.Sum.MinK0)
}

func (engRule) NextOf(r *engRec) float64 { return float64(r.k[0]) }

// engReference is Select's definition: sort, cut into groups (equal last
// key, or single records when distinct), and return the first group at
// whose end stop holds (the last group when sure).
func engReference(o engRule, shape Shape, recs []engRec, stop Stop[engTot]) (before, group engTot, at engRec, found bool) {
	s := slices.Clone(recs)
	slices.SortFunc(s, o.compare)
	incl := o.Sum(nil)
	for i := 0; i < len(s); {
		j := i + 1
		for !shape.Distinct && j < len(s) && s[j].k[o.fields-1] == s[i].k[o.fields-1] {
			j++
		}
		g := o.Sum(s[i:j])
		next, hasNext := 0.0, false
		if j < len(s) {
			next, hasNext = float64(s[j].k[0]), true
		}
		b := incl
		incl = o.Plus(incl, g)
		if stop(incl, next, hasNext) || (shape.Sure && j == len(s)) {
			return b, g, s[i], true
		}
		i = j
	}
	return incl, o.Sum(nil), engRec{}, false
}

func testSelectMatchesSort(t *rapid.T) {
	shape := rapid.SampledFrom([]Shape{{Fields: 1}, {Fields: 1, Sure: true}, {Fields: 2, Distinct: true}, {Fields: 2, Distinct: true, Sure: true}, {Fields: 1, Distinct: true}}).Draw(t, "shape")
	// Narrow levels too (1 bit: two buckets), so that a search goes down
	// many levels.
	shape.LevelBits = rapid.SampledFrom([]int{1, 2, 4, 10, 11, 16}).Draw(t, "levelBits")
	o := engRule{fields: shape.Fields}
	n := rapid.IntRange(0, 400).Draw(t, "n")
	// Keys from a few clusters of nearby values, so that buckets, equal
	// keys and single-valued ranges (the switch to field 1) all occur.
	base := rapid.SampledFrom([]uint64{0, 1 << 20, 1 << 62, ^uint64(0) - 1000}).Draw(t, "base")
	spread := rapid.SampledFrom([]uint64{0, 3, 1000, 1 << 40}).Draw(t, "spread")
	recs := make([]engRec, n)
	for i := range recs {
		k0 := base + rapid.Uint64Range(0, spread).Draw(t, "k0")
		k1 := rapid.SampledFrom([]uint64{0, 7, 1 << 33, ^uint64(0)}).Draw(t, "k1")
		recs[i] = engRec{k: [2]uint64{k0, k1}, w: float64(rapid.IntRange(0, 9).Draw(t, "w")), idx: i}
	}
	if shape.Fields == 1 {
		for i := range recs {
			recs[i].k[1] = 0
		}
	}
	total := 0.0
	for _, r := range recs {
		total += r.w
	}
	thr := rapid.Float64Range(0, total+2).Draw(t, "threshold")
	useNext := rapid.Bool().Draw(t, "useNext")
	alpha := rapid.SampledFrom([]float64{1, 0.01, 1e-6}).Draw(t, "alpha")
	// A monotone rule: the prefix weight reaches thr, or (useNext) no
	// group follows, or the prefix weight plus alpha times how far the
	// next group's key lies past base reaches thr (both grow along the
	// order), so the look-ahead decides many cuts.
	origin := float64(base)
	stop := func(incl engTot, next float64, hasNext bool) bool {
		if !useNext {
			return incl.W >= thr
		}
		return !hasNext || incl.W+(next-origin)*alpha >= thr
	}
	lo, hi := ^uint64(0), uint64(0)
	for _, r := range recs {
		lo, hi = min(lo, r.k[0]), max(hi, r.k[0])
	}
	orig := slices.Clone(recs)
	var s Scratch[engRec]
	var hist []Bucket[engTot]
	got := Select(o, stop, shape, recs, lo, hi, &s, &hist)
	if !slices.Equal(recs, orig) {
		t.Fatalf("Select modified recs")
	}
	before, group, at, found := engReference(o, shape, recs, stop)
	if got.Found != found || got.Before != before {
		t.Fatalf("%+v: Select = found %v before %+v; reference found %v before %+v", shape, got.Found, got.Before, found, before)
	}
	if !found {
		return
	}
	if got.Group != group {
		t.Fatalf("%+v: group %+v, reference %+v", shape, got.Group, group)
	}
	if shape.Distinct && got.At != at {
		t.Fatalf("%+v: At %+v, reference %+v", shape, got.At, at)
	}
	if !shape.Distinct && got.Key != at.k[0] {
		t.Fatalf("%+v: Key %d, reference %d", shape, got.Key, at.k[0])
	}
}

func TestSelectMatchesSort(t *testing.T) { t.Parallel(); rapid.Check(t, testSelectMatchesSort) }

func FuzzSelectMatchesSort(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSelectMatchesSort)) }

// widest is engRule recording the most buckets of any level Select fills.
type widest struct {
	engRule
	most *int
}

func (o widest) Fill(l Level[engTot], h []Bucket[engTot], recs []engRec, f int) {
	*o.most = max(*o.most, len(h))
	o.engRule.Fill(l, h, recs, f)
}

// TestLevelBits: a level has at most 2^LevelBits buckets, and exactly that
// many for keys spanning all 64 bits when there are records enough
// (2^15 records: 2^11 buckets is one per 16), whatever the size of the
// totals (engTot's buckets are 40 bytes); with fewer records than 16 per
// bucket it has about one bucket per 16 (2^12 for 2^15 records, under a
// LevelBits of 16); and the cut is the sort's.
func TestLevelBits(t *testing.T) {
	t.Parallel()
	recs := make([]engRec, 1<<15)
	for i := range recs {
		// The two extremes, then keys spread over the whole range by a
		// multiplicative hash of the index.
		k := uint64(i) * 0x9E3779B97F4A7C15
		recs[i] = engRec{k: [2]uint64{k, 0}, w: float64(i % 7), idx: i}
	}
	recs[1].k[0] = ^uint64(0)
	var total float64
	for _, r := range recs {
		total += r.w
	}
	stop := func(incl engTot, _ float64, _ bool) bool { return incl.W >= total/3 }
	for _, levelBits := range []int{1, 4, 10, 11, 16} {
		shape := Shape{Fields: 1, LevelBits: levelBits}
		most := 0
		var s Scratch[engRec]
		var hist []Bucket[engTot]
		got := Select(widest{engRule{1}, &most}, stop, shape, recs, 0, ^uint64(0), &s, &hist)
		if want := 1 << min(levelBits, 12); most != want {
			t.Errorf("LevelBits %d: the widest level has %d buckets, want %d", levelBits, most, want)
		}
		before, group, at, found := engReference(engRule{1}, shape, recs, stop)
		if !found || !got.Found || got.Before != before || got.Group != group || got.Key != at.k[0] {
			t.Errorf("LevelBits %d: Select = %+v, reference before %+v group %+v key %d", levelBits, got, before, group, at.k[0])
		}
	}
}

// TestLevelIndexFindPut: a level of buckets of 2^shift keys from lo maps
// key k to bucket (k − lo) >> shift, for Index, Find and Put alike; Put
// widens the bucket's range to k.
func TestLevelIndexFindPut(t *testing.T) {
	t.Parallel()
	var hist []Bucket[engTot]
	l, h := newLevel(&hist, 1000, 3, 5, engTot{MinK0: 7})
	for _, b := range h {
		if b.Lo != ^uint64(0) || b.Hi != 0 || b.Sum != (engTot{MinK0: 7}) {
			t.Fatalf("new bucket %+v, want empty with the empty totals", b)
		}
	}
	for _, c := range []struct {
		k    uint64
		want int
	}{{1000, 0}, {1007, 0}, {1008, 1}, {1015, 1}, {1039, 4}} {
		if got := l.Index(c.k); got != c.want {
			t.Errorf("Index(%d) = %d, want %d", c.k, got, c.want)
		}
		if got := l.Find(h, c.k); got != &h[c.want] {
			t.Errorf("Find(%d) is not bucket %d", c.k, c.want)
		}
		if got := l.Put(h, c.k); got != &h[c.want] {
			t.Errorf("Put(%d) is not bucket %d", c.k, c.want)
		}
	}
	if h[0].Lo != 1000 || h[0].Hi != 1007 || h[1].Lo != 1008 || h[1].Hi != 1015 || h[4].Lo != 1039 || h[4].Hi != 1039 || h[2].Lo <= h[2].Hi {
		t.Errorf("ranges after Put: %+v", h)
	}
}
