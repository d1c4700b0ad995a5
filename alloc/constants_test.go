package alloc

import (
	"testing"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// TestConstantsAreTheKernels: the exported constants, written as literals
// so that their documentation names no internal package, are the values
// the shared kernels and checks use.
func TestConstantsAreTheKernels(t *testing.T) {
	t.Parallel()
	if CaseTolerance != hopper.CaseTolerance {
		t.Errorf("CaseTolerance = %v, the kernels use %v", CaseTolerance, hopper.CaseTolerance)
	}
	if NoSpeculationBeta != hopper.NoSpeculationBeta {
		t.Errorf("NoSpeculationBeta = %v, the kernels use %v", NoSpeculationBeta, hopper.NoSpeculationBeta)
	}
	if MaxTotal != check.MaxTotal {
		t.Errorf("MaxTotal = %v, the checks use %v", MaxTotal, check.MaxTotal)
	}
}
