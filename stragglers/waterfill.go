package stragglers

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/waterfill"
)

// Allocate computes the throughput-maximal allocation when every job has its
// own Pareto tail index β_i — any number K of straggler classes, or one per
// job — writing every job's real-valued slots to dst. It is Algorithm 4 of
// the thesis (§4.2, Theorem 3) carried from two classes to K, by the
// reasoning of Theorem 3's proof.
//
// The problem is max Σμ_i(S_i) subject to ΣS_i ≤ S, S_i ≥ 0, with μ_i the
// concave, continuously differentiable throughput of eq. 3.3: slope
// a_i = β_i²/(4(β_i−1)) up to the virtual size V_i = (2/β_i)·T_i, then
// T_i²/((β_i−1)·S_i²). Its KKT conditions say there is a water level λ with
//
//	S_i = 0                          if λ > a_i,
//	S_i ∈ [0, V_i]                   if λ = a_i,
//	S_i = T_i/√((β_i−1)·λ) ≥ V_i     if λ < a_i,
//
// and ΣS_i = S. a(β) decreases on (1, 2), so lowering λ from +∞ serves the
// classes from the heaviest tail (smallest β) to the lightest: the jobs of
// the class with the smallest β fill their virtual sizes at λ = a_1, grow
// together as T_i/√((β_i−1)·λ) until λ reaches the next class's slope a_2,
// where that class fills its virtual sizes, and so on. The level stops in
// the first class g at which the served jobs can absorb S, with
// W = Σ_{classes before g} T_i/√(β_i−1):
//
//   - W/√a_g < S ≤ W/√a_g + ΣV_{i∈g}: λ = a_g. Earlier classes get
//     T_i/√((β_i−1)·a_g); class g shares the rest S − W/√a_g below its
//     virtual sizes, by Algorithm 1's fill (smallest T_i first, ties by
//     index), which among the throughput-equivalent choices is Guideline 1's;
//     later classes get 0.
//   - otherwise λ lies between a_g and the next slope: every job of classes
//     up to g gets S·(T_i/√(β_i−1)) / Σ_{classes ≤ g} T_j/√(β_j−1).
//
// For two classes these are Algorithm 4's three cases exactly: S_1 =
// (2/β₂)·√((β₂−1)/(β₁−1))·ΣT_I = W_I/√a_2 is where class II starts, and the
// proportional split by ΣT/√(β−1) is its case 3. For one class it is
// Algorithm 1. Jobs with β ≥ 2 (alloc's no-speculation extension, μ =
// min(S_i, T_i), slope 1 then 0) form the last class: they fill T_i at
// λ = 1 and never take more while a job with β < 2 can use a slot; when
// only they have work, the leftover is shared in proportion to T_i, as
// alloc.Allocate does.
//
// Theorem 3 for K classes follows: the allocation satisfies the KKT
// conditions of a concave program, so it maximises Σμ_i (tested with a KKT
// certificate and against gonum/optimize).
//
// Complexity: O(n) time. The class at which the level stops is the first
// group of equal β, in increasing order, at which a monotone predicate on
// the prefix sums holds; a radix selection on the bits of β finds it
// without sorting, and Algorithm 1 (alloc.Allocate, O(size of the class))
// shares that class's part. With a dst of capacity n and a reused ws,
// Allocate allocates nothing.
//
// Special cases: no jobs gives an empty result. Jobs with T_i = 0 get 0. If
// every T_i is 0, or S = 0, every job gets 0; otherwise ΣS_i = S up to
// rounding. An error, with dst untouched, is returned for mismatched
// lengths; for S < 0, NaN or ±Inf; for a T_i < 0, NaN or ±Inf or a β_i ≤ 1,
// NaN or ±Inf (naming the job); and when ΣT_i or ΣT_i/√(β_i−1) (β_i < 2)
// exceeds MaxFloat64/2 ≈ 9e307, naming the job at which the sum in index
// order does. Every other input, from subnormal T_i and S to 1e308, is
// answered: a proportional share x/W·S is formed without letting x/W
// underflow, so a job's share is lost only when it lies below the smallest
// subnormal. dst must not overlap remaining or beta (it is written while
// they are read): a dst that would be reused and overlaps one is an error
// with Field "dst".
func Allocate(dst, remaining, beta []float64, slots float64, ws *Workspace) ([]float64, error) {
	const fn = "stragglers.Allocate"
	// Validation, then the kernel: the shape dag.Allocate shares on purpose.
	if err := disjoint(fn, dst, remaining, beta); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	if err := ws.prepare(fn, remaining, beta, slots); err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(remaining))[:len(remaining)]
	ws.fill.Fill(dst, remaining, slots)
	return dst, nil
}

// AllocateSlots is the integer form of Allocate: the real-valued allocation
// for S = slots, rounded by alloc.Apportion (largest remainder), equal
// remainders going to the job with fewer remaining tasks, then to the
// smaller index. The result sums to exactly slots whenever some job has work
// (to 0 otherwise), and every job is within one slot of its real-valued
// share. (Near 2^53, where float64 spaces integers 1 apart, the
// real-valued shares are themselves rounded by a few slots and sum to S
// only to within that; the rounding hands out or takes back the
// difference too.)
//
// Complexity: O(n) time; allocation-free with a dst of capacity n and a
// reused ws. Errors are those of Allocate (dst must not overlap remaining
// or beta), with slots < 0 or > alloc.MaxTotal rejected.
func AllocateSlots(dst []int, remaining, beta []float64, slots int, ws *Workspace) ([]int, error) {
	const fn = "stragglers.AllocateSlots"
	if err := disjoint(fn, dst, remaining, beta); err != nil {
		return nil, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	if err := ws.prepare(fn, remaining, beta, float64(slots)); err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(remaining))[:len(remaining)]
	ws.fill.Slots(dst, remaining, slots)
	return dst, nil
}

// disjoint applies the library's rule for a dst (check.Disjoint) to the
// inputs of an allocation: a dst that would be reused for the n =
// len(remaining) shares must not overlap remaining or beta.
func disjoint[D any](fn string, dst []D, remaining, beta []float64) error {
	if err := check.Disjoint(fn, dst, len(remaining), "remaining", remaining); err != nil {
		return err
	}
	return check.Disjoint(fn, dst, len(remaining), "beta", beta)
}

// prepare validates the arguments and records every job in the kernel's
// workspace (waterfill.Workspace.Add), in index order, in the same pass.
func (ws *Workspace) prepare(fn string, remaining, beta []float64, slots float64) error {
	if err := check.Len(fn, "beta", len(beta), len(remaining)); err != nil {
		return err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return err
	}
	ws.fill.Reset(len(remaining))
	for i, t := range remaining {
		if !(t >= 0 && t <= math.MaxFloat64) {
			return check.NonNegative(fn, i, "remaining", t)
		}
		b := beta[i]
		if !(b > 1 && b <= math.MaxFloat64) {
			return check.Err(fn, i, "beta", b, "must be a finite number > 1")
		}
		if total, sumW := ws.fill.Add(t, b); total > waterfill.MaxSum || sumW > waterfill.MaxSum {
			return check.Err(fn, i, "remaining", t, "ΣT_i or ΣT_i/√(β_i−1) over the jobs exceeds MaxFloat64/2")
		}
	}
	ws.fill.Finish(remaining)
	return nil
}
