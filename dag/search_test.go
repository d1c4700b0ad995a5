package dag

import (
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// referenceSearch sorts the records into Algorithm 3's order and scans them
// one at a time: the definition of search.
func referenceSearch(recs []record, slots float64) (incl prefix, at record) {
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, compareOrder)
	incl = emptyPrefix()
	for i, r := range sorted {
		incl = incl.plus(1, r.v, r.alpha)
		next, hasNext := 0.0, i+1 < len(sorted)
		if hasNext {
			next = sorted[i+1].alpha
		}
		if reaches(slots, incl, next, hasNext) {
			return incl, r
		}
	}
	panic("reaches must hold after the last record")
}

// recordsGen draws active jobs large enough for histogram levels, with the
// shapes that take each path of search: many equal keys (the switch to α),
// equal keys and weights (the index scan), clusters inside one bucket and
// spread-out values.
func recordsGen() *rapid.Generator[[]record] {
	return rapid.Custom(func(t *rapid.T) []record {
		n := rapid.IntRange(1, 1500).Draw(t, "n")
		kind := rapid.IntRange(0, 4).Draw(t, "kind")
		recs := make([]record, n)
		for i := range recs {
			var key, alpha float64
			switch kind {
			case 0: // few keys, few weights
				key = float64(rapid.IntRange(1, 4).Draw(t, "key"))
				alpha = []float64{0.5, 1, 2}[rapid.IntRange(0, 2).Draw(t, "alpha")]
			case 1: // one key: the order is by α
				key = 7
				alpha = rapid.Float64Range(0.01, 20).Draw(t, "alpha")
			case 2: // one key and one weight: the order is by index
				key, alpha = 7, 3
			case 3: // a tight cluster and an outlier
				key = 1 + float64(rapid.IntRange(0, 30).Draw(t, "key"))*1e-12
				if i == 0 {
					key = 1e200
				}
				alpha = 1 + float64(rapid.IntRange(0, 3).Draw(t, "alpha"))*1e-13
			default:
				key = rapid.Float64Range(0, 1e6).Draw(t, "key")
				alpha = rapid.Float64Range(0.01, 20).Draw(t, "alpha")
			}
			T := rapid.Float64Range(0.1, 100).Draw(t, "T")
			recs[i] = record{key: key, alpha: alpha, v: 4.0 / 3 * T * math.Sqrt(alpha), idx: i}
		}
		return recs
	})
}

func testSearchMatchesSort(t *rapid.T) {
	recs := recordsGen().Draw(t, "recs")
	var total float64
	maxA, minA := 0.0, math.Inf(1)
	for _, r := range recs {
		total += r.v
		maxA, minA = max(maxA, r.alpha), min(minA, r.alpha)
	}
	slots := rapid.Float64Range(1e-9, 1.1).Draw(t, "fraction") * total / math.Sqrt(minA)
	want, wantAt := referenceSearch(recs, slots)
	ws := Workspace{recs: slices.Clone(recs)}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i := range recs {
		lo, hi = min(lo, fieldKey(&recs[i], byKey)), max(hi, fieldKey(&recs[i], byKey))
	}
	got := ws.search(slots, lo, hi)
	if d := gocmp.Diff(recs, ws.recs, gocmp.AllowUnexported(record{})); d != "" {
		t.Fatalf("search reordered ws.recs:\n%s", d)
	}
	if got.at == wantAt && (got.incl.count != want.count || got.incl.minAlpha != want.minAlpha ||
		!approx(got.incl.sumV, want.sumV, want.sumV)) {
		t.Fatalf("cut at %+v: aggregate %+v, want %+v", got.at, got.incl, want)
	}
	if got.at != wantAt {
		// A bucket sum may round across the threshold differently from a
		// running sum; then both prefixes sit on the threshold.
		_, wantLo := referenceSearch(recs, slots*(1-1e-12))
		_, wantHi := referenceSearch(recs, slots*(1+1e-12))
		if got.at != wantLo && got.at != wantHi {
			t.Fatalf("S = %v: cut at %+v (m = %d), want %+v (m = %d)", slots, got.at, got.incl.count, wantAt, want.count)
		}
	}
	if got.incl.minAlpha > maxA || got.incl.count < 1 || got.incl.count > len(recs) {
		t.Fatalf("aggregate %+v out of range", got.incl)
	}
}

func TestSearchMatchesSort(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSearchMatchesSort)
}
