package online_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/online"
)

// TestSetHeldShortOnly: SetHeld recomputes the items' sums and bounds up
// its job's path only as far as they change (an item whose sum and bounds
// come out unchanged leaves its ancestors' unchanged), so a change to
// whether some job below an item is a whole slot short, alone, must still
// be carried up. β = 1.3, c = 2/1.3: a job of 195 tasks holding 299 is a
// whole slot short (299 ≤ c·195 − 1 in floats) and one of 156 holding 239
// is not, yet both hold (held+1)/T = 20/13, the same ratio; a job of 1
// task holding 10 has the greatest held/T. Taking the first to 300 slots
// and back changes no least (held+1)/T, least or greatest held/T, greatest
// fraction or sum over any subtree holding the three — only whether one of
// them is short. Jobs of 0 tasks (neutral in every bound) around them put
// the three in trees of one and two levels.
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

// TestUpdateKeepsCut: Updates before and after the cut-off job, with and
// without a query between (the cut searched again lazily), and a case with
// no cut-off job at all. (The treap kept the cut over an Update after it;
// the B+-tree searches it again after every event.) β = 2 (c = 1), exact
// small counts, so the shares must equal alloc.Allocate's exactly.
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

// TestSetHeldAfterQuery: SetHeld of the job Next or Reclaim just named
// finds it by its leaf (job.leaf), which must follow the job as the tree
// changes. Between the query and SetHeld, half the time, an arrival, a
// removal or an update reshapes the tree (splits, merges, borrows);
// CheckTree after every SetHeld catches a stale leaf, and the loop must
// allocate nothing. Both cases: capacity-constrained (Next's whole-slot descent)
// and proportional (its per-task descents), with Reclaim's.
func TestSetHeldAfterQuery(t *testing.T) {
	for _, load := range []float64{0.5, 2} { // slots per unit of c·ΣT
		rng := rand.New(rand.NewPCG(14, uint64(load*10)))
		h, err := online.New(1, 1.5)
		if err != nil {
			t.Fatal(err)
		}
		var live []int
		total := 0.0
		for range 100 {
			v := float64(1 + rng.IntN(5))
			id, err := h.Add(v)
			if err != nil {
				t.Fatal(err)
			}
			live, total = append(live, id), total+v
		}
		if err := h.SetSlots(math.Round(load * total * 2 / 1.5)); err != nil {
			t.Fatal(err)
		}
		reshape := func() {
			k := rng.IntN(len(live))
			switch rng.IntN(6) {
			case 0:
				if err := h.Remove(live[k]); err != nil {
					t.Fatal(err)
				}
				live[k] = live[len(live)-1]
				live = live[:len(live)-1]
			case 1:
				id, err := h.Add(float64(1 + rng.IntN(5)))
				if err != nil {
					t.Fatal(err)
				}
				live = append(live, id)
			case 2:
				if err := h.Update(live[k], float64(1+rng.IntN(5))); err != nil {
					t.Fatal(err)
				}
			}
		}
		step := func(id int, ok bool, delta int) {
			if rng.IntN(2) == 0 {
				reshape()
			}
			if !ok || !slices.Contains(live, id) {
				return
			}
			if err := h.SetHeld(id, h.Held(id)+delta); err != nil {
				t.Fatal(err)
			}
			if err := h.CheckTree(); err != nil {
				t.Fatalf("load %v: %v", load, err)
			}
		}
		for range 3000 {
			id, ok := h.Next()
			step(id, ok, 1)
			id, ok = h.Reclaim()
			step(id, ok, -1)
		}
		next := testing.AllocsPerRun(1000, func() {
			if id, ok := h.Next(); ok {
				_ = h.SetHeld(id, h.Held(id)+1)
			}
		})
		reclaim := testing.AllocsPerRun(1000, func() {
			if id, ok := h.Reclaim(); ok {
				_ = h.SetHeld(id, h.Held(id)-1)
			}
		})
		if next != 0 || reclaim != 0 {
			t.Errorf("load %v: Next and SetHeld allocate %v per run, Reclaim and SetHeld %v", load, next, reclaim)
		}
	}
}

