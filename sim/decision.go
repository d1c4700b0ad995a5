package sim

import (
	"fmt"
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/stragglers"
)

// A Decision is a run's state at one of its decisions, as an Allocator and
// an InJobRule see it: the active jobs — arrived and not yet complete — in
// arrival order (ties by input index), the k-th at position k = 0 …
// Active()−1. It is valid only during the call it is handed to, and must not
// be kept.
//
// Every method takes O(1) unless it says otherwise, and none panics. A
// position k outside [0, Active()), a running task i outside [0,
// Running(k)), a phase p outside [0, Phases(k)) or a negative count n is a
// misuse: the method returns zero values (Launch 0, Copy false) and the
// Decision records the first misuse as a *specsched.InputError (Func
// "sim.Decision.Job" etc., Index k, Field "k", "i", "p" or "n"), which
// Simulate returns once the allocator's or rule's call returns, ending the
// run. A nil or zero Decision (not handed out by
// Simulate) returns zero values and records nothing; the built-in
// allocators and rules return an InputError for it.
type Decision struct {
	e *engine
	// grant is the slots the rule being called may still fill with Launch
	// and Copy (0 outside InJobRule.Use and PoolRule.FillPool).
	grant int
	// pool: the call is PoolRule.FillPool, whose copies run in the pool.
	pool bool
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
	case "p":
		reason = "must lie in [0, Phases(k))"
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

// AppendRemaining appends Remaining(k) of every active job, k = 0 …
// Active()−1, to dst as float64 — the vector of T_j the Hopper allocators
// take — and returns it (dst unchanged for a nil or zero Decision). O(n)
// for n active jobs.
func (d *Decision) AppendRemaining(dst []float64) []float64 {
	if !d.valid() {
		return dst
	}
	for _, j := range d.e.active {
		dst = append(dst, float64(d.e.js[j].unfinished))
	}
	return dst
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
// now: those it holds, plus one per unscheduled runnable task, plus, for a
// RequestRule with speculation on, the copies it requests (Requests; under
// best-effort speculation, BestEffortRule, one per detected straggler,
// whose copy counts as a task: O(R·c) for its R running tasks of c copies
// each). It is what the SRPT and Fair allocators cap each job at. An error
// of Requests is the run's. 0, and a misuse recorded, for k outside [0,
// Active()).
func (d *Decision) Demand(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Demand", k)
		return 0
	}
	e := d.e
	n := e.held(j) + int(e.js[j].unsched)
	if e.requester != nil {
		r, err := e.requester.Requests(d, k)
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
// the rule may still fill, and returns how many it started; each new task
// is appended to the job's running tasks (RunningTask's order). Only an
// InJobRule's Use may call it (elsewhere, and in PoolRule.FillPool, whose
// pool runs copies only, it starts nothing). It starts nothing, and a
// misuse is recorded, for k outside [0, Active()) or n < 0.
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
	if d.pool {
		return 0
	}
	used := d.e.launchUpTo(j, min(n, d.grant))
	d.grant -= used
	return used
}

// Copy starts another copy of running task i of the active job at position
// k, and reports whether it did: not when the rule has no slot left to
// fill or the task already runs MaxCopies copies. Only an InJobRule's Use
// and a PoolRule's FillPool may call it (elsewhere it starts nothing); in
// FillPool the copy runs in the reserved pool. It starts nothing, and a
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
	e.startCopy(t, d.pool)
	d.grant--
	return true
}

// Config is the run's configuration, as passed to Simulate (a copy: the
// caller's allocator and rule read their parameters here, e.g. Eps,
// Lambda, Speculation). O(1). The zero Config for a nil or zero Decision.
func (d *Decision) Config() Config {
	if !d.valid() {
		return Config{}
	}
	return d.e.cfg
}

// NewCopy is t_new of the active job at position k: the mean duration of
// a new copy of one of its tasks (Job.NewCopy, or the mean over its
// phases; the level of the thesis's straggler rule). 0, and a misuse
// recorded, for k outside [0, Active()).
func (d *Decision) NewCopy(k int) float64 {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.NewCopy", k)
		return 0
	}
	return d.e.js[j].tnew
}

