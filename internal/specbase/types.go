package specbase

import "github.com/specsched/specsched/internal/enum"

// TaskState is where a task of a job stands.
type TaskState uint8

const (
	Unscheduled TaskState = iota // not started: waiting for a slot
	Running                      // at least one copy is running
	Finished                     // done: never launched or copied again
)

// String returns "unscheduled", "running" or "finished".
func (s TaskState) String() string { return enum.Name(s, taskStateNames, "TaskState") }

var taskStateNames = []string{Unscheduled: "unscheduled", Running: "running", Finished: "finished"}

// Task is the snapshot of one task of a job.
type Task struct {
	State TaskState

	// Copies is the number of copies of the task running now: at least 1
	// for a Running task, 0 otherwise. Each occupies one of the job's slots.
	Copies int

	// Elapsed is how long the task's oldest running copy has run; finite
	// and ≥ 0 (0 for a task that is not running).
	Elapsed float64

	// Remaining is t_rem, the estimated time until the task finishes (its
	// best running copy); finite and ≥ 0 (0 for a task that is not
	// running).
	Remaining float64
}

// ActionKind says what an Action does.
type ActionKind uint8

const (
	Launch ActionKind = iota // start an unscheduled task
	Copy                     // start a speculative copy of a running task
)

// String returns "launch" or "copy".
func (k ActionKind) String() string { return enum.Name(k, actionKindNames, "ActionKind") }

var actionKindNames = []string{Launch: "launch", Copy: "copy"}

// Action is one decision of a rule: launch task Task, or start a copy of
// it. Each takes one free slot.
type Action struct {
	Task int
	Kind ActionKind
}

// TaskStatus is the snapshot of one task as the speculation baselines —
// LATE, GRASS, Spark's and Hadoop's default speculators — see it: the Task
// that Hopper's rule reads, plus the figures those rules read besides. A
// field a rule does not read may be left zero.
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
// them — Spark's (the median) and Hadoop's (the mean) — for a caller that
// keeps them as it goes (a running median and mean) instead of passing
// every finished task at every decision.
type StageStats struct {
	Tasks    int     // all the job's tasks, finished ones included
	Finished int     // those finished
	Median   float64 // the median of their durations (Spark's rule)
	Mean     float64 // the mean of their durations (Hadoop's rule)
}

// LATEConfig configures LATE (Zaharia et al., OSDI 2008, §4).
type LATEConfig struct {
	// SpeculativeCap is the cap on speculative copies running at once, as
	// a share of the slots: the paper's SpeculativeCap, 10% of the
	// available task slots (§4). In [0, 1].
	SpeculativeCap float64

	// SlowTaskThreshold is the percentile of progress rate below which a
	// task is slow enough to be speculated: the paper's
	// SlowTaskThreshold, the 25th percentile (§4). In [0, 1].
	SlowTaskThreshold float64

	// MinElapsed is how long a task must have run before its progress
	// rate is trusted; finite and ≥ 0. A task that has not run at all
	// (Elapsed = 0) has no rate and is never judged.
	MinElapsed float64
}

// GRASSConfig configures GRASS (Ananthanarayanan et al., NSDI 2014) for an
// exact job.
type GRASSConfig struct {
	// SwitchWaves is where GRASS switches from resource-aware speculation
	// (RAS) to greedy speculation (GS): once the job's unfinished tasks fit
	// in SwitchWaves waves of its slots, unscheduled + running ≤
	// SwitchWaves·slots. Finite and ≥ 0 (0: RAS throughout, until the
	// last task ends).
	SwitchWaves float64

	// MaxCopies is the most copies of one task that may run at once; a
	// task running MaxCopies copies is never copied. ≥ 1.
	MaxCopies int

	// MinElapsed is how long a task must have run before it can be judged
	// a straggler; finite and ≥ 0.
	MinElapsed float64
}

// Greedy reports whether GRASS runs greedy speculation (GS) for a job with
// unfinished = unscheduled + running tasks on slots slots: unfinished ≤
// SwitchWaves·slots. O(1).
func (p GRASSConfig) Greedy(unfinished, slots int) bool {
	return float64(unfinished) <= p.SwitchWaves*float64(slots)
}

// DollyConfig configures Dolly's budgeted cloning (Ananthanarayanan et
// al., NSDI 2013, as Xu et al. §5 summarise it).
type DollyConfig struct {
	// Budget is β, the share of the cluster's slots that clones (copies
	// beyond the first) may hold at once; in [0, 1].
	Budget float64

	// Utilization is τ: no job is cloned while the cluster's utilization
	// is above it; in [0, 1]. 1 leaves the budget alone in charge.
	Utilization float64

	// StraggleProb is p, the probability that one copy of a task
	// straggles, and Epsilon is ε, the probability of the job straggling
	// that cloning aims for; both in [0, 1].
	StraggleProb, Epsilon float64

	// MaxClones is the most copies of a task, the original included, that
	// cloning starts: in [1, 2^53].
	MaxClones int
}

// DollyCluster is the cluster as Dolly's admission sees it when a job
// arrives.
type DollyCluster struct {
	Slots       int     // the cluster's slots, in [0, 2^53]
	Clones      int     // clones running now, copies beyond the first, in [0, 2^53]
	Utilization float64 // busy slots over Slots, in [0, 1]
}

// SparkConfig configures Spark's default speculation (spark.speculation.*;
// TaskSetManager.checkSpeculatableTasks).
type SparkConfig struct {
	// Multiplier is spark.speculation.multiplier: a task is speculatable
	// once it has run longer than Multiplier × the median duration of the
	// stage's successful tasks. Finite and ≥ 0.
	Multiplier float64

	// Quantile is spark.speculation.quantile, in [0, 1]: no task is
	// speculatable before max(⌊Quantile·n⌋, 1) of the stage's n tasks
	// have finished.
	Quantile float64

	// MinRuntime is the floor of the threshold, Spark's
	// minTimeToSpeculation: the threshold is max(Multiplier × median,
	// MinRuntime). Finite and ≥ 0.
	MinRuntime float64
}

// HadoopConfig configures Hadoop MapReduce's DefaultSpeculator.
type HadoopConfig struct {
	// CapRunning is mapreduce.job.speculative.speculative-cap-running-tasks:
	// the share of the running tasks that may run a speculative copy at
	// once. In [0, 1].
	CapRunning float64

	// CapTotal is mapreduce.job.speculative.speculative-cap-total-tasks:
	// the same share of all the tasks. In [0, 1].
	CapTotal float64

	// MinAllowed is mapreduce.job.speculative.minimum-allowed-tasks: the
	// cap is never below it. ≥ 0.
	MinAllowed int

	// MinCompleted and MinCompletedShare are StartEndTimesBase's
	// MINIMUM_COMPLETE_NUMBER_TO_SPECULATE and
	// MINIMUM_COMPLETE_PROPORTION_TO_SPECULATE: no task is speculated
	// before that many, and that share, of the tasks have finished.
	// MinCompleted ≥ 0, MinCompletedShare in [0, 1].
	MinCompleted      int
	MinCompletedShare float64
}
