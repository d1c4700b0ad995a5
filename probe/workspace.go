package probe

import (
	"github.com/specsched/specsched/internal/intset"
	"github.com/specsched/specsched/internal/minheap"
	"github.com/specsched/specsched/internal/selection"
)

// Workspace is reusable scratch memory for the functions of this package
// (PlaceProbes, ReplaceProbes, PlaceLWL, HopperPick). The zero value is ready to
// use; it grows to the largest input seen and is reused after that, so
// steady-state calls allocate nothing. A nil *Workspace is accepted and
// means "allocate a temporary one". Results never depend on what a
// Workspace held before. A Workspace must not be used by two calls at once.
type Workspace struct {
	stamp []uint32 // stamp[i] == gen: job i already seen (HopperPick)
	gen   uint32
	drawn intset.Set             // values already drawn by a sparse sample
	perm  []int                  // Fisher–Yates scratch for dense samples
	ranks []int                  // ranks among free nodes, ReplaceProbes
	heap  minheap.Heap[struct{}] // PlaceLWL's: node i ranked (work left, i)
	// HopperPick: the ε-fair targets and fairness.Allocate's scratch.
	targets []float64
	alloc   selection.Workspace
}

func orNew(ws *Workspace) *Workspace {
	if ws == nil {
		return new(Workspace)
	}
	return ws
}

// nextGen starts a new marking round over n items: afterwards no item is
// marked. O(1) except when the stamps are grown or wrap around.
func (ws *Workspace) nextGen(n int) {
	if len(ws.stamp) < n {
		ws.stamp = make([]uint32, n)
		ws.gen = 0
	}
	ws.gen++
	if ws.gen == 0 { // wrapped: clear so no stale mark matches
		clear(ws.stamp)
		ws.gen = 1
	}
}
