package sim_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/competitive"
	"github.com/specsched/specsched/dag"
	"github.com/specsched/specsched/sim"
	"github.com/specsched/specsched/stragglers"
)

// The built-in allocators and rules that need more of the engine than its
// slots and remaining tasks — no work conservation, the reserved pool and
// its priority, the straggler bookkeeping, the per-phase state and
// moments — written again by a user, from the exported API only. They are
// independent re-readings of the papers' rules, so a test that runs them
// against the built-ins checks both that the exported surface suffices
// and that the built-ins do what their documentation says.

// byKey returns the positions 0 … len(key)−1 in increasing key, ties by
// position (arrival order).
func byKey(order []int, key []float64) []int {
	order = order[:0]
	for k := range key {
		order = append(order, k)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	return order
}

// userSRPT is SRPT (thesis §2.1): the fewest remaining tasks first, each up
// to its demand, and no work conservation.
type userSRPT struct {
	conserving bool // srpt-conserving: the slots left are offered
	order      []int
}

func (a *userSRPT) WorkConserving() bool { return a.conserving }

func (a *userSRPT) Allocate(d *sim.Decision, target []int, key []float64) error {
	for k := range key {
		target[k] = d.Demand(k)
		key[k] = float64(d.Remaining(k))
	}
	left := d.Capacity()
	a.order = byKey(a.order, key)
	for _, k := range a.order {
		target[k] = min(target[k], left)
		left -= target[k]
	}
	return nil
}

// userFair is Fair (thesis §2.1): every job min(demand, λ) at the water
// level λ, rounded by alloc.Apportion; in a pool, the fewest pool slots
// first; no work conservation.
type userFair struct {
	shares []float64
	ws     alloc.Workspace
}

func (*userFair) WorkConserving() bool { return false }

func (*userFair) PoolKey(d *sim.Decision, k int) float64 { return float64(d.PoolHeld(k)) }

func (a *userFair) Allocate(d *sim.Decision, target []int, key []float64) error {
	n := len(target)
	a.shares = a.shares[:0]
	var total float64
	for k := range n {
		a.shares = append(a.shares, float64(d.Demand(k)))
		total += a.shares[k]
		key[k] = 0
	}
	slots := d.Capacity()
	if total <= float64(slots) {
		_, err := alloc.Apportion(target, a.shares, int(total), nil, &a.ws)
		return err
	}
	// The water level: the largest λ with Σ min(demand, λ) = slots.
	sorted := slices.Sorted(slices.Values(a.shares))
	left, level := float64(slots), 0.0
	for i, x := range sorted {
		if x*float64(n-i) >= left {
			level = left / float64(n-i)
			break
		}
		left -= x
	}
	for k := range a.shares {
		a.shares[k] = math.Min(a.shares[k], level)
	}
	_, err := alloc.Apportion(target, a.shares, slots, nil, &a.ws)
	return err
}

// userDAG is Hopper's Algorithm 3 from the Decision's phases: T_i the
// unfinished tasks of the first phase with one, T'_i the next phase's, α_i
// by dag.EstimateAlpha in task units.
type userDAG struct {
	jobs []dag.Job
	ws   dag.Workspace
}

func (a *userDAG) Allocate(d *sim.Decision, target []int, key []float64) error {
	a.jobs = a.jobs[:0]
	for k := range key {
		p := 0
		for p+1 < d.Phases(k) && d.Phase(k, p).Computed == d.Phase(k, p).Tasks {
			p++
		}
		up := d.Phase(k, p)
		job := dag.Job{Remaining: float64(up.Tasks - up.Computed), Alpha: 1}
		if p+1 < d.Phases(k) && job.Remaining > 0 {
			dn := d.Phase(k, p+1)
			job.Downstream = float64(dn.Tasks - dn.Computed)
			var err error
			job.Alpha, err = dag.EstimateAlpha(dag.Progress{
				Done:           dag.Ratio{Input: float64(up.Computed), Output: float64(dn.Tasks) / float64(up.Tasks) * float64(up.Computed)},
				RemainingInput: job.Remaining,
				Read:           float64(dn.Computed),
			}, dag.Ratio{Input: float64(up.Tasks), Output: float64(dn.Tasks)}, d.Config().Dampening)
			if err != nil {
				return err
			}
		}
		a.jobs = append(a.jobs, job)
		key[k] = math.Max(job.Remaining, job.Downstream)
	}
	_, err := dag.AllocateSlots(target, a.jobs, d.Capacity(), d.ClusterBeta(), &a.ws)
	return err
}

// userSREWC is SREW+C(β)'s g_j(t) from Υ_j(t) = Σ_phases unfinished·(E +
// λσ) (Xu et al. eq. 25), each job one task of mean Υ_j(t).
type userSREWC struct {
	jobs []competitive.Job
	ws   competitive.Workspace
}

func (a *userSREWC) Allocate(d *sim.Decision, target []int, key []float64) error {
	cfg := d.Config()
	a.jobs = a.jobs[:0]
	for k := range key {
		var upsilon float64
		for p := range d.Phases(k) {
			mean, sd := d.PhaseMoments(k, p)
			upsilon += float64(d.Phase(k, p).Tasks-d.Phase(k, p).Computed) * (mean + cfg.Lambda*sd)
		}
		key[k] = upsilon
		var job competitive.Job
		if upsilon > 0 {
			job.Map = competitive.Phase{Tasks: 1, Mean: upsilon, Unscheduled: 1}
		}
		a.jobs = append(a.jobs, job)
	}
	_, err := competitive.Machines(target, a.jobs, d.Capacity(), cfg.SREWCBeta, 0, &a.ws)
	return err
}

// judging is what the rules that judge stragglers share: the job's view
// for stragglers.Speculate and its verdict.
type judging struct {
	view []stragglers.Task
	acts []stragglers.Action
	ws   stragglers.Workspace
}

// busy is the slots the copies of the running tasks of the active job at
// position k hold: Speculate's busy slots.
func busy(d *sim.Decision, k int) int { return d.Held(k) + d.PoolHeld(k) - d.Waiting(k) }

// speculate runs stragglers.Speculate for the active job at position k,
// shown its running tasks and unsched unscheduled ones, holding slots
// slots.
func (r *judging) speculate(d *sim.Decision, k, unsched, slots int) error {
	cfg := d.Config().Speculation
	pol := stragglers.Speculation{
		Rule: stragglers.ThesisRule, NewCopy: d.NewCopy(k), Beta: d.Beta(k),
		Threshold: cfg.Threshold, MinElapsed: cfg.Detect * d.NewCopy(k),
	}
	if cfg.Mantri {
		pol.Rule = stragglers.MantriRule
	}
	r.view = d.AppendRunning(r.view[:0], k)
	for range unsched {
		r.view = append(r.view, stragglers.Task{State: stragglers.Unscheduled})
	}
	var err error
	r.acts, err = stragglers.Speculate(r.acts, r.view, slots, pol, &r.ws)
	return err
}

// start carries out the verdict and returns the copies started.
func (r *judging) start(d *sim.Decision, k int) int {
	n := 0
	for _, a := range r.acts {
		if a.Kind == stragglers.Launch {
			n += d.Launch(k, 1)
		} else if d.Copy(k, a.Task) {
			n++
		}
	}
	return n
}

// copies sets the verdict to the copies of the job's stragglers that g
// free slots would get, one each, most urgent first.
func (r *judging) copies(d *sim.Decision, k, g int) error {
	r.acts = r.acts[:0]
	if g > 0 && d.Running(k) > 0 && d.MayHaveStraggler(k) {
		return r.speculate(d, k, 0, busy(d, k)+g)
	}
	return nil
}

// userSpeculate is Hopper's in-job rule: Speculate again on the new state
// while it starts copies and slots remain.
type userSpeculate struct{ judging }

func (*userSpeculate) Bookkeeping() sim.Bookkeeping { return sim.Bookkeeping{Stragglers: true} }

func (*userSpeculate) CanUse(d *sim.Decision, k int) bool { return d.MayHaveStraggler(k) }

func (r *userSpeculate) Use(d *sim.Decision, k, g int) error {
	slots := busy(d, k) + g // the job's slots during the call
	for d.Grant() > 0 {
		if !d.MayHaveStraggler(k) {
			if d.Launch(k, d.Grant()) == 0 || !d.MayHaveStraggler(k) {
				return nil
			}
			continue
		}
		// Shown as many unscheduled tasks as the job has slots.
		if err := r.speculate(d, k, min(d.Unscheduled(k), slots), slots); err != nil {
			return err
		}
		if len(r.acts) == 0 {
			return nil
		}
		r.start(d, k)
	}
	return nil
}

// userBestEffort is best-effort speculation (thesis §2.2): detected
// stragglers' copies count in the demand and take the job's first slots.
type userBestEffort struct{ judging }

func (*userBestEffort) Bookkeeping() sim.Bookkeeping {
	return sim.Bookkeeping{Stragglers: true, EveryInstant: true}
}

func (*userBestEffort) CanUse(d *sim.Decision, k int) bool { return d.MayHaveStraggler(k) }

func (r *userBestEffort) Requests(d *sim.Decision, k int) (int, error) {
	err := r.copies(d, k, d.Running(k))
	return len(r.acts), err
}

func (r *userBestEffort) Use(d *sim.Decision, k, g int) error {
	if err := r.copies(d, k, g); err != nil {
		return err
	}
	d.Launch(k, g-r.start(d, k))
	return nil
}

// userIdle is best effort at the lowest priority: the job's unscheduled
// tasks take its slots first, the rest copy its stragglers; its copies ask
// for no slot (no Requests).
type userIdle struct{ judging }

func (*userIdle) Bookkeeping() sim.Bookkeeping {
	return sim.Bookkeeping{Stragglers: true, EveryInstant: true}
}

func (*userIdle) CanUse(d *sim.Decision, k int) bool { return d.MayHaveStraggler(k) }

func (r *userIdle) Use(d *sim.Decision, k, g int) error {
	free := g - d.Launch(k, g)
	if free == 0 {
		return nil
	}
	if err := r.copies(d, k, free); err != nil {
		return err
	}
	r.start(d, k)
	return nil
}

// userBudgeted is budgeted speculation (thesis §2.2): launches only, and a
// pool of Config.Budget slots for one copy per straggler, jobs in the
// allocator's pool order.
type userBudgeted struct {
	judging
	key   []float64
	order []int
}

func (*userBudgeted) Bookkeeping() sim.Bookkeeping {
	return sim.Bookkeeping{Stragglers: true, EveryInstant: true}
}

func (*userBudgeted) CanUse(*sim.Decision, int) bool { return false }

func (*userBudgeted) Use(d *sim.Decision, k, g int) error {
	d.Launch(k, g)
	return nil
}

func (r *userBudgeted) FillPool(d *sim.Decision, free int) error {
	r.key = r.key[:0]
	for k := range d.Active() {
		r.key = append(r.key, d.PoolKey(k))
	}
	r.order = byKey(r.order, r.key)
	for _, k := range r.order {
		if d.Grant() == 0 {
			break
		}
		if err := r.copies(d, k, d.Grant()); err != nil {
			return err
		}
		r.start(d, k)
	}
	return nil
}

// userPlan is SREW+C's in-job rule (Xu et al. Algorithm 2, lines 9–14,
// without preemption): competitive.Plan for the job alone, its runnable
// unfinished tasks one phase.
type userPlan struct {
	running []int
	acts    []competitive.Action
	ws      competitive.Workspace
}

func (*userPlan) CanUse(d *sim.Decision, k int) bool { return d.Running(k) > d.Capped(k) }

func (r *userPlan) Use(d *sim.Decision, k, g int) error {
	r.running = r.running[:0]
	for i := range d.Running(k) {
		r.running = append(r.running, d.Copies(k, i))
	}
	u := min(d.Unscheduled(k), g)
	if u+len(r.running) == 0 {
		return nil
	}
	share := busy(d, k) + g
	job := []competitive.Job{{Map: competitive.Phase{Tasks: u + len(r.running), Mean: d.NewCopy(k), Unscheduled: u, Running: r.running}}}
	var err error
	r.acts, err = competitive.Plan(r.acts, job, []int{share}, share, d.Config().Lambda, competitive.NonPreemptive, nil, &r.ws)
	if err != nil {
		return err
	}
	// Launches first, in ordinal order; then clones by running task.
	slices.SortStableFunc(r.acts, func(a, b competitive.Action) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Task, b.Task))
	})
	for _, a := range r.acts {
		task, n := a.Task, a.Copies
		if a.Kind == competitive.Launch {
			d.Launch(k, 1)
			task, n = d.Running(k)-1, n-1
		}
		for c := 0; c < n && d.Copy(k, task); c++ {
		}
	}
	return nil
}

