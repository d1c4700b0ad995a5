package online_test

import (
	"slices"
	"testing"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/online"
)

// TestSetHeldShortOnly: SetHeld recomputes the subtree sums and bounds up
// its job's path only as far as they change (a node whose sum and bounds
// come out unchanged leaves its ancestors' unchanged), so a change to
// whether some job of a subtree is a whole slot short, alone, must still
// be carried up. β = 1.3, c = 2/1.3: a job of 195 tasks holding 299 is a
// whole slot short (299 ≤ c·195 − 1 in floats) and one of 156 holding 239
// is not, yet both hold (held+1)/T = 20/13, the same ratio; a job of 1
// task holding 10 has the greatest held/T. Taking the first to 300 slots
// and back changes no least (held+1)/T, least or greatest held/T, greatest
// fraction or sum over any subtree holding the three — only whether one of
// them is short. Jobs of 0 tasks (neutral in every bound) around them put
// the three's subtree at several depths below the root.
func TestSetHeldShortOnly(t *testing.T) {
	for extra := range 12 {
		h, err := online.New(1e6, 1.3)
		if err != nil {
			t.Fatal(err)
		}
		add := func(remaining float64) int {
			id, err := h.Add(remaining)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		for range extra {
			add(0)
		}
		a, d, e := add(195), add(156), add(1)
		for range extra {
			add(0)
		}
		for _, step := range [][2]int{{d, 239}, {e, 10}, {a, 299}, {a, 300}, {a, 299}} {
			if err := h.SetHeld(step[0], step[1]); err != nil {
				t.Fatal(err)
			}
			if err := h.CheckTree(); err != nil {
				t.Fatalf("%d jobs of 0 tasks on each side, after SetHeld(%d, %d): %v", extra, step[0], step[1], err)
			}
		}
	}
}

// TestUpdateKeepsCut: an Update that moves a job from after the cut-off
// job to after it keeps the cut (Hopper.afterCut) — but only a cut that
// was fresh before it, and only a cut-off job that exists. β = 2 (c = 1),
// exact small counts, so the shares must equal alloc.Allocate's exactly.
func TestUpdateKeepsCut(t *testing.T) {
	check := func(h *online.Hopper, counts []float64, slots float64, when string) {
		t.Helper()
		want, err := alloc.Allocate(nil, counts, slots, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Snapshot(nil); !slices.Equal(got, want) {
			t.Fatalf("%s: Snapshot %v, alloc.Allocate %v", when, got, want)
		}
	}
	build := func(slots float64, counts []float64) *online.Hopper {
		h, err := online.New(slots, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range counts {
			if _, err := h.Add(v); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	update := func(h *online.Hopper, counts []float64, id int, v float64) {
		if err := h.Update(id, v); err != nil {
			t.Fatal(err)
		}
		counts[id] = v
	}

	// T = 1 … 10 on 20 slots: the cut-off job is T = 6 (15 before it). Two
	// updates with no query between: the first, before the cut, makes it
	// stale; the second, after it, must not make it fresh again.
	counts := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	h := build(20, counts)
	check(h, counts, 20, "T = 1 … 10")
	update(h, counts, 0, 4)
	update(h, counts, 9, 11)
	check(h, counts, 20, "T0 → 4, then T9 → 11")
	update(h, counts, 8, 12) // after the cut, the cut fresh: kept
	check(h, counts, 20, "T8 → 12")

	// T = 1, 2, 3 on 6·(1 + 5e-13) slots: capacity-constrained within
	// alloc.CaseTolerance, yet the virtual sizes never reach the slots: no
	// cut-off job, every job gets c·T. Raising the last job's count makes
	// one.
	slots := 6 * (1 + 5e-13)
	counts = []float64{1, 2, 3}
	h = build(slots, counts)
	check(h, counts, slots, "T = 1, 2, 3")
	update(h, counts, 2, 10)
	check(h, counts, slots, "T2 → 10")
}
