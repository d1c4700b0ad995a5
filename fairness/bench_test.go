package fairness_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/testutil"
)

// benchmarkAllocate runs Algorithm 2 with ε = 0.1 (the thesis's setting) at
// S = load·ΣV: 0.3 lands in case 1, 2 in case 2 (the water-fill).
func benchmarkAllocate(b *testing.B, n int, load float64) {
	remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), n)
	totalV := testutil.VirtualTotal(remaining, 1.5)
	slots := load * totalV
	dst := make([]float64, n)
	var ws fairness.Workspace
	_, _ = fairness.Allocate(dst, remaining, slots, 1.5, 0.1, &ws) // warm the workspace
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		var err error
		if dst, err = fairness.Allocate(dst, remaining, slots, 1.5, 0.1, &ws); err != nil {
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
	for _, n := range []int{10, 100, 1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("case1/n=%d", n), func(b *testing.B) { benchmarkAllocate(b, n, 0.3) })
		b.Run(fmt.Sprintf("case2/n=%d", n), func(b *testing.B) { benchmarkAllocate(b, n, 2) })
	}
}

func BenchmarkAllocateSlots(b *testing.B) {
	for _, n := range []int{10, 100, 1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), n)
			totalV := testutil.VirtualTotal(remaining, 1.5)
			slots := int(0.5 * totalV)
			dst := make([]int, n)
			var ws fairness.Workspace
			_, _ = fairness.AllocateSlots(dst, remaining, slots, 1.5, 0.1, &ws) // warm the workspace
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				var err error
				if dst, err = fairness.AllocateSlots(dst, remaining, slots, 1.5, 0.1, &ws); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestZeroAllocs: with a reused dst and workspace Algorithm 2 allocates
// nothing.
func TestZeroAllocs(t *testing.T) {
	remaining := testutil.HeavyTailed(rand.New(rand.NewPCG(1, 1)), 10_000)
	totalV := testutil.VirtualTotal(remaining, 1.5)
	var ws fairness.Workspace
	dst := make([]float64, len(remaining))
	ints := make([]int, len(remaining))
	for _, load := range []float64{0.3, 2} {
		_, _ = fairness.Allocate(dst, remaining, load*totalV, 1.5, 0.1, &ws)
		_, _ = fairness.AllocateSlots(ints, remaining, int(load*totalV), 1.5, 0.1, &ws)
		if n := testing.AllocsPerRun(20, func() { _, _ = fairness.Allocate(dst, remaining, load*totalV, 1.5, 0.1, &ws) }); n != 0 {
			t.Errorf("Allocate at load %g: %g allocations, want 0", load, n)
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = fairness.AllocateSlots(ints, remaining, int(load*totalV), 1.5, 0.1, &ws) }); n != 0 {
			t.Errorf("AllocateSlots at load %g: %g allocations, want 0", load, n)
		}
	}
}
