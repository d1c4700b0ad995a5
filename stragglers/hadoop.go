package stragglers

import (
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/specbase"
)

// HadoopConfig configures HadoopSpeculate: the settings of Hadoop
// MapReduce's DefaultSpeculator (org.apache.hadoop.mapreduce.v2.app.
// speculate; the keys and defaults are MRJobConfig's, the completion
// minimums StartEndTimesBase's constants).
//
// Its fields:
//   - CapRunning is mapreduce.job.speculative.speculative-cap-running-tasks:
//     the share of the running tasks that may run a speculative copy at
//     once. In [0, 1]; Hadoop's default 0.1.
//   - CapTotal is mapreduce.job.speculative.speculative-cap-total-tasks:
//     the same share of all the tasks. In [0, 1]; Hadoop's default 0.01.
//   - MinAllowed is mapreduce.job.speculative.minimum-allowed-tasks: the
//     cap is never below it. ≥ 0; Hadoop's default 10.
//   - MinCompleted and MinCompletedShare are StartEndTimesBase's
//     MINIMUM_COMPLETE_NUMBER_TO_SPECULATE (1) and
//     MINIMUM_COMPLETE_PROPORTION_TO_SPECULATE (0.05): no task is
//     speculated before that many, and that share, of the tasks have
//     finished. MinCompleted ≥ 0, MinCompletedShare in [0, 1].
//
// The type is the baselines' kernel's (internal/specbase), which the
// simulators call; the alias keeps it the one type they and callers share.
type HadoopConfig = specbase.HadoopConfig

// Hadoop's DefaultSpeculator scans for speculations every
// HadoopRetryAfterNoSpeculate after a scan that launched nothing and every
// HadoopRetryAfterSpeculate after one that launched a copy
// (mapreduce.job.speculative.retry-after-no-speculate, 1000 ms, and
// retry-after-speculate, 15000 ms), here in seconds. The scan interval
// belongs to the caller: HadoopSpeculate is one scan.
const (
	HadoopRetryAfterNoSpeculate = 1.0
	HadoopRetryAfterSpeculate   = 15.0
)

// DefaultHadoop returns Hadoop's defaults: caps 0.1 of the running and
// 0.01 of all tasks, at least 10, and speculation once one task and 5% of
// the tasks have finished.
func DefaultHadoop() HadoopConfig {
	return HadoopConfig{CapRunning: 0.1, CapTotal: 0.01, MinAllowed: 10, MinCompleted: 1, MinCompletedShare: 0.05}
}

// HadoopSpeculate is one scan of Hadoop MapReduce's DefaultSpeculator for
// one task type (the maps, or the reduces) of a job — the tasks given —
// with the slots it may use, appending the actions to dst[:0].
//
// DefaultSpeculator.maybeScheduleASpeculation, as Hadoop 3 writes it:
//   - a job with attempts waiting for a container is skipped: here, no
//     copy while any task is unscheduled (the free slots launch those,
//     in index order: the AM's ordinary path, not the speculator's);
//   - no task is speculated before MinCompleted and a MinCompletedShare
//     of the tasks have finished (StartEndTimesBase.thresholdRuntime
//     returns "on schedule" until then), nor, here, before one task has
//     (with both minimums 0, Hadoop would take the empty mean, 0, as
//     t_new and copy every running task);
//   - a running task with one attempt is worth speculating when its
//     estimated end is later than a new attempt's, now + t_new with
//     t_new the mean duration of the finished tasks
//     (StartEndTimesBase.estimatedNewAttemptRuntime): with t_rem =
//     Remaining, the caller's estimate of the attempt's time left
//     (Hadoop's TaskRuntimeEstimator), when t_rem > t_new, with value
//     t_rem − t_new; a task with two attempts or more is "already
//     speculating" and gets none;
//   - the cap is max(MinAllowed, ⌊CapTotal·n⌋, ⌊CapRunning·R⌋) for n
//     tasks and R running ones; if fewer tasks than that are already
//     speculating, the task of largest value gets one copy — one per
//     scan (ties to the smaller index; Hadoop's follow its task map).
//
// Hadoop also computes an outlier threshold (mean + σ·std of the
// finished durations, mapreduce.job.speculative.slowtaskthreshold = 1),
// but DefaultSpeculator only tests whether it exists, so it does not
// appear here; nor do its stalled-heartbeat bookkeeping and retry
// intervals (HadoopRetryAfterSpeculate), which belong to the caller.
// Elapsed, Progress and NewCopy are not read.
//
// The actions come launches first, then the copy; never more than
// slots − ΣCopies of them.
//
// Complexity: O(n), one validating pass and one scan. It allocates
// nothing with a dst of capacity ≥ the number of actions (ws is accepted
// for uniformity and not used).
//
// Errors, with dst untouched: slots outside [0, 2^53]; CapRunning,
// CapTotal or MinCompletedShare outside [0, 1]; a negative MinAllowed or
// MinCompleted; and the task errors of SparkSpeculate. dst must not
// overlap tasks (Field "dst").
func HadoopSpeculate(dst []Action, tasks []TaskStatus, slots int, p HadoopConfig, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.HadoopSpeculate"
	if err := checkHadoop(fn, p); err != nil {
		return nil, err
	}
	c, err := begin(fn, dst, tasks, slots, false)
	if err != nil {
		return nil, err
	}
	return specbase.Hadoop(dst, tasks, c, specbase.HadoopStage(tasks, c, p), slots, p), nil
}

// HadoopSpeculateStats is HadoopSpeculate for a caller that keeps the
// job's finished tasks as a summary — their count and mean duration —
// rather than pass them: it reads the unscheduled and running tasks of
// tasks (finished ones, if any, are not read: stage counts them) and makes
// HadoopSpeculate's decision for the job of stage.Tasks tasks,
// stage.Finished of them finished with mean duration stage.Mean. O(u + r)
// for u unscheduled and r running tasks given.
//
// Errors: those of HadoopSpeculate, and a stage.Finished or stage.Tasks
// outside [0, 2^53], fewer stage.Tasks than stage.Finished plus the
// unfinished tasks given, or a stage.Mean negative, NaN or ±Inf.
// stage.Median is not read.
func HadoopSpeculateStats(dst []Action, tasks []TaskStatus, stage StageStats, slots int, p HadoopConfig, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.HadoopSpeculateStats"
	if err := checkHadoop(fn, p); err != nil {
		return nil, err
	}
	c, err := begin(fn, dst, tasks, slots, false)
	if err != nil {
		return nil, err
	}
	if err := checkStage(fn, stage, c, "Mean", stage.Mean); err != nil {
		return nil, err
	}
	return specbase.Hadoop(dst, tasks, c, stage, slots, p), nil
}

func checkHadoop(fn string, p HadoopConfig) error {
	if err := check.Unit(fn, check.Scalar, "CapRunning", p.CapRunning); err != nil {
		return err
	}
	if err := check.Unit(fn, check.Scalar, "CapTotal", p.CapTotal); err != nil {
		return err
	}
	if err := check.Count(fn, check.Scalar, "MinAllowed", p.MinAllowed); err != nil {
		return err
	}
	if err := check.Count(fn, check.Scalar, "MinCompleted", p.MinCompleted); err != nil {
		return err
	}
	return check.Unit(fn, check.Scalar, "MinCompletedShare", p.MinCompletedShare)
}
