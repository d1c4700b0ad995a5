package competitive

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// planInput draws a snapshot, a cluster that fits its running copies, and
// allotments summing to at most the cluster (from Machines, or arbitrary).
func planInput(t *rapid.T) (jobs []Job, allot []int, cluster int, lambda float64) {
	jobs = someJobs(t, 0, 12)
	if rapid.Bool().Draw(t, "busy") {
		jobs = genJobs(t, 0, 12, 8, 4)
	}
	used := 0
	for j := range jobs {
		used += jobs[j].copies()
	}
	cluster = used + rapid.IntRange(0, 40).Draw(t, "spare")
	lambda = rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
	if rapid.Bool().Draw(t, "fromMachines") {
		var err error
		allot, err = Machines(nil, jobs, cluster, drawBeta(t), lambda, nil)
		if err != nil {
			t.Fatalf("Machines: %v", err)
		}
		return jobs, allot, cluster, lambda
	}
	allot = make([]int, len(jobs))
	left := cluster
	for j := range allot {
		allot[j] = rapid.IntRange(0, min(left, 12)).Draw(t, "allot")
		left -= allot[j]
	}
	return jobs, allot, cluster, lambda
}

// perJob gathers a plan's actions by job: copies per target task for
// Launch/Clone, and per running task for Preempt.
type perJob struct {
	launch, clone, preempt map[int]int
	stages                 map[Stage]bool
}

func gather(t *rapid.T, jobs []Job, actions []Action) []perJob {
	out := make([]perJob, len(jobs))
	for j := range out {
		out[j] = perJob{map[int]int{}, map[int]int{}, map[int]int{}, map[Stage]bool{}}
	}
	for _, a := range actions {
		if a.Job < 0 || a.Job >= len(jobs) || a.Copies < 1 {
			t.Fatalf("malformed action %+v", a)
		}
		p := out[a.Job]
		p.stages[a.Stage] = true
		m := map[ActionKind]map[int]int{Launch: p.launch, Clone: p.clone, Preempt: p.preempt}[a.Kind]
		if _, dup := m[a.Task]; dup {
			t.Fatalf("two %v actions for task %d of job %d", a.Kind, a.Task, a.Job)
		}
		m[a.Task] = a.Copies
	}
	return out
}

func sumCopies(m map[int]int) int {
	s := 0
	for _, c := range m {
		s += c
	}
	return s
}

// checkSpread checks that k copies went over targets tasks as ⌊k/targets⌋
// or ⌈k/targets⌉ each (tasks absent from m got 0).
func checkSpread(t *rapid.T, j int, m map[int]int, targets, k int) {
	if got := sumCopies(m); got != k {
		t.Fatalf("job %d: %d copies launched, want %d", j, got, k)
	}
	if k == 0 {
		return
	}
	lo, hi := math.MaxInt, 0
	for task := 0; task < targets; task++ {
		lo, hi = min(lo, m[task]), max(hi, m[task])
	}
	for task := range m {
		if task < 0 || task >= targets {
			t.Fatalf("job %d: task %d out of [0, %d)", j, task, targets)
		}
	}
	if hi-lo > 1 || lo != k/targets {
		t.Fatalf("job %d: per-task copies range [%d, %d] for %d copies over %d tasks, want ⌊%d/%d⌋ or ⌈⌉", j, lo, hi, k, targets, k, targets)
	}
}

