package check_test

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/testutil"
)

// bigSum is Σxs exactly.
func bigSum(xs []float64) *big.Float {
	sum := new(big.Float).SetPrec(2200) // wide enough for 2^1024 down to 2^-1074 with carries
	for _, x := range xs {
		sum.Add(sum, new(big.Float).SetFloat64(x))
	}
	return sum
}

// runningOverflow returns the index at which the sum in index order first
// reaches +Inf, or -1: the contract NonNegatives documents, written out.
func runningOverflow(xs []float64) int {
	var sum float64
	for i, x := range xs {
		sum += x
		if math.IsInf(sum, 1) {
			return i
		}
	}
	return -1
}

// withBad replaces some values by ones every check rejects (NaN, ±Inf,
// negatives) or accepts only as 0 (−0).
func withBad(t *rapid.T, xs []float64) []float64 {
	xs = slices.Clone(xs)
	for i := range xs {
		if rapid.IntRange(0, 7).Draw(t, "badHere") == 0 {
			xs[i] = rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -5e-324, -math.MaxFloat64, math.Copysign(0, -1)}).Draw(t, "bad")
		}
	}
	return xs
}

// testSummarizeAgrees: on values over float64's whole range (with exact
// ties, so MaxFloat64 and its neighbours pile up) and some bad values,
// Summarize and NonNegatives accept the same slices and return the same
// error; the error names the first bad element, or the element where the
// running sum overflows; an accepted sum is within n·2⁻⁵³ of the exact
// (math/big) sum, and the minimum and maximum are the slice's.
func testSummarizeAgrees(t *rapid.T) {
	xs := testutil.Magnitudes(0, 12).Draw(t, "xs")
	if rapid.Bool().Draw(t, "nearOverflow") {
		// Values at the edge of overflow, where the order of the adds
		// decides: MaxFloat64's ulp is 2^971, so 2^970 is half of it.
		for i := range xs {
			if rapid.Bool().Draw(t, "edge") {
				xs[i] = rapid.SampledFrom([]float64{math.MaxFloat64, 0x1p1023, 0x1p970, 0x1p969, 0}).Draw(t, "edgeValue")
			}
		}
	}
	if rapid.Bool().Draw(t, "withBad") {
		xs = withBad(t, xs)
	}
	orig := slices.Clone(xs)
	s, errS := check.Summarize("f", "x", xs)
	sum, errN := check.NonNegatives("f", "x", xs)
	if !slices.EqualFunc(xs, orig, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
		t.Fatal("input modified")
	}

	firstBad := slices.IndexFunc(xs, func(x float64) bool { return !(x >= 0 && x <= math.MaxFloat64) })
	wantIndex := firstBad
	if firstBad < 0 {
		wantIndex = runningOverflow(xs)
	}
	if wantIndex < 0 {
		if errS != nil || errN != nil {
			t.Fatalf("%v: Summarize error %v, NonNegatives error %v; want none", xs, errS, errN)
		}
		exact := bigSum(xs)
		tol := new(big.Float).Mul(exact, big.NewFloat(float64(len(xs))*0x1p-53))
		for name, got := range map[string]float64{"Summarize": s.Total, "NonNegatives": sum} {
			diff := new(big.Float).Sub(new(big.Float).SetFloat64(got), exact)
			if diff.Abs(diff).Cmp(tol) > 0 || math.IsInf(got, 0) {
				t.Fatalf("%v: %s sum %v, exact %v", xs, name, got, exact.Text('g', 20))
			}
		}
		least, most := 0.0, 0.0
		if len(xs) > 0 {
			least, most = slices.Min(xs)+0, slices.Max(xs)+0
		}
		if s.Least != least || s.Most != most || math.Signbit(s.Least) || math.Signbit(s.Most) {
			t.Fatalf("%v: least %v, most %v; want %v, %v", xs, s.Least, s.Most, least, most)
		}
		return
	}
	var ieS, ieN *specsched.InputError
	if !errors.As(errS, &ieS) || !errors.As(errN, &ieN) {
		t.Fatalf("%v: Summarize error %v, NonNegatives error %v; want InputErrors at %d", xs, errS, errN, wantIndex)
	}
	if *ieS != *ieN && !(math.IsNaN(ieS.Value) && math.IsNaN(ieN.Value)) {
		t.Fatalf("%v: Summarize %v, NonNegatives %v", xs, errS, errN)
	}
	if ieS.Index != wantIndex || ieS.Field != "x" || ieS.Func != "f" {
		t.Fatalf("%v: error %v names index %d, want %d", xs, errS, ieS.Index, wantIndex)
	}
	if s != (check.Summary{}) || sum != 0 {
		t.Fatalf("%v: error with summary %+v, sum %v", xs, s, sum)
	}
}

func TestSummarizeAgrees(t *testing.T) { t.Parallel(); rapid.Check(t, testSummarizeAgrees) }

// TestSummarizePairwiseOverflow: the issue-17 reproducer. The running sum
// of {MaxFloat64, 2^969, 0, 2^969} stays MaxFloat64 (each 2^969 is below
// half an ulp of it), but the two accumulators' sum MaxFloat64 + 2^970 is
// exactly half an ulp and rounds to +Inf; Summarize returned a zero
// summary with a nil error.
func TestSummarizePairwiseOverflow(t *testing.T) {
	t.Parallel()
	xs := []float64{math.MaxFloat64, 0x1p969, 0, 0x1p969}
	s, err := check.Summarize("f", "x", xs)
	want := check.Summary{Total: math.MaxFloat64, Least: 0, Most: math.MaxFloat64}
	if err != nil || s != want {
		t.Fatalf("Summarize(%v) = %+v, %v; want %+v, nil", xs, s, err, want)
	}
	// MaxFloat64 + 2^970 is the tie that rounds up: the running sum
	// overflows at index 1, and both accumulators' sum too.
	xs = []float64{math.MaxFloat64, 0x1p970, 0, 0}
	_, err = check.Summarize("f", "x", xs)
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Index != 1 || ie.Value != 0x1p970 {
		t.Fatalf("Summarize(%v): %v, want an InputError at index 1", xs, err)
	}
}

