package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// costCase is a workload whose work is fixed while the cluster grows.
type costCase struct {
	name   string
	jobs   func(t *testing.T) []Job
	config func(p Preset, slots int) Config
}

func costCases() []costCase {
	defaults := func(p Preset, slots int) Config { return DefaultConfig(p, slots) }
	return []costCase{
		// Issue 17: one 2-task job; SREW+C clones it into every machine.
		{"two tasks", func(*testing.T) []Job {
			return []Job{{Beta: 1.5, Phases: []Phase{{Tasks: 2, Scale: 1}}}}
		}, defaults},
		// Every copy is slower than t_new: the thesis's rule copies the
		// tasks for as long as slots are free (Hopper's case of issue 17).
		{"slow copies", func(*testing.T) []Job {
			return []Job{{Beta: 1.5, NewCopy: 1, Phases: []Phase{{
				Tasks: 2, Durations: []float64{10, 12}, CopyDurations: []float64{10, 12},
			}}}}
		}, func(p Preset, slots int) Config {
			cfg := DefaultConfig(p, slots)
			cfg.Speculation.Detect = 0
			cfg.Speculation.Estimator = Oracle
			return cfg
		}},
		// A 25-task workload of the default shape.
		{"25 tasks", func(t *testing.T) []Job {
			c := DefaultWorkload(4, 1024, 0.8)
			c.MaxTasks = 8
			jobs, err := Synthesize(c, rand.New(rand.NewPCG(3, 3)))
			if err != nil {
				t.Fatal(err)
			}
			return jobs
		}, defaults},
	}
}

// TestCostFollowsWork is issue 17's reproducer: SREW+C with one 2-task job
// took 4 ms at 1 024 slots, 14 s at 65 536 and did not finish at 2^24, since
// every idle slot became a copy (and each copy cost O(copies of its task)).
// A run's work — copies started, heap operations, visits of copies and view
// entries, counted by the engine — must not grow with the slots once they
// exceed what the jobs can use: at 2^24 slots it stays within twice that at
// 1 024, for every policy, and no task runs more than MaxCopies copies.
func TestCostFollowsWork(t *testing.T) {
	t.Parallel()
	for _, c := range costCases() {
		jobs := c.jobs(t)
		tasks := 0
		for _, j := range jobs {
			for _, ph := range j.Phases {
				tasks += ph.Tasks
			}
		}
		for _, p := range Policies() {
			t.Run(fmt.Sprintf("%s/%v", c.name, p), func(t *testing.T) {
				small, err := simulate(jobs, c.config(p, 1024))
				if err != nil {
					t.Fatal(err)
				}
				large, err := simulate(jobs, c.config(p, MaxSlots))
				if err != nil {
					t.Fatal(err)
				}
				if large.steps > 2*small.steps {
					t.Errorf("%d steps at 2^24 slots, %d at 1024: the cost grows with idle slots", large.steps, small.steps)
				}
				if st := large.res.Stats; st.Launched+st.Copies > MaxCopies*tasks {
					t.Errorf("%d copies of %d tasks, want at most %d each", st.Launched+st.Copies, tasks, MaxCopies)
				}
			})
		}
	}
}

// TestMaxCopies: a task never runs more than MaxCopies copies, and the slots
// a job cannot use go to the others. Derived by hand: SREW+C on 1 000 slots
// gives a lone 1-task job all of them (competitive.Machines), Plan launches
// the task with 1 000 copies, clipped to MaxCopies; a second 1-task job
// arriving with it gets its MaxCopies from the slots left (work
// conservation), and 1 000 − 2·MaxCopies slots idle. Under Hopper a task
// whose copies are all slower than t_new is copied once per call of
// stragglers.Speculate until it holds MaxCopies.
func TestMaxCopies(t *testing.T) {
	t.Parallel()
	one := func(d float64) Job {
		return Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{d}, CopyDurations: []float64{d}}}}
	}
	for _, p := range []Preset{SREWC, Hopper} {
		cfg := DefaultConfig(p, 1000)
		cfg.Speculation.Detect = 0
		cfg.Speculation.Estimator = Oracle
		cfg.Record = true
		jobs := []Job{one(3), one(5)}
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		perTask := map[int]int{}
		for _, c := range r.Copies {
			perTask[c.Job]++
			if c.Start != 0 {
				t.Errorf("%v: job %d copy %d started at %g, want 0", p, c.Job, c.Copy, c.Start)
			}
		}
		for j := range jobs {
			if perTask[j] != MaxCopies {
				t.Errorf("%v: job %d ran %d copies, want %d", p, j, perTask[j], MaxCopies)
			}
		}
	}
}