func testPlan(t *rapid.T) {
	jobs, allot, cluster, lambda := planInput(t)
	mode := rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode")
	seed := rapid.Uint64().Draw(t, "seed")
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(seed, 7))
	}
	before, allotBefore := cloneJobs(jobs), slices.Clone(allot)
	actions, err := Plan(nil, jobs, allot, cluster, lambda, mode, rng, nil)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	mustNotChange(t, before, jobs)
	if !slices.Equal(allot, allotBefore) {
		t.Fatalf("allotments modified")
	}
	got := gather(t, jobs, actions)

	// NonPreemptive reference: jobs below their share in (Υ(t), index)
	// order take what the idle machines allow.
	grant := make([]int, len(jobs))
	idle := cluster
	for j := range jobs {
		idle -= jobs[j].copies()
		if jobs[j].active() && allot[j] > jobs[j].copies() {
			grant[j] = allot[j] - jobs[j].copies()
		}
	}
	if mode == NonPreemptive {
		order := make([]int, 0, len(jobs))
		for j := range jobs {
			if grant[j] > 0 {
				order = append(order, j)
			}
		}
		sort.SliceStable(order, func(a, b int) bool {
			return taskByTaskRemaining(jobs[order[a]], lambda) < taskByTaskRemaining(jobs[order[b]], lambda)
		})
		for _, j := range order {
			grant[j] = min(grant[j], idle)
			idle -= grant[j]
		}
	}

	for j := range jobs {
		job := &jobs[j]
		a := got[j]
		if !job.active() {
			if len(a.stages) > 0 {
				t.Fatalf("inactive job %d got actions", j)
			}
			continue
		}
		z := MapStage
		if job.Map.unfinished() == 0 {
			z = ReduceStage
		}
		if len(a.stages) > 1 || (len(a.stages) == 1 && !a.stages[z]) {
			t.Fatalf("job %d in phase %v got actions on %v (reduce before maps done?)", j, z, a.stages)
		}
		p := job.phase(z)
		o := job.copies()
		if mode == NonPreemptive && len(a.preempt) > 0 {
			t.Fatalf("job %d: preemption in NonPreemptive mode", j)
		}
		if o > allot[j] && mode == Preemptive {
			if len(a.launch)+len(a.clone) > 0 {
				t.Fatalf("job %d over its share launched copies", j)
			}
			if got := sumCopies(a.preempt); got != o-allot[j] {
				t.Fatalf("job %d: preempted %d copies, want o−g = %d−%d", j, got, o, allot[j])
			}
			for task, c := range a.preempt {
				if task < 0 || task >= len(p.Running) || c > p.Running[task] {
					t.Fatalf("job %d: preempt %d copies of task %d (running %v)", j, c, task, p.Running)
				}
			}
			continue
		}
		if len(a.preempt) > 0 {
			t.Fatalf("job %d at or below its share preempted", j)
		}
		if p.Unscheduled > 0 {
			if len(a.clone) > 0 {
				t.Fatalf("job %d cloned with unscheduled tasks left", j)
			}
			checkSpread(t, j, a.launch, p.Unscheduled, grant[j])
		} else {
			if len(a.launch) > 0 {
				t.Fatalf("job %d launched with no unscheduled task", j)
			}
			checkSpread(t, j, a.clone, len(p.Running), grant[j])
		}
		if mode == Preemptive && o+grant[j] != allot[j] {
			t.Fatalf("job %d holds %d+%d machines after the plan, want g = %d", j, o, grant[j], allot[j])
		}
	}
	// The plan is a function of its inputs and the seed.
	if rng != nil {
		again, _ := Plan(make([]Action, 0, 3), jobs, allot, cluster, lambda, mode, rand.New(rand.NewPCG(seed, 7)), new(Workspace))
		if diff := cmp.Diff(actions, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("same seed, different plan:\n%s", diff)
		}
	}
}

func TestPlan(t *testing.T) { t.Parallel(); rapid.Check(t, testPlan) }

// testSREWC: one slot of SREW+C is Machines then Plan.
func testSREWC(t *rapid.T) {
	jobs, _, cluster, lambda := planInput(t)
	beta := drawBeta(t)
	mode := rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode")
	seed := rapid.Uint64().Draw(t, "seed")
	before := cloneJobs(jobs)
	got, err := SREWC(nil, jobs, cluster, beta, lambda, mode, rand.New(rand.NewPCG(seed, 1)), nil)
	if err != nil {
		t.Fatalf("SREWC: %v", err)
	}
	mustNotChange(t, before, jobs)
	allot, err := Machines(nil, jobs, cluster, beta, lambda, nil)
	if err != nil {
		t.Fatalf("Machines: %v", err)
	}
	want, err := Plan(nil, jobs, allot, cluster, lambda, mode, rand.New(rand.NewPCG(seed, 1)), nil)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("SREWC ≠ Plan(Machines):\n%s", diff)
	}
}

func TestSREWC(t *testing.T) { t.Parallel(); rapid.Check(t, testSREWC) }

