package sim

import (
	"fmt"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
)

// An InJobRule is the second half of a cluster scheduler: how a job uses
// the slots the Allocator grants it — which unscheduled tasks to launch and
// which running tasks to copy. With Speculation.Off the engine only
// launches tasks, whatever the rule.
//
// A rule is asked at the decisions of copy ends and arrivals. What more
// it needs it asks for through optional interfaces, which the built-in
// rules use as a caller's rule would, and nothing else of the engine:
// BookkeepingRule for the straggler bookkeeping (the eligibility bounds of
// Decision.MayHaveStraggler, the decisions at the instants tasks have run
// Speculation.Detect × t_new and, under Estimator Observed, at the reports
// that lift an estimate above the rule's level; a decision at every
// instant for a rule that gives a straggler one copy per decision),
// RequestRule for copies that count in the job's demand (Decision.Demand),
// PoolRule for a reserved pool of Config.Budget slots for copies.
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

// Bookkeeping is what an InJobRule asks Simulate to keep and do beyond
// the decisions at copy ends and arrivals (BookkeepingRule).
type Bookkeeping struct {
	// Stragglers: the rule judges stragglers, so Simulate keeps the
	// eligibility bounds that Decision.MayHaveStraggler reads (O(1) per
	// copy started, O(MaxCopies) under Mantri's rule) and takes a decision
	// at the instant each task has run Speculation.Detect × t_new (if
	// Detect > 0) and, under Estimator Observed, at the reports that lift a
	// copy's estimate above the rule's level (t_new, or Mantri's cut-off):
	// the only instants at which a task turns into a straggler.
	Stragglers bool
	// EveryInstant: a decision is taken at every instant the event loop
	// stops at, the would-be ends of killed copies included, for a rule
	// that gives a straggler at most one copy per decision (so that how
	// many decisions are taken changes its runs).
	EveryInstant bool
}

// A BookkeepingRule is an InJobRule that asks Simulate for Bookkeeping.
// Simulate calls Bookkeeping once, when the run starts; with
// Speculation.Off it keeps nothing. A rule that is not a BookkeepingRule
// gets none.
type BookkeepingRule interface {
	InJobRule
	Bookkeeping() Bookkeeping
}

// A RequestRule is an InJobRule whose copies count as tasks of its job:
// Decision.Demand(k), what the SRPT and Fair allocators cap each job at,
// adds Requests(d, k), the copies the rule would start now for the active
// job at position k (best-effort speculation, thesis §2.2). With
// speculation on, Decision.Demand calls Requests with k in [0,
// d.Active()), during an Allocator's Allocate: it must start nothing (the
// Decision grants no slot then), and its error stops the run.
type RequestRule interface {
	InJobRule
	Requests(d *Decision, k int) (int, error)
}

// A PoolRule is an InJobRule that reserves a pool of Config.Budget slots
// for copies (budgeted speculation, thesis §2.2): Config.Budget must lie in
// [0, Slots), and the allocator shares the other Slots − Budget slots
// (Decision.Capacity). With speculation on, at every decision, after the
// grants, Simulate calls FillPool with the pool's free slots, free ≥ 0 (0
// included); the rule may start up to free copies of running tasks there
// by Decision.Copy (Decision.Launch starts nothing in the pool). Its error
// stops the run.
type PoolRule interface {
	InJobRule
	FillPool(d *Decision, free int) error
}

// LaunchRule launches unscheduled tasks only, upstream phase first and in
// index order within a phase: no speculation (SRPT and Fair of the thesis
// §2.1). O(g) for g slots.
type LaunchRule struct{}

// Use implements InJobRule. Like every built-in rule's Use, it returns a
// *specsched.InputError for a nil or zero Decision, k outside [0,
// d.Active()) or g < 1 (the field named), and fills at most the slots the
// Decision still grants (none outside a call of Use by Simulate).
func (LaunchRule) Use(d *Decision, k, g int) error {
	g, err := ruleArgs("sim.LaunchRule.Use", false, d, k, g)
	if err == nil {
		d.Launch(k, g)
	}
	return err
}

// CanUse implements InJobRule: a job with no unscheduled task cannot use a
// slot.
func (LaunchRule) CanUse(*Decision, int) bool { return false }

// judge is the scratch of the rules that judge stragglers as
// stragglers.Speculate does: the running positions to copy and the
// apportionment's workspace.
type judge struct {
	picks []int               // the running positions to copy (Decision.AppendStragglers)
	sel   selection.Workspace // hopper.SpeculationSplit's
	// fullView (tests only) shows Speculate every unscheduled task, not
	// only as many as the job can start: a shortcut that must not change
	// any result.
	fullView bool
}

