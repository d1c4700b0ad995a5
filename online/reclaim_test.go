package online_test

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/online"
)

// reclaimCase is one worked example of Reclaim: the slots each job holds
// and the job, by index, Reclaim must name (−1: none).
type reclaimCase struct {
	name string
	held []int
	want int
}

// checkReclaim adds the jobs (add returns each one's id), checks their
// shares against the worked ones within caseTol, and then for each case
// sets the held slots and checks Reclaim.
func checkReclaim(t *testing.T, a interface {
	Target(id int) (float64, error)
	SetHeld(id, slots int) error
	Reclaim() (int, bool)
}, ids []int, shares []float64, cases []reclaimCase) {
	t.Helper()
	for k, want := range shares {
		if got, err := a.Target(ids[k]); err != nil || math.Abs(got-want) > caseTol {
			t.Fatalf("job %d: share %v, %v; want %v", k, got, err, want)
		}
	}
	for _, c := range cases {
		for k, held := range c.held {
			if err := a.SetHeld(ids[k], held); err != nil {
				t.Fatal(err)
			}
		}
		got, ok := a.Reclaim()
		want, wantOK := 0, c.want >= 0
		if wantOK {
			want = ids[c.want]
		}
		if ok != wantOK || ok && got != want {
			t.Errorf("%s: Reclaim = %d, %v; want %d, %v", c.name, got, ok, want, wantOK)
		}
	}
}

// TestFairReclaim: Reclaim on worked examples of both of Algorithm 2's
// cases (fairness.Allocate's doc), β = 2 (V = T), ε = 0.5.
//
// Case 1, 12 slots, jobs A, B, C of 1, 9 and 20 tasks and D of 0: N = 3
// active jobs, f = 0.5·12/3 = 2; m₁ is B (V 9 > f), and 29 + 1·f ≥ 12:
// case 1. Every active job gets f and the 6 left go to B (up to V − f =
// 7): shares 2, 8, 2, and 0 for D, which comes first in (T, id) order.
// The last job over its share: C if it holds more than 2, else B if more
// than 8, else A if more than 2, else D if it holds a slot.
//
// Case 2, 24 slots, jobs E, F, G of 1, 1 and 10 tasks: f = 0.5·24/3 = 4;
// m₁ is G, and 10 + 2·f = 18 < 24: case 2. m₂: E's proportional share of
// all, 1/12·24 = 2 < f, F's of what E's floor leaves, 1/11·20 < f, G's of
// what both floors leave, 10/10·16 = 16 ≥ f: m₂ is G. Shares 4, 4, 16.
func TestFairReclaim(t *testing.T) {
	t.Parallel()
	newFair := func(slots float64, tasks ...float64) (*online.Fair, []int) {
		f, err := online.NewFair(slots, 2, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]int, len(tasks))
		for k, v := range tasks {
			if ids[k], err = f.Add(v); err != nil {
				t.Fatal(err)
			}
		}
		return f, ids
	}
	f, ids := newFair(12, 1, 9, 20, 0)
	checkReclaim(t, f, ids, []float64{2, 8, 2, 0}, []reclaimCase{
		{"at the shares", []int{2, 8, 2, 0}, -1},
		{"A over its floor", []int{3, 8, 2, 0}, 0},
		{"A and the cut-off job B over", []int{3, 9, 2, 0}, 1},
		{"C, after the cut, over its floor", []int{3, 9, 3, 0}, 2},
		{"D, of no task, holding a slot", []int{2, 8, 2, 1}, 3},
		{"D and A", []int{3, 8, 2, 1}, 0},
		{"every job short", []int{0, 0, 0, 0}, -1},
	})
	// No slots: every share is 0, and the last job holding one is over.
	if err := f.SetSlots(0); err != nil {
		t.Fatal(err)
	}
	checkReclaim(t, f, ids, []float64{0, 0, 0, 0}, []reclaimCase{
		{"no slots, B holding", []int{0, 1, 0, 0}, 1},
		{"no slots, none holding", []int{0, 0, 0, 0}, -1},
	})

	f, ids = newFair(24, 1, 1, 10)
	checkReclaim(t, f, ids, []float64{4, 4, 16}, []reclaimCase{
		{"at the shares", []int{4, 4, 16}, -1},
		{"E over its floor", []int{5, 4, 16}, 0},
		{"F over its floor", []int{4, 5, 15}, 1},
		{"G over its proportional share", []int{5, 5, 17}, 2},
	})
}

