package stragglers

import "math"

// portion returns x/d·s, the part of s that x is of d, for 0 ≤ x ≤ d, d > 0
// and s ≥ 0, all finite. The result is at most s, so it cannot overflow;
// but x/d can underflow — 1e-300/1e300 is 0 — while x/d·s is a
// representable share (1e-300 of 1e300 slots), and x·s can overflow. In
// that rare case the three are split into mantissas and powers of two and
// the power applied last (math.Ldexp), so the share is right to within
// rounding at every magnitude. O(1).
func portion(x, d, s float64) float64 {
	if r := x / d; r >= 0x1p-1022 || x == 0 {
		return r * s // r is normal: full relative precision
	}
	fx, ex := math.Frexp(x)
	fd, ed := math.Frexp(d)
	fs, es := math.Frexp(s)
	return math.Ldexp(fx*fs/fd, ex+es-ed)
}
