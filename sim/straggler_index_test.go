package sim

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/stragglers"
)

// indexChecker is an Allocator that, at every decision, checks the
// straggler index of every active job against a brute force (and that its
// queue of tasks not yet old enough, and the job's queue of checks, stay
// within twice their pending parts, plus 32) —
// stragglers.Speculate on Decision.AppendRunning's view of all the job's
// running tasks, the computation the rules made at every decision before
// the index — then allocates as inner does. drop, if set, is the mutant:
// after its checks at decision number drop it takes one entry out of an
// index (the most urgent eligible task of the first job that has one).
type indexChecker struct {
	inner     Allocator
	drop      int  // the mutant's decision (0: none)
	dropped   bool // the mutant has dropped its entry
	decisions int
	mismatch  string // the first disagreement found
	checked   int    // jobs checked with at least one eligible task
	view      []stragglers.Task
	acts      []stragglers.Action
	ws        stragglers.Workspace
	picks     []int
}

func (c *indexChecker) WorkConserving() bool {
	if w, ok := c.inner.(ConservingAllocator); ok {
		return w.WorkConserving()
	}
	return true
}

func (c *indexChecker) PoolKey(d *Decision, k int) float64 {
	if p, ok := c.inner.(PoolKeyAllocator); ok {
		return p.PoolKey(d, k)
	}
	return float64(d.Remaining(k))
}

func (c *indexChecker) Allocate(d *Decision, target []int, key []float64) error {
	c.decisions++
	for k := range d.Active() {
		c.check(d, k)
	}
	if c.drop > 0 && c.decisions >= c.drop && !c.dropped {
		for k := range d.Active() {
			if ix := d.e.js[d.e.active[k]].ix; ix != nil && ix.urg.Len() > 0 {
				pos := ix.urg.Min().Index
				ix.urg.Remove(pos)
				ix.exit.Remove(pos)
				c.dropped = true
				break
			}
		}
	}
	return c.inner.Allocate(d, target, key)
}

// brute sets c.acts to Speculate's copies on the job's running tasks with n
// free slots.
func (c *indexChecker) brute(d *Decision, k, n int) {
	busy := 0
	for _, t := range c.view {
		busy += t.Copies
	}
	var err error
	c.acts, err = stragglers.Speculate(c.acts, c.view, busy+n, specPolicy(d, k), &c.ws)
	if err != nil {
		panic(err)
	}
}

func (c *indexChecker) fail(format string, args ...any) {
	if c.mismatch == "" {
		c.mismatch = fmt.Sprintf(format, args...)
	}
}

func (c *indexChecker) check(d *Decision, k int) {
	c.view = d.AppendRunning(c.view[:0], k)
	r := len(c.view)
	if r == 0 {
		return
	}
	c.brute(d, k, r)
	eligible := len(c.acts)
	if got := d.Stragglers(k); got != eligible {
		c.fail("t=%v job %d: Stragglers %d, Speculate finds %d eligible of %d", d.Now(), d.Job(k), got, eligible, r)
	}
	if ix := d.e.js[d.e.active[k]].ix; ix != nil && len(ix.pend) > 2*(len(ix.pend)-ix.head)+32 {
		c.fail("t=%v job %d: the queue of tasks to judge holds %d, %d of them pending", d.Now(), d.Job(k), len(ix.pend), len(ix.pend)-ix.head)
	}
	if js := &d.e.js[d.e.active[k]]; len(js.checks) > 2*(len(js.checks)-int(js.checkHead))+32 {
		c.fail("t=%v job %d: the queue of checks holds %d, %d of them pending", d.Now(), d.Job(k), len(js.checks), len(js.checks)-int(js.checkHead))
	}
	if d.e.indexed && d.MayHaveStraggler(k) != (eligible > 0) {
		c.fail("t=%v job %d: MayHaveStraggler %v with %d eligible", d.Now(), d.Job(k), d.MayHaveStraggler(k), eligible)
	}
	if eligible > 0 {
		c.checked++
	}
	for _, n := range []int{1, 2, eligible - 1, eligible, r} {
		if n <= 0 {
			continue
		}
		c.brute(d, k, n)
		c.picks = d.AppendStragglers(c.picks[:0], k, n)
		want := make([]int, len(c.acts))
		for i, a := range c.acts {
			want[i] = a.Task
		}
		if !slices.Equal(c.picks, want) {
			c.fail("t=%v job %d: AppendStragglers(%d) = %v, Speculate copies %v", d.Now(), d.Job(k), n, c.picks, want)
		}
	}
}

