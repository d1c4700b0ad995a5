package overlap

import "testing"

// TestRemainingShuffleAtLeastAvailable: yr's doc — while the map runs the
// remaining shuffle work is y − yd, "at least avail, which the rounding of
// yd could otherwise cross when xr is tiny". A job of map 1 and shuffle 1
// served at exactly its production rate (q = g = 1, so avail stays 0)
// advances by intervals chosen so that the two running sums round
// against each other: while xr ≥ 1/2, each step's remainder is just
// below half an ulp of xr (xr is left a little high), and once yd ≥ 1/2,
// just above half an ulp of yd (yd comes out a little high). After about
// 10⁵ such intervals yd + xr exceeds 1 by some 10⁻¹¹; a last interval
// leaves xr at about 5·10⁻¹² (above snapTol, so the map still runs), and
// yd is then above 1: y − yd < 0 = avail. The remaining shuffle work must
// still be ≥ avail ≥ 0 (constraint (1) of the overlap paper: the shuffle
// work left is never below what the map has produced and not served).
func TestRemainingShuffleAtLeastAvailable(t *testing.T) {
	t.Parallel()
	j := simJob{x: 1, y: 1, ratio: 1, xr: 1}
	j.setMap(xf(1), 1)
	j.q = j.g
	const u = 0x1p-53 // the ulp of [1/2, 1)
	below, above := 0x1p-17+0.4999*u, 0x1p-17+0.5001*u
	check := func(step int) {
		if r := j.yr(); r < j.avail || r < 0 {
			t.Fatalf("step %d: xr %v, yd %v, avail %v: remaining shuffle %v, below the available work", step, j.xr, j.yd, j.avail, r)
		}
	}
	step := 0
	for ; j.xr-below >= 0.5; step++ {
		j.advance(below)
		check(step)
	}
	for ; j.xr > 2*above; step++ {
		tau := below
		if j.yd >= 0.5 {
			tau = above
		}
		j.advance(tau)
		check(step)
	}
	j.advance(j.xr - 5e-12)
	if j.xr <= snapTol || j.avail != 0 {
		t.Fatalf("the construction failed: xr %v (want above %v), avail %v (want 0)", j.xr, snapTol, j.avail)
	}
	if j.yd <= 1 {
		t.Fatalf("the construction failed: yd %v, not above y = 1 (the case the test is for)", j.yd)
	}
	check(step)
	if got := j.yr(); got != 0 {
		t.Errorf("remaining shuffle work %v, want 0 (= avail, the larger of y − yd < 0 and avail)", got)
	}
}
