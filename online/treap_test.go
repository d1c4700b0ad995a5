package online_test

import (
	"testing"

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