// PoolHeld is the number of slots the active job at position k holds in
// the reserved pool of a PoolRule (0, and a misuse recorded, for k outside
// [0, Active())).
func (d *Decision) PoolHeld(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.PoolHeld", k)
		return 0
	}
	return int(d.e.js[j].poolHeld)
}

// Waiting is the number of tasks of the active job at position k whose run
// is over but which wait for their upstream phase to complete; each holds
// one slot, counted by Held. The job's running tasks' live copies hold
// Held(k) + PoolHeld(k) − Waiting(k) slots. 0, and a misuse recorded, for k
// outside [0, Active()).
func (d *Decision) Waiting(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Waiting", k)
		return 0
	}
	return int(d.e.js[j].waiting)
}

// Capped is the number of running tasks of the active job at position k
// that run MaxCopies live copies: tasks Copy will not copy again (0, and a
// misuse recorded, for k outside [0, Active())).
func (d *Decision) Capped(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Capped", k)
		return 0
	}
	return int(d.e.js[j].capped)
}

// Copies is the number of live copies of running task i of the active job
// at position k: RunningTask's first result, without the estimate (0, and
// a misuse recorded, for k or i out of range).
func (d *Decision) Copies(k, i int) int {
	t, ok := d.task("sim.Decision.Copies", k, i)
	if !ok {
		return 0
	}
	return int(d.e.ts[t].copies)
}

// A PhaseStatus is the progress of one phase of a job (Decision.Phase).
type PhaseStatus struct {
	// Tasks is the phase's number of tasks; Unscheduled those not started
	// yet (runnable or not); Computed those whose run is over (done, or
	// waiting for the upstream phase).
	Tasks, Unscheduled, Computed int
	// Runnable: the phase's tasks may start (its upstream phase has
	// computed enough tasks; Phase.Start).
	Runnable bool
}

// Phases is the number of phases of the active job at position k (0, and
// a misuse recorded, for k outside [0, Active())).
func (d *Decision) Phases(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Phases", k)
		return 0
	}
	js := &d.e.js[j]
	return int(js.phi - js.plo)
}

// phase returns the state of phase p of the active job at position k, or
// nil (the misuse recorded for function fn) if there is none.
func (d *Decision) phase(fn string, k, p int) *phaseState {
	j, ok := d.job(k)
	if !ok {
		d.misuseK(fn, k)
		return nil
	}
	js := &d.e.js[j]
	if uint(p) >= uint(js.phi-js.plo) {
		d.misuse(fn, k, "p", p)
		return nil
	}
	return &d.e.ps[js.plo+int32(p)]
}

// Phase is the progress of phase p ∈ [0, Phases(k)) of the active job at
// position k, upstream first (the zero PhaseStatus, and a misuse recorded,
// for k or p out of range).
func (d *Decision) Phase(k, p int) PhaseStatus {
	ph := d.phase("sim.Decision.Phase", k, p)
	if ph == nil {
		return PhaseStatus{}
	}
	return PhaseStatus{Tasks: int(ph.n), Unscheduled: int(ph.n - ph.next), Computed: int(ph.computed), Runnable: ph.runnable}
}

// PhaseMoments are the mean and standard deviation of the durations of the
// first copies of phase p's tasks of the active job at position k: what a
// scheduler knows of the phase a priori, estimated from the trace as Xu et
// al. §5 do (SREW+C's E and σ, eq. 25). The first call of a run computes
// them for every phase, O(tasks); later calls take O(1). Zeros, and a
// misuse recorded, for k or p out of range.
func (d *Decision) PhaseMoments(k, p int) (mean, sd float64) {
	ph := d.phase("sim.Decision.PhaseMoments", k, p)
	if ph == nil {
		return 0, 0
	}
	if !d.e.moments {
		d.e.phaseMoments()
	}
	return ph.mean, ph.sd
}