// userParts are the user's versions of the built-ins by name; the others
// (Hopper's Algorithms 1, 2 and 4 and the launch-only rule) need nothing
// but the slots and the jobs' remaining tasks and β, as the Allocator
// example does.
var (
	userAllocators = map[string]func() sim.Allocator{
		"srpt":            func() sim.Allocator { return &userSRPT{} },
		"srpt-conserving": func() sim.Allocator { return &userSRPT{conserving: true} },
		"fair":            func() sim.Allocator { return &userFair{} },
		"hopper-dag":      func() sim.Allocator { return &userDAG{} },
		"srewc":           func() sim.Allocator { return &userSREWC{} },
	}
	userRules = map[string]func() sim.InJobRule{
		"speculate":  func() sim.InJobRule { return &userSpeculate{} },
		"besteffort": func() sim.InJobRule { return &userBestEffort{} },
		"idle":       func() sim.InJobRule { return &userIdle{} },
		"budgeted":   func() sim.InJobRule { return &userBudgeted{} },
		"plan":       func() sim.InJobRule { return &userPlan{} },
	}
)

// testUserPartsMatchBuiltIns: every combination of a built-in allocator and
// rule, with the allocator, the rule or both replaced by the user's version
// written from the exported API only, gives the built-ins' run copy for
// copy, on any workload and configuration.
func testUserPartsMatchBuiltIns(t *rapid.T) {
	jobs := sim.AnyJobs(t)
	cfg := sim.AnyConfig(t)
	cfg.Record = true
	a := rapid.SampledFrom(sim.AllocatorNames()).Draw(t, "allocator")
	r := rapid.SampledFrom(sim.RuleNames()).Draw(t, "rule")
	which := rapid.IntRange(1, 3).Draw(t, "replace") // 1 allocator, 2 rule, 3 both
	if r == "budgeted" && cfg.Slots < 2 {
		cfg.Slots = 2
	}
	cfg.Budget = min(cfg.Budget, cfg.Slots-1)
	builtIn := cfg
	builtIn.Allocator, _ = sim.NewAllocator(a)
	builtIn.Rule, _ = sim.NewRule(r)
	user := builtIn
	if f, ok := userAllocators[a]; ok && which&1 != 0 {
		user.Allocator = f()
	}
	if f, ok := userRules[r]; ok && which&2 != 0 {
		user.Rule = f()
	}
	want, err := sim.Simulate(jobs, builtIn)
	if err != nil {
		t.Fatalf("built-in %s+%s: %v", a, r, err)
	}
	got, err := sim.Simulate(jobs, user)
	if err != nil {
		t.Fatalf("user's %s+%s: %v", a, r, err)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Fatalf("%s+%s (replaced %d): the user's parts differ (-built-in +user):\n%s", a, r, which, diff)
	}
}