func TestPlanWorked(t *testing.T) {
	t.Parallel()
	// Job 0 maps 3 unscheduled tasks and runs 2 (1 and 3 copies: o = 4);
	// job 1 reduces with no unscheduled task, 2 running tasks of 1 copy;
	// job 2 holds 5 copies of one map task; job 3 is finished.
	jobs := []Job{
		{Map: Phase{Tasks: 6, Mean: 1, Unscheduled: 3, Running: []int{1, 3}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
		{Map: Phase{Tasks: 2, Mean: 1}, Reduce: Phase{Tasks: 3, Mean: 1, Running: []int{1, 1}}},
		{Map: Phase{Tasks: 1, Mean: 1, Running: []int{5}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
		{Map: Phase{Tasks: 1, Mean: 1}},
	}
	// g = (11, 5, 2, 0) on 18 machines: job 0 launches 7 over 3 tasks
	// (3, 2, 2: the lowest ordinal gets the extra without an rng), job 1
	// clones 3 over 2 running tasks (2, 1), job 2 loses 3 of its 5 copies.
	got, err := Plan(nil, jobs, []int{11, 5, 2, 0}, 18, 0, Preemptive, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Action{
		{0, MapStage, Launch, 0, 3}, {0, MapStage, Launch, 1, 2}, {0, MapStage, Launch, 2, 2},
		{1, ReduceStage, Clone, 0, 2}, {1, ReduceStage, Clone, 1, 1},
		{2, MapStage, Preempt, 0, 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Plan (-want +got):\n%s", diff)
	}
	// NonPreemptive: job 2 keeps its 5 copies, so only 18 − 11 = 7 machines
	// are idle. Υ(t): job 0 has 4 unfinished maps and a reduce (Υ = 6),
	// job 1 two reduces (Υ = 2): job 1 takes its 3 first, job 0 the other 4.
	got, err = Plan(nil, jobs, []int{11, 5, 2, 0}, 18, 0, NonPreemptive, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = []Action{
		{0, MapStage, Launch, 0, 2}, {0, MapStage, Launch, 1, 1}, {0, MapStage, Launch, 2, 1},
		{1, ReduceStage, Clone, 0, 2}, {1, ReduceStage, Clone, 1, 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("NonPreemptive Plan (-want +got):\n%s", diff)
	}
}

// TestPlanDeterministicPreemptStops: without an rng, preemption takes
// copies from the first running tasks and stops when it has taken k —
// the tasks after that get no action at all (not one of 0 copies). Worked
// by hand: running copies (2, 1, 3), o = 6, g = 3, so k = 3 copies go: 2 of
// task 0 and 1 of task 1; task 2 keeps its 3.
func TestPlanDeterministicPreemptStops(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Map: Phase{Tasks: 4, Mean: 1, Running: []int{2, 1, 3}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}}
	got, err := Plan(nil, jobs, []int{3}, 6, 0, Preemptive, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Action{{0, MapStage, Preempt, 0, 2}, {0, MapStage, Preempt, 1, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Plan (-want +got):\n%s", diff)
	}
}

// TestPlanUniform checks the randomised choices against their laws with a
// fixed seed: which copies are preempted (k of o uniformly: task i loses
// k·c_i/o on average) and which tasks get the extra copy (r of u: each
// with probability r/u).
func TestPlanUniform(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	const trials = 4000
	running := []int{1, 2, 3, 4} // o = 10
	jobs := []Job{{Map: Phase{Tasks: 9, Mean: 1, Unscheduled: 5, Running: running}}}
	lost := make([]float64, len(running))
	for i := 0; i < trials; i++ {
		plan, err := Plan(nil, jobs, []int{4}, 10, 0, Preemptive, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range plan {
			lost[a.Task] += float64(a.Copies)
		}
	}
	for i, c := range running {
		mean := 6 * float64(c) / 10
		// Hypergeometric variance k·(c/o)·(1−c/o)·(o−k)/(o−1).
		sd := math.Sqrt(6*float64(c)/10*(1-float64(c)/10)*4/9) / math.Sqrt(trials)
		if got := lost[i] / trials; math.Abs(got-mean) > 5*sd {
			t.Errorf("task %d (%d copies): %v copies preempted on average, want %v ± %v", i, c, got, mean, 5*sd)
		}
	}
	// g − o = 17 − 10 = 7 copies over u = 5 tasks: q = 1, r = 2.
	jobs[0].Map.Running = nil
	jobs[0].Map.Unscheduled = 9
	extra := make([]float64, 9)
	for i := 0; i < trials; i++ {
		plan, err := Plan(nil, jobs, []int{13}, 13, 0, Preemptive, rng, nil) // 13 over 9: q = 1, r = 4
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range plan {
			extra[a.Task] += float64(a.Copies - 1)
		}
	}
	p := 4.0 / 9
	for i := range extra {
		sd := math.Sqrt(p*(1-p)) / math.Sqrt(trials)
		if got := extra[i] / trials; math.Abs(got-p) > 5*sd {
			t.Errorf("task %d got the extra copy with frequency %v, want %v ± %v", i, got, p, 5*sd)
		}
	}
}

// testSubset checks the sampler behind every random choice: k distinct
// values of [0, n), sorted, both membership structures.
func testSubset(t *rapid.T) {
	// Small n (bit set), n just above the hash set's threshold 64·(k+16),
	// where Floyd's collisions are frequent, and huge n.
	k := rapid.IntRange(0, 1000).Draw(t, "k")
	n := rapid.OneOf(rapid.IntRange(k, k+300), rapid.IntRange(64*(k+16)+1, 64*(k+16)+2000), rapid.IntRange(1<<20, 1<<50)).Draw(t, "n")
	var ws Workspace
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
	}
	got := ws.subset(n, k, rng)
	if len(got) != k {
		t.Fatalf("subset(%d, %d) has %d values", n, k, len(got))
	}
	for i, v := range got {
		if v < 0 || v >= n || (i > 0 && v <= got[i-1]) {
			t.Fatalf("subset(%d, %d) = %v: not distinct, sorted and in range", n, k, got)
		}
	}
	if rng == nil && k > 0 && got[k-1] != k-1 {
		t.Fatalf("nil rng: subset(%d, %d) = %v, want the first k", n, k, got)
	}
}

func TestSubset(t *testing.T) { t.Parallel(); rapid.Check(t, testSubset) }

func TestSubsetUniform(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 2))
	var ws Workspace
	for _, c := range []struct{ n, k, trials int }{
		{20, 7, 20000},                 // bit set
		{100000, 3, 20000},             // hash set, rare collisions
		{64*(1000+16) + 1, 1000, 2000}, // hash set, frequent collisions
	} {
		const buckets = 10
		counts := make([]float64, buckets)
		top := 0.0 // how often n−1, the value Floyd's collision rule adds, is in
		for i := 0; i < c.trials; i++ {
			sub := ws.subset(c.n, c.k, rng)
			for _, v := range sub {
				counts[v*buckets/c.n]++
			}
			if sub[len(sub)-1] == c.n-1 {
				top++
			}
		}
		// Each bucket holds a tenth of [0, n): its count has mean
		// trials·k/10; chi-square with 9 degrees of freedom stays below
		// 27.9 with probability 0.999.
		want := float64(c.trials*c.k) / buckets
		chi := 0.0
		for _, got := range counts {
			chi += (got - want) * (got - want) / want
		}
		if chi > 27.9 {
			t.Errorf("subset(%d, %d): chi-square %v over buckets %v", c.n, c.k, chi, counts)
		}
		p := float64(c.k) / float64(c.n)
		if sd := math.Sqrt(p * (1 - p) / float64(c.trials)); math.Abs(top/float64(c.trials)-p) > 5*sd {
			t.Errorf("subset(%d, %d): the largest value drawn with frequency %v, want %v ± %v", c.n, c.k, top/float64(c.trials), p, 5*sd)
		}
	}
}

// testPlanNoPanic: anything goes in; an InputError with dst untouched, or
// a plan whose actions are in range, comes out.
func testPlanNoPanic(t *rapid.T) {
	jobs := genJobs(t, 0, 6, 5, 3)
	corrupt(t, jobs)
	allot := make([]int, rapid.IntRange(0, 7).Draw(t, "len"))
	for j := range allot {
		allot[j] = anyInt(t, "allot", 0, 1, 3, 40)
	}
	cluster := anyInt(t, "cluster", 0, 5, 60, 1<<20)
	lambda := anyFloat(t, "lambda", 0, 1)
	beta := anyFloat(t, "beta", 0.5, 1)
	mode := Mode(rapid.IntRange(0, 3).Draw(t, "mode"))
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	for _, name := range []string{"competitive.Plan", "competitive.SREWC"} {
		sentinel := []Action{{Job: -9}}
		dst := slices.Clone(sentinel)
		var got []Action
		var err error
		if name == "competitive.Plan" {
			got, err = Plan(dst, jobs, allot, cluster, lambda, mode, rng, nil)
		} else {
			got, err = SREWC(dst, jobs, cluster, beta, lambda, mode, rng, nil)
		}
		if err != nil {
			if !isInputError(err, name) || got != nil || !slices.Equal(dst, sentinel) {
				t.Fatalf("%s: err %v, result %v, dst %v", name, err, got, dst)
			}
			continue
		}
		for _, a := range got {
			if a.Job < 0 || a.Job >= len(jobs) || a.Copies < 1 || a.Task < 0 || a.Kind > Preempt || a.Stage > ReduceStage {
				t.Fatalf("%s: action %+v out of range", name, a)
			}
		}
	}
}

func TestPlanNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testPlanNoPanic) }

func FuzzPlan(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testPlanNoPanic)) }

func FuzzSREWC(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testPlanNoPanic)) }

func TestSREWCAllocationFree(t *testing.T) {
	jobs := benchSnapshot(2000)
	dst := make([]Action, 0, benchMachines)
	var ws Workspace
	rng := rand.New(rand.NewPCG(1, 1))
	for _, mode := range []Mode{Preemptive, NonPreemptive} {
		var err error
		if dst, err = SREWC(dst, jobs, benchMachines, 0.7, 1, mode, rng, &ws); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(20, func() { dst, _ = SREWC(dst, jobs, benchMachines, 0.7, 1, mode, rng, &ws) }); a != 0 {
			t.Fatalf("SREWC (%v): %v allocs/op with a reused dst and workspace", mode, a)
		}
	}
}

func TestAllocationFree(t *testing.T) {
	jobs := benchSnapshot(2000)
	var ws Workspace
	rng := rand.New(rand.NewPCG(1, 1))
	actions := make([]Action, 0, benchMachines)
	bounds := make([]float64, len(jobs))
	// SEW needs the running copies to fit its groups: 11 000 machines hold
	// the snapshot's few running copies.
	calls := map[string]func() error{
		"SEW": func() (err error) { actions, err = SEW(actions, jobs, benchMachines, 1, rng, &ws); return },
		"Plan": func() (err error) {
			allot, err := Machines(ws.allot, jobs, benchMachines, 0.5, 1, &ws)
			if err != nil {
				return err
			}
			ws.allot = allot
			actions, err = Plan(actions, jobs, ws.allot, benchMachines, 1, NonPreemptive, rng, &ws)
			return
		},
		"LowerBound": func() (err error) { _, err = LowerBound(jobs, benchMachines, 1, &ws); return },
		"SEWBound":   func() (err error) { bounds, err = SEWBound(bounds, jobs, benchMachines, 1, &ws); return },
	}
	for name, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a := testing.AllocsPerRun(10, func() { _ = call() }); a != 0 {
			t.Errorf("%s: %v allocs/op with a reused dst and workspace", name, a)
		}
	}
}

