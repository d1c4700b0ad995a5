package competitive

import (
	"cmp"
	"slices"

	"github.com/specsched/specsched/internal/intset"
	"github.com/specsched/specsched/internal/srewc"
)

// Workspace is reusable scratch memory for the functions of this package.
// The zero value is ready to use; it grows to the largest snapshot it has
// seen and is reused after that, so that steady-state calls of Shares,
// Machines, Plan, SREWC, SEW, LowerBound and SEWBound allocate nothing. A nil *Workspace is
// accepted everywhere and means "allocate a temporary one". A Workspace
// must not be used by two calls at once.
type Workspace struct {
	share   srewc.Workspace // the shares' kernel
	load    []float64       // Υ_j or Υ_j(t) per job (0 for a job without work)
	shares  []float64       // the bounds' scratch
	allot   []int           // integer g_j(t), for SREWC
	grant   []int           // copies a job launches this slot (Plan: < 0, copies above its share)
	order   []int           // job indices in (Υ, index) order
	first   []int           // SEW: offset in dst of a job's Launch actions
	targets []int           // SEW: clone picks
	taken   intset.Set      // subset sampling: the values drawn
	picked  []int           // subset sampling: the subset
}

// orNew returns ws, or a new Workspace if ws is nil.
func orNew(ws *Workspace) *Workspace {
	if ws == nil {
		return new(Workspace)
	}
	return ws
}

// floats returns buf resliced (and grown) to n elements.
func floats(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n, n+n/4)
	}
	return buf[:n]
}

// ints returns buf resliced (and grown) to n elements.
func ints(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n, n+n/4)
	}
	return buf[:n]
}

// sortByLoad orders job indices by increasing load (remaining or total
// effective workload), ties by index — the order both of the paper's
// algorithms serve jobs in. O(k log k) for k indices.
func sortByLoad(order []int, load []float64) {
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(load[a], load[b]), a-b)
	})
}
