package alloc

import "github.com/specsched/specsched/internal/selection"

// Workspace is reusable scratch memory for Allocate, AllocateSlots,
// Apportion and the allocation functions of the other specsched packages.
// The zero value is ready to use. It grows to the largest snapshot it has
// seen and is reused after that, so steady-state calls allocate nothing. A
// nil *Workspace is accepted everywhere and means "allocate a temporary one".
// A Workspace must not be used by two calls at once. It is opaque: it has
// no exported field or method.
type Workspace = selection.Workspace

// orNew returns ws, or a new Workspace if ws is nil.
func orNew(ws *Workspace) *Workspace {
	if ws == nil {
		return new(Workspace)
	}
	return ws
}