// TestDeepCheckErrors: Plan and SEW read the copies of each running task,
// so they reject an entry outside [1, 2^53] — 0 included — or copies
// summing past 2^53, naming the phase's running field.
func TestDeepCheckErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		running []int
	}{
		{"no copy", []int{1, 0}},
		{"negative", []int{-1}},
		{"too many", []int{maxCount, 1}},
	} {
		jobs := []Job{{Map: Phase{Tasks: 4, Mean: 1, Running: tc.running}}}
		if _, err := Plan(nil, jobs, []int{4}, 4, 1, Preemptive, nil, nil); !isInputError(err, "competitive.Plan") || !strings.Contains(err.Error(), "Map.Running") {
			t.Errorf("Plan, %s: err = %v, want an InputError naming map.running", tc.name, err)
		}
		if _, err := SEW(nil, jobs, 4, 1, nil, nil); !isInputError(err, "competitive.SEW") || !strings.Contains(err.Error(), "Map.Running") {
			t.Errorf("SEW, %s: err = %v, want an InputError naming map.running", tc.name, err)
		}
	}
}

// TestBenchSnapshotFits: the benchmarks' snapshots are states of the
// model — at most one copy per machine, Σ_j o_j(t) ≤ M (Xu et al. §4.1),
// counted here from the Running entries — so SREWC (Machines, then Plan)
// accepts them at every benchmarked size in both modes. Before
// benchSnapshot capped its copies, n = 11 123 and above ran more copies
// than the 11 000 machines (an input SREWC rightly rejects), and
// BenchmarkSREWC/n=100000 failed with "running copies must not exceed the
// cluster's machines". At n = 10 000 the copies stay at least 2 below M, so
// the cap (a job draws at most 2) never bit and that snapshot is the
// uncapped one the earlier benchmark figures used.
func TestBenchSnapshotFits(t *testing.T) {
	t.Parallel()
	for _, n := range append(slices.Clone(benchSizes), 11123) {
		jobs := benchSnapshot(n)
		copies := 0
		for j := range jobs {
			for _, c := range jobs[j].Map.Running {
				copies += c
			}
			for _, c := range jobs[j].Reduce.Running {
				copies += c
			}
		}
		if copies > benchMachines {
			t.Errorf("n = %d: %d running copies on %d machines", n, copies, benchMachines)
		}
		if n == 10000 && copies > benchMachines-2 {
			t.Errorf("n = 10000: %d running copies: the cap may have changed the snapshot", copies)
		}
		for _, mode := range []Mode{Preemptive, NonPreemptive} {
			if _, err := SREWC(nil, jobs, benchMachines, 0.7, 1, mode, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
				t.Errorf("n = %d, %v: SREWC: %v", n, mode, err)
			}
		}
	}
}