// MayHaveStraggler is the engine's eligibility filter for a rule whose
// Bookkeeping asks for Stragglers: false only if no running task of the
// active job at position k can be judged a straggler now — none has run
// Speculation.Detect × t_new yet with t_rem above the rule's level (t_new,
// or Mantri's cut-off), up to a relative 1e-9 in favour of true. The engine
// keeps its bounds from the copies' starts and, under Observed, their
// reports, and AppendRunning makes them exact. Without that bookkeeping the
// bounds are not kept and it is false until AppendRunning sets them. O(1).
// False, and a misuse recorded, for k outside [0, Active()).
func (d *Decision) MayHaveStraggler(k int) bool {
	return d.mayHaveStraggler("sim.Decision.MayHaveStraggler", k)
}

// mayHaveStraggler is MayHaveStraggler with a misuse recorded as function
// fn's: the built-in rules' CanUse is this filter, called once per active
// job at every decision, so it is one call (see canJudge).
//
// The filter: a task can be judged only from φ (old enough, detectAt)
// while now < θ (t_rem above the rule's level): the job keeps an upper
// bound of θ over its tasks and a lower bound, quiet, of the earliest time
// at which a task with θ > max(φ, now) becomes judgeable; both are exact
// after AppendRunning and kept conservative by updateTheta in between.
func (d *Decision) mayHaveStraggler(fn string, k int) bool {
	j, ok := d.job(k)
	if !ok {
		d.misuseK(fn, k)
		return false
	}
	e := d.e
	if e.cfg.debug.noFilter {
		return true
	}
	if ix := e.indexOf(j); ix != nil {
		e.sync(j, ix)
		return ix.exit.Len() > 0 // exact (see stragglerIndex)
	}
	js := &e.js[j]
	return e.now >= js.quiet-thetaTol*math.Max(1, math.Abs(js.quiet)) && beyond(js.thetaMax, e.now)
}

// AppendRunning appends to dst, and returns, the running tasks of the
// active job at position k as stragglers.Speculate is shown them, in the
// order of RunningTask (entry i is running task i): State Running, their
// live copies, elapsed time and t_rem as RunningTask gives them, but t_rem
// = 0 (never eligible) for a task at MaxCopies copies. It also makes the
// job's eligibility bounds exact (MayHaveStraggler). O(R·c) for R running
// tasks of c copies. dst unchanged, and a misuse recorded, for k outside
// [0, Active()).
func (d *Decision) AppendRunning(dst []stragglers.Task, k int) []stragglers.Task {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.AppendRunning", k)
		return dst
	}
	dst, _ = d.e.appendRunning(dst, nil, j, false)
	return dst
}

// AppendSlow appends to dst the running tasks of the active job at
// position k whose estimated t_rem may exceed t_new (NewCopy) now, each as
// AppendRunning shows it, and to pos their running positions i
// (RunningTask's), in increasing order, and returns both. Every running
// task it leaves out has t_rem ≤ t_new, so a rule that copies only tasks
// slower than a new copy (GRASS: both its tests need t_rem > t_new) is
// shown all it may copy; the running tasks' slots are Held(k) +
// PoolHeld(k) − Waiting(k) and their number Running(k). Under Estimator Observed with the straggler
// bookkeeping (BookkeepingRule, Stragglers) and the thesis's rule, the
// tasks left out are those whose estimate was at or below t_new at the
// last report that could have lifted it, and their copies' estimates are
// not read: O(R + L·c) for R running tasks and L listed of c copies.
// Otherwise (another estimator, Mantri's rule, no bookkeeping) it lists
// every running task, as AppendRunning, O(R·c). It makes the job's
// eligibility bounds exact, as AppendRunning does. dst and pos unchanged,
// and a misuse recorded, for k outside [0, Active()).
func (d *Decision) AppendSlow(dst []stragglers.Task, pos []int, k int) ([]stragglers.Task, []int) {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.AppendSlow", k)
		return dst, pos
	}
	return d.e.appendRunning(dst, pos, j, true)
}

