package sim

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/stragglers"
)

// slowProbe is GRASSRule with a check of Decision.AppendSlow against
// AppendRunning (the full view) at every call: the listed entries are
// AppendRunning's at their positions, in increasing position; every task
// left out has t_rem ≤ t_new (what GRASS needs: it copies only above);
// the running tasks' slots are Held + PoolHeld − Waiting; and without the
// filter (another estimator than Observed, Mantri's rule) every task is
// listed. left counts the tasks left out over the run (the filter's work).
type slowProbe struct {
	GRASSRule
	t          fataler
	slow, full []stragglers.Task
	pos        []int
	left       int
	books      bool // false: run as plainProbe, without the straggler bookkeeping
}

func (p *slowProbe) check(d *Decision, k int) {
	if !inRange(d, k) {
		return
	}
	p.slow, p.pos = d.AppendSlow(p.slow[:0], p.pos[:0], k)
	p.full = d.AppendRunning(p.full[:0], k)
	if len(p.slow) != len(p.pos) {
		p.t.Fatalf("AppendSlow: %d tasks, %d positions", len(p.slow), len(p.pos))
	}
	listed := make([]bool, len(p.full))
	for i, pos := range p.pos {
		if pos < 0 || pos >= len(p.full) || i > 0 && pos <= p.pos[i-1] {
			p.t.Fatalf("AppendSlow: positions %v of %d running tasks", p.pos, len(p.full))
		}
		if p.slow[i] != p.full[pos] {
			p.t.Fatalf("AppendSlow: task at %d is %+v, AppendRunning's %+v", pos, p.slow[i], p.full[pos])
		}
		listed[pos] = true
	}
	tnew := d.NewCopy(k)
	busy := 0
	for i, ft := range p.full {
		busy += ft.Copies
		if !listed[i] {
			p.left++
			if ft.Remaining > tnew {
				p.t.Fatalf("AppendSlow left out task %d of t_rem %g > t_new %g", i, ft.Remaining, tnew)
			}
		}
	}
	if want := d.Held(k) + d.PoolHeld(k) - d.Waiting(k); busy != want {
		p.t.Fatalf("running tasks hold %d slots, Held + PoolHeld − Waiting = %d", busy, want)
	}
	cfg := d.Config()
	if (cfg.Speculation.Estimator != Observed || cfg.Speculation.Mantri || !p.books) && len(p.slow) != len(p.full) {
		p.t.Fatalf("AppendSlow listed %d of %d running tasks without the filter", len(p.slow), len(p.full))
	}
}

func (p *slowProbe) Requests(d *Decision, k int) (int, error) {
	p.check(d, k)
	return p.GRASSRule.Requests(d, k)
}

func (p *slowProbe) Use(d *Decision, k, g int) error {
	p.check(d, k)
	return p.GRASSRule.Use(d, k, g)
}

// plainProbe is a slowProbe as a rule without the straggler bookkeeping
// (no BookkeepingRule, no RequestRule): AppendSlow must then list every
// running task, the eligibility bounds not being kept.
type plainProbe struct{ p *slowProbe }

func (r plainProbe) CanUse(d *Decision, k int) bool  { return r.p.CanUse(d, k) }
func (r plainProbe) Use(d *Decision, k, g int) error { return r.p.Use(d, k, g) }

// testAppendSlow runs slowProbe under any allocator and configuration,
// with the straggler bookkeeping or without.
func testAppendSlow(t *rapid.T) {
	jobs := paretoJobs(t, 6)
	cfg := anyConfig(t)
	cfg.Speculation.Off = false
	cfg.Allocator, _ = NewAllocator(rapid.SampledFrom([]string{"srpt", "fair", "hopper", "hopper-dag"}).Draw(t, "allocator"))
	probe := &slowProbe{t: t, books: rapid.Bool().Draw(t, "bookkeeping")}
	cfg.Rule = probe
	if !probe.books {
		cfg.Rule = plainProbe{probe}
	}
	if _, err := Simulate(jobs, cfg); err != nil {
		t.Fatalf("Simulate: %v", err)
	}
}

func TestAppendSlow(t *testing.T) { t.Parallel(); rapid.Check(t, testAppendSlow) }
func FuzzAppendSlow(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAppendSlow)) }

// TestAppendSlowLeavesOut is TestAppendSlow's power: on a busy synthetic
// workload under Observed, AppendSlow leaves tasks out (the filter works),
// and none of them could be copied (the probe's checks).
func TestAppendSlowLeavesOut(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(SRPT, 20)
	cfg.Speculation.Estimator = Observed
	probe := &slowProbe{t: t, books: true}
	cfg.Rule = probe
	if _, err := Simulate(observedWorkload(t), cfg); err != nil {
		t.Fatal(err)
	}
	if probe.left == 0 {
		t.Fatal("AppendSlow left out no task over the run")
	}
}