// canJudge is the CanUse of the rules that judge stragglers: the engine's
// eligibility filter, Decision.MayHaveStraggler (false only if no running
// task of the job can be judged a straggler now). False for a nil or zero
// Decision, and for k outside [0, d.Active()), a misuse the Decision
// records as the rule's (Func "sim.InJobRule.CanUse"; see Decision). It is
// no method of judge, whose methods would be promoted to the rules through
// a value, and panic for a nil rule.
func canJudge(d *Decision, k int) bool { return d.mayHaveStraggler("sim.InJobRule.CanUse", k) }

// busySlots is the number of slots the live copies of the running tasks of
// the active job at position k hold, the pool's included: Speculate's busy
// slots.
func busySlots(d *Decision, k int) int { return d.Held(k) + d.PoolHeld(k) - d.Waiting(k) }

// viewLimit is how many of the unscheduled tasks of the active job at
// position k a decision for limit slots needs to see (SpeculateRule.Use,
// PlanRule.Use); every one with fullView.
//
// Truncating the unscheduled tasks to the slots the job holds does not
// change Speculate's decision: with at least that many tasks unfinished,
// eq. 3.2's level is the same (2/β, or 1 for β ≥ 2, since (2/β)·T ≥ slots
// either way), and Speculate never launches more tasks than it has free
// slots.
func viewLimit(d *Decision, k, limit int, fullView bool) int {
	if fullView {
		return d.Unscheduled(k)
	}
	return min(d.Unscheduled(k), limit)
}

// stragglerCopies sets r.picks to the running tasks stragglers.Speculate
// would copy of the active job at position k given up to g free slots,
// judging running tasks only (a view of its running tasks and no
// unscheduled one: every free slot it fills is a copy, of the eligible
// tasks in decreasing urgency, at most one each):
// Decision.AppendStragglers.
func (r *judge) stragglerCopies(d *Decision, k, g int) {
	r.picks = r.picks[:0]
	if g > 0 && d.Running(k) > 0 && d.MayHaveStraggler(k) {
		r.picks = d.AppendStragglers(r.picks, k, g)
	}
}

// copyPicks starts a copy of each running task r.picks lists, for the
// active job at position k, and returns how many it started.
func (r *judge) copyPicks(fn string, d *Decision, k int) (int, error) {
	for n, i := range r.picks {
		if !d.Copy(k, i) {
			return n, fmt.Errorf("%s: internal error: a copy of running task %d of stragglers.Speculate's choice could not start", fn, i)
		}
	}
	return len(r.picks), nil
}

// SpeculateRule is Hopper's in-job rule: the job fills its slots by
// stragglers.Speculate (eq. 3.2's split between distinct tasks and copies,
// the thesis's or Mantri's rule for which tasks to copy;
// Config.Speculation). Speculate gives a task at most one new copy per call
// and judges only tasks already running, so it is called again on the new
// state while it starts copies and slots remain: with Detect = 0 a task
// launched now can be copied now (the thesis's idealisation, "we ignore
// this observation duration"), and a task whose copies all look slow gets
// another. Speculate's decision is taken from what it depends on — the
// counts of the view (hopper.SpeculationSplit) and its most urgent eligible tasks
// (Decision.AppendStragglers) — not by showing it the view: O(1) for the
// split plus O((n + r)·(c + log E)) for the n copies handed out (see
// AppendStragglers), where Speculate on the full view costs O(R·c + u) for
// R running tasks of c copies and u ≤ g unscheduled tasks at every
// decision. TestRulesMatchSpeculateOnBigJobs runs it against a rule that
// calls Speculate on that view. Jobs with no possible straggler launch
// without one.
type SpeculateRule struct{ judge }

// Bookkeeping implements BookkeepingRule: the rule judges stragglers.
func (*SpeculateRule) Bookkeeping() Bookkeeping { return Bookkeeping{Stragglers: true} }

