package sim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Tests of the speculation baselines as in-job rules (LATERule, GRASSRule,
// DollyRule, SparkRule, HadoopRule): each run is checked from its copy
// records (Config.Record) against the rule's own thresholds and caps,
// recomputed from the workload's known durations, independently of the
// rules and of the engine's state.

var baselineRules = []string{"late", "grass", "dolly", "spark", "hadoop"}

// recorded is a run's copies by task, with each task's first start and
// the end of its run, derived from the records and the known durations
// (explicitJobs): the winner's start plus its duration.
type recorded struct {
	byTask map[taskKey][]CopyRecord
	first  map[taskKey]float64 // when its first copy started
	runEnd map[taskKey]float64 // when its run was over
	dur    map[taskKey]float64 // how long its winning copy ran
}

func record(jobs []Job, r *Result) recorded {
	rec := recorded{byTask: map[taskKey][]CopyRecord{}, first: map[taskKey]float64{}, runEnd: map[taskKey]float64{}, dur: map[taskKey]float64{}}
	for _, c := range r.Copies {
		k := taskKey{c.Job, c.Phase, c.Task}
		rec.byTask[k] = append(rec.byTask[k], c)
		if c.Copy == 0 {
			rec.first[k] = c.Start
		}
		if !c.Killed {
			d := durationOf(&jobs[c.Job].Phases[c.Phase], c.Task, c.Copy)
			rec.runEnd[k], rec.dur[k] = c.Start+d, d
		}
	}
	return rec
}

// computedBy returns the winning durations of the tasks of phase p of job
// j whose run was over by s (the decision at s sees them).
func (rec *recorded) computedBy(jobs []Job, j, p int, s float64) []float64 {
	var out []float64
	for i := range jobs[j].Phases[p].Tasks {
		k := taskKey{j, p, i}
		if end, ok := rec.runEnd[k]; ok && end <= s {
			out = append(out, rec.dur[k])
		}
	}
	return out
}

// allStartedBy reports whether every task of phase p of job j had started
// by s.
func (rec *recorded) allStartedBy(jobs []Job, j, p int, s float64) bool {
	for i := range jobs[j].Phases[p].Tasks {
		if f, ok := rec.first[taskKey{j, p, i}]; !ok || f > s {
			return false
		}
	}
	return true
}

// remainingAt is t_rem of task k as Oracle knows it when copy number num
// starts at s: the earliest end of its earlier copies, less s.
func (rec *recorded) remainingAt(jobs []Job, k taskKey, num int, s float64) float64 {
	rem := math.Inf(1)
	for _, c := range rec.byTask[k] {
		if c.Copy < num {
			rem = math.Min(rem, c.Start+durationOf(&jobs[k.job].Phases[k.phase], k.task, c.Copy)-s)
		}
	}
	return rem
}

// maxExtra is the most copies beyond their task's first that run at once
// (at every copy's start, those holding a slot over [Start, End)).
func maxExtra(r *Result) int {
	most := 0
	for _, c := range r.Copies {
		live := map[taskKey]int{}
		for _, o := range r.Copies {
			if o.Start <= c.Start && c.Start < o.End {
				live[taskKey{o.Job, o.Phase, o.Task}]++
			}
		}
		extra := 0
		for _, n := range live {
			extra += n - 1
		}
		most = max(most, extra)
	}
	return most
}

// tnewOf is a job's t_new as Job.NewCopy documents it: NewCopy, or the
// mean duration of a further copy over its tasks (explicitJobs: the mean
// of CopyDurations over every phase's tasks).
func tnewOf(job *Job) float64 {
	if job.NewCopy > 0 {
		return job.NewCopy
	}
	var sum float64
	n := 0
	for _, ph := range job.Phases {
		for _, c := range ph.CopyDurations {
			sum += c
			n++
		}
	}
	return sum / float64(n)
}

// median is the median of xs (the mean of the two middle values for an even
// count), by sorting a copy.
func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// baselineConfig draws a configuration for a baseline rule with any
// built-in allocator, on up to 60 slots (200 for Dolly, whose budget of 5%
// needs 20 slots for one clone).
func baselineConfig(t *rapid.T, rule string) Config {
	cfg := anyConfig(t)
	most := 60
	if rule == "dolly" {
		most = 200
	}
	cfg.Slots = rapid.IntRange(1, most).Draw(t, "baselineSlots")
	cfg.Policy = SRPT // a label
	cfg.Allocator, _ = NewAllocator(rapid.SampledFrom(AllocatorNames()).Draw(t, "allocator"))
	cfg.Rule, _ = NewRule(rule)
	cfg.Record = true
	return cfg
}

// testBaselineRun: every baseline rule, with any allocator, estimator and
// workload of known durations, runs within the model (checkRun) and within
// its own rules: no copy of a task whose run is over; at most one copy
// beyond the first per task (LATE, Spark, Hadoop: they copy a task with
// one copy only) or Dolly's clones, started with their original, at most
// three copies; the caps at every instant (LATE ⌈10%⌉ of the slots in
// speculative copies, Dolly ⌊5%⌋ in clones); launches before copies (the
// copied task's phase had started every task, but for GRASS's RAS); and
// each rule's threshold, recomputed from the records: Spark's 75% of the
// stage finished and 1.5 × their median run; Hadoop's one task and 5%
// finished, one copy per phase per instant and, under Oracle, t_rem above
// the finished tasks' mean; GRASS's t_rem > t_new under Oracle; LATE,
// GRASS and Hadoop judge a task only after Speculation.Detect × t_new.
func testBaselineRun(t *rapid.T) {
	rule := rapid.SampledFrom(baselineRules).Draw(t, "rule")
	testBaselineRule(t, rule)
}

func testBaselineRule(t *rapid.T, rule string) {
	jobs := explicitJobs(t, 5, rapid.IntRange(0, 5).Draw(t, "constant") == 0)
	cfg := baselineConfig(t, rule)
	res, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("%s: %v", rule, err)
	}
	checkRun(t, jobs, cfg, res, false)
	rec := record(jobs, res)
	spoke := map[[3]float64]int{} // Hadoop: copies per (job, phase, instant)
	for _, c := range res.Copies {
		k := taskKey{c.Job, c.Phase, c.Task}
		if !(c.Start < rec.runEnd[k]) {
			t.Fatalf("%s: copy %+v starts after its task's run ended at %g", rule, c, rec.runEnd[k])
		}
		if c.Copy == 0 {
			continue
		}
		s, job := c.Start, &jobs[c.Job]
		elapsed := s - rec.first[k]
		minElapsed := cfg.Speculation.Detect * tnewOf(job)
		switch rule {
		case "dolly":
			if c.Copy > 2 || elapsed != 0 {
				t.Fatalf("dolly: clone %+v, the task started at %g", c, rec.first[k])
			}
		case "grass":
			if elapsed < minElapsed {
				t.Fatalf("grass: copy %+v of a task that had run %g < %g", c, elapsed, minElapsed)
			}
		default:
			if c.Copy > 1 {
				t.Fatalf("%s: copy %+v of a task already speculated", rule, c)
			}
			if !rec.allStartedBy(jobs, c.Job, c.Phase, s) {
				t.Fatalf("%s: copy %+v while its phase had unscheduled tasks", rule, c)
			}
		}
		computed := rec.computedBy(jobs, c.Job, c.Phase, s)
		n := job.Phases[c.Phase].Tasks
		switch rule {
		case "late":
			if !(elapsed > 0 && elapsed >= minElapsed) {
				t.Fatalf("late: copy %+v of a task that had run %g (minimum %g)", c, elapsed, minElapsed)
			}
		case "spark":
			if n < 2 || len(computed) < max(n*3/4, 1) {
				t.Fatalf("spark: copy %+v with %d of %d tasks finished", c, len(computed), n)
			}
			if m := medianOf(computed); !(elapsed > 1.5*m) {
				t.Fatalf("spark: copy %+v of a task that had run %g, median %g", c, elapsed, m)
			}
		case "hadoop":
			if len(computed) < 1 || float64(len(computed)) < 0.05*float64(n) {
				t.Fatalf("hadoop: copy %+v with %d of %d tasks finished", c, len(computed), n)
			}
			key := [3]float64{float64(c.Job), float64(c.Phase), s}
			if spoke[key]++; spoke[key] > 1 {
				t.Fatalf("hadoop: two copies in job %d phase %d at %g", c.Job, c.Phase, s)
			}
			if cfg.Speculation.Estimator == Oracle {
				var sum float64
				for _, d := range computed {
					sum += d
				}
				mean := sum / float64(len(computed))
				if rem := rec.remainingAt(jobs, k, c.Copy, s); !(rem > mean*(1-1e-9)) || elapsed < minElapsed {
					t.Fatalf("hadoop: copy %+v with t_rem %g, mean %g, elapsed %g", c, rem, mean, elapsed)
				}
			}
		case "grass":
			if cfg.Speculation.Estimator == Oracle {
				if rem, tnew := rec.remainingAt(jobs, k, c.Copy, s), tnewOf(job); !(rem > tnew*(1-1e-9)) {
					t.Fatalf("grass: copy %+v with t_rem %g ≤ t_new %g", c, rem, tnew)
				}
			}
		}
	}
	most := maxExtra(res)
	switch rule {
	case "late":
		if limit := int(math.Ceil(0.1 * float64(cfg.Slots))); most > limit {
			t.Fatalf("late: %d speculative copies at once on %d slots, cap %d", most, cfg.Slots, limit)
		}
	case "dolly":
		if limit := cfg.Slots / 20; most > limit {
			t.Fatalf("dolly: %d clones at once on %d slots, budget %d", most, cfg.Slots, limit)
		}
	}
}