// TestCappedCount checks the engine's count of tasks at MaxCopies: a task
// that reaches it is counted, the job can no longer use a slot (SREW+C), and
// the count drops when the task's run ends.
func TestCappedCount(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Beta: 1.5, Phases: []Phase{{Tasks: 2, Durations: []float64{1, 2}, CopyDurations: []float64{1, 2}}}}}
	e := newEngine("test", jobs, DefaultConfig(SREWC, 1000), 2)
	e.arrive(0)
	used, err := e.use(0, 1000)
	if err != nil || used != 2*MaxCopies {
		t.Fatalf("plan(1000) = %d, %v; want %d", used, err, 2*MaxCopies)
	}
	if e.js[0].capped != 2 || e.canUse(0) || e.anyCanUse() {
		t.Fatalf("capped %d, canUse %v: want 2 tasks capped and no use for a slot", e.js[0].capped, e.canUse(0))
	}
	e.now = 1
	if err := e.copyRunOver(e.ts[0].head); err != nil {
		t.Fatal(err)
	}
	if e.js[0].capped != 1 || e.canUse(0) {
		t.Fatalf("after task 0's run: capped %d, canUse %v; want 1 and false", e.js[0].capped, e.canUse(0))
	}
	if used, _ := e.use(0, 10); used != 0 {
		t.Fatalf("plan of a job at MaxCopies started %d copies", used)
	}
	// The grant passes over a job that cannot use a slot: no Plan at all.
	e.active = []int32{0}
	steps := e.steps
	if free, err := e.grant(10); err != nil || free != 10 || e.steps != steps {
		t.Fatalf("grant to a job at MaxCopies: %d free, %v, %d steps; want 10 free and none", free, err, e.steps-steps)
	}
}

// TestThetaExact checks the eligibility bound θ the engine keeps for a
// task against its definition, min over the task's copies of end − level/η
// (level t_new for the thesis's rule, c+1/c times Mantri's cut-off for c
// copies), after each of several copies, and −∞ at MaxCopies; and that the
// filter then rules the job out.
func TestThetaExact(t *testing.T) {
	t.Parallel()
	for _, mantri := range []bool{false, true} {
		jobs := []Job{{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Scale: 2}}}}
		cfg := DefaultConfig(Hopper, 1000)
		cfg.Speculation.Mantri = mantri
		cfg.Speculation.Detect = 0
		e := newEngine("test", jobs, cfg, 1)
		e.arrive(0)
		for k := 0; k < MaxCopies; k++ {
			e.now = float64(k) / 8
			if k == 0 {
				e.launch(0)
			} else {
				e.startCopy(0, false)
			}
			c := float64(k + 1)
			level := 1.0
			if mantri {
				level = mantriCutoff(1, 1.5, cfg.Speculation.Threshold) * (c + 1) / c
			}
			want := math.Inf(1)
			for i := range e.cs {
				want = math.Min(want, e.cs[i].end-level/e.cs[i].eta)
			}
			if k+1 == MaxCopies {
				want = math.Inf(-1)
			}
			if got := e.ts[0].theta; got != want {
				t.Fatalf("mantri %v, %d copies: θ = %v, want %v", mantri, k+1, got, want)
			}
		}
		if e.dec.MayHaveStraggler(0) {
			t.Errorf("mantri %v: a task at MaxCopies may still be judged a straggler", mantri)
		}
	}
}

// TestBestEffortKilledCopyInstant: under best-effort speculation, which
// gives a straggler one copy per decision, a decision is also taken at the
// instant a killed copy would have ended (see everyInstant). Derived by hand
// on 10 slots, t_new = 1, judged at once on exact t_rem: job A's tasks a0
// (every copy 100) and a1 (5, copies 1) start at 0; B (1) arrives at 1 and
// starts, and A's two stragglers get a copy each (a1's ends at 2). At 2 B
// and a1 complete, a1's first copy is killed (it would have ended at 5) and
// a0 gets its second copy; at 5 its third. A completes at 100 with four
// copies started in all.
func TestBestEffortKilledCopyInstant(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 2, Durations: []float64{100, 5}, CopyDurations: []float64{100, 1}}}},
		{Arrival: 1, Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{1}, CopyDurations: []float64{1}}}},
	}
	cfg := DefaultConfig(SRPTBestEffort, 10)
	cfg.Speculation.Detect = 0
	cfg.Speculation.Estimator = Oracle
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var starts []float64
	for _, c := range r.Copies {
		if c.Job == 0 && c.Task == 0 {
			starts = append(starts, c.Start)
		}
	}
	slices.Sort(starts)
	if want := []float64{0, 1, 2, 5}; !slices.Equal(starts, want) || r.Stats.Copies != 4 {
		t.Errorf("a0's copies start at %v (%d copies in all), want %v (4)", starts, r.Stats.Copies, want)
	}
	if r.Jobs[0].Completion != 100 || r.Jobs[1].Completion != 1 {
		t.Errorf("completions %g, %g; want 100, 1", r.Jobs[0].Completion, r.Jobs[1].Completion)
	}
}

// TestEveryInstantPolicies: only best-effort and budgeted speculation, with
// copies on, decide at the instants killed copies would have ended (the
// other policies would change nothing there, and skip them).
func TestEveryInstantPolicies(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Beta: 1.5, Phases: []Phase{{Tasks: 1, Scale: 1}}}}
	for _, p := range Policies() {
		for _, off := range []bool{false, true} {
			cfg := DefaultConfig(p, 4)
			cfg.Speculation.Off = off
			want := (p == SRPTBestEffort || p == FairBestEffort || p == SRPTBudgeted || p == FairBudgeted) && !off
			if got := newEngine("test", jobs, cfg, 1).everyInstant; got != want {
				t.Errorf("%v, speculation off %v: everyInstant %v, want %v", p, off, got, want)
			}
		}
	}
}
