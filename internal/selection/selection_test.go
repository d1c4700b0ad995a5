package selection

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// values draws a slice that exercises the search: many ties (small integer
// pools), a heavy tail, clusters inside one histogram bucket, signed zeros,
// one value throughout.
func values(t *rapid.T, label string) []float64 {
	n := rapid.IntRange(0, 600).Draw(t, label+"_n")
	kind := rapid.IntRange(0, 4).Draw(t, label+"_kind")
	xs := make([]float64, n)
	if kind == 4 { // one value throughout: the search's single-group case
		v := rapid.Float64Range(-10, 10).Draw(t, "v")
		for i := range xs {
			xs[i] = v
		}
		return xs
	}
	for i := range xs {
		switch kind {
		case 0: // few distinct values
			xs[i] = float64(rapid.IntRange(-3, 5).Draw(t, "v"))
		case 1: // arbitrary finite floats
			xs[i] = rapid.Float64Range(-1e6, 1e6).Draw(t, "v")
		case 2: // one outlier and a tight cluster
			xs[i] = 1 + float64(rapid.IntRange(0, 50).Draw(t, "v"))*1e-13
			if i == 0 {
				xs[i] = 1e300
			}
		default: // signed zeros and tiny values
			xs[i] = []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1}[rapid.IntRange(0, 4).Draw(t, "v")]
		}
	}
	return xs
}

// weightOf is max(0, A·v + B), written plainly: the reference must not
// share Weight.of, which it checks.
func weightOf(w Weight, v float64) float64 {
	return max(0, w.A*v+w.B)
}

// referenceSearch sorts a copy and scans its groups: the definition of Search.
func referenceSearch(vals []float64, w Weight, done Done) Cut {
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	var incl Stats
	for i := 0; i < len(sorted); {
		j := i
		var g Stats
		for ; j < len(sorted) && sorted[j] == sorted[i]; j++ {
			g.Count++
			g.Sum += weightOf(w, sorted[j])
		}
		next, hasNext := 0.0, j < len(sorted)
		if hasNext {
			next = sorted[j]
		}
		before := incl
		// Summed here, not with Stats.add: the reference must not share
		// the code it checks.
		incl = Stats{Count: incl.Count + g.Count, Sum: incl.Sum + g.Sum}
		if done(incl, next, hasNext) {
			return Cut{Value: sorted[i] + 0, Before: before, Group: g, Found: true}
		}
		i = j
	}
	return Cut{Before: incl}
}

const sumTol = 1e-9 // relative: bucket sums add in a different order than a sorted scan

func sameCut(got, want Cut) bool {
	// Equal (infinities included), or finite and within the tolerance: an
	// infinite or NaN sum is not close to a finite one.
	close := func(a, b float64) bool {
		return a == b || math.Abs(a-b) <= sumTol*max(1, math.Abs(a), math.Abs(b)) && !math.IsInf(a-b, 0)
	}
	return got.Found == want.Found && got.Value == want.Value &&
		got.Before.Count == want.Before.Count && got.Group.Count == want.Group.Count &&
		close(got.Before.Sum, want.Before.Sum) && close(got.Group.Sum, want.Group.Sum)
}

func testSearchMatchesSort(t *rapid.T) {
	vals := values(t, "vals")
	orig := slices.Clone(vals)
	// Weights of every branch of the search: a constant (A = 0, B of
	// either sign, or 0), A·v + B linear over the range or clamped at 0,
	// and negative slopes.
	w := Weight{
		A: rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(0, 3), rapid.Float64Range(-3, 3), rapid.Float64Range(0, 0.01)).Draw(t, "a"),
		B: rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(-2, 2), rapid.Float64Range(0, 10)).Draw(t, "b"),
	}
	var totalW float64
	for _, v := range vals {
		totalW += weightOf(w, v)
	}
	target := rapid.Float64Range(0, 1.1).Draw(t, "fraction") * totalW
	// A target within rounding of a prefix sum is a tie that summation
	// order decides (buckets add in another order than a sorted scan):
	// both answers are right, so the weight predicate is not compared for
	// such draws (the others are).
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	var prefix float64
	tie := false
	for _, v := range sorted {
		prefix += weightOf(w, v)
		tie = tie || math.Abs(prefix-target) <= sumTol*max(1, math.Abs(target))
	}
	count := rapid.IntRange(0, len(vals)+1).Draw(t, "count")
	byWeight := func(incl Stats, _ float64, _ bool) bool { return incl.Sum >= target }
	byCount := func(incl Stats, _ float64, _ bool) bool { return incl.Count >= count }
	// A predicate that looks at the next value, like Algorithm 2's water-fill.
	threshold := rapid.Float64Range(-10, 10).Draw(t, "threshold")
	byNext := func(incl Stats, next float64, hasNext bool) bool { return !hasNext || next >= threshold }
	// The same, but true at the last group by its count rather than by
	// hasNext: false for a group that is not the last but is asked as if it
	// were (next and hasNext not those of the value after it).
	byNextStrict := func(incl Stats, next float64, hasNext bool) bool {
		return hasNext && next >= threshold || incl.Count == len(vals)
	}

	var ws Workspace
	for name, done := range map[string]Done{"weight": byWeight, "count": byCount, "next": byNext, "next, strict": byNextStrict} {
		if name == "weight" && tie {
			continue
		}
		got := Search(&ws, vals, w, done)
		want := referenceSearch(vals, w, done)
		if !sameCut(got, want) {
			t.Fatalf("%s: Search = %+v, sorted reference = %+v\nvals %v", name, got, want, vals)
		}
		if math.Signbit(got.Value) && got.Value == 0 {
			t.Fatalf("%s: Search's cut is −0 (zeros of either sign are +0)", name)
		}
	}
	if !slices.Equal(vals, orig) && !slices.EqualFunc(vals, orig, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
		t.Fatalf("Search modified its input")
	}
}

