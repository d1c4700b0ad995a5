package selection_test

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// exactPrec holds any sum of up to a few thousand products of two float64
// values exactly (exponents 2^−2148 … 2^2048).
const exactPrec = 4400

// exactWeight is max(0, A·v + B) in exact arithmetic.
func exactWeight(w selection.Weight, v float64) *big.Float {
	x := new(big.Float).SetPrec(exactPrec).SetFloat64(w.A)
	x.Mul(x, new(big.Float).SetFloat64(v))
	x.Add(x, new(big.Float).SetFloat64(w.B))
	if x.Sign() < 0 {
		x.SetInt64(0)
	}
	return x
}

// exactScale is |A|·|v| + |B| exactly: what a float evaluation of A·v + B,
// alone or summed over a bucket as A·Σv + B·count, rounds relative to.
func exactScale(w selection.Weight, v float64) *big.Float {
	x := new(big.Float).SetPrec(exactPrec).SetFloat64(math.Abs(w.A))
	x.Mul(x, new(big.Float).SetFloat64(math.Abs(v)))
	return x.Add(x, new(big.Float).SetFloat64(math.Abs(w.B)))
}

// checkSum fails unless got is the float64 of the exact weight sum want of
// count values, to within 2^−40 of the sum of their scales (float sums and
// the buckets' A·Σv + B·count round relative to it) plus an underflow of
// 2^−1074 per value and operation: a sum past MaxFloat64 (to that
// tolerance) may be +Inf, nothing else may be infinite or NaN.
func checkSum(t *rapid.T, what string, got float64, want, scale *big.Float, count int) {
	tol := new(big.Float).SetPrec(exactPrec).SetMantExp(scale, -40)
	tol.Add(tol, new(big.Float).SetMantExp(big.NewFloat(float64(4*count)), -1074))
	if math.IsInf(got, 1) {
		reach := new(big.Float).SetPrec(exactPrec).Add(want, tol)
		if reach.Cmp(big.NewFloat(math.MaxFloat64)) < 0 {
			t.Fatalf("%s: +Inf, exact sum %s", what, want.Text('g', 10))
		}
		return
	}
	if math.IsNaN(got) || math.IsInf(got, 0) {
		t.Fatalf("%s: %v, exact sum %s", what, got, want.Text('g', 10))
	}
	diff := new(big.Float).SetPrec(exactPrec).SetFloat64(got)
	diff.Sub(diff, want)
	if diff.Abs(diff).Cmp(tol) > 0 {
		t.Fatalf("%s: %v, exact sum %s (tolerance %s)", what, got, want.Text('g', 17), tol.Text('g', 3))
	}
}

// drawMagnitudeWeight draws a weight for vals: A and B of either sign and
// any magnitude, 0, Count, or a B that puts the kink of max(0, A·v + B)
// exactly at one of the values (the shape of Algorithm 2's top-ups
// c·T − f); A·v + B is finite for every value (Search's precondition).
func drawMagnitudeWeight(t *rapid.T, vals []float64) selection.Weight {
	signed := func(label string) float64 {
		x := testutil.Magnitude().Draw(t, label)
		if rapid.Bool().Draw(t, label+"Negative") {
			return -x
		}
		return x
	}
	var w selection.Weight
	switch rapid.IntRange(0, 3).Draw(t, "weightKind") {
	case 0:
		w = selection.Count
	case 1:
		w = selection.Weight{A: signed("a"), B: signed("b")}
	case 2:
		w = selection.Weight{A: signed("a")}
	default:
		w.A = signed("a")
		if len(vals) > 0 {
			w.B = -w.A * vals[rapid.IntRange(0, len(vals)-1).Draw(t, "kinkAt")]
		}
	}
	for _, v := range vals {
		if x := w.A*v + w.B; math.IsInf(w.A*v, 0) || math.IsInf(x, 0) {
			t.Skip("A·v + B overflows")
		}
	}
	return w
}

// testSearchMagnitudes: values from anywhere in float64's range (subnormals,
// MaxFloat64, exact ties; all positive, all negative or mixed) and weights
// of any magnitude and sign (A·v + B finite, the domain Weight documents). For every count k, the search for the group
// holding the k-th smallest value finds the sorted order's group, and the
// weight sums before and in it are the exact sums (math/big) to rounding —
// finite unless the exact sum passes MaxFloat64 — whichever path the
// histogram takes (positive values and a linear weight, a constant weight,
// a linear or a clamped one).
func testSearchMagnitudes(t *rapid.T) {
	vals := testutil.Magnitudes(0, 200).Draw(t, "vals")
	switch rapid.IntRange(0, 2).Draw(t, "signs") {
	case 1:
		for i := range vals {
			vals[i] = -vals[i]
		}
	case 2:
		for i := range vals {
			if rapid.Bool().Draw(t, "negative") {
				vals[i] = -vals[i]
			}
		}
	}
	w := drawMagnitudeWeight(t, vals)
	orig := slices.Clone(vals)

	sorted := slices.Clone(vals)
	slices.SortFunc(sorted, cmp.Compare[float64]) // −0 before +0: both are one group
	var ws selection.Workspace
	for k := 1; k <= len(vals)+1; k++ {
		got := selection.Search(&ws, vals, w, func(incl selection.Stats, _ float64, _ bool) bool {
			return incl.Count >= k
		})
		// The reference: the group of the k-th smallest value, its count
		// and the counts and exact sums before and in it.
		before, group := new(big.Float).SetPrec(exactPrec), new(big.Float).SetPrec(exactPrec)
		beforeScale, groupScale := new(big.Float).SetPrec(exactPrec), new(big.Float).SetPrec(exactPrec)
		nBefore, nGroup := 0, 0
		for _, v := range sorted {
			if k > len(vals) || v < sorted[k-1] {
				before.Add(before, exactWeight(w, v))
				beforeScale.Add(beforeScale, exactScale(w, v))
				nBefore++
			} else if v == sorted[k-1] {
				group.Add(group, exactWeight(w, v))
				groupScale.Add(groupScale, exactScale(w, v))
				nGroup++
			}
		}
		if k > len(vals) {
			if got.Found || got.Before.Count != len(vals) {
				t.Fatalf("k = %d > n: %+v", k, got)
			}
			checkSum(t, "Before.Sum of all", got.Before.Sum, before, beforeScale, nBefore)
			continue
		}
		want := sorted[k-1] + 0
		if !got.Found || got.Value != want || math.Signbit(got.Value) != math.Signbit(want) ||
			got.Before.Count != nBefore || got.Group.Count != nGroup {
			t.Fatalf("k = %d: %+v, want value %v with %d before, %d in the group", k, got, want, nBefore, nGroup)
		}
		checkSum(t, "Before.Sum", got.Before.Sum, before, beforeScale, nBefore)
		checkSum(t, "Group.Sum", got.Group.Sum, group, groupScale, nGroup)
	}
	if !slices.EqualFunc(vals, orig, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
		t.Fatal("Search modified its input")
	}
}

func TestSearchMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testSearchMagnitudes) }
