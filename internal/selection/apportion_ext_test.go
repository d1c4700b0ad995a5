package selection_test

import (
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// testApportionNearMaxCount: shares w_i/Σw·total for totals in [2^53−8,
// 2^53], where shares ≥ 2^52 are integers and the floors can sum to more
// than total (issue 17): the result sums to exactly total, stays within
// a unit of every share, gives a zero share nothing, and is the unit-by-unit
// rule.
func testApportionNearMaxCount(t *rapid.T) {
	total := testutil.NearMaxCount().Draw(t, "total")
	weights := testutil.Magnitudes(1, 8).Draw(t, "weights")
	var sum float64
	for _, w := range weights {
		sum += w
	}
	if sum == 0 || math.IsInf(sum, 0) {
		t.Skip("no weight, or weights that overflow")
	}
	shares := make([]float64, len(weights))
	for i, w := range weights {
		shares[i] = w / sum * float64(total)
	}
	var ws selection.Workspace
	got := make([]int, len(shares))
	selection.Apportion(&ws, got, shares, total, weights)
	s := 0
	for i, d := range got {
		s += d
		if math.Abs(float64(d)-shares[i]) > 1 || (shares[i] == 0 && d != 0) {
			t.Fatalf("job %d: %d for share %v", i, d, shares[i])
		}
	}
	if s != total {
		t.Fatalf("Σ = %d, want %d (shares %v → %v)", s, total, shares, got)
	}
	if want := selection.ReferenceUnits(shares, total, weights); !slices.Equal(got, want) {
		t.Fatalf("Apportion = %v, unit by unit %v (shares %v)", got, want, shares)
	}
}

func TestApportionNearMaxCount(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionNearMaxCount) }
