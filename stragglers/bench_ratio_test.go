package stragglers

import (
	"fmt"
	"testing"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// BenchmarkRatio measures Algorithm 4 (TwoClasses), the K-class and
// per-job-β water-filling (Allocate, AllocateSlots) and, for comparison,
// Algorithm 1 (alloc.Allocate with one β) against a two-pass scan of the
// snapshot — one pass summing remaining tasks, one writing a share per job —
// interleaved call by call in the same run (testutil.Interleave). The
// issue's target is under 1 ms at n = 10 000.
func BenchmarkRatio(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		remaining, perJob, slots := benchFixture(n, false)
		_, twoBeta, _ := benchFixture(n, true)
		dst, idst := make([]float64, n), make([]int, n)
		var ws Workspace
		var aws alloc.Workspace
		twoPass := func() {
			var sum float64
			for i, r := range remaining {
				sum += r * perJob[i]
			}
			for i, r := range remaining {
				dst[i] = slots * r * perJob[i] / sum
			}
		}
		for _, alg := range []struct {
			name string
			run  func()
		}{
			{"TwoClasses", func() { dst, _ = TwoClasses(dst, remaining, twoBeta, slots, &ws) }},
			{"Allocate/two-classes", func() { dst, _ = Allocate(dst, remaining, twoBeta, slots, &ws) }},
			{"Allocate/per-job", func() { dst, _ = Allocate(dst, remaining, perJob, slots, &ws) }},
			{"AllocateSlots/per-job", func() { idst, _ = AllocateSlots(idst, remaining, perJob, int(slots), &ws) }},
			{"alloc.Allocate", func() { dst, _ = alloc.Allocate(dst, remaining, slots/2, 1.5, &aws) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", alg.name, n), func(b *testing.B) {
				b.ReportAllocs()
				testutil.Interleave(b, alg.run, twoPass)
			})
		}
	}
}

// BenchmarkSpeculationRatio measures the in-job policy on speculateFixture's
// job of n tasks (30% finished, 50% running, 20% queued) — Speculate on the
// full snapshot, SpeculateRunning on its running tasks and queue length —
// against a scan of the n tasks, interleaved call by call. The issue's
// target is under 50 µs at n = 10 000.
func BenchmarkSpeculationRatio(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		for _, rule := range []Rule{ThesisRule, MantriRule} {
			tasks, slots, p := speculateFixture(n, rule)
			running, _, unscheduled := runningView(tasks)
			var acts []Action
			var copies []int
			var ws Workspace
			var sum float64
			var nRunning int
			scan := func() {
				for i := range tasks {
					sum += tasks[i].Remaining
					nRunning += b2i(tasks[i].State == Running)
				}
			}
			for _, alg := range []struct {
				name string
				run  func()
			}{
				{"Speculate", func() { acts, _ = Speculate(acts, tasks, slots, p, &ws) }},
				{"SpeculateRunning", func() { _, copies, _ = SpeculateRunning(copies, running, unscheduled, slots, p, &ws) }},
			} {
				b.Run(fmt.Sprintf("%s/rule=%v/n=%d", alg.name, rule, n), func(b *testing.B) {
					b.ReportAllocs()
					testutil.Interleave(b, alg.run, scan)
					if sum == 0 || nRunning == 0 {
						b.Fatal("nothing scanned")
					}
				})
			}
		}
	}
}
