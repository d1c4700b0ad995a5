package sim_test

import (
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/specsched/specsched/sim"
)

// Simulate these jobs under Hopper: the thesis's worked example on 6 slots,
// stragglers recognised as soon as they start.
func ExampleSimulate() {
	cfg := sim.DefaultConfig(sim.Hopper, 6)
	cfg.Speculation = sim.Speculation{Estimator: sim.Oracle}
	r, _ := sim.Simulate(sim.ThesisExample(), cfg)
	fmt.Println(r.Jobs[0].Completion, r.Jobs[1].Completion)
	// Output: 3 6
}

// Compare policies on a synthetic workload: the same jobs and seed for each,
// so the runs see the same task durations.
func ExampleSummarize() {
	jobs, err := sim.Synthesize(sim.DefaultWorkload(200, 20, 0.7), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	var base *sim.Result
	for _, p := range []sim.Preset{sim.SRPT, sim.SRPTBestEffort, sim.Hopper} {
		r, err := sim.Simulate(jobs, sim.DefaultConfig(p, 20))
		if err != nil {
			panic(err)
		}
		if base == nil {
			base = r
		}
		s := sim.Summarize(r)
		gain, _ := sim.Gain(base, r)
		fmt.Printf("%-16s jobs %d, gain over SRPT %s\n", p, s.Jobs, sign(gain))
	}
	// Output:
	// srpt             jobs 200, gain over SRPT zero
	// srpt-besteffort  jobs 200, gain over SRPT positive
	// hopper           jobs 200, gain over SRPT positive
}

func sign(x float64) string {
	switch {
	case x > 0:
		return "positive"
	case x < 0:
		return "negative"
	}
	return "zero"
}

// Read a trace: one CSV row per task (see ParseTrace).
func ExampleParseTrace() {
	f, err := os.Open("../internal/testdata/sim/sample.csv")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	jobs, err := sim.ParseTrace(f)
	if err != nil {
		panic(err)
	}
	tasks := 0
	for _, j := range jobs {
		for _, p := range j.Phases {
			tasks += p.Tasks
		}
	}
	fmt.Println(len(jobs), "jobs,", tasks, "tasks")
	// Output: 30 jobs, 133 tasks
}
