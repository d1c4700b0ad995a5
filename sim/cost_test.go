package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// costCase is a workload whose work is fixed while the cluster grows.
type costCase struct {
	name   string
	jobs   func(t *testing.T) []Job
	config func(p Policy, slots int) Config
}

func costCases() []costCase {
	defaults := func(p Policy, slots int) Config { return DefaultConfig(p, slots) }
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
		}, func(p Policy, slots int) Config {
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
	for _, p := range []Policy{SREWC, Hopper} {
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
	used, err := e.plan(0, 1000)
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
	if used, _ := e.plan(0, 10); used != 0 {
		t.Fatalf("plan of a job at MaxCopies started %d copies", used)
	}
}
