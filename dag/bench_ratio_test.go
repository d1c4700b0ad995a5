package dag

import (
	"fmt"
	"testing"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// BenchmarkRatio measures Algorithm 3 (real and integer forms) and, for
// comparison, Algorithm 1 (alloc.Allocate on the same task counts) against
// a two-pass scan of the snapshot — one pass summing the jobs' remaining
// tasks, one writing a share per job — interleaved call by call in the
// same run (testutil.Interleave). The target is under 1 ms at
// n = 10 000; the ratio says how far from the memory-bound floor that is.
func BenchmarkRatio(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		jobs, remaining, slots := benchFixture(n)
		dst, idst := make([]float64, n), make([]int, n)
		var ws Workspace
		var aws alloc.Workspace
		twoPass := func() {
			var sum float64
			for i := range jobs {
				sum += jobs[i].Remaining
			}
			for i := range jobs {
				dst[i] = slots * jobs[i].Remaining / sum
			}
		}
		for _, alg := range []struct {
			name string
			run  func()
		}{
			{"Allocate", func() { dst, _ = Allocate(dst, jobs, slots, 1.5, &ws) }},
			{"AllocateSlots", func() { idst, _ = AllocateSlots(idst, jobs, int(slots), 1.5, &ws) }},
			{"alloc.Allocate", func() { dst, _ = alloc.Allocate(dst, remaining, slots, 1.5, &aws) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", alg.name, n), func(b *testing.B) {
				b.ReportAllocs()
				testutil.Interleave(b, alg.run, twoPass)
			})
		}
	}
}
