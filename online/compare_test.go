package online_test

import (
	"cmp"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/online"
)

// testCompareOrder: Hopper's, Fair's and Classes' Compare are each a strict
// weak order — in fact total — on random jobs with tied counts and tied
// β, ids not in use included: Compare(a, a) = 0; Compare(a, b) =
// −Compare(b, a); a < b and b < c give a < c; and 0 only for a = b. Each
// is checked against its definition written out, (class, T, id) in
// lexicographic order, class min(β, 2) for Classes and none for the
// others; ids not in use as jobs of class 0 and 0 tasks.
func testCompareOrder(t *rapid.T) {
	n := rapid.IntRange(1, 8).Draw(t, "n")
	counts := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 1, 1, 2, 1e300, 1e-300}), n, n).Draw(t, "counts")
	betas := rapid.SliceOfN(rapid.SampledFrom([]float64{1.1, 1.5, 2, 3}), n, n).Draw(t, "betas")
	removed := rapid.IntRange(-1, n-1).Draw(t, "removed") // −1: none
	h, err := online.New(1, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	f, err := online.NewFair(1, 1.5, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	c, err := online.NewClasses(1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range counts {
		if _, err := h.Add(counts[i]); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Add(counts[i]); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Add(counts[i], betas[i]); err != nil {
			t.Fatal(err)
		}
	}
	if removed >= 0 {
		for _, rm := range []func(int) error{h.Remove, f.Remove, c.Remove} {
			if err := rm(removed); err != nil {
				t.Fatal(err)
			}
		}
	}
	type key struct{ class, t float64 }
	keyOf := func(id int, classes bool) key {
		if id < 0 || id >= n || id == removed {
			return key{}
		}
		if !classes {
			return key{0, counts[id]}
		}
		return key{min(betas[id], 2), counts[id]}
	}
	want := func(a, b int, classes bool) int {
		ka, kb := keyOf(a, classes), keyOf(b, classes)
		return cmp.Or(cmp.Compare(ka.class, kb.class), cmp.Compare(ka.t, kb.t), cmp.Compare(a, b))
	}
	ids := []int{-1, n, n + 3}
	for i := range n {
		ids = append(ids, i)
	}
	for _, o := range []struct {
		name    string
		compare func(a, b int) int
		classes bool
	}{{"Hopper", h.Compare, false}, {"Fair", f.Compare, false}, {"Classes", c.Compare, true}} {
		for _, a := range ids {
			for _, b := range ids {
				got := o.compare(a, b)
				if w := want(a, b, o.classes); got != w {
					t.Fatalf("%s.Compare(%d, %d) = %d, want %d", o.name, a, b, got, w)
				}
				if got != -o.compare(b, a) || (got == 0) != (a == b) {
					t.Fatalf("%s.Compare(%d, %d) = %d, Compare(%d, %d) = %d", o.name, a, b, got, b, a, o.compare(b, a))
				}
				for _, x := range ids {
					if got < 0 && o.compare(b, x) < 0 && o.compare(a, x) >= 0 {
						t.Fatalf("%s: %d < %d < %d but Compare(%d, %d) = %d", o.name, a, b, x, a, x, o.compare(a, x))
					}
				}
			}
		}
	}
}

func TestCompareOrder(t *testing.T) { t.Parallel(); rapid.Check(t, testCompareOrder) }

// FuzzCompareOrder fuzzes testCompareOrder.
func FuzzCompareOrder(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testCompareOrder)) }
