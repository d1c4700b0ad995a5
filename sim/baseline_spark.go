package sim

import (
	"math"

	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// SparkRule is Apache Spark's default speculation (spark.speculation =
// true; TaskSetManager.checkSpeculatableTasks) as an in-job rule, by
// stragglers.SparkSpeculateStats with Spark's long-standing defaults
// (stragglers.DefaultSpark: multiplier 1.5, quantile 0.75): each phase of
// a job is a stage, and once 75% of a stage's tasks have finished, a
// running task of it with one copy that has run longer than 1.5 × the
// median duration of the stage's finished tasks gets a copy. Of the g
// slots the job is handed, its unscheduled tasks take the first (Spark
// offers a slot to a stage's pending tasks before its speculatable ones),
// and the rest go to speculatable tasks, stages upstream first, the
// longest-running first within a stage.
//
// It reads how long each running task has run (Decision.Elapsed) and how
// long the finished ones ran (Decision.AppendComputed: the winning copy's
// run): what Spark knows, the same under every Estimator,
// never an estimate. Spark's 100 ms floor on the threshold
// (spark.speculation.minTaskRuntime) is in seconds, which the simulator's
// time unit need not be; the rule uses no floor (MinRuntime 0), the
// thresholds of the tasks it judges being far above 100 ms in the
// workloads it runs (tasks of tens of seconds). Spark checks every 100 ms
// (spark.speculation.interval); the rule, at the simulator's decisions (see
// LATERule on timing).
//
// Cost: O(g) for a job whose unscheduled tasks take its g slots;
// otherwise O(P) to find its ready stages among P phases, then per ready
// stage O(R) for the job's R running tasks — only when its finished tasks
// changed or a task may have crossed the threshold since the last look
// (sparkQuiet); O(1) otherwise —, plus, when the stage's finished tasks
// changed, O(s) expected for its s started tasks (the median).
type SparkRule struct {
	baseline
	stages stageStats
	quiet  map[stageKey]sparkQuiet
}

// sparkQuiet is what the last look at a stage of a job found: its finished
// tasks then (the threshold's median) and the start of its oldest running
// task with one copy, or the look's time if none is older. Until the
// finished tasks change or that oldest task has run the threshold, no task
// of the stage is speculatable: tasks launched since started later, and a
// task's copies only grow until it ends. So a stage is looked at again
// only when a task may have crossed the threshold, which makes the rule's
// cost per decision O(1) for the jobs where none has.
type sparkQuiet struct {
	finished int
	oldest   float64
}

// quietTol is the relative margin by which a stage is looked at again
// before its oldest task reaches the threshold, against the rounding of
// its start recovered as now − elapsed.
const quietTol = 1e-9

// Bookkeeping implements BookkeepingRule: none (Spark judges by elapsed
// times, which need no bookkeeping). Simulate calls it when a run starts:
// it clears the rule's memory of the previous run.
func (r *SparkRule) Bookkeeping() Bookkeeping {
	if r != nil {
		r.stages.reset()
		clear(r.quiet)
	}
	return Bookkeeping{}
}

// sparkReady reports whether phase p of the active job at position k has
// finished enough tasks for Spark to speculate in it (SparkConfig's
// Quantile: more than one task, at least max(⌊0.75·n⌋, 1) finished).
func sparkReady(st PhaseStatus, quantile float64) bool {
	return st.Tasks > 1 && st.Computed >= max(int(math.Floor(quantile*float64(st.Tasks))), 1)
}

// anySparkReady reports whether a phase of the active job at position k
// with a running task is ready (O(P) for P phases).
func anySparkReady(d *Decision, k int, quantile float64) bool {
	for p := range d.Phases(k) {
		if st := d.Phase(k, p); st.Runnable && st.Tasks-st.Computed-st.Unscheduled > 0 && sparkReady(st, quantile) {
			return true
		}
	}
	return false
}

// CanUse implements InJobRule: a phase of the job with a running task has
// finished 75% of its tasks. False for a nil or zero Decision and for k
// outside [0, d.Active()), recording nothing.
func (*SparkRule) CanUse(d *Decision, k int) bool {
	return inRange(d, k) && anySparkReady(d, k, stragglers.DefaultSpark().Quantile)
}

// Requests implements RequestRule: the job's speculatable tasks, over its
// ready stages (what Decision.Demand adds, so that SRPT and Fair hand
// Spark's copies slots, as best-effort speculation's). It returns a
// *specsched.InputError for a nil receiver.
func (r *SparkRule) Requests(d *Decision, k int) (int, error) {
	const fn = "sim.SparkRule.Requests"
	if r == nil {
		return 0, nilRule(fn)
	}
	n := 0
	err := r.stagesDo(d, k, -1, func() error {
		n += len(r.acts)
		return nil
	})
	return n, err
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *SparkRule) Use(d *Decision, k, g int) error {
	const fn = "sim.SparkRule.Use"
	free, err := launchFirst(fn, r == nil, d, k, g)
	if err != nil || free <= 0 {
		return err
	}
	return r.stagesDo(d, k, free, func() error { return r.apply(fn, d, k, nil) })
}

// stagesDo makes stragglers.SparkSpeculateStats's decision (its kernel,
// on the stage's view) for every ready stage of the active job at
// position k with a running task, upstream first, with
// up to free free slots (free < 0: as many as the stage's running tasks),
// then act on its copies (r.acts); with free ≥ 0, each stage's copies take
// their slots, and it stops once none is left.
func (r *SparkRule) stagesDo(d *Decision, k, free int, act func() error) error {
	p := stragglers.DefaultSpark()
	p.MinRuntime = 0
	if !inRange(d, k) || !anySparkReady(d, k, p.Quantile) {
		return nil
	}
	now := d.Now()
	for ph := 0; ph < d.Phases(k) && free != 0; ph++ {
		if st := d.Phase(k, ph); !st.Runnable || !sparkReady(st, p.Quantile) {
			continue
		}
		stats := r.stages.of(d, k, ph)
		threshold := max(p.Multiplier*stats.Median, p.MinRuntime) // as SparkSpeculateStats's
		key := stageKey{d.Job(k), ph}
		if q, ok := r.quiet[key]; ok && q.finished == stats.Finished && now-q.oldest < threshold*(1-quietTol) {
			continue // no task can have crossed the threshold since the last look
		}
		oldest := now
		busy := r.viewPhase(d, k, ph, func(i int) stragglers.TaskStatus {
			copies, elapsed := d.Copies(k, i), d.Elapsed(k, i)
			if copies == 1 {
				oldest = math.Min(oldest, now-elapsed)
			}
			return stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Running, Copies: copies, Elapsed: elapsed}}
		})
		if r.quiet == nil {
			r.quiet = map[stageKey]sparkQuiet{}
		}
		r.quiet[key] = sparkQuiet{finished: stats.Finished, oldest: oldest}
		if len(r.view) == 0 {
			continue
		}
		slots := busy + free
		if free < 0 {
			slots = busy + len(r.view)
		}
		r.acts = specbase.Spark(r.acts, r.view, specbase.Count(r.view), stats, slots, p, &r.ws)
		if err := act(); err != nil {
			return err
		}
		if free > 0 {
			free -= len(r.acts)
		}
	}
	return nil
}
