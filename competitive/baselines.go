package competitive

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/internal/enum"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// Baseline is a straggler-mitigation scheme that SREW+C(β) is compared
// with in Xu et al. §5 ("Baseline Algorithms"): Mantri, Dolly and GRASS.
// Simulate runs one with Config.Baseline, on the Fair scheduler
// (AlgorithmFair) without preemption (NonPreemptive), as §5 runs every
// algorithm: "the four baseline algorithms ... do not support preemption
// and checkpointing".
//
// The paper says which in-job rule each baseline applies but not which
// scheduler shares the machines among jobs. We run them on the Fair
// scheduler, in the max-min form of Hadoop's Fair Scheduler: every slot
// the idle machines go, one at a time, to the active job holding the
// fewest machines among those that want one more (ties to the earlier
// job in arrival order), a job wanting what its in-job rule would start
// given every idle machine (see fairFill). A job never loses a running
// copy. Each job then applies its rule with the machines it holds plus
// those it was given.
//
// Where §5 is vague, the paper says / we do:
//   - t_rem: "the system estimates the remaining time to finish" / the
//     progress-rate estimate of each running copy, the least over the
//     task's copies (progressRem), as Mantri and GRASS estimate it;
//   - t_new: "predicts t_new" / its mean is the phase's work over the
//     speed, and Mantri's probability takes it normal with the package's
//     σ_j^z (mantriBar);
//   - Mantri's kill-and-restart: not described / not modelled, and a
//     job's unscheduled tasks launch before any copy;
//   - Dolly's "configurable fraction (β)" and straggling probability: not
//     given / 5% of the machines and p = ε = 5% (stragglers.DefaultDolly),
//     the budget held by a cloned job until its tasks finish, so that the
//     clones running never pass it;
//   - GRASS's switching point: "only based on the values of job sizes" /
//     GS once the phase's unfinished tasks fit in two waves of its
//     machines.
//
// Cost per slot: O(c) for the estimates over the c running copies, each
// job's rule twice (O(u + r log r) for u unscheduled and r running tasks
// of its phase), and O(n log M) for fairFill over n jobs.
type Baseline uint8

const (
	// BaselineNone runs Config.Algorithm as documented by Simulate.
	BaselineNone Baseline = iota

	// BaselineMantri is Mantri's speculative execution as Xu et al. §5
	// describe it: with c copies of a task running, a new copy is started
	// when Pr(t_rem > (c+1)/c · t_new) > δ, δ = MantriThreshold = 0.25
	// (the paper's "default value"). See mantriActions.
	BaselineMantri

	// BaselineDolly is Dolly's budgeted cloning of small jobs (Xu et al.
	// §5): a job is given, when it arrives, the clones per task of
	// stragglers.DollyClones with stragglers.DefaultDolly (a budget of 5%
	// of the machines, counting the clones the jobs admitted before still
	// hold in reserve), and each of its tasks is launched with them. See
	// dollyActions.
	BaselineDolly

	// BaselineGRASS is GRASS for exact jobs (error bound zero, as §5
	// runs it): resource-aware speculation (RAS) early in a phase, greedy
	// speculation (GS) near its end, switching on the phase's size
	// (footnote 1 of §5). See grassActions.
	BaselineGRASS
)

var baselineNames = []string{BaselineNone: "none", BaselineMantri: "Mantri", BaselineDolly: "Dolly", BaselineGRASS: "GRASS"}

// String returns "none", "Mantri", "Dolly" or "GRASS".
func (b Baseline) String() string { return enum.Name(b, baselineNames, "Baseline") }

// MantriThreshold is δ of Mantri's rule, "default value = 0.25" (Xu et
// al. §5).
const MantriThreshold = 0.25

// runView is what an in-job rule sees of a running task: its copies and
// the estimate of its remaining time t_rem (in slots). Every running copy
// has run at least a slot when a rule sees it (copies start in an earlier
// slot), so every running task can be judged: no rule here waits longer.
type runView struct {
	copies int
	rem    float64
}

// progressRem is the progress-rate estimate of a copy's remaining time
// that Mantri and GRASS make (Mantri §4.1, GRASS §3: time so far over the
// fraction done, times the fraction left): a copy that has served
// progress of work > 0 in elapsed ≥ 1 slots has rate progress/elapsed and
// t_rem = elapsed·(work − progress)/progress; +Inf with no progress (a
// copy that has done nothing in a whole slot is the slowest there is),
// and 0 once progress ≥ work (an unfinished task's copies are below it,
// but for the 10⁻⁹ of Simulate's rounding). O(1).
func progressRem(work, progress float64, elapsed int) float64 {
	return max(0, float64(elapsed)*(work-progress)/progress)
}

