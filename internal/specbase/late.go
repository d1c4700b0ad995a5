package specbase

import (
	"math"

	"github.com/specsched/specsched/internal/selection"
)

// LATE is stragglers.LATE's decision, appended to dst[:0]: the free slots
// (slots − Busy) launch unscheduled tasks in index order, and those left,
// up to the per-job cap ⌈SpeculativeCap·slots⌉ less the copies beyond the
// first, copy the unspeculated rated tasks among the ⌈SlowTaskThreshold·R⌉
// slowest by progress rate, longest estimated time left first (ties to
// the smaller index). Precondition: tasks, slots and p as stragglers.LATE
// accepts them, c = Count(tasks). O(n + k log k) expected for n tasks and
// k copies.
func LATE(dst []Action, tasks []TaskStatus, c Counts, slots int, p LATEConfig, ws *Workspace) []Action {
	dst = dst[:0]
	launches, free, ok := launchFirst(c, slots)
	if !ok {
		return dst
	}
	capLeft := lateCap(slots, p.SpeculativeCap) - c.Extra
	if free <= 0 || capLeft <= 0 {
		return emit(dst, tasks, launches, nil)
	}
	rates := ws.values[:0]
	for i := range tasks {
		if rated(&tasks[i], p.MinElapsed) {
			rates = append(rates, progressRate(&tasks[i]))
		}
	}
	ws.values = rates
	slow := int(math.Ceil(p.SlowTaskThreshold * float64(len(rates))))
	if slow == 0 {
		return emit(dst, tasks, launches, nil)
	}
	selection.NthOrdered(rates, slow-1)
	q := rates[slow-1]
	cands := ws.cands[:0]
	for i := range tasks {
		t := &tasks[i]
		if t.Copies == 1 && rated(t, p.MinElapsed) {
			if rate := progressRate(t); rate <= q {
				cands = append(cands, candidate{key: (1 - t.Progress) / rate, task: i})
			}
		}
	}
	ws.cands = cands
	ws.picked = pickCopies(ws.picked, cands, min(free, capLeft))
	return emit(dst, tasks, launches, ws.picked)
}

// lateCap is the per-job SpeculativeCap, ⌈share·slots⌉.
func lateCap(slots int, share float64) int {
	return int(math.Ceil(share * float64(slots)))
}

// rated reports whether t is a running task with a progress rate: it has
// run a positive time, at least minElapsed.
func rated(t *TaskStatus, minElapsed float64) bool {
	return t.State == Running && t.Elapsed > 0 && t.Elapsed >= minElapsed
}

// progressRate is LATE's ProgressScore/T for a rated task: finite and
// ≥ 0, or +Inf when the division overflows.
func progressRate(t *TaskStatus) float64 { return t.Progress / t.Elapsed }
