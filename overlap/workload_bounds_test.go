package overlap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGenerateBoundsInclusive: Generate's documented ranges are closed —
// Load in [1e-9, 1e9], each mean in [1e-100, 1e100], each standard
// deviation at most 10⁶ times its mean — so their ends are accepted and
// the floats just past them refused; and a dst of capacity exactly n is
// reused, not reallocated.
func TestGenerateBoundsInclusive(t *testing.T) {
	t.Parallel()
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	ok := func(w Workload) bool {
		_, err := w.Generate(nil, 3, rng())
		return err == nil
	}
	base := PaperWorkload(0.5)
	for _, c := range []struct {
		name string
		set  func(w *Workload, v float64)
		lo   float64 // the range's ends, or NaN for none
		hi   float64
	}{
		{"Load", func(w *Workload, v float64) { w.Load = v }, 1e-9, 1e9},
		{"MapMean", func(w *Workload, v float64) { w.MapMean, w.MapSD = v, 0 }, 1e-100, 1e100},
		{"RatioMean", func(w *Workload, v float64) { w.RatioMean, w.RatioSD = v, 0 }, 1e-100, 1e100},
	} {
		for _, v := range []float64{c.lo, c.hi} {
			w := base
			c.set(&w, v)
			if !ok(w) {
				t.Errorf("%s = %g (an end of its range) refused", c.name, v)
			}
		}
		for _, v := range []float64{math.Nextafter(c.lo, 0), math.Nextafter(c.hi, math.Inf(1))} {
			w := base
			c.set(&w, v)
			if ok(w) {
				t.Errorf("%s = %g (outside its range) accepted", c.name, v)
			}
		}
	}
	for _, sd := range []struct {
		v      float64
		accept bool
	}{{1e6, true}, {math.Nextafter(1e6, math.Inf(1)), false}} {
		w := base
		w.MapMean, w.MapSD = 1, sd.v
		if ok(w) != sd.accept {
			t.Errorf("MapSD = %g for MapMean 1: accepted %v, want %v", sd.v, !sd.accept, sd.accept)
		}
		w = base
		w.RatioMean, w.RatioSD = 1, sd.v
		if ok(w) != sd.accept {
			t.Errorf("RatioSD = %g for RatioMean 1: accepted %v, want %v", sd.v, !sd.accept, sd.accept)
		}
	}
	dst := make([]Arrival, 4)
	got, err := base.Generate(dst, 4, rng())
	if err != nil || len(got) != 4 || &got[0] != &dst[0] {
		t.Errorf("Generate into a dst of capacity n: %v (reused %v)", err, err == nil && &got[0] == &dst[0])
	}
}

// TestLogNormalParamsSmallCV, worked by hand: for cv = sd/mean ≤ 2^-30
// the log-normal's σ² = ln(1 + cv²) is cv² to within cv⁴/2, so with mean 1
// (ln 1 = 0) and sd = 2^-40, σ = 2^-40 and μ = −σ²/2 = −2^-81 (the next
// term, cv⁴/4 = 2^-162, is far below an ulp of it).
func TestLogNormalParamsSmallCV(t *testing.T) {
	t.Parallel()
	mu, sigma, err := LogNormalParams(1, 0x1p-40)
	if err != nil || sigma != 0x1p-40 || mu != -0x1p-81 {
		t.Errorf("LogNormalParams(1, 2^-40) = %x, %x, %v; want −2^-81, 2^-40", mu, sigma, err)
	}
}
