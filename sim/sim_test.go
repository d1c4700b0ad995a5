package sim

import (
	"math"
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

// testShortcutsChangeNothing: the engine's two shortcuts — serving a job
// without asking stragglers.Speculate when none of its tasks can be judged a
// straggler, and showing Speculate and Plan only as many unscheduled tasks
// as the job can start — give the same run as asking every time with every
// task.
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
	slow.debug = debugFlags{noFilter: true, fullView: true}
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
	type run struct{ end float64 }
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