// mantriBar returns the least c/(c+1)·t_rem at which Mantri copies a task
// whose new copy takes T_new ~ Normal(tNew, sd²) slots: Pr(t_rem >
// (c+1)/c·T_new) = Pr(T_new < c/(c+1)·t_rem) = Φ((c/(c+1)·t_rem − tNew)/sd)
// > δ holds exactly when c/(c+1)·t_rem > tNew + sd·Φ⁻¹(δ). The normal law
// is the renewal approximation of a copy's duration under §2.1's service
// (mean E/δ, the variance that gives the package its σ_j^z); sd = 0 is
// the deterministic t_new (the probability is 0 or 1), threshold ∈ (0, 1).
// A duration is never negative, so the law is that of max(0, T_new): where
// the normal puts δ or more of its mass below 0 (tNew + sd·Φ⁻¹(δ) < 0),
// the bar is 0 and only a task with time left is a candidate, never one
// whose copies are at their end (t_rem = 0). O(1).
func mantriBar(tNew, sd, threshold float64) float64 {
	return max(0, tNew+sd*distuv.UnitNormal.Quantile(threshold))
}

// mantriActions appends to dst Mantri's decisions for job j's phase z,
// which has unscheduled tasks without a copy, the running tasks of
// running, and free machines to start copies on (Xu et al. §5):
//
//   - the first min(free, unscheduled) unscheduled tasks are launched, one
//     copy each: a speculative copy never holds back a task of its own job
//     (Mantri schedules duplicates on slots its tasks leave);
//   - each running task with c/(c+1)·t_rem > bar (mantriBar: Pr(t_rem >
//     (c+1)/c · t_new) > δ) is a candidate for one more copy; the free
//     machines left go to the candidates in decreasing c/(c+1)·t_rem (the
//     likeliest saving first), ties to the smaller index, one copy each.
//
// Mantri also kills and restarts a task whose t_rem is far above t_new;
// §5 describes only the duplicate rule, and a restart throws away the
// progress that §2's non-preemptive copies keep, so it is not modelled.
// order is scratch (returned for reuse). O(r log r) for r running tasks.
func mantriActions(dst []Action, order []int, j int, z Stage, unscheduled int, running []runView, free int, bar float64) ([]Action, []int) {
	launch := min(free, unscheduled)
	for t := range launch {
		dst = append(dst, Action{Job: j, Stage: z, Kind: Launch, Task: t, Copies: 1})
	}
	free -= launch
	order = order[:0]
	for i, r := range running {
		if hopper.CopyFactor(r.copies)*r.rem > bar {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(hopper.CopyFactor(running[b].copies)*running[b].rem, hopper.CopyFactor(running[a].copies)*running[a].rem), a-b)
	})
	for _, i := range order[:min(free, len(order))] {
		dst = append(dst, Action{Job: j, Stage: z, Kind: Clone, Task: i, Copies: 1})
	}
	return dst, order
}

// grassActions appends to dst GRASS's decisions for job j's phase z on
// slots machines (those its running copies hold plus free ones), by
// stragglers.GRASS with stragglers.DefaultGRASS: each unfinished task has
// t_new = tNew (every task of a phase has the same work); a running task
// its t_rem (running[i].rem, +Inf capped at the largest float64) and its
// copies. GS once the phase's unfinished tasks fit in two waves of slots,
// RAS before (stragglers.GRASSConfig.Greedy: Xu et al. fix the switching
// point "only based on the values of job sizes", footnote 1 of §5; the
// two waves are stragglers' documented choice). Every running task is
// judged (runView). The view is valid by construction (t_new > 0 and
// finite, t_rem ≥ 0 and finite, copies ≥ 1), so GRASS's kernel decides
// it unchecked. tasks, acts and ws are scratch (tasks and acts returned
// for reuse). O(u + r + k log k) for k actions.
func grassActions(dst []Action, tasks []stragglers.TaskStatus, acts []stragglers.Action, ws *specbase.Workspace, j int, z Stage, unscheduled int, running []runView, slots int, tNew float64) ([]Action, []stragglers.TaskStatus, []stragglers.Action) {
	tasks = tasks[:0]
	for _, r := range running {
		tasks = append(tasks, stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Running, Copies: r.copies,
			Remaining: min(r.rem, math.MaxFloat64)}, NewCopy: tNew})
	}
	for range unscheduled {
		tasks = append(tasks, stragglers.TaskStatus{NewCopy: tNew})
	}
	acts = specbase.GRASS(acts, tasks, specbase.Count(tasks), slots, stragglers.DefaultGRASS(), ws)
	for _, a := range acts {
		if a.Task < len(running) {
			dst = append(dst, Action{Job: j, Stage: z, Kind: Clone, Task: a.Task, Copies: 1})
		} else {
			dst = append(dst, Action{Job: j, Stage: z, Kind: Launch, Task: a.Task - len(running), Copies: 1})
		}
	}
	return dst, tasks, acts
}

