package online

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specsched/specsched/alloc"
)

// TestBPTreeCutRounding sets the slots to c times the root's items' ΣT up
// to and including item k, added as refresh adds them, so that the cut's
// search descends into item k's child; there the child's own items, added
// one by one, may stay below the slots by rounding, and the cut is then
// the child's last job (refresh's fallback). Every share must be
// alloc.Allocate's within 1e-9 of the slots, and some trials must reach
// the fallback.
func TestBPTreeCutRounding(t *testing.T) {
	t.Parallel()
	const tol = 1e-9 // of the slots, as shareTol
	rng := rand.New(rand.NewPCG(5, 8))
	fallbacks := 0
	for trial := range 2000 {
		h, _ := New(1, 1.5)
		counts := make([]float64, 40)
		for i := range counts {
			counts[i] = 0.1 + 7*rng.Float64()
			if _, err := h.Add(counts[i]); err != nil {
				t.Fatal(err)
			}
		}
		r := &h.nodes[h.root]
		if r.leaf {
			t.Fatalf("trial %d: 40 jobs in a leaf root", trial)
		}
		k := rng.IntN(r.n)
		before := 0.0
		for i := range k {
			before += r.sum[i]
		}
		slots := h.c * (before + r.sum[k])
		child := &h.nodes[r.kid[k]]
		sums := &child.sum // a leaf item's ΣT is its T
		if child.leaf {
			sums = &child.t
		}
		reached := false
		for i := range child.n {
			if h.c*(before+sums[i]) >= slots {
				reached = true
				break
			}
			before += sums[i]
		}
		if err := h.SetSlots(slots); err != nil {
			t.Fatal(err)
		}
		h.refresh()
		if !h.constrained || h.cut == none {
			t.Fatalf("trial %d: slots %v of c·ΣT %v: constrained %v, cut %d", trial, slots, h.c*h.sum, h.constrained, h.cut)
		}
		if !reached {
			fallbacks++
			if last := child.kid[child.n-1]; h.cut != last {
				t.Fatalf("trial %d: cut %d, want the child's last job %d", trial, h.cut, last)
			}
		}
		want, err := alloc.Allocate(nil, counts, slots, 1.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		for id, s := range h.Snapshot(nil) {
			if math.Abs(s-want[id]) > tol*slots {
				t.Fatalf("trial %d: job %d (cut %d) gets %v, alloc.Allocate %v", trial, id, h.cut, s, want[id])
			}
		}
	}
	if fallbacks == 0 {
		t.Fatalf("no trial of 2000 reached the fallback")
	}
	t.Logf("%d of 2000 trials reached the fallback", fallbacks)
}
