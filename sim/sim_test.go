package sim

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// testConservationKnown runs any policy on jobs whose copy durations are
// known and checks the run against the model (checkRun): each task completes
// exactly once, with the copy whose run ended first, its other copies killed
// at that instant; never more copies than slots; downstream phases start
// after their upstream quota and complete after their upstream phase; job
// completions and counters agree with the copies; no slot idles while a task
// could start. Same input, same result.
func testConservationKnown(t *rapid.T) {
	jobs := explicitJobs(t, 5, rapid.IntRange(0, 3).Draw(t, "constantKind") == 0)
	cfg := anyConfig(t)
	cfg.Service = CopyService // durations must be the ones given
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	checkRun(t, jobs, cfg, r, true)
	again, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("Simulate again: %v", err)
	}
	if diff := cmp.Diff(r, again); diff != "" {
		t.Fatalf("same input, different result (-first +second):\n%s", diff)
	}
}

func TestConservationKnown(t *testing.T) { t.Parallel(); rapid.Check(t, testConservationKnown) }

// testConservationPareto does the same on Pareto durations drawn per copy,
// under both service models and both estimators; the checks that need a
// copy's duration are left out.
func testConservationPareto(t *rapid.T) {
	jobs := paretoJobs(t, 5)
	cfg := anyConfig(t)
	if rapid.Bool().Draw(t, "machine") {
		cfg.Service = MachineService
		cfg.ServiceCV = rapid.Float64Range(0.1, 2).Draw(t, "cv")
	}
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	checkRun(t, jobs, cfg, r, false)
	again, _ := Simulate(jobs, cfg)
	if diff := cmp.Diff(r, again); diff != "" {
		t.Fatalf("same input, different result (-first +second):\n%s", diff)
	}
}

func TestConservationPareto(t *testing.T) { t.Parallel(); rapid.Check(t, testConservationPareto) }

// testShortcutsChangeNothing: the engine's three shortcuts — serving a job
// without asking stragglers.Speculate when none of its tasks can be judged a
// straggler, showing Speculate and Plan only as many unscheduled tasks as
// the job can start, and taking no decision at the would-be end of a killed
// copy (but under best-effort and budgeted speculation) — give the same run
// as asking every time with every task at every instant.
func testShortcutsChangeNothing(t *rapid.T) {
	var jobs []Job
	if rapid.Bool().Draw(t, "pareto") {
		jobs = paretoJobs(t, 6)
	} else {
		jobs = explicitJobs(t, 6, false)
	}
	cfg := anyConfig(t)
	cfg.Speculation.Off = false
	cfg.Record = true
	fast, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	slow := cfg
	slow.debug = debugFlags{noFilter: true, everyInstant: true}
	slow.Rule = cfg.Policy.Rule()
	switch r := slow.Rule.(type) { // hand Speculate and Plan every unscheduled task
	case *SpeculateRule:
		r.fullView = true
	case *BestEffortRule:
		r.fullView = true
	case *BudgetedRule:
		r.fullView = true
	case *PlanRule:
		r.fullView = true
	}
	want, err := Simulate(jobs, slow)
	if err != nil {
		t.Fatalf("Simulate without shortcuts: %v", err)
	}
	if diff := cmp.Diff(want, fast); diff != "" {
		t.Fatalf("%v: shortcuts changed the run (-without +with):\n%s", cfg.Policy, diff)
	}
}

func TestShortcutsChangeNothing(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testShortcutsChangeNothing)
}

// sameCompletions compares the job results of two runs.
func sameCompletions(t *rapid.T, what string, want, got *Result) {
	if diff := cmp.Diff(want.Jobs, got.Jobs); diff != "" {
		t.Fatalf("%s (-want +got):\n%s", what, diff)
	}
}

