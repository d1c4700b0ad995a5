package online_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/online"
)

// rejected checks that err is an InputError on field and that h is as it
// was: the same shares (Snapshot, bit for bit, IDs() entries), the same
// number of jobs, and a tree that passes CheckTree.
func rejected(t *testing.T, h *online.Hopper, err error, field string, before []float64, jobs int) {
	t.Helper()
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Field != field {
		t.Fatalf("error %v; want an InputError on %s", err, field)
	}
	if after := h.Snapshot(nil); !slices.Equal(after, before) || h.Len() != jobs {
		t.Fatalf("a rejected event changed the state: shares %v → %v, %d jobs (want %d)", before, after, h.Len(), jobs)
	}
	if err := h.CheckTree(); err != nil {
		t.Fatalf("after a rejected event: %v", err)
	}
}

// TestRollbackAdd: an Add that Add's own check lets through — ΣT + T,
// summed in that order, is 0x1.ffffffffffffep+1023, below MaxFloat64 —
// but whose total in the tree's order, the counts added from the least
// ((T + a) + b), rounds to +Inf, is rejected and leaves nothing behind: not
// the id it took (a new one, or a freed one, which the next Add must take
// again), nor the job in the tree. The counts were found by a search over
// sums of floats near 2^1023; both orders are checked here in float64
// before the test relies on them.
func TestRollbackAdd(t *testing.T) {
	t.Parallel()
	a, b, c := 0x1.0000000000006p+1022, 0x1.ffffffffffff7p+1022, 0x1.0000000000001p+1022
	if check, tree := (a+b)+c, (c+a)+b; check >= math.MaxFloat64 || !math.IsInf(tree, 1) {
		t.Fatalf("the counts do not make the case: ΣT + T = %x, in the tree's order %v", check, tree)
	}
	for _, freed := range []bool{false, true} {
		h, err := online.New(10, 1.5)
		if err != nil {
			t.Fatal(err)
		}
		gone := -1
		if freed { // a job that leaves its id on the free list
			if gone, err = h.Add(1); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := h.Add(a); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Add(b); err != nil {
			t.Fatal(err)
		}
		if freed {
			if err := h.Remove(gone); err != nil {
				t.Fatal(err)
			}
		}
		ids, before := h.IDs(), h.Snapshot(nil)
		_, err = h.Add(c)
		rejected(t, h, err, "remaining", before, 2)
		if h.IDs() != ids {
			t.Fatalf("freed %v: IDs() %d after the rejected Add, %d before", freed, h.IDs(), ids)
		}
		want := ids // the next id, or the freed one again
		if freed {
			want = gone
		}
		if id, err := h.Add(0); err != nil || id != want {
			t.Fatalf("freed %v: Add(0) after the rejected Add: id %d, %v; want %d", freed, id, err, want)
		}
		if err := h.CheckTree(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRollbackUpdateTree is TestOverflowRollback's rejected Update (A =
// 2^1023, B = 1.5·2^969 updated to 2^1023 − 2^970: ΣT − old + new is
// MaxFloat64, the tree's sum +Inf) in a tree of two levels (40 jobs of 0
// tasks before them), checked down to the tree: every node and item as it
// was (CheckTree recomputes them from the jobs), not only the shares.
func TestRollbackUpdateTree(t *testing.T) {
	t.Parallel()
	h, err := online.New(10, 3)
	if err != nil {
		t.Fatal(err)
	}
	for range 40 {
		if _, err := h.Add(0); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := h.Add(0x1p1023)
	b, _ := h.Add(0x1.8p969)
	before := h.Snapshot(nil)
	rejected(t, h, h.Update(b, 0x1p1023-0x1p970), "remaining", before, 42)
	if h.Compare(a, b) != 1 {
		t.Fatalf("Compare(A, B) = %d after the rejected Update, want 1", h.Compare(a, b))
	}
	// The tree still works: B leaves, and a job of 2^1000 comes in.
	if err := h.Remove(b); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Add(0x1p1000); err != nil {
		t.Fatal(err)
	}
	if err := h.CheckTree(); err != nil {
		t.Fatal(err)
	}
}

// TestRemovedID: an id that was in use and was removed — in range, unlike
// the unknown ids of the state-machine tests — is refused by Update,
// Remove, SetHeld and Target (an InputError on "id", the state unchanged),
// reads as 0 tasks and 0 held (Compare, Held), and gets 0 in Snapshot.
func TestRemovedID(t *testing.T) {
	t.Parallel()
	h, err := online.New(20, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{3, 1, 4, 1, 5, 9, 2, 6} {
		if _, err := h.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.SetHeld(2, 3); err != nil {
		t.Fatal(err)
	}
	if err := h.Remove(2); err != nil {
		t.Fatal(err)
	}
	before := h.Snapshot(nil)
	rejected(t, h, h.Update(2, 7), "id", before, 7)
	rejected(t, h, h.Remove(2), "id", before, 7)
	rejected(t, h, h.SetHeld(2, 1), "id", before, 7)
	if _, err := h.Target(2); err == nil {
		t.Fatalf("Target of a removed id: no error")
	}
	if before[2] != 0 || h.Held(2) != 0 || h.Compare(2, 1) != -1 || h.Compare(1, 2) != 1 {
		t.Fatalf("removed id 2: share %v, held %d, Compare(2, 1) %d; want 0, 0, −1 (0 tasks)", before[2], h.Held(2), h.Compare(2, 1))
	}
}

// TestRollbackFreeNodes: a rejected Add whose insertion split the tree's
// only leaf, full, taking two nodes from the free nodes' list (left there
// by a merge and the root's collapse), puts the list back: CheckTree
// counts every node as in the tree or free. The counts are
// TestRollbackAdd's, beside 14 jobs of 0 tasks.
func TestRollbackFreeNodes(t *testing.T) {
	t.Parallel()
	a, b, c := 0x1.0000000000006p+1022, 0x1.ffffffffffff7p+1022, 0x1.0000000000001p+1022
	h, err := online.New(10, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 { // two leaves under a root
		if _, err := h.Add(0); err != nil {
			t.Fatal(err)
		}
	}
	if h.PathLen() != 2 {
		t.Fatalf("20 jobs: depth %d, want 2", h.PathLen())
	}
	for id := range 6 { // the first leaf merges into the second, the root gives way
		if err := h.Remove(id); err != nil {
			t.Fatal(err)
		}
	}
	if h.PathLen() != 1 {
		t.Fatalf("14 jobs after the removals: depth %d, want 1", h.PathLen())
	}
	for _, v := range []float64{a, b} { // 16 jobs: the leaf is full
		if _, err := h.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	before := h.Snapshot(nil)
	_, err = h.Add(c)
	rejected(t, h, err, "remaining", before, 16)
	if h.PathLen() != 1 {
		t.Fatalf("after the rejected Add: depth %d, want 1", h.PathLen())
	}
	if _, err := h.Add(1); err != nil { // the leaf splits for good
		t.Fatal(err)
	}
	if err := h.CheckTree(); err != nil {
		t.Fatal(err)
	}
}
