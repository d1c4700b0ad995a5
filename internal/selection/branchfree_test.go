package selection

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestIndicator: the truth table.
func TestIndicator(t *testing.T) {
	t.Parallel()
	if Indicator(true) != 1 || Indicator(false) != 0 {
		t.Errorf("Indicator(true), Indicator(false) = %d, %d; want 1, 0", Indicator(true), Indicator(false))
	}
}

// testAppendIf: lists built by AppendIfBoth and AppendIfAll are the lists
// of the indices whose conditions all hold, in order (a filter written
// with an if).
func testAppendIf(t *rapid.T) {
	n := rapid.IntRange(0, 50).Draw(t, "n")
	both, all := make([]int, n), make([]int, n)
	nBoth, nAll := 0, 0
	var wantBoth, wantAll []int
	for i := range n {
		a, b, c := rapid.Bool().Draw(t, "a"), rapid.Bool().Draw(t, "b"), rapid.Bool().Draw(t, "c")
		nBoth = AppendIfBoth(both, nBoth, 100+i, a, b)
		nAll = AppendIfAll(all, nAll, 100+i, a, b, c)
		if a && b {
			wantBoth = append(wantBoth, 100+i)
			if c {
				wantAll = append(wantAll, 100+i)
			}
		}
	}
	if !slices.Equal(both[:nBoth], wantBoth) && nBoth+len(wantBoth) > 0 {
		t.Fatalf("AppendIfBoth lists %v, want %v", both[:nBoth], wantBoth)
	}
	if !slices.Equal(all[:nAll], wantAll) && nAll+len(wantAll) > 0 {
		t.Fatalf("AppendIfAll lists %v, want %v", all[:nAll], wantAll)
	}
}

func TestAppendIf(t *testing.T) { t.Parallel(); rapid.Check(t, testAppendIf) }

// testSmallest: Smallest keeps the entries a stable sort by key puts
// first, in at's order (the sort's definition of "n smallest, ties to the
// earlier entry"), and leaves the keys alone.
func testSmallest(t *rapid.T) {
	keys := values(t, "keys")
	n := rapid.IntRange(0, len(keys)).Draw(t, "n")
	at := make([]int, len(keys))
	for k := range at {
		at[k] = 7 * k // entries other than their positions
	}
	orig := slices.Clone(keys)
	smallest, largest := math.Inf(1), math.Inf(-1)
	for _, v := range keys {
		smallest, largest = min(smallest, v), max(largest, v)
	}
	var ws Workspace
	got := Smallest(&ws, at, keys, n, smallest, largest)
	if !slices.Equal(keys, orig) {
		t.Fatalf("Smallest modified keys")
	}
	order := make([]int, len(keys))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a]+0, keys[b]+0) }) // −0 as +0
	chosen := order[:n]
	slices.Sort(chosen)
	want := make([]int, 0, n)
	for _, k := range chosen {
		want = append(want, 7*k)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Smallest(n = %d) = %v, want %v", n, got, want)
	}
}

func TestSmallest(t *testing.T) { t.Parallel(); rapid.Check(t, testSmallest) }

// testSpan: a Span's Least and Most are the minimum and the maximum of the
// non-negative values it has seen (over float64's whole range, with +0,
// subnormals and MaxFloat64), in any order.
func testSpan(t *rapid.T) {
	xs := rapid.SliceOfN(rapid.OneOf(
		rapid.SampledFrom([]float64{0, 5e-324, 1, math.MaxFloat64}),
		rapid.Float64Range(0, 10),
		rapid.Float64Range(0, math.MaxFloat64),
	), 1, 30).Draw(t, "xs")
	var s Span
	least, most := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		s = s.With(x)
		least, most = min(least, x), max(most, x)
	}
	if s.Least() != least || s.Most() != most {
		t.Fatalf("Span of %v: [%v, %v], want [%v, %v]", xs, s.Least(), s.Most(), least, most)
	}
}

func TestSpan(t *testing.T) { t.Parallel(); rapid.Check(t, testSpan) }