// TestSummarizeEdges: every position a value can take in the two-accumulator
// pass (even, odd, the last of an odd length) for each kind of special
// value: −0 is accepted as 0 (Least and Most +0), +Inf, NaN and negatives
// are errors naming their index; no values give the zero summary.
func TestSummarizeEdges(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	accepted := []struct {
		xs   []float64
		want check.Summary
	}{
		{nil, check.Summary{}},
		{[]float64{negZero}, check.Summary{}},
		{[]float64{negZero, 2}, check.Summary{Total: 2, Least: 0, Most: 2}},
		{[]float64{2, negZero}, check.Summary{Total: 2, Least: 0, Most: 2}},
		{[]float64{3, 2, negZero}, check.Summary{Total: 5, Least: 0, Most: 3}},
		{[]float64{3, 2, 4}, check.Summary{Total: 9, Least: 2, Most: 4}},
		{[]float64{5e-324, math.MaxFloat64}, check.Summary{Total: math.MaxFloat64, Least: 5e-324, Most: math.MaxFloat64}},
		// The accumulators' sum (2^1022 + 2^969) + (1 − 2^-52)·2^1022 is
		// MaxFloat64/2 exactly: from there the running sum is taken,
		// (2^1022 + (1 − 2^-52)·2^1022) + 2^969 = 2^1023.
		{[]float64{0x1p1022, 0x1.ffffffffffffep1021, 0x1p969}, check.Summary{Total: 0x1p1023, Least: 0x1p969, Most: 0x1p1022}},
	}
	for _, c := range accepted {
		got, err := check.Summarize("f", "x", c.xs)
		if err != nil || got != c.want || math.Signbit(got.Least) || math.Signbit(got.Most) {
			t.Errorf("Summarize(%v) = %+v, %v; want %+v", c.xs, got, err, c.want)
		}
	}
	for _, bad := range []float64{math.Inf(1), math.NaN(), -1, -5e-324, math.Inf(-1)} {
		for _, xs := range [][]float64{{bad}, {bad, 1}, {1, bad}, {1, 2, bad}, {negZero, bad, 1}} {
			want := slices.IndexFunc(xs, func(x float64) bool { return !(x >= 0) || math.IsInf(x, 1) })
			got, err := check.Summarize("f", "x", xs)
			var ie *specsched.InputError
			if !errors.As(err, &ie) || ie.Index != want || got != (check.Summary{}) {
				t.Errorf("Summarize(%v) = %+v, %v; want an error at %d", xs, got, err, want)
			}
		}
	}
}

// testTally: a Tally that has seen xs is Valid exactly when every value
// is finite and ≥ 0 by the float comparisons NonNegative makes and none
// is −0, whatever the order the values come in.
func testTally(t *rapid.T) {
	xs := testutil.Magnitudes(0, 12).Draw(t, "xs")
	if rapid.Bool().Draw(t, "withBad") {
		xs = withBad(t, xs)
	}
	want := true
	var tally check.Tally
	for _, x := range xs {
		tally = tally.With(x)
		want = want && x >= 0 && x <= math.MaxFloat64 && !math.Signbit(x)
	}
	if tally.Valid() != want {
		t.Fatalf("Tally over %v: Valid = %v, want %v", xs, tally.Valid(), want)
	}
}

func TestTally(t *testing.T) { t.Parallel(); rapid.Check(t, testTally) }

// TestTallyEdges: each edge value on its own, and the zero Tally.
func TestTallyEdges(t *testing.T) {
	t.Parallel()
	if !(check.Tally{}).Valid() {
		t.Error("the zero Tally is not Valid")
	}
	for _, c := range []struct {
		x    float64
		want bool
	}{
		{0, true}, {math.Copysign(0, -1), false}, {5e-324, true}, {1, true}, {math.MaxFloat64, true},
		{math.Inf(1), false}, {math.NaN(), false}, {math.Inf(-1), false}, {-5e-324, false}, {-1, false}, {-math.MaxFloat64, false},
	} {
		if got := (check.Tally{}).With(1).With(c.x).With(2).Valid(); got != c.want {
			t.Errorf("Tally of 1, %v, 2: Valid = %v, want %v", c.x, got, c.want)
		}
	}
}

// testCopyTally: a CopyTally that has seen counts is Within exactly when
// every count lies in [1, 2^31], and Single exactly when every count is 1,
// whatever the order (the tests written with ifs).
func testCopyTally(t *rapid.T) {
	edges := []int{math.MinInt, -1, 0, 1, 2, 3, 1 << 30, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1 << 32, 1 << 53, math.MaxInt}
	counts := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(edges), rapid.IntRange(1, 5)), 0, 20).Draw(t, "counts")
	within, single := true, true
	var tally check.CopyTally
	for _, c := range counts {
		tally = tally.With(c)
		within = within && c >= 1 && c <= 1<<31
		single = single && c == 1
	}
	if tally.Within() != within || tally.Single() != single {
		t.Fatalf("CopyTally over %v: Within %v, Single %v; want %v, %v", counts, tally.Within(), tally.Single(), within, single)
	}
}

func TestCopyTally(t *testing.T) { t.Parallel(); rapid.Check(t, testCopyTally) }
