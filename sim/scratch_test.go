package sim

import (
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/minheap"
)

// poisoned is a scratch whose arrays are longer than any run here needs and
// hold junk — what a previous run of other jobs could have left — and
// whose kept per-job structures have capacity (empty, as recycleJob keeps
// them).
func poisoned(t *rapid.T) *scratch {
	n := rapid.IntRange(0, 300).Draw(t, "junk")
	sc := &scratch{
		ts:     make([]taskState, n),
		cs:     make([]copyState, n),
		events: make(minheap.Heap[int32], n),
		free:   make([]int32, n),
	}
	for i := range n {
		x := int32(i%7) - 1
		sc.ts[i] = taskState{phase: x, status: taskDone, copies: x, made: x, head: x, tail: x, win: x, runPos: x, due: math.NaN(), theta: -1, start: 1e9, phi: math.Inf(1)}
		sc.cs[i] = copyState{task: x, next: x, num: x, alive: true, pool: true, start: -1, end: math.NaN(), eta: 3, seq: i}
		sc.events[i] = minheap.Item[int32]{Rank: minheap.Rank{Key: -1, ID: i}, Value: x}
		sc.free[i] = x
	}
	for range rapid.IntRange(0, 3).Draw(t, "kept") {
		sc.indexes = append(sc.indexes, &stragglerIndex{pend: make([]int32, 0, n), pick: make([]int, 0, n)})
		sc.checks = append(sc.checks, make([]float64, 0, n+1))
		sc.running = append(sc.running, make([]int32, 0, n+1))
	}
	return sc
}

// testScratchReuse: a run that starts from reused memory (a poisoned
// scratch, or the one its own previous run handed back) gives the result
// of a run on fresh memory, field for field.
func testScratchReuse(t *rapid.T) {
	jobs := paretoJobs(t, 6)
	cfg := anyConfig(t)
	cfg.Record = rapid.Bool().Draw(t, "record")
	fresh := cfg
	fresh.debug.scratch = &scratch{}
	want, err := Simulate(jobs, fresh)
	if err != nil {
		t.Fatalf("fresh run: %v", err)
	}
	reused := cfg
	reused.debug.scratch = poisoned(t)
	got, err := Simulate(jobs, reused)
	if err != nil {
		t.Fatalf("run on a poisoned scratch: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("run on a poisoned scratch:\n got %+v\nwant %+v", got, want)
	}
	again, err := Simulate(jobs, cfg) // the pool's scratch, likely the run's before
	if err != nil {
		t.Fatalf("pooled run: %v", err)
	}
	if !reflect.DeepEqual(again, want) {
		t.Fatalf("run on the pool's scratch:\n got %+v\nwant %+v", again, want)
	}
}

func TestScratchReuse(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testScratchReuse)
}
