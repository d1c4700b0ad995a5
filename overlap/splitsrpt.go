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

// imbalance is max(x/y, y/x), +Inf when a size is zero.
func imbalance(x, y float64) float64 {
	if x == 0 || y == 0 {
		return math.Inf(1)
	}
	return math.Max(x/y, y/x)
}

// splitShares returns SplitSRPT's μ₁ = 1/(1+β) and μ₂ = β/(1+β), with the
// limits μ₁ = 0, μ₂ = 1 at β = +∞.
func splitShares(beta float64) (mu1, mu2 float64) {
	if math.IsInf(beta, 1) {
		return 0, 1
	}
	return 1 / (1 + beta), beta / (1 + beta)
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
	beta := math.Inf(1)
	present := false
	f := [2]headFinder{newHeadFinder(), newHeadFinder()}
	for i := range jobs {
		j := &jobs[i]
		xr, yr := j.RemainingMap, j.RemainingShuffle
		if xr == 0 && yr == 0 {
			continue
		}
		present = true
		if b := imbalance(j.Map, j.Shuffle); b < beta {
			beta = b
		}
		c, k := 0, xr
		if j.Map < j.Shuffle {
			c, k = 1, yr
		}
		if !f[c].beyond(k) {
			f[c].offer(i, k, j.Arrival, xr > 0, yr > 0, hasAvail(j))
		}
	}
	if !present {
		return
	}
	mu1, mu2 := splitShares(beta)
	keys := [2]orderKey{keyMap, keyShuffle}
	pcap := [2]float64{mu2 * speed, mu1 * speed}
	scap := [2]float64{mu1 * speed, mu2 * speed}
	h := [2]heads{f[0].heads(), f[1].heads()}
	if shared {
		p0, p1 := pcap[0], pcap[1]
		if h[0].m < 0 {
			pcap[1] = p0 + p1
		}
		if h[1].m < 0 {
			pcap[0] = p0 + p1
		}
	}
	var qm, qo [2]float64
	var other [2]int
	for c := range h {
		qm[c], qo[c], other[c] = orderedShuffle(jobs, h[c], keys[c], pcap[c], scap[c], false)
	}
	if shared {
		left0 := scap[0] - (qm[0] + qo[0])
		left1 := scap[1] - (qm[1] + qo[1])
		qm[0], qo[0], other[0] = orderedShuffle(jobs, h[0], keys[0], pcap[0], scap[0]+left1, false)
		qm[1], qo[1], other[1] = orderedShuffle(jobs, h[1], keys[1], pcap[1], scap[1]+left0, false)
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
