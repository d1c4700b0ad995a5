package fairness

import "github.com/specsched/specsched/internal/selection"

// Workspace is reusable scratch memory for Allocate and AllocateSlots, on
// the terms of alloc.Workspace: the zero value is ready, a nil *Workspace
// means a temporary one, and one call at a time may use it. It is opaque.
type Workspace struct{ sel selection.Workspace }

// orNew returns ws's scratch, or a temporary one for a nil ws.
func orNew(ws *Workspace) *selection.Workspace {
	if ws != nil {
		return &ws.sel
	}
	return new(selection.Workspace)
}
