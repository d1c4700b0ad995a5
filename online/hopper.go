package online

import (
	"cmp"
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// none marks an absent node or job (a leaf's parent at the root, a job
// not in use, no cut-off job).
const none = -1

// Hopper maintains Hopper's Algorithm 1 (thesis §3.4, Theorem 1; see
// alloc.Allocate for the algorithm and its special cases) over a changing
// set of jobs. Jobs are named by the ids Add returns: small integers,
// reused after Remove, so that the jobs' shares fit a slice indexed by id
// (Snapshot).
//
// The jobs sit in a B+-tree of fanout 16 ordered by (T, id) (bptree.go),
// each item holding ΣT and the bounds Next and Reclaim descend by over the
// jobs below it. Costs, n the jobs held, each O(log n) worst case (the
// tree's depth, at most 1 + log₄ n, times a node's 16 items; nothing
// amortised but the slices' growth): Add, Update and Remove (an Update
// that keeps the job between its neighbours in its leaf is made in place;
// a split or merge costs one more pass per level it reaches); SetHeld
// (recomputed up the job's path only as far as the bounds change);
// SetSlots O(1); Target O(1), after an O(log n) search for the cut-off
// job in the capacity-constrained case, done once after each batch of
// events (the first Target, Next, Reclaim or Snapshot after an event);
// Next and Reclaim O(log n); Compare O(1); Snapshot O(ids). An Add or
// Update that brings ΣT within a factor 4 of MaxFloat64 copies the tree
// first, O(n), to roll back if the total overflows. Memory O(ids): the
// largest number of jobs held at once. In steady state (no more jobs held
// than before) no method allocates.
//
// The zero Hopper is not usable: create one with New. A nil or zero
// Hopper (likewise Fair and Classes) does not panic: its methods return an
// *specsched.InputError on Field "receiver", no job (Next, Reclaim) or
// zero.
type Hopper struct {
	slots float64
	beta  float64
	c     float64 // the speculation factor 2/β (1 for β ≥ 2)

	counts []float64       // scratch: the remaining tasks by id (SnapshotSlots)
	ws     alloc.Workspace // SnapshotSlots' reference's

	// The jobs by id (an id not in use has leaf none, T and held 0, and
	// sits on the free list).
	jobs []job
	free []int32
	n    int

	// The tree: its nodes (those not in use on freeNodes), the root, and
	// ΣT, the root's items' sums added in order.
	nodes     []bpNode
	freeNodes []int32
	root      int32
	sum       float64

	// The cut, valid while fresh: the capacity-constrained case holds
	// (constrained), the cut-off job (cut, none if every job gets V_i) and
	// what it gets (left0).
	fresh       bool
	constrained bool
	cut         int32
	left0       float64

	saved hopperSave // the tree before a change near overflow (Add, Update)
}

// A job is what Hopper keeps of a job by its id, in one record so that an
// event on a random job misses the cache once: its remaining tasks T, the
// slots it holds, and the leaf it sits in (none for an id not in use).
type job struct {
	t, held float64
	leaf    int32
}

// hopperSave is a copy of the tree, taken before an Add or Update that
// brings ΣT near overflow and put back if it overflows.
type hopperSave struct {
	nodes     []bpNode
	freeNodes []int32
	jobs      []job
	root      int32
	sum       float64
}

// New returns a Hopper holding no job, for a cluster of slots ≥ 0 slots
// (finite) and the jobs' Pareto tail index beta > 1 (finite; β ≥ 2 means
// no speculation). Errors are *specsched.InputError naming "slots" or
// "beta". O(1).
func New(slots, beta float64) (*Hopper, error) {
	const fn = "online.New"
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return nil, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return nil, err
	}
	h := &Hopper{slots: slots, beta: beta, c: hopper.Factor(beta)}
	h.root = h.newNode(true, none)
	return h, nil
}

// Len is the number of jobs held. O(1).
func (h *Hopper) Len() int {
	if !h.made() {
		return 0
	}
	return h.n
}

// IDs is one more than the largest id in use or ever returned by Add and
// not reused since: the length Snapshot writes. O(1).
func (h *Hopper) IDs() int {
	if !h.made() {
		return 0
	}
	return len(h.jobs)
}

// Slots is the cluster's slots. O(1).
func (h *Hopper) Slots() float64 {
	if !h.made() {
		return 0
	}
	return h.slots
}