// TestQueryPath: each of Next's descents (a whole slot short before the
// cut; a whole slot short per task, then short at all per task, in the
// proportional case) allocates nothing, however often repeated, and names
// a job whose SetHeld leaves a valid tree (its leaf and the items above
// recomputed); the path SetHeld walks is the tree's depth. β = 2 (c = 1).
func TestQueryPath(t *testing.T) {
	for _, tc := range []struct {
		name   string
		slots  float64
		counts []float64
		held   int // every job's
	}{
		{"constrained, short", 3, []float64{1, 2, 3, 4, 5}, 0},
		{"proportional, a whole slot short", 30, []float64{1, 2, 3, 4, 5}, 0},
		{"proportional, short by a fraction", 7.5, []float64{1, 1, 1, 1, 1}, 1}, // shares 1.5
	} {
		h, err := online.New(tc.slots, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range tc.counts {
			id, err := h.Add(v)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.SetHeld(id, tc.held); err != nil {
				t.Fatal(err)
			}
		}
		if allocs := testing.AllocsPerRun(1000, func() { h.Next() }); allocs != 0 || h.PathLen() > h.Len() {
			t.Errorf("%s: Next allocates %v per call; a path of %d nodes after 1000 calls, %d jobs", tc.name, allocs, h.PathLen(), h.Len())
		}
		id, ok := h.Next()
		if !ok {
			t.Fatalf("%s: Next names no job", tc.name)
		}
		if err := h.SetHeld(id, h.Held(id)+1); err != nil {
			t.Fatal(err)
		}
		if err := h.CheckTree(); err != nil {
			t.Fatalf("%s: SetHeld(%d) after Next: %v", tc.name, id, err)
		}
	}
}

// TestSetHeldOneBound: SetHeld stops recomputing the items above its job
// at the first that comes out unchanged, so a change to any one of an
// item's bounds alone must be carried up — in a tree of three levels (300
// jobs of 0 tasks first, neutral in every bound), where the item above the
// job's leaf is not the root's. Each case is worked by hand so that one
// step changes one bound over the job's leaf and nothing else: whether a
// job is a whole slot short (TestSetHeldShortOnly's jobs), the least
// (held+1)/T, the least held/T, the greatest held/T, the greatest fraction
// c·T − held in (0, 1). CheckTree recomputes every item from the jobs.
func TestSetHeldOneBound(t *testing.T) {
	type job struct {
		tasks float64
		held  int
	}
	for _, c := range []struct {
		name  string
		beta  float64
		jobs  []job
		steps [][2]int // job (index into jobs), held
	}{
		// c = 2/1.3: 195 tasks holding 299 are a whole slot short, holding
		// 300 not; (held+1)/T 20/13 either way beside 156 holding 239.
		{"short", 1.3, []job{{195, 0}, {156, 239}, {1, 10}}, [][2]int{{0, 299}, {0, 300}, {0, 299}}},
		// c = 1: the least (held+1)/T is job 2's, 51/100 → 61/100; the
		// least held/T stays job 0's 0, the greatest job 1's 10.
		{"plus", 2, []job{{1, 0}, {1, 10}, {100, 50}}, [][2]int{{2, 60}, {2, 50}}},
		// c = 1: the least held/T, job 2's 10/100, becomes job 3's
		// 1050/10000; the least (held+1)/T stays job 3's.
		{"lo", 2, []job{{1, 1}, {1, 10}, {100, 10}, {10000, 1050}}, [][2]int{{2, 11}, {2, 10}}},
		// c = 1: the greatest held/T, job 1's 10 → 11.
		{"hi", 2, []job{{1, 0}, {1, 10}, {100, 50}}, [][2]int{{1, 11}, {1, 10}}},
		// c = 4/3: the greatest fraction, job 1's 8/3 − 2 = 2/3, becomes
		// job 0's 4/3 − 1 = 1/3 when job 1 holds 3; job 2 keeps the least
		// held/T and (held+1)/T and is short, job 3 the greatest held/T.
		{"frac", 1.5, []job{{1, 1}, {2, 2}, {1000, 0}, {1, 10}}, [][2]int{{1, 3}, {1, 2}}},
	} {
		h, err := online.New(1e6, c.beta)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			if _, err := h.Add(0); err != nil {
				t.Fatal(err)
			}
		}
		ids := make([]int, len(c.jobs))
		for k, j := range c.jobs {
			if ids[k], err = h.Add(j.tasks); err != nil {
				t.Fatal(err)
			}
			if err := h.SetHeld(ids[k], j.held); err != nil {
				t.Fatal(err)
			}
		}
		if h.PathLen() < 3 {
			t.Fatalf("%s: a tree of %d levels, want 3 or more", c.name, h.PathLen())
		}
		if err := h.CheckTree(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, s := range c.steps {
			if err := h.SetHeld(ids[s[0]], s[1]); err != nil {
				t.Fatal(err)
			}
			if err := h.CheckTree(); err != nil {
				t.Fatalf("%s: after SetHeld(job %d, %d): %v", c.name, s[0], s[1], err)
			}
		}
	}
}
