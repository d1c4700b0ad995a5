package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/specsched/specsched/competitive"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/stragglers"
)

// An InJobRule is the second half of a cluster scheduler: how a job uses
// the slots the Allocator grants it — which unscheduled tasks to launch and
// which running tasks to copy. With Speculation.Off the engine only
// launches tasks, whatever the rule.
//
// A rule of the caller's is asked at the decisions of copy ends and
// arrivals; the engine's straggler bookkeeping — the eligibility bounds,
// the decisions at the instants tasks have run Speculation.Detect × t_new
// and, under Estimator Observed, at the reports that lift an estimate above
// the rule's level,
// a decision at every instant for rules that give a straggler one copy per
// decision — serves the built-in rules that judge stragglers
// (SpeculateRule, BestEffortRule, BudgetedRule).
//
// An InJobRule may keep scratch memory between calls (the built-in ones
// do): a value serves one Simulate at a time.
//
// The built-in rules may be called by the caller's own rule or allocator:
// their Use returns a *specsched.InputError for a nil receiver (Field
// "receiver"), a nil or zero Decision ("d"), k outside [0, d.Active())
// ("k") or g < 1 ("g"), and fills at most the slots the Decision still
// grants (none outside a call of Use by Simulate); their CanUse is false
// for a nil or zero Decision or k out of range (for SpeculateRule,
// BestEffortRule and PlanRule, which read the job, a misuse the Decision
// records; see Decision).
type InJobRule interface {
	// Use lets the active job at position k of d fill up to g ≥ 1 more
	// slots, by Decision.Launch and Decision.Copy (which stop at g). An
	// error stops the run and Simulate returns it.
	Use(d *Decision, k, g int) error
	// CanUse reports whether the active job at position k might start a
	// copy now if it were granted a slot; it is asked only about a job
	// with a running task and no unscheduled runnable task (one with an
	// unscheduled task can always use a slot, one with neither never).
	// It may err on the side of true, at the cost of a call of Use that
	// starts nothing. It must depend on that job's state only: the jobs
	// for which it is false when the grants start are passed over until
	// the next decision.
	CanUse(d *Decision, k int) bool
}

// ruleTraits are what the engine must keep or do for a built-in rule.
type ruleTraits struct {
	// judges: the rule judges stragglers by stragglers.Speculate, so the
	// engine keeps the eligibility bounds θ (and the check events).
	judges bool
	// oneCopy: the rule gives a straggler at most one copy per decision,
	// so a decision is taken at every instant the event loop stops at.
	oneCopy bool
}

// tracer is implemented by the built-in rules that need ruleTraits.
type tracer interface{ traits() ruleTraits }

// requester is a rule whose detected stragglers count in its job's demand
// (Decision.Demand): best-effort speculation.
type requester interface {
	requests(e *engine, j int32) (int, error)
}

// pooler is a rule that reserves a pool of Config.Budget slots for copies
// and fills it after the grants: budgeted speculation.
type pooler interface{ fillPool(e *engine) error }

// LaunchRule launches unscheduled tasks only, upstream phase first and in
// index order within a phase: no speculation (SRPT and Fair of the thesis
// §2.1). O(g) for g slots.
type LaunchRule struct{}

// Use implements InJobRule. Like every built-in rule's Use, it returns a
// *specsched.InputError for a nil or zero Decision, k outside [0,
// d.Active()) or g < 1 (the field named), and fills at most the slots the
// Decision still grants (none outside a call of Use by Simulate).
func (LaunchRule) Use(d *Decision, k, g int) error {
	_, g, err := ruleArgs("sim.LaunchRule.Use", false, d, k, g)
	if err == nil {
		d.Launch(k, g)
	}
	return err
}

// CanUse implements InJobRule: a job with no unscheduled task cannot use a
// slot.
func (LaunchRule) CanUse(*Decision, int) bool { return false }

// judge is the scratch of the rules that judge stragglers by
// stragglers.Speculate: the view of a job's tasks, which task each entry
// is, Speculate's actions and workspace.
type judge struct {
	view    []stragglers.Task
	viewIdx []int32
	acts    []stragglers.Action
	ws      stragglers.Workspace
}