func TestBaselineRun(t *testing.T) { t.Parallel(); rapid.Check(t, testBaselineRun) }

func FuzzLATERule(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { testBaselineRule(t, "late") }))
}
func FuzzGRASSRule(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { testBaselineRule(t, "grass") }))
}
func FuzzDollyRule(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { testBaselineRule(t, "dolly") }))
}
func FuzzSparkRule(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { testBaselineRule(t, "spark") }))
}
func FuzzHadoopRule(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { testBaselineRule(t, "hadoop") }))
}

// TestBaselinesSeeNoFuture is TestObservedSeesNoFuture's information test
// for the baseline rules, with the three kinds of allocator (SRPT, which
// reads their Requests; Fair; Hopper's, work conserving): under Observed,
// stretching the copies' futures after t0 changes no copy started before
// t0; under Oracle and Progress some rule reads the future (the test's
// power).
func TestBaselinesSeeNoFuture(t *testing.T) {
	t.Parallel()
	jobs := observedWorkload(t)
	t0 := jobs[len(jobs)/2].Arrival
	for _, est := range []Estimator{Observed, Oracle, Progress} {
		differ := 0
		for _, rule := range baselineRules {
			for _, alloc := range []string{"srpt", "fair", "hopper"} {
				cfg := DefaultConfig(SRPT, 20)
				cfg.Speculation.Estimator = est
				cfg.Allocator, _ = NewAllocator(alloc)
				cfg.Rule, _ = NewRule(rule)
				cfg.Record = true
				a, err := Simulate(jobs, cfg)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Rule, _ = NewRule(rule)
				cfg.debug.stretchAfter = t0
				b, err := Simulate(jobs, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if gocmp.Equal(a.Copies, b.Copies) {
					t.Fatalf("%v, %s+%s: stretching the future changed no copy", est, alloc, rule)
				}
				diff := gocmp.Diff(copiesBefore(a, t0), copiesBefore(b, t0))
				if diff != "" {
					differ++
				}
				if est == Observed && diff != "" {
					t.Errorf("%s+%s: decisions before %v depend on the future (-a +b):\n%s", alloc, rule, t0, diff)
				}
			}
		}
		if est != Observed && differ == 0 {
			t.Errorf("%v: no baseline's decisions before t0 changed: the test has no power", est)
		}
	}
}

// TestLATEClusterCap: LATE's SpeculativeCap is the cluster's (the LATE
// paper §4: 10% of the slots in speculative copies at once), not each
// job's. Ten jobs of four tasks on 40 slots, each with three stragglers
// (20 time units against 1 for a copy): with a per-job cap, each job could
// copy at once; with the cluster's, at most ⌈0.1·40⌉ = 4 copies run at any
// instant, and the cap binds (4 run at some instant).
func TestLATEClusterCap(t *testing.T) {
	t.Parallel()
	var jobs []Job
	for range 10 {
		jobs = append(jobs, Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{
			Tasks: 4, Durations: []float64{1, 20, 20, 20}, CopyDurations: []float64{1, 1, 1, 1},
		}}})
	}
	for _, est := range []Estimator{Oracle, Progress, Observed} {
		for _, alloc := range []string{"srpt", "fair", "hopper"} {
			cfg := DefaultConfig(SRPT, 40)
			cfg.Speculation.Estimator = est
			cfg.Allocator, _ = NewAllocator(alloc)
			cfg.Rule = &LATERule{}
			cfg.Record = true
			r, err := Simulate(jobs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if most := maxExtra(r); most != 4 {
				t.Errorf("%v, %s+late: at most %d speculative copies at once, want the cap, 4", est, alloc, most)
			}
		}
	}
}

