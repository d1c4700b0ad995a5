package dag

import "math"

// Algorithm 3 at every magnitude.
//
// The allocation is homogeneous in (T, T', S) — scaling the sizes and S by
// 2^k scales every S_i by 2^k — and depends on the weights only through
// their ratios. The cut-off search therefore works on a scaled copy of the
// snapshot in which S̃ = S·2^k lies in [1, 2) and the weights are measured
// against the least one, α_min (α over active jobs):
//
//	w_i = √α_i/√α_min ∈ [1, 2^1023),   Ṽ_i = (2/β)·T_i·w_i·2^k,
//
// so the predicate of Algorithm 3, Σ_{i≤m} V_i/√α_min^(m+1) ≥ S, reads
// Σ Ṽ_i/w_min^(m+1) ≥ S̃. Neither end of float64's range can then give a
// wrong answer: Ṽ_i ≥ (2/β)·T_i·2^k, so a Ṽ_i (or a sum) that underflows
// is below S̃·2^−1022 and cannot change the comparison; and one that
// overflows exceeds 2^1024, so divided by w_min ≤ 2^1023 it still exceeds
// 2 > S̃ — the comparison is true, as it is for the exact value. The bound
// w < 2^1023 needs α ≥ 2^−1022: a subnormal α is rejected.
//
// The slots themselves are computed from the inputs in the caller's units,
// not from Ṽ: a target t_i = (2/β)·T_i·√α_i/√α_min^(m) directly, and a
// proportional share S·V_i/ΣV from the ratio Ṽ_i/ΣṼ when every Ṽ_i and every
// ratio is a normal number, and otherwise with the exponents kept apart
// (math.Frexp), so that a share far below the others', or a job whose size
// is subnormal, keeps its full precision.

// minNormal is the smallest positive normal float64, 2^−1022.
const minNormal = 0x1p-1022

// scale holds the scaled problem the search works on.
type scale struct {
	c          float64 // 2/β, or 1 for β ≥ 2
	invSqrtMin float64 // 1/√α_min over the active jobs
	slots      float64 // S̃ = S·2^exp ∈ [1, 2)
	exp        int     // k
	cs         float64 // c·2^k, when fast
	fast       bool    // c·2^k is a normal number: Ṽ = (T·w)·cs
}

// newScale prepares the scaled problem for S > 0 and the least active
// weight minAlpha ≥ 2^−1022.
func newScale(c, slots, minAlpha float64) scale {
	frac, e := math.Frexp(slots) // slots = frac·2^e, frac ∈ [0.5, 1)
	s := scale{c: c, invSqrtMin: 1 / math.Sqrt(minAlpha), slots: 2 * frac, exp: 1 - e}
	if s.exp >= -1021 && s.exp <= 1021 {
		s.cs, s.fast = math.Ldexp(c, s.exp), true
	}
	return s
}

// weight is w = √α/√α_min.
func (s *scale) weight(alpha float64) float64 { return math.Sqrt(alpha) * s.invSqrtMin }

// virtual returns Ṽ = c·T·w·2^k for T > 0, with one rounding more than the
// exact product at most and no intermediate underflow or overflow: T·w
// when it is a normal number, times c·2^k; otherwise the exponents apart.
func (s *scale) virtual(remaining, alpha float64) float64 {
	w := s.weight(alpha)
	if x := remaining * w; s.fast && x >= minNormal && x <= math.MaxFloat64 {
		return x * s.cs
	}
	return product(s.c, remaining, w, s.exp)
}

// product returns a·b·c·2^e for a ∈ [1, 2), b > 0 finite and c ∈ [1,
// 2^1023): the mantissas multiplied (a value below 2^1024), then the
// exponents, so that nothing is rounded to a subnormal or to ±Inf before
// the result is.
func product(a, b, c float64, e int) float64 {
	fb, eb := math.Frexp(b)
	fc, ec := math.Frexp(c)
	return math.Ldexp(a*fb*fc, eb+ec+e)
}

// target returns t = c·T·ratio in the caller's units (ratio = √α_i/√α_min
// ∈ [1, 2^1023)): (c·T)·ratio for a normal T, which can only overflow when
// t does; for a subnormal T, with its exponent apart, so that the
// subnormal's few bits are not multiplied up by ratio.
func (s *scale) target(remaining, ratio float64) float64 {
	if remaining >= minNormal {
		return s.c * remaining * ratio
	}
	return product(s.c, remaining, ratio, 0)
}
