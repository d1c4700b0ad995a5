package sim_test

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/sim"
)

// bigTaskJobs draws a few jobs of up to hundreds of tasks (one or two
// phases; drawn durations, or given small integers, whose ties in t_rem
// under Oracle test the order of equally urgent tasks).
func bigTaskJobs(t *rapid.T) []sim.Job {
	jobs := make([]sim.Job, rapid.IntRange(1, 4).Draw(t, "jobs"))
	for j := range jobs {
		job := sim.Job{Arrival: float64(rapid.IntRange(0, 40).Draw(t, "arrival")) / 4,
			Beta: rapid.SampledFrom([]float64{1.1, 1.5, 1.9, 2.5}).Draw(t, "beta")}
		for p := range rapid.IntRange(1, 2).Draw(t, "phases") {
			ph := sim.Phase{Tasks: rapid.IntRange(1, 250).Draw(t, "tasks"), Scale: 1}
			if p > 0 {
				ph.Start = rapid.SampledFrom([]float64{0, 0.5}).Draw(t, "start")
			}
			if rapid.Bool().Draw(t, "given") {
				ph.Durations = make([]float64, ph.Tasks)
				for i := range ph.Durations {
					ph.Durations[i] = float64(rapid.IntRange(1, 8).Draw(t, "d"))
				}
			} else if rapid.Bool().Draw(t, "capped") {
				ph.Cap = 8
			}
			job.Phases = append(job.Phases, ph)
		}
		jobs[j] = job
	}
	return jobs
}

// TestRulesMatchSpeculateOnBigJobs: Hopper's rule, best effort (and at
// the lowest priority, IdleRule), budgeted
// speculation and SREW+C's plan, deciding from the straggler index and
// their counts (SpeculateRule, BestEffortRule, IdleRule, BudgetedRule, PlanRule),
// give the run copy for copy of the same rules written on the old API —
// every running task shown to stragglers.Speculate or competitive.Plan at
// every decision (public_test.go's user rules) — on jobs of hundreds of
// tasks, under every estimator and both straggler rules.
func TestRulesMatchSpeculateOnBigJobs(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		jobs := bigTaskJobs(t)
		rule := rapid.SampledFrom([]string{"speculate", "besteffort", "idle", "budgeted", "plan"}).Draw(t, "rule")
		alloc := rapid.SampledFrom(sim.AllocatorNames()).Draw(t, "allocator")
		cfg := sim.DefaultConfig(sim.SRPT, rapid.IntRange(2, 150).Draw(t, "slots"))
		cfg.Seed = rapid.Uint64().Draw(t, "seed")
		cfg.Record = true
		cfg.Speculation.Estimator = rapid.SampledFrom([]sim.Estimator{sim.Oracle, sim.Progress, sim.Observed}).Draw(t, "estimator")
		cfg.Speculation.Mantri = rapid.Bool().Draw(t, "mantri")
		cfg.Speculation.Detect = rapid.SampledFrom([]float64{0, 0.1, 0.5}).Draw(t, "detect")
		builtIn := cfg
		builtIn.Allocator, _ = sim.NewAllocator(alloc)
		builtIn.Rule, _ = sim.NewRule(rule)
		user := builtIn
		user.Rule = userRules[rule]()
		want, err := sim.Simulate(jobs, builtIn)
		if err != nil {
			t.Fatalf("built-in %s+%s: %v", alloc, rule, err)
		}
		got, err := sim.Simulate(jobs, user)
		if err != nil {
			t.Fatalf("user's %s+%s: %v", alloc, rule, err)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Fatalf("%s+%s: the index-based rule differs from Speculate on the full view (-built-in +user):\n%s", alloc, rule, diff)
		}
	})
}
