package alloc_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

var benchSizes = []int{10, 100, 1_000, 10_000, 100_000}

// benchmarkAllocate runs Algorithm 1 on a heavy-tailed snapshot with S a
// given multiple of ΣV: 0.3 is capacity constrained (the selection path),
// 2 is abundant (proportional sharing).
func benchmarkAllocate(b *testing.B, n int, load float64) {
	rng := rand.New(rand.NewPCG(1, 1))
	remaining := testutil.HeavyTailed(rng, n)
	totalV := testutil.VirtualTotal(remaining, 1.5)
	slots := load * totalV
	dst := make([]float64, n)
	var ws alloc.Workspace
	_, _ = alloc.Allocate(dst, remaining, slots, 1.5, &ws) // warm the workspace
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		var err error
		dst, err = alloc.Allocate(dst, remaining, slots, 1.5, &ws)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var sum float64
	for _, x := range dst {
		sum += x
	}
	if math.Abs(sum-slots) > 1e-6*slots {
		b.Fatalf("Σ = %g, want %g", sum, slots)
	}
}

func BenchmarkAllocate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("constrained/n=%d", n), func(b *testing.B) { benchmarkAllocate(b, n, 0.3) })
		b.Run(fmt.Sprintf("abundant/n=%d", n), func(b *testing.B) { benchmarkAllocate(b, n, 2) })
	}
}

// BenchmarkTwoPass is the memory-bound floor Algorithm 1 is measured
// against: one pass summing the snapshot, one pass writing a share per job.
func BenchmarkTwoPass(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), n)
			dst := make([]float64, n)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				var sum float64
				for _, r := range remaining {
					sum += r
				}
				for i, r := range remaining {
					dst[i] = r / sum
				}
			}
			b.StopTimer()
			if dst[0] <= 0 {
				b.Fatal("nothing computed")
			}
		})
	}
}

// BenchmarkReference is the thesis's sort-based Algorithm 1 (the test
// reference), for comparison with the selection-based Allocate.
func BenchmarkReference(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("constrained/n=%d", n), func(b *testing.B) {
			remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), n)
			totalV := testutil.VirtualTotal(remaining, 1.5)
			b.ResetTimer()
			for range b.N {
				_ = referenceAllocate(remaining, 0.3*totalV, 1.5)
			}
		})
	}
}

func BenchmarkAllocateSlots(b *testing.B) {
	for _, n := range benchSizes {
		for _, load := range []float64{0.3, 2} {
			b.Run(fmt.Sprintf("load=%g/n=%d", load, n), func(b *testing.B) {
				remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), n)
				totalV := testutil.VirtualTotal(remaining, 1.5)
				slots := int(load * totalV)
				dst := make([]int, n)
				var ws alloc.Workspace
				_, _ = alloc.AllocateSlots(dst, remaining, slots, 1.5, &ws) // warm the workspace
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					var err error
					if dst, err = alloc.AllocateSlots(dst, remaining, slots, 1.5, &ws); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				sum := 0
				for _, x := range dst {
					sum += x
				}
				if sum != slots {
					b.Fatalf("Σ = %d, want %d", sum, slots)
				}
			})
		}
	}
}

// BenchmarkRatio interleaves Algorithm 1 (capacity constrained, the
// selection path) and the two-pass baseline on the same snapshot, call by
// call, and reports the ratio of their total times. On a shared, noisy
// machine the ratio is stable where separate benchmarks drift. The issue's
// target is ratio ≤ 4 at n = 10 000.
func BenchmarkRatio(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), n)
			totalV := testutil.VirtualTotal(remaining, 1.5)
			dst := make([]float64, n)
			var ws alloc.Workspace
			_, _ = alloc.Allocate(dst, remaining, 0.3*totalV, 1.5, &ws)
			var algo, base time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				_, _ = alloc.Allocate(dst, remaining, 0.3*totalV, 1.5, &ws)
				mid := time.Now()
				var sum float64
				for _, r := range remaining {
					sum += r
				}
				for i, r := range remaining {
					dst[i] = r / sum
				}
				algo += mid.Sub(start)
				base += time.Since(mid)
			}
			b.ReportMetric(float64(algo)/float64(b.N), "alg-ns/op")
			b.ReportMetric(float64(base)/float64(b.N), "twopass-ns/op")
			b.ReportMetric(float64(algo)/float64(base), "ratio")
		})
	}
}
