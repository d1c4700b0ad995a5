package online_test

import (
	"errors"
	"math"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/online"
)

// TestFairM2AtLeafStart: Fair's case 2 with m₂ the first job of the second
// leaf, so that the search's descent finds no job in the first leaf and
// answers the next item's first job with the sums before it. 8 jobs of 1
// task and 9 of 100 (leaves of 8 and 9), 10⁴ slots, β = 2 (V = T), ε =
// 0.5: f = 0.5·10⁴/17; Σmax{f, V} = 17f = 5000 < S: case 2. A job of 1
// task, with k < 8 before it at the floor, gets 1·(S − k·f)/(908 − k) < f;
// a job of 100 after the 8 gets 100·(S − 8f)/900 ≈ 849.7 ≥ f: m₂ = job 8,
// the ones get f and the hundreds (S − 8f)/9 each.
func TestFairM2AtLeafStart(t *testing.T) {
	t.Parallel()
	const slots = 1e4
	f, err := online.NewFair(slots, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 17 {
		v := 1.0
		if k >= 8 {
			v = 100
		}
		if _, err := f.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	floor := 0.5 * slots / 17
	for id, got := range f.Snapshot(nil) {
		want := floor
		if id >= 8 {
			want = (slots - 8*floor) / 9
		}
		if math.Abs(got-want) > 1e-9*slots {
			t.Fatalf("job %d: share %v, want %v", id, got, want)
		}
	}
}

// TestFreedIDs: an id freed by Remove is not in use for Fair and Classes:
// Remove, Update, SetHeld and Target on it are InputErrors on "id"; its
// Held is 0, as is that of IDs() and −1 (not in use); Snapshot writes 0
// to it even in a dst that held something else there; Compare ranks it as
// a job of 0 tasks (class 0: before the jobs held).
func TestFreedIDs(t *testing.T) {
	t.Parallel()
	type allocator interface {
		Remove(id int) error
		SetHeld(id, slots int) error
		Held(id int) int
		Target(id int) (float64, error)
		Snapshot(dst []float64) []float64
		Compare(a, b int) int
		IDs() int
	}
	fair, _ := online.NewFair(10, 1.5, 0.5)
	classes, _ := online.NewClasses(10)
	for _, o := range []struct {
		name   string
		a      allocator
		add    func(float64) error
		update func(id int, v float64) error
	}{
		{"Fair", fair, func(v float64) error { _, err := fair.Add(v); return err }, fair.Update},
		{"Classes", classes, func(v float64) error { _, err := classes.Add(v, 1.5); return err },
			func(id int, v float64) error { return classes.Update(id, v, 1.5) }},
	} {
		a := o.a
		for _, v := range []float64{3, 1, 4} {
			if err := o.add(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.SetHeld(1, 2); err != nil {
			t.Fatal(err)
		}
		if err := a.Remove(1); err != nil {
			t.Fatal(err)
		}
		isID := func(event string, err error) {
			t.Helper()
			var ie *specsched.InputError
			if !errors.As(err, &ie) || ie.Field != "id" {
				t.Fatalf("%s: %s on the removed id 1: %v; want an InputError on id", o.name, event, err)
			}
		}
		isID("Remove", a.Remove(1))
		isID("Update", o.update(1, 5))
		isID("SetHeld", a.SetHeld(1, 1))
		_, err := a.Target(1)
		isID("Target", err)
		if a.Held(1) != 0 || a.Held(a.IDs()) != 0 || a.Held(-1) != 0 {
			t.Fatalf("%s: Held(1), Held(IDs()), Held(−1) = %d, %d, %d; want 0", o.name, a.Held(1), a.Held(a.IDs()), a.Held(-1))
		}
		dst := []float64{7, 7, 7}
		if got := a.Snapshot(dst); got[1] != 0 || got[0] == 0 || got[2] == 0 {
			t.Fatalf("%s: Snapshot into [7 7 7] with id 1 removed: %v", o.name, got)
		}
		if a.Compare(1, 0) != -1 || a.Compare(0, 1) != 1 {
			t.Fatalf("%s: Compare(1, 0), Compare(0, 1) = %d, %d; want −1, 1 (id 1: 0 tasks)", o.name, a.Compare(1, 0), a.Compare(0, 1))
		}
	}
}

// TestTieExact: at S = ΣV exactly both of Algorithm 1's cases give every
// job V_i, and the capacity-constrained case, taken at the tie (and
// within CaseTolerance), gives it exactly (alloc.CaseTolerance), where the
// proportional share T·S/ΣT rounds: 7/25·25 = 7 + 2^−50. Jobs of 7 and 18
// tasks on 25 slots: Fair at β = 2 (V = T) and ε = 1 (Algorithm 1), and
// Classes with both jobs of β = 2 (one class, V = T), give exactly 7 and
// 18.
func TestTieExact(t *testing.T) {
	t.Parallel()
	if seven, total := 7.0, 25.0; seven/total*total == seven { // at run time: a constant expression is exact
		t.Fatal("7/25·25 rounds to 7: the case does not tell the branches apart")
	}
	f, _ := online.NewFair(25, 2, 1)
	c, _ := online.NewClasses(25)
	for _, v := range []float64{7, 18} {
		if _, err := f.Add(v); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Add(v, 2); err != nil {
			t.Fatal(err)
		}
	}
	for name, got := range map[string][]float64{"Fair": f.Snapshot(nil), "Classes": c.Snapshot(nil)} {
		if got[0] != 7 || got[1] != 18 {
			t.Errorf("%s: shares %v at S = ΣV = 25; want exactly [7 18]", name, got)
		}
	}
}

// TestClassesCloseSlopes: the level stops at the first class at whose end
// Σw/√a(next class) ≥ S, a the next class's slope a(β) = β²/(4(β−1)), not
// a itself (the two differ for classes whose slopes are close: a(1.6) =
// 1.0667 > √a(1.5) = 1.0607). Jobs of 40 and 60 tasks of β = 1.5 (w =
// T/√0.5, Σw = 141.42) and one of 10 tasks of β = 1.6, on 133 slots:
// Σw/√a(1.6) = 136.93 ≥ 133, so the level stops at class 1.5 (Σw/a(1.6)
// = 132.58 would not), with no class before it: class 1.5 shares all 133
// by Algorithm 1, ΣV = (2/1.5)·100 = 133.33 ≥ 133: the job of 40 gets V =
// 80/1.5, the job of 60 the rest, 133 − 80/1.5, the job of β = 1.6 none.
func TestClassesCloseSlopes(t *testing.T) {
	t.Parallel()
	const slots = 133
	c, _ := online.NewClasses(slots)
	for _, j := range []struct{ t, beta float64 }{{40, 1.5}, {60, 1.5}, {10, 1.6}} {
		if _, err := c.Add(j.t, j.beta); err != nil {
			t.Fatal(err)
		}
	}
	want := []float64{80 / 1.5, slots - 80/1.5, 0}
	for id, got := range c.Snapshot(nil) {
		if math.Abs(got-want[id]) > 1e-9*slots {
			t.Fatalf("job %d: share %v, want %v (all: %v)", id, got, want[id], c.Snapshot(nil))
		}
	}
}
