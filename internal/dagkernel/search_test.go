package dagkernel

import (
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// unscaled is the search's problem with S̃ = S: the predicate on the
// records' own V_i.
func unscaled(slots float64) *scale { return &scale{c: 1, slots: slots} }

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
		if reaches(unscaled(slots), incl, next, hasNext) {
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
		kind := rapid.IntRange(0, 6).Draw(t, "kind")
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
			case 4:
				key = rapid.Float64Range(0, 1e6).Draw(t, "key")
				alpha = rapid.Float64Range(0.01, 20).Draw(t, "alpha")
			case 5: // α falling with the key: the next job is often a new
				// α_min, so the predicate's look-ahead decides the cut
				key = rapid.Float64Range(1, 1000).Draw(t, "key")
				alpha = 20 / key * rapid.Float64Range(0.5, 2).Draw(t, "noise")
			default: // the same with wide noise: within a histogram bucket
				// the first job need not have the bucket's largest α
				key = float64(rapid.IntRange(1, 300).Draw(t, "key"))
				alpha = 20 / key * rapid.Float64Range(0.1, 10).Draw(t, "noise")
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
	if rapid.Bool().Draw(t, "at a threshold") {
		// Just below F's threshold at a random position of the order,
		// where the look-ahead weight α_{m+1} decides.
		sorted := slices.Clone(recs)
		slices.SortFunc(sorted, compareOrder)
		m := rapid.IntRange(1, len(sorted)).Draw(t, "m")
		incl := emptyPrefix()
		for _, r := range sorted[:m] {
			incl = incl.plus(1, r.v, r.alpha)
		}
		next := incl.minAlpha
		if m < len(sorted) {
			next = min(next, sorted[m].alpha)
		}
		slots = incl.sumV / math.Sqrt(next) * (1 - 1e-9)
	}
	want, wantAt := referenceSearch(recs, slots)
	ws := Workspace{recs: slices.Clone(recs)}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i := range recs {
		lo, hi = min(lo, fieldKey(&recs[i], byKey)), max(hi, fieldKey(&recs[i], byKey))
	}
	got := ws.search(unscaled(slots), lo, hi)
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

// TestSearchLookAheadWithinBucket is a regression seed found by rapid
// (20 000 checks) against a search that took the largest α of the next
// histogram bucket as the next job's weight: 64 jobs with key 1 and α = 20,
// then keys 128 (α = 1/51.2) and 129 (α = 0.155), which share a bucket.
// At S = 1367.9 the cut is after the 64th job, because the next job (key
// 128) is a new α_min: Σ_{i≤64} V_i/√(1/51.2) ≈ 2731 ≥ S, while with
// α = 0.155 the threshold would be ≈ 969 < S.
func TestSearchLookAheadWithinBucket(t *testing.T) {
	t.Parallel()
	var recs []record
	add := func(key, alpha float64) {
		recs = append(recs, record{key: key, alpha: alpha, v: 4.0 / 3 * math.Sqrt(alpha), idx: len(recs)})
	}
	for range 64 {
		add(1, 20)
	}
	add(128, 0.01953125)
	add(129, 0.15503875968992248)
	ws := Workspace{recs: recs}
	got := ws.search(unscaled(1367.8782952668291), math.Float64bits(1), math.Float64bits(129))
	if got.at.idx != 63 || got.incl.count != 64 {
		t.Fatalf("cut at %+v (m = %d), want job 63 (m = 64)", got.at, got.incl.count)
	}
}

// TestScanFallsBackToTheLastRecord: scan is handed the records of a
// bucket at whose end the search found the predicate true; when the
// running sum, rounded differently, never reaches S inside the bucket,
// the cut is the bucket's last record with the aggregate of all of them.
// Here S is far beyond the three records and the job after them (weight 1)
// exists, so reaches fails at every record.
func TestScanFallsBackToTheLastRecord(t *testing.T) {
	t.Parallel()
	recs := []record{{key: 1, alpha: 4, v: 2, idx: 0}, {key: 2, alpha: 2, v: 3, idx: 1}, {key: 3, alpha: 1, v: 5, idx: 2}}
	got := scan(recs, emptyPrefix(), 1, true, unscaled(1e9))
	if got.at != recs[2] || got.incl.count != 3 || got.incl.sumV != 10 || got.incl.minAlpha != 1 {
		t.Errorf("got %+v, want the last record with count 3, ΣV 10, min α 1", got)
	}
}

// TestSearchNextWeightAtTiedKey: a bucket's "first" weight, the next
// job's α when the cut is at the end of the bucket before, is the largest
// α among the records at the bucket's smallest key (Algorithm 3 orders
// equal keys by α descending), whatever their index order. 64 records
// (key 1, α 20, V = (4/3)·√α), then at key 128 α = 0.155 (index 64) and
// α = 1/51.2 (index 65): the next job after the 64 has α = 0.155, so
// Σ_{i≤64} V_i/√0.155 ≈ 969 < S = 1367.9 and the cut is past the 64th
// job; with α = 1/51.2 as the next weight the threshold would be ≈ 2731.
// Checked against the sort-and-scan reference.
func TestSearchNextWeightAtTiedKey(t *testing.T) {
	t.Parallel()
	var recs []record
	add := func(key, alpha float64) {
		recs = append(recs, record{key: key, alpha: alpha, v: 4.0 / 3 * math.Sqrt(alpha), idx: len(recs)})
	}
	for range 64 {
		add(1, 20)
	}
	add(128, 0.15503875968992248)
	add(128, 0.01953125)
	const S = 1367.8782952668291
	_, wantAt := referenceSearch(recs, S)
	ws := Workspace{recs: slices.Clone(recs)}
	got := ws.search(unscaled(S), math.Float64bits(1), math.Float64bits(128))
	if got.at.idx != wantAt.idx || wantAt.idx == 63 {
		t.Fatalf("cut at job %d, want %d (past job 63)", got.at.idx, wantAt.idx)
	}
}
