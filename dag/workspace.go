package dag

import "github.com/specsched/specsched/internal/dagkernel"

// Workspace is reusable scratch memory for Allocate and AllocateSlots. The
// zero value is ready to use; it grows to the largest snapshot seen and is
// reused after that, so steady-state calls allocate nothing. A nil
// *Workspace is accepted and means "allocate a temporary one". A Workspace
// must not be used by two calls at once. It is opaque.
type Workspace struct{ k dagkernel.Workspace }

// orNew returns ws's kernel scratch, or a temporary one for a nil ws.
func orNew(ws *Workspace) *dagkernel.Workspace {
	if ws == nil {
		return new(dagkernel.Workspace)
	}
	return &ws.k
}