// refGRASS is GRASSRule as it was before AppendSlow, the reference of
// testGRASSSlowView: every running task in the view (AppendRunning), the
// busy slots their copies, the counts stragglers.GRASS's own (the
// validating function, not the kernel).
type refGRASS struct {
	baseline
	tasks []stragglers.Task
}

func (*refGRASS) Bookkeeping() Bookkeeping       { return Bookkeeping{Stragglers: true} }
func (*refGRASS) CanUse(d *Decision, k int) bool { return inRange(d, k) && grassMay(d, k) }

func (r *refGRASS) Requests(d *Decision, k int) (int, error) {
	if !inRange(d, k) || !grassMay(d, k) {
		return 0, nil
	}
	err := r.decide(d, k, d.Unscheduled(k)+d.Running(k), 0)
	return len(r.acts), err
}

func (r *refGRASS) Use(d *Decision, k, g int) error {
	if !grassMay(d, k) {
		d.Launch(k, g)
		return nil
	}
	if err := r.decide(d, k, g, min(d.Unscheduled(k), g)); err != nil {
		return err
	}
	return r.apply("refGRASS", d, k, nil)
}

func (r *refGRASS) decide(d *Decision, k, free, unsched int) error {
	tnew := d.NewCopy(k)
	r.tasks = d.AppendRunning(r.tasks[:0], k)
	r.view, r.run = r.view[:0], r.run[:0]
	busy := 0
	for i, t := range r.tasks {
		r.view = append(r.view, stragglers.TaskStatus{Task: t, NewCopy: tnew})
		r.run = append(r.run, i)
		busy += t.Copies
	}
	slots := busy + free
	p := stragglers.DefaultGRASS()
	p.MaxCopies, p.MinElapsed = MaxCopies, d.Config().Speculation.Detect*tnew
	if p.Greedy(d.Remaining(k), slots) {
		p.SwitchWaves = math.MaxFloat64
	} else {
		p.SwitchWaves = 0
	}
	r.addUnscheduled(unsched, tnew)
	var err error
	r.acts, err = stragglers.GRASS(r.acts, r.view, slots, p, nil)
	return err
}

// overlappingJobs draws 1 to 4 jobs of two Pareto phases whose second
// starts before the first completes, so that tasks wait for their
// upstream phase holding a slot (Decision.Waiting) while the job's tasks
// run: where the running tasks' slots (Held + PoolHeld − Waiting) and the
// job's differ.
func overlappingJobs(t *rapid.T) []Job {
	jobs := make([]Job, rapid.IntRange(1, 4).Draw(t, "jobs"))
	for j := range jobs {
		ph := []Phase{
			{Tasks: rapid.IntRange(2, 16).Draw(t, "maps"), Scale: rapid.Float64Range(1, 3).Draw(t, "mapScale")},
			{Tasks: rapid.IntRange(2, 16).Draw(t, "reduces"), Scale: rapid.Float64Range(0.05, 0.3).Draw(t, "reduceScale"),
				Start: rapid.SampledFrom([]float64{0, 0.3}).Draw(t, "start")},
		}
		jobs[j] = Job{Arrival: rapid.Float64Range(0, 3).Draw(t, "arrival"), Beta: rapid.SampledFrom([]float64{1.1, 1.5}).Draw(t, "beta"), Phases: ph}
	}
	return jobs
}

// testGRASSSlowView: GRASSRule, shown only AppendSlow's tasks (the running
// tasks whose t_rem may exceed t_new) with the busy slots from the job's
// counts, runs exactly as refGRASS, shown every running task at every
// decision, under any allocator and configuration.
func testGRASSSlowView(t *rapid.T) {
	jobs := paretoJobs(t, 6)
	if rapid.IntRange(0, 3).Draw(t, "overlapping") > 0 {
		jobs = overlappingJobs(t)
	}
	cfg := anyConfig(t)
	cfg.Speculation.Off = false
	cfg.Record = true
	alloc := rapid.SampledFrom([]string{"srpt", "fair", "hopper", "hopper-eps"}).Draw(t, "allocator")
	run := func(rule InJobRule) *Result {
		c := cfg
		c.Allocator, _ = NewAllocator(alloc)
		c.Rule = rule
		r, err := Simulate(jobs, c)
		if err != nil {
			t.Fatalf("Simulate: %v", err)
		}
		return r
	}
	want, got := run(&refGRASS{}), run(&GRASSRule{})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s+grass: AppendSlow's view changed the run (-full +slow):\n%s", alloc, diff)
	}
}

// TestGRASSSlowView replays testdata/rapid/TestGRASSSlowView first: a run
// (fair+grass) where a job's reduce tasks wait holding slots while its
// count of tasks sits between GRASS's two waves of the running tasks'
// slots and of the job's, so that counting the waiting tasks' slots as
// running switches GRASS to greedy speculation (it lived 50% of random
// runs).
func TestGRASSSlowView(t *testing.T) { t.Parallel(); rapid.Check(t, testGRASSSlowView) }