// indexJobs draws a few jobs of up to hundreds of tasks, with drawn or
// given durations (small integers: ties in t_rem under Oracle).
func indexJobs(t *rapid.T) []Job {
	n := rapid.IntRange(1, 4).Draw(t, "jobs")
	jobs := make([]Job, n)
	for j := range jobs {
		job := Job{Arrival: quarter(t, 0, 20, "arrival"), Beta: rapid.SampledFrom([]float64{1.1, 1.5, 1.9, 2.5}).Draw(t, "beta")}
		for p := range rapid.IntRange(1, 2).Draw(t, "phases") {
			ph := Phase{Tasks: rapid.IntRange(1, 300).Draw(t, "tasks"), Scale: 1}
			if p > 0 {
				ph.Start = rapid.SampledFrom([]float64{0, 0.5}).Draw(t, "start")
			}
			if rapid.Bool().Draw(t, "given") {
				ph.Durations = make([]float64, ph.Tasks)
				for i := range ph.Durations {
					ph.Durations[i] = float64(rapid.IntRange(1, 8).Draw(t, "d"))
				}
			}
			job.Phases = append(job.Phases, ph)
		}
		jobs[j] = job
	}
	return jobs
}

// indexConfig draws a policy whose rule judges stragglers, on an
// estimator the index keeps (Oracle, Progress).
func indexConfig(t *rapid.T) Config {
	p := rapid.SampledFrom([]Preset{Hopper, HopperEps, HopperHetero, SRPTBestEffort, FairBestEffort, SRPTBudgeted, FairBudgeted}).Draw(t, "policy")
	cfg := DefaultConfig(p, rapid.IntRange(2, 120).Draw(t, "slots"))
	cfg.Seed = rapid.Uint64().Draw(t, "seed")
	cfg.Speculation.Estimator = rapid.SampledFrom([]Estimator{Oracle, Progress}).Draw(t, "estimator")
	cfg.Speculation.Mantri = rapid.Bool().Draw(t, "mantri")
	cfg.Speculation.Detect = rapid.SampledFrom([]float64{0, 0.1, 0.5}).Draw(t, "detect")
	return cfg
}

// TestStragglerIndex: at every decision of random runs with jobs of
// hundreds of tasks, Decision.Stragglers, AppendStragglers and (exact with
// the index) MayHaveStraggler agree with stragglers.Speculate on the
// job's full view.
func TestStragglerIndex(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		jobs := indexJobs(t)
		cfg := indexConfig(t)
		c := &indexChecker{inner: cfg.Policy.Allocator()}
		cfg.Allocator = c
		if _, err := Simulate(jobs, cfg); err != nil {
			t.Fatal(err)
		}
		if c.mismatch != "" {
			t.Fatal(c.mismatch)
		}
	})
}

// TestStragglerIndexMutant: the checker of TestStragglerIndex sees an
// index that lost one entry — a workload on which it checks eligible
// tasks, with the mutant dropping one at the first decision from the 50th
// at which an index has one.
func TestStragglerIndexMutant(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Beta: 1.1, Phases: []Phase{{Tasks: 2000, Scale: 1}}}}
	for _, drop := range []int{0, 50} {
		cfg := DefaultConfig(Hopper, 100)
		c := &indexChecker{inner: cfg.Policy.Allocator(), drop: drop}
		cfg.Allocator = c
		if _, err := Simulate(jobs, cfg); err != nil {
			t.Fatal(err)
		}
		if c.checked < 100 {
			t.Fatalf("drop %d: only %d checks with an eligible task", drop, c.checked)
		}
		if (c.mismatch != "") != (drop > 0) {
			t.Errorf("drop %d: mismatch %q", drop, c.mismatch)
		}
	}
}

