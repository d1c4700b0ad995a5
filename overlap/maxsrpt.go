package overlap

// MaxSRPT (§4.1, Algorithm 1) on a snapshot. The same priority-station pair
// — the map station serving the first job in order that has map work, the
// shuffle station serving in the same order as far as available work
// allows — is FIFO's (order by arrival) and each SplitSRPT class's (order
// by x(t) or y(t)), so it lives here and those reuse it.

import "math"

// heads are the jobs of one class that a priority policy can serve: m, the
// first job with map work left (the map station's job); a, the first job
// other than m with available shuffle work (the job the work-conserving
// shuffle station serves after m); s, the first job with shuffle work left
// (the strict shuffle station's job). -1 means none.
type heads struct{ m, a, s int }

// A headFinder accumulates the heads of one class over a pass through the
// jobs: each job is offered once with its key.
type headFinder struct {
	m, s, a1, a2             int
	mKey, sKey, a1Key, a2Key float64
	mArr, sArr, a1Arr, a2Arr float64
}

func newHeadFinder() headFinder { return headFinder{m: -1, s: -1, a1: -1, a2: -1} }

// offer considers job i (key k, arrival r): hasMap if it has map work left,
// hasShuffle shuffle work, avail available shuffle work.
func (f *headFinder) offer(i int, k, r float64, hasMap, hasShuffle, avail bool) {
	if hasMap && (f.m < 0 || earlier(k, r, i, f.mKey, f.mArr, f.m)) {
		f.m, f.mKey, f.mArr = i, k, r
	}
	if !hasShuffle {
		return
	}
	if f.s < 0 || earlier(k, r, i, f.sKey, f.sArr, f.s) {
		f.s, f.sKey, f.sArr = i, k, r
	}
	if !avail {
		return
	}
	switch {
	case f.a1 < 0 || earlier(k, r, i, f.a1Key, f.a1Arr, f.a1):
		f.a2, f.a2Key, f.a2Arr = f.a1, f.a1Key, f.a1Arr
		f.a1, f.a1Key, f.a1Arr = i, k, r
	case f.a2 < 0 || earlier(k, r, i, f.a2Key, f.a2Arr, f.a2):
		f.a2, f.a2Key, f.a2Arr = i, k, r
	}
}

// beyond reports whether a job with key k cannot become any head: every
// head is taken and has a smaller key (a quick, inlinable test that spares
// most jobs the full offer).
func (f *headFinder) beyond(k float64) bool {
	return f.m >= 0 && f.a2 >= 0 && k > f.mKey && k > f.sKey && k > f.a2Key
}

func (f *headFinder) heads() heads {
	h := heads{m: f.m, a: f.a1, s: f.s}
	if f.a1 >= 0 && f.a1 == f.m {
		h.a = f.a2
	}
	return h
}

// hasAvail reports whether a job with work left has available shuffle work
// (as Job.Available > 0).
func hasAvail(j *Job) bool {
	xr, yr := j.RemainingMap, j.RemainingShuffle
	switch {
	case yr == 0:
		return false
	case xr == 0:
		return true
	case j.Shuffle >= minAvailAbs:
		// The amount y(t) − y·x(t)/x is exact to a few ulps of y, far
		// below availTol·y: one division, as availFraction's two.
		return yr-j.Shuffle*(xr/j.Map) > availTol*j.Shuffle
	}
	return availFraction(xr, yr, j.Map, j.Shuffle) > availTol
}

// minAvailAbs: from this shuffle size up, hasAvail tests the amount
// (its rounding error, a few ulps of y plus 2^-1074, is below 2^-40 of
// availTol·y); below it, the fractions (see availFraction).
const minAvailAbs = 0x1p-990

// findHeads finds the heads of all jobs in the order of key, in one pass.
func findHeads(jobs []Job, key orderKey) heads {
	f := newHeadFinder()
	for i := range jobs {
		j := &jobs[i]
		xr, yr := j.RemainingMap, j.RemainingShuffle
		if xr == 0 && yr == 0 {
			continue // has left
		}
		k := j.Arrival
		if key == keyMax {
			k = xr
			if yr > xr {
				k = yr
			}
		}
		if f.beyond(k) {
			continue
		}
		f.offer(i, k, j.Arrival, xr > 0, yr > 0, hasAvail(j))
	}
	return f.heads()
}

// earlier reports whether (key k, arrival r, index i) precedes (k2, r2, i2).
func earlier(k, r float64, i int, k2, r2 float64, i2 int) bool {
	if k != k2 {
		return k < k2
	}
	if r != r2 {
		return r < r2
	}
	return i < i2
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
		qm = min(c, mLimit)
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

// orderedRates writes the rates of a one-class priority policy (MaxSRPT,
// FIFO) whose stations both have speed speed.
func orderedRates(dst []Rate, jobs []Job, key orderKey, speed float64, strict bool) {
	h := findHeads(jobs, key)
	qm, qo, other := orderedShuffle(jobs, h, key, xf(speed), speed, strict)
	if h.m >= 0 {
		dst[h.m].Map = speed
		dst[h.m].Shuffle = qm
	}
	if other >= 0 {
		dst[other].Shuffle = qo
	}
}

// orderedShuffle computes the shuffle rates of a class whose map job h.m
// has map rate pm (exact: the limit (y/x)·pm is formed without leaving
// float64's range and rounded once) and whose shuffle capacity is scap: qm
// for h.m, qo for the job other.
func orderedShuffle(jobs []Job, h heads, key orderKey, pm xfloat, scap float64, strict bool) (qm, qo float64, other int) {
	limit := func(i int) float64 { // the most job i can take
		j := &jobs[i]
		if hasAvail(j) {
			return math.Inf(1)
		}
		if i != h.m {
			return 0
		}
		return scaledRate(j.Shuffle, j.Map, pm, pm.float())
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
