package stragglers

import (
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/specbase"
)

// SparkConfig configures SparkSpeculate: Apache Spark's spark.speculation.*
// settings (Spark's configuration reference, "Scheduling"; the rule is
// TaskSetManager.checkSpeculatableTasks).
//
// Its fields:
//   - Multiplier is spark.speculation.multiplier: a task is speculatable
//     once it has run longer than Multiplier × the median duration of the
//     stage's successful tasks. Finite and ≥ 0; Spark's default is 1.5.
//   - Quantile is spark.speculation.quantile, in [0, 1]: no task is
//     speculatable before max(⌊Quantile·n⌋, 1) of the stage's n tasks have
//     finished. Spark's default is 0.75.
//   - MinRuntime is the floor of the threshold, Spark's
//     minTimeToSpeculation (spark.speculation.minTaskRuntime, 100 ms): the
//     threshold is max(Multiplier × median, MinRuntime). Finite and ≥ 0,
//     in the caller's time unit.
//
// The type is the baselines' kernel's (internal/specbase), which the
// simulators call; the alias keeps it the one type they and callers share.
type SparkConfig = specbase.SparkConfig

// DefaultSpark returns Spark's long-standing defaults, those of the
// papers' era: multiplier 1.5, quantile 0.75,
// and a 100 ms floor written as 0.1, i.e. for times in seconds (scale it
// to another time unit). Recent releases' documentation lists multiplier 3
// and quantile 0.9, with spark.speculation.efficiency.enabled (a slow task
// that processes its data fast is not copied), which is not modelled.
func DefaultSpark() SparkConfig {
	return SparkConfig{Multiplier: 1.5, Quantile: 0.75, MinRuntime: 0.1}
}

// SparkSpeculate is Apache Spark's default speculation (spark.speculation
// = true) for one stage — a job's tasks — given the slots it may use,
// appending the actions to dst[:0].
//
// Spark's rule (TaskSetManager.checkSpeculatableTasks, Spark 3.x): a
// stage of a single task never speculates (without the optional
// spark.speculation.task.duration.threshold, not modelled); otherwise,
// once at least max(⌊Quantile·n⌋, 1) of its n tasks have finished, with
// median duration m (the mean of the two middle durations for an even
// count, as Spark's MedianHeap), a running task is speculatable when it
// runs exactly one copy and has run longer than max(Multiplier·m,
// MinRuntime). Spark offers a free slot to the stage's pending regular
// tasks first and to a speculatable task only when none fits
// (TaskSetManager.dequeueTask), so here the free slots launch unscheduled
// tasks in index order first, then copy speculatable tasks, each at most
// once. Spark caps speculative copies only by the slots; when there are
// more speculatable tasks than slots left, Spark's order is that of its
// pending-speculation queues, and ours is the longest-running first, ties
// to the smaller index (documented choice).
//
// Spark runs the check every spark.speculation.interval (100 ms): that
// interval belongs to the caller, who calls SparkSpeculate as often.
// Elapsed is the running time of the task's copy (Spark's
// TaskInfo.timeRunning); Duration of a finished task is its successful
// run time. Remaining, Progress and NewCopy are not read.
//
// The actions come launches first, then copies, each in task index
// order; never more than slots − ΣCopies of them, never a copy of a task
// that is not running or already runs two copies or more.
//
// Complexity: O(n + k log k) expected for n tasks and k copies (a
// selection of the median among the finished durations, and of the k
// longest-running among the speculatable tasks when not all get a slot;
// O(n log n) at worst). With a dst of capacity ≥ the number of actions
// and a reused ws it allocates nothing.
//
// Errors, with dst untouched: slots outside [0, 2^53]; a Multiplier or
// MinRuntime negative, NaN or ±Inf, a Quantile outside [0, 1]; and, naming
// the first such task, the task errors of Speculate and a Progress outside
// [0, 1], a Duration or NewCopy negative, NaN or ±Inf. dst must not
// overlap tasks (Field "dst").
func SparkSpeculate(dst []Action, tasks []TaskStatus, slots int, p SparkConfig, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.SparkSpeculate"
	if err := checkSpark(fn, p); err != nil {
		return nil, err
	}
	c, err := begin(fn, dst, tasks, slots, false)
	if err != nil {
		return nil, err
	}
	s := &orNew(ws).base
	return specbase.Spark(dst, tasks, c, specbase.SparkStage(tasks, c, p, s), slots, p, s), nil
}

// SparkSpeculateStats is SparkSpeculate for a caller that keeps the
// stage's finished tasks as a summary — their count and median duration,
// e.g. by a running median — rather than pass them: it reads the
// unscheduled and running tasks of tasks (finished ones, if any, are not
// read: stage counts them) and makes SparkSpeculate's decision for the
// job of stage.Tasks tasks, stage.Finished of them finished with median
// duration stage.Median. O(u + r + k log k) expected for u unscheduled
// and r running tasks given and k copies.
//
// Errors: those of SparkSpeculate, and a stage.Finished or stage.Tasks
// outside [0, 2^53], fewer stage.Tasks than stage.Finished plus the
// unfinished tasks given, or a stage.Median negative, NaN or ±Inf.
// stage.Mean is not read.
func SparkSpeculateStats(dst []Action, tasks []TaskStatus, stage StageStats, slots int, p SparkConfig, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.SparkSpeculateStats"
	if err := checkSpark(fn, p); err != nil {
		return nil, err
	}
	c, err := begin(fn, dst, tasks, slots, false)
	if err != nil {
		return nil, err
	}
	if err := checkStage(fn, stage, c, "Median", stage.Median); err != nil {
		return nil, err
	}
	return specbase.Spark(dst, tasks, c, stage, slots, p, &orNew(ws).base), nil
}

func checkSpark(fn string, p SparkConfig) error {
	if err := check.NonNegative(fn, check.Scalar, "Multiplier", p.Multiplier); err != nil {
		return err
	}
	if err := check.Unit(fn, check.Scalar, "Quantile", p.Quantile); err != nil {
		return err
	}
	return check.NonNegative(fn, check.Scalar, "MinRuntime", p.MinRuntime)
}
