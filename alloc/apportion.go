package alloc

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
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
// with share 0 gets 0. When the floors leave 0 ≤ R ≤ the number of
// non-zero fractional parts — always when |Σshares − total| < 1, as for
// real-valued allocations below 2^52 — this is the textbook method:
// |dst[i] − shares[i]|
// < 1 for every job, a job whose share is an integer gets exactly it, and
// the largest deviation max_i |dst[i] − shares[i]| is the least among all
// integer vectors summing to total.
//
// Otherwise the shares are Hamilton's weights: each job's quota is
// shares[i]·total/Σshares (the shares scaled to sum to total, exactly as
// Hamilton's method apportions any weights) and the quotas are rounded by
// largest remainder, ties as above — so every job is within a unit of its
// quota, i.e. within 1 + |Σshares − total| of its share. That happens for
// shares a unit or more from total (ShareSumTolerance allows a whole unit
// from total = 10⁹ on), and near 2^53, where shares ≥ 2^52 are integers
// whose floors can sum past total and real-valued shares are several units
// off: the excess or shortfall is spread in proportion to the shares, not
// one unit per job.
//
// Why not Pseudocode 1's floors: the thesis's Pseudocode 1 gives each job
// ⌊share⌋, which loses up to one slot per job — up to n−1 idle slots in the
// proportional case, exactly where Guideline 2 says every slot should work —
// and in the capacity-constrained case it hands the leftovers of each floor
// to later, larger jobs instead of the job the real-valued allocation chose.
// Apportion wastes no slot and, whenever Σshares is within a unit of
// total, moves no job by a whole slot.
//
// Complexity: O(n) time — two passes plus a radix selection of the R-th
// largest remainder (and, when remainders tie at the cut, of the priority
// among them); no sort. Shares that need scaling add a pass. A dst of
// capacity n and a reused ws make it allocation-free.
//
// Special cases: total = 0 with all shares 0 gives all zeros; no shares and
// total 0 gives an empty result. An error, with dst untouched, is returned
// for total < 0 or > MaxTotal, for a share that is negative, NaN or ±Inf,
// for a NaN or ±Inf priority, for len(priority) ∉ {0, len(shares)}, when
// Σshares (the running sum) overflows or differs from total by more than
// ShareSumTolerance·max(1, total), and when dst would be reused (capacity
// ≥ len(shares)) and overlaps shares or priority: dst must not overlap
// shares or priority.
func Apportion(dst []int, shares []float64, total int, priority []float64, ws *Workspace) ([]int, error) {
	const fn = "alloc.Apportion"
	if err := check.Disjoint(fn, dst, len(shares), "shares", shares); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(shares), "priority", priority); err != nil {
		return nil, err
	}
	if err := check.Total(fn, "total", total); err != nil {
		return nil, err
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
// real-valued algorithm gives nothing gets nothing, and (while the shares
// sum to slots within a unit, as they do below 2^52) one it gives an
// integer number of slots gets exactly that. Near MaxTotal, where shares
// ≥ 2^52 are rounded to integers and their floors can sum past slots, the
// shares are scaled to sum to slots before rounding (see Apportion), and
// every job is within a slot of its share so scaled.
//
// Complexity: O(n) time; allocation-free with a dst of capacity n and a
// reused ws. Errors are those of Allocate (dst must not overlap
// remaining), with slots < 0 or > MaxTotal rejected.
func AllocateSlots(dst []int, remaining []float64, slots int, beta float64, ws *Workspace) ([]int, error) {
	const fn = "alloc.AllocateSlots"
	if err := check.Disjoint(fn, dst, len(remaining), "remaining", remaining); err != nil {
		return nil, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	snap, err := validate(fn, remaining, float64(slots), beta)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(remaining))[:len(remaining)]
	hopper.AllocateSlots(dst, remaining, slots, snap, orNew(ws))
	return dst, nil
}
