package sim

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
)

// schedule is the decision taken at every event, once the event's copy ends
// and arrivals have been applied (see Simulate for the rules).
func (e *engine) schedule() error {
	if len(e.active) == 0 {
		return nil
	}
	free := e.regCap - e.regBusy
	if free > 0 && e.anyCanUse() {
		var err error
		free, err = e.grant(free)
		if err != nil {
			return err
		}
		if free > 0 && e.conserving {
			if err := e.conserve(free); err != nil {
				return err
			}
		}
	}
	if e.err != nil {
		return e.err // a misuse of the Decision's methods in CanUse
	}
	if e.pool != nil {
		return e.fillPool()
	}
	return nil
}

// fillPool lets the PoolRule start copies in the reserved pool's free
// slots (Decision.Copy, bounded by the Decision's grant).
func (e *engine) fillPool() error {
	free := e.cfg.Budget - (e.busy - e.regBusy)
	e.dec.grant, e.dec.pool = free, true
	err := e.pool.FillPool(&e.dec, free)
	e.dec.grant, e.dec.pool = 0, false
	if err == nil {
		err = e.err // a misuse of the Decision's methods
	}
	return err
}

// anyCanUse reports whether some active job might use a free slot; if none
// can, the decision would grant slots that no job takes, and is skipped.
func (e *engine) anyCanUse() bool {
	if e.unsched > 0 {
		return true
	}
	for k := range e.active {
		if e.canUse(k) {
			return true
		}
		if e.err != nil {
			return false // a misuse of the Decision: schedule returns it
		}
	}
	return false
}

// held is what a job holds of the slots the allocator shares: those
// outside budgeted speculation's pool.
func (e *engine) held(j int32) int {
	js := &e.js[j]
	return int(js.held - js.poolHeld)
}

// grant computes the allocator's targets for the active jobs and hands the
// free slots to the jobs below them, in the allocator's priority order. It
// returns the slots left free.
func (e *engine) grant(free int) (int, error) {
	n := len(e.active)
	e.target = grow(e.target, n)
	e.key = grow(e.key, n)
	err := e.alloc.Allocate(&e.dec, e.target, e.key)
	if e.err != nil {
		err = e.err
	}
	if err != nil {
		return free, err
	}
	if err := e.checkKeys(); err != nil {
		return free, err
	}
	// Jobs below their allocation, in priority order. A job that cannot use
	// a slot now is passed over by the grants and by conserve, and no
	// other job's use changes that (it depends on the job's own state
	// only): only the others are sorted. Without work conservation, a job
	// at or above its target is passed over too (a job's use changes only
	// what it holds).
	e.order = e.order[:0]
	for k := range e.active {
		if !e.conserving && e.target[k] <= e.held(e.active[k]) {
			continue
		}
		if e.canUse(k) {
			e.order = append(e.order, int32(k))
		} else if e.err != nil {
			return free, e.err // a misuse of the Decision in CanUse
		}
	}
	order := e.sorter.sort(e.key, e.order)
	for _, k := range order {
		if free == 0 {
			break
		}
		j := e.active[k]
		if e.target[k] <= e.held(j) || !e.canUse(int(k)) {
			if e.err != nil {
				return free, e.err // a misuse of the Decision in CanUse
			}
			continue
		}
		g := min(e.target[k]-e.held(j), free)
		used, err := e.use(int(k), g)
		if err != nil {
			return free, err
		}
		free -= used
	}
	return free, nil
}

// checkKeys reports a priority of the allocator that is not a number ≥ 0
// (Allocator), which would make the order the sort's accident. O(n) for n
// active jobs.
func (e *engine) checkKeys() error {
	for k, x := range e.key {
		if !(x >= 0) {
			return check.Err(e.fn, int(e.active[k]), "key", x, "the allocator's priority of the job must be a number ≥ 0")
		}
	}
	return nil
}

// conserve offers the slots still free to the active jobs, in the
// allocator's priority order (e.order, as grant left it), so that no slot idles while a
// job can use it (§3.3: "it should not leave slots unused").
func (e *engine) conserve(free int) error {
	for _, k := range e.order {
		if free == 0 {
			break
		}
		if !e.canUse(int(k)) {
			if e.err != nil {
				return e.err // a misuse of the Decision in CanUse
			}
			continue
		}
		used, err := e.use(int(k), free)
		if err != nil {
			return err
		}
		free -= used
	}
	return nil
}

// positionSort sorts positions of the active jobs by a key, with its
// scratch memory: the engine's grant order, SRPTAllocator's and
// BudgetedRule's.
type positionSort struct {
	order  []int32
	packed []uint64
}

// all returns the positions 0 … len(key)−1 ordered by key (≥ 0), ties by
// position (arrival order).
func (s *positionSort) all(key []float64) []int32 {
	s.order = grow(s.order, len(key))
	for k := range s.order {
		s.order[k] = int32(k)
	}
	return s.sort(key, s.order)
}

// sort sorts the positions ks by key (≥ 0), ties by position, in place,
// and returns ks. Integer keys below 2³¹ — task counts, the common case —
// are packed with the position into one uint64 and sorted as such. The
// order is a strict total one, so the result does not depend on the order
// of ks or on which way it is sorted. O(m log m) for m = len(ks).
func (s *positionSort) sort(key []float64, ks []int32) []int32 {
	integral := true
	for _, k := range ks {
		if x := key[k]; x != math.Trunc(x) || !(x < 1<<31) {
			integral = false
			break
		}
	}
	if integral {
		s.packed = grow(s.packed, len(ks))
		packed := s.packed
		for i, k := range ks {
			packed[i] = uint64(key[k])<<32 | uint64(k)
		}
		slices.Sort(packed)
		for i, p := range packed {
			ks[i] = int32(uint32(p))
		}
		return ks
	}
	slices.SortFunc(ks, func(a, b int32) int {
		if c := cmpFloat(key[a], key[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	return ks
}
