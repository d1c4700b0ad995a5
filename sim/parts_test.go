package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Tests of policies as values: an Allocator and an InJobRule, any of one
// with any of the other, built-in or the caller's.

// TestPresetParts: every preset names a built-in allocator and rule, and
// Policy.Allocator and Policy.Rule return new values of those (no two
// calls share scratch memory).
func TestPresetParts(t *testing.T) {
	t.Parallel()
	for _, p := range Policies() {
		a, r := p.Parts()
		if !slices.Contains(AllocatorNames(), a) || !slices.Contains(RuleNames(), r) {
			t.Fatalf("%v: parts %q, %q are not built-in names", p, a, r)
		}
		na, err := NewAllocator(strings.ToUpper(a) + " ")
		if err != nil {
			t.Fatal(err)
		}
		nr, err := NewRule(" " + r)
		if err != nil {
			t.Fatal(err)
		}
		if pa, pr := p.Allocator(), p.Rule(); typeName(pa) != typeName(na) || typeName(pr) != typeName(nr) {
			t.Errorf("%v: %T, %T; by name %T, %T", p, pa, pr, na, nr)
		}
		if x, y := p.Allocator(), p.Allocator(); x == y {
			t.Errorf("%v: two calls of Allocator share a value", p)
		}
	}
	if a, r := Preset(numPolicies).Parts(); a != "" || r != "" {
		t.Errorf("unknown policy: parts %q, %q", a, r)
	}
	if Preset(numPolicies).Allocator() != nil || Preset(numPolicies).Rule() != nil {
		t.Errorf("unknown policy: non-nil parts")
	}
	for _, bad := range []string{"", "lottery", "srpt-besteffort", "hopper+speculate"} {
		if _, err := NewAllocator(bad); err == nil || !strings.Contains(err.Error(), "unknown allocator") {
			t.Errorf("NewAllocator(%q): %v", bad, err)
		}
		if _, err := NewRule(bad); err == nil || !strings.Contains(err.Error(), "unknown in-job rule") {
			t.Errorf("NewRule(%q): %v", bad, err)
		}
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// testPartsAreThePreset: a configuration that names a preset's allocator
// and rule as values (whatever its Policy, which then only labels the
// result) runs exactly as the preset.
func testPartsAreThePreset(t *rapid.T) {
	jobs := paretoJobs(t, 5)
	cfg := anyConfig(t)
	cfg.Record = true
	want, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, r := cfg.Policy.Parts()
	cfg.Allocator, _ = NewAllocator(a)
	cfg.Rule, _ = NewRule(r)
	cfg.Policy = SRPT
	if r == "budgeted" {
		cfg.Policy = SRPTBudgeted // the label the helpers' capacity check reads
	}
	got, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	got.Policy = want.Policy
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s+%s differs from its preset (-preset +parts):\n%s", a, r, diff)
	}
}

func TestPartsAreThePreset(t *testing.T) { t.Parallel(); rapid.Check(t, testPartsAreThePreset) }

// anyCombination draws any built-in allocator and rule into cfg, the
// Policy a label that keeps the helpers' capacity checks right (a budgeted
// preset for the budgeted rule).
func anyCombination(t *rapid.T, cfg *Config) (string, string) {
	a := rapid.SampledFrom(AllocatorNames()).Draw(t, "allocator")
	r := rapid.SampledFrom(RuleNames()).Draw(t, "rule")
	cfg.Allocator, _ = NewAllocator(a)
	cfg.Rule, _ = NewRule(r)
	cfg.Policy = SRPT
	if r == "budgeted" {
		cfg.Policy = SRPTBudgeted
		if cfg.Slots < 2 {
			cfg.Slots = 2
		}
		cfg.Budget = min(cfg.Budget, cfg.Slots-1)
	}
	return a, r
}

// testEveryCombination: every allocator combined with every rule runs every
// job to completion within the model (checkRun: each task completes once,
// its other copies killed then, never more copies than slots — the pool
// apart under budgeted speculation —, phases pipelined, counters agreeing
// with the copies), deterministically.
func testEveryCombination(t *rapid.T) {
	var jobs []Job
	known := rapid.Bool().Draw(t, "known")
	if known {
		jobs = explicitJobs(t, 5, false)
	} else {
		jobs = paretoJobs(t, 5)
	}
	cfg := anyConfig(t)
	cfg.Record = true
	a, r := anyCombination(t, &cfg)
	res, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("%s+%s: %v", a, r, err)
	}
	checkRun(t, jobs, cfg, res, false)
	again, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, again); diff != "" {
		t.Fatalf("%s+%s: same input, different result:\n%s", a, r, diff)
	}
}

