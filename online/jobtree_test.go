package online_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// testJobTreeStress drives Fair's and Classes' B+-tree through long
// streams on up to 300 jobs — far more than the state-machine tests
// reach in 30 steps, so that leaves and inner nodes split, merge and
// borrow and the root grows and shrinks — and after every event checks
// everything machine.check does: the tree (CheckTree, its items
// recomputed from the jobs below), Snapshot and Target against
// fairness.Allocate or stragglers.Allocate, SnapshotSlots against
// AllocateSlots, Next and Reclaim against a brute-force scan. Events:
// machine.events' arrivals, updates, completions, removals, held counts
// and slots, the jobs Next and Reclaim name taking and giving back a slot
// (so that held counts come near the shares), the slots at 2 per job, and
// twice most jobs leaving at once (merges up to the root) before arrivals
// fill the tree again.
func testJobTreeStress(t *rapid.T) {
	m := fairMachine(t)
	if rapid.Bool().Draw(t, "classes") {
		m = classesMachine(t)
	}
	n := rapid.SampledFrom([]int{17, 70, 300}).Draw(t, "n")
	ev := m.events(t)
	for range n {
		ev["add"](t)
	}
	m.check(t)
	for step := range min(3*n, 400) {
		if step%n == n/2 { // most jobs leave
			for _, id := range m.liveIDs() {
				if rapid.IntRange(0, 9).Draw(t, "stays") > 0 {
					if err := m.a.Remove(id); err != nil {
						t.Fatalf("Remove(%d): %v", id, err)
					}
					m.t[id], m.b[id], m.held[id] = math.NaN(), math.NaN(), 0
					m.freed = append(m.freed, id)
				}
			}
		}
		live := len(m.liveIDs())
		switch e := rapid.IntRange(0, 7).Draw(t, "event"); {
		case live == 0 || live < n && e < 2:
			ev["add"](t)
		case e == 2:
			ev["update"](t)
		case e == 3:
			ev["complete"](t)
		case e == 4:
			ev["remove"](t)
		case e == 5:
			ev["held"](t)
		case e == 6:
			s := float64(2 * live)
			if err := m.a.SetSlots(s); err != nil {
				t.Fatal(err)
			}
			m.slots = s
		default:
			if next, ok := m.a.Next(); ok && m.held[next] < 1<<53 { // SetHeld takes at most 2^53 (the held event may set it)
				m.setHeld(t, next, m.held[next]+1)
			}
			if back, ok := m.a.Reclaim(); ok {
				m.setHeld(t, back, m.held[back]-1)
			}
		}
		m.check(t)
	}
}

func TestJobTreeStress(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testJobTreeStress)
}
