package selection_test

import (
	"cmp"
	"math"
	"math/bits"
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
	// NthOrdered runs the same quickselect under <: the same permutation.
	ordered := slices.Clone(xs)
	selection.NthOrdered(ordered, k)
	if !slices.Equal(ordered, got) {
		t.Fatalf("NthOrdered: %v, NthElement: %v", ordered, got)
	}
}

// TestNthOrderedFloats: on floats with ties, signed zeros and infinities
// (no NaN), NthOrdered leaves exactly NthElement's permutation under
// cmp.Compare, bit for bit (−0 and +0 compare equal under both, and stay
// where NthElement leaves them), and the k-th smallest at k.
func TestNthOrderedFloats(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testNthOrderedFloats)
}

func testNthOrderedFloats(t *rapid.T) {
	values := rapid.SampledFrom([]float64{math.Copysign(0, -1), 0, 1, 1, 2.5, -3, 1e-300, 1e300, math.Inf(1), math.Inf(-1)})
	xs := rapid.SliceOfN(rapid.OneOf(values, rapid.Float64Range(-10, 10)), 1, 200).Draw(t, "xs")
	k := rapid.IntRange(0, len(xs)-1).Draw(t, "k")
	want := slices.Clone(xs)
	selection.NthElement(want, k, cmp.Compare[float64])
	got := slices.Clone(xs)
	selection.NthOrdered(got, k)
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("xs[%d] = %v, NthElement's %v (k = %d)", i, got[i], want[i], k)
		}
	}
	if sorted := slices.Sorted(slices.Values(xs)); got[k] != sorted[k] {
		t.Fatalf("xs[%d] = %v, want %v", k, got[k], sorted[k])
	}
}

// antiSelect builds, by McIlroy's adversary ("A killer adversary for
// quicksort", 1999), an input of n values on which NthElement for rank k
// picks a near-smallest pivot at every round: the values are decided
// lazily, as the comparisons ask for them, so that each pivot is among the
// least of what is left.
func antiSelect(n, k int) []int {
	gas := n
	val := make([]int, n)
	for i := range val {
		val[i] = gas
	}
	solid, candidate := 0, 0
	items := make([]int, n)
	for i := range items {
		items[i] = i
	}
	selection.NthElement(items, k, func(x, y int) int {
		if val[x] == gas && val[y] == gas {
			if x == candidate {
				val[x], solid = solid, solid+1
			} else {
				val[y], solid = solid, solid+1
			}
		}
		if val[x] == gas {
			candidate = x
		} else if val[y] == gas {
			candidate = y
		}
		return cmp.Compare(val[x], val[y])
	})
	return val
}

// TestNthAdversary: on McIlroy's adversarial inputs the quickselect
// exhausts its 2·log2(n) rounds and sorts what is left, so that its cost
// stays O(n log n) — at most 3·n·log2(n) comparisons here, where a
// quickselect without the bound makes Θ(n²) — and NthOrdered, on the same
// input, leaves NthElement's permutation: its round budget is NthElement's.
func TestNthAdversary(t *testing.T) {
	t.Parallel()
	for _, n := range []int{64, 500, 4096} {
		for _, k := range []int{0, n / 2, n - 1} {
			xs := antiSelect(n, k)
			calls := 0
			got := slices.Clone(xs)
			selection.NthElement(got, k, func(a, b int) int { calls++; return cmp.Compare(a, b) })
			if bound := 3 * n * bits.Len(uint(n)); calls > bound {
				t.Errorf("n = %d, k = %d: %d comparisons, more than %d", n, k, calls, bound)
			}
			if want := slices.Sorted(slices.Values(xs))[k]; got[k] != want {
				t.Errorf("n = %d, k = %d: xs[k] = %d, want %d", n, k, got[k], want)
			}
			ordered := slices.Clone(xs)
			selection.NthOrdered(ordered, k)
			if !slices.Equal(ordered, got) {
				t.Errorf("n = %d, k = %d: NthOrdered's permutation differs from NthElement's", n, k)
			}
		}
	}
}

// TestNthOrderedPermutations: on 3000 random permutations of 13 to 300
// values NthOrdered leaves NthElement's permutation — among them inputs on
// which the selection uses more than half its round budget and stops at a
// pivot equal to the k-th, leaving what it did not sort unsorted, where a
// smaller budget would have sorted it.
func TestNthOrderedPermutations(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		n := 13 + rng.IntN(288)
		xs := rng.Perm(n)
		k := rng.IntN(n)
		want := slices.Clone(xs)
		selection.NthElement(want, k, cmp.Compare[int])
		selection.NthOrdered(xs, k)
		if !slices.Equal(xs, want) {
			t.Fatalf("n = %d, k = %d: NthOrdered's permutation differs from NthElement's", n, k)
		}
	}
}

// FuzzNthOrderedFloats is TestNthOrderedFloats's property as a fuzz target.
func FuzzNthOrderedFloats(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testNthOrderedFloats)) }

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