func TestEveryCombination(t *testing.T) { t.Parallel(); rapid.Check(t, testEveryCombination) }

// userSRPT is SRPT written against the exported Decision only: targets the
// demands in increasing T_j, ties by arrival.
type userSRPT struct{}

func (userSRPT) Allocate(d *Decision, target []int, key []float64) error {
	order := make([]int, d.Active())
	for k := range order {
		order[k] = k
		key[k] = float64(d.Remaining(k))
	}
	slices.SortStableFunc(order, func(a, b int) int { return d.Remaining(a) - d.Remaining(b) })
	left := d.Capacity()
	for _, k := range order {
		target[k] = min(d.Demand(k), left)
		left -= target[k]
	}
	return nil
}

// userLaunch launches only, by Decision.Launch.
type userLaunch struct{}

func (userLaunch) Use(d *Decision, k, g int) error { d.Launch(k, g); return nil }
func (userLaunch) CanUse(*Decision, int) bool      { return false }

// testUserParts: SRPT and the launch-only rule written by a user against
// the exported Decision run exactly as the built-in SRPT preset — the
// user's allocator is work-conserving, which changes nothing for a
// launch-only rule (a job with a task left unscheduled after the grants
// had its whole demand refused for want of slots).
func testUserParts(t *rapid.T) {
	jobs := paretoJobs(t, 6)
	cfg := anyConfig(t)
	cfg.Policy = SRPT
	cfg.Record = true
	want, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Allocator = userSRPT{}
	if rapid.Bool().Draw(t, "userRule") {
		cfg.Rule = userLaunch{}
	}
	got, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("user SRPT differs from the preset (-preset +user):\n%s", diff)
	}
}

func TestUserParts(t *testing.T) { t.Parallel(); rapid.Check(t, testUserParts) }

// greedyCloner is a user rule that asks for more than it is granted: it
// launches every unscheduled task and copies every running task as often
// as Launch and Copy let it.
type greedyCloner struct{ asked, granted int }

func (c *greedyCloner) Use(d *Decision, k, g int) error {
	c.granted += g
	c.asked += d.Unscheduled(k) + 1
	d.Launch(k, d.Unscheduled(k)+1)
	for i := 0; i < d.Running(k); i++ {
		copies, elapsed, remaining := d.RunningTask(k, i)
		if copies < 1 || elapsed < 0 || !(remaining >= 0) {
			return errors.New("bad running task")
		}
		for d.Copy(k, i) {
		}
	}
	return nil
}

func (*greedyCloner) CanUse(d *Decision, k int) bool { return d.Running(k) > 0 }

// testGreedyUserRule: a rule's Launch and Copy stop at its grant, so a rule
// that asks for more never holds more slots than there are (checkRun), and
// each task runs at most MaxCopies copies at once.
func testGreedyUserRule(t *rapid.T) {
	jobs := paretoJobs(t, 4)
	cfg := anyConfig(t)
	cfg.Speculation.Off = false
	cfg.Record = true
	anyCombination(t, &cfg)
	rule := &greedyCloner{}
	cfg.Rule = rule
	if cfg.Policy == SRPTBudgeted {
		cfg.Policy = SRPT
	}
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, jobs, cfg, r, false)
	if rule.granted == 0 {
		t.Fatalf("the rule was never called")
	}
}

func TestGreedyUserRule(t *testing.T) { t.Parallel(); rapid.Check(t, testGreedyUserRule) }

