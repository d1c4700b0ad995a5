package probe

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// refLWL places each task by a linear argmin scan (first index on ties).
func refLWL(workLeft []float64, tasks int, est float64) []int {
	w := append([]float64(nil), workLeft...)
	out := make([]int, tasks)
	for k := range out {
		best := 0
		for i := range w {
			if w[i] < w[best] {
				best = i
			}
		}
		out[k] = best
		w[best] += est
	}
	return out
}

// testPlaceLWL compares the heap with the argmin scan (quarter values keep
// the sums exact, so ties are real ties) and checks the input is kept.
func testPlaceLWL(t *rapid.T) {
	n := rapid.IntRange(1, 40).Draw(t, "nodes")
	work := make([]float64, n)
	for i := range work {
		work[i] = quarters(t, 20, "workLeft")
	}
	tasks := rapid.IntRange(0, 80).Draw(t, "tasks")
	est := quarters(t, 10, "estTask")
	before := append([]float64(nil), work...)
	var ws Workspace
	got, err := PlaceLWL(make([]int, 3), work, tasks, est, &ws)
	if err != nil {
		t.Fatalf("PlaceLWL: %v", err)
	}
	if d := cmp.Diff(before, work); d != "" {
		t.Fatalf("workLeft modified:\n%s", d)
	}
	if d := cmp.Diff(refLWL(work, tasks, est), got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("placement (-argmin +heap):\n%s", d)
	}
}

func TestPlaceLWL(t *testing.T) { t.Parallel(); rapid.Check(t, testPlaceLWL) }

func TestPlaceLWLWorked(t *testing.T) {
	t.Parallel()
	// Work left 10, 0, 4; three tasks of 5: node 1 (0→5), node 1? no:
	// after the first, loads are 10, 5, 4 → node 2 (→9), then 10, 5, 9 →
	// node 1.
	got, err := PlaceLWL(nil, []float64{10, 0, 4}, 3, 5, nil)
	if err != nil || !cmp.Equal(got, []int{1, 2, 1}) {
		t.Fatalf("got %v, %v; want [1 2 1]", got, err)
	}
}

func testPlaceLWLNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 5).Draw(t, "nodes")
	work := make([]float64, n)
	for i := range work {
		work[i] = anyFloat(t, "workLeft")
	}
	tasks := rapid.IntRange(-2, 10).Draw(t, "tasks")
	est := anyFloat(t, "estTask")
	dst := []int{-9}
	got, err := PlaceLWL(dst, work, tasks, est, nil)
	if err != nil {
		if !isInputError(err) || got != nil || dst[0] != -9 {
			t.Fatalf("error %v, got %v, dst %v", err, got, dst)
		}
		return
	}
	for _, v := range got {
		if v < 0 || v >= n {
			t.Fatalf("node %d of %d", v, n)
		}
	}
}

func TestPlaceLWLNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testPlaceLWLNoPanic) }
func FuzzPlaceLWL(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testPlaceLWLNoPanic)) }