// TestClassesReclaim: Reclaim on worked examples of the water-fill
// (stragglers.Allocate; Classes' shareOf).
//
// No speculation's case, 10 slots: A of β 1.25 and 1 task (w = T/√0.25 =
// 2), B of β 3 and 2 tasks (class 2, V = 2), C of β 1.25 and 0 tasks. The
// level passes class 1.25's end (Σw/√a(2) = 2 < 10) and stops at class 2,
// and 10 > 2 + ΣV: class 2 holds V = 2 and class 1.25 shares the other 8
// ∝ w: A 8, B 2, C 0. Compare's order: C, A (class 1.25, by T), B.
//
// Algorithm 1 in class 2, 4 slots: D, E, F of β 3 and 2, 5 and 9 tasks.
// Σw = 0 before the class: it shares all 4 by Algorithm 1 with c = 1,
// capacity-constrained (ΣV = 16 ≥ 4): D gets 2, E, the cut-off job, the
// 2 left, F 0.
func TestClassesReclaim(t *testing.T) {
	t.Parallel()
	newClasses := func(slots float64, jobs ...[2]float64) (*online.Classes, []int) {
		c, err := online.NewClasses(slots)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]int, len(jobs))
		for k, j := range jobs {
			if ids[k], err = c.Add(j[0], j[1]); err != nil {
				t.Fatal(err)
			}
		}
		return c, ids
	}
	c, ids := newClasses(10, [2]float64{1, 1.25}, [2]float64{2, 3}, [2]float64{0, 1.25})
	checkReclaim(t, c, ids, []float64{8, 2, 0}, []reclaimCase{
		{"at the shares", []int{8, 2, 0}, -1},
		{"A over", []int{9, 2, 0}, 0},
		{"A and B over", []int{9, 3, 0}, 1},
		{"C, of no task, holding", []int{8, 2, 1}, 2},
		{"C and A: A comes later", []int{9, 2, 1}, 0},
	})

	c, ids = newClasses(4, [2]float64{2, 3}, [2]float64{5, 3}, [2]float64{9, 3})
	checkReclaim(t, c, ids, []float64{2, 2, 0}, []reclaimCase{
		{"at the shares", []int{2, 2, 0}, -1},
		{"D over its V", []int{3, 2, 0}, 0},
		{"the cut-off job E over", []int{3, 3, 0}, 1},
		{"F, after the cut, holding", []int{2, 2, 1}, 2},
		{"E short, D over", []int{3, 1, 0}, 0},
	})
}

// TestClassesAtTheBounds: Next and Reclaim on jobs holding exactly their
// share, or exactly one slot less, where the rules' ≤ and < decide.
// Class 2 alone (β 3, c = 1), 4.5 slots: D of 2 tasks and E of 5.
// Algorithm 1 in the class, capacity-constrained (ΣV = 7 ≥ 4.5): D gets
// V = 2, E, the cut-off job, the 2.5 left. D's share is per task (1 per
// task, before the cut), E's a constant (the cut's own).
//
//   - D 1, E 1: both a whole slot short (D: 1 ≤ 2 − 1, at the bound; E:
//     1 ≤ 1.5): Next is D, the first.
//   - D 2, E 3: D holds its share exactly (not short, not over), E is
//     over: Next none, Reclaim E.
//   - D 2, E 2: D at its share, E short by a half: Next E, Reclaim none.
//   - D 3, E 1: E a whole slot short (1 ≤ 1.5), D over: Next E, Reclaim
//     D.
//
// Then 4 slots: D 2, E the 2 left (shares 2, 2, both exact).
//
//   - D 1, E 1: both exactly a whole slot short: Next D.
//   - D 2, E 2: Next none, Reclaim none.
//   - D 2, E 1: E exactly a whole slot short: Next E.
func TestClassesAtTheBounds(t *testing.T) {
	t.Parallel()
	c, err := online.NewClasses(4.5)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := c.Add(2, 3)
	e, _ := c.Add(5, 3)
	check := func(slots float64, held [2]int, next, back int) {
		t.Helper()
		_ = c.SetHeld(d, held[0])
		_ = c.SetHeld(e, held[1])
		n, ok := c.Next()
		if !ok {
			n = -1
		}
		r, ok := c.Reclaim()
		if !ok {
			r = -1
		}
		if n != next || r != back {
			t.Errorf("%v slots, held %v: Next %d, Reclaim %d; want %d, %d", slots, held, n, r, next, back)
		}
	}
	for k, want := range []float64{2, 2.5} {
		if got, _ := c.Target([]int{d, e}[k]); got != want {
			t.Fatalf("4.5 slots: job %d's share %v, want %v", k, got, want)
		}
	}
	check(4.5, [2]int{1, 1}, d, -1)
	check(4.5, [2]int{2, 3}, -1, e)
	check(4.5, [2]int{2, 2}, e, -1)
	check(4.5, [2]int{3, 1}, e, d)
	if err := c.SetSlots(4); err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{2, 2} {
		if got, _ := c.Target([]int{d, e}[k]); got != want {
			t.Fatalf("4 slots: job %d's share %v, want %v", k, got, want)
		}
	}
	check(4, [2]int{1, 1}, d, -1)
	check(4, [2]int{2, 2}, -1, -1)
	check(4, [2]int{2, 1}, e, -1)
}

