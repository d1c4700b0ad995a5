package volcano

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"volcano.sh/volcano/pkg/scheduler/framework"
	"volcano.sh/volcano/pkg/scheduler/plugins/drf"
	"volcano.sh/volcano/pkg/scheduler/plugins/proportion"
)

// benchmarkSessionOpen times OnSessionOpen, the plug-in's per-session
// decision (the job scan, β per job, the slot count, thesis §3.5's
// allocation and the hooks' registration), on a session of n jobs of 1–4
// pending and 0–2 running pods each, every fifth with a β annotation, on
// n/10 nodes of 32 slots. The session is built once, outside the timer,
// on Volcano's mock scheduler cache (openSession); Volcano's own snapshot is not
// timed. Each call appends one event handler to the session (a few bytes,
// amortised). With baseline set, the same session times that Volcano
// plug-in's OnSessionOpen instead (drf, proportion: the per-session share
// computations hopper stands beside), for a ratio measured in one run.
func benchmarkSessionOpen(b *testing.B, n int, baseline framework.PluginBuilder) {
	spec := sessionSpec{nodes: max(1, n/10), cpus: 32, eps: DefaultEpsilon}
	for i := 0; i < n; i++ {
		job := jobSpec{name: fmt.Sprintf("j%05d", i), pending: 1 + i%4, running: i % 3}
		if i%5 == 0 {
			job.beta = "1.3"
		}
		spec.jobs = append(spec.jobs, job)
	}
	// On the uthelper harness, closing a session this large blocks: its
	// fake recorder holds 100 events and Volcano records one per
	// unscheduled job. openSession's recorder keeps them all.
	ssn, plugin, sink := openSession(spec, &eventLog{})
	defer framework.CloseSession(ssn)
	if len(ssn.Jobs) != n || plugin == nil {
		b.Fatalf("session has %d jobs, want %d (plug-in built: %v)", len(ssn.Jobs), n, plugin != nil)
	}
	var timed framework.Plugin = plugin
	if baseline != nil {
		timed = baseline(framework.Arguments{})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		timed.OnSessionOpen(ssn)
	}
	b.StopTimer()
	if plugin.Slots() != spec.nodes*spec.cpus {
		b.Fatalf("slots %d, want %d", plugin.Slots(), spec.nodes*spec.cpus)
	}
	if target, ok := plugin.Target(jobID("j00000")); !ok || target < plugin.Floor() {
		b.Fatalf("job j00000: target %d (known %v), floor %d", target, ok, plugin.Floor())
	}
	if len(sink.lines) != 0 {
		b.Fatalf("warnings: %q", sink.lines)
	}
}

func BenchmarkSessionOpen(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("jobs=%d/hopper", n), func(b *testing.B) { benchmarkSessionOpen(b, n, nil) })
		b.Run(fmt.Sprintf("jobs=%d/drf", n), func(b *testing.B) { benchmarkSessionOpen(b, n, drf.New) })
		b.Run(fmt.Sprintf("jobs=%d/proportion", n), func(b *testing.B) { benchmarkSessionOpen(b, n, proportion.New) })
	}
}

// benchmarkDecide times Decide alone, the library's part of a session
// (thesis §3.5), on n jobs of 1–8 tasks with β in [1.1, 1.9] and one slot
// per 2.5 tasks, reusing dst and the workspace as the plug-in does.
func benchmarkDecide(b *testing.B, n int) {
	rng := rand.New(rand.NewPCG(1, 1))
	jobs := make([]JobDemand, n)
	tasks := 0
	for i := range jobs {
		jobs[i] = JobDemand{Tasks: 1 + rng.IntN(8), Beta: 1.1 + 0.8*rng.Float64()}
		tasks += jobs[i].Tasks
	}
	slots := tasks * 2 / 5
	var dec Decision
	var ws Workspace
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Decide(&dec, jobs, slots, DefaultBeta, DefaultEpsilon, &ws); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	sum := 0
	for _, target := range dec.Targets {
		sum += target
	}
	if sum != slots {
		b.Fatalf("targets sum to %d, want %d", sum, slots)
	}
}

func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) { benchmarkDecide(b, n) })
	}
}
