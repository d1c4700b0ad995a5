package sim

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/competitive"
	"github.com/specsched/specsched/stragglers"
)

// thetaTol is the relative margin by which the eligibility filter errs on the
// side of asking stragglers.Speculate: the filter's bound now < θ and
// Speculate's test t_rem > level are the same inequality rearranged, and can
// disagree in the last bits.
const thetaTol = 1e-9

// use lets job j start up to g more copies in the slots it is granted, by
// its policy's in-job rule, and returns how many it started.
func (e *engine) use(j int32, g int) (int, error) {
	if g <= 0 {
		return 0, nil
	}
	if e.cfg.Speculation.Off {
		return e.launchUpTo(j, g), nil
	}
	switch e.cfg.Policy.injob() {
	case injobSpeculate:
		return e.speculate(j, g)
	case injobBestEffort:
		return e.bestEffort(j, g)
	case injobPlan:
		return e.plan(j, g)
	}
	return e.launchUpTo(j, g), nil
}

// canUse reports whether job j might use a slot now.
func (e *engine) canUse(j int32) bool {
	js := &e.js[j]
	if js.unsched > 0 {
		return true
	}
	if e.cfg.Speculation.Off || len(js.running) == 0 {
		return false
	}
	switch e.cfg.Policy.injob() {
	case injobPlan:
		// SREW+C clones running tasks into any machine it is given, up to
		// MaxCopies each.
		return len(js.running) > int(js.capped)
	case injobSpeculate, injobBestEffort:
		return e.mayHaveStraggler(j)
	}
	return false
}

// mayHaveStraggler is the eligibility filter: false only if no running task
// of job j can be judged a straggler now. A task can be judged only from
// φ (old enough, detectAt) while now < θ (t_rem above the rule's level):
// the job keeps an upper bound of θ over its tasks and a lower bound, quiet,
// of the earliest time at which a task with θ > max(φ, now) becomes
// judgeable; both are exact after a view is built and kept conservative by
// updateTheta in between.
func (e *engine) mayHaveStraggler(j int32) bool {
	if e.cfg.debug.noFilter {
		return true
	}
	js := &e.js[j]
	return e.now >= js.quiet-thetaTol*math.Max(1, math.Abs(js.quiet)) && beyond(js.thetaMax, e.now)
}

// beyond reports whether θ > at, up to thetaTol in favour of θ.
func beyond(theta, at float64) bool {
	return theta > at-thetaTol*math.Max(1, math.Abs(at))
}

// launchUpTo launches up to g unscheduled tasks of job j, upstream phases
// first and in index order within a phase, and returns how many.
func (e *engine) launchUpTo(j int32, g int) int {
	js := &e.js[j]
	used := 0
	for p := js.plo; p < js.phi && used < g && js.unsched > 0; p++ {
		ph := &e.ps[p]
		if !ph.runnable {
			break // later phases cannot be runnable either
		}
		for ph.next < ph.n && used < g {
			e.launch(p)
			used++
		}
	}
	return used
}

