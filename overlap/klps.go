package overlap

import (
	"cmp"
	"slices"

	"github.com/specsched/specsched/internal/minheap"
)

// limitEntry is a rate-limited job of the processor-sharing water-fill: its
// limit and an identifier (a job index or slot) for ties and write-back.
type limitEntry struct {
	limit float64
	id    int
}

// compareLimit orders entries by limit, then id. Limits are never NaN, so
// the plain comparisons give cmp.Compare's order without its NaN tests
// (cmp.Compare was 15% of a 10⁶-job k-LPS run's CPU profile, in this sort).
func compareLimit(a, b limitEntry) int {
	switch {
	case a.limit < b.limit:
		return -1
	case a.limit > b.limit:
		return 1
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
	sel := earliest(ws.selected, jobs, k)
	ws.selected = sel
	p, pX := 0.0, xfloat{}
	if len(sel) > 0 {
		pX = xf(speed).div(xf(float64(len(sel))))
		p = pX.float()
	}
	for _, job := range sel {
		dst[-job.ID].Map = p // the ID is −index: see latestFirst
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

// earliest returns, in sel's memory, the k earliest jobs with map work
// (arrival, then index), ranked by latestFirst: the first k listed are
// taken as they come; if jobs remain, the k become a heap whose root is
// the latest of them, and each remaining job that comes before the root
// replaces it. The set does not depend on the order of selection.
//
// Time: O(n + k + r log k) for r replacements (none when jobs are listed
// by arrival).
func earliest(sel minheap.Heap[struct{}], jobs []Job, k int) minheap.Heap[struct{}] {
	sel = sel[:0]
	i := 0
	for ; i < len(jobs) && len(sel) < k; i++ {
		if jobs[i].RemainingMap > 0 {
			sel = append(sel, minheap.Item[struct{}]{Rank: latestFirst(jobs, i)})
		}
	}
	if i == len(jobs) {
		return sel
	}
	sel.Init()
	latest := sel.Min()
	for ; i < len(jobs); i++ {
		// A job that arrived after the latest selected one (−latest.Key is
		// its arrival) is not among the k earliest: the common case when
		// jobs are listed by arrival.
		if jobs[i].RemainingMap == 0 || jobs[i].Arrival > -latest.Key {
			continue
		}
		if r := latestFirst(jobs, i); latest.Less(&r) {
			latest.Rank = r
			sel.Fix(0)
		}
	}
	return sel
}

// latestFirst is the rank of jobs[i] in k-LPS's selection heap,
// (−arrival, −index): internal/minheap keeps the least rank on top, and
// this puts the latest job (arrival, then index) there.
func latestFirst(jobs []Job, i int) minheap.Rank {
	return minheap.Rank{Key: -jobs[i].Arrival, ID: -i}
}
