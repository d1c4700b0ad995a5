package overlap

import (
	"cmp"
	"slices"
)

// limitEntry is a rate-limited job of the processor-sharing water-fill: its
// limit and an identifier (a job index or slot) for ties and write-back.
type limitEntry struct {
	limit float64
	id    int
}

func compareLimit(a, b limitEntry) int {
	if c := cmp.Compare(a.limit, b.limit); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// waterFill shares capacity c by processor sharing among unlimited jobs
// (count of them) and the rate-limited jobs of limited: every job gets the
// same level θ, except that a limited job gets its limit when that is
// below θ, and θ is as high as c allows. It sorts limited by limit, sets
// each entry's limit to the rate it gets, and returns θ, the rate of each
// unlimited job (0 when there are none).
//
// Time: O(L log L) for L limited jobs.
func waterFill(c float64, unlimited int, limited []limitEntry) (theta float64) {
	slices.SortFunc(limited, compareLimit)
	rem := c
	open := unlimited + len(limited) // jobs whose rate is not yet fixed
	for i := range limited {
		if l := limited[i].limit; l*float64(open) <= rem {
			rem -= l // limited[i] gets its limit, exactly
			open--
			continue
		}
		theta = rem / float64(open)
		for k := i; k < len(limited); k++ {
			limited[k].limit = theta
		}
		return theta
	}
	if unlimited > 0 {
		return rem / float64(unlimited)
	}
	return 0
}

// klpsRates writes k-LPS rates (§5.1): the k earliest jobs (arrival, then
// index) with map work left share the map station equally; the shuffle
// station is a processor-sharing water-fill over the jobs with shuffle work
// left, a job with available work being unlimited and one without limited
// to (y/x)·(its map rate).
func klpsRates(dst []Rate, jobs []Job, speed float64, k int, ws *Workspace) {
	sel := ws.selected[:0]
	// Select the k earliest jobs with map work: a max-heap (by arrival,
	// index) of at most k indices; an earlier job replaces the latest in it.
	later := func(i, l int) bool { // job i comes after job l
		ri, rl := jobs[i].Arrival, jobs[l].Arrival
		return ri > rl || (ri == rl && i > l)
	}
	for i := range jobs {
		if jobs[i].RemainingMap == 0 {
			continue
		}
		if len(sel) < k {
			sel = append(sel, i)
			heapUp(sel, len(sel)-1, later)
			continue
		}
		if later(sel[0], i) {
			sel[0] = i
			heapDown(sel, 0, later)
		}
	}
	ws.selected = sel
	p, pX := 0.0, xfloat{}
	if len(sel) > 0 {
		pX = xf(speed).div(xf(float64(len(sel))))
		p = pX.float()
	}
	for _, i := range sel {
		dst[i].Map = p
	}
	// The water-fill: jobs with available work are unlimited (marked by
	// a negative shuffle rate until θ is known); jobs without are limited
	// to (y/x)·(their map rate).
	lim := ws.limits[:0]
	unlimited := 0
	for i := range jobs {
		j := &jobs[i]
		if j.RemainingShuffle == 0 {
			continue
		}
		if hasAvail(j) {
			unlimited++
			dst[i].Shuffle = -1
			continue
		}
		if dst[i].Map > 0 {
			lim = append(lim, limitEntry{limit: scaledRate(j.Shuffle, j.Map, pX, p), id: i})
		}
	}
	theta := waterFill(speed, unlimited, lim)
	ws.limits = lim
	for _, e := range lim {
		dst[e.id].Shuffle = e.limit
	}
	if unlimited > 0 {
		for i := range dst {
			if dst[i].Shuffle < 0 {
				dst[i].Shuffle = theta
			}
		}
	}
}

// heapUp and heapDown maintain a binary heap of ints whose root is the
// element no other precedes in less (less(a, b): a sits above b).
func heapUp(h []int, i int, less func(a, b int) bool) {
	for i > 0 {
		parent := (i - 1) / 2
		if !less(h[i], h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func heapDown(h []int, i int, less func(a, b int) bool) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		best := l
		if r := l + 1; r < n && less(h[r], h[l]) {
			best = r
		}
		if !less(h[best], h[i]) {
			return
		}
		h[i], h[best] = h[best], h[i]
		i = best
	}
}
