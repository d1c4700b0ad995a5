package online

import (
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/stragglers"
)

// The integer forms of the snapshots: each type's SnapshotSlots is its
// package's AllocateSlots on the jobs held, indexed by id (0 tasks for an
// id not in use), so it equals it exactly by construction, O(IDs()). It
// keeps the jobs' counts by id and the reference's workspace between
// calls, so that with a dst of capacity IDs() it allocates nothing once
// the ids stop growing.

// wholeSlots is slots as the integer forms take it: a whole number in
// [0, 2^53], else an error (an *specsched.InputError on "slots").
func wholeSlots(fn string, slots float64) (int, error) {
	if slots != math.Trunc(slots) || slots > alloc.MaxTotal {
		return 0, check.Err(fn, check.Scalar, "slots", slots, "the integer form needs a whole number of slots in [0, 2^53]")
	}
	return int(slots), nil
}

// grown is buf resized to n, reallocated only when too small.
func grown(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// SnapshotSlots writes every job's integer share to dst[id] (0 for an id
// not in use) and returns dst[:IDs()], grown if too small:
// alloc.AllocateSlots on the remaining tasks indexed by id, with S the
// cluster's slots — largest remainders, ties to fewer remaining tasks,
// then the smaller id. An error (an *specsched.InputError on "slots") when
// the slots are not a whole number at most 2^53. O(IDs()); no allocation
// with a dst of capacity IDs() once the ids stop growing.
func (h *Hopper) SnapshotSlots(dst []int) ([]int, error) {
	if !h.made() {
		return dst[:0], errUnmade("online.Hopper.SnapshotSlots")
	}
	slots, err := wholeSlots("online.Hopper.SnapshotSlots", h.slots)
	if err != nil {
		return nil, err
	}
	h.counts = grown(h.counts, len(h.jobs))
	for id := range h.jobs {
		h.counts[id] = h.jobs[id].t // 0 for an id not in use (release)
	}
	return alloc.AllocateSlots(dst, h.counts, slots, h.beta, &h.ws)
}

// SnapshotSlots writes every job's integer share to dst[id] (0 for an id
// not in use) and returns dst[:IDs()], grown if too small:
// fairness.AllocateSlots on the remaining tasks indexed by id. Errors,
// cost and allocations as Hopper.SnapshotSlots.
func (f *Fair) SnapshotSlots(dst []int) ([]int, error) {
	if !f.made() {
		return dst[:0], errUnmade("online.Fair.SnapshotSlots")
	}
	slots, err := wholeSlots("online.Fair.SnapshotSlots", f.slots)
	if err != nil {
		return nil, err
	}
	f.counts = f.countsByID(f.counts)
	return fairness.AllocateSlots(dst, f.counts, slots, f.beta, f.eps, &f.ws)
}

// SnapshotSlots writes every job's integer share to dst[id] (0 for an id
// not in use) and returns dst[:IDs()], grown if too small:
// stragglers.AllocateSlots on the jobs indexed by id (each job's β as its
// class, min(β, 2): the water-fill reads no more of it). Errors, cost and
// allocations as Hopper.SnapshotSlots.
func (c *Classes) SnapshotSlots(dst []int) ([]int, error) {
	if !c.made() {
		return dst[:0], errUnmade("online.Classes.SnapshotSlots")
	}
	slots, err := wholeSlots("online.Classes.SnapshotSlots", c.slots)
	if err != nil {
		return nil, err
	}
	c.counts = c.countsByID(c.counts)
	c.betas = grown(c.betas, len(c.nodes))
	for id := range c.nodes {
		c.betas[id] = 2 // an id not in use: a job of 0 tasks, any β
		if c.live(id) {
			c.betas[id] = c.nodes[id].class
		}
	}
	return stragglers.AllocateSlots(dst, c.counts, c.betas, slots, &c.ws)
}

// countsByID is buf holding the remaining tasks by id, 0 for an id not in
// use.
func (j *jobs) countsByID(buf []float64) []float64 {
	buf = grown(buf, len(j.nodes))
	for id := range j.nodes {
		buf[id] = j.nodes[id].t // 0 for an id not in use (release)
	}
	return buf
}
