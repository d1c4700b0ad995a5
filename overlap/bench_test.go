package overlap

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchSnapshot returns n jobs of the §5.3 workload caught mid-service:
// each has done a random fraction of its map, and either kept pace at the
// shuffle (no available work) or done only part of the shuffle work made.
func benchSnapshot(n int) []Job {
	rng := rand.New(rand.NewPCG(1, 1))
	arrivals, err := PaperWorkload(0.9).Generate(nil, n, rng)
	if err != nil {
		panic(err)
	}
	jobs := make([]Job, n)
	for i, a := range arrivals {
		f := rng.Float64()
		j := Job{Arrival: a.Time, Map: a.Map, Shuffle: a.Shuffle, RemainingMap: a.Map * f, RemainingShuffle: a.Shuffle * f}
		if rng.IntN(2) == 0 {
			j.RemainingShuffle = a.Shuffle * (f + (1-f)*rng.Float64())
		}
		jobs[i] = j
	}
	return jobs
}

var benchSizes = []int{10, 100, 1000, 10000, 100000}

// BenchmarkScan is the baseline for the rate functions: one pass reading
// every job's remaining sizes (the least any O(n) rate rule can do).
func BenchmarkScan(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			jobs := benchSnapshot(n)
			b.ReportAllocs()
			b.ResetTimer()
			sum := 0.0
			for i := 0; i < b.N; i++ {
				for k := range jobs {
					sum += jobs[k].RemainingMap + jobs[k].RemainingShuffle
				}
			}
			if sum <= 0 {
				b.Fatal("nothing scanned")
			}
		})
	}
}

func benchmarkRates(b *testing.B, kind Algorithm, n int) {
	jobs := benchSnapshot(n)
	var ws Workspace
	dst, err := Rates(nil, jobs, 1, Discipline{Algorithm: kind}, &ws)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst, err = Rates(dst, jobs, 1, Discipline{Algorithm: kind}, &ws)
	}
	b.StopTimer()
	sum := 0.0
	for _, r := range dst {
		sum += r.Map
	}
	if err != nil || sum < 0.999 || sum > 1.001 {
		b.Fatalf("map rates sum to %v (%v), want the speed 1", sum, err)
	}
}

func BenchmarkRates(b *testing.B) {
	for _, kind := range allAlgorithms {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%v/n=%d", kind, n), func(b *testing.B) { benchmarkRates(b, kind, n) })
		}
	}
}

var simSizes = []int{10000, 100000, 1000000}

func benchWorkload(n int) []Arrival {
	jobs, err := PaperWorkload(0.9).Generate(nil, n, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		panic(err)
	}
	return jobs
}

// BenchmarkLowerBound is the baseline for the simulator: two single-server
// SRPT queues on the same jobs (O(n log n) with a heap).
func BenchmarkLowerBound(b *testing.B) {
	for _, n := range simSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			jobs := benchWorkload(n)
			var ws Workspace
			b.ReportAllocs()
			b.ResetTimer()
			lb := 0.0
			for i := 0; i < b.N; i++ {
				lb, _ = LowerBound(jobs, 1, &ws)
			}
			if lb <= 0 {
				b.Fatalf("lower bound %v", lb)
			}
		})
	}
}

// benchmarkSimulate runs the simulator on n jobs of the §5.3 workload at
// load 0.9, reporting events per run and ns per event.
func benchmarkSimulate(b *testing.B, kind Algorithm, n int) {
	jobs := benchWorkload(n)
	var ws Workspace
	dst := make([]float64, n)
	b.ReportAllocs()
	b.ResetTimer()
	var err error
	for i := 0; i < b.N; i++ {
		dst, err = Simulate(dst, jobs, 1, Discipline{Algorithm: kind}, &ws)
	}
	b.StopTimer()
	if err != nil || total(dst) <= 0 {
		b.Fatalf("Simulate: %v", err)
	}
	events := ws.prio.events
	if kind == KLPS {
		events = ws.lps.events
	}
	b.ReportMetric(float64(events), "events/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(events), "ns/event")
}

func BenchmarkSimulate(b *testing.B) {
	for _, kind := range allAlgorithms {
		for _, n := range simSizes {
			b.Run(fmt.Sprintf("%v/n=%d", kind, n), func(b *testing.B) { benchmarkSimulate(b, kind, n) })
		}
	}
}

// TestZeroAllocs: with a reused dst and Workspace, Rates and Simulate
// allocate nothing in steady state (the hot-path contract).
func TestZeroAllocs(t *testing.T) {
	snap := benchSnapshot(500)
	jobs := benchWorkload(2000)
	for _, kind := range allAlgorithms {
		var ws Workspace
		p := Discipline{Algorithm: kind}
		rates, _ := Rates(nil, snap, 1, p, &ws)
		if a := testing.AllocsPerRun(20, func() { rates, _ = Rates(rates, snap, 1, p, &ws) }); a != 0 {
			t.Errorf("Rates %v: %v allocs per call", kind, a)
		}
		resp, _ := Simulate(nil, jobs, 1, p, &ws)
		if a := testing.AllocsPerRun(5, func() { resp, _ = Simulate(resp, jobs, 1, p, &ws) }); a != 0 {
			t.Errorf("Simulate %v: %v allocs per run", kind, a)
		}
	}
}