// testNoStragglersNoSpeculation: with constant durations (every copy of a
// task takes as long as the first) no task ever has t_rem > t_new... under
// exact estimates, so every speculation-aware policy runs exactly as with
// speculation off and starts no copy. With the policy told β ≥ 2 (no
// speculation in the model) the policies reduce further to their bases:
// Hopper, HopperHetero (every job β ≥ 2) and, for single-phase jobs,
// HopperDAG to SRPT; the best-effort strawmen to SRPT and Fair; budgeted
// speculation with b reserved slots to SRPT or Fair on S − b slots; ε-fair
// Hopper with ε = 1 to Hopper.
func testNoStragglersNoSpeculation(t *rapid.T) {
	jobs := explicitJobs(t, 5, true)
	cfg := anyConfig(t)
	if cfg.Policy == SREWC {
		cfg.Policy = Hopper // SREW+C clones whatever the durations: not speculation-aware
	}
	cfg.Speculation.Off = false
	cfg.Speculation.Mantri = false
	cfg.Speculation.Estimator = Oracle
	run := func(c Config) *Result {
		r, err := Simulate(jobs, c)
		if err != nil {
			t.Fatalf("Simulate(%v): %v", c.Policy, err)
		}
		return r
	}
	on := run(cfg)
	if on.Stats.Copies != 0 {
		t.Fatalf("%v started %d copies without stragglers", cfg.Policy, on.Stats.Copies)
	}
	off := cfg
	off.Speculation.Off = true
	sameCompletions(t, cfg.Policy.String()+" with and without speculation", run(off), on)

	// The policies' bases, with β ≥ 2 for every job and the cluster.
	light := make([]Job, len(jobs))
	single := true
	for j := range jobs {
		light[j] = jobs[j]
		light[j].Beta = rapid.SampledFrom([]float64{2, 3}).Draw(t, "lightBeta")
		single = single && len(jobs[j].Phases) == 1
	}
	jobs = light
	base := cfg
	base.Beta = 2
	base.Speculation.Off = true
	base.Budget = 0
	var want, got Config
	switch cfg.Policy {
	case Hopper, HopperHetero, SRPTBestEffort:
		want, got = base, base
		want.Policy, got.Policy = SRPT, cfg.Policy
		got.Speculation.Off = false
	case HopperDAG:
		if !single {
			return
		}
		want, got = base, base
		want.Policy, got.Policy = SRPT, HopperDAG
		got.Speculation.Off = false
	case FairBestEffort:
		want, got = base, base
		want.Policy, got.Policy = Fair, FairBestEffort
		got.Speculation.Off = false
	case SRPTBudgeted, FairBudgeted:
		want, got = base, cfg
		want.Policy = SRPT
		if cfg.Policy == FairBudgeted {
			want.Policy = Fair
		}
		want.Slots = cfg.Slots - cfg.Budget
	case HopperEps:
		want, got = base, base
		want.Policy, got.Policy = Hopper, HopperEps
		got.Eps = 1
		got.Speculation.Off = false
	default:
		return
	}
	sameCompletions(t, cfg.Policy.String()+" against its base", run(want), run(got))
}

func TestNoStragglersNoSpeculation(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testNoStragglersNoSpeculation)
}

