package waterfill

import "github.com/specsched/specsched/internal/scale"

// Portion returns x/d·s, the part of s that x is of d, for 0 ≤ x ≤ d, d > 0
// and s ≥ 0, all finite. The result is at most s, so it cannot overflow;
// but x/d can underflow — 1e-300/1e300 is 0 — while x/d·s is a
// representable share (1e-300 of 1e300 slots), and x·s can overflow. In
// that rare case scale.Share splits the three into mantissas and powers of
// two and applies the power last, so the share is right to within rounding
// at every magnitude. O(1).
func Portion(x, d, s float64) float64 {
	if r := x / d; r >= scale.MinNormal || x == 0 {
		return r * s // r is normal: full relative precision
	}
	return scale.Share(x, d, s)
}
