package selection_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/selection"
)

func testNthElement(t *rapid.T) {
	xs := rapid.SliceOfN(rapid.OneOf(rapid.IntRange(0, 3), rapid.IntRange(-1000, 1000)), 1, 300).Draw(t, "xs")
	switch rapid.IntRange(0, 4).Draw(t, "shape") {
	case 1:
		slices.Sort(xs) // sorted
	case 2:
		slices.Sort(xs)
		slices.Reverse(xs)
	case 3: // organ pipe
		slices.Sort(xs)
		slices.Reverse(xs[len(xs)/2:])
	}
	k := rapid.IntRange(0, len(xs)-1).Draw(t, "k")
	sorted := slices.Sorted(slices.Values(xs))
	got := slices.Clone(xs)
	selection.NthElement(got, k, cmp.Compare[int])
	if got[k] != sorted[k] {
		t.Fatalf("xs[%d] = %d, want %d", k, got[k], sorted[k])
	}
	for i, x := range got {
		if i < k && x > got[k] || i > k && x < got[k] {
			t.Fatalf("xs[%d] = %d on the wrong side of xs[%d] = %d", i, x, k, got[k])
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(got)), sorted) {
		t.Fatal("not a permutation")
	}
}

// TestNthElement: the selection puts the k-th smallest at k and splits the
// rest around it, on random, sorted, reversed and organ-pipe inputs with
// many ties, against a sort.
func TestNthElement(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testNthElement)
}

// TestNthElementComparisons bounds the selection's work on adversarial
// shapes of n = 2^14 elements — sorted, reversed, all equal, organ pipe,
// few distinct values, random — for the median and an extreme rank: at
// most 6n comparisons (each shape takes under 3n with the pseudo-random
// median-of-three pivots; fixed positions took 32n on a sorted input, and
// an O(n²) behaviour would exceed the bound by three orders of
// magnitude).
func TestNthElementComparisons(t *testing.T) {
	t.Parallel()
	const n = 1 << 14
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(i int) int{
		"sorted":     func(i int) int { return i },
		"reversed":   func(i int) int { return n - i },
		"equal":      func(int) int { return 7 },
		"organ pipe": func(i int) int { return min(i, n-i) },
		"few values": func(i int) int { return i % 3 },
		"random":     func(int) int { return rng.IntN(n) },
	}
	for name, shape := range shapes {
		for _, k := range []int{0, n / 2, n - 1} {
			xs := make([]int, n)
			for i := range xs {
				xs[i] = shape(i)
			}
			calls := 0
			count := func(a, b int) int { calls++; return cmp.Compare(a, b) }
			want := slices.Sorted(slices.Values(xs))[k]
			selection.NthElement(xs, k, count)
			if xs[k] != want || calls > 6*n {
				t.Errorf("%s, k = %d: xs[k] = %d (want %d), %d comparisons (bound %d)", name, k, xs[k], want, calls, 6*n)
			}
		}
	}
}

// TestMedian: Median is the middle of the sorted values, or the mean of the
// two middle ones for an even count, on values with ties and over every
// magnitude (MaxFloat64 pairs included: lo + (hi−lo)/2 does not overflow).
func TestMedian(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 1, 1, 2, 3.5, 1e-300, 1e300, math.MaxFloat64}), 1, 40).Draw(t, "xs")
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		n := len(sorted)
		want := sorted[n/2]
		if n%2 == 0 {
			want = sorted[n/2-1]/2 + sorted[n/2]/2
		}
		if got := selection.Median(xs); got != want && math.Abs(got-want) > 1e-15*math.Abs(want) {
			t.Fatalf("Median(%v) = %v, want %v", sorted, got, want)
		}
	})
}