// keepToGrant wraps a built-in rule and hands it more or fewer slots than
// the job's grant, as a caller's rule may: the built-in must start no more
// than it is handed nor than the grant (InJobRule: "fills at most the
// slots the Decision still grants"), which Decision.Grant's fall tells.
type keepToGrant struct {
	inner InJobRule
	extra int // added to the grant: > 0 more than granted, < 0 fewer
	t     *rapid.T
}

func (w *keepToGrant) Bookkeeping() Bookkeeping {
	if b, ok := w.inner.(BookkeepingRule); ok {
		return b.Bookkeeping()
	}
	return Bookkeeping{}
}

func (w *keepToGrant) Requests(d *Decision, k int) (int, error) {
	if r, ok := w.inner.(RequestRule); ok {
		return r.Requests(d, k)
	}
	return 0, nil
}

func (w *keepToGrant) CanUse(d *Decision, k int) bool { return w.inner.CanUse(d, k) }

func (w *keepToGrant) Use(d *Decision, k, g int) error {
	handed := max(1, g+w.extra)
	before := d.Grant()
	if err := w.inner.Use(d, k, handed); err != nil {
		return err
	}
	if used := before - d.Grant(); used > min(handed, before) {
		w.t.Fatalf("%T handed %d of a grant of %d started %d", w.inner, handed, before, used)
	}
	return nil
}