// dollyActions appends to dst Dolly's decisions for job j's phase z,
// cloned clones copies per task (the original included, 1: no cloning),
// with free machines: the first min(free, unscheduled) unscheduled tasks
// are launched, originals first, and the machines left give each task
// launched now up to clones − 1 clones, in task order (stragglers.Dolly's
// rule: the Dolly paper clones "when a task is launched" and never
// speculates after; a task launched with fewer clones for lack of
// machines stays so). Each task's launch is one Launch action with its
// copies. O(launches).
func dollyActions(dst []Action, j int, z Stage, unscheduled, free, clones int) []Action {
	launch := min(free, unscheduled)
	extra := free - launch
	for t := range launch {
		k := min(clones-1, extra)
		extra -= k
		dst = append(dst, Action{Job: j, Stage: z, Kind: Launch, Task: t, Copies: 1 + k})
	}
	return dst
}

// fairFill sets dst[k] (len(hold) entries, dst reused) to the idle
// machines job k is given: max-min fair on the machines held, hold[k]
// (running copies, never taken away), each job capped at want[k] more.
// It is the Fair Scheduler's one-at-a-time rule — each idle machine to the
// job holding the fewest among those that still want one, ties to the
// smaller k — computed by water level: the largest level L with
// Σ_k clamp(L − hold[k], 0, want[k]) ≤ idle, found by bisection, then one
// more machine to each job at level L that wants it, in k order, while
// machines last. O(n log(max hold + max want)) for n jobs.
func fairFill(dst []int, hold, want []int, idle int) []int {
	n := len(hold)
	dst = ints(dst, n)
	given := func(level int) int {
		sum := 0
		for k := range hold {
			sum += min(max(level-hold[k], 0), want[k])
		}
		return sum
	}
	// given(0) = 0 ≤ idle; hi, one above the level that meets every
	// want, stands for a level that does not fit.
	lo, hi := 0, 1
	for k := range hold {
		hi = max(hi, hold[k]+want[k]+1)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if given(mid) <= idle {
			lo = mid
		} else {
			hi = mid
		}
	}
	idle -= given(lo)
	for k := range hold {
		dst[k] = min(max(lo-hold[k], 0), want[k])
		if idle > 0 && hold[k]+dst[k] == lo && dst[k] < want[k] {
			dst[k]++
			idle--
		}
	}
	return dst
}

// baselineState is the simulator's memory for a Baseline.
type baselineState struct {
	rem      []float64 // per task: t_rem, the least over its copies (progressRem)
	clones   []int     // per job: Dolly's copies per task (0 before its arrival)
	reserved int       // Dolly: Σ over cloned jobs of (clones − 1) × unfinished tasks
	views    []runView
	hold     []int // per active job: running copies
	want     []int // per active job: machines its rule would start with every idle one
	give     []int // per active job: idle machines given (fairFill)
	order    []int
	tasks    []stragglers.TaskStatus
	acts     []stragglers.Action
	ws       specbase.Workspace // GRASS's scratch
}

