package testutil

import (
	"math"

	"pgregory.net/rapid"
)

// SharesOf returns the shares w_i/Σw·total of weights (summed in index
// order), as a real-valued allocation would hand them to an apportionment;
// it skips the draw when the weights sum to 0 or overflow.
func SharesOf(t *rapid.T, weights []float64, total int) []float64 {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	if sum == 0 || math.IsInf(sum, 0) {
		t.Skip("no weight, or weights whose sum overflows")
	}
	shares := make([]float64, len(weights))
	for i, w := range weights {
		shares[i] = w / sum * float64(total)
	}
	return shares
}