// canJudge is the CanUse of the rules that judge stragglers: the engine's
// eligibility filter (false only if no running task of the job can be
// judged a straggler now). False for a nil or zero Decision, and for k
// outside [0, d.Active()), a misuse the Decision records (Func
// "sim.InJobRule.CanUse"; see Decision). It is no method of judge, whose
// methods would be promoted to the rules through a value, and panic for a
// nil rule.
func canJudge(d *Decision, k int) bool {
	if j, ok := d.job(k); ok {
		return d.e.mayHaveStraggler(j)
	}
	d.misuseK("sim.InJobRule.CanUse", k)
	return false
}

// specPolicy is job j's stragglers.Speculation.
func specPolicy(e *engine, j int32) stragglers.Speculation {
	js := &e.js[j]
	p := stragglers.Speculation{
		Rule:       stragglers.ThesisRule,
		NewCopy:    js.tnew,
		Beta:       e.jobs[j].Beta,
		Threshold:  e.cfg.Speculation.Threshold,
		MinElapsed: js.minElapsed,
	}
	if e.cfg.Speculation.Mantri {
		p.Rule = stragglers.MantriRule
	}
	return p
}

// buildView writes job j's snapshot for stragglers.Speculate to r.view: its
// running tasks (t_rem estimated), then, if unsched > 0, its first unsched
// unscheduled runnable tasks. r.viewIdx maps view positions to tasks. It
// also tightens the job's eligibility bound to the exact maximum of θ.
//
// Truncating the unscheduled tasks to the slots the job holds does not change
// Speculate's decision: with at least that many tasks unfinished, eq. 3.2's
// level is the same (2/β, or 1 for β ≥ 2, since (2/β)·T ≥ slots either way),
// and Speculate never launches more tasks than it has free slots.
func (r *judge) buildView(e *engine, j int32, unsched int) {
	js := &e.js[j]
	r.view = r.view[:0]
	r.viewIdx = r.viewIdx[:0]
	thetaMax := math.Inf(-1)
	quiet := math.Inf(1)
	for _, t := range js.running {
		e.steps++
		ts := &e.ts[t]
		rem := 0.0 // at MaxCopies: never eligible
		switch {
		case ts.copies >= MaxCopies:
		case e.observed:
			// The reports since the bound was set may have lowered it.
			rem, ts.theta = e.observedEstimate(t, e.observedLevel(t))
		default:
			rem = e.remaining(t)
		}
		if at := math.Max(ts.phi, e.now); beyond(ts.theta, at) {
			quiet = math.Min(quiet, at)
		}
		r.view = append(r.view, stragglers.Task{
			State:     stragglers.Running,
			Copies:    int(ts.copies),
			Elapsed:   e.now - ts.start,
			Remaining: rem,
		})
		r.viewIdx = append(r.viewIdx, t)
		thetaMax = math.Max(thetaMax, ts.theta)
	}
	js.thetaMax = thetaMax
	js.quiet = quiet
	for p := js.plo; p < js.phi && unsched > 0; p++ {
		ph := &e.ps[p]
		if !ph.runnable {
			break
		}
		for i := ph.next; i < ph.n && unsched > 0; i++ {
			e.steps++
			r.view = append(r.view, stragglers.Task{State: stragglers.Unscheduled})
			r.viewIdx = append(r.viewIdx, ph.lo+i)
			unsched--
		}
	}
}

// speculate calls stragglers.Speculate on the view for a job holding slots
// slots; the view was built by the engine, so an error is the engine's.
func (r *judge) speculate(e *engine, slots int, pol stragglers.Speculation) error {
	var err error
	r.acts, err = stragglers.Speculate(r.acts, r.view, slots, pol, &r.ws)
	return internalError(e, "stragglers.Speculate", err)
}

