package stragglers

import (
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/internal/waterfill"
)

// Workspace is reusable scratch memory for the functions of this package.
// The zero value is ready to use; it grows to the largest snapshot seen and
// is reused after that, so steady-state calls allocate nothing. A nil
// *Workspace is accepted and means "allocate a temporary one". A Workspace
// must not be used by two calls at once.
type Workspace struct {
	sel         selection.Workspace // two classes: Algorithm 1 within a class, apportionment; speculation
	fill        waterfill.Workspace // the K-class water-filling's kernel
	sub         []float64           // two classes: remaining tasks of the jobs of one class
	subDst      []float64           // and their slots
	keys        []float64           // speculation: minus the urgencies of the eligible tasks
	eligible    []int               // speculation: the eligible tasks, in index order
	unscheduled []int               // speculation: the unscheduled tasks, in index order
	base        specbase.Workspace  // the baselines: LATE, GRASS, Dolly, Spark's, Hadoop's
}

func orNew(ws *Workspace) *Workspace {
	if ws == nil {
		return new(Workspace)
	}
	return ws
}