// specPolicy is job j's stragglers.Policy.
func (e *engine) specPolicy(j int32) stragglers.Policy {
	js := &e.js[j]
	p := stragglers.Policy{
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

// buildView writes job j's snapshot for stragglers.Speculate to e.view: its
// running tasks (t_rem estimated), then, if unsched > 0, its first unsched
// unscheduled runnable tasks. e.viewIdx maps view positions to tasks. It
// also tightens the job's eligibility bound to the exact maximum of θ.
//
// Truncating the unscheduled tasks to the slots the job holds does not change
// Speculate's decision: with at least that many tasks unfinished, eq. 3.2's
// level is the same (2/β, or 1 for β ≥ 2, since (2/β)·T ≥ slots either way),
// and Speculate never launches more tasks than it has free slots.
func (e *engine) buildView(j int32, unsched int) {
	js := &e.js[j]
	e.view = e.view[:0]
	e.viewIdx = e.viewIdx[:0]
	thetaMax := math.Inf(-1)
	quiet := math.Inf(1)
	for _, t := range js.running {
		e.steps++
		ts := &e.ts[t]
		if at := math.Max(ts.phi, e.now); beyond(ts.theta, at) {
			quiet = math.Min(quiet, at)
		}
		rem := 0.0 // at MaxCopies: never eligible
		if ts.copies < MaxCopies {
			rem = e.remaining(t)
		}
		e.view = append(e.view, stragglers.Task{
			State:     stragglers.Running,
			Copies:    int(ts.copies),
			Elapsed:   e.now - ts.start,
			Remaining: rem,
		})
		e.viewIdx = append(e.viewIdx, t)
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
			e.view = append(e.view, stragglers.Task{State: stragglers.Unscheduled})
			e.viewIdx = append(e.viewIdx, ph.lo+i)
			unsched--
		}
	}
}

// viewLimit is how many of job j's unscheduled tasks a decision for limit
// slots needs to see (see buildView and plan).
func (e *engine) viewLimit(j int32, limit int) int {
	if e.cfg.debug.fullView {
		return int(e.js[j].unsched)
	}
	return min(int(e.js[j].unsched), limit)
}

// remaining is the estimated t_rem of a running task: the smallest estimated
// remaining time over its live copies, η·(end − now).
func (e *engine) remaining(task int32) float64 {
	best := math.Inf(1)
	for c := e.ts[task].head; c != none; c = e.cs[c].next {
		e.steps++
		cp := &e.cs[c]
		if cp.alive {
			best = math.Min(best, cp.eta*(cp.end-e.now))
		}
	}
	if !(best >= 0) {
		return 0
	}
	return best
}

// updateTheta updates, after copy c of a task has started, the time θ up to
// which the task can be judged a straggler: with level the rule's threshold
// on t_rem (t_new for the thesis's rule, (c+1)/c times Mantri's cut-off for c
// copies), t_rem = min_c η_c·(end_c − now) > level ⇔ now < min_c (end_c −
// level/η_c) = θ. The thesis's level does not depend on the copies, so θ
// takes the new copy's term in O(1); Mantri's changes with them and θ is
// recomputed over the task's copies, O(MaxCopies). A task at MaxCopies is
// never judged (θ = −∞).
func (e *engine) updateTheta(task, c int32) {
	ts := &e.ts[task]
	js := &e.js[e.ps[ts.phase].job]
	var theta float64
	switch {
	case ts.copies >= MaxCopies:
		theta = math.Inf(-1)
	case !e.cfg.Speculation.Mantri:
		cp := &e.cs[c]
		theta = cp.end - js.tau/cp.eta
		if ts.copies > 1 {
			theta = math.Min(ts.theta, theta)
		}
	default:
		n := float64(ts.copies)
		level := js.mantriCut * (n + 1) / n
		theta = math.Inf(1)
		for c := ts.head; c != none; c = e.cs[c].next {
			e.steps++
			cp := &e.cs[c]
			if cp.alive {
				theta = math.Min(theta, cp.end-level/cp.eta)
			}
		}
	}
	if math.IsNaN(theta) {
		theta = math.Inf(-1) // an infinite level: never a straggler
	}
	ts.theta = theta
	js.thetaMax = math.Max(js.thetaMax, theta)
	if at := math.Max(ts.phi, e.now); beyond(theta, at) {
		js.quiet = math.Min(js.quiet, at)
	}
}

// mantriCutoff is the δ-quantile of a new copy's duration, Pareto with tail β
// and mean t_new (x_m = t_new·(β−1)/β): Mantri's rule P(t_rem > (c+1)/c ·
// t_new) > δ holds when c/(c+1)·t_rem exceeds it (stragglers.Speculate's
// reading).
func mantriCutoff(tnew, beta, delta float64) float64 {
	return distuv.Pareto{Xm: tnew * (beta - 1) / beta, Alpha: beta}.Quantile(delta)
}

// apply starts the copies of Speculate's actions on e.view.
func (e *engine) apply(acts []stragglers.Action, pool bool) error {
	for _, a := range acts {
		task := e.viewIdx[a.Task]
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

// speculate lets job j fill g more slots by stragglers.Speculate (Hopper's
// in-job policy: eq. 3.2's split between distinct tasks and copies, the
// thesis's or Mantri's rule for which tasks to copy). Speculate gives a task
// at most one new copy per call and judges only tasks already running, so it
// is called again on the new state while it starts copies and slots remain:
// with Detect = 0 a task launched now can be copied now (the thesis's
// idealisation, "we ignore this observation duration"), and a task whose
// copies all look slow gets another.
func (e *engine) speculate(j int32, g int) (int, error) {
	js := &e.js[j]
	slots := int(js.held-js.waiting) + g
	pol := e.specPolicy(j)
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
		e.buildView(j, e.viewLimit(j, slots))
		var err error
		e.acts, err = stragglers.Speculate(e.acts, e.view, slots, pol, &e.sws)
		if err != nil {
			return used, err
		}
		if len(e.acts) == 0 {
			break
		}
		if err := e.apply(e.acts, false); err != nil {
			return used, err
		}
		used += len(e.acts)
	}
	return used, nil
}

// stragglerCopies asks stragglers.Speculate which of job j's running tasks
// it would copy given up to g free slots, judging running tasks only: the
// view holds no unscheduled task, so every free slot it fills is a copy, of
// the eligible tasks in decreasing urgency, at most one each. The view's
// copies, Speculate's busy slots, are those the job holds outside its
// waiting tasks.
func (e *engine) stragglerCopies(j int32, g int) ([]stragglers.Action, error) {
	js := &e.js[j]
	if g <= 0 || len(js.running) == 0 || !e.mayHaveStraggler(j) {
		return e.acts[:0], nil
	}
	e.buildView(j, 0)
	busy := int(js.held - js.waiting)
	var err error
	e.acts, err = stragglers.Speculate(e.acts, e.view, busy+g, e.specPolicy(j), &e.sws)
	return e.acts, err
}

// eligibleCount is the number of job j's running tasks its speculation rule
// would copy now: best-effort speculation's copy requests.
func (e *engine) eligibleCount(j int32) int {
	acts, err := e.stragglerCopies(j, len(e.js[j].running))
	if err != nil {
		return 0 // unreachable: the view is valid; use then reports the error
	}
	return len(acts)
}

// bestEffort is the in-job rule of best-effort speculation (thesis §2.2):
// of the g slots the job is handed, copies of its detected stragglers take
// the first (most urgent first), as the thesis's rule asks as soon as a slot
// is available to the job, and unscheduled tasks the rest. One pass: a
// straggler detected after the hand-out waits for the next event at which
// slots are handed out ("speculative copies are run only when new slots
// become available").
func (e *engine) bestEffort(j int32, g int) (int, error) {
	acts, err := e.stragglerCopies(j, g)
	if err != nil {
		return 0, err
	}
	if err := e.apply(acts, false); err != nil {
		return 0, err
	}
	used := len(acts)
	return used + e.launchUpTo(j, g-used), nil
}

// budgetPool hands the free slots of budgeted speculation's reserved pool to
// detected stragglers: jobs in the policy's priority order (fewest remaining
// tasks first for SRPT; fewest pool slots held first, then arrival, for
// Fair), each job's most urgent stragglers first, a copy each, as
// stragglers.Speculate orders them. The pool runs nothing else.
func (e *engine) budgetPool() error {
	free := e.cfg.Budget - (e.busy - e.regBusy)
	if free <= 0 {
		return nil
	}
	n := len(e.active)
	e.key = grow(e.key, n)
	for k, j := range e.active {
		if e.cfg.Policy == SRPTBudgeted {
			e.key[k] = float64(e.js[j].unfinished)
		} else {
			e.key[k] = float64(e.js[j].poolHeld)
		}
	}
	for _, k := range e.sortedBy(e.key, n) {
		if free == 0 {
			break
		}
		j := e.active[k]
		acts, err := e.stragglerCopies(j, free)
		if err != nil {
			return err
		}
		if err := e.apply(acts, true); err != nil {
			return err
		}
		free -= len(acts)
	}
	return nil
}

// plan is SREW+C's in-job rule (Xu et al. Algorithm 2, lines 9–14, without
// preemption): competitive.Plan for the job alone with its share g_j(t) =
// the slots it holds plus g, which launches ⌊(g−o)/u⌋ or ⌈(g−o)/u⌉ copies of
// each of the u unscheduled tasks, or, with none, clones running tasks
// likewise. The job is handed to Plan as one phase: its runnable tasks whose
// run is not over (tasks waiting for an upstream phase neither take nor
// need a machine). Plan runs without randomness (a nil *rand.Rand): the
// lowest ordinals get the extra copy. Which unscheduled tasks get it does not
// matter (they are exchangeable); among running tasks, the job's first
// running tasks get it.
func (e *engine) plan(j int32, g int) (int, error) {
	js := &e.js[j]
	held := int(js.held - js.waiting)
	u := e.viewLimit(j, g) // Plan gives min(u, g) of the u tasks copies: the same with u ≤ g
	e.running = e.running[:0]
	for _, t := range js.running {
		e.running = append(e.running, int(e.ts[t].copies))
	}
	job := competitive.Job{Map: competitive.Phase{
		Tasks: u + len(e.running), Mean: js.tnew, Unscheduled: u, Running: e.running,
	}}
	if job.Map.Tasks == 0 {
		return 0, nil
	}
	e.machines[0] = held + g
	var err error
	e.plan1, err = competitive.Plan(e.plan1, []competitive.Job{job}, e.machines[:], held+g,
		e.cfg.Lambda, competitive.NonPreemptive, nil, &e.cws)
	if err != nil {
		return 0, err
	}
	// Unscheduled tasks are exchangeable: the launched ordinals, in
	// increasing order, become the job's next unscheduled tasks.
	slices.SortStableFunc(e.plan1, func(a, b competitive.Action) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return a.Task - b.Task
	})
	used := 0
	for _, a := range e.plan1 {
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