// Stragglers is the number of running tasks of the active job at position
// k that stragglers.Speculate, shown AppendRunning's view under the run's
// rule (Config.Speculation: the thesis's t_rem > t_new, or Mantri's), would
// find eligible for a copy now: tasks that have run Speculation.Detect ×
// t_new, below MaxCopies copies, whose t_rem passes the rule's level. It is
// what BestEffortRule requests. With the straggler bookkeeping
// (BookkeepingRule, Stragglers) and an estimator other than Observed, the
// engine keeps the eligible tasks indexed: amortised O(log E) per task
// becoming or ceasing to be eligible, E of them; otherwise O(R·c) for R
// running tasks of c copies. 0, and a misuse recorded, for k outside [0,
// Active()).
func (d *Decision) Stragglers(k int) int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.Stragglers", k)
		return 0
	}
	return d.e.eligibleCount(j)
}

// AppendStragglers appends to dst, and returns, the running positions i
// (RunningTask's) of the min(n, Stragglers(k)) eligible tasks of the
// active job at position k that Speculate would copy first — the most
// urgent: largest t_rem under the thesis's rule, largest c/(c+1)·t_rem
// under Mantri's, ties to the smaller position — in increasing position
// order, as Speculate's copy actions on AppendRunning's view come. Indexed
// as Stragglers: O((n + r)·(c + log E)), r the eligible tasks whose
// urgency fell past the n-th largest since a decision last ranked them;
// otherwise O(R·c + E log E). dst unchanged for n ≤ 0; dst unchanged, and
// a misuse recorded, for k outside [0, Active()).
func (d *Decision) AppendStragglers(dst []int, k, n int) []int {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.Decision.AppendStragglers", k)
		return dst
	}
	return d.e.appendUrgent(dst, j, n)
}

// PoolKey is the active job at position k's priority for the slots of a
// reserved pool (PoolRule), lower first: the run's allocator's PoolKey if
// it is a PoolKeyAllocator, Remaining(k) otherwise. O(1) plus the
// allocator's PoolKey. 0, and a misuse recorded, for k outside [0,
// Active()).
func (d *Decision) PoolKey(k int) float64 {
	if _, ok := d.job(k); !ok {
		d.misuseK("sim.Decision.PoolKey", k)
		return 0
	}
	if d.e.poolKeyer != nil {
		return d.e.poolKeyer.PoolKey(d, k)
	}
	return float64(d.Remaining(k))
}

// Grant is the number of slots the rule being called may still fill with
// Launch and Copy: in InJobRule.Use, what is left of the job's grant g; in
// PoolRule.FillPool, of the pool's free slots; 0 elsewhere and for a nil
// or zero Decision.
func (d *Decision) Grant() int {
	if !d.valid() {
		return 0
	}
	return d.grant
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
	n := d.Active()
	if err := check.Len(fn, "target", len(target), n); err != nil {
		return err
	}
	return check.Len(fn, "key", len(key), n)
}

// ruleArgs checks the arguments of built-in rule fn's Use (nilR: its
// receiver is nil) — a Decision handed out by Simulate, k in [0, Active()),
// g ≥ 1 — and returns the slots the rule may fill: g, at most what the
// Decision still grants (Launch and Copy's bound; 0 outside InJobRule.Use).
func ruleArgs(fn string, nilR bool, d *Decision, k, g int) (int, error) {
	switch {
	case nilR:
		return 0, nilRule(fn)
	case !d.valid():
		return 0, check.ErrText(fn, check.Scalar, "d", "not from Simulate", "must be a Decision handed out by Simulate, not nil or zero")
	case uint(k) >= uint(d.Active()):
		return 0, check.Err(fn, k, "k", float64(k), fmt.Sprintf("must lie in [0, Active()) = [0, %d)", d.Active()))
	case g < 1:
		return 0, check.Err(fn, k, "g", float64(g), "must be ≥ 1")
	}
	return min(g, d.Grant()), nil
}

// Views for the speculation baselines (LATE, GRASS, Dolly, Spark's and
// Hadoop's speculators: LATERule, GRASSRule, DollyRule, SparkRule,
// HadoopRule), each as the real system would know it: what a task has
// reported, when it started, which phase it belongs to, how long the
// finished tasks ran, and the cluster's busy slots and copies.

