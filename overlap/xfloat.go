package overlap

import "math"

// An xfloat is m·2^e with m = 0 or 0.5 ≤ m < 1 and an unbounded (int)
// exponent e: a non-negative float64 that cannot overflow or underflow.
//
// The rates of the model are products and quotients of accepted inputs —
// a rate-limited shuffle rate is (y/x)·p, and SplitSRPT's p is s/(1+β) with
// β = max(x_b/y_b, y_b/x_b) — whose intermediate values leave float64's
// range although the rate itself does not: x = 1e-300, y = 1e300 give
// y/x = 1e600 = +Inf and μ₁ = 1e-600 = 0, but (y/x)·μ₁·s = s. Forming them
// in xfloat and rounding once at the end (float) gives the exact rate
// rounded to float64, with a relative error of a few ulps (each mul and
// div rounds its mantissa once).
type xfloat struct {
	m float64
	e int
}

// xf converts v ≥ 0 (finite) exactly.
func xf(v float64) xfloat {
	m, e := math.Frexp(v)
	return xfloat{m, e}
}

// mul returns a·b.
func (a xfloat) mul(b xfloat) xfloat {
	m, e := math.Frexp(a.m * b.m)
	return xfloat{m, e + a.e + b.e}
}

// div returns a/b; b must not be zero.
func (a xfloat) div(b xfloat) xfloat {
	m, e := math.Frexp(a.m / b.m)
	return xfloat{m, e + a.e - b.e}
}

// less reports whether a < b.
func (a xfloat) less(b xfloat) bool {
	switch {
	case a.m == 0 || b.m == 0:
		return a.m < b.m
	case a.e != b.e:
		return a.e < b.e
	}
	return a.m < b.m
}

// float returns a rounded to float64: +Inf above MaxFloat64, a subnormal or
// 0 below the smallest normal (math.Ldexp rounds once).
func (a xfloat) float() float64 {
	switch {
	case a.m == 0:
		return 0
	case a.e > 1100:
		return math.Inf(1)
	case a.e < -1100:
		return 0
	}
	return math.Ldexp(a.m, a.e)
}

// scaledRate returns y·p/x rounded to float64, for y ≥ 0, x > 0 and an
// exact rate p whose rounding is pf: the shuffle rate at which a map rate p
// produces shuffle work for a job of sizes (x, y) (constraint (1)). Where
// p, y/x and the product are normal floats (the common case) it is one
// division and one multiplication; otherwise it is formed in xfloat.
func scaledRate(y, x float64, p xfloat, pf float64) float64 {
	if pf >= minNormal {
		if r := y / x; r >= minNormal && r <= maxRatio {
			if q := r * pf; q >= minNormal && q <= math.MaxFloat64 {
				return q
			}
		}
	}
	return xf(y).mul(p).div(xf(x)).float()
}

// minNormal is the smallest normal float64, 2^-1022.
const minNormal = 0x1p-1022

// maxRatio bounds the fast path of scaledRate: y/x below it times a finite
// p is finite or +Inf, never NaN, and rounds only once more.
const maxRatio = 0x1p1000

// splitShares returns SplitSRPT's μ₁ = 1/(1+β) and μ₂ = β/(1+β) for
// β = hi/lo, the least imbalance (hi = max(x_b, y_b), lo = min(x_b, y_b) of
// the job b that attains it), as lo/(lo+hi) and hi/(lo+hi): exact for every
// pair of accepted sizes (β itself may exceed MaxFloat64), with the limits
// μ₁ = 0, μ₂ = 1 at lo = 0 (β = +∞). hi must be > 0.
func splitShares(hi, lo float64) (mu1, mu2 xfloat) {
	// lo + hi, formed relative to hi's exponent so that it cannot overflow.
	mh, eh := math.Frexp(hi)
	m, e := math.Frexp(mh + math.Ldexp(lo, -eh))
	sum := xfloat{m, e + eh}
	return xf(lo).div(sum), xf(hi).div(sum)
}

// lessImbalance reports whether the imbalance hi1/lo1 is below hi2/lo2
// (hi ≥ lo ≥ 0, hi > 0; lo = 0 is +∞), exactly up to one rounding of each
// quotient, even where the quotients exceed MaxFloat64.
func lessImbalance(hi1, lo1, hi2, lo2 float64) bool {
	if lo1 == 0 || lo2 == 0 {
		return lo1 > 0 && lo2 == 0
	}
	q1, q2 := hi1/lo1, hi2/lo2
	if q1 <= math.MaxFloat64 && q2 <= math.MaxFloat64 {
		return q1 < q2
	}
	return xf(hi1).div(xf(lo1)).less(xf(hi2).div(xf(lo2)))
}
