package specbase

import "math"

// HadoopStage returns the StageStats of tasks that Hadoop's rule reads:
// the tasks, the finished ones and, when Hadoop may speculate (no
// unscheduled task and hadoopCompleted), the mean of the finished tasks'
// durations. Precondition: tasks valid, c = Count(tasks). O(n).
func HadoopStage(tasks []TaskStatus, c Counts, p HadoopConfig) StageStats {
	stage := StageStats{Tasks: len(tasks), Finished: c.Finished}
	if c.Unscheduled == 0 && hadoopCompleted(stage, p) {
		stage.Mean = MeanDuration(tasks, c.Finished)
	}
	return stage
}

// Hadoop is stragglers.HadoopSpeculateStats's scan, appended to dst[:0]:
// launches first; with none unscheduled and hadoopCompleted, a copy of
// the running task with one copy whose Remaining exceeds stage.Mean by the
// most (ties to the smaller index), if fewer than the cap are already
// speculating. Precondition: tasks, stage, slots and p as
// stragglers.HadoopSpeculateStats accepts them, c = Count(tasks). O(n).
func Hadoop(dst []Action, tasks []TaskStatus, c Counts, stage StageStats, slots int, p HadoopConfig) []Action {
	dst = dst[:0]
	launches, _, ok := launchFirst(c, slots)
	if !ok {
		return dst
	}
	if c.Unscheduled > 0 || !hadoopCompleted(stage, p) {
		return emit(dst, tasks, launches, nil)
	}
	best, already := -1, 0
	for i := range tasks {
		t := &tasks[i]
		if t.State != Running {
			continue
		}
		if t.Copies > 1 {
			already++
			continue
		}
		if t.Remaining > stage.Mean && (best < 0 || t.Remaining > tasks[best].Remaining) {
			best = i
		}
	}
	if best < 0 || hadoopCap(stage.Tasks, c.Running, p) <= already {
		return dst
	}
	return append(dst, Action{Task: best, Kind: Copy})
}

// hadoopCompleted reports whether enough of the stage's tasks have
// finished for Hadoop to speculate (StartEndTimesBase.thresholdRuntime):
// at least MinCompleted and one, and a MinCompletedShare of the tasks.
// O(1).
func hadoopCompleted(stage StageStats, p HadoopConfig) bool {
	finished := stage.Finished
	return finished >= p.MinCompleted && finished > 0 && float64(finished)/float64(stage.Tasks) >= p.MinCompletedShare
}

// hadoopCap is DefaultSpeculator's numberAllowedSpeculativeTasks:
// max(MinAllowed, ⌊CapTotal·n⌋, ⌊CapRunning·running⌋).
func hadoopCap(n, running int, p HadoopConfig) int {
	return max(p.MinAllowed, int(p.CapTotal*float64(n)), int(p.CapRunning*float64(running)))
}

// MeanDuration is the mean Duration of the finished tasks (finished ≥ 1):
// the sum over the count, or, should the sum overflow, the sum of the
// durations divided first. O(n).
func MeanDuration(tasks []TaskStatus, finished int) float64 {
	var sum float64
	for i := range tasks {
		if tasks[i].State == Finished {
			sum += tasks[i].Duration
		}
	}
	if !math.IsInf(sum, 1) {
		return sum / float64(finished)
	}
	sum = 0
	for i := range tasks {
		if tasks[i].State == Finished {
			sum += tasks[i].Duration / float64(finished)
		}
	}
	return sum
}