// apply starts the copies of Speculate's actions on r.view.
func (r *judge) apply(e *engine, pool bool) error {
	for _, a := range r.acts {
		task := r.viewIdx[a.Task]
		switch a.Kind {
		case stragglers.Launch:
			ph := &e.ps[e.ts[task].phase]
			if task != ph.lo+ph.next {
				return fmt.Errorf("%s: internal error: launch of task %d out of order", e.fn, task)
			}
			e.launch(e.ts[task].phase)
		case stragglers.Copy:
			if e.ts[task].status != taskRunning {
				return fmt.Errorf("%s: internal error: copy of task %d that is not running", e.fn, task)
			}
			e.startCopy(task, pool)
		}
	}
	return nil
}

// stragglerCopies sets r.acts to the copies stragglers.Speculate would start
// of job j's running tasks given up to g free slots, judging running tasks
// only: the view holds no unscheduled task, so every free slot it fills is a
// copy, of the eligible tasks in decreasing urgency, at most one each. The
// view's copies, Speculate's busy slots, are those the job holds outside its
// waiting tasks.
func (r *judge) stragglerCopies(e *engine, j int32, g int) error {
	js := &e.js[j]
	if g <= 0 || len(js.running) == 0 || !e.mayHaveStraggler(j) {
		r.acts = r.acts[:0]
		return nil
	}
	r.buildView(e, j, 0)
	return r.speculate(e, int(js.held-js.waiting)+g, specPolicy(e, j))
}

// SpeculateRule is Hopper's in-job rule: the job fills its slots by
// stragglers.Speculate (eq. 3.2's split between distinct tasks and copies,
// the thesis's or Mantri's rule for which tasks to copy;
// Config.Speculation). Speculate gives a task at most one new copy per call
// and judges only tasks already running, so it is called again on the new
// state while it starts copies and slots remain: with Detect = 0 a task
// launched now can be copied now (the thesis's idealisation, "we ignore
// this observation duration"), and a task whose copies all look slow gets
// another. O(R·c + u) per call of Speculate for R running tasks of c copies
// and u ≤ g unscheduled tasks in the view; jobs with no possible straggler
// launch without one.
type SpeculateRule struct{ judge }

func (*SpeculateRule) traits() ruleTraits { return ruleTraits{judges: true} }

// CanUse implements InJobRule: false only if no running task of the job
// can be judged a straggler now (and for a nil or zero Decision, or k
// outside [0, d.Active()), a misuse the Decision records, Func
// "sim.InJobRule.CanUse"; see Decision).
func (*SpeculateRule) CanUse(d *Decision, k int) bool { return canJudge(d, k) }

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *SpeculateRule) Use(d *Decision, k, g int) error {
	// The shape of every rule's Use (PlanRule's too), on purpose: check
	// the call, let the rule fill, count what it filled.
	j, g, err := ruleArgs("sim.SpeculateRule.Use", r == nil, d, k, g)
	if err != nil {
		return err
	}
	used, err := r.speculateJob(d.e, j, g)
	d.grant -= used
	return err
}

// speculateJob lets job j fill g more slots and returns how many it filled.
func (r *SpeculateRule) speculateJob(e *engine, j int32, g int) (int, error) {
	js := &e.js[j]
	slots := int(js.held-js.waiting) + g
	pol := specPolicy(e, j)
	used := 0
	for used < g {
		if !e.mayHaveStraggler(j) {
			// No task can be judged a straggler: Speculate would launch
			// min(unscheduled, free) tasks (its steps 1 and 3), in order.
			n := e.launchUpTo(j, g-used)
			used += n
			if n == 0 || !e.mayHaveStraggler(j) {
				break
			}
			continue
		}
		r.buildView(e, j, e.viewLimit(j, slots))
		if err := r.speculate(e, slots, pol); err != nil {
			return used, err
		}
		if len(r.acts) == 0 {
			break
		}
		if err := r.apply(e, false); err != nil {
			return used, err
		}
		used += len(r.acts)
	}
	return used, nil
}

// BestEffortRule is best-effort speculation (thesis §2.2): a copy of a
// detected straggler counts as a task of its job (Decision.Demand counts
// it) and, of the g slots the job is handed, copies of its detected
// stragglers take the first (most urgent first, as stragglers.Speculate
// orders them), as the thesis's rule asks as soon as a slot is available to
// the job, and unscheduled tasks the rest. One pass: a straggler detected
// after the hand-out waits for the next event at which slots are handed out
// ("speculative copies are run only when new slots become available"), and
// a decision is taken at every instant, the would-be ends of killed copies
// included.
type BestEffortRule struct{ judge }