// referenceSRPT is an independent list scheduler: single-phase jobs, copies
// never made, at every event time the free slots go one by one to the
// arrived job with the fewest unfinished tasks (ties: earlier arrival, then
// index) that has an unstarted task. It returns each job's completion time.
func referenceSRPT(jobs []Job, slots int) []float64 {
	n := len(jobs)
	next := make([]int, n)       // next unstarted task
	unfinished := make([]int, n) // tasks not finished
	finish := make([]float64, n)
	var running []struct {
		job int
		end float64
	}
	for j := range jobs {
		unfinished[j] = jobs[j].Phases[0].Tasks
	}
	now := 0.0
	left := n
	for left > 0 {
		// Next event: the earliest arrival after now or task end.
		// Finish tasks ending now.
		kept := running[:0]
		for _, r := range running {
			if r.end == now {
				unfinished[r.job]--
				if unfinished[r.job] == 0 {
					finish[r.job] = now
					left--
				}
			} else {
				kept = append(kept, r)
			}
		}
		running = kept
		for len(running) < slots {
			best := -1
			for j := range jobs {
				if jobs[j].Arrival > now || next[j] == jobs[j].Phases[0].Tasks {
					continue
				}
				if best < 0 || unfinished[j] < unfinished[best] ||
					unfinished[j] == unfinished[best] && jobs[j].Arrival < jobs[best].Arrival {
					best = j
				}
			}
			if best < 0 {
				break
			}
			running = append(running, struct {
				job int
				end float64
			}{best, now + jobs[best].Phases[0].Durations[next[best]]})
			next[best]++
		}
		t := math.Inf(1)
		for _, r := range running {
			t = math.Min(t, r.end)
		}
		for j := range jobs {
			if jobs[j].Arrival > now {
				t = math.Min(t, jobs[j].Arrival)
			}
		}
		if math.IsInf(t, 1) {
			break
		}
		now = t
	}
	return finish
}

// testSRPTMatchesReference compares SRPT without speculation with
// referenceSRPT on single-phase jobs.
func testSRPTMatchesReference(t *rapid.T) {
	jobs := explicitJobs(t, 6, false)
	for j := range jobs {
		jobs[j].Phases = jobs[j].Phases[:1]
	}
	slots := rapid.IntRange(1, 6).Draw(t, "slots")
	cfg := DefaultConfig(SRPT, slots)
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	want := referenceSRPT(jobs, slots)
	for j := range jobs {
		if r.Jobs[j].Finish != want[j] {
			t.Fatalf("job %d finishes at %g, reference %g", j, r.Jobs[j].Finish, want[j])
		}
	}
}

func TestSRPTMatchesReference(t *testing.T) { t.Parallel(); rapid.Check(t, testSRPTMatchesReference) }

// TestOneJobWaves: one job of T tasks of duration d on S slots, with no
// stragglers, finishes in ⌈T/S⌉ waves under every policy but SREW+C (which
// clones instead of idling).
func TestOneJobWaves(t *testing.T) {
	t.Parallel()
	for _, p := range Policies() {
		if p == SREWC {
			continue
		}
		for _, tc := range []struct{ tasks, slots int }{{1, 1}, {5, 2}, {6, 3}, {7, 8}, {20, 6}} {
			d := 1.5
			dur := make([]float64, tc.tasks)
			for i := range dur {
				dur[i] = d
			}
			jobs := []Job{{Arrival: 2, Beta: 1.5, Phases: []Phase{{Tasks: tc.tasks, Durations: dur, CopyDurations: dur}}}}
			cfg := DefaultConfig(p, tc.slots)
			cfg.Speculation.Estimator = Oracle
			slots := tc.slots
			if p.budgeted() {
				if tc.slots < 2 {
					continue
				}
				cfg.Budget = 1
				slots--
			}
			r, err := Simulate(jobs, cfg)
			if err != nil {
				t.Fatalf("%v: %v", p, err)
			}
			want := math.Ceil(float64(tc.tasks)/float64(slots)) * d
			if got := r.Jobs[0].Completion; got != want {
				t.Errorf("%v, %d tasks on %d slots: completion %g, want %g", p, tc.tasks, tc.slots, got, want)
			}
		}
	}
}

