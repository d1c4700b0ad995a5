package sim

import (
	"sync"

	"github.com/specsched/specsched/internal/minheap"
)

// scratch is the memory of a run that outlives its use: the arrays sized by
// the tasks and copies (a day of FB-2010 has 11.4 M tasks: 0.7 GB of task
// states), and the per-job structures a completed job no longer needs.
//
// Fresh memory costs its first touch (a page fault per page, about as much
// as the run's own work on those pages on a loaded machine), so:
//   - within a run, a completed job's straggler index, check queue and
//     running list go to the next job that needs one (recycleJob);
//   - across runs, Simulate hands the run's arrays to the next run of the
//     process (scratchPool: specsim's runs of one workload under each
//     policy, reproduce's seeds).
//
// Every reused array is written before it is read — the task states by
// newEngine, the others appended from length 0 — so a run's result does
// not depend on what the memory held: the same inputs give the same
// result, reused or fresh (TestScratchReuse).
type scratch struct {
	ts      []taskState
	cs      []copyState
	events  minheap.Heap[int32]
	free    []int32
	indexes []*stragglerIndex // empty indexes (no member, nothing pending)
	checks  [][]float64       // empty check queues, length 0
	running [][]int32         // empty running lists, length 0
}

// scratchPool holds the scratch of finished runs (sync.Pool: dropped by
// the garbage collector when no run takes it).
var scratchPool sync.Pool

// takeScratch gives the engine the pooled scratch, if any, for n tasks.
func (e *engine) takeScratch(n int) {
	sc := e.cfg.debug.scratch
	if sc == nil {
		sc, _ = scratchPool.Get().(*scratch)
	}
	if sc == nil {
		sc = &scratch{}
	}
	e.ts = grow(sc.ts, n) // every element written by newEngine
	e.cs = sc.cs[:0]
	e.events.h = sc.events[:0]
	e.freeCopies = sc.free[:0]
	e.sc = scratch{indexes: sc.indexes, checks: sc.checks, running: sc.running}
}

// putScratch hands the engine's arrays to the next run, once its result
// has been taken; the engine is unusable after (its Decision reads as a
// zero Decision).
func (e *engine) putScratch() {
	sc := &e.sc
	sc.ts, sc.cs, sc.events, sc.free = e.ts, e.cs, e.events.h, e.freeCopies
	for j := range e.js {
		e.recycleJob(int32(j)) // the jobs of a failed run may hold some
	}
	e.ts, e.cs, e.events.h, e.freeCopies = nil, nil, nil, nil
	e.dec.e = nil
	pooled := *sc
	e.sc = scratch{}
	scratchPool.Put(&pooled)
}

// recycleJob keeps, for later jobs, the per-job structures of completed
// job j that are empty: its straggler index (no member once its tasks
// have all ended), its check queue (once every check is past) and its
// running list.
func (e *engine) recycleJob(j int32) {
	js := &e.js[j]
	if ix := js.ix; ix != nil && ix.exit.Len() == 0 && ix.urg.Len() == 0 {
		ix.pend, ix.head, ix.pick = ix.pend[:0], 0, ix.pick[:0]
		e.sc.indexes = append(e.sc.indexes, ix)
	}
	js.ix = nil
	if len(js.checks) == 0 && cap(js.checks) > 0 {
		e.sc.checks = append(e.sc.checks, js.checks)
		js.checks = nil
	}
	if len(js.running) == 0 && cap(js.running) > 0 {
		e.sc.running = append(e.sc.running, js.running)
		js.running = nil
	}
}

// newIndex returns an empty straggler index, recycled if one is kept.
func (e *engine) newIndex() *stragglerIndex {
	if n := len(e.sc.indexes); n > 0 {
		ix := e.sc.indexes[n-1]
		e.sc.indexes = e.sc.indexes[:n-1]
		return ix
	}
	return &stragglerIndex{}
}

// recycled returns an empty slice with the capacity of a kept one, or nil.
func recycled[T any](kept *[][]T) []T {
	n := len(*kept)
	if n == 0 {
		return nil
	}
	s := (*kept)[n-1]
	*kept = (*kept)[:n-1]
	return s
}
