package online_test

import (
	"math"
	"testing"

	"github.com/specsched/specsched/online"
)

// TestFairNextAtTheCut: Next's rule at its bound, on the job where case 1's
// fill stops. β = 2 (V = T), ε 0.5, 12 slots, jobs A, B, C of 1, 9 and 20
// tasks: f = 0.5·12/3 = 2; A's V = 1 ≤ f and B's 9 > f, so m₁ is B; the
// jobs from m₁ on have V 29, and 29 + 1·f ≥ 12: case 1 (fairness.Allocate's
// doc). Every job gets f, and the S − N·f = 6 left go in order to the jobs
// from m₁ on, up to V − f each: B could take 7, so B takes all 6 and is the
// cut-off job. Shares 2, 8, 2, each exact. Holding 2, 7 and 0, A holds its
// share, B is exactly one whole slot short (7 ≤ 8 − 1) and so is C (0 ≤ 2 −
// 1): the first whole slot short in (T, id) order is B, Next's doc rule.
// (Counting B as short by a fraction only would hand the slot to C.)
func TestFairNextAtTheCut(t *testing.T) {
	t.Parallel()
	f, err := online.NewFair(12, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	var ids [3]int
	for k, tasks := range []float64{1, 9, 20} {
		if ids[k], err = f.Add(tasks); err != nil {
			t.Fatal(err)
		}
	}
	for k, want := range []float64{2, 8, 2} {
		if got, err := f.Target(ids[k]); err != nil || math.Abs(got-want) > caseTol {
			t.Fatalf("job %c: share %v, %v; want %v", 'A'+k, got, err, want)
		}
	}
	for k, held := range []int{2, 7, 0} {
		if err := f.SetHeld(ids[k], held); err != nil {
			t.Fatal(err)
		}
	}
	if next, ok := f.Next(); !ok || next != ids[1] {
		t.Errorf("Next = %d, %v; want B (%d), the first a whole slot short", next, ok, ids[1])
	}
	// With B at its share, C is next.
	if err := f.SetHeld(ids[1], 8); err != nil {
		t.Fatal(err)
	}
	if next, ok := f.Next(); !ok || next != ids[2] {
		t.Errorf("B at its share: Next = %d, %v; want C (%d)", next, ok, ids[2])
	}
}
