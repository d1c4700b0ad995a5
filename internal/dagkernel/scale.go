package dagkernel

import "math"

// Algorithm 3 at every magnitude.
//
// The allocation is homogeneous in (T, T', S): scaling the sizes and S by
// 2^k scales every S_i by 2^k. The cut-off search therefore works on the
// instance scaled so that S̃ = S·2^k lies in [1, 2), with the virtual sizes
// Ṽ_i = (2/β)·T_i·√α_i·2^k, and evaluates Algorithm 3's predicate
// Σ_{i≤m} V_i/√α_min^(m+1) ≥ S as Σ Ṽ_i/√α' ≥ S̃ (α' = α_min^(m+1)).
// Neither end of float64's range can then give a wrong answer, for any α
// in (0, MaxFloat64], because √α' lies in [2^−537, 2^512):
//
//   - a Ṽ_i (or a sum) that overflows exceeds 2^1024, so divided by √α'
//     it still exceeds 2^512 > S̃: the comparison is true, as it is for the
//     exact value;
//   - a Ṽ_i that underflows (below 2^−1022, where float64 loses bits or
//     gives 0) contributes less than 2^−1022·2^537 = 2^−485 to a quotient
//     compared with S̃ ≥ 1: it cannot change the comparison.
//
// What must not happen is an intermediate rounding: T_i·√α_i may overflow
// or underflow where Ṽ_i does not. prepare computes Ṽ_i as (T_i·√α_i)·c·2^k
// — one multiplication more than the unscaled algorithm — and reports the
// snapshot safe when every T_i·√α_i is a normal number and c·2^k is one;
// only otherwise does allocate recompute each Ṽ_i with the exponents kept
// apart (virtual).
//
// The slots are results in the caller's units, each accurate on its own: a
// target t_i = V_i/√α_min^(m) is Ṽ_i·2^−k/√α_min^(m) when these are normal
// numbers, and otherwise (2/β)·T_i·√α_i/√α_min^(m) with the exponents
// apart; a proportional share S·V_i/ΣV is S·(Ṽ_i/ΣṼ) when every Ṽ_i and
// every ratio is a normal number, and otherwise computed with the exponents
// apart (math.Frexp), so that a share far below the others', or a job whose
// size is subnormal, keeps its full precision.

// minNormal is the smallest positive normal float64, 2^−1022.
const minNormal = 0x1p-1022

// scale holds the scaled problem the search works on.
type scale struct {
	c     float64 // 2/β, or 1 for β ≥ 2
	slots float64 // S̃ = S·2^exp ∈ [1, 2)
	exp   int     // k
	cs    float64 // c·2^k
	fast  bool    // c·2^k is finite: Ṽ = (T·√α)·cs
}

// newScale prepares the scaled problem for S (nothing for S = 0).
func newScale(c, slots float64) scale {
	s := scale{c: c}
	if slots == 0 {
		return s
	}
	frac, e := math.Frexp(slots) // slots = frac·2^e, frac ∈ [0.5, 1)
	s.slots, s.exp = 2*frac, 1-e
	// k ≥ −1023 (S < 2^1024), so c·2^k is at least 2^−1023, a subnormal
	// with 52 bits: no more rounding than a normal number's. For a
	// subnormal S it overflows, and every Ṽ_i is computed apart.
	s.cs = math.Ldexp(c, s.exp)
	s.fast = s.cs <= math.MaxFloat64
	return s
}

// virtual returns Ṽ = c·T·√α·2^k for T > 0, with no intermediate underflow
// or overflow: T·√α when it is a normal number, times c·2^k; otherwise the
// exponents apart.
func (s *scale) virtual(remaining, alpha float64) float64 {
	w := math.Sqrt(alpha)
	if x := remaining * w; s.fast && x >= minNormal && x <= math.MaxFloat64 {
		return x * s.cs
	}
	return scaled(s.c, remaining, w, 1, s.exp)
}

// scaled returns a·b·c/d·2^e for a ∈ [1, 2) and b, c, d > 0 finite: the
// mantissas combined (a value in [2^−3, 4)), then the exponents, so that
// nothing is rounded to a subnormal, to 0 or to ±Inf before the result is.
func scaled(a, b, c, d float64, e int) float64 {
	fb, eb := math.Frexp(b)
	fc, ec := math.Frexp(c)
	fd, ed := math.Frexp(d)
	return math.Ldexp(a*fb*fc/fd, eb+ec-ed+e)
}

// targets computes the speculation targets t_i = V_i/√α_min^(m) of case
// 2 in the caller's units.
type targets struct {
	sc       *scale
	sqrtMin  float64 // √α_min^(m)
	factor   float64 // 2^−k/√α_min^(m): t_i = Ṽ_i·factor
	viaScale bool    // factor is a normal number
}

func (s *scale) targets(minAlpha float64) targets {
	sqrtMin := math.Sqrt(minAlpha)
	f := math.Ldexp(1/sqrtMin, -s.exp)
	return targets{sc: s, sqrtMin: sqrtMin, factor: f, viaScale: f >= minNormal && f <= math.MaxFloat64}
}

// of returns job r's target: Ṽ_i·factor when both are normal numbers (a
// correctly rounded product of two accurate values), otherwise
// c·T_i·√α_i/√α_min^(m) with the exponents apart.
func (tg *targets) of(r *record, jobs []Job) float64 {
	if tg.viaScale && r.v >= minNormal {
		return r.v * tg.factor
	}
	return scaled(tg.sc.c, jobs[r.idx].Remaining, math.Sqrt(r.alpha), tg.sqrtMin, 0)
}
