package sim

import (
	"github.com/specsched/specsched/stragglers"
)

// HadoopRule is Hadoop MapReduce's default speculator
// (DefaultSpeculator.maybeScheduleASpeculation, Hadoop 3) as an in-job
// rule, by stragglers.HadoopSpeculateStats with Hadoop's defaults
// (stragglers.DefaultHadoop): each phase of a job is a task type; once one
// task and 5% of a phase's tasks have finished and none of its tasks waits
// for a slot, the running task with one copy whose estimated remaining
// time exceeds the mean duration of the phase's finished tasks by the
// most gets a copy — one per phase per decision, while fewer than
// max(10, 1% of the phase's tasks, 10% of its running ones) run two
// copies or more. Of the g slots the job is handed, its unscheduled tasks
// take the first, then the phases speculate in order, upstream first.
//
// t_rem is the job's estimator's (RunningTask; under Observed, from the
// reports: Hadoop's LegacyTaskRuntimeEstimator, the progress rate at the
// last report), 0 (never worth a copy) before the task has run
// Speculation.Detect × t_new; the mean is that of the finished tasks' runs
// (Decision.AppendComputed). Hadoop rescans every second, or 15 s after a
// scan that speculated (HadoopRetryAfterNoSpeculate,
// HadoopRetryAfterSpeculate); the rule scans at every decision (see
// LATERule on timing): the 15 s pause is not modelled, the simulator's
// time unit being the workload's.
//
// Cost: O(g) for a job whose unscheduled tasks take its g slots;
// otherwise per phase with a running task O(R·c) for the job's R running
// tasks of c copies, plus, when the phase's finished tasks changed, O(s
// log s) for its s started tasks.
type HadoopRule struct {
	baseline
	stages stageStats
}

// Bookkeeping implements BookkeepingRule: decisions at the instants a task
// has run Speculation.Detect × t_new and, under Observed, at the reports
// that lift its estimate above t_new.
func (*HadoopRule) Bookkeeping() Bookkeeping { return Bookkeeping{Stragglers: true} }

// hadoopReady reports whether Hadoop may speculate in a phase: it has a
// running task, and at least one and MinCompletedShare of its tasks have
// finished.
func hadoopReady(st PhaseStatus, p stragglers.HadoopConfig) bool {
	running := st.Tasks - st.Computed - st.Unscheduled
	return st.Runnable && running > 0 && st.Computed >= max(p.MinCompleted, 1) &&
		float64(st.Computed) >= p.MinCompletedShare*float64(st.Tasks)
}

// CanUse implements InJobRule: a phase of the job with a running task has
// finished enough tasks. False for a nil or zero Decision and for k
// outside [0, d.Active()), recording nothing.
func (*HadoopRule) CanUse(d *Decision, k int) bool {
	if !inRange(d, k) {
		return false
	}
	p := stragglers.DefaultHadoop()
	for ph := range d.Phases(k) {
		if hadoopReady(d.Phase(k, ph), p) {
			return true
		}
	}
	return false
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *HadoopRule) Use(d *Decision, k, g int) error {
	const fn = "sim.HadoopRule.Use"
	g, err := ruleArgs(fn, r == nil, d, k, g)
	if err != nil {
		return err
	}
	free := g - d.Launch(k, g)
	p := stragglers.DefaultHadoop()
	minElapsed := d.Config().Speculation.Detect * d.NewCopy(k)
	for ph := 0; ph < d.Phases(k) && free > 0; ph++ {
		if !hadoopReady(d.Phase(k, ph), p) {
			continue
		}
		busy := r.viewPhase(d, k, ph, func(i int) stragglers.TaskStatus {
			copies, elapsed, rem := d.RunningTask(k, i)
			if !judgeable(elapsed, minElapsed) {
				rem = 0
			}
			return stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Running, Copies: copies, Elapsed: elapsed, Remaining: rem}}
		})
		r.acts, err = stragglers.HadoopSpeculateStats(r.acts, r.view, r.stages.of(d, k, ph), busy+free, p, &r.ws)
		if err != nil {
			return internalError(fn, "stragglers.HadoopSpeculateStats", err)
		}
		if err := r.apply(fn, d, k, nil); err != nil {
			return err
		}
		free -= len(r.acts)
	}
	return nil
}
