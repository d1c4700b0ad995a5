package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchWorkload is DefaultWorkload at 80% offered load with about tasks
// tasks (≈ 7.6 tasks per job at its defaults) on slots slots.
func benchWorkload(tb testing.TB, tasks, slots int) []Job {
	jobs, err := Synthesize(DefaultWorkload(max(1, tasks*10/76), slots, 0.8), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		tb.Fatal(err)
	}
	return jobs
}

// benchmarkSimulate runs policy p on the workload and reports the
// simulator's throughput in events per second.
func benchmarkSimulate(b *testing.B, p Preset, tasks, slots int) {
	benchmarkConfig(b, DefaultConfig(p, slots), tasks)
}

// benchmarkConfig runs cfg on the workload of about tasks tasks on its
// slots.
func benchmarkConfig(b *testing.B, cfg Config, tasks int) {
	jobs := benchWorkload(b, tasks, cfg.Slots)
	b.ReportAllocs()
	b.ResetTimer()
	events := 0
	for i := 0; i < b.N; i++ {
		r, err := Simulate(jobs, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if r.Stats.JobsDone != len(jobs) || r.Stats.Launched < tasks/2 {
			b.Fatalf("%d of %d jobs done, %d tasks", r.Stats.JobsDone, len(jobs), r.Stats.Launched)
		}
		events += r.Stats.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSimulate: SRPT (no speculation) is the baseline of the ratios;
// Hopper adds the allocation of Algorithm 1 and stragglers.Speculate.
func BenchmarkSimulate(b *testing.B) {
	for _, p := range []Preset{SRPT, Hopper, SRPTBestEffort, HopperEps} {
		for _, tasks := range []int{1e3, 1e4, 1e5} {
			b.Run(fmt.Sprintf("%v/tasks=%d", p, tasks), func(b *testing.B) { benchmarkSimulate(b, p, tasks, 200) })
		}
	}
}

// BenchmarkHopperMillion is the reference run: about 10⁶ tasks under
// Hopper at 80% offered load on 1 000 slots.
func BenchmarkHopperMillion(b *testing.B) { benchmarkSimulate(b, Hopper, 1_000_000, 1000) }

// BenchmarkHopperMillionObserved is BenchmarkHopperMillion with estimates
// from observed progress (Estimator Observed): the cost of the reports that
// call for decisions.
func BenchmarkHopperMillionObserved(b *testing.B) {
	cfg := DefaultConfig(Hopper, 1000)
	cfg.Speculation.Estimator = Observed
	benchmarkConfig(b, cfg, 1_000_000)
}

// bigJobs is a workload of n jobs of tasks tasks each (Pareto durations of
// mean 1, β cycling through 1.1, 1.4, 1.8, truncated at 8× the scale),
// arriving one per time unit: jobs that run thousands of tasks at once on
// a large cluster, as FB-2010's largest do, where a rule that looks at
// every running task at every decision costs Θ(events × running).
func bigJobs(n, tasks int) []Job {
	jobs := make([]Job, n)
	for j := range jobs {
		beta := []float64{1.1, 1.4, 1.8}[j%3]
		scale := ParetoScale(1, beta, 8)
		jobs[j] = Job{Arrival: float64(j), Beta: beta, Phases: []Phase{{Tasks: tasks, Scale: scale, Cap: 8 * scale}}}
	}
	return jobs
}

// BenchmarkBigJobs runs the policies whose rules judge stragglers (Hopper,
// best effort, budgeted) and SREW+C's on bigJobs(10, 4000) on 2 000 slots:
// with the straggler index a decision costs what it hands out, not the
// job's thousands of running tasks.
func BenchmarkBigJobs(b *testing.B) {
	jobs := bigJobs(10, 4000)
	for _, p := range []Preset{SRPT, Hopper, SRPTBestEffort, SRPTBudgeted, SREWC} {
		b.Run(p.String(), func(b *testing.B) {
			cfg := DefaultConfig(p, 2000)
			b.ReportAllocs()
			events := 0
			for i := 0; i < b.N; i++ {
				r, err := Simulate(jobs, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if r.Stats.JobsDone != len(jobs) {
					b.Fatalf("%d of %d jobs done", r.Stats.JobsDone, len(jobs))
				}
				events += r.Stats.Events
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