// testRulesKeepToGrant: every built-in rule but the budgeted one (whose
// copies run in its pool), called by a caller's rule with more slots than
// the grant or fewer, starts at most what it is handed and what the grant
// allows, and runs without error within the model.
func testRulesKeepToGrant(t *rapid.T) {
	jobs := paretoJobs(t, 5)
	cfg := anyConfig(t)
	cfg.Record = true
	cfg.Policy = SRPT
	cfg.Allocator, _ = NewAllocator(rapid.SampledFrom(AllocatorNames()).Draw(t, "allocator"))
	names := slices.DeleteFunc(RuleNames(), func(s string) bool { return s == "budgeted" })
	inner, _ := NewRule(rapid.SampledFrom(names).Draw(t, "rule"))
	cfg.Rule = &keepToGrant{inner: inner, extra: rapid.IntRange(-3, 3).Draw(t, "extra"), t: t}
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("%T: %v", inner, err)
	}
	checkRun(t, jobs, cfg, r, false)
}

func TestRulesKeepToGrant(t *testing.T) { t.Parallel(); rapid.Check(t, testRulesKeepToGrant) }

// TestBaselinesDirect: the baseline rules called outside a run — a nil or
// zero Decision, a nil receiver — return an InputError naming the field
// and start nothing; CanUse is false and Requests 0.
func TestBaselinesDirect(t *testing.T) {
	t.Parallel()
	nils := map[string]InJobRule{
		"late": (*LATERule)(nil), "grass": (*GRASSRule)(nil), "dolly": (*DollyRule)(nil),
		"spark": (*SparkRule)(nil), "hadoop": (*HadoopRule)(nil),
	}
	for _, name := range baselineRules {
		r, _ := NewRule(name)
		fn := "sim." + partName(r)
		for _, d := range []*Decision{nil, {}} {
			wantInputError(t, r.Use(d, 0, 1), fn+".Use", -1, "d")
			if r.CanUse(d, 0) {
				t.Errorf("%s: CanUse true outside a run", name)
			}
			if q, ok := r.(RequestRule); ok {
				if n, err := q.Requests(d, 0); n != 0 || err != nil {
					t.Errorf("%s: Requests = %d, %v outside a run", name, n, err)
				}
			}
		}
		nr := nils[name]
		wantInputError(t, nr.Use(nil, 0, 1), fn+".Use", -1, "receiver")
		if q, ok := nr.(RequestRule); ok {
			_, err := q.Requests(nil, 0)
			wantInputError(t, err, fn+".Requests", -1, "receiver")
		}
		if b, ok := nr.(BookkeepingRule); ok {
			b.Bookkeeping() // no panic
		}
	}
}

