package stragglers

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/waterfill"
)

// TwoClasses is Algorithm 4 of the thesis (§4.2, Theorem 3) as written, for
// jobs in two classes with different Pareto tails: type I with tail index
// β₁ and type II with β₂, β₁ < β₂ (type I has the heavier tail). With
// ΣT_I, ΣT_II the classes' remaining tasks and
//
//		θ = (2/β₂)·√((β₂−1)/(β₁−1))·ΣT_I,
//
//	 1. S ≤ θ: all S slots go to type I.
//	 2. θ < S ≤ θ + (2/β₂)·ΣT_II: type I gets θ, type II the rest.
//	 3. S > θ + (2/β₂)·ΣT_II: type I gets
//	    (ΣT_I/√(β₁−1)) / (ΣT_I/√(β₁−1) + ΣT_II/√(β₂−1)) · S, type II the rest.
//
// Within each class the class's slots are shared by Algorithm 1
// (alloc.Allocate with the class's β). The thesis writes case 1 as S < θ and
// case 2 as θ < S, leaving S = θ in neither; both give type I all θ slots,
// and S = θ is put in case 1. It writes case 3 with ≥, overlapping case 2
// at S = θ + (2/β₂)·ΣT_II, where both give type I θ; case 2 is used there.
//
// The jobs' classes are given by their β: beta[i] is β₁ or β₂ — at most two
// distinct values, each in (1, 2) — and type I is the class with the
// smaller value, whichever order the values appear in. With one distinct
// value (or one class without work) everything goes to the class that has
// work, by Algorithm 1.
//
// Theorem 3: the allocation maximises Σμ_i (eq. 3.3). Allocate solves the
// same problem for any number of classes and equals TwoClasses for two.
//
// Complexity: O(n) time: a pass for the class totals and Algorithm 1 within
// each class. With a dst of capacity n and a reused ws it allocates nothing.
//
// Special cases: no jobs gives an empty result; S = 0 or no work gives all
// zeros; jobs with T_i = 0 get 0. An error, with dst untouched, is returned
// for mismatched lengths; for S < 0, NaN or ±Inf; for a T_i < 0, NaN or
// ±Inf; for a β_i outside (1, 2) — Algorithm 4 is written for tails with
// infinite variance; Allocate takes β ≥ 2 — or a third distinct β (naming
// the job); and when ΣT_i/√(β_i−1) over the jobs exceeds MaxFloat64/2 ≈
// 9e307 (Allocate's bound), naming the job at which the sum in index order
// does. Every other input, from subnormal T_i and S to 1e308, is answered,
// no share lost to an underflowing ratio (see Allocate). dst must not
// overlap remaining or beta: a dst that would be reused and overlaps one is
// an error with Field "dst".
func TwoClasses(dst, remaining, beta []float64, slots float64, ws *Workspace) ([]float64, error) {
	const fn = "stragglers.TwoClasses"
	if err := disjoint(fn, dst, remaining, beta); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	c, err := twoClasses(fn, remaining, beta, slots)
	if err != nil {
		return nil, err
	}
	n := len(remaining)
	ws.algorithm4(remaining, beta, slots, c)
	dst = slices.Grow(dst[:0], n)[:n]
	ws.scatterClasses(dst, beta, c)
	return dst, nil
}