// TestStragglersFallback: without the straggler bookkeeping (a rule that
// is no BookkeepingRule) and under Observed, Stragglers and
// AppendStragglers scan the running tasks and still agree with Speculate.
func TestStragglersFallback(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		jobs := indexJobs(t)
		cfg := indexConfig(t)
		if rapid.Bool().Draw(t, "observed") {
			cfg.Speculation.Estimator = Observed
		} else {
			cfg.Rule = LaunchRule{}
		}
		c := &indexChecker{inner: cfg.Policy.Allocator()}
		cfg.Allocator = c
		if _, err := Simulate(jobs, cfg); err != nil {
			t.Fatal(err)
		}
		if c.mismatch != "" {
			t.Fatal(c.mismatch)
		}
	})
}

// specPolicy is the stragglers.Speculation of the active job at position
// k: the thesis's rule or Mantri's (Config.Speculation), its t_new, β and
// the time a task runs before it may be judged (Speculation.Detect ×
// t_new).
func specPolicy(d *Decision, k int) stragglers.Speculation {
	spec := d.Config().Speculation
	tnew := d.NewCopy(k)
	p := stragglers.Speculation{
		Rule:       stragglers.ThesisRule,
		NewCopy:    tnew,
		Beta:       d.Beta(k),
		Threshold:  spec.Threshold,
		MinElapsed: spec.Detect * tnew,
	}
	if spec.Mantri {
		p.Rule = stragglers.MantriRule
	}
	return p
}

// TestExitTime: exitTime is the least float at which Speculate's test on
// t_rem fails (the test holds one float before, fails at it and after),
// for tasks of one to several copies under both rules, from now on; and
// the search from the closed-form guess visits few floats: 1 to 24
// evaluations of the test, as the engine's step count tells (a bisection
// over the floats between now and the task's earliest end takes about
// 60).
func TestExitTime(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		cfg := DefaultConfig(Hopper, 1000)
		cfg.Speculation.Mantri = rapid.Bool().Draw(t, "mantri")
		cfg.Speculation.Detect = 0
		cfg.Seed = rapid.Uint64().Draw(t, "seed")
		cfg.Speculation.Estimator = rapid.SampledFrom([]Estimator{Oracle, Progress}).Draw(t, "estimator")
		jobs := []Job{{Beta: rapid.Float64Range(1.05, 3).Draw(t, "beta"), Phases: []Phase{{Tasks: 1, Scale: rapid.Float64Range(0.01, 1e4).Draw(t, "scale")}}}}
		e := newEngine("test", jobs, cfg, 1)
		e.now = rapid.Float64Range(0, 1e6).Draw(t, "start")
		e.arrive(0)
		e.launch(0)
		for range rapid.IntRange(0, 4).Draw(t, "copies") {
			e.startCopy(0, false)
		}
		e.now += rapid.Float64Range(0, 2).Draw(t, "age") * e.js[0].tnew
		end := math.Inf(1)
		for c := e.ts[0].head; c != none; c = e.cs[c].next {
			end = math.Min(end, e.cs[c].end)
		}
		if !(e.now < end) {
			t.Skip("the task's run is over")
		}
		ts := &e.ts[0]
		test := func(at float64) bool { return e.passes(0, ts.copies, e.remainingAt(0, at)) }
		steps := e.steps
		x := e.exitTime(0)
		evals := (e.steps - steps) / int(ts.copies)
		if x < e.now || x > end {
			t.Fatalf("X = %v outside [now, end] = [%v, %v]", x, e.now, end)
		}
		if test(x) {
			t.Fatalf("the test holds at X = %v", x)
		}
		if x > e.now && !test(math.Nextafter(x, 0)) {
			t.Fatalf("the test fails before X = %v", x)
		}
		if evals < 1 || evals > 24 {
			t.Fatalf("%d evaluations of the test", evals)
		}
	})
}
