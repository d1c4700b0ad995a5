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

// TestMoveInPlace moves a job to a key between its neighbours in a leaf
// holding the fewest items a leaf may (bpWidth/4): move keeps it in place,
// so no node is merged — the same nodes in use, every job in its leaf —
// where taking it out first would leave the leaf short and merge it. The
// new key ties its right neighbour's T (the tie broken by the ids, as a
// leaf item's id is its kid).
func TestMoveInPlace(t *testing.T) {
	t.Parallel()
	h, _ := New(10, 1.5)
	for k := range bpWidth + 1 { // job k has k+1 tasks: two leaves, 8 and 9
		if _, err := h.Add(float64(k + 1)); err != nil {
			t.Fatal(err)
		}
	}
	for id := bpWidth / 4; id < bpWidth/2; id++ { // the first leaf down to 4
		if err := h.Remove(id); err != nil {
			t.Fatal(err)
		}
	}
	if d := h.depth(); d != 2 {
		t.Fatalf("depth %d, want 2", d)
	}
	leaf := h.jobs[1].leaf
	if n := h.nodes[leaf].n; n != bpWidth/4 {
		t.Fatalf("job 1's leaf holds %d, want %d", n, bpWidth/4)
	}
	inUse := len(h.nodes) - len(h.freeNodes)
	if err := h.Update(1, 3); err != nil { // job 2 has 3 tasks too
		t.Fatal(err)
	}
	if err := h.CheckTree(); err != nil {
		t.Fatal(err)
	}
	if got := len(h.nodes) - len(h.freeNodes); got != inUse {
		t.Fatalf("%d nodes in use after the move, %d before", got, inUse)
	}
	for id := range bpWidth / 4 {
		if h.jobs[id].leaf != leaf {
			t.Fatalf("job %d in leaf %d, want %d", id, h.jobs[id].leaf, leaf)
		}
	}
}
