package sim

import (
	"fmt"

	"github.com/specsched/specsched/internal/check"
)

// A Decision is a run's state at one of its decisions, as an Allocator and
// an InJobRule see it: the active jobs — arrived and not yet complete — in
// arrival order (ties by input index), the k-th at position k = 0 …
// Active()−1. It is valid only during the call it is handed to, and must not
// be kept.
//
// Every method takes O(1) unless it says otherwise, and none panics. A
// position k outside [0, Active()), a running task i outside [0,
// Running(k)) or a negative count n is a misuse: the method returns zero
// values (Launch 0, Copy false) and the Decision records the first misuse
// as a *specsched.InputError (Func "sim.Decision.Job" etc., Index k, Field
// "k", "i" or "n"), which Simulate returns once the allocator's or rule's
// call returns, ending the run. A nil or zero Decision (not handed out by
// Simulate) returns zero values and records nothing; the built-in
// allocators and rules return an InputError for it.
type Decision struct {
	e *engine
	// grant is the slots the rule being called may still fill with Launch
	// and Copy (0 outside InJobRule.Use).
	grant int
}

// valid reports whether d was handed out by Simulate.
func (d *Decision) valid() bool { return d != nil && d.e != nil }

// job returns the index of the active job at position k, or false if there
// is none (the caller records the misuse: misuseK). It is kept inlinable:
// the accessors' bounds test is one comparison on the hot path. (Each
// accessor therefore repeats the three lines that call misuseK: folding
// that call into job puts it over the inlining budget.)
func (d *Decision) job(k int) (int32, bool) {
	if d != nil && d.e != nil && uint(k) < uint(len(d.e.active)) {
		return d.e.active[k], true
	}
	return 0, false
}

// misuseK records the misuse of a position k by function fn (see misuse).
//
//go:noinline
func (d *Decision) misuseK(fn string, k int) { d.misuse(fn, k, "k", k) }

// task returns the running task i of the active job at position k, or
// false (the misuse recorded for function fn) if there is none.
func (d *Decision) task(fn string, k, i int) (int32, bool) {
	j, ok := d.job(k)
	if !ok {
		d.misuseK(fn, k)
		return 0, false
	}
	if running := d.e.js[j].running; uint(i) < uint(len(running)) {
		return running[i], true
	}
	d.misuse(fn, k, "i", i)
	return 0, false
}

// misuse records, for a Decision handed out by Simulate, the first misuse of
// its methods, which the engine returns once the allocator's or rule's call
// returns: field k, i or n of function fn (a Decision method, or a built-in
// rule's CanUse) given v for the active job at position k. It is kept out of line so that the accessors' bounds test
// stays cheap and inlinable.
//
//go:noinline
func (d *Decision) misuse(fn string, k int, field string, v int) {
	if !d.valid() || d.e.err != nil {
		return
	}
	reason := "must be ≥ 0"
	switch field {
	case "k":
		reason = fmt.Sprintf("must lie in [0, Active()) = [0, %d)", len(d.e.active))
	case "i":
		reason = "must lie in [0, Running(k))"
	}
	d.e.err = check.Err(fn, k, field, float64(v), reason)
}

// Now is the time of the decision (0 for a nil or zero Decision).
func (d *Decision) Now() float64 {
	if !d.valid() {
		return 0
	}
	return d.e.now
}

// Capacity is the number of slots the allocator shares: Config.Slots, less
// the reserved pool of budgeted speculation (BudgetedRule); 0 for a nil or
// zero Decision.
func (d *Decision) Capacity() int {
	if !d.valid() {
		return 0
	}
	return d.e.regCap
}

// Active is the number of active jobs (0 for a nil or zero Decision).
func (d *Decision) Active() int {
	if !d.valid() {
		return 0
	}
	return len(d.e.active)
}

// Job is the index in Simulate's jobs of the active job at position k (0,
// and a misuse recorded, for k outside [0, Active()); see Decision).
func (d *Decision) Job(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Job", k)
	}
	return int(j)
}

// Beta is the Pareto tail index β of the active job at position k
// (Job.Beta; 0, and a misuse recorded, for k outside [0, Active())).
func (d *Decision) Beta(k int) float64 {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Beta", k)
		return 0
	}
	return d.e.jobs[j].Beta
}

// ClusterBeta is the β the homogeneous Hopper allocators assume for every
// job: Config.Beta, or the jobs' β weighted by their tasks (0 for a nil or
// zero Decision).
func (d *Decision) ClusterBeta() float64 {
	if !d.valid() {
		return 0
	}
	return d.e.betaC
}

// Remaining is T_j of the active job at position k: its tasks whose run is
// not over, over all its phases (0, and a misuse recorded, for k outside
// [0, Active())).
func (d *Decision) Remaining(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Remaining", k)
		return 0
	}
	return int(d.e.js[j].unfinished)
}

// Held is the number of slots the active job at position k holds outside
// budgeted speculation's pool (0, and a misuse recorded, for k outside [0,
// Active())).
func (d *Decision) Held(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Held", k)
		return 0
	}
	return d.e.held(j)
}

