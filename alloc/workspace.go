package alloc

import "github.com/specsched/specsched/internal/selection"

// Workspace is reusable scratch memory for Allocate, AllocateSlots and
// Apportion (every other package that takes scratch memory has its own
// Workspace type).
// The zero value is ready to use. It grows to the largest snapshot it has
// seen and is reused after that, so steady-state calls allocate nothing. A
// nil *Workspace is accepted everywhere and means "allocate a temporary one".
// A Workspace must not be used by two calls at once. It is opaque: it has
// no exported field or method.
type Workspace struct {
	sel selection.Workspace
}

// orNew returns the selection scratch of ws, or a new one if ws is nil.
func orNew(ws *Workspace) *selection.Workspace {
	if ws == nil {
		return new(selection.Workspace)
	}
	return &ws.sel
}
