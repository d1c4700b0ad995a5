package stragglers

import (
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/specbase"
)

// The kernels' helpers, under the names the package's tests knew them by
// before they moved to internal/specbase and internal/hopper.
var (
	meanDuration = specbase.MeanDuration
	dollyCount   = specbase.DollyCount
	copyFactor   = hopper.CopyFactor
)
