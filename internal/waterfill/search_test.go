package waterfill

import (
	"cmp"
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// tol is the relative tolerance of sums taken in different orders.
const tol = 1e-9

func approx(a, b, scale float64) bool {
	return math.Abs(a-b) <= tol*max(1, scale, math.Abs(a), math.Abs(b))
}

// referenceSearch sorts the records by key and scans the groups: the
// definition of search.
func referenceSearch(recs []record, slots float64) cut {
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b record) int { return cmp.Compare(a.key, b.key) })
	var incl level
	for i := 0; i < len(sorted); {
		j := i
		var g level
		for ; j < len(sorted) && sorted[j].key == sorted[i].key; j++ {
			g = g.plus(sorted[j].w, sorted[j].v)
		}
		next, hasNext := 0.0, j < len(sorted)
		if hasNext {
			next = sorted[j].key
		}
		before := incl
		incl = incl.plus(g.w, g.v)
		if reaches(slots, incl, next, hasNext) {
			return cut{key: sorted[i].key, before: before, group: g}
		}
		i = j
	}
	panic("reaches must hold after the last group")
}

func testSearchMatchesSort(t *rapid.T) {
	n := rapid.IntRange(1, 600).Draw(t, "n")
	kind := rapid.IntRange(0, 3).Draw(t, "kind")
	recs := make([]record, n)
	for i := range recs {
		var b float64
		switch kind {
		case 0:
			b = []float64{1.1, 1.5, 2}[rapid.IntRange(0, 2).Draw(t, "beta")]
		case 1:
			b = rapid.Float64Range(1.001, 2.5).Draw(t, "beta")
		case 2: // a cluster within one bucket
			b = 1.5 + float64(rapid.IntRange(0, 20).Draw(t, "beta"))*1e-13
		default:
			b = 1.5
		}
		T := float64(rapid.IntRange(0, 50).Draw(t, "T"))
		recs[i] = record{key: 2, v: T}
		if b < 2 {
			recs[i] = record{key: b, w: T / math.Sqrt(b-1), v: 2 / b * T}
		}
	}
	var totalW float64
	least, most := math.Inf(1), 0.0
	for _, r := range recs {
		totalW += r.w
		least, most = min(least, r.key), max(most, r.key)
	}
	// A drawn S, and S a hair to either side of the predicate's threshold
	// at the end of up to 30 groups, where the next group's key decides
	// (at a histogram bucket's end, the key of the next bucket's first job).
	all := []float64{rapid.Float64Range(0, 1.2).Draw(t, "fraction") * (totalW + 1)}
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b record) int { return cmp.Compare(a.key, b.key) })
	var w float64
	for i, r := range sorted {
		w += r.w
		if i+1 < len(sorted) && sorted[i+1].key != r.key && len(all) < 61 {
			x := w / math.Sqrt(slope(sorted[i+1].key))
			all = append(all, x*(1-1e-9), x*(1+1e-9))
		}
	}
	ws := Workspace{recs: slices.Clone(recs)}
	for _, slots := range all {
		want := referenceSearch(recs, slots)
		got := ws.search(slots, least, most)
		if got.key != want.key {
			// Bucket sums round differently from a running sum: accept the
			// neighbouring group only when S sits on its boundary.
			alt := referenceSearch(recs, slots*(1-1e-12))
			alt2 := referenceSearch(recs, slots*(1+1e-12))
			if got.key != alt.key && got.key != alt2.key {
				t.Fatalf("S = %v: cut at key %v, want %v", slots, got.key, want.key)
			}
			continue
		}
		// Every aggregate the cut documents: the groups before it (Σw, Σv)
		// and the group itself.
		if !approx(got.before.w, want.before.w, want.before.w) || !approx(got.before.v, want.before.v, want.before.v) ||
			!approx(got.group.w, want.group.w, want.group.w) || !approx(got.group.v, want.group.v, want.group.v) {
			t.Fatalf("cut at %v: before %+v group %+v, want %+v %+v", got.key, got.before, got.group, want.before, want.group)
		}
	}
	if d := gocmp.Diff(recs, ws.recs, gocmp.AllowUnexported(record{})); d != "" {
		t.Fatalf("search modified ws.recs:\n%s", d)
	}
}

func TestSearchMatchesSort(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSearchMatchesSort)
}

// TestSearchHistogramFollowsWork: the search's cost follows its records.
// A histogram level resolves bits.Len(n) − 4 bits (at least 4, at most
// maxBits), so it has at most max(16, n/8) buckets: a few records never
// get the 1024-bucket histogram that only large inputs pay for. Every
// record has its own β < 2, so each level has a range to split.
func TestSearchHistogramFollowsWork(t *testing.T) {
	t.Parallel()
	for _, n := range []int{49, 100, 300, 1000, 20000} {
		remaining := make([]float64, n)
		beta := make([]float64, n)
		for i := range n {
			remaining[i] = float64(1 + i%7)
			beta[i] = 1.01 + 0.98*float64(i)/float64(n)
		}
		var ws Workspace
		ws.Prepare(remaining, beta)
		ws.Fill(make([]float64, n), remaining, float64(n))
		limit := max(16, n/8)
		if len(ws.hist) == 0 || cap(ws.hist) > 2*limit {
			t.Errorf("n = %d: histogram of %d buckets (capacity %d), want at most %d", n, len(ws.hist), cap(ws.hist), limit)
		}
	}
}

// testPrepareKeyRange: Prepare records the least and the greatest key
// min(β_i, 2), the range the search's first histogram level spans (which
// groups its sums, and so rounds the shares), and ΣT_i; checked against
// min, max and a sum taken here.
func testPrepareKeyRange(t *rapid.T) {
	n := rapid.IntRange(1, 60).Draw(t, "n")
	remaining, beta := make([]float64, n), make([]float64, n)
	least, most, total := math.Inf(1), math.Inf(-1), 0.0
	for i := range n {
		remaining[i] = rapid.Float64Range(0, 100).Draw(t, "remaining")
		beta[i] = rapid.SampledFrom([]float64{1.01, 1.5, 1.99, 2, 3, rapid.Float64Range(1.001, 4).Draw(t, "b")}).Draw(t, "beta")
		least, most = min(least, min(beta[i], 2)), max(most, min(beta[i], 2))
		total += remaining[i]
	}
	var ws Workspace
	ws.Prepare(remaining, beta)
	if p := ws.snap; p.keys.Least() != least || p.keys.Most() != most || p.total != total {
		t.Fatalf("prepare: keys in [%v, %v], total %v; want [%v, %v], %v", p.keys.Least(), p.keys.Most(), p.total, least, most, total)
	}
}

func TestPrepareKeyRange(t *testing.T) { t.Parallel(); rapid.Check(t, testPrepareKeyRange) }
