package stragglers

import (
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/specbase"
)

// TaskStatus is the snapshot of one task as the speculation baselines —
// LATE, GRASS, Spark's and Hadoop's default speculators — see it: the Task
// that Speculate reads (State, Copies, Elapsed, Remaining), plus the
// figures those rules read besides. A field a rule does not read may be
// left zero.
//
// Its fields:
//   - Progress is the progress score of a running task's best copy, in
//     [0, 1]: the fraction of its work done (LATE's ProgressScore, §4).
//     Only LATE reads it, and only for running tasks; it must lie in
//     [0, 1] for every task.
//   - Duration is how long a finished task ran; finite and ≥ 0. Spark's
//     rule reads the median of the finished tasks' durations, Hadoop's
//     their mean; the other rules ignore it.
//   - NewCopy is the task's t_new, the expected duration of a new copy of
//     it (a launch, for an unscheduled task); finite and ≥ 0. GRASS reads
//     it for unfinished tasks, where it must be > 0; the other rules
//     ignore it.
//
// The type is the baselines' kernel's (internal/specbase), whose doc
// comment gives each field; the alias keeps stragglers.TaskStatus the one
// type the simulators and callers share.
type TaskStatus = specbase.TaskStatus

// StageStats summarises a job's finished tasks for the rules that judge by
// them — SparkSpeculateStats (the median) and HadoopSpeculateStats (the
// mean) — for a caller that keeps them as it goes (a running median and
// mean) instead of passing every finished task at every decision. Its
// fields: Tasks, all the job's tasks, finished ones included; Finished,
// those finished; Median, the median of their durations (Spark's rule);
// Mean, the mean of their durations (Hadoop's rule). The type is the
// kernel's (internal/specbase).
type StageStats = specbase.StageStats

// checkStage validates a StageStats against the unfinished tasks counted
// in c, and the one statistic the rule reads (name and value). O(1).
func checkStage(fn string, stage StageStats, c specbase.Counts, name string, value float64) error {
	if stage.Finished < 0 || stage.Finished > alloc.MaxTotal {
		return check.Err(fn, check.Scalar, "stage.Finished", float64(stage.Finished), "must lie in [0, 2^53]")
	}
	if stage.Tasks < 0 || stage.Tasks > alloc.MaxTotal || stage.Tasks-stage.Finished < c.Unscheduled+c.Running {
		return check.Err(fn, check.Scalar, "stage.Tasks", float64(stage.Tasks), "must lie in [0, 2^53] and count the finished and unfinished tasks")
	}
	return check.NonNegative(fn, check.Scalar, "stage."+name, value)
}

// countStatuses validates every task and counts the job's tasks by
// state, its busy slots and its copies beyond the first; needNewCopy asks
// for NewCopy > 0 on unfinished tasks (GRASS). O(n).
func countStatuses(fn string, tasks []TaskStatus, needNewCopy bool) (specbase.Counts, error) {
	var c specbase.Counts
	for i := range tasks {
		t := &tasks[i]
		if err := checkStatus(fn, i, t, needNewCopy); err != nil {
			return specbase.Counts{}, err
		}
		c.Add(&t.Task)
	}
	return c, nil
}

// checkStatus explains why task i is invalid, or returns nil: the checks
// of Task as Speculate makes them (taskError), then the fields of
// TaskStatus.
func checkStatus(fn string, i int, t *TaskStatus, needNewCopy bool) error {
	if err := taskError(fn, i, &t.Task); err != nil {
		return err
	}
	if !(t.Progress >= 0 && t.Progress <= 1) {
		return check.ErrItem(fn, "task", i, "Progress", t.Progress, "must lie in [0, 1]")
	}
	if err := check.NonNegative(fn, i, "Duration", t.Duration); err != nil {
		return check.WithItem("task", err)
	}
	if err := check.NonNegative(fn, i, "NewCopy", t.NewCopy); err != nil {
		return check.WithItem("task", err)
	}
	if needNewCopy && t.State != Finished && t.NewCopy == 0 {
		return check.ErrItem(fn, "task", i, "NewCopy", t.NewCopy, "an unfinished task's t_new must be > 0")
	}
	return nil
}

// begin checks dst against tasks and slots, then validates and counts the
// tasks: the prologue every baseline shares.
func begin(fn string, dst []Action, tasks []TaskStatus, slots int, needNewCopy bool) (specbase.Counts, error) {
	if err := check.Disjoint(fn, dst, min(cap(dst), len(tasks)), "tasks", tasks); err != nil {
		return specbase.Counts{}, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return specbase.Counts{}, err
	}
	return countStatuses(fn, tasks, needNewCopy)
}
