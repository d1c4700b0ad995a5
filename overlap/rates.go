package overlap

import (
	"math"
)

// A Workspace holds the scratch memory of Rates, Simulate, LowerBound and
// RunExperiment. The zero value is ready to use; it grows to the largest
// input seen and is then reused, so repeated calls allocate nothing. A nil
// *Workspace is allowed (a temporary one is allocated). A Workspace must not
// be used by concurrent calls.
type Workspace struct {
	selected []int        // k-LPS: indices of the jobs in map service
	limits   []limitEntry // k-LPS: the rate-limited jobs of the water-fill
	prio     prioEngine
	lps      lpsEngine
	srpt     srptQueue
	resp     [2][]float64 // LowerBound: SRPT response times on x and on y
	workload []Arrival    // RunExperiment
	times    []float64    // RunExperiment
}

// Rates returns the rate each job of the snapshot jobs gets at this instant
// under policy, with both stations of speed speed, in dst[i] for jobs[i].
//
// The policies are described at the Kind constants (MaxSRPT: §4.1,
// Algorithm 1; SplitSRPT: §4.2, Algorithm 2; KLPS: §5.1). Every returned
// vector is feasible for constraint (1) and the station speeds: rates are ≥
// 0, each station's rates sum to at most speed, a job gets map rate only if
// it has map work left and shuffle rate only if it has shuffle work left,
// and a job with no available shuffle work gets a shuffle rate of at most
// (Shuffle/Map)·(its map rate), so its available work never goes negative.
//
// Time: O(n) for MaxSRPT, MaxSRPTStrict, SplitSRPT, SplitSRPTStrict and
// FIFO (one pass; no sort); O(n log k + k log k) for KLPS with limit k.
// With a reused dst and Workspace it allocates nothing.
//
// Special cases: no jobs, or only jobs that have left (both remaining sizes
// zero), give an empty or all-zero result; speed 0 gives all-zero rates. A
// job with Map = 0 has all its shuffle work available at once; a job with
// Shuffle = 0 gets no shuffle rate. For SplitSRPT, β(t) is +∞ when every
// job present has a zero size (μ₁ = 0, μ₂ = 1: map-heavy jobs, which then
// have no shuffle work, get the whole map station; shuffle-heavy jobs, which
// have no map work, the whole shuffle station).
func Rates(dst []Rate, jobs []Job, speed float64, policy Policy, ws *Workspace) ([]Rate, error) {
	const fn = "overlap.Rates"
	if err := validateSpeed(fn, speed, true); err != nil {
		return nil, err
	}
	if err := validatePolicy(fn, policy); err != nil {
		return nil, err
	}
	if err := validateJobs(fn, jobs); err != nil {
		return nil, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	n := len(jobs)
	if cap(dst) < n {
		dst = make([]Rate, n)
	}
	dst = dst[:n]
	clear(dst)
	if speed == 0 {
		return dst, nil
	}
	switch policy.Kind {
	case MaxSRPT, MaxSRPTStrict:
		orderedRates(dst, jobs, -1, keyMax, speed, speed, policy.Kind == MaxSRPTStrict)
	case FIFO:
		orderedRates(dst, jobs, -1, keyArrival, speed, speed, false)
	case SplitSRPT, SplitSRPTStrict:
		splitRates(dst, jobs, speed, policy.Kind == SplitSRPT)
	case KLPS:
		klpsRates(dst, jobs, speed, policy.k(), ws)
	}
	return dst, nil
}

// orderKey names the quantity a priority order sorts on.
type orderKey uint8

const (
	keyMax     orderKey = iota // max(x_i(t), y_i(t)): MaxSRPT
	keyMap                     // x_i(t): SplitSRPT's map-heavy class
	keyShuffle                 // y_i(t): SplitSRPT's shuffle-heavy class
	keyArrival                 // r_i: FIFO
)

func snapshotKey(key orderKey, j *Job) float64 {
	switch key {
	case keyMax:
		return math.Max(j.RemainingMap, j.RemainingShuffle)
	case keyMap:
		return j.RemainingMap
	case keyShuffle:
		return j.RemainingShuffle
	default:
		return j.Arrival
	}
}

// precedes reports whether job i comes before job l in the order of key:
// by key, then arrival, then index.
func precedes(jobs []Job, key orderKey, i, l int) bool {
	ki, kl := snapshotKey(key, &jobs[i]), snapshotKey(key, &jobs[l])
	if ki != kl {
		return ki < kl
	}
	if jobs[i].Arrival != jobs[l].Arrival {
		return jobs[i].Arrival < jobs[l].Arrival
	}
	return i < l
}

// splitClass returns SplitSRPT's class of a job: 0 for map-heavy (x ≥ y,
// the paper's S₁), 1 for shuffle-heavy (x < y, S₂).
func splitClass(x, y float64) int {
	if x >= y {
		return 0
	}
	return 1
}

// heads are the jobs of one class that a priority policy can serve: m, the
// first job with map work left (the map station's job); a, the first job
// other than m with available shuffle work (the job the work-conserving
// shuffle station serves after m); s, the first job with shuffle work left
// (the strict shuffle station's job). -1 means none.
type heads struct{ m, a, s int }

// findHeads finds the heads of class cls (-1: all jobs) in one pass.
func findHeads(jobs []Job, cls int, key orderKey) heads {
	h := heads{-1, -1, -1}
	a1, a2 := -1, -1 // the two first jobs with available shuffle work
	for i := range jobs {
		j := &jobs[i]
		if j.RemainingMap == 0 && j.RemainingShuffle == 0 {
			continue // has left
		}
		if cls >= 0 && splitClass(j.Map, j.Shuffle) != cls {
			continue
		}
		if j.RemainingMap > 0 && (h.m < 0 || precedes(jobs, key, i, h.m)) {
			h.m = i
		}
		if j.RemainingShuffle > 0 && (h.s < 0 || precedes(jobs, key, i, h.s)) {
			h.s = i
		}
		if j.Available() > 0 {
			switch {
			case a1 < 0 || precedes(jobs, key, i, a1):
				a1, a2 = i, a1
			case a2 < 0 || precedes(jobs, key, i, a2):
				a2 = i
			}
		}
	}
	h.a = a1
	if a1 >= 0 && a1 == h.m {
		h.a = a2
	}
	return h
}

// shuffleShare splits shuffle capacity c of one class (§4.1, the work
// conserving station) between its map job m and the first other job a with
// available shuffle work, given:
//   - mIn: m exists and has shuffle work left;
//   - mLimit: the most m may get (+Inf while it has available work,
//     (y/x)·p_m when it has none);
//   - aIn: a exists;
//   - mFirst: m precedes a (or a does not exist).
//
// Walking the class in order, every job other than m and a either has no
// shuffle work left, or has none available and no map rate (limit 0), so it
// gets nothing; m takes min(c, mLimit) if it comes first and a takes the
// rest, its own limit being infinite; if a comes first it takes all of c.
func shuffleShare(c float64, mIn bool, mLimit float64, aIn, mFirst bool) (qm, qa float64) {
	if mIn && mFirst {
		qm = math.Min(c, mLimit)
		if aIn {
			qa = c - qm
		}
		return qm, qa
	}
	if aIn {
		qa = c
	}
	return 0, qa
}

// orderedRates writes the rates of a priority policy for class cls (-1: all
// jobs) with map capacity pcap and shuffle capacity scap, and returns the
// shuffle capacity used.
func orderedRates(dst []Rate, jobs []Job, cls int, key orderKey, pcap, scap float64, strict bool) float64 {
	h := findHeads(jobs, cls, key)
	qm, qo, other := orderedShuffle(jobs, h, key, pcap, scap, strict)
	if h.m >= 0 {
		dst[h.m].Map = pcap
		dst[h.m].Shuffle = qm
	}
	if other >= 0 {
		dst[other].Shuffle = qo
	}
	return qm + qo
}

// orderedShuffle computes the shuffle rates of a class whose map job h.m
// has map rate pm: qm for h.m, qo for the job other.
func orderedShuffle(jobs []Job, h heads, key orderKey, pm, scap float64, strict bool) (qm, qo float64, other int) {
	limit := func(i int) float64 { // the most job i can take
		j := &jobs[i]
		if j.Available() > 0 {
			return math.Inf(1)
		}
		if i != h.m {
			return 0
		}
		return (j.Shuffle / j.Map) * pm
	}
	if strict {
		if h.s < 0 {
			return 0, 0, -1
		}
		q := math.Min(scap, limit(h.s))
		if h.s == h.m {
			return q, 0, -1
		}
		return 0, q, h.s
	}
	mIn := h.m >= 0 && jobs[h.m].RemainingShuffle > 0
	mLimit := 0.0
	if mIn {
		mLimit = limit(h.m)
	}
	mFirst := h.a < 0 || (h.m >= 0 && precedes(jobs, key, h.m, h.a))
	qm, qo = shuffleShare(scap, mIn, mLimit, h.a >= 0, mFirst)
	return qm, qo, h.a
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
	beta := math.Inf(1)
	present := false
	for i := range jobs {
		j := &jobs[i]
		if j.RemainingMap == 0 && j.RemainingShuffle == 0 {
			continue
		}
		present = true
		beta = math.Min(beta, imbalance(j.Map, j.Shuffle))
	}
	if !present {
		return
	}
	mu1, mu2 := splitShares(beta)
	// Class 0 (map-heavy) is ordered by x(t), class 1 by y(t).
	keys := [2]orderKey{keyMap, keyShuffle}
	pcap := [2]float64{mu2 * speed, mu1 * speed}
	scap := [2]float64{mu1 * speed, mu2 * speed}
	var h [2]heads
	for c := range h {
		h[c] = findHeads(jobs, c, keys[c])
	}
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