// baselineArrive records Dolly's decision for job j as it becomes active:
// stragglers.DollyClones for its tasks (map and reduce: "all the tasks
// within a job will have the same number of clones", §5) against the
// clones already reserved, on a cluster whose utilisation is the machines
// busy at the end of the last slot. A cloned job reserves (clones − 1)
// clones per task, released as its tasks finish, so that the clones
// running never pass the budget: admission counts what the jobs admitted
// before may still start, not only what runs now.
func (s *sim) baselineArrive(j int) {
	if s.cfg.Baseline != BaselineDolly {
		return
	}
	b := &s.base
	if b.clones == nil {
		b.clones = make([]int, len(s.jobs))
	}
	n := s.jobs[j].MapTasks + s.jobs[j].ReduceTasks
	busy := s.busy[MapStage] + s.busy[ReduceStage]
	util := float64(busy) / float64(s.cfg.Machines)
	cluster := stragglers.DollyCluster{Slots: s.cfg.Machines, Clones: b.reserved, Utilization: util}
	c := specbase.DollyClones(n, cluster, stragglers.DefaultDolly())
	b.clones[j] = c
	b.reserved += n * (c - 1)
}

// baselineFinish releases the Dolly reservation of a finished task of job j.
func (s *sim) baselineFinish(j int) {
	if s.cfg.Baseline == BaselineDolly {
		s.base.reserved -= s.base.clones[j] - 1
	}
}

// estimate sets every running task's t_rem from its copies
// (NonPreemptive mode: each copy has its own progress and start).
// O(copies).
func (s *sim) estimate() {
	b := &s.base
	if b.rem == nil {
		b.rem = make([]float64, len(s.tasks))
	}
	for _, c := range s.copies {
		b.rem[c.task] = math.Inf(1)
	}
	for _, c := range s.copies {
		e := s.now - c.start // slots run, ≥ 1: copies start in an earlier slot
		b.rem[c.task] = min(b.rem[c.task], progressRem(s.tasks[c.task].work, c.progress, e))
	}
}

// baselineActions is the in-job rule of job k of the snapshot with free
// machines to start copies on (its running copies hold the rest).
func (s *sim) baselineActions(dst []Action, k, free int) []Action {
	job := &s.snap[k]
	z := job.stage()
	p := job.phase(z)
	b := &s.base
	b.views = b.views[:0]
	for i, c := range p.Running {
		id := s.runIDs[s.runOff[k]+i]
		b.views = append(b.views, runView{copies: c, rem: b.rem[id]})
	}
	st := &s.state[s.active[k]]
	// A new copy's expected slots; the least positive float where the
	// quotient underflows (a task far shorter than a slot), since every
	// copy takes some time and the rules' t_new must be positive.
	tNew := max(st.mean[z]/s.cfg.Speed, math.SmallestNonzeroFloat64)
	switch s.cfg.Baseline {
	case BaselineMantri:
		bar := mantriBar(tNew, st.sd[z]/math.Sqrt(s.cfg.Speed), MantriThreshold)
		dst, b.order = mantriActions(dst, b.order, k, z, p.Unscheduled, b.views, free, bar)
	case BaselineDolly:
		dst = dollyActions(dst, k, z, p.Unscheduled, free, b.clones[s.active[k]])
	default:
		dst, b.tasks, b.acts = grassActions(dst, b.tasks, b.acts, &b.ws, k, z, p.Unscheduled, b.views, free+job.copies(), tNew)
	}
	return dst
}

// baselineSlot plans a slot of a Baseline on the Fair scheduler (see
// Baseline): each job's want is what its rule starts given every idle
// machine, fairFill shares the idle machines, and each job's rule then
// runs with its share. O(Σ_k (u_k + r_k) log) for the snapshot's tasks.
func (s *sim) baselineSlot() {
	s.actions = s.actions[:0]
	idle := s.cfg.Machines - s.busy[MapStage] - s.busy[ReduceStage]
	if idle == 0 {
		return // nothing to start; no job loses a copy
	}
	s.estimate()
	b := &s.base
	n := len(s.snap)
	b.hold, b.want = ints(b.hold, n), ints(b.want, n)
	for k := range s.snap {
		b.hold[k] = s.snap[k].copies()
		s.actions = s.baselineActions(s.actions[:0], k, idle)
		b.want[k] = startedCopies(s.actions)
	}
	b.give = fairFill(b.give, b.hold, b.want, idle)
	s.actions = s.actions[:0]
	for k, g := range b.give {
		if g == 0 {
			continue
		}
		s.actions = s.baselineActions(s.actions, k, g)
	}
}

// startedCopies is the copies a list of launches and clones starts.
func startedCopies(acts []Action) int {
	c := 0
	for _, a := range acts {
		c += a.Copies
	}
	return c
}

// testHookSlot, nil outside tests, is called in every slot once its
// actions are applied, before the service: the tests check the cluster's
// state against the baselines' budgets there.
var testHookSlot func(*sim)
