package probe

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchQueue builds the worst case of Algorithm 1 for a queue of n short
// probes: remaining runtimes decrease along the queue, so every probe is
// the new shortest and must pass the starvation check against all probes in
// front of it, and the caps are loose enough that the last one wins and
// every counter is updated.
func benchQueue(n int) []QueuedProbe {
	rng := rand.New(rand.NewPCG(1, 1))
	q := make([]QueuedProbe, n)
	for i := range q {
		est := 1 + rng.Float64()
		q[i] = QueuedProbe{EstJobLeft: float64(n - i), EstTask: est, Bypassed: rng.Float64(), Cap: 1e9}
	}
	return q
}

func benchmarkGetProbeFromQueue(b *testing.B, n int) {
	q := benchQueue(n)
	dst := make([]float64, n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var next int
		dst, next, _ = GetProbeFromQueue(dst, q)
		if next != n-1 || len(dst) != n {
			b.Fatalf("chose %d; want the last of %d", next, n)
		}
	}
}

// benchmarkCopyCounters is the baseline: copying the n counters out of the
// queue, the least any decision that returns them must do.
func benchmarkCopyCounters(b *testing.B, n int) {
	q := benchQueue(n)
	dst := make([]float64, n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range q {
			dst[k] = q[k].Bypassed
		}
	}
	if dst[n-1] != q[n-1].Bypassed {
		b.Fatal("not copied")
	}
}

// benchmarkRefGetProbe is the literal O(n²) transcription of Algorithm 1.
func benchmarkRefGetProbe(b *testing.B, n int) {
	q := benchQueue(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if next, _ := refGetProbe(q); next != n-1 {
			b.Fatalf("chose %d; want the last of %d", next, n)
		}
	}
}

func BenchmarkGetProbeFromQueue(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkGetProbeFromQueue(b, n) })
		b.Run(fmt.Sprintf("baseline=copy/n=%d", n), func(b *testing.B) { benchmarkCopyCounters(b, n) })
		if n <= 1000 {
			b.Run(fmt.Sprintf("baseline=literal/n=%d", n), func(b *testing.B) { benchmarkRefGetProbe(b, n) })
		}
	}
}

func benchmarkPlacement(b *testing.B, nodes int) {
	rng := rand.New(rand.NewPCG(1, 1))
	v, _ := NewStateVector(nodes, 0)
	for i := 0; i < nodes*8/10; i++ {
		v.SetLong(i, true)
	}
	var ws Workspace
	var dst []int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst, _ = PlaceProbes(dst, 0, nodes, 20, rng, &ws)
		dst, _ = ReplaceProbes(dst, v, 20, rng, &ws)
		if len(dst) != 20 {
			b.Fatal("lost probes")
		}
	}
}

func BenchmarkPlacement(b *testing.B) {
	for _, n := range []int{100, 15000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) { benchmarkPlacement(b, n) })
	}
}

// benchmarkSimulate simulates a Google-like workload of about 66 tasks per
// node (≈ 10⁶ tasks on 15 000 nodes) at load 0.9. The workload is built
// outside the timer.
func benchmarkSimulate(b *testing.B, p Scheduler, nodes int) {
	c := GoogleLike(nodes*76/15, nodes, 0.9)
	jobs, err := Synthesize(c, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	tasks := 0
	for _, j := range jobs {
		tasks += len(j.Durations)
	}
	cfg := DefaultConfig(p, nodes, c.Threshold())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Simulate(jobs, cfg, rand.New(rand.NewPCG(1, 1)))
		if err != nil || r.Stats.Tasks < int64(tasks) {
			b.Fatalf("ran %d of %d tasks: %v", r.Stats.Tasks, tasks, err)
		}
	}
	b.ReportMetric(float64(tasks), "tasks")
}

func BenchmarkSimulate(b *testing.B) {
	for _, n := range []int{150, 1500, 15000} {
		for _, p := range []Scheduler{Sparrow, Hawk, Eagle, Hopper} {
			if p == Hopper && n > 1500 {
				continue // O(active jobs) per decision: see Simulate
			}
			b.Run(fmt.Sprintf("policy=%v/nodes=%d", p, n), func(b *testing.B) { benchmarkSimulate(b, p, n) })
		}
	}
}

// benchmarkHopperPick decides for a worker with 10 queued jobs out of n
// active ones; the baseline is fairness.Allocate alone on the same view,
// the part of the decision that is O(n).
func benchmarkHopperPick(b *testing.B, n int, baseline bool) {
	rng := rand.New(rand.NewPCG(1, 1))
	remaining := make([]float64, n)
	running := make([]float64, n)
	for i := range remaining {
		remaining[i] = float64(1 + rng.IntN(100))
		running[i] = float64(rng.IntN(10))
	}
	queued := make([]int, min(10, n))
	for k := range queued {
		queued[k] = k * (n / len(queued))
	}
	slots := float64(5 * n)
	var ws Workspace
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if baseline {
			if t := ws.fairTargets(remaining, slots, 1.5, 0.1); len(t) != n {
				b.Fatal(len(t))
			}
			continue
		}
		if k, err := HopperPick(queued, remaining, running, slots, 1.5, 0.1, &ws); err != nil || k < 0 {
			b.Fatal(k, err)
		}
	}
}

func BenchmarkHopperPick(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkHopperPick(b, n, false) })
		b.Run(fmt.Sprintf("baseline=allocate/n=%d", n), func(b *testing.B) { benchmarkHopperPick(b, n, true) })
	}
}

// BenchmarkSampleDistinct draws k distinct values of [0, n) by rejection
// with a reused workspace, where the drawn set is a bit set (n ≤
// 64·(k+16)) and where it is a hash set.
func BenchmarkSampleDistinct(b *testing.B) {
	for _, c := range []struct{ n, k int }{{1000, 10}, {100000, 2000}, {15000, 3}, {1 << 31, 2000}} {
		b.Run(fmt.Sprintf("n=%d/k=%d", c.n, c.k), func(b *testing.B) {
			var ws Workspace
			rng := rand.New(rand.NewPCG(1, 1))
			dst := sampleDistinct(nil, c.n, c.k, rng, &ws)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				dst = sampleDistinct(dst[:0], c.n, c.k, rng, &ws)
			}
			if len(dst) != c.k {
				b.Fatal("wrong sample size")
			}
		})
	}
}
