package sim_test

import (
	"fmt"

	"github.com/specsched/specsched/sim"
)

// The speculation baselines as in-job rules, each with SRPT, on a job A of
// four tasks, one a straggler (10 time units, against 1 for the others and
// for any copy; t_new = 1), on 100 slots, with the exact estimator and
// tasks judged after a tenth of t_new; a one-task job B arrives at 2.
// Worked by hand:
//
//   - launch (no speculation): A ends with its straggler, at 10.
//   - late: at 0.1 the straggler's progress rate (0.1/10 per unit) is the
//     slowest quarter's, and the cluster's cap (⌈10% of 100⌉ = 10) has room:
//     copied at 0.1, A ends at 1.1.
//   - grass: at 0.1 its t_rem, 9.9, exceeds t_new; A fits in two waves
//     (greedy speculation): copied at 0.1, A ends at 1.1.
//   - dolly: four tasks, each copy straggling with p = 5%: two copies per
//     task keep A's straggling chance under ε = 5% (1 − (1 − 0.05²)⁴ ≈
//     1%), and its four clones fit in the budget (5% of 100 = 5): cloned at
//     launch, A ends at 1.
//   - spark: at 1, three of four tasks have finished (75%), median 1; the
//     straggler has run 1, not above 1.5 × 1. Spark, which checks every 100
//     ms, would copy it at 1.5; the rule acts at the simulator's decisions
//     — the next is B's arrival at 2: copied then, A ends at 3.
//   - hadoop: at 1, a task (and 5%) has finished, with mean 1; the
//     straggler's t_rem, 9, exceeds it: copied at 1, A ends at 2.
func Example_baselines() {
	a := sim.Job{Beta: 1.5, NewCopy: 1, Phases: []sim.Phase{{
		Tasks: 4, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1},
	}}}
	b := sim.Job{Arrival: 2, Beta: 1.5, NewCopy: 1, Phases: []sim.Phase{{
		Tasks: 1, Durations: []float64{1}, CopyDurations: []float64{1},
	}}}
	for _, rule := range []string{"launch", "late", "grass", "dolly", "spark", "hadoop"} {
		cfg := sim.DefaultConfig(sim.SRPT, 100)
		cfg.Speculation.Estimator = sim.Oracle
		cfg.Rule, _ = sim.NewRule(rule)
		r, err := sim.Simulate([]sim.Job{a, b}, cfg)
		if err != nil {
			panic(err)
		}
		fmt.Printf("srpt+%s: A ends at %g\n", rule, r.Jobs[0].Finish)
	}
	// Output:
	// srpt+launch: A ends at 10
	// srpt+late: A ends at 1.1
	// srpt+grass: A ends at 1.1
	// srpt+dolly: A ends at 1
	// srpt+spark: A ends at 3
	// srpt+hadoop: A ends at 2
}