// stageCheck wraps a SparkRule and, at each of its calls, checks its
// cached stage statistics of every phase of the job against a fresh
// computation from Decision.AppendComputed: the count, the median (by
// sorting) and the mean.
type stageCheck struct {
	SparkRule
	t *rapid.T
}

func (w *stageCheck) Use(d *Decision, k, g int) error {
	for p := range d.Phases(k) {
		got := w.stages.of(d, k, p)
		durs := d.AppendComputed(nil, k, p)
		st := d.Phase(k, p)
		if got.Tasks != st.Tasks || got.Finished != st.Computed || got.Finished != len(durs) {
			w.t.Fatalf("phase %d of job %d: stats %+v, %d computed of %d, %d durations", p, d.Job(k), got, st.Computed, st.Tasks, len(durs))
		}
		if len(durs) == 0 {
			continue
		}
		var sum float64
		for _, x := range durs {
			sum += x
		}
		// Exactly, not up to rounding: the median as Spark's rule takes it
		// (halfway from the lower middle to the upper), the mean from the
		// sum in AppendComputed's order.
		sorted := slices.Sorted(slices.Values(durs))
		n := len(sorted)
		m := sorted[n/2]
		if n%2 == 0 {
			m = sorted[n/2-1] + (sorted[n/2]-sorted[n/2-1])/2
		}
		if got.Median != m || got.Mean != sum/float64(n) {
			w.t.Fatalf("phase %d of job %d: median %g mean %g, want %g and %g", p, d.Job(k), got.Median, got.Mean, m, sum/float64(n))
		}
	}
	return w.SparkRule.Use(d, k, g)
}

// testStageStats: the statistics Spark's and Hadoop's rules keep of the
// finished tasks, kept between decisions, are at every call exactly those
// of the tasks computed then (a sort and a sum in index order), in a run
// and in the next run of the same rule.
func testStageStats(t *rapid.T) {
	jobs := explicitJobs(t, 5, false)
	cfg := baselineConfig(t, "spark")
	w := &stageCheck{t: t}
	cfg.Rule = w
	first, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The same rule again: its Bookkeeping forgets the first run, so the
	// second is checked afresh and is the first.
	again, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if first.Stats != again.Stats {
		t.Fatalf("a rerun with the same rule: %+v, first %+v", again.Stats, first.Stats)
	}
}

func TestStageStats(t *testing.T) { t.Parallel(); rapid.Check(t, testStageStats) }

// TestDollyBudgetAtLaunch: two jobs of two tasks arrive together on 40
// slots (Dolly's budget: ⌊5% of 40⌋ = 2 clones). Each is admitted with
// two copies per task — at admission no clone runs, and its two clones fit
// in the budget —, but only the first to launch gets its clones: the
// budget holds at launch too, and the second runs uncloned.
func TestDollyBudgetAtLaunch(t *testing.T) {
	t.Parallel()
	job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 2, Durations: []float64{1, 3}, CopyDurations: []float64{2, 2}}}}
	// The budget is 5% of the slots, and the rule runs at most ⌊5%⌋ clones
	// at once: 2 on 40 slots and on 59 (2.95, not 3). On 30 (1.5) none: a
	// job is cloned all or nothing, one clone per task, and each job's 2
	// clones exceed 1.5.
	for _, c := range []struct{ slots, budget int }{{40, 2}, {59, 2}, {30, 0}} {
		for _, alloc := range []string{"srpt", "fair", "hopper"} {
			cfg := DefaultConfig(SRPT, c.slots)
			cfg.Allocator, _ = NewAllocator(alloc)
			cfg.Rule = &DollyRule{}
			cfg.Record = true
			r, err := Simulate([]Job{job, job}, cfg)
			if err != nil {
				t.Fatalf("%s+dolly: %v", alloc, err)
			}
			if r.Stats.Copies != c.budget || maxExtra(r) != c.budget {
				t.Errorf("%s+dolly on %d slots: %d clones, %d at once; want %d (the budget)", alloc, c.slots, r.Stats.Copies, maxExtra(r), c.budget)
			}
		}
	}
}

