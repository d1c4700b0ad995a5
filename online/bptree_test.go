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

// TestSpill: a job whose key falls in a full leaf goes in without a split
// when a sibling under the same parent has room. Two leaves under the root
// (jobs of 1 to 17 tasks: 8 and 9 jobs); the tree is checked (CheckTree)
// and the nodes in use counted after each step:
//   - the right leaf full, a key in its middle: its first job moves to the
//     end of the left leaf, no node is added;
//   - the right leaf full again, a key at the seam (between the left's last
//     and the right's first): the job goes to the left leaf, nothing moves;
//     and with the left leaf one short of full, it still takes one;
//   - in a second tree, the left leaf full, a key in its middle: its last
//     job moves to the front of the right leaf;
//   - both leaves full: a split, one node more.
func TestSpill(t *testing.T) {
	t.Parallel()
	inUse := func(h *Hopper) int { return len(h.nodes) - len(h.freeNodes) }
	add := func(t *testing.T, h *Hopper, counts ...float64) int {
		t.Helper()
		id := -1
		for _, c := range counts {
			var err error
			if id, err = h.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.CheckTree(); err != nil {
			t.Fatal(err)
		}
		return id
	}
	build := func(t *testing.T) (*Hopper, int32, int32) {
		h, _ := New(10, 1.5)
		for k := range bpWidth + 1 {
			add(t, h, float64(k+1))
		}
		l, r := h.jobs[0].leaf, h.jobs[bpWidth].leaf
		if h.depth() != 2 || l == r || h.nodes[l].n != bpWidth/2 || h.nodes[r].n != bpWidth/2+1 {
			t.Fatalf("depth %d, leaves of %d and %d jobs, want 2, %d and %d", h.depth(), h.nodes[l].n, h.nodes[r].n, bpWidth/2, bpWidth/2+1)
		}
		return h, l, r
	}
	t.Run("right full", func(t *testing.T) {
		h, l, r := build(t)
		for k := range bpWidth/2 - 1 { // the right leaf to bpWidth
			add(t, h, float64(100+k))
		}
		if h.nodes[r].n != bpWidth {
			t.Fatalf("right leaf holds %d, want %d", h.nodes[r].n, bpWidth)
		}
		first, nodes := h.nodes[r].kid[0], inUse(h)
		id := add(t, h, 12.5)
		if inUse(h) != nodes || h.jobs[first].leaf != l || h.jobs[id].leaf != r {
			t.Fatalf("nodes %d (were %d); job %d (the right leaf's first) in %d, want %d; the new job in %d, want %d",
				inUse(h), nodes, first, h.jobs[first].leaf, l, h.jobs[id].leaf, r)
		}
		// The seam: the left leaf's last job now has 9 tasks, the right's first 10.
		id = add(t, h, 9.5)
		if inUse(h) != nodes || h.jobs[id].leaf != l || h.nodes[r].n != bpWidth {
			t.Fatalf("nodes %d (were %d); the new job in %d, want the left leaf %d; right leaf holds %d, want %d",
				inUse(h), nodes, h.jobs[id].leaf, l, h.nodes[r].n, bpWidth)
		}
		// The left leaf one short of full takes one more: no split.
		for h.nodes[l].n < bpWidth-1 {
			add(t, h, 0.5)
		}
		add(t, h, 14.5)
		if inUse(h) != nodes || h.nodes[l].n != bpWidth || h.nodes[r].n != bpWidth {
			t.Fatalf("nodes %d (were %d); leaves of %d and %d jobs, want %d and %d", inUse(h), nodes, h.nodes[l].n, h.nodes[r].n, bpWidth, bpWidth)
		}
	})
	t.Run("left full", func(t *testing.T) {
		h, l, r := build(t)
		for k := range bpWidth / 2 { // the left leaf to bpWidth: 1/2, 1/3, …
			add(t, h, 1/float64(k+2))
		}
		if h.nodes[l].n != bpWidth {
			t.Fatalf("left leaf holds %d, want %d", h.nodes[l].n, bpWidth)
		}
		last, nodes := h.nodes[l].kid[bpWidth-1], inUse(h)
		id := add(t, h, 4.5)
		if inUse(h) != nodes || h.jobs[last].leaf != r || h.nodes[r].kid[0] != last || h.jobs[id].leaf != l {
			t.Fatalf("nodes %d (were %d); job %d (the left leaf's last) in %d at item %d, want %d at 0; the new job in %d, want %d",
				inUse(h), nodes, last, h.jobs[last].leaf, h.indexIn(h.jobs[last].leaf, last), r, h.jobs[id].leaf, l)
		}
		for h.nodes[r].n < bpWidth { // both full
			add(t, h, 1000)
		}
		for h.nodes[l].n < bpWidth {
			add(t, h, 0.01)
		}
		add(t, h, 2.5)
		if inUse(h) != nodes+1 {
			t.Fatalf("both leaves full: %d nodes in use after an add, want %d (a split)", inUse(h), nodes+1)
		}
	})
}

// TestNodesReused: freed nodes are taken again before the store grows, so
// its length is the peak of the nodes in use, not the splits made. 2 000
// jobs, then 50 000 events of the completion stream (counts down, a job
// of one task replaced by a new one), the peak taken after every event.
func TestNodesReused(t *testing.T) {
	t.Parallel()
	h, _ := New(1000, 1.5)
	rng := rand.New(rand.NewPCG(3, 4))
	rem := make([]float64, 2000)
	for i := range rem {
		rem[i] = float64(1 + rng.IntN(100))
		if _, err := h.Add(rem[i]); err != nil {
			t.Fatal(err)
		}
	}
	peak := len(h.nodes) - len(h.freeNodes)
	for range 50_000 {
		j := rng.IntN(len(rem))
		if rem[j] > 1 {
			rem[j]--
			if err := h.Update(j, rem[j]); err != nil {
				t.Fatal(err)
			}
		} else {
			if err := h.Remove(j); err != nil {
				t.Fatal(err)
			}
			rem[j] = float64(1 + rng.IntN(100))
			if id, err := h.Add(rem[j]); err != nil || id != j {
				t.Fatalf("Add: id %d, error %v; want the id %d just freed", id, err, j)
			}
		}
		peak = max(peak, len(h.nodes)-len(h.freeNodes))
	}
	if err := h.CheckTree(); err != nil {
		t.Fatal(err)
	}
	if len(h.nodes) != peak {
		t.Fatalf("%d nodes stored, a peak of %d in use: freed nodes were not taken again", len(h.nodes), peak)
	}
	t.Logf("%d nodes stored, the peak in use", peak)
}