// Add adds a job of remaining ≥ 0 tasks (finite) and returns its id: the
// id Remove freed most recently, if one is free, else IDs(). An error
// (an *specsched.InputError on "remaining", index IDs()), with h
// unchanged — IDs() and the free ids included — for a negative, NaN or
// infinite count, or one that would make the jobs' total overflow (summed
// in the tree's order). O(log n); amortised
// O(1) allocations while the ids grow, none after.
func (h *Hopper) Add(remaining float64) (int, error) {
	const fn = "online.Hopper.Add"
	if !h.made() {
		return 0, errUnmade(fn)
	}
	if err := h.checkCount(fn, len(h.jobs), remaining, 0); err != nil {
		return 0, err
	}
	risky := h.risky(0, remaining)
	if risky {
		h.save() // before the id is taken: the jobs as they were
	}
	reused := len(h.free) > 0
	id := takeID(&h.free, &h.jobs, job{leaf: none}) // a freed record as release left it
	h.jobs[id].t = remaining + 0                    // −0 is +0
	h.n++
	h.fresh = false
	h.insert(id)
	if risky && math.IsInf(h.sum, 1) { // summed in the tree's order, it overflowed
		h.restore() // a new id gone again, a reused one free as it was
		if reused {
			h.free = append(h.free, id)
		}
		h.n--
		return 0, check.Err(fn, len(h.jobs), "remaining", remaining, overflows)
	}
	return int(id), nil
}

// overflows is the reason of a count that makes the total overflow.
const overflows = "makes the jobs' total remaining tasks overflow float64"

// risky reports whether a change of one job's count from old to new
// brings ΣT within a factor 4 of MaxFloat64, where the tree's grouping
// of the sum (its rounding differs from ΣT − old + new by at most a few
// parts in 10¹⁴) might overflow: only then is the tree saved before the
// change, to be put back if it does.
func (h *Hopper) risky(old, new float64) bool {
	return h.sum-old+new >= math.MaxFloat64/4
}

// save copies the tree (nodes, free nodes, jobs, root, total) into
// h.saved. O(n).
func (h *Hopper) save() {
	s := &h.saved
	s.nodes = append(s.nodes[:0], h.nodes...)
	s.freeNodes = append(s.freeNodes[:0], h.freeNodes...)
	s.jobs = append(s.jobs[:0], h.jobs...)
	s.root, s.sum = h.root, h.sum
}

// restore puts back the tree save copied: the same nodes, so the same
// sums, bit for bit. O(n).
func (h *Hopper) restore() {
	s := &h.saved
	h.nodes = append(h.nodes[:0], s.nodes...)
	h.freeNodes = append(h.freeNodes[:0], s.freeNodes...)
	h.jobs = append(h.jobs[:0], s.jobs...)
	h.root, h.sum = s.root, s.sum
	h.fresh = false
}

// Update sets job id's remaining tasks to remaining ≥ 0 (finite). An error
// (an *specsched.InputError naming "id" or "remaining" and the id), with h
// unchanged, for an id not in use, or a count Add would reject. O(log n):
// in place when the new count keeps the job between its neighbours in its
// leaf, else out of its leaf and into its new one.
func (h *Hopper) Update(id int, remaining float64) error {
	const fn = "online.Hopper.Update"
	if !h.made() {
		return errUnmade(fn)
	}
	if err := h.checkID(fn, id); err != nil {
		return err
	}
	old := h.jobs[id].t
	if err := h.checkCount(fn, id, remaining, old); err != nil {
		return err
	}
	h.fresh = false
	if !h.risky(old, remaining) {
		h.move(int32(id), remaining+0)
		return nil
	}
	h.save()
	h.move(int32(id), remaining+0)
	if math.IsInf(h.sum, 1) { // summed in the tree's order, it overflowed
		h.restore() // the job's count with the rest
		return check.Err(fn, id, "remaining", remaining, overflows)
	}
	return nil
}

// Remove removes job id (finished, or gone); its id may be returned by a
// later Add. An error (an *specsched.InputError on "id"), with h unchanged,
// for an id not in use. O(log n).
func (h *Hopper) Remove(id int) error {
	if !h.made() {
		return errUnmade("online.Hopper.Remove")
	}
	if err := h.checkID("online.Hopper.Remove", id); err != nil {
		return err
	}
	h.fresh = false
	h.remove(int32(id))
	h.release(int32(id))
	return nil
}

// release frees id, out of the tree: T and held 0, on the free list.
func (h *Hopper) release(id int32) {
	h.jobs[id].leaf = none
	h.jobs[id].t, h.jobs[id].held = 0, 0
	h.free = append(h.free, id)
	h.n--
}