// TestDollyDecidesOnce: Dolly decides a job's clones once, at its first
// sight, from the cluster then (stragglers.DollyClones: "Jobs are decided
// in arrival order, each once"). On 40 slots (a budget of 2 clones), job A
// (2 tasks of 10) arrives at 0 and runs with a clone per task; job Z (35
// tasks of 20, too many to clone) takes 35 of the other 36 slots at 0.5;
// job B (a task of 12, then a downstream task) arrives at 1, while A's 2
// clones hold the budget: it is decided uncloned (2 tasks would need 2
// clones) and its first task takes the last slot. Its second task starts
// at 13, after A's end at 10 has freed the budget, uncloned still (a rule
// deciding again then would give it a clone). So 2 clones in all, A's.
func TestDollyDecidesOnce(t *testing.T) {
	t.Parallel()
	a := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 2, Durations: []float64{10, 10}, CopyDurations: []float64{10, 10}}}}
	z := Job{Arrival: 0.5, Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 35, Durations: slices.Repeat([]float64{20}, 35)}}}
	b := Job{Arrival: 1, Beta: 1.5, NewCopy: 1, Phases: []Phase{
		{Tasks: 1, Durations: []float64{12}},
		{Tasks: 1, Durations: []float64{5}, CopyDurations: []float64{1}},
	}}
	for _, alloc := range []string{"srpt", "fair", "hopper"} {
		cfg := DefaultConfig(SRPT, 40)
		cfg.Allocator, _ = NewAllocator(alloc)
		cfg.Rule = &DollyRule{}
		r, err := Simulate([]Job{a, z, b}, cfg)
		if err != nil {
			t.Fatalf("%s+dolly: %v", alloc, err)
		}
		if r.Stats.Copies != 2 {
			t.Errorf("%s+dolly: %d clones, want 2 (job A's; B decided uncloned at its arrival)", alloc, r.Stats.Copies)
		}
	}
}

// TestSparkNoRuntimeFloor: the rule's threshold is 1.5 × the stage's
// median with no floor (SparkRule sets MinRuntime to 0: Spark's 100 ms
// has no meaning in the simulator's time unit). A stage of 4 tasks, three
// of 0.01 and one of 0.05, on 10 slots: at 0.01 three are done (75%), the
// threshold is 0.015, and at 0.03, when a second job arrives, the fourth
// has run 0.03 — it is copied. A floor of 0.1 would copy nothing.
func TestSparkNoRuntimeFloor(t *testing.T) {
	t.Parallel()
	stage := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 4, Durations: []float64{0.01, 0.01, 0.01, 0.05}, CopyDurations: []float64{0.01, 0.01, 0.01, 0.01}}}}
	other := Job{Arrival: 0.03, Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{1}}}}
	cfg := DefaultConfig(SRPT, 10)
	cfg.Rule = &SparkRule{}
	r, err := Simulate([]Job{stage, other}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Copies != 1 {
		t.Errorf("%d copies, want 1 (the task of 0.05, past 1.5 × the median 0.01 at 0.03)", r.Stats.Copies)
	}
}

// sparkLooksAlways is SparkRule with its quiet stages forgotten before every
// call: it looks at every ready stage every time.
type sparkLooksAlways struct{ SparkRule }

func (r *sparkLooksAlways) Requests(d *Decision, k int) (int, error) {
	clear(r.quiet)
	return r.SparkRule.Requests(d, k)
}

