package selection_test

import (
	"testing"

	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// testApportionNearMaxCount: shares w_i/Σw·total for totals in [2^53−8,
// 2^53], where shares ≥ 2^52 are integers and the floors can sum to more
// than total (issue 17), and the rounding of w_i/Σw adds up to several
// units: the result is the textbook rounding where the floors leave
// 0 ≤ R ≤ the fractional parts, and otherwise the largest-remainder
// rounding of the exact quotas shares[i]·total/Σshares (CheckApportion:
// Σ = total, a zero share gets nothing).
func testApportionNearMaxCount(t *rapid.T) {
	total := testutil.NearMaxCount().Draw(t, "total")
	weights := testutil.Magnitudes(1, 8).Draw(t, "weights")
	shares := testutil.SharesOf(t, weights, total)
	var ws selection.Workspace
	got := make([]int, len(shares))
	selection.Apportion(&ws, got, shares, total, weights)
	selection.CheckApportion(t, got, shares, total, weights)
}

func TestApportionNearMaxCount(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionNearMaxCount) }
