package specbase

import (
	"math"

	"github.com/specsched/specsched/internal/hopper"
)

// GRASS is stragglers.GRASS's decision, appended to dst[:0]: greedy
// speculation (GS) once p.Greedy(unscheduled + running, slots), resource-
// aware speculation (RAS) before. Precondition: tasks, slots and p as
// stragglers.GRASS accepts them (an unfinished task's NewCopy > 0), c =
// Count(tasks). O(n + k log k) expected for n tasks and k actions.
func GRASS(dst []Action, tasks []TaskStatus, c Counts, slots int, p GRASSConfig, ws *Workspace) []Action {
	dst = dst[:0]
	free := slots - c.Busy
	if free <= 0 || c.Unscheduled+c.Running == 0 {
		return dst
	}
	if p.Greedy(c.Unscheduled+c.Running, slots) {
		return greedySpeculation(dst, tasks, free, p, ws)
	}
	cands := ws.cands[:0]
	for i := range tasks {
		t := &tasks[i]
		if judged(t, p) {
			if saving, ok := rasSaving(t); ok {
				cands = append(cands, candidate{key: saving, isCopy: true, task: i})
			}
		}
	}
	ws.cands = cands
	ws.picked = pickCopies(ws.picked, cands, free)
	return emit(dst, tasks, min(c.Unscheduled, free-len(ws.picked)), ws.picked)
}

// greedySpeculation is GRASS's GS: the free slots go to the launches and
// the worthwhile copies of smallest t_new.
func greedySpeculation(dst []Action, tasks []TaskStatus, free int, p GRASSConfig, ws *Workspace) []Action {
	cands := ws.cands[:0]
	for i := range tasks {
		t := &tasks[i]
		switch {
		case t.State == Unscheduled:
			cands = append(cands, candidate{key: -t.NewCopy, task: i})
		case judged(t, p) && t.Remaining > t.NewCopy:
			cands = append(cands, candidate{key: -t.NewCopy, isCopy: true, task: i})
		}
	}
	ws.cands = cands
	chosen := pickCopies(ws.picked, cands, free) // launches and copies, by index
	ws.picked = chosen
	launches, copies := ws.launched[:0], chosen[:0]
	for _, i := range chosen {
		if tasks[i].State == Unscheduled {
			launches = append(launches, i)
		} else {
			copies = append(copies, i) // overwrites chosen behind the read
		}
	}
	ws.launched = launches
	return emitLists(dst, launches, copies)
}

// judged reports whether GRASS may copy t now: running, below MaxCopies,
// and run at least MinElapsed.
func judged(t *TaskStatus, p GRASSConfig) bool {
	return t.State == Running && t.Copies < p.MaxCopies && t.Elapsed >= p.MinElapsed
}

// rasSaving returns RAS's saving c·t_rem − (c+1)·t_new for a running task
// with c copies, and whether it is positive (the copy is worth it). Should
// a product overflow, the test is made as c/(c+1)·t_rem > t_new, which
// cannot, and the saving, only an order, is (c+1)·(c/(c+1)·t_rem − t_new),
// +Inf if that overflows too (ties then go to the smaller index).
func rasSaving(t *TaskStatus) (float64, bool) {
	c := float64(t.Copies)
	if saving := c*t.Remaining - (c+1)*t.NewCopy; !math.IsNaN(saving) && !math.IsInf(saving, 0) {
		return saving, saving > 0
	}
	lhs := hopper.CopyFactor(t.Copies) * t.Remaining
	if !(lhs > t.NewCopy) {
		return 0, false
	}
	return (c + 1) * (lhs - t.NewCopy), true
}
