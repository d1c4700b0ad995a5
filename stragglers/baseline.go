package stragglers

import (
	"cmp"
	"slices"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
)

// TaskStatus is the snapshot of one task as the speculation baselines —
// LATE, GRASS, Spark's and Hadoop's default speculators — see it: the Task
// that Speculate reads, plus the figures those rules read besides. A field
// a rule does not read may be left zero.
type TaskStatus struct {
	Task

	// Progress is the progress score of a running task's best copy, in
	// [0, 1]: the fraction of its work done (LATE's ProgressScore, §4).
	// Only LATE reads it, and only for running tasks; it must lie in
	// [0, 1] for every task.
	Progress float64

	// Duration is how long a finished task ran; finite and ≥ 0. Spark's
	// rule reads the median of the finished tasks' durations, Hadoop's
	// their mean; the other rules ignore it.
	Duration float64

	// NewCopy is the task's t_new, the expected duration of a new copy of
	// it (a launch, for an unscheduled task); finite and ≥ 0. GRASS reads
	// it for unfinished tasks, where it must be > 0; the other rules
	// ignore it.
	NewCopy float64
}

// StageStats summarises a job's finished tasks for the rules that judge by
// them — SparkSpeculateStats (the median) and HadoopSpeculateStats (the
// mean) — for a caller that keeps them as it goes (a running median and
// mean) instead of passing every finished task at every decision.
type StageStats struct {
	Tasks    int     // all the job's tasks, finished ones included
	Finished int     // those finished
	Median   float64 // the median of their durations (Spark's rule)
	Mean     float64 // the mean of their durations (Hadoop's rule)
}

// checkStage validates a StageStats against the unfinished tasks counted
// in c, and the one statistic the rule reads (name and value). O(1).
func checkStage(fn string, stage StageStats, c jobCounts, name string, value float64) error {
	if stage.Finished < 0 || stage.Finished > alloc.MaxTotal {
		return check.Err(fn, check.Scalar, "stage.Finished", float64(stage.Finished), "must lie in [0, 2^53]")
	}
	if stage.Tasks < 0 || stage.Tasks > alloc.MaxTotal || stage.Tasks-stage.Finished < c.unscheduled+c.running {
		return check.Err(fn, check.Scalar, "stage.Tasks", float64(stage.Tasks), "must lie in [0, 2^53] and count the finished and unfinished tasks")
	}
	return check.NonNegative(fn, check.Scalar, "stage."+name, value)
}

// jobCounts is what one validating pass over a job's tasks counts.
type jobCounts struct {
	unscheduled, running, finished int
	busy                           int // Σ Copies, saturated above 2^53
	extra                          int // Σ (Copies − 1), saturated above 2^53
}

// countStatuses validates every task and counts the job's tasks by
// state, its busy slots and its copies beyond the first; needNewCopy asks
// for NewCopy > 0 on unfinished tasks (GRASS). O(n).
func countStatuses(fn string, tasks []TaskStatus, needNewCopy bool) (jobCounts, error) {
	var c jobCounts
	for i := range tasks {
		t := &tasks[i]
		if err := checkStatus(fn, i, t, needNewCopy); err != nil {
			return jobCounts{}, err
		}
		switch t.State {
		case Unscheduled:
			c.unscheduled++
		case Running:
			c.running++
			c.busy = min(c.busy+t.Copies, alloc.MaxTotal+1)
			c.extra = min(c.extra+t.Copies-1, alloc.MaxTotal+1)
		default:
			c.finished++
		}
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

// candidate is a running task a baseline may copy, with the key that
// orders the candidates (the larger, the sooner).
type candidate struct {
	key    float64
	isCopy bool // a copy of a running task, not a launch (GRASS's GS ranks both)
	task   int
}

// byKey orders candidates by decreasing key, then launches before copies,
// then the smaller index: a strict total order, the keys being never NaN.
func byKey(a, b candidate) int {
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c
	}
	if a.isCopy != b.isCopy {
		return cmp.Compare(selection.Indicator(a.isCopy), selection.Indicator(b.isCopy))
	}
	return cmp.Compare(a.task, b.task)
}

// pickCopies keeps the k candidates first in byKey's order (all of them
// if k ≥ len(cands)) and writes their task indices to at[:0] in
// increasing order. O(c + k log k) for c candidates (a selection, then a
// sort of the k kept); cands is reordered.
func pickCopies(at []int, cands []candidate, k int) []int {
	k = max(0, k)
	if k < len(cands) {
		selection.NthElement(cands, k, byKey)
		cands = cands[:k]
	}
	at = at[:0]
	for _, c := range cands {
		at = append(at, c.task)
	}
	slices.Sort(at)
	return at
}

// emit appends to dst the launches of the first launches unscheduled
// tasks, in index order, then a copy of each task in copies (increasing).
func emit(dst []Action, tasks []TaskStatus, launches int, copies []int) []Action {
	for i := 0; i < len(tasks) && launches > 0; i++ {
		if tasks[i].State == Unscheduled {
			dst = append(dst, Action{Task: i, Kind: Launch})
			launches--
		}
	}
	return emitLists(dst, nil, copies)
}

// emitLists appends to dst a launch of each task in launches, then a copy
// of each task in copies (both increasing).
func emitLists(dst []Action, launches, copies []int) []Action {
	for _, i := range launches {
		dst = append(dst, Action{Task: i, Kind: Launch})
	}
	for _, i := range copies {
		dst = append(dst, Action{Task: i, Kind: Copy})
	}
	return dst
}

// baselineScratch is the Workspace memory of the baselines.
type baselineScratch struct {
	cands    []candidate
	values   []float64
	picked   []int // the tasks to copy
	launched []int // the tasks to launch, when not the first ones in index order
}

// begin checks dst against tasks and slots, then validates and counts the
// tasks: the prologue every baseline shares.
func begin(fn string, dst []Action, tasks []TaskStatus, slots int, needNewCopy bool) (jobCounts, error) {
	if err := check.Disjoint(fn, dst, min(cap(dst), len(tasks)), "tasks", tasks); err != nil {
		return jobCounts{}, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return jobCounts{}, err
	}
	return countStatuses(fn, tasks, needNewCopy)
}