// SetSlots changes the cluster's slots to slots ≥ 0 (finite). An error (an
// *specsched.InputError on "slots"), with h unchanged, otherwise. O(1).
func (h *Hopper) SetSlots(slots float64) error {
	if !h.made() {
		return errUnmade("online.Hopper.SetSlots")
	}
	if err := check.NonNegative("online.Hopper.SetSlots", check.Scalar, "slots", slots); err != nil {
		return err
	}
	h.slots = slots
	h.fresh = false
	return nil
}

// SetHeld records that job id holds slots ≥ 0 slots (at most
// alloc.MaxTotal, 2^53), what Next and Reclaim compare with its share. A
// new job holds 0. An error (an *specsched.InputError on "id", or on
// "slots"), with h unchanged, for an id not in use or slots out of range.
// O(log n): the job's leaf and the items above it, recomputed bottom-up
// as far as they change.
func (h *Hopper) SetHeld(id, slots int) error {
	const fn = "online.Hopper.SetHeld"
	if !h.made() {
		return errUnmade(fn)
	}
	if err := h.checkID(fn, id); err != nil {
		return err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return err
	}
	h.jobs[id].held = float64(slots)
	x := h.jobs[id].leaf
	h.setJob(x, h.indexIn(x, int32(id)), int32(id))
	h.fixUp(x, true)
	return nil
}

// Held is the slots job id holds (SetHeld), 0 for an id not in use. O(1).
func (h *Hopper) Held(id int) int {
	if !h.made() {
		return 0
	}
	if id < 0 || id >= len(h.jobs) {
		return 0
	}
	return int(h.jobs[id].held)
}

// Next returns the job that should receive the next free slot, and true,
// or false when every job holds at least its share S_i (Target). Slots
// handed out one at a time by Next, from none held, follow
// alloc.AllocateSlots's rule, largest remainders:
//
//  1. first, the first job in Algorithm 1's order (Compare) at least a
//     whole slot short of its share (held_i ≤ S_i − 1);
//  2. then, among the jobs short by a fraction (S_i − 1 < held_i < S_i),
//     the one with the largest fraction S_i − held_i, ties in Algorithm 1's
//     order — in the capacity-constrained case. There the fractions before
//     the cut-off job are those of V_i = 2/β·T_i, fixed per job, and each
//     item keeps the largest below it: from none held, Next hands out
//     alloc.AllocateSlots's integer allocation (tested), up to remainders
//     that tie in exact arithmetic, which the two round apart (the cut-off
//     job's share is S less the others' V, summed in another order). In the
//     proportional case every fraction moves with ΣT, and the fractional
//     slots go instead to the first job in Algorithm 1's order below its
//     share.
//
// In the proportional case the comparisons are made per task, (held_i+1)/T_i
// ≤ S/ΣT and held_i/T_i < S/ΣT, on quotients rounded once at every
// magnitude (ratio), so a job holding exactly its share is not below it. A
// job of 0 tasks is never below its share (0), nor a job after the cut-off
// job. O(log n), after the search for the cut if an event came
// since the last query.
func (h *Hopper) Next() (int, bool) {
	if !h.made() {
		return 0, false
	}
	h.refresh()
	if h.sum == 0 || h.slots == 0 {
		return 0, false
	}
	if !h.constrained {
		r := quotient(h.slots, h.sum)
		x := h.firstAtMost(r)
		if x == none {
			x = h.firstBelow(r)
		}
		return int(x), x != none
	}
	// 1. A whole slot short: before the cut, c·T − held ≥ 1; the cut, by
	// its own share.
	if x := h.firstShort(); x != none && h.inPrefix(x) {
		return int(x), true
	}
	if h.cut != none && h.jobs[h.cut].held <= h.left0-1 {
		return int(h.cut), true
	}
	// 2. The largest fraction before the cut, then the cut's own.
	best := h.prefixFrac()
	cutFrac := -1.0
	if h.cut != none {
		if d := h.left0 - h.jobs[h.cut].held; d > 0 && d < 1 {
			cutFrac = d
		}
	}
	switch {
	case best > 0 && best >= cutFrac:
		return int(h.firstFrac(best)), true
	case cutFrac > 0:
		return int(h.cut), true
	}
	return 0, false
}

// inPrefix reports whether job x comes before the cut (every job does
// when there is no cut-off job).
func (h *Hopper) inPrefix(x int32) bool { return h.cut == none || h.before(x, h.cut) }

