package selection

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestIndicatorAnd: the truth tables.
func TestIndicatorAnd(t *testing.T) {
	t.Parallel()
	if Indicator(true) != 1 || Indicator(false) != 0 {
		t.Errorf("Indicator(true), Indicator(false) = %d, %d; want 1, 0", Indicator(true), Indicator(false))
	}
	for _, a := range []bool{false, true} {
		for _, b := range []bool{false, true} {
			if got, want := And(a, b), a && b; got != want {
				t.Errorf("And(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// testAppendIf: a list built by AppendIf is the list of the kept indices,
// in order (a filter written with an if).
func testAppendIf(t *rapid.T) {
	keep := rapid.SliceOfN(rapid.Bool(), 0, 50).Draw(t, "keep")
	at := make([]int, len(keep))
	n := 0
	var want []int
	for i, k := range keep {
		n = AppendIf(at, n, 100+i, k)
		if k {
			want = append(want, 100+i)
		}
	}
	if !slices.Equal(at[:n], want) && n+len(want) > 0 {
		t.Fatalf("AppendIf lists %v, want %v", at[:n], want)
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