// BenchmarkSREWC times one slot of SREW+C(β) — Machines and the Plan —
// with a reused dst and workspace (0 allocs/op, TestSREWCAllocationFree).
func BenchmarkSREWC(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("n="+itoa(n), func(b *testing.B) {
			jobs := benchSnapshot(n)
			dst := make([]Action, 0, benchMachines)
			var ws Workspace
			rng := rand.New(rand.NewPCG(1, 1))
			var err error
			if dst, err = SREWC(dst, jobs, benchMachines, 0.7, 1, Preemptive, rng, &ws); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				dst, _ = SREWC(dst, jobs, benchMachines, 0.7, 1, Preemptive, rng, &ws)
			}
			b.StopTimer()
			if len(dst) == 0 {
				b.Fatal("no actions")
			}
		})
	}
}

// BenchmarkSubset draws k-subsets of [0, n) with a reused workspace, in
// the bit-set regime (n ≤ 64·(k+16)) and in the hash-set one.
func BenchmarkSubset(b *testing.B) {
	for _, c := range []struct{ n, k int }{{1000, 10}, {100000, 2000}, {1 << 20, 10}, {1 << 40, 2000}} {
		b.Run(fmt.Sprintf("n=%d/k=%d", c.n, c.k), func(b *testing.B) {
			var ws Workspace
			rng := rand.New(rand.NewPCG(1, 1))
			ws.subset(c.n, c.k, rng)
			b.ReportAllocs()
			b.ResetTimer()
			sum := 0
			for range b.N {
				sum += len(ws.subset(c.n, c.k, rng))
			}
			if sum != b.N*c.k {
				b.Fatal("wrong subset sizes")
			}
		})
	}
}

// TestPlanPreemptFirstCopies: with a nil rng, Preemptive mode stops the
// first copies task by task and nothing after them: a job running one
// copy on each of three tasks, allotted 1 machine, loses the copies of
// tasks 0 and 1 and keeps task 2's (no action for it).
func TestPlanPreemptFirstCopies(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Map: Phase{Tasks: 3, Mean: 1, Running: []int{1, 1, 1}}}}
	got, err := Plan(nil, jobs, []int{1}, 3, 0, Preemptive, nil, nil)
	want := []Action{{Job: 0, Stage: MapStage, Kind: Preempt, Task: 0, Copies: 1}, {Job: 0, Stage: MapStage, Kind: Preempt, Task: 1, Copies: 1}}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Plan = %v, %v; want %v", got, err, want)
	}
}
