package sim

import (
	"math"

	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// GRASSRule is GRASS (Ananthanarayanan et al., "GRASS: Trimming Stragglers
// in Approximation Analytics", NSDI 2014) for exact jobs as an in-job rule,
// by stragglers.GRASS with its defaults (stragglers.DefaultGRASS):
// resource-aware speculation (RAS: copy a running task only if the copy
// saves slot-time, c·t_rem > (c+1)·t_new, before launches) while much of
// the job remains, greedy speculation (GS: the free slots go to the
// actions that end a task soonest — launches, then copies of tasks with
// t_rem > t_new) near its end. GRASS starts with RAS and switches to GS
// (the issue that asked for the baseline has it the other way round; the
// paper and stragglers.GRASS have RAS first).
//
// The switch. GRASS learns its switching point online from the job's
// deadline or error bound, its estimation accuracy and the cluster's
// utilisation; for exact jobs, as Xu et al. §5 run it, the rule switches
// once the job's unfinished tasks fit in two waves of its slots:
// Remaining(k) ≤ 2·(slots held + g), stragglers.GRASSConfig's SwitchWaves
// (documented there). The count is T_j, every task of the job whose run is
// not over, those of phases not yet runnable included.
//
// Every task has the job's t_new (Decision.NewCopy), t_rem is the job's
// estimator's (Decision.AppendSlow, RunningTask's: under Observed, from
// the reports), and a task is judged once it has run Speculation.Detect ×
// t_new, at most MaxCopies copies. One call of stragglers.GRASS per call
// of Use (a task gets at most one new copy per decision). GRASS is shown
// only the running tasks whose t_rem may exceed t_new (AppendSlow): both
// its tests need t_rem > t_new, so the others are never copied, and they
// count only in the slots the job's running tasks hold (Held + PoolHeld −
// Waiting), with which the counts are formed (the same decisions as shown
// every task: TestGRASSSlowView).
//
// Cost: O(R + L·c + u) under Observed with the thesis's rule, for R
// running tasks, L of them listed by AppendSlow (3% on FB-2010's first
// 4 000 jobs at 1 049 slots), of c copies, and u ≤ g
// unscheduled tasks in the view, plus stragglers.GRASS's O(L + u + k log
// k); otherwise O(R·c + u) plus GRASS's. Jobs whose tasks cannot be judged
// stragglers (Decision.MayHaveStraggler, which GRASS's thresholds, both
// above t_new, make exact for the thesis's level) launch without a view.
type GRASSRule struct {
	baseline
	tasks []stragglers.Task
}

// Bookkeeping implements BookkeepingRule: the eligibility filter at t_new
// (both of GRASS's tests need t_rem > t_new), and decisions at the
// instants a task becomes judgeable.
func (*GRASSRule) Bookkeeping() Bookkeeping { return Bookkeeping{Stragglers: true} }

// CanUse implements InJobRule: a running task may be judged a straggler
// (Decision.MayHaveStraggler; with Speculation.Mantri, whose level the
// filter then keeps, a task below MaxCopies). False for a nil or zero
// Decision and for k outside [0, d.Active()), recording nothing.
func (*GRASSRule) CanUse(d *Decision, k int) bool {
	return inRange(d, k) && grassMay(d, k)
}

// grassMay reports whether the active job at position k may have a task
// GRASS would copy: MayHaveStraggler under the thesis's level t_new, which
// is below both of GRASS's tests; under Mantri's levels, which may lie
// above t_new, a running task below MaxCopies.
func grassMay(d *Decision, k int) bool {
	if d.Config().Speculation.Mantri {
		return d.Running(k) > d.Capped(k)
	}
	return d.MayHaveStraggler(k)
}

// Requests implements RequestRule: the copies GRASS would start now of
// the job's running tasks were it handed a slot for each of its
// unscheduled and running tasks (what Decision.Demand adds, so that SRPT
// and Fair hand GRASS's copies slots, as best-effort speculation's).
// O(R·c) plus stragglers.GRASS's cost. It returns a
// *specsched.InputError for a nil receiver.
func (r *GRASSRule) Requests(d *Decision, k int) (int, error) {
	const fn = "sim.GRASSRule.Requests"
	if r == nil {
		return 0, nilRule(fn)
	}
	if !inRange(d, k) || !grassMay(d, k) { // false for a job with no running task
		return 0, nil
	}
	r.decide(d, k, d.Unscheduled(k)+d.Running(k), 0)
	return len(r.acts), nil
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *GRASSRule) Use(d *Decision, k, g int) error {
	const fn = "sim.GRASSRule.Use"
	g, err := ruleArgs(fn, r == nil, d, k, g)
	if err != nil {
		return err
	}
	if !grassMay(d, k) {
		// No copy is worth it: GRASS launches min(unscheduled, g) tasks,
		// in order, in either mode.
		d.Launch(k, g)
		return nil
	}
	r.decide(d, k, g, min(d.Unscheduled(k), g))
	return r.apply(fn, d, k, nil)
}

// decide sets r.acts to stragglers.GRASS's actions for the active job at
// position k holding its running tasks' slots and free more, shown its
// running tasks and unsched ≤ free of its unscheduled ones, by
// stragglers.GRASS's kernel (the view is valid by construction).
func (r *GRASSRule) decide(d *Decision, k, free, unsched int) {
	tnew := d.NewCopy(k)
	// AppendSlow, not RunningTask task by task: the same copies, ages and
	// estimates (t_rem 0 at MaxCopies, never copied), only of the tasks
	// whose t_rem may exceed t_new — the others GRASS never copies, and
	// they count only in the slots the job holds — and it makes the job's
	// eligibility bounds exact, so that MayHaveStraggler is false at the
	// next decisions for a job none of whose tasks is above t_new.
	r.tasks, r.run = d.AppendSlow(r.tasks[:0], r.run[:0], k)
	r.view = r.view[:0]
	for _, t := range r.tasks {
		r.view = append(r.view, stragglers.TaskStatus{Task: t, NewCopy: tnew})
	}
	busy := d.Held(k) + d.PoolHeld(k) - d.Waiting(k)
	slots := busy + free
	p := stragglers.DefaultGRASS()
	p.MaxCopies, p.MinElapsed = MaxCopies, d.Config().Speculation.Detect*tnew
	// The mode from the job's T_j; GRASS is then held to it (SwitchWaves
	// 0: RAS; the largest: GS), so that the view needs only the
	// unscheduled tasks the free slots may launch.
	if p.Greedy(d.Remaining(k), slots) {
		p.SwitchWaves = math.MaxFloat64
	} else {
		p.SwitchWaves = 0
	}
	r.addUnscheduled(unsched, tnew)
	// The counts of every task of the view, those left out included.
	running := d.Running(k)
	c := specbase.Counts{Unscheduled: unsched, Running: running, Busy: busy, Extra: busy - running}
	r.acts = specbase.GRASS(r.acts, r.view, c, slots, p, &r.ws)
}