// Reclaim returns the job whose slot should be taken back first when the
// cluster shrinks: the last job, in Algorithm 1's order, that holds more
// slots than its share, and true; or false when none does. The comparison
// is Next's, per task (held_i/T_i > S_i/T_i); a job of 0 tasks holding a
// slot, or a job after the cut-off job holding one, is over its share (0).
// O(log n), after the search for the cut if an event came since the last
// query.
func (h *Hopper) Reclaim() (int, bool) {
	if !h.made() {
		return 0, false
	}
	h.refresh()
	holding := nothing // above it: every job holding a slot
	if h.sum == 0 || h.slots == 0 {
		x := h.lastAbove(holding)
		return int(x), x != none
	}
	if !h.constrained {
		x := h.lastAbove(quotient(h.slots, h.sum))
		return int(x), x != none
	}
	if h.cut != none {
		// After the cut every held slot is over the share: the last job
		// holding one, if it comes after the cut.
		if x := h.lastAbove(holding); x != none && h.before(h.cut, x) {
			return int(x), true
		}
		if h.jobs[h.cut].held > h.left0 {
			return int(h.cut), true
		}
	}
	// Before the cut (the cut itself is not over, nor anything after it).
	x := h.lastAbove(quotient(h.c, 1))
	return int(x), x != none
}

// A ratio is a quotient a/b ≥ 0 of finite floats, m·2^e with m in
// [0.5, 1), packed in 64 bits so that the order of ratios is the order of
// the integers: the biased exponent e + ratioBias in the top 13 bits (e
// ranges over [−2097, 2098] for finite a and b), then m's 52 fraction
// bits less the last. m is the quotient of the mantissas rounded once,
// and the exponents are kept apart, so that it neither overflows nor
// underflows; rounding commutes with scaling by 2^k and the dropped bit is
// cut, not rounded, so two quotients that are equal as real numbers give
// the same ratio, and quotients further apart than 2^−51 relatively keep
// their order. 0 is nothing (0/b).
type ratio uint64

// ratioBias offsets the exponent of a ratio, [−2097, 2098] for finite a,
// b > 0, into [3, 4198], below the 13 bits' 8191.
const ratioBias = 2100

// nothing is below every ratio but itself (the ratio of 0), everything
// above every ratio.
const (
	nothing    ratio = 0
	everything ratio = math.MaxUint64
)

// quotient is the ratio a/b for finite a ≥ 0 and b > 0. O(1).
func quotient(a, b float64) ratio {
	if a == 0 {
		return nothing
	}
	ma, ea := frexp(a)
	mb, eb := frexp(b)
	m, e := frexp(ma / mb) // ma/mb in (0.5, 2): no overflow, no underflow
	const fraction = 1<<52 - 1
	return ratio(uint64(ea-eb+e+ratioBias)<<51 | math.Float64bits(m)&fraction>>1)
}

// frexp is math.Frexp for finite f > 0 (quotient's operands): f = m·2^e,
// m in [0.5, 1). A normal f's m and e are read off its bits (its fraction
// under the exponent of 0.5; its exponent less 1022), without math.Frexp's
// cases for 0, ±Inf and NaN; a subnormal (exponent field 0) goes to
// math.Frexp. The event paths call it three times for every quotient
// (setJob's two): 6% of an event at 10³ jobs. O(1).
func frexp(f float64) (float64, int) {
	const expMask = 0x7ff << 52
	b := math.Float64bits(f)
	if e := int(b >> 52); e != 0 {
		return math.Float64frombits(b&^expMask | 1022<<52), e - 1022
	}
	return math.Frexp(f)
}

// Target returns job id's share S_i of Algorithm 1: what alloc.Allocate
// gives it on the jobs held. An error (an *specsched.InputError on "id")
// for an id not in use. O(1), after the search for the cut (O(log n)) if
// an event came since the last query.
func (h *Hopper) Target(id int) (float64, error) {
	if !h.made() {
		return 0, errUnmade("online.Hopper.Target")
	}
	if err := h.checkID("online.Hopper.Target", id); err != nil {
		return 0, err
	}
	h.refresh()
	return h.share(int32(id)), nil
}