// testExactBounds: where every share is a whole number, exact in float64,
// Next and Reclaim follow their rules to the slot, with no tolerance:
// Algorithm 1 without speculation in its capacity-constrained case, as
// Classes' class 2 (β 3) and as Fair with ε = 1 and β = 2 — jobs of whole
// remaining tasks T_i, S ≤ ΣT whole slots: in (T, id) order each job gets
// T_i until the slots run out, the cut-off job what is left, the rest 0
// (worked out here by that rule, not by the package). Each job holds its
// share, one slot less or more, or none, so many sit exactly on a bound
// (held = S_i − 1 is a whole slot short; held = S_i is neither short nor
// over), over many tree shapes. Next: the first job a whole slot short,
// else the first short at all; Reclaim: the last over.
func testExactBounds(t *rapid.T) {
	tasks := rapid.SliceOfN(rapid.IntRange(0, 6), 1, 24).Draw(t, "tasks")
	total := 0
	for _, v := range tasks {
		total += v
	}
	slots := rapid.IntRange(0, total).Draw(t, "slots")
	var a interface {
		SetHeld(id, slots int) error
		Next() (int, bool)
		Reclaim() (int, bool)
	}
	if rapid.Bool().Draw(t, "fair") {
		f, _ := online.NewFair(float64(slots), 2, 1)
		for _, v := range tasks {
			_, _ = f.Add(float64(v))
		}
		a = f
	} else {
		c, _ := online.NewClasses(float64(slots))
		for _, v := range tasks {
			_, _ = c.Add(float64(v), 3)
		}
		a = c
	}
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return tasks[i] - tasks[j] })
	shares := make([]int, len(tasks))
	left := slots
	for _, id := range order {
		shares[id] = min(tasks[id], left)
		left -= shares[id]
	}
	held := make([]int, len(tasks))
	for id := range held {
		held[id] = max(0, shares[id]+rapid.IntRange(-2, 1).Draw(t, "offset"))
		if err := a.SetHeld(id, held[id]); err != nil {
			t.Fatal(err)
		}
	}
	want, wantOK := -1, false
	for _, whole := range []bool{true, false} {
		for _, id := range order {
			if tasks[id] > 0 && (whole && held[id] <= shares[id]-1 || !whole && held[id] < shares[id]) {
				want, wantOK = id, true
				break
			}
		}
		if wantOK {
			break
		}
	}
	if got, ok := a.Next(); ok != wantOK || ok && got != want {
		t.Fatalf("Next = %d, %v; want %d, %v (shares %v, held %v)", got, ok, want, wantOK, shares, held)
	}
	want, wantOK = -1, false
	for k := len(order) - 1; k >= 0; k-- {
		if id := order[k]; held[id] > shares[id] {
			want, wantOK = id, true
			break
		}
	}
	if got, ok := a.Reclaim(); ok != wantOK || ok && got != want {
		t.Fatalf("Reclaim = %d, %v; want %d, %v (shares %v, held %v)", got, ok, want, wantOK, shares, held)
	}
}

func TestExactBounds(t *testing.T) { t.Parallel(); rapid.Check(t, testExactBounds) }

// FuzzExactBounds fuzzes testExactBounds.
func FuzzExactBounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testExactBounds)) }

// TestClassesOneClass: the water-fill of jobs all of one class is
// Algorithm 1 in that class (stragglers.Allocate's doc), worked by hand.
//
// Class 1.5 (c = 4/3), 6 slots: A of 3 tasks (V = 4) and B of 6 (V = 8),
// capacity-constrained: A gets 4, B, the cut-off job, the 2 left. A's
// share is per unit of its weight w = T/√0.5 (before the cut), B's the
// cut's constant. A holding 5 is over (Reclaim A), and with B at its 2 no
// job is short (Next none).
//
// Class 2 (β 3, c = 1), 8 slots: C of 1 task, D of 3, ΣV = 4 < 8: the
// proportional case, shares T/ΣT·S = 2 and 6.
func TestClassesOneClass(t *testing.T) {
	t.Parallel()
	c, _ := online.NewClasses(6)
	a, _ := c.Add(3, 1.5)
	b, _ := c.Add(6, 1.5)
	checkReclaim(t, c, []int{a, b}, []float64{4, 2}, []reclaimCase{
		{"A over", []int{5, 2}, 0},
		{"B over", []int{4, 3}, 1},
	})
	_ = c.SetHeld(a, 5)
	_ = c.SetHeld(b, 2)
	if next, ok := c.Next(); ok {
		t.Errorf("class 1.5, A over, B at its share: Next = %d, want none", next)
	}
	p, _ := online.NewClasses(8)
	x, _ := p.Add(1, 3)
	y, _ := p.Add(3, 3)
	checkReclaim(t, p, []int{x, y}, []float64{2, 6}, []reclaimCase{
		{"C over", []int{3, 5}, 0},
		{"at the shares", []int{2, 6}, -1},
	})
}