// TestSlowStart: a downstream phase starts once ⌈f·n⌉ upstream tasks have
// finished and completes no earlier than its upstream phase, its early
// copies holding their slots while they wait. Upstream tasks of 1, 2, 3 and
// 4 time units on 4 slots; f = 0.5 needs 2 of them: the downstream task (1
// unit) starts at 2, runs out at 3 and waits until the upstream phase
// completes at 4. With f = 0.6, ⌈2.4⌉ = 3 tasks: it starts at 3.
func TestSlowStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ start, downStart float64 }{{0.5, 2}, {0.6, 3}, {0.25, 1}, {1, 4}, {0, 4}} {
		jobs := []Job{{Beta: 1.5, Phases: []Phase{
			{Tasks: 4, Durations: []float64{1, 2, 3, 4}},
			{Tasks: 1, Durations: []float64{1}, Start: tc.start},
		}}}
		cfg := DefaultConfig(SRPT, 4)
		cfg.Record = true
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var down CopyRecord
		for _, c := range r.Copies {
			if c.Phase == 1 {
				down = c
			}
		}
		wantEnd := math.Max(tc.downStart+1, 4)
		if down.Start != tc.downStart || down.End != wantEnd || r.Jobs[0].Completion != wantEnd {
			t.Errorf("start %g: downstream copy [%g, %g], job %g; want [%g, %g]", tc.start, down.Start, down.End, r.Jobs[0].Completion, tc.downStart, wantEnd)
		}
	}
}

// TestDetectAt: detectAt returns the first float64 time t with t − start ≥
// minElapsed, as stragglers.Speculate computes the elapsed time.
func TestDetectAt(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		start := rapid.Float64Range(0, 1e9).Draw(t, "start")
		m := rapid.Float64Range(0, 1e3).Draw(t, "minElapsed")
		at := detectAt(start, m)
		if at-start < m {
			t.Fatalf("detectAt(%g, %g) = %g: elapsed %g < %g", start, m, at, at-start, m)
		}
		if before := math.Nextafter(at, math.Inf(-1)); before >= start+m && before-start >= m {
			t.Fatalf("detectAt(%g, %g) = %g, but %g already qualifies", start, m, at, before)
		}
	})
}

// TestFairGrantOrder: when fewer slots are free than Fair's jobs lack, the
// earlier arrival is served first. X holds 4 slots (tasks of 10, 11, 12,
// 13) when Y (5 tasks) and Z (2 tasks) arrive at 1, in that order; at 10 one
// slot frees, the max-min shares over the demands (3, 5, 2) are 4/3 each,
// rounded to (2, 1, 1), and Y and Z each lack one: Y, the earlier, gets it.
func TestFairGrantOrder(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Beta: 1.5, Phases: []Phase{{Tasks: 4, Durations: []float64{10, 11, 12, 13}}}},
		{Arrival: 1, Beta: 1.5, Phases: []Phase{{Tasks: 5, Durations: ones(5)}}},
		{Arrival: 1, Beta: 1.5, Phases: []Phase{{Tasks: 2, Durations: ones(2)}}},
	}
	cfg := DefaultConfig(Fair, 4)
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	first := map[int]float64{1: math.Inf(1), 2: math.Inf(1)}
	for _, c := range r.Copies {
		if c.Job > 0 {
			first[c.Job] = math.Min(first[c.Job], c.Start)
		}
	}
	if first[1] != 10 || first[2] != 11 {
		t.Errorf("Y starts at %g, Z at %g; want 10 and 11", first[1], first[2])
	}
}

// TestBudgetPoolOrder: budgeted SRPT gives its pool to the stragglers of the
// job with the fewest remaining tasks first. X (2 tasks of 10) and Y (1 task
// of 8) arrive at 0 on 3 slots, one of them reserved; t_new = 1, so every
// task is a straggler at once. The two task slots run Y's task and one of
// X's; the pool copies Y's task (1 task < 2), which completes at 1.
func TestBudgetPoolOrder(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 2, Durations: []float64{10, 10}, CopyDurations: []float64{1, 1}}}},
		{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{8}, CopyDurations: []float64{1}}}},
	}
	cfg := DefaultConfig(SRPTBudgeted, 3)
	cfg.Budget = 1
	cfg.Speculation = Speculation{Estimator: Oracle}
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Copies {
		if c.Pool && c.Start == 0 && c.Job != 1 {
			t.Errorf("the pool's first copy is job %d's, want Y's (job 1)", c.Job)
		}
	}
	if got := r.Jobs[1].Completion; got != 1 {
		t.Errorf("Y completes at %g, want 1", got)
	}
}