// CanUse implements InJobRule, as SpeculateRule.CanUse.
func (*BestEffortRule) CanUse(d *Decision, k int) bool { return canJudge(d, k) }

func (*BestEffortRule) traits() ruleTraits { return ruleTraits{judges: true, oneCopy: true} }

// requests is the number of job j's running tasks its speculation rule
// would copy now: best-effort speculation's copy requests.
func (r *BestEffortRule) requests(e *engine, j int32) (int, error) {
	if r == nil {
		return 0, nilRule("sim.BestEffortRule.Demand")
	}
	err := r.stragglerCopies(e, j, len(e.js[j].running))
	return len(r.acts), err
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *BestEffortRule) Use(d *Decision, k, g int) error {
	j, g, err := ruleArgs("sim.BestEffortRule.Use", r == nil, d, k, g)
	if err != nil {
		return err
	}
	e := d.e
	if err := r.stragglerCopies(e, j, g); err != nil {
		return err
	}
	if err := r.apply(e, false); err != nil {
		return err
	}
	d.grant -= len(r.acts) + e.launchUpTo(j, g-len(r.acts))
	return nil
}

// BudgetedRule is budgeted speculation (thesis §2.2): tasks run, launched
// only, on the slots outside a reserved pool of Config.Budget slots
// (Decision.Capacity), and after the grants the pool's free slots go to
// detected stragglers — jobs in the allocator's priority (fewest remaining
// tasks first; fewest pool slots held first, then arrival, for
// FairAllocator), each job's most urgent stragglers first, a copy each, as
// stragglers.Speculate orders them. The pool runs nothing else. A decision
// is taken at every instant, the would-be ends of killed copies included.
type BudgetedRule struct{ judge }

func (*BudgetedRule) traits() ruleTraits { return ruleTraits{judges: true, oneCopy: true} }

// Use implements InJobRule: launches only (errors as LaunchRule.Use's).
func (*BudgetedRule) Use(d *Decision, k, g int) error {
	_, g, err := ruleArgs("sim.BudgetedRule.Use", false, d, k, g)
	if err == nil {
		d.Launch(k, g)
	}
	return err
}

// CanUse implements InJobRule: outside the pool, a job with no unscheduled
// task cannot use a slot.
func (*BudgetedRule) CanUse(*Decision, int) bool { return false }

// fillPool hands the free slots of the pool to detected stragglers.
func (r *BudgetedRule) fillPool(e *engine) error {
	if r == nil {
		return nilRule("sim.BudgetedRule.pool")
	}
	free := e.cfg.Budget - (e.busy - e.regBusy)
	if free <= 0 {
		return nil
	}
	n := len(e.active)
	e.key = grow(e.key, n)
	keyer, _ := e.alloc.(poolKeyer)
	for k, j := range e.active {
		if keyer != nil {
			e.key[k] = keyer.poolKey(e, j)
		} else {
			e.key[k] = float64(e.js[j].unfinished)
		}
	}
	for _, k := range e.sortedBy(e.key, n) {
		if free == 0 {
			break
		}
		if err := r.stragglerCopies(e, e.active[k], free); err != nil {
			return err
		}
		if err := r.apply(e, true); err != nil {
			return err
		}
		free -= len(r.acts)
	}
	return nil
}

// PlanRule is SREW+C's in-job rule (Xu et al. Algorithm 2, lines 9–14,
// without preemption): competitive.Plan for the job alone with its share
// g_j(t) = the slots it holds plus g, which launches ⌊(g−o)/u⌋ or ⌈(g−o)/u⌉
// copies of each of the u unscheduled tasks, or, with none, clones running
// tasks likewise (λ = Config.Lambda). The job is handed to Plan as one
// phase: its runnable tasks whose run is not over (tasks waiting for an
// upstream phase neither take nor need a machine). Plan runs without
// randomness (a nil *rand.Rand): the lowest ordinals get the extra copy.
// Which unscheduled tasks get it does not matter (they are exchangeable);
// among running tasks, the job's first running tasks get it. A task runs at
// most MaxCopies copies. O(R + A log A) for R running tasks and A actions.
type PlanRule struct {
	actions  []competitive.Action
	running  []int
	machines [1]int
	job      [1]competitive.Job
	ws       competitive.Workspace
}

