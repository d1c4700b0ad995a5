package dag

import "github.com/specsched/specsched/internal/selection"

// Workspace is reusable scratch memory for Allocate and AllocateSlots. The
// zero value is ready to use; it grows to the largest snapshot seen and is
// reused after that, so steady-state calls allocate nothing. A nil
// *Workspace is accepted and means "allocate a temporary one". A Workspace
// must not be used by two calls at once.
type Workspace struct {
	sel       selection.Workspace        // apportionment scratch (and its Shares)
	recs      []record                   // the active jobs, in index order
	scratch   selection.Scratch[record]  // the search's candidates
	hist      []selection.Bucket[prefix] // and its histogram
	keys      []float64                  // apportionment priorities: max{T, T'}
	alphaKeys []float64                  // and −α, the tie-break of Algorithm 3's order
}

func orNew(ws *Workspace) *Workspace {
	if ws == nil {
		return new(Workspace)
	}
	return ws
}