// TestMachineService: under MachineService a copy takes its task's work
// times a factor of mean 1 and coefficient of variation ServiceCV (checked
// on 20 000 copies of one task, 5 standard errors).
func TestMachineService(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Beta: 1.5, Phases: []Phase{{Tasks: 3, Scale: 2}}}}
	cfg := DefaultConfig(Hopper, 1)
	cfg.Service = MachineService
	cfg.ServiceCV = 0.6
	e := newEngine("test", jobs, cfg, 3)
	work := e.firstWork(1)
	n := 20000
	var sum, sq float64
	for k := 0; k < n; k++ {
		f := e.copyDuration(1, int32(k)) / work
		sum += f
		sq += f * f
	}
	mean := sum / float64(n)
	cv := math.Sqrt(sq/float64(n)-mean*mean) / mean
	if se := cfg.ServiceCV / math.Sqrt(float64(n)); math.Abs(mean-1) > 5*se {
		t.Errorf("mean factor %g, want 1 ± %g", mean, 5*se)
	}
	if math.Abs(cv-cfg.ServiceCV) > 0.05 {
		t.Errorf("coefficient of variation %g, want %g", cv, cfg.ServiceCV)
	}
}

// TestSREWCPlan: SREW+C spreads a job's share over its tasks by
// competitive.Plan: 5 slots for 2 unscheduled tasks start 3 and 2 copies;
// then, with no task left to start, 3 more slots clone the running task
// that has the fewest copies first — all three here, for the one task.
func TestSREWCPlan(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Beta: 1.5, Phases: []Phase{{Tasks: 2, Durations: []float64{5, 5}}}}}
	cfg := DefaultConfig(SREWC, 8)
	e := newEngine("test", jobs, cfg, 2)
	e.arrive(0)
	used, err := e.use(0, 5)
	if err != nil || used != 5 {
		t.Fatalf("plan(5) = %d, %v", used, err)
	}
	if a, b := e.ts[0].copies, e.ts[1].copies; a+b != 5 || a < 2 || b < 2 {
		t.Fatalf("copies %d and %d, want 3 and 2", a, b)
	}
	e.now = 1
	before := e.ts[0].copies + e.ts[1].copies
	used, err = e.use(0, 3)
	if err != nil || used != 3 || e.ts[0].copies+e.ts[1].copies != before+3 {
		t.Fatalf("clones: plan(3) = %d, %v; copies %d → %d", used, err, before, e.ts[0].copies+e.ts[1].copies)
	}
}

// TestEventHeapOrder: the event heap pops events in increasing time, ties
// by copy index (creation order), whatever the order they were pushed in,
// as a sorted list would (container/heap's verify, by comparison).
func TestEventHeapOrder(t *testing.T) {
	t.Parallel()
	byTime := func(a, b event) int {
		if c := cmpFloat(a.t, b.t); c != 0 {
			return c
		}
		return int(a.c - b.c)
	}
	rapid.Check(t, func(t *rapid.T) {
		var h eventHeap
		var all []event
		for range rapid.IntRange(1, 60).Draw(t, "events") {
			c := rapid.IntRange(-5, 40).Draw(t, "c")
			if rapid.IntRange(0, 3).Draw(t, "report") == 0 {
				c = reportBase - max(c, 0) // a report event
			}
			ev := event{t: float64(rapid.IntRange(0, 8).Draw(t, "t")), c: c}
			h.push(ev)
			all = append(all, ev)
			if rapid.IntRange(0, 3).Draw(t, "popNow") == 0 {
				slices.SortFunc(all, byTime)
				if got := h.pop(); got != all[0] {
					t.Fatalf("popped %v, want %v", got, all[0])
				}
				all = all[1:]
			}
		}
		slices.SortFunc(all, byTime)
		for _, want := range all {
			if got := h.pop(); got != want {
				t.Fatalf("popped %v, want %v", got, want)
			}
		}
	})
}
