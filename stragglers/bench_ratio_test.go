package stragglers

import (
	"fmt"
	"strings"
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
			scan, scanned := scanner(tasks)
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
					if !scanned() {
						b.Fatal("nothing scanned")
					}
				})
			}
		}
	}
}

// BenchmarkBaselineRatio measures the speculation baselines (LATE, GRASS
// in its two modes, Spark's and Hadoop's rules, Dolly's launches) on
// statusFixture's job of n tasks (speculateFixture's: 30% finished, 50%
// running, 20% queued — finished instead, but for Dolly), against the
// same scan of the n tasks as BenchmarkSpeculationRatio, interleaved call
// by call.
func BenchmarkBaselineRatio(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		for _, r := range baselineRules() {
			tasks, slots := statusFixture(n, strings.HasSuffix(r.name, "queued"))
			plain := make([]Task, n)
			for i := range tasks {
				plain[i] = tasks[i].Task
			}
			scan, scanned := scanner(plain)
			var acts []Action
			var ws Workspace
			run := func() { acts, _ = r.f(acts, tasks, slots, &ws) }
			b.Run(fmt.Sprintf("%s/n=%d", r.name, n), func(b *testing.B) {
				b.ReportAllocs()
				testutil.Interleave(b, run, scan)
				if !scanned() {
					b.Fatal("nothing scanned")
				}
			})
		}
	}
}

// scanner returns the baseline of the speculation benchmarks — one
// branch-free pass over the tasks that reads their state and remaining
// time — and a check that it ran.
func scanner(tasks []Task) (scan func(), scanned func() bool) {
	var sum float64
	var nRunning int
	scan = func() {
		for i := range tasks {
			sum += tasks[i].Remaining
			nRunning += b2i(tasks[i].State == Running)
		}
	}
	return scan, func() bool { return sum != 0 && nRunning != 0 }
}
