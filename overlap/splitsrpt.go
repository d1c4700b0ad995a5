package overlap

import "math"

// splitClass returns SplitSRPT's class of a job: 0 for map-heavy (x ≥ y,
// the paper's S₁), 1 for shuffle-heavy (x < y, S₂).
func splitClass(x, y float64) int {
	if x >= y {
		return 0
	}
	return 1
}

// hiLo returns max(x, y) and min(x, y): the job's imbalance
// max(x/y, y/x) is hi/lo (+∞ when lo = 0).
func hiLo(x, y float64) (hi, lo float64) {
	if x >= y {
		return x, y
	}
	return y, x
}

// imbalanceKey returns a job's imbalance hi/lo as a pair that orders
// exactly like it even where hi/lo exceeds MaxFloat64: (e, m) with
// hi/lo = m·2^e, 0.5 ≤ m < 1, and (+∞, 0) when lo = 0.
func imbalanceKey(x, y float64) (e, m float64) {
	hi, lo := hiLo(x, y)
	if lo == 0 {
		return math.Inf(1), 0
	}
	q := xf(hi).div(xf(lo))
	return float64(q.e), q.m
}

// splitRates writes SplitSRPT's rates (Algorithm 2; see the SplitSRPT and
// SplitSRPTStrict constants). Within a class both stations serve in the
// class's SRPT order, the shuffle station work conserving within the class
// (shuffleShare). With shared set, capacity one class leaves unused at a
// station goes to the other class: map capacity when the class has no map
// work, shuffle capacity its jobs cannot take.
func splitRates(dst []Rate, jobs []Job, speed float64, shared bool) {
	// One pass: β(t), and the heads of class 0 (map-heavy, ordered by
	// x(t)) and class 1 (shuffle-heavy, ordered by y(t)).
	// β(t) = bHi/bLo (bLo = 0: +∞), bHi > 0 once a job is present; bQ is
	// its rounding. A rounded quotient below bQ is an exactly smaller
	// imbalance (rounding is monotone); only quotients that both overflow
	// need lessImbalance's exact comparison.
	bHi, bLo, bQ := 0.0, 0.0, math.Inf(1)
	f := [2]headFinder{newHeadFinder(), newHeadFinder()}
	for i := range jobs {
		j := &jobs[i]
		xr, yr := j.RemainingMap, j.RemainingShuffle
		if xr == 0 && yr == 0 {
			continue
		}
		hi, lo := hiLo(j.Map, j.Shuffle)
		if q := hi / lo; bHi == 0 || q < bQ || (q > math.MaxFloat64 && lessImbalance(hi, lo, bHi, bLo)) {
			bHi, bLo, bQ = hi, lo, q
		}
		c, k := 0, xr
		if j.Map < j.Shuffle {
			c, k = 1, yr
		}
		if !f[c].beyond(k) {
			f[c].offer(i, k, j.Arrival, xr > 0, yr > 0, hasAvail(j))
		}
	}
	if bHi == 0 {
		return // no job present
	}
	keys := [2]orderKey{keyMap, keyShuffle}
	h := [2]heads{f[0].heads(), f[1].heads()}
	mu1, mu2 := splitShares(bHi, bLo)
	pcapX, pcap, scap := splitCapacities(mu1, mu2, speed, shared, h[0].m >= 0, h[1].m >= 0)
	var qm, qo [2]float64
	var other [2]int
	for c := range h {
		qm[c], qo[c], other[c] = orderedShuffle(jobs, h[c], keys[c], pcapX[c], scap[c], false)
	}
	if shared {
		// Each class's own capacity plus what the other left, at most s
		// (μ₁·s and μ₂·s are rounded separately, so their sum may exceed
		// s by an ulp; and the form s − used would lose a class's own
		// capacity when it is below that ulp: β = 2^53 gives μ₁ = 2^-53
		// and μ₂ = 1).
		used0, used1 := qm[0]+qo[0], qm[1]+qo[1]
		qm[0], qo[0], other[0] = orderedShuffle(jobs, h[0], keys[0], pcapX[0], math.Min(speed, scap[0]+(scap[1]-used1)), false)
		qm[1], qo[1], other[1] = orderedShuffle(jobs, h[1], keys[1], pcapX[1], math.Min(speed, scap[1]+(scap[0]-used0)), false)
	}
	for c := range h {
		if h[c].m >= 0 {
			dst[h[c].m].Map = pcap[c]
			dst[h[c].m].Shuffle = qm[c]
		}
		if other[c] >= 0 {
			dst[other[c]].Shuffle = qo[c]
		}
	}
}

// splitCapacities returns SplitSRPT's map capacities of the map-heavy
// class 0 and the shuffle-heavy class 1, exact (pcapX, for the shuffle
// limits (y/x)·p of constraint (1)) and rounded (pcap), and their shuffle
// capacities: μ₂·s and μ₁·s at the map station, μ₁·s and μ₂·s at the
// shuffle station, with μ₁ and μ₂ from splitShares. With shared set,
// a class without map work (has0 or has1 false) leaves its map capacity to
// the other, which then gets all of s.
func splitCapacities(mu1, mu2 xfloat, speed float64, shared, has0, has1 bool) (pcapX [2]xfloat, pcap, scap [2]float64) {
	s := xf(speed)
	pcapX = [2]xfloat{mu2.mul(s), mu1.mul(s)}
	if shared && !has0 {
		pcapX[1] = s
	}
	if shared && !has1 {
		pcapX[0] = s
	}
	pcap = [2]float64{pcapX[0].float(), pcapX[1].float()}
	scap = [2]float64{mu1.mul(s).float(), mu2.mul(s).float()}
	return pcapX, pcap, scap
}