func TestSearchMatchesSort(t *testing.T) { rapid.Check(t, testSearchMatchesSort) }

func TestKeyOrder(t *testing.T) {
	xs := []float64{math.Inf(-1), -math.MaxFloat64, -1, -5e-324, 0, 5e-324, 1, math.MaxFloat64, math.Inf(1)}
	for i := 1; i < len(xs); i++ {
		if key(xs[i-1]) >= key(xs[i]) {
			t.Errorf("key(%g) = %#x ≥ key(%g) = %#x", xs[i-1], key(xs[i-1]), xs[i], key(xs[i]))
		}
		if value(key(xs[i])) != xs[i] {
			t.Errorf("value(key(%g)) = %g", xs[i], value(key(xs[i])))
		}
	}
	if key(0) != key(math.Copysign(0, -1)) {
		t.Errorf("key(+0) = %#x != key(-0) = %#x", key(0), key(math.Copysign(0, -1)))
	}
}

// referenceApportion sorts the indices by (fraction desc, then each key
// asc, index asc) and hands out the remaining units in that order. A nil
// key ranks every job equal.
func referenceApportion(shares []float64, total int, keys ...[]float64) []int {
	n := len(shares)
	out := make([]int, n)
	order := make([]int, n)
	left := total
	for i, s := range shares {
		out[i] = int(math.Floor(s))
		left -= out[i]
		order[i] = i
	}
	frac := func(i int) float64 { return shares[i] - math.Floor(shares[i]) }
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(frac(b), frac(a)); c != 0 {
			return c
		}
		for _, key := range keys {
			if key == nil {
				continue
			}
			if c := cmp.Compare(key[a], key[b]); c != 0 {
				return c
			}
		}
		return 0 // the stable sort keeps index order
	})
	for k := 0; k < left && k < n; k++ {
		out[order[k]]++
	}
	return out
}

// drawShares draws 1 to maxN jobs, a total in [0, 3n] and integer weights
// in [0, maxWeight] — integer weights make exact ties in fractions common —
// and returns the shares weight_i/Σweight·total.
func drawShares(t *rapid.T, maxN, maxWeight int) ([]float64, int) {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	total := rapid.IntRange(0, 3*n).Draw(t, "total")
	weights := rapid.SliceOfN(rapid.IntRange(0, maxWeight), n, n).Draw(t, "weights")
	var sum float64
	for _, w := range weights {
		sum += float64(w)
	}
	if sum == 0 {
		weights[0], sum = 1, 1
	}
	shares := make([]float64, n)
	for i, w := range weights {
		shares[i] = float64(w) / sum * float64(total)
	}
	return shares, total
}

func testApportionMatchesSort(t *rapid.T) {
	shares, total := drawShares(t, 400, 6)
	n := len(shares)
	var priority []float64
	if rapid.Bool().Draw(t, "withPriority") {
		priority = make([]float64, n)
		for i := range priority {
			priority[i] = float64(rapid.IntRange(0, 3).Draw(t, "p"))
		}
	}
	var ws Workspace
	got := make([]int, n)
	Apportion(&ws, got, shares, total, priority)
	want := referenceApportion(shares, total, priority)
	if !slices.Equal(got, want) {
		t.Fatalf("Apportion = %v, sorted reference = %v (shares %v, priority %v)", got, want, shares, priority)
	}
}

func TestApportionMatchesSort(t *testing.T) { rapid.Check(t, testApportionMatchesSort) }

