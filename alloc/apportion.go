package alloc

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
)

// ShareSumTolerance is how far, relative to max(1, total), the shares handed
// to Apportion may sum from the integer total. Real-valued allocations sum
// to their capacity up to floating-point rounding, about n·2⁻⁵³ relative;
// 1e-9 leaves room for a million jobs while rejecting shares that do not
// describe the total at all.
const ShareSumTolerance = 1e-9

// MaxTotal is the largest integer total Apportion accepts: 2⁵³, the largest
// range in which float64 shares represent every integer.
const MaxTotal = 1 << 53

// Apportion turns real-valued shares that sum to an integer total into
// integer slots that sum to exactly total, by the largest-remainder
// (Hamilton) method: every job gets ⌊shares[i]⌋ and the R = total −
// Σ⌊shares[i]⌋ units left go, one each, to the jobs with the largest
// fractional parts. Ties between equal fractional parts go to the smaller
// priority[i] (the algorithm's own order: for Hopper, fewer remaining tasks
// first), then to the smaller index; a nil priority means index order.
//
// Guarantees: Σdst = total exactly, whenever some share is positive; a job
// with share 0 gets 0. When the shares sum to total up to less than a unit
// (|Σshares − total| < 1, the case of real-valued allocations rounded
// below 2^52), |dst[i] − shares[i]| < 1 for every job, so a job whose share
// is an integer gets exactly it, and largest remainder minimises the
// largest deviation max_i |dst[i] − shares[i]| among all integer vectors
// summing to total.
//
// Shares further from total — anywhere inside ShareSumTolerance, which at
// total = 10⁹ is a whole unit, or shares ≥ 2^52, which are integers whose
// floors can sum past total — are apportioned by the same rule taken unit
// by unit: job i's k-th unit ranks by shares[i] − k + 1, and the total
// highest-ranked units are handed out (the ties as above). So a shortfall
// of R units gives every job with a positive share ⌊R/m⌋ more (m such
// jobs) and the R mod m largest fractional parts one more; an excess is
// taken back one unit per job holding one, round after round, the smallest
// fractional part (the lowest-ranked unit) first, ties to the larger
// priority, then the larger index. The deviation is then at most about
// |Σshares − total|/m + 1.
//
// Why not Pseudocode 1's floors: the thesis's Pseudocode 1 gives each job
// ⌊share⌋, which loses up to one slot per job — up to n−1 idle slots in the
// proportional case, exactly where Guideline 2 says every slot should work —
// and in the capacity-constrained case it hands the leftovers of each floor
// to later, larger jobs instead of the job the real-valued allocation chose.
// Apportion wastes no slot and moves no job by a whole slot.
//
// Complexity: O(n) time — two passes plus a radix selection of the R-th
// largest remainder (and, when remainders tie at the cut, of the priority
// among them); no sort. Shares a unit or more from total add whole rounds,
// O(n·log(max share)) with a binary search on their number. A dst of
// capacity n and a reused ws make it allocation-free.
//
// Special cases: total = 0 with all shares 0 gives all zeros; no shares and
// total 0 gives an empty result. An error, with dst untouched, is returned
// for total < 0 or > MaxTotal, for a share that is negative, NaN or ±Inf,
// for a NaN or ±Inf priority, for len(priority) ∉ {0, len(shares)}, and when
// Σshares differs from total by more than ShareSumTolerance·max(1, total).
func Apportion(dst []int, shares []float64, total int, priority []float64, ws *Workspace) ([]int, error) {
	const fn = "alloc.Apportion"
	if total < 0 || total > MaxTotal {
		return nil, check.Err(fn, check.Scalar, "total", float64(total), "must lie in [0, 2^53]")
	}
	sum, err := check.NonNegatives(fn, "shares", shares)
	if err != nil {
		return nil, err
	}
	if len(priority) != 0 {
		if err := check.Len(fn, "priority", len(priority), len(shares)); err != nil {
			return nil, err
		}
		for i, p := range priority {
			if err := check.Finite(fn, i, "priority", p); err != nil {
				return nil, err
			}
		}
	} else {
		priority = nil
	}
	if math.Abs(sum-float64(total)) > ShareSumTolerance*max(1, float64(total)) {
		return nil, check.Err(fn, check.Scalar, "sum(shares)", sum, "must equal total up to ShareSumTolerance")
	}
	dst = slices.Grow(dst[:0], len(shares))[:len(shares)]
	selection.Apportion(orNew(ws), dst, shares, total, priority)
	return dst, nil
}

// AllocateSlots is the integer form of Algorithm 1 (see Allocate): the
// real-valued allocation for S = slots, rounded by Apportion with ties in
// Algorithm 1's order (fewer remaining tasks first, then input index). The
// result sums to exactly slots whenever some job has work (to 0 otherwise),
// and every job is within one slot of its real-valued share — so a job the
// real-valued algorithm gives nothing gets nothing, and one it gives an
// integer number of slots gets exactly that.
//
// Complexity: O(n) time; allocation-free with a dst of capacity n and a
// reused ws. Errors are those of Allocate, with slots < 0 or > MaxTotal
// rejected.
func AllocateSlots(dst []int, remaining []float64, slots int, beta float64, ws *Workspace) ([]int, error) {
	const fn = "alloc.AllocateSlots"
	if slots < 0 || slots > MaxTotal {
		return nil, check.Err(fn, check.Scalar, "slots", float64(slots), "must lie in [0, 2^53]")
	}
	snap, err := validate(fn, remaining, float64(slots), beta)
	if err != nil {
		return nil, err
	}
	ws = orNew(ws)
	n := len(remaining)
	ws.Shares = slices.Grow(ws.Shares[:0], n)[:n]
	total := 0
	if allocate(ws.Shares, remaining, float64(slots), snap, ws) {
		total = slots
	}
	dst = slices.Grow(dst[:0], n)[:n]
	selection.Apportion(ws, dst, ws.Shares, total, remaining)
	return dst, nil
}