type failingAllocator struct{ err error }

func (f failingAllocator) Allocate(*Decision, []int, []float64) error { return f.err }

type failingRule struct{ err error }

func (f failingRule) Use(*Decision, int, int) error { return f.err }
func (failingRule) CanUse(*Decision, int) bool      { return true }

// TestPartErrors: an error of the caller's allocator or rule stops the run
// and Simulate returns it.
func TestPartErrors(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	for _, cfg := range []Config{
		{Allocator: failingAllocator{boom}},
		{Rule: failingRule{boom}},
	} {
		c := DefaultConfig(Hopper, 6)
		c.Allocator, c.Rule = cfg.Allocator, cfg.Rule
		if r, err := Simulate(ThesisExample(), c); !errors.Is(err, boom) || r != nil {
			t.Errorf("%T/%T: %v, %v; want boom and no result", cfg.Allocator, cfg.Rule, r, err)
		}
	}
}

// TestPartsValidation: the checks that depend on the policy follow its
// parts — SREWCBeta for SREWCAllocator, Budget for BudgetedRule — whatever
// Policy says; Config.Validate is Simulate's check.
func TestPartsValidation(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Hopper, 4)
	cfg.SREWCBeta = 0
	cfg.Budget = 4
	if err := cfg.Validate(); err != nil {
		t.Fatalf("hopper: %v", err)
	}
	cfg.Allocator = &SREWCAllocator{}
	if err := cfg.Validate(); !isInputError(err) || !strings.Contains(err.Error(), "SREWCBeta") {
		t.Errorf("srewc+speculate with SREWCBeta 0: %v", err)
	}
	cfg.Allocator, cfg.Rule = &HopperAllocator{}, &BudgetedRule{}
	err := cfg.Validate()
	if !isInputError(err) || !strings.Contains(err.Error(), "Budget") {
		t.Errorf("hopper+budgeted with Budget = Slots: %v", err)
	}
	if _, serr := Simulate(ThesisExample(), cfg); serr == nil || serr.Error() != err.Error() {
		t.Errorf("Simulate: %v; Validate: %v", serr, err)
	}
}

// TestDecisionView: what a Decision shows an allocator agrees with the
// jobs: at the first decision of the thesis's example, both jobs are
// active, nothing is held, every task is unscheduled and T_j is the task
// count.
func TestDecisionView(t *testing.T) {
	t.Parallel()
	var seen bool
	spy := allocatorFunc(func(d *Decision, target []int, key []float64) error {
		if !seen {
			seen = true
			if d.Now() != 0 || d.Active() != 2 || d.Capacity() != 6 || d.ClusterBeta() != ThesisExampleBeta {
				t.Errorf("now %g, %d active, capacity %d, β %g", d.Now(), d.Active(), d.Capacity(), d.ClusterBeta())
			}
			for k, tasks := range []int{4, 6} {
				if d.Job(k) != k || d.Remaining(k) != tasks || d.Unscheduled(k) != tasks || d.Held(k) != 0 ||
					d.Demand(k) != tasks || d.Running(k) != 0 || d.Beta(k) != ThesisExampleBeta {
					t.Errorf("job %d: index %d, T %d, unscheduled %d, held %d, demand %d, running %d",
						k, d.Job(k), d.Remaining(k), d.Unscheduled(k), d.Held(k), d.Demand(k), d.Running(k))
				}
			}
		}
		return (&HopperAllocator{}).Allocate(d, target, key)
	})
	cfg := DefaultConfig(Hopper, 6)
	cfg.Allocator = spy
	if _, err := Simulate(ThesisExample(), cfg); err != nil || !seen {
		t.Fatalf("%v, called %v", err, seen)
	}
}

type allocatorFunc func(d *Decision, target []int, key []float64) error

func (f allocatorFunc) Allocate(d *Decision, target []int, key []float64) error {
	return f(d, target, key)
}

