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
	// Select the k earliest jobs with map work (arrival, then index): the
	// first k are taken as they come; then they become a heap whose root is
	// the latest of them, which each earlier job replaces. The rank is
	// (−arrival, −index), so that the least rank, the min-heap's root, is
	// the latest job. The set selected is the same for any order of
	// selection, and so are the rates.
	for i := range jobs {
		if jobs[i].RemainingMap == 0 {
			continue
		}
		r := minheap.Rank{Key: -jobs[i].Arrival, ID: -i}
		if len(sel) < k {
			sel = append(sel, minheap.Item[struct{}]{Rank: r})
			if len(sel) == k {
				sel.Init()
			}
			continue
		}
		if latest := sel.Min(); latest.Less(&r) {
			latest.Rank = r
			sel.Fix(0)
		}
	}
	ws.selected = sel
	p, pX := 0.0, xfloat{}
	if len(sel) > 0 {
		pX = xf(speed).div(xf(float64(len(sel))))
		p = pX.float()
	}
	for _, job := range sel {
		dst[-job.ID].Map = p
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