// testApportionByMatchesSort: with two priority keys, equal fractional
// parts go by the first key, then the second, then the index — checked
// against a stable sort on that lexicographic order.
func testApportionByMatchesSort(t *rapid.T) {
	shares, total := drawShares(t, 300, 3)
	n := len(shares)
	first := make([]float64, n)
	second := make([]float64, n)
	for i := range shares {
		first[i] = float64(rapid.IntRange(0, 2).Draw(t, "first"))
		second[i] = float64(rapid.IntRange(-2, 2).Draw(t, "second"))
	}
	var ws Workspace
	got := make([]int, n)
	ApportionBy(&ws, got, shares, total, first, second)
	want := referenceApportion(shares, total, first, second)
	if !slices.Equal(got, want) {
		t.Fatalf("ApportionBy = %v, sorted reference = %v (shares %v, keys %v %v)", got, want, shares, first, second)
	}
}

func TestApportionByMatchesSort(t *testing.T) { rapid.Check(t, testApportionByMatchesSort) }

// testOrderStatsMatchesSort: NewHistogram, Locate and Settle (composed
// by orderStats) give the sorted copy's elements of
// both ranks and the number of smaller elements — with the smallest given
// as the true minimum, or as any element (the values below it share the
// first bucket), and largest the true maximum.
func testOrderStatsMatchesSort(t *rapid.T) {
	vals := values(t, "vals")
	if len(vals) == 0 {
		return
	}
	if rapid.Bool().Draw(t, "pad with zeros") {
		for i := range rapid.IntRange(0, len(vals)).Draw(t, "zeros") {
			vals[i] = 0
		}
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	smallest := sorted[0]
	if rapid.Bool().Draw(t, "smallest inside") {
		smallest = vals[rapid.IntRange(0, len(vals)-1).Draw(t, "from")]
	}
	r1 := rapid.IntRange(0, len(vals)-1).Draw(t, "r1")
	r2 := rapid.IntRange(r1, len(vals)-1).Draw(t, "r2")
	var ws Workspace
	orig := slices.Clone(vals)
	o1, o2 := orderStats(&ws, vals, smallest, sorted[len(sorted)-1], r1, r2)
	if !slices.Equal(orig, vals) {
		t.Fatal("input modified")
	}
	for _, c := range []struct {
		r int
		o Order
	}{{r1, o1}, {r2, o2}} {
		want := sorted[c.r]
		before, _ := slices.BinarySearch(sorted, want) // first index of want's group
		for before > 0 && sorted[before-1] == want {   // −0 and +0 compare equal
			before--
		}
		if c.o.Value != want || c.o.Before != before {
			t.Fatalf("rank %d: got %+v, want value %v with %d before", c.r, c.o, want, before)
		}
	}
}

func TestOrderStatsMatchesSort(t *testing.T) { rapid.Check(t, testOrderStatsMatchesSort) }

// orderStats returns the order statistics of ranks r1 ≤ r2 of vals (both in
// [0, len(vals))): two cut-offs for the price of about one Search. The
// values must be finite (−0 and +0 are equal) and at most largest; values
// below smallest are allowed — they share the lowest bucket — so a caller
// can give the smallest positive value of data padded with zeros, and the
// first histogram resolves the positive values instead of spending its
// buckets on the gap from 0.
//
// One pass counts the values into a Histogram; a walk of the counts finds
// the bucket holding each rank; a second pass gathers the values of those
// one or two buckets; and a Search within each settles the rank (Settle).
// O(len(vals)). It is the composition competitive's cutPass fuses into
// its output pass, written plainly for the test.
func orderStats(ws *Workspace, vals []float64, smallest, largest float64, r1, r2 int) (Order, Order) {
	h := NewHistogram(ws, vals, smallest, largest)
	b1, before1 := h.Locate(r1)
	b2, before2 := h.Locate(r2)
	g1 := slices.Grow(ws.fracs[:0], h.counts[b1])
	g2 := slices.Grow(ws.prio[:0], h.counts[b2])
	for _, v := range vals {
		b := h.Bucket(v)
		if b == b1 {
			g1 = append(g1, v)
		} else if b == b2 {
			g2 = append(g2, v)
		}
	}
	ws.fracs, ws.prio = g1, g2
	if b1 == b2 {
		g2 = g1
	}
	return Settle(ws, g1, before1, r1), Settle(ws, g2, before2, r2)
}

// TestBucketNonNegative: the cheaper bucket of a non-negative value is
// Bucket's, zeros of either sign included.
func TestBucketNonNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vals := rapid.SliceOfN(rapid.Float64Range(0, 1e6), 1, 300).Draw(t, "vals")
		vals = append(vals, 0, math.Copysign(0, -1))
		smallest := vals[rapid.IntRange(0, len(vals)-1).Draw(t, "from")]
		var ws Workspace
		h := NewHistogram(&ws, vals, smallest, slices.Max(vals))
		for _, v := range vals {
			if h.BucketNonNegative(v) != h.Bucket(v) {
				t.Fatalf("%v: bucket %d, want %d", v, h.BucketNonNegative(v), h.Bucket(v))
			}
		}
	})
}

