package specbase

import (
	"math"

	"github.com/specsched/specsched/internal/selection"
)

// SparkStage returns the StageStats of tasks that Spark's rule reads: the
// tasks, the finished ones and, when Spark may speculate (sparkReady),
// the median of the finished tasks' durations (ws's memory). Precondition:
// tasks valid, c = Count(tasks). O(n) expected.
func SparkStage(tasks []TaskStatus, c Counts, p SparkConfig, ws *Workspace) StageStats {
	stage := StageStats{Tasks: len(tasks), Finished: c.Finished}
	if sparkReady(stage, p) {
		durations := ws.values[:0]
		for i := range tasks {
			if tasks[i].State == Finished {
				durations = append(durations, tasks[i].Duration)
			}
		}
		ws.values = durations
		stage.Median = selection.Median(durations)
	}
	return stage
}

// sparkReady reports whether Spark may speculate in the stage: more than
// one task, and at least max(⌊Quantile·n⌋, 1) of its n tasks finished.
// O(1).
func sparkReady(stage StageStats, p SparkConfig) bool {
	n := stage.Tasks
	return n > 1 && stage.Finished >= max(int(math.Floor(p.Quantile*float64(n))), 1)
}

// Spark is stragglers.SparkSpeculateStats's decision, appended to dst[:0]:
// launches first, then, once sparkReady, copies of the running tasks with
// one copy that have run longer than max(Multiplier·Median, MinRuntime),
// the longest-running first. Precondition: tasks, stage, slots and p as
// stragglers.SparkSpeculateStats accepts them, c = Count(tasks).
// O(n + k log k) expected for n tasks and k copies.
func Spark(dst []Action, tasks []TaskStatus, c Counts, stage StageStats, slots int, p SparkConfig, ws *Workspace) []Action {
	dst = dst[:0]
	launches, free, ok := launchFirst(c, slots)
	if !ok {
		return dst
	}
	var copies []int
	if free > 0 && sparkReady(stage, p) {
		threshold := max(p.Multiplier*stage.Median, p.MinRuntime)
		cands := ws.cands[:0]
		for i := range tasks {
			t := &tasks[i]
			if t.State == Running && t.Copies == 1 && t.Elapsed > threshold {
				cands = append(cands, candidate{key: t.Elapsed, task: i})
			}
		}
		ws.cands = cands
		copies = pickCopies(ws.picked, cands, free)
		ws.picked = copies
	}
	return emit(dst, tasks, launches, copies)
}