func (r *sparkLooksAlways) Use(d *Decision, k, g int) error {
	clear(r.quiet)
	return r.SparkRule.Use(d, k, g)
}

// testSparkQuietIsAShortcut: SparkRule's skipping of the stages where no
// task can have crossed the threshold since its last look (sparkQuiet)
// changes no run.
func testSparkQuietIsAShortcut(t *rapid.T) {
	var jobs []Job
	if rapid.Bool().Draw(t, "known") {
		jobs = explicitJobs(t, 5, false)
	} else {
		jobs = paretoJobs(t, 5)
	}
	cfg := baselineConfig(t, "spark")
	want, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rule = &sparkLooksAlways{}
	got, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Fatalf("the quiet stages changed the run (-shortcut +always):\n%s", diff)
	}
}

func TestSparkQuietIsAShortcut(t *testing.T) { t.Parallel(); rapid.Check(t, testSparkQuietIsAShortcut) }

// TestDollyCountsEveryPhase: Dolly's clone count comes from all the job's
// tasks. A job of 20 + 1 tasks (two phases) on 1000 slots: with p = ε =
// 5%, two copies keep 21 tasks' straggling chance at 1 − (1 − 0.05²)²¹ ≈
// 5.1% > ε, three at 0.26%: three copies per task (two would do for 20
// tasks, none for 1), 42 clones within the budget of 50. Each of the 21
// tasks runs three copies, started with its original.
func TestDollyCountsEveryPhase(t *testing.T) {
	t.Parallel()
	job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{
		{Tasks: 20, Durations: ones(20), CopyDurations: ones(20)},
		{Tasks: 1, Durations: ones(1), CopyDurations: ones(1)},
	}}
	for _, alloc := range []string{"srpt", "fair", "hopper"} {
		cfg := DefaultConfig(SRPT, 1000)
		cfg.Allocator, _ = NewAllocator(alloc)
		cfg.Rule = &DollyRule{}
		cfg.Record = true
		r, err := Simulate([]Job{job}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		rec := record([]Job{job}, r)
		for k, cs := range rec.byTask {
			if len(cs) != 3 {
				t.Errorf("%s+dolly: task %v ran %d copies, want 3", alloc, k, len(cs))
			}
			for _, c := range cs {
				if c.Start != rec.first[k] {
					t.Errorf("%s+dolly: copy %+v started after its original", alloc, c)
				}
			}
		}
	}
}

// TestSparkStages: Spark judges each phase as a stage of its own, whatever
// the order of the running tasks. Job A's map phase (tasks of 1, 1, 1, 20;
// copies of 1, 1, 1, 20) and its reduce phase, started once half the maps
// have run (at 1; tasks of 1, 1, 1, 10), run side by side; a job B
// arriving at 3 is a decision. The map straggler is speculatable at 2 (it
// has run 2 > 1.5 × the maps' median 1): copied then, its copy as slow. At
// 3 the reduce straggler has run 2 > 1.5 × 1 while the map straggler still
// runs ahead of it in the running order: copied at 3.
func TestSparkStages(t *testing.T) {
	t.Parallel()
	a := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{
		{Tasks: 4, Durations: []float64{1, 1, 1, 20}, CopyDurations: []float64{1, 1, 1, 20}},
		{Tasks: 4, Start: 0.5, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1}},
	}}
	b := Job{Arrival: 3, Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{1}, CopyDurations: []float64{1}}}}
	ruleRuns(t, []Job{a, b}, 100, "spark", func(alloc string, r *Result) {
		want := []CopyRecord{{Phase: 0, Task: 3, Copy: 1, Start: 2}, {Phase: 1, Task: 3, Copy: 1, Start: 3}}
		if diff := gocmp.Diff(want, laterCopies(r)); diff != "" {
			t.Errorf("%s+spark: copies (-want +got):\n%s", alloc, diff)
		}
	})
}

// hadoopLooksAlways is HadoopRule with its quiet phases forgotten before
// every call.
type hadoopLooksAlways struct{ HadoopRule }

func (r *hadoopLooksAlways) Requests(d *Decision, k int) (int, error) {
	clear(r.quiet)
	return r.HadoopRule.Requests(d, k)
}