// CanUse implements InJobRule: false only if no running task of the job
// can be judged a straggler now (and for a nil or zero Decision, or k
// outside [0, d.Active()), a misuse the Decision records, Func
// "sim.InJobRule.CanUse"; see Decision).
func (*SpeculateRule) CanUse(d *Decision, k int) bool { return canJudge(d, k) }

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *SpeculateRule) Use(d *Decision, k, g int) error {
	// The shape of every rule's Use (PlanRule's too), on purpose: check
	// the call, let the rule fill its slots by Launch and Copy.
	const fn = "sim.SpeculateRule.Use"
	g, err := ruleArgs(fn, r == nil, d, k, g)
	if err != nil {
		return err
	}
	slots := busySlots(d, k) + g
	beta := d.Beta(k)
	used := 0
	for used < g {
		if !d.MayHaveStraggler(k) {
			// No task can be judged a straggler: Speculate would launch
			// min(unscheduled, free) tasks (its steps 1 and 3), in order.
			n := d.Launch(k, g-used)
			used += n
			if n == 0 || !d.MayHaveStraggler(k) {
				break
			}
			continue
		}
		// Speculate's decision on the view of the job's running tasks
		// (AppendRunning's) and u of its unscheduled ones (viewLimit),
		// from the view's counts and its most urgent eligible tasks alone:
		// the split (hopper.SpeculationSplit), then AppendStragglers for the copy
		// budget; launches first, then the copies, as Speculate's actions
		// come.
		u := viewLimit(d, k, slots, r.fullView)
		running, busy := d.Running(k), busySlots(d, k)
		if slots <= busy || u+running == 0 {
			break
		}
		launch, budget := hopper.SpeculationSplit(&r.sel, u, running, busy, slots, beta)
		r.picks = d.AppendStragglers(r.picks[:0], k, budget)
		launch += min(u-launch, budget-len(r.picks)) // step 3
		if launch+len(r.picks) == 0 {
			break
		}
		if d.Launch(k, launch) != launch {
			return fmt.Errorf("%s: internal error: stragglers.Speculate's launches could not start", fn)
		}
		n, err := r.copyPicks(fn, d, k)
		if err != nil {
			return err
		}
		used += launch + n
	}
	return nil
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

// Bookkeeping implements BookkeepingRule: the rule judges stragglers and
// gives each at most one copy per decision.
func (*BestEffortRule) Bookkeeping() Bookkeeping {
	return Bookkeeping{Stragglers: true, EveryInstant: true}
}

// Requests implements RequestRule: the number of running tasks of the
// active job at position k that the rule would copy now, its detected
// stragglers (Decision.Stragglers: amortised O(log E) with the engine's
// index, O(R·c) for its R running tasks of c copies each without). It returns a *specsched.InputError for a
// nil receiver.
func (r *BestEffortRule) Requests(d *Decision, k int) (int, error) {
	const fn = "sim.BestEffortRule.Requests"
	if r == nil {
		return 0, nilRule(fn)
	}
	if d.Running(k) == 0 || !d.MayHaveStraggler(k) {
		return 0, nil
	}
	return d.Stragglers(k), nil
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *BestEffortRule) Use(d *Decision, k, g int) error {
	const fn = "sim.BestEffortRule.Use"
	g, err := ruleArgs(fn, r == nil, d, k, g)
	if err != nil {
		return err
	}
	r.stragglerCopies(d, k, g)
	n, err := r.copyPicks(fn, d, k)
	if err != nil {
		return err
	}
	d.Launch(k, g-n)
	return nil
}

// IdleRule is best-effort speculation at the lowest priority, the strict
// reading of the thesis's §2.2 ("speculative copies are run only when new
// slots become available"): a copy runs only on a slot that no
// unscheduled task of any job wants. Of the g slots the job is handed its
// unscheduled tasks take the first (as LATERule's), and the slots left copy
// its detected stragglers as BestEffortRule's do (most urgent first, a
// copy each). Its copies are not part of the job's demand (it is no
// RequestRule), so a demand-capped allocator hands it slots for copies
// only beyond every job's demand: under SRPTAllocator with Conserving
// ("srpt-conserving+idle"), exactly the slots no job's tasks want; under
// plain SRPT, none (it is plain SRPT). BestEffortRule's copies instead
// count in the demand and take slots ahead of other jobs' unscheduled
// tasks. A slot the job's own target holds for a task that cannot run yet
// (a later phase waiting for an earlier) may go to its copies.
//
// Cost: O(g) when its unscheduled tasks take the g slots, else
// BestEffortRule.Use's.
type IdleRule struct{ judge }

// CanUse implements InJobRule, as SpeculateRule.CanUse.
func (*IdleRule) CanUse(d *Decision, k int) bool { return canJudge(d, k) }

// Bookkeeping implements BookkeepingRule: the rule judges stragglers and
// gives each at most one copy per decision, as BestEffortRule.
func (*IdleRule) Bookkeeping() Bookkeeping {
	return Bookkeeping{Stragglers: true, EveryInstant: true}
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *IdleRule) Use(d *Decision, k, g int) error {
	const fn = "sim.IdleRule.Use"
	free, err := launchFirst(fn, r == nil, d, k, g)
	if err != nil || free == 0 {
		return err
	}
	r.stragglerCopies(d, k, free)
	_, err = r.copyPicks(fn, d, k)
	return err
}

// BudgetedRule is budgeted speculation (thesis §2.2): tasks run, launched
// only, on the slots outside a reserved pool of Config.Budget slots
// (Decision.Capacity), and after the grants the pool's free slots go to
// detected stragglers — jobs in the allocator's priority (Decision.PoolKey:
// fewest remaining tasks first; fewest pool slots held first, then
// arrival, for FairAllocator), each job's most urgent stragglers first, a
// copy each, as stragglers.Speculate orders them. The pool runs nothing
// else. A decision is taken at every instant, the would-be ends of killed
// copies included.
type BudgetedRule struct {
	judge
	key    []float64
	sorter positionSort
}

// Bookkeeping implements BookkeepingRule: the rule judges stragglers and
// gives each at most one copy per decision.
func (*BudgetedRule) Bookkeeping() Bookkeeping {
	return Bookkeeping{Stragglers: true, EveryInstant: true}
}

// Use implements InJobRule: launches only (errors as LaunchRule.Use's).
func (*BudgetedRule) Use(d *Decision, k, g int) error {
	g, err := ruleArgs("sim.BudgetedRule.Use", false, d, k, g)
	if err == nil {
		d.Launch(k, g)
	}
	return err
}

// CanUse implements InJobRule: outside the pool, a job with no unscheduled
// task cannot use a slot.
func (*BudgetedRule) CanUse(*Decision, int) bool { return false }

// FillPool implements PoolRule: it hands the free slots of the pool to
// detected stragglers. O(n log n) for n active jobs, plus, per job with a
// possible straggler visited until the pool is full,
// Decision.AppendStragglers' cost for the copies it hands out. It returns a *specsched.InputError for a nil
// receiver.
func (r *BudgetedRule) FillPool(d *Decision, free int) error {
	const fn = "sim.BudgetedRule.FillPool"
	if r == nil {
		return nilRule(fn)
	}
	if free <= 0 {
		return nil
	}
	r.key = grow(r.key, d.Active())
	for k := range r.key {
		r.key[k] = d.PoolKey(k)
	}
	for _, k := range r.sorter.all(r.key) {
		if free == 0 {
			break
		}
		r.stragglerCopies(d, int(k), free)
		n, err := r.copyPicks(fn, d, int(k))
		if err != nil {
			return err
		}
		free -= n
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
// most MaxCopies copies. O(g + u + A) for g slots, u ≤ g unscheduled
// tasks and A copies started (see Use).
type PlanRule struct {
	fullView bool // tests only: as judge's
}

// CanUse implements InJobRule: SREW+C clones running tasks into any
// machine it is given, up to MaxCopies each. False for a nil or zero
// Decision, and for k outside [0, d.Active()), a misuse the Decision
// records (Func "sim.PlanRule.CanUse"; see Decision).
func (*PlanRule) CanUse(d *Decision, k int) bool {
	if uint(k) < uint(d.Active()) {
		return d.Running(k) > d.Capped(k)
	}
	d.misuseK("sim.PlanRule.CanUse", k)
	return false
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *PlanRule) Use(d *Decision, k, g int) error {
	// As SpeculateRule.Use (see there).
	const fn = "sim.PlanRule.Use"
	g, err := ruleArgs(fn, r == nil, d, k, g)
	if err != nil || g == 0 {
		return err
	}
	// competitive.Plan for this job alone, with its share held + g on a
	// cluster of held + g machines (o = held: its running copies), grants
	// it g copies (line 7 drops nothing without preemption); Plan spreads
	// them over its u unscheduled tasks if any (line 12), else over its R
	// running tasks (line 14): q = ⌊g/n⌋ each and one more on the first g
	// mod n of the n targets (no randomness: the lowest ordinals), launches
	// first in ordinal order. That spread is computed here, in O(g + u)
	// rather than Plan's O(R) snapshot of every running task (q = 0 for a
	// job of R > g running tasks: only the first g are visited);
	// TestUserPartsMatchBuiltIns runs the rule against one calling Plan.
	u := viewLimit(d, k, g, r.fullView) // Plan gives min(u, g) of the u tasks copies: the same with u ≤ g
	running := d.Running(k)
	if u+running == 0 {
		return nil
	}
	targets := u
	if u == 0 {
		targets = running
	}
	q, extra := g/targets, g%targets
	if q == 0 {
		targets = extra // the others get nothing
	}
	for t := range targets {
		c := q
		if t < extra {
			c++
		}
		var task, n int
		if u > 0 {
			if d.Launch(k, 1) != 1 {
				return fmt.Errorf("%s: internal error: SREW+C launched more tasks than the job has", fn)
			}
			task, n = d.Running(k)-1, min(c, MaxCopies)-1
		} else {
			task, n = t, min(c, MaxCopies-d.Copies(k, t))
		}
		for ; n > 0; n-- {
			if !d.Copy(k, task) {
				return fmt.Errorf("%s: internal error: SREW+C started more copies than its slots", fn)
			}
		}
	}
	return nil
}

// nilRule is the error of built-in rule function fn called through a nil
// pointer (embedded in a caller's rule, say).
func nilRule(fn string) error {
	return check.ErrText(fn, check.Scalar, "receiver", "nil", "must not be nil (use NewRule or a new value)")
}
