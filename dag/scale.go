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
// The common case costs one multiplication more than the unscaled
// algorithm: prepare computes Ṽ_i with w_i = √α_i (a common factor √α_min
// away from the w above, which changes no comparison) and checks that every
// T_i·√α_i and every Ṽ_i is a normal number and that no sum of them can
// overflow; only otherwise does allocate recompute each Ṽ_i relative to
// α_min, without intermediate underflow or overflow (virtual).
//
// The slots are results in the caller's units, each accurate on its own: a
// target t_i = V_i/√α_min^(m) is Ṽ_i·2^−k/w_min^(m) when these are normal
// numbers, and otherwise (2/β)·T_i·√α_i/√α_min^(m) from the inputs; a
// proportional share S·V_i/ΣV is S·(Ṽ_i/ΣṼ) when every Ṽ_i and every ratio
// is a normal number, and otherwise computed with the exponents kept apart
// (math.Frexp), so that a share far below the others', or a job whose size
// is subnormal, keeps its full precision.

// minNormal is the smallest positive normal float64, 2^−1022.
const minNormal = 0x1p-1022

// scale holds the scaled problem the search works on.
type scale struct {
	c          float64 // 2/β, or 1 for β ≥ 2
	invSqrtMin float64 // 1/√α_min over the active jobs, or 1 (prepare)
	slots      float64 // S̃ = S·2^exp ∈ [1, 2)
	exp        int     // k
	cs         float64 // c·2^k when fast, else 0
	fast       bool    // c·2^k is a normal number: Ṽ = (T·w)·cs
}

// newScale prepares the scaled problem for S (nothing for S = 0), with
// invSqrtMin = 1.
func newScale(c, slots float64) scale {
	s := scale{c: c, invSqrtMin: 1}
	if slots == 0 {
		return s
	}
	frac, e := math.Frexp(slots) // slots = frac·2^e, frac ∈ [0.5, 1)
	s.slots, s.exp = 2*frac, 1-e
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

// targets computes the speculation targets t_i = V_i/√α_min^(m) of case
// 2 in the caller's units.
type targets struct {
	sc       *scale
	sqrtMin  float64 // √α_min^(m)
	factor   float64 // 2^−k/w_min^(m): t_i = Ṽ_i·factor
	viaScale bool    // factor is a normal number
}

func (s *scale) targets(minAlpha, wMin float64) targets {
	f := math.Ldexp(1/wMin, -s.exp)
	return targets{sc: s, sqrtMin: math.Sqrt(minAlpha), factor: f, viaScale: f >= minNormal && f <= math.MaxFloat64}
}

// of returns job r's target: Ṽ_i·factor when both are normal numbers (a
// correctly rounded product of two accurate values); otherwise from T_i and
// α_i, as (c·T)·√α_i/√α_min^(m) for a normal T, which can only overflow
// when t does, and with the exponents apart for a subnormal T, whose few
// bits the ratio must not multiply up.
func (tg *targets) of(r *record, jobs []Job) float64 {
	if tg.viaScale && r.v >= minNormal {
		return r.v * tg.factor
	}
	remaining, ratio := jobs[r.idx].Remaining, math.Sqrt(r.alpha)/tg.sqrtMin
	if remaining >= minNormal {
		return tg.sc.c * remaining * ratio
	}
	return product(tg.sc.c, remaining, ratio, 0)
}