func (r *hadoopLooksAlways) Use(d *Decision, k, g int) error {
	clear(r.quiet)
	return r.HadoopRule.Use(d, k, g)
}

// testHadoopQuietIsAShortcut: HadoopRule's skipping of the phases where no
// estimate can have risen above the mean since its last look (hadoopQuiet)
// changes no run.
func testHadoopQuietIsAShortcut(t *rapid.T) {
	var jobs []Job
	if rapid.Bool().Draw(t, "known") {
		jobs = explicitJobs(t, 5, false)
	} else {
		jobs = paretoJobs(t, 5)
	}
	cfg := baselineConfig(t, "hadoop")
	want, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rule = &hadoopLooksAlways{}
	got, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Fatalf("the quiet phases changed the run (-shortcut +always):\n%s", diff)
	}
}

func TestHadoopQuietIsAShortcut(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testHadoopQuietIsAShortcut)
}

// TestBaselinesIgnoreMantri: Speculation.Mantri selects Hopper's straggler
// test, not the baselines': on Example_baselines's job (four tasks, one of
// 10 against copies of 1; 100 slots, Oracle), each baseline copies the
// straggler as it does with the thesis's rule, with any allocator, and
// the launch-only rule waits for it.
func TestBaselinesIgnoreMantri(t *testing.T) {
	t.Parallel()
	job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{
		Tasks: 4, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1},
	}}}
	for _, rule := range append([]string{"launch"}, baselineRules...) {
		for _, alloc := range []string{"srpt", "fair", "hopper"} {
			var finish [2]float64
			for i, mantri := range []bool{false, true} {
				cfg := DefaultConfig(SRPT, 100)
				cfg.Speculation.Estimator = Oracle
				cfg.Speculation.Mantri = mantri
				cfg.Allocator, _ = NewAllocator(alloc)
				cfg.Rule, _ = NewRule(rule)
				r, err := Simulate([]Job{job}, cfg)
				if err != nil {
					t.Fatal(err)
				}
				finish[i] = r.Jobs[0].Finish
			}
			// Spark's threshold (1.5) is crossed between two decisions
			// (1 and 10): it waits too (see Example_baselines).
			waits := rule == "launch" || rule == "spark"
			if finish[0] != finish[1] || waits != (finish[0] == 10) {
				t.Errorf("%s+%s: job ends at %v with the thesis's rule, %v with Mantri's", alloc, rule, finish[0], finish[1])
			}
		}
	}
}

// TestBaselinesUsePublicDecision: the baseline rules read the run through
// the exported Decision methods only, as a caller's rule would: in their
// files, every selector on the Decision (named d there) is exported.
func TestBaselinesUsePublicDecision(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("baseline*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, name := range files {
		if filepath.Ext(name) != ".go" || len(name) > 8 && name[len(name)-8:] == "_test.go" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "d" {
					seen++
					if !sel.Sel.IsExported() {
						t.Errorf("%s: d.%s is not exported", name, sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
	if seen < 50 {
		t.Fatalf("only %d uses of the Decision found in %v", seen, files)
	}
}

// TestLATECapIsClusterWide: LATE's SpeculativeCap is the cluster's (OSDI
// 2008 §4: "a cap on the number of speculative tasks that can be running
// at once", 10% of the slots), not a tenth of one job's slots: a job
// alone on 40 slots, whose slowest quarter is 6 tasks, runs the cluster's
// 4 copies at once, where a per-job cap of 10% of its 28 slots would
// allow 3.
func TestLATECapIsClusterWide(t *testing.T) {
	t.Parallel()
	d := []float64{1}
	for i := range 24 {
		d = append(d, float64(20+i))
	}
	jobs := []Job{{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: len(d), Durations: d, CopyDurations: ones(len(d))}}}}
	for _, est := range []Estimator{Oracle, Progress} {
		cfg := DefaultConfig(SRPT, 40)
		cfg.Speculation.Estimator = est
		cfg.Rule = &LATERule{}
		cfg.Record = true
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if most := maxExtra(r); most != 4 {
			t.Errorf("%v, srpt+late, one job: at most %d speculative copies at once, want the cluster's cap, 4", est, most)
		}
	}
}