func TestUserPartsMatchBuiltIns(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testUserPartsMatchBuiltIns)
}

// A policy written by its user from the exported API alone: SRPT with a
// reserved pool of one slot for copies of stragglers (budgeted speculation,
// thesis §2.2), as SRPTBudgeted is. On the thesis's worked example (6
// slots, Figure 2.2) with tasks judged after one time unit, A completes at 3
// and B at 7, as the built-in preset does.
func Example_userPolicy() {
	cfg := sim.DefaultConfig(sim.SRPTBudgeted, 6)
	cfg.Budget = 2
	cfg.Speculation = sim.Speculation{Estimator: sim.Oracle, Detect: 0.5} // t_new = 2: judged after 1
	cfg.Allocator, cfg.Rule = &userSRPT{}, &userBudgeted{}
	user, err := sim.Simulate(sim.ThesisExample(), cfg)
	if err != nil {
		panic(err)
	}
	cfg.Allocator, cfg.Rule = nil, nil
	builtIn, err := sim.Simulate(sim.ThesisExample(), cfg)
	if err != nil {
		panic(err)
	}
	fmt.Println(user.Jobs[0].Completion, user.Jobs[1].Completion)
	fmt.Println(builtIn.Jobs[0].Completion, builtIn.Jobs[1].Completion)
	// Output:
	// 3 7
	// 3 7
}