// Unscheduled is the number of unscheduled tasks of the active job at
// position k in its runnable phases: the tasks Launch can start now (0, and
// a misuse recorded, for k outside [0, Active())).
func (d *Decision) Unscheduled(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Unscheduled", k)
		return 0
	}
	return int(d.e.js[j].unsched)
}

// Demand is the number of slots the active job at position k could use
// now: those it holds, plus one per unscheduled runnable task, plus, under
// best-effort speculation (BestEffortRule), one per detected straggler (its
// copy counts as a task; O(R·c) for its R running tasks of c copies each).
// It is what the SRPT and Fair allocators cap each job at. 0, and a misuse
// recorded, for k outside [0, Active()).
func (d *Decision) Demand(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Demand", k)
		return 0
	}
	e := d.e
	n := e.held(j) + int(e.js[j].unsched)
	if e.requester != nil {
		r, err := e.requester.requests(e, j)
		if err != nil && e.err == nil {
			e.err = err // reported by the engine once the call returns
		}
		n += r
	}
	return n
}

// Running is the number of running tasks of the active job at position k:
// tasks with at least one live copy whose run is not over (0, and a misuse
// recorded, for k outside [0, Active())).
func (d *Decision) Running(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Running", k)
		return 0
	}
	return len(d.e.js[j].running)
}

// RunningTask describes running task i ∈ [0, Running(k)) of the active job
// at position k: its live copies, how long since its first copy started,
// and its remaining time t_rem as the job's scheduler estimates it
// (Speculation.Estimator; O(c) for c copies; 0 under Observed until its
// first copy has reported: no estimate). The order of the running
// tasks is fixed by the run and changes as tasks finish. Zeros, and a
// misuse recorded, for k or i out of range.
func (d *Decision) RunningTask(k, i int) (copies int, elapsed, remaining float64) {
	t, ok := d.task("sim.Decision.RunningTask", k, i)
	if !ok {
		return 0, 0, 0
	}
	e := d.e
	ts := &e.ts[t]
	return int(ts.copies), e.now - ts.start, e.remaining(t)
}

// Launch starts the first copies of up to n of the job's unscheduled
// runnable tasks (upstream phase first, in index order), within the slots
// the rule may still fill, and returns how many it started. Only an
// InJobRule's Use may call it (elsewhere it starts nothing). It starts
// nothing, and a misuse is recorded, for k outside [0, Active()) or n < 0.
func (d *Decision) Launch(k, n int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Launch", k)
		return 0
	}
	if n < 0 {
		d.misuse("sim.Decision.Launch", k, "n", n)
		return 0
	}
	used := d.e.launchUpTo(j, min(n, d.grant))
	d.grant -= used
	return used
}

// Copy starts another copy of running task i of the active job at position
// k, and reports whether it did: not when the rule has no slot left to
// fill or the task already runs MaxCopies copies. Only an InJobRule's Use
// may call it (elsewhere it starts nothing). It starts nothing, and a
// misuse is recorded, for k or i out of range.
func (d *Decision) Copy(k, i int) bool {
	t, ok := d.task("sim.Decision.Copy", k, i)
	if !ok {
		return false
	}
	e := d.e
	if d.grant <= 0 || e.ts[t].copies >= MaxCopies {
		return false
	}
	e.startCopy(t, false)
	d.grant--
	return true
}

// allocArgs checks the arguments of built-in allocator fn's Allocate (nilA:
// its receiver is nil): a Decision handed out by Simulate, and target and
// key of length Active().
func allocArgs(fn string, nilA bool, d *Decision, target []int, key []float64) error {
	if nilA {
		return check.ErrText(fn, check.Scalar, "receiver", "nil", "must not be nil (use NewAllocator or a new value)")
	}
	if !d.valid() {
		return check.ErrText(fn, check.Scalar, "d", "not from Simulate", "must be a Decision handed out by Simulate, not nil or zero")
	}
	n := len(d.e.active)
	if err := check.Len(fn, "target", len(target), n); err != nil {
		return err
	}
	return check.Len(fn, "key", len(key), n)
}

// ruleArgs checks the arguments of built-in rule fn's Use (nilR: its
// receiver is nil) — a Decision handed out by Simulate, k in [0, Active()),
// g ≥ 1 — and returns the active job at position k and the slots the rule
// may fill: g, at most what the Decision still grants (Launch and Copy's
// bound; 0 outside InJobRule.Use).
func ruleArgs(fn string, nilR bool, d *Decision, k, g int) (int32, int, error) {
	switch {
	case nilR:
		return 0, 0, nilRule(fn)
	case !d.valid():
		return 0, 0, check.ErrText(fn, check.Scalar, "d", "not from Simulate", "must be a Decision handed out by Simulate, not nil or zero")
	case uint(k) >= uint(len(d.e.active)):
		return 0, 0, check.Err(fn, k, "k", float64(k), fmt.Sprintf("must lie in [0, Active()) = [0, %d)", len(d.e.active)))
	case g < 1:
		return 0, 0, check.Err(fn, k, "g", float64(g), "must be ≥ 1")
	}
	return d.e.active[k], min(g, d.grant), nil
}