// TwoClassesSlots is the integer form of TwoClasses: its real-valued
// allocation for S = slots, rounded by alloc.Apportion (largest remainder),
// equal remainders going to the job with fewer remaining tasks, then to the
// smaller index. The result sums to exactly slots whenever some job has
// work, and every job is within one slot of its real-valued share (near
// 2^53, plus the few slots by which those shares are rounded: see
// AllocateSlots).
//
// Complexity: O(n); allocation-free with a dst of capacity n and a reused
// ws. Errors are those of TwoClasses (dst must not overlap remaining or
// beta), with slots < 0 or > alloc.MaxTotal rejected.
func TwoClassesSlots(dst []int, remaining, beta []float64, slots int, ws *Workspace) ([]int, error) {
	const fn = "stragglers.TwoClassesSlots"
	if err := disjoint(fn, dst, remaining, beta); err != nil {
		return nil, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	c, err := twoClasses(fn, remaining, beta, float64(slots))
	if err != nil {
		return nil, err
	}
	ws.algorithm4(remaining, beta, float64(slots), c)
	n := len(remaining)
	shares := selection.Shares(&ws.sel, n)
	ws.scatterClasses(shares, beta, c)
	total := 0
	if c.total[0]+c.total[1] > 0 {
		total = slots
	}
	dst = slices.Grow(dst[:0], n)[:n]
	selection.Apportion(&ws.sel, dst, shares, total, remaining)
	return dst, nil
}

// classes describes a validated two-class snapshot.
type classes struct {
	beta  [2]float64 // β₁ < β₂ (β₂ = β₁ with one class; both 0 with no job)
	total [2]float64 // ΣT per class
	count [2]int     // jobs per class
}

// twoClasses validates the arguments of Algorithm 4 and finds the classes
// and their totals, in one pass.
func twoClasses(fn string, remaining, beta []float64, slots float64) (classes, error) {
	var c classes
	if err := check.Len(fn, "beta", len(beta), len(remaining)); err != nil {
		return c, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return c, err
	}
	distinct := 0
	overflow := -1 // the first job at which ΣT_i/√(β_i−1) exceeds waterfill.MaxSum
	var sumW float64
	var root [2]float64 // √(β−1) of each class, taken once: the same value for each of its jobs
	for i, t := range remaining {
		if !(t >= 0 && t <= math.MaxFloat64) {
			return c, check.NonNegative(fn, i, "remaining", t)
		}
		b := beta[i]
		if !(b > 1 && b < 2) {
			return c, check.Err(fn, i, "beta", b, "must lie in (1, 2) for Algorithm 4; use Allocate for β ≥ 2")
		}
		k := 0 // the class, in order of first appearance
		switch {
		case distinct > 0 && b == c.beta[0]:
		case distinct > 1 && b == c.beta[1]:
			k = 1
		case distinct < 2:
			k = distinct
			c.beta[k] = b
			root[k] = math.Sqrt(b - 1)
			distinct++
		default:
			return c, check.Err(fn, i, "beta", b, "Algorithm 4 takes two classes: a third distinct β")
		}
		c.total[k] += t
		c.count[k]++
		// T/√(β−1) ≥ (2/β)·T for every β: the weights bound the virtual
		// sizes, θ and ΣT. The bound is Allocate's, in the same order.
		// Reported once every job is known valid.
		sumW += t / root[k]
		if overflow < 0 && sumW > waterfill.MaxSum {
			overflow = i
		}
	}
	if overflow >= 0 {
		return c, check.Err(fn, overflow, "remaining", remaining[overflow], "ΣT_i/√(β_i−1) over the jobs exceeds MaxFloat64/2")
	}
	switch {
	case distinct == 1:
		c.beta[1] = c.beta[0]
	case distinct == 2 && c.beta[1] < c.beta[0]:
		c.beta[0], c.beta[1] = c.beta[1], c.beta[0]
		c.total[0], c.total[1] = c.total[1], c.total[0]
		c.count[0], c.count[1] = c.count[1], c.count[0]
	}
	return c, nil
}

// algorithm4 computes the two classes' slots by Algorithm 4's cases and
// shares each class's slots by Algorithm 1, leaving the jobs of type I then
// type II (each in index order) in ws.subDst.
func (ws *Workspace) algorithm4(remaining, beta []float64, slots float64, c classes) {
	b1, b2 := c.beta[0], c.beta[1]
	t1, t2 := c.total[0], c.total[1]
	s1, s2 := slots, 0.0 // one class: everything to it (type II is empty)
	if b1 != b2 {
		theta := 2 / b2 * math.Sqrt((b2-1)/(b1-1)) * t1
		switch {
		case slots <= theta: // case 1
		case slots <= theta+2/b2*t2: // case 2
			s1, s2 = theta, slots-theta
		case t1+t2 > 0: // case 3 (with no work at all, nothing to split)
			// Both shares from their own weights: "the rest", S − s1, would
			// lose the digits of a class much smaller than the other.
			// portion keeps a share whose ratio w/(w1+w2) underflows; the
			// weights of totals near the subnormals are scaled first, as
			// Allocate's (waterfill.WeightScale), lest they lose digits.
			scale := 1.0
			if max(t1, t2) < 1/waterfill.WeightScale {
				scale = waterfill.WeightScale
			}
			w1, w2 := t1*scale/math.Sqrt(b1-1), t2*scale/math.Sqrt(b2-1)
			s1, s2 = waterfill.Portion(w1, w1+w2, slots), waterfill.Portion(w2, w1+w2, slots)
		}
	}
	n := len(remaining)
	ws.sub = slices.Grow(ws.sub[:0], n)[:0]
	ws.subDst = slices.Grow(ws.subDst[:0], n)[:n]
	for k, share := range [2]float64{s1, s2} {
		if c.beta[k] == 0 || (k == 1 && b1 == b2) {
			break // no job at all, or a single class
		}
		start := len(ws.sub)
		for i, t := range remaining {
			if beta[i] == c.beta[k] {
				ws.sub = append(ws.sub, t)
			}
		}
		// Algorithm 1 on the class: its jobs were validated above.
		class := ws.sub[start:]
		hopper.Allocate(ws.subDst[start:len(ws.sub)], class, max(0, share), hopper.Summarize(class, c.beta[k]), &ws.sel)
	}
}

// scatterClasses writes the slots algorithm4 left in ws.subDst back in
// input order.
func (ws *Workspace) scatterClasses(dst, beta []float64, c classes) {
	posI, posII := 0, c.count[0] // type II follows type I in ws.subDst
	for i := range beta {
		if beta[i] == c.beta[0] {
			dst[i] = ws.subDst[posI]
			posI++
		} else {
			dst[i] = ws.subDst[posII]
			posII++
		}
	}
}
