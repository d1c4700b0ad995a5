package sim

import (
	"fmt"

	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// The speculation baselines as in-job rules: LATE (LATERule), GRASS
// (GRASSRule), Dolly (DollyRule), Spark's default speculation (SparkRule)
// and Hadoop MapReduce's default speculator (HadoopRule), each the decision
// function of package stragglers fed with what the real system knows, and
// combinable with any allocator (NewRule "late", "grass", "dolly", "spark",
// "hadoop").
//
// What they see. Each reads the run through the exported Decision methods
// only, and of a running task only what its scheduler could know: its live
// copies, how long it has run (Decision.Elapsed), its phase
// (RunningPhase), its estimated remaining time t_rem (RunningTask) or its
// reported progress (Reported), and of the finished tasks how long they
// ran (AppendComputed); of the cluster its busy slots (Busy) and running
// copies (SpeculativeCopies). Under Estimator Observed, t_rem and the
// progress come from the copies' reports only — what LATE, Spark and
// Hadoop see in reality — so no baseline reads a task's true end or
// duration (TestBaselinesSeeNoFuture). Under Oracle and Progress, t_rem is
// the true remaining time (times η under Progress) and the progress the
// score that makes LATE's time left t_rem: GRASS, LATE and Hadoop then read
// the future, as Hopper's rule does; Spark (elapsed times and finished
// durations) and Dolly (task counts) never do.
//
// Memory. DollyRule, SparkRule and HadoopRule remember jobs between the
// decisions of a run (admissions, the finished tasks' statistics), keyed
// by job index; their Bookkeeping, which Simulate calls when a run starts,
// clears it. A caller's rule that wraps one must forward Bookkeeping.
//
// When they decide. The rules act at the simulator's decisions (copy ends,
// arrivals and, for the rules that ask for the straggler bookkeeping —
// LATE, GRASS, Hadoop —, the instants a task has run Speculation.Detect ×
// t_new and, under Observed, the reports that lift a task's estimate above
// t_new). The real systems check more often — Hadoop's TaskTrackers
// heartbeat every 3 s, Spark checks every 100 ms, Hadoop's speculator
// scans every second — so a task that turns speculatable between two of
// the simulator's decisions, with slots idle, is copied at the next one.
// Speculation.Mantri and Threshold select Hopper's straggler test and are
// not read by the baselines, which have their own.

// baseline is the scratch memory of a baseline rule: the view of a job's
// tasks, the decision function's actions and workspace.
type baseline struct {
	view []stragglers.TaskStatus
	acts []stragglers.Action
	ws   specbase.Workspace
	// run[v] is the running task (its index for Decision.Copy) of view
	// entry v, once running: the running tasks' own index, a launched
	// task's the index Launch gave it.
	run []int
}

// addUnscheduled appends n unscheduled tasks of t_new tnew to the view:
// the next tasks Decision.Launch starts, in that order.
func (b *baseline) addUnscheduled(n int, tnew float64) {
	for range n {
		b.view = append(b.view, stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Unscheduled}, NewCopy: tnew})
		b.run = append(b.run, -1)
	}
}

// apply starts b.acts on the view of the active job at position k, in
// order: a launch starts the job's next unscheduled task (the view lists
// them in that order), a copy copies the view's task — a running one, or
// one launched by an earlier action (Dolly's clones). copyOK, if not nil,
// is asked before each copy and may refuse it (a cap). It returns how many
// copies it started; an action that cannot start is rule fn's internal
// error.
func (b *baseline) apply(fn string, d *Decision, k int, copyOK func() bool) error {
	for _, a := range b.acts {
		ok := false
		switch a.Kind {
		case stragglers.Launch:
			if ok = d.Launch(k, 1) == 1; ok { // a launch is of an unscheduled entry
				b.run[a.Task] = d.Running(k) - 1
			}
		case stragglers.Copy:
			if copyOK != nil && !copyOK() {
				continue
			}
			ok = b.run[a.Task] >= 0 && d.Copy(k, b.run[a.Task])
		}
		if !ok {
			return fmt.Errorf("%s: internal error: action %d on task %d could not start", fn, a.Kind, a.Task)
		}
	}
	return nil
}

// judgeable reports whether a task that has run elapsed may be judged: it
// has run Speculation.Detect × t_new (as the engine's detectAt reckons it,
// elapsed ≥ minElapsed).
func judgeable(elapsed, minElapsed float64) bool { return elapsed >= minElapsed }

// inRange reports whether k is a position of the active jobs of d (false
// for a nil or zero Decision): the baselines' CanUse records no misuse.
func inRange(d *Decision, k int) bool { return uint(k) < uint(d.Active()) }

// viewPhase writes to b.view the running tasks of phase p of the active
// job at position k (of every phase for p < 0), in RunningTask's order,
// each by status(i) for its running index i, and returns the slots they
// hold. O(R) for the job's R running tasks, plus R calls of status.
func (b *baseline) viewPhase(d *Decision, k, p int, status func(i int) stragglers.TaskStatus) int {
	b.view, b.run = b.view[:0], b.run[:0]
	busy := 0
	for i := range d.Running(k) {
		if p >= 0 && d.RunningPhase(k, i) != p {
			continue
		}
		s := status(i)
		b.view = append(b.view, s)
		b.run = append(b.run, i)
		busy += s.Copies
	}
	return busy
}

// launchFirst checks a Use's arguments (ruleArgs), launches the job's
// unscheduled tasks in up to g of its slots — the progress-based systems
// run a job's tasks before any copy — and returns the slots left for
// copies.
func launchFirst(fn string, nilReceiver bool, d *Decision, k, g int) (int, error) {
	g, err := ruleArgs(fn, nilReceiver, d, k, g)
	if err != nil {
		return 0, err
	}
	return g - d.Launch(k, g), nil
}
