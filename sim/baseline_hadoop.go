package sim

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/specbase"
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
// tasks of c copies — under Oracle and Progress only when the phase's
// finished tasks changed or a task became old enough to judge since a
// look that copied nothing (hadoopQuiet); O(1) otherwise —, plus, when
// the phase's finished tasks changed, O(s) expected for its s started
// tasks (the mean, and the median of the shared cache).
type HadoopRule struct {
	baseline
	stages stageStats
	// The phases that have speculated at the instant at (Hadoop: one copy
	// per task type per scan; a decision may hand a job slots twice).
	at    float64
	spoke []stageKey
	quiet map[stageKey]hadoopQuiet
}

// hadoopQuiet is what the last look at a phase of a job found that copied
// nothing, under an estimator whose estimates only fall (Oracle,
// Progress): its finished tasks then (the mean) and the first time a task
// with one copy too young to be judged then becomes old enough. Until
// either changes, no task of the phase is worth a copy — every judged
// task's t_rem was at most the mean and only falls, tasks launched since
// are none (the phase had none unscheduled), copies only lower t_rem, and
// a cap reached stays so until a task finishes — so the phase is not
// looked at again.
type hadoopQuiet struct {
	finished int
	until    float64
}

// Bookkeeping implements BookkeepingRule: decisions at the instants a task
// has run Speculation.Detect × t_new and, under Observed, at the reports
// that lift its estimate above t_new. Simulate calls it when a run starts:
// it clears the rule's memory of the previous run.
func (r *HadoopRule) Bookkeeping() Bookkeeping {
	if r != nil {
		r.stages.reset()
		r.at, r.spoke = 0, r.spoke[:0]
		clear(r.quiet)
	}
	return Bookkeeping{Stragglers: true}
}

// hadoopReady reports whether Hadoop may speculate in a phase: it has a
// running task and no unscheduled one (DefaultSpeculator skips a task type
// with attempts waiting for a container), and at least one and
// MinCompletedShare of its tasks have finished.
func hadoopReady(st PhaseStatus, p stragglers.HadoopConfig) bool {
	running := st.Tasks - st.Computed - st.Unscheduled
	return st.Runnable && st.Unscheduled == 0 && running > 0 && st.Computed >= max(p.MinCompleted, 1) &&
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

// Requests implements RequestRule: one copy per phase that would
// speculate now (what Decision.Demand adds, so that SRPT and Fair hand
// Hadoop's copies slots, as best-effort speculation's). It returns a
// *specsched.InputError for a nil receiver.
func (r *HadoopRule) Requests(d *Decision, k int) (int, error) {
	const fn = "sim.HadoopRule.Requests"
	if r == nil {
		return 0, nilRule(fn)
	}
	n := 0
	err := r.scan(d, k, -1, func(int) error {
		n += len(r.acts)
		return nil
	})
	return n, err
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *HadoopRule) Use(d *Decision, k, g int) error {
	const fn = "sim.HadoopRule.Use"
	free, err := launchFirst(fn, r == nil, d, k, g)
	if err != nil || free <= 0 {
		return err
	}
	if now := d.Now(); now != r.at {
		r.at, r.spoke = now, r.spoke[:0]
	}
	return r.scan(d, k, free, func(ph int) error {
		if len(r.acts) > 0 {
			r.spoke = append(r.spoke, stageKey{d.Job(k), ph})
		}
		return r.apply(fn, d, k, nil)
	})
}

// scan is one scan of Hadoop's speculator over the ready phases of the
// active job at position k, upstream first, with up to free free slots
// (free < 0: one per phase), each phase's copy (r.acts) handed to act; a
// phase that has speculated at this instant (r.spoke, in Use) is skipped.
// It stops once no free slot is left.
func (r *HadoopRule) scan(d *Decision, k, free int, act func(ph int) error) error {
	if !inRange(d, k) {
		return nil
	}
	p := stragglers.DefaultHadoop()
	minElapsed := d.Config().Speculation.Detect * d.NewCopy(k)
	now := d.Now()
	// Under Oracle and Progress a copy's estimate only falls as time
	// passes (η·(end − now)); under Observed a report may raise it.
	falling := d.Config().Speculation.Estimator != Observed
	for ph := 0; ph < d.Phases(k) && free != 0; ph++ {
		if !hadoopReady(d.Phase(k, ph), p) || free > 0 && slices.Contains(r.spoke, stageKey{d.Job(k), ph}) {
			continue
		}
		stats := r.stages.of(d, k, ph)
		key := stageKey{d.Job(k), ph}
		if q, ok := r.quiet[key]; ok && q.finished == stats.Finished && now < q.until-thetaTol*math.Max(1, math.Abs(q.until)) {
			continue // no estimate can have risen above the mean since the last look
		}
		until := math.Inf(1)
		busy := r.viewPhase(d, k, ph, func(i int) stragglers.TaskStatus {
			copies, elapsed, rem := d.RunningTask(k, i)
			if !judgeable(elapsed, minElapsed) {
				rem = 0
				if copies == 1 {
					until = math.Min(until, now-elapsed+minElapsed)
				}
			}
			return stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Running, Copies: copies, Elapsed: elapsed, Remaining: rem}}
		})
		r.acts = specbase.Hadoop(r.acts, r.view, specbase.Count(r.view), stats, busy+max(free, 1), p)
		if falling && len(r.acts) == 0 {
			if r.quiet == nil {
				r.quiet = map[stageKey]hadoopQuiet{}
			}
			r.quiet[key] = hadoopQuiet{finished: stats.Finished, until: until}
		} else {
			delete(r.quiet, key)
		}
		if err := act(ph); err != nil {
			return err
		}
		if free > 0 {
			free -= len(r.acts)
		}
	}
	return nil
}
