package online_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/online"
)

// TestTreeStress drives Hopper's B+-tree through long streams on up to
// 1000 jobs — far more than the state-machine tests reach, so that leaves
// and inner nodes split, merge, borrow and the root grows and shrinks —
// and after every event checks the tree (CheckTree) and everything the
// model checks against alloc.Allocate and alloc.AllocateSlots: Snapshot,
// Target, SnapshotSlots, Next and Reclaim against a scan of the jobs in
// order (model.check). Events: arrivals (reusing ids), updates to random
// counts and by −1 (ties among few distinct counts), SetHeld of random
// jobs and of the jobs Next and Reclaim name, the slots at 2 per job or
// within alloc.CaseTolerance of c·ΣT on either side (the case boundary,
// where the cut may be searched to a node's last item), and now and then
// most jobs leaving at once (merges up to the root) before arrivals fill
// the tree again. Counts whole (the sums exact) or fractional (rounded in
// the tree's grouping).
func TestTreeStress(t *testing.T) {
	t.Parallel()
	for _, whole := range []bool{true, false} {
		for _, n := range []int{1, 3, 17, 100, 1000} {
			testTreeStress(t, n, whole)
		}
	}
}

func testTreeStress(t *testing.T, n int, whole bool) {
	const beta = 1.5
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	count := func() float64 {
		if whole {
			return float64(rng.IntN(8))
		}
		return float64(rng.IntN(8)) + rng.Float64()
	}
	h, err := online.New(float64(2*n), beta)
	if err != nil {
		t.Fatal(err)
	}
	m := &model{h: h, slots: float64(2 * n), beta: beta}
	live := func() []int {
		var ids []int
		for id, v := range m.t {
			if !math.IsNaN(v) {
				ids = append(ids, id)
			}
		}
		return ids
	}
	add := func() {
		v := count()
		id, err := h.Add(v)
		if err != nil {
			t.Fatalf("n %d: Add(%v): %v", n, v, err)
		}
		switch {
		case len(m.freed) == 0 && id == len(m.t):
			m.t, m.held = append(m.t, v), append(m.held, 0)
		case len(m.freed) > 0 && id == m.freed[len(m.freed)-1]:
			m.freed = m.freed[:len(m.freed)-1]
			m.t[id], m.held[id] = v, 0
		default:
			t.Fatalf("n %d: Add returned id %d; want the last freed of %v, or %d", n, id, m.freed, len(m.t))
		}
	}
	remove := func(id int) {
		if err := h.Remove(id); err != nil {
			t.Fatalf("n %d: Remove(%d): %v", n, id, err)
		}
		m.t[id], m.held[id] = math.NaN(), 0
		m.freed = append(m.freed, id)
	}
	setHeld := func(id, v int) {
		if err := h.SetHeld(id, v); err != nil {
			t.Fatalf("n %d: SetHeld(%d, %d): %v", n, id, v, err)
		}
		m.held[id] = v
	}
	update := func(id int, v float64) {
		if err := h.Update(id, v); err != nil {
			t.Fatalf("n %d: Update(%d, %v): %v", n, id, v, err)
		}
		m.t[id] = v
	}
	for range n {
		add()
	}
	steps := 2500
	if n >= 1000 {
		steps = 1200
	}
	for step := range steps {
		if step%600 == 400 { // most jobs leave
			for _, id := range live() {
				if rng.IntN(10) > 0 {
					remove(id)
				}
			}
		}
		ids := live()
		if len(ids) < n && (len(ids) == 0 || rng.IntN(3) > 0) {
			add()
			ids = live()
		}
		id := ids[rng.IntN(len(ids))]
		switch rng.IntN(6) {
		case 0:
			update(id, count())
		case 1:
			update(id, max(m.t[id]-1, 0))
		case 2:
			setHeld(id, rng.IntN(12))
		case 3:
			s := float64(2 * n)
			if k := rng.IntN(3); k > 0 {
				total := 0.0
				for _, v := range m.t {
					if !math.IsNaN(v) {
						total += v
					}
				}
				s = 2 / beta * total * (1 + float64(2*k-3)*hopper.CaseTolerance/2)
			}
			if err := h.SetSlots(s); err != nil {
				t.Fatal(err)
			}
			m.slots = s
		case 4:
			remove(id)
		case 5:
			if next, ok := h.Next(); ok {
				setHeld(next, m.held[next]+1)
			}
			if back, ok := h.Reclaim(); ok {
				setHeld(back, m.held[back]-1)
			}
		}
		if err := h.CheckTree(); err != nil {
			t.Fatalf("n %d whole %v step %d: %v", n, whole, step, err)
		}
		m.check(t)
	}
}