// TestPresetsConcurrent: a Config with a preset Policy and no parts may
// serve concurrent runs — each run makes its own allocator and rule, whose
// scratch memory is then never shared (go test -race checks it) — and
// every run gives the same result.
func TestPresetsConcurrent(t *testing.T) {
	t.Parallel()
	jobs, err := Synthesize(DefaultWorkload(40, 8, 0.9), rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Policies() {
		cfg := DefaultConfig(p, 8)
		results := make([]*Result, 4)
		done := make(chan error, len(results))
		for i := range results {
			go func() {
				var err error
				results[i], err = Simulate(jobs, cfg)
				done <- err
			}()
		}
		for range results {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		for i := 1; i < len(results); i++ {
			if diff := cmp.Diff(results[0], results[i]); diff != "" {
				t.Fatalf("%v: concurrent runs differ:\n%s", p, diff)
			}
		}
	}
}

// greedyPool is a user PoolRule that launches tasks outside the pool and,
// in the pool, copies every running task of every job as often as Copy
// lets it, checking the PoolRule contract as it goes: it is handed the
// pool's free slots as its grant, Launch starts nothing there, and Copy
// stops at the grant. With misuse, its first FillPool calls Copy out of
// range.
type greedyPool struct {
	LaunchRule
	t       *rapid.T
	budget  int
	misuse  bool
	misused bool // the misuse is done: Simulate must not call again
	calls   int
	started int // copies started in the pool
}

func (p *greedyPool) FillPool(d *Decision, free int) error {
	p.calls++
	if free < 0 || free > p.budget || d.Grant() != free {
		p.t.Fatalf("FillPool(free = %d), grant %d, budget %d", free, d.Grant(), p.budget)
	}
	if p.misuse {
		p.misused = true
		d.Copy(0, d.Running(0))
		return nil
	}
	for k := range d.Active() {
		if n := d.Launch(k, free+1); n != 0 {
			p.t.Fatalf("Launch in the pool started %d tasks", n)
		}
		for i := range d.Running(k) {
			for d.Copy(k, i) {
				p.started++
				free--
			}
		}
	}
	if d.Grant() != free || free < 0 {
		p.t.Fatalf("after the copies: grant %d, %d free", d.Grant(), free)
	}
	return nil
}

// testPoolRuleContract: a user's PoolRule gets the reserved pool (tasks
// outside it, copies in it, never more than Config.Budget at once, marked
// Pool), its copies count as Copies, and a misuse of the Decision in
// FillPool ends the run with its InputError.
func testPoolRuleContract(t *rapid.T) {
	jobs := paretoJobs(t, 4)
	cfg := anyConfig(t)
	cfg.Policy = SRPTBudgeted
	cfg.Slots = max(cfg.Slots, 2)
	cfg.Budget = rapid.IntRange(1, cfg.Slots-1).Draw(t, "budget")
	cfg.Speculation.Off = false
	cfg.Record = true
	p := &greedyPool{t: t, budget: cfg.Budget, misuse: rapid.IntRange(0, 4).Draw(t, "misuse") == 0}
	cfg.Rule = p
	cfg.Allocator = allocatorFunc(func(d *Decision, target []int, key []float64) error {
		if p.misused {
			t.Fatalf("Allocate called after the misuse in FillPool")
		}
		return (&SRPTAllocator{}).Allocate(d, target, key)
	})
	r, err := Simulate(jobs, cfg)
	if p.misuse {
		wantInputError(t, err, "sim.Decision.Copy", 0, "i")
		if p.calls != 1 {
			t.Fatalf("FillPool called %d times after the misuse", p.calls)
		}
		return
	}
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	checkCapacity(t, cfg, r)
	pool := 0
	for _, c := range r.Copies {
		if c.Pool {
			pool++
			if c.Copy == 0 {
				t.Fatalf("a task launched in the pool: %+v", c)
			}
		}
	}
	if pool != p.started || p.calls == 0 {
		t.Fatalf("%d pool copies recorded, %d started by FillPool in %d calls", pool, p.started, p.calls)
	}
}

func TestPoolRuleContract(t *testing.T) { t.Parallel(); rapid.Check(t, testPoolRuleContract) }

// watcher wraps a built-in allocator and rule, forwards every call and
// optional interface to them — so that the run is theirs, copy for copy —
// and at every Allocate and FillPool checks the Decision's accessors
// against the jobs and against each other (checkSnapshot).
type watcher struct {
	t      *rapid.T
	jobs   []Job
	budget int // the pool's size, 0 without one
	fair   bool
	extra  int // Use hands the rule g + extra slots: the Decision still grants g
	a      Allocator
	r      InJobRule
}

func (w *watcher) Allocate(d *Decision, target []int, key []float64) error {
	w.checkSnapshot(d)
	return w.a.Allocate(d, target, key)
}

func (w *watcher) WorkConserving() bool {
	if c, ok := w.a.(ConservingAllocator); ok {
		return c.WorkConserving()
	}
	return true
}

func (w *watcher) PoolKey(d *Decision, k int) float64 {
	if p, ok := w.a.(PoolKeyAllocator); ok {
		return p.PoolKey(d, k)
	}
	return float64(d.Remaining(k))
}

func (w *watcher) Use(d *Decision, k, g int) error { return w.r.Use(d, k, g) }
func (w *watcher) CanUse(d *Decision, k int) bool  { return w.r.CanUse(d, k) }
func (w *watcher) Bookkeeping() (b Bookkeeping) {
	if r, ok := w.r.(BookkeepingRule); ok {
		b = r.Bookkeeping()
	}
	return b
}

func (w *watcher) Requests(d *Decision, k int) (int, error) {
	if r, ok := w.r.(RequestRule); ok {
		return r.Requests(d, k)
	}
	return 0, nil
}

// poolWatcher is a watcher of a PoolRule.
type poolWatcher struct{ *watcher }

func (w poolWatcher) FillPool(d *Decision, free int) error {
	w.checkSnapshot(d)
	return w.r.(PoolRule).FillPool(d, free)
}

// checkSnapshot checks, for every active job, that its phases add up to
// its counts (unfinished tasks to Remaining, the runnable phases'
// unscheduled tasks to Unscheduled), that a phase is runnable exactly when
// its upstream phase has computed the tasks Phase.Start asks for, that the
// running tasks' copies fill the slots the job holds but for its waiting
// tasks', that Capped counts the tasks at MaxCopies, that the pool holds
// at most its size, and that PoolKey is the allocator's: the pool slots
// held for Fair, the remaining tasks otherwise.
func (w *watcher) checkSnapshot(d *Decision) {
	t := w.t
	remaining := d.AppendRemaining(nil)
	pool := 0
	for k := range d.Active() {
		job := &w.jobs[d.Job(k)]
		if d.Phases(k) != len(job.Phases) || remaining[k] != float64(d.Remaining(k)) {
			t.Fatalf("job %d: %d phases of %d, AppendRemaining %g, Remaining %d", k, d.Phases(k), len(job.Phases), remaining[k], d.Remaining(k))
		}
		var unfinished, unscheduled, downstreamComputed int
		for p := range d.Phases(k) {
			st := d.Phase(k, p)
			runnable := p == 0
			if p > 0 {
				up := job.Phases[p-1].Tasks
				start := job.Phases[p].Start
				if start == 0 {
					start = 1
				}
				need := min(max(int(math.Ceil(start*float64(up))), 1), up)
				runnable = d.Phase(k, p-1).Computed >= need
				downstreamComputed += st.Computed
			}
			if st.Tasks != job.Phases[p].Tasks || st.Runnable != runnable || st.Computed+st.Unscheduled > st.Tasks {
				t.Fatalf("job %d phase %d: %+v, %d tasks, runnable %v", k, p, st, job.Phases[p].Tasks, runnable)
			}
			unfinished += st.Tasks - st.Computed
			if st.Runnable {
				unscheduled += st.Unscheduled
			}
		}
		copies, capped := 0, 0
		for i := range d.Running(k) {
			copies += d.Copies(k, i)
			if d.Copies(k, i) == MaxCopies {
				capped++
			}
		}
		if unfinished != d.Remaining(k) || unscheduled != d.Unscheduled(k) ||
			copies != d.Held(k)+d.PoolHeld(k)-d.Waiting(k) || capped != d.Capped(k) ||
			d.Waiting(k) < 0 || d.Waiting(k) > downstreamComputed {
			t.Fatalf("job %d: phases give %d unfinished, %d unscheduled; Remaining %d, Unscheduled %d; %d copies, held %d + pool %d − waiting %d (%d downstream computed); %d capped, Capped %d",
				k, unfinished, unscheduled, d.Remaining(k), d.Unscheduled(k), copies, d.Held(k), d.PoolHeld(k), d.Waiting(k), downstreamComputed, capped, d.Capped(k))
		}
		want := float64(d.Remaining(k))
		if w.fair {
			want = float64(d.PoolHeld(k))
		}
		if d.PoolKey(k) != want {
			t.Fatalf("job %d: PoolKey %g, want %g", k, d.PoolKey(k), want)
		}
		if job.NewCopy != 0 && d.NewCopy(k) != job.NewCopy {
			t.Fatalf("job %d: NewCopy %g, the job's %g", k, d.NewCopy(k), job.NewCopy)
		}
		pool += d.PoolHeld(k)
	}
	if pool > w.budget || d.Capacity() != d.Config().Slots-w.budget {
		t.Fatalf("%d pool slots held of %d, capacity %d of %d slots", pool, w.budget, d.Capacity(), d.Config().Slots)
	}
}

// testSnapshotAddsUp: wrapped in a watcher, every combination of a
// built-in allocator and rule runs as it does alone — even when the
// watcher offers the rule more slots than the Decision grants, which the
// built-in rules take as the grant — and its Decisions pass checkSnapshot
// at every call.
func testSnapshotAddsUp(t *rapid.T) {
	var jobs []Job
	if rapid.Bool().Draw(t, "pareto") {
		jobs = paretoJobs(t, 5)
	} else {
		jobs = explicitJobs(t, 5, false)
	}
	cfg := anyConfig(t)
	cfg.Record = true
	a, r := anyCombination(t, &cfg)
	want, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("%s+%s: %v", a, r, err)
	}
	w := &watcher{t: t, jobs: jobs, fair: a == "fair", a: cfg.Allocator, r: cfg.Rule, extra: rapid.IntRange(0, 3).Draw(t, "extra")}
	watched := cfg
	watched.Allocator, watched.Rule = w, w
	if _, ok := cfg.Rule.(PoolRule); ok {
		w.budget = cfg.Budget
		watched.Rule = poolWatcher{w}
	}
	w.a, _ = NewAllocator(a) // fresh values: the first run's are spent
	w.r, _ = NewRule(r)
	got, err := Simulate(jobs, watched)
	if err != nil {
		t.Fatalf("%s+%s watched: %v", a, r, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s+%s: the watched run differs (-alone +watched):\n%s", a, r, diff)
	}
}

func TestSnapshotAddsUp(t *testing.T) { t.Parallel(); rapid.Check(t, testSnapshotAddsUp) }

// failingRequests is a RequestRule whose Requests fails.
type failingRequests struct{ LaunchRule }

var errRequests = errors.New("requests failed")

func (failingRequests) Requests(*Decision, int) (int, error) { return 0, errRequests }

// TestRequestsError: an error of a RequestRule's Requests, which
// Decision.Demand calls, stops the run and Simulate returns it; with
// speculation off Requests is not called.
func TestRequestsError(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(SRPT, 6)
	cfg.Rule = failingRequests{}
	if _, err := Simulate(ThesisExample(), cfg); !errors.Is(err, errRequests) {
		t.Errorf("Simulate: %v, want %v", err, errRequests)
	}
	cfg.Speculation.Off = true
	if _, err := Simulate(ThesisExample(), cfg); err != nil {
		t.Errorf("speculation off: %v", err)
	}
}