// Compare is Algorithm 1's job order, SRPT on virtual sizes: −1 if job a
// has fewer remaining tasks than job b (or as many and a smaller id), +1 if
// more (or as many and a larger id), 0 if a = b. It is a strict total order
// on the jobs held, usable as a scheduler's job-order function (the order
// in which the capacity-constrained case fills jobs). Ids not in use
// compare as jobs of 0 tasks. O(1).
func (h *Hopper) Compare(a, b int) int {
	if !h.made() {
		return 0
	}
	if c := cmp.Compare(h.remainingOf(a), h.remainingOf(b)); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// Snapshot writes every job's share to dst[id], 0 for an id not in use,
// and returns dst[:IDs()] (grown if its capacity is less): alloc.Allocate
// on the remaining tasks indexed by id, 0 for ids not in use. O(IDs()).
func (h *Hopper) Snapshot(dst []float64) []float64 {
	if !h.made() {
		return dst[:0]
	}
	n := len(h.jobs)
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	h.refresh()
	for id := range dst {
		dst[id] = 0
		if h.jobs[id].leaf != none {
			dst[id] = h.share(int32(id))
		}
	}
	return dst
}

// remainingOf is the remaining tasks of id, 0 for an id not in use.
func (h *Hopper) remainingOf(id int) float64 {
	if id < 0 || id >= len(h.jobs) {
		return 0
	}
	return h.jobs[id].t
}

// share is job id's share, with the cut fresh.
func (h *Hopper) share(id int32) float64 {
	t := h.jobs[id].t
	switch {
	case h.sum == 0 || h.slots == 0:
		return 0
	case !h.constrained:
		return hopper.Proportional(t, h.sum, h.slots)
	case h.cut == none || h.before(id, h.cut):
		return h.c*t + 0
	case id == h.cut:
		return h.left0
	}
	return 0
}

// refresh recomputes the case and the cut if an event came since the last.
// Case 1 holds when c·ΣT ≥ S within alloc.CaseTolerance, as in Allocate;
// its cut is the first job, in (T, id) order, at which the virtual sizes so
// far reach S, found by one descent: at each level the items are added in
// order, ΣT before them kept, until c times the sum reaches S, and the
// search goes down into that item. Below the root, rounding may keep a
// node's items, added one by one, a hair below S although its parent's sum
// for it reached S: the cut is then its last item. O(bpWidth · depth).
func (h *Hopper) refresh() {
	if h.fresh {
		return
	}
	h.fresh = true
	h.constrained = h.sum > 0 && h.slots > 0 && h.c*h.sum >= h.slots*(1-hopper.CaseTolerance)
	if !h.constrained {
		return
	}
	h.cut = none
	before := 0.0 // ΣT of the jobs before item i
	for x := h.root; ; {
		n := &h.nodes[x]
		sums := &n.sum // a leaf item's ΣT is its T
		if n.leaf {
			sums = &n.t
		}
		i := 0
		for i < n.n-1 && h.c*(before+sums[i]) < h.slots {
			before += sums[i]
			i++
		}
		if x == h.root && h.c*(before+sums[i]) < h.slots {
			// Rounding kept the virtual sizes a hair below S although
			// c·ΣT ≥ S within the tolerance: every job gets V_i (cut none).
			return
		}
		if n.leaf {
			h.cut = n.kid[i]
			h.left0 = min(h.c*n.t[i], max(h.slots-h.c*before, 0))
			return
		}
		x = n.kid[i]
	}
}

// before reports whether job a comes before job b in (T, id) order.
func (h *Hopper) before(a, b int32) bool {
	return keyLess(h.jobs[a].t, a, h.jobs[b].t, b)
}

// checkID returns an error unless id is in use.
func (h *Hopper) checkID(fn string, id int) error {
	if id < 0 || id >= len(h.jobs) || h.jobs[id].leaf == none {
		return check.Err(fn, id, "id", float64(id), "no job with this id (never added, or removed)")
	}
	return nil
}

// checkCount returns an error unless remaining is a count Add accepts for
// job id whose current count is old (0 for a new job): finite, ≥ 0, and
// keeping the total finite.
func (h *Hopper) checkCount(fn string, id int, remaining, old float64) error {
	if err := check.NonNegative(fn, id, "remaining", remaining); err != nil {
		return err
	}
	if math.IsInf(h.sum-old+remaining, 0) {
		return check.Err(fn, id, "remaining", remaining, overflows)
	}
	return nil
}

// made reports whether h was made by New: a nil or zero Hopper is not
// usable, and its methods return an error (Field "receiver"), zero or no
// job instead of panicking. O(1).
func (h *Hopper) made() bool { return h != nil && h.c > 0 }

// made reports whether f was made by NewFair (see Hopper's made).
func (f *Fair) made() bool { return f != nil && f.c > 0 }

// made reports whether c was made by NewClasses (see Hopper's made).
func (c *Classes) made() bool { return c != nil && c.ends }

// errUnmade is the error of method fn called on a nil or zero value.
func errUnmade(fn string) error {
	return check.ErrText(fn, check.Scalar, "receiver", "nil or zero value", "not made by its constructor (New, NewFair, NewClasses)")
}