// TestSearchSumOverflow: values near MaxFloat64 whose sum per histogram
// bucket overflows although their weights sum to a finite total. Search
// summed the values of a bucket and weighed the sum, A·Σv + B·count, so
// Count (A = 0) gave 0·∞ = NaN where Stats.Sum must equal Stats.Count, and
// A = 2^−1000 gave +Inf for a sum near 2^25. Every group's sums must be
// those of the sorted scan, which weighs value by value.
func TestSearchSumOverflow(t *testing.T) {
	t.Parallel()
	positive := make([]float64, 100) // three groups: Max, Max/2, Max/3
	mixed := make([]float64, 100)    // the same and −1: the histogram's linear path for least ≤ 0
	twoKeys := make([]float64, 100)
	for i := range twoKeys {
		twoKeys[i] = math.MaxFloat64
		if i%2 == 1 {
			twoKeys[i] = math.Nextafter(math.MaxFloat64, 0)
		}
	}
	for i := range positive {
		positive[i] = math.MaxFloat64 / float64(1+i%3)
		mixed[i] = positive[i]
		if i%10 == 0 {
			mixed[i] = -1
		}
	}
	for _, c := range []struct {
		name string
		vals []float64
		w    Weight
	}{
		{"Count", positive, Count},
		{"A = 2^-1000", positive, Weight{A: 0x1p-1000}},
		{"A = 2^-1000, B = -2^20", positive, Weight{A: 0x1p-1000, B: -0x1p20}},
		{"Count, least < 0", mixed, Count},
		{"A = 2^-1000, B = 1, least < 0", mixed, Weight{A: 0x1p-1000, B: 1}},
		{"zero weight, least < 0", mixed, Weight{}},
		// Two keys apart: two buckets, both overflowing, and no empty one.
		{"Count, two buckets", twoKeys, Count},
		{"A = 2^-1000, two buckets", twoKeys, Weight{A: 0x1p-1000}},
	} {
		var ws Workspace
		for k := 0; k <= len(c.vals)+1; k++ {
			done := func(incl Stats, _ float64, _ bool) bool { return incl.Count >= k }
			got, want := Search(&ws, c.vals, c.w, done), referenceSearch(c.vals, c.w, done)
			if !sameCut(got, want) || math.IsNaN(got.Before.Sum) || math.IsNaN(got.Group.Sum) {
				t.Fatalf("%s, k = %d: Search = %+v, sorted scan %+v", c.name, k, got, want)
			}
			if c.w == Count && (got.Before.Sum != float64(got.Before.Count) || got.Group.Sum != float64(got.Group.Count)) {
				t.Fatalf("%s, k = %d: %+v: Count's sums are not its counts", c.name, k, got)
			}
		}
	}
}

// TestSearchWeightPaths: every path of the histogram's weighing — positive
// values with a linear weight, a constant weight (Count, 0, a negative B
// that clamps every weight to 0), a linear weight over values of either
// sign, a clamped one with its kink inside the values (either slope) — on
// fixed values with ties, each count's cut against the sorted scan. The
// random draws reach the rarer of these (A = 0 with B < 0, a negative
// slope over positive values) only now and then; here every run does.
func TestSearchWeightPaths(t *testing.T) {
	t.Parallel()
	positive := make([]float64, 200) // 0.5, 1, …, 7, with ties
	mixed := make([]float64, 200)    // −3 … 5, zeros of both signs
	for i := range positive {
		positive[i] = float64(i%7 + 1)
		if i%11 == 0 {
			positive[i] = 0.5
		}
		mixed[i] = float64(i%9 - 3)
		if i%18 == 3 {
			mixed[i] = math.Copysign(0, -1)
		}
	}
	weights := []Weight{Count, {}, {A: 0, B: -1}, {A: 0, B: 2}, {A: 1}, {A: 2, B: 3},
		{A: 0.5, B: -2}, {A: -1, B: 4}, {A: -1, B: -1}, {A: -0.5, B: 0.25}}
	for _, vals := range [][]float64{positive, mixed} {
		for _, w := range weights {
			var ws Workspace
			for k := 0; k <= len(vals)+1; k++ {
				done := func(incl Stats, _ float64, _ bool) bool { return incl.Count >= k }
				if got, want := Search(&ws, vals, w, done), referenceSearch(vals, w, done); !sameCut(got, want) {
					t.Fatalf("weight %+v over %v…, k = %d: Search = %+v, sorted scan %+v", w, vals[:9], k, got, want)
				}
			}
		}
	}
}