// CanUse implements InJobRule: SREW+C clones running tasks into any
// machine it is given, up to MaxCopies each. False for a nil or zero
// Decision, and for k outside [0, d.Active()), a misuse the Decision
// records (Func "sim.PlanRule.CanUse"; see Decision).
func (*PlanRule) CanUse(d *Decision, k int) bool {
	j, ok := d.job(k)
	if !ok {
		d.misuseK("sim.PlanRule.CanUse", k)
		return false
	}
	js := &d.e.js[j]
	return len(js.running) > int(js.capped)
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *PlanRule) Use(d *Decision, k, g int) error {
	// As SpeculateRule.Use (see there).
	j, g, err := ruleArgs("sim.PlanRule.Use", r == nil, d, k, g)
	if err != nil || g == 0 {
		return err
	}
	used, err := r.plan(d.e, j, g)
	d.grant -= used
	return err
}

// plan lets job j fill g more slots and returns how many it filled.
func (r *PlanRule) plan(e *engine, j int32, g int) (int, error) {
	js := &e.js[j]
	held := int(js.held - js.waiting)
	u := e.viewLimit(j, g) // Plan gives min(u, g) of the u tasks copies: the same with u ≤ g
	r.running = r.running[:0]
	for _, t := range js.running {
		r.running = append(r.running, int(e.ts[t].copies))
	}
	r.job[0] = competitive.Job{Map: competitive.Phase{
		Tasks: u + len(r.running), Mean: js.tnew, Unscheduled: u, Running: r.running,
	}}
	if r.job[0].Map.Tasks == 0 {
		return 0, nil
	}
	r.machines[0] = held + g
	var err error
	r.actions, err = competitive.Plan(r.actions, r.job[:], r.machines[:], held+g,
		e.cfg.Lambda, competitive.NonPreemptive, nil, &r.ws)
	if err != nil {
		return 0, internalError(e, "competitive.Plan", err)
	}
	// Unscheduled tasks are exchangeable: the launched ordinals, in
	// increasing order, become the job's next unscheduled tasks.
	slices.SortStableFunc(r.actions, func(a, b competitive.Action) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return a.Task - b.Task
	})
	used := 0
	for _, a := range r.actions {
		e.steps++
		switch a.Kind {
		case competitive.Launch:
			p := e.firstRunnableUnscheduled(j)
			if p < 0 {
				return used, fmt.Errorf("%s: internal error: SREW+C launched more tasks than job %d has", e.fn, j)
			}
			task := e.ps[p].lo + e.ps[p].next
			n := min(a.Copies, MaxCopies)
			e.launch(p)
			for c := 1; c < n; c++ {
				e.startCopy(task, false)
			}
			used += n
		case competitive.Clone:
			task := js.running[a.Task]
			n := min(a.Copies, MaxCopies-int(e.ts[task].copies))
			for c := 0; c < n; c++ {
				e.startCopy(task, false)
			}
			used += n
		default:
			return used, fmt.Errorf("%s: internal error: SREW+C preempted without preemption", e.fn)
		}
	}
	return used, nil
}

// firstRunnableUnscheduled returns the first runnable phase of job j with an
// unscheduled task, or −1.
func (e *engine) firstRunnableUnscheduled(j int32) int32 {
	js := &e.js[j]
	for p := js.plo; p < js.phi; p++ {
		ph := &e.ps[p]
		if !ph.runnable {
			return -1
		}
		if ph.next < ph.n {
			return p
		}
	}
	return -1
}

// nilRule is the error of built-in rule function fn called through a nil
// pointer (embedded in a caller's rule, say).
func nilRule(fn string) error {
	return check.ErrText(fn, check.Scalar, "receiver", "nil", "must not be nil (use NewRule or a new value)")
}