// Reported is the progress score of running task i of the active job at
// position k as its scheduler last saw it, and the age at which it was
// measured: LATE's progress rate is progress/age and its time left (1 −
// progress)/rate (the LATE paper, §4). O(c) for c copies.
//
// Under Estimator Observed, of the task's live copies that have reported,
// the one with the least estimated remaining time: its score at its last
// report and its age then (so that LATE's time left is that copy's
// estimate, the one RunningTask's t_rem takes); (0, 0) before the task's
// first report. The Oracle and Progress estimators have no reports: the
// age is the task's elapsed time (RunningTask) and the progress
// elapsed/(elapsed + t_rem), the score of a copy progressing linearly that
// would end at t_rem, so that LATE's time left is t_rem (exact under
// Oracle, η-misjudged under Progress: both read the future); (0, 0) for a
// task that has not run yet. Zeros, and a misuse recorded, for k or i out
// of range.
func (d *Decision) Reported(k, i int) (progress, age float64) {
	t, ok := d.task("sim.Decision.Reported", k, i)
	if !ok {
		return 0, 0
	}
	e := d.e
	if !e.observed {
		elapsed := e.now - e.ts[t].start
		if !(elapsed > 0) {
			return 0, 0
		}
		return elapsed / (elapsed + e.remaining(t)), elapsed
	}
	best := math.Inf(1)
	for c := e.ts[t].head; c != none; c = e.cs[c].next {
		cp := &e.cs[c]
		if !cp.alive {
			continue
		}
		if n, left := e.lastEstimate(c); n > 0 {
			if left < best || age == 0 {
				best, age = left, n*e.prof[c].beat
				progress = e.prof[c].progress(age)
			}
		}
	}
	return progress, age
}

// Elapsed is how long running task i of the active job at position k has
// run since its first copy started: RunningTask's second result, without
// the estimate, O(1) (0, and a misuse recorded, for k or i out of range).
func (d *Decision) Elapsed(k, i int) float64 {
	t, ok := d.task("sim.Decision.Elapsed", k, i)
	if !ok {
		return 0
	}
	return d.e.now - d.e.ts[t].start
}

// RunningPhase is the phase, in [0, Phases(k)), of running task i of the
// active job at position k (0, and a misuse recorded, for k or i out of
// range).
func (d *Decision) RunningPhase(k, i int) int {
	t, ok := d.task("sim.Decision.RunningPhase", k, i)
	if !ok {
		return 0
	}
	return int(d.e.ts[t].phase - d.e.js[d.e.ps[d.e.ts[t].phase].job].plo)
}

// AppendComputed appends to dst, and returns, how long the winning copy
// of each task of phase p of the active job at position k ran, for the
// tasks whose run is over (Phase(k, p).Computed of them, done or waiting
// for the upstream phase), in task index order: the durations of the
// stage's successful attempts that Spark's and Hadoop's speculators keep
// (their median and mean). O(s) for the s tasks of the phase started so
// far. dst unchanged, and a misuse recorded, for k or p out of range.
func (d *Decision) AppendComputed(dst []float64, k, p int) []float64 {
	ph := d.phase("sim.Decision.AppendComputed", k, p)
	if ph == nil {
		return dst
	}
	e := d.e
	for t := ph.lo; t < ph.lo+ph.next; t++ {
		if ts := &e.ts[t]; ts.status == taskWaiting || ts.status == taskDone {
			dst = append(dst, ts.due) // the winning copy's end − start
		}
	}
	return dst
}

// Busy is the number of slots held over the cluster, the reserved pool's
// included (0 for a nil or zero Decision): Dolly's utilization is
// Busy()/Config().Slots.
func (d *Decision) Busy() int {
	if !d.valid() {
		return 0
	}
	return d.e.busy
}

// SpeculativeCopies is the number of copies running beyond the first of
// their task, over the cluster and the reserved pool (0 for a nil or zero
// Decision): the running speculative copies (LATE's SpeculativeCap) or
// clones (Dolly's budget). O(1): every copy started beyond a task's first
// is running, or was killed, or won its task's run, in which case one copy
// of that task was killed — Result's Copies − Killed.
func (d *Decision) SpeculativeCopies() int {
	if !d.valid() {
		return 0
	}
	return d.e.res.Stats.Copies - d.e.res.Stats.Killed
}
