// Package scale holds the float64 arithmetic that several allocation
// packages need at the edges of float64's range.
package scale

import "math"

// MinNormal is the smallest positive normal float64, 2^−1022: below it a
// quotient keeps fewer than 53 significant bits.
const MinNormal = 0x1p-1022

// Share returns t/total·s, the part of s that t is of total, for
// 0 ≤ t ≤ total, total > 0 and s ≥ 0, all finite, computed on the
// mantissas in [½, 1) with the powers of two applied once at the end
// (math.Ldexp), so that no intermediate underflows or overflows: the share
// is rounded from its exact value (two roundings of the mantissa product
// and one of the result) and is 0 only when that value rounds to 0. It is
// the slow path of a proportional share whose quotient t/total falls below
// MinNormal (1e−200 of a pool of 1e200 sharing 1e300 slots is 1e−100, not
// 0); callers take r·s directly when r = t/total ≥ MinNormal. −0 gives +0.
// O(1).
func Share(t, total, s float64) float64 {
	if t == 0 || s == 0 {
		return 0
	}
	mt, et := math.Frexp(t)
	mTotal, eTotal := math.Frexp(total)
	ms, es := math.Frexp(s)
	return math.Ldexp(mt/mTotal*ms, et-eTotal+es)
}
