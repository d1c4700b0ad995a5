package online

import (
	"cmp"
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// none marks an absent tree node (a nil child, an empty tree).
const none = -1

// A job's node in the search tree is two records, both indexed by its id.
// Its key (hkey) is what a descent by (T, id) reads and what the job's own
// bounds follow from: its remaining tasks T, the slots it holds and its
// children, 24 bytes, so that the descents — an event's path down to a
// random job, the dearest part of an event once the tree outgrows the
// caches — run over an array a third the size of the nodes, whose top
// levels stay in cache. Its node is the rest, 64 bytes, one cache line (a
// large slice is page-aligned): its held/T and (held+1)/T as Next and
// Reclaim compare them (setRatios), and over its subtree the sum of T and
// the bounds Next and Reclaim descend by — what an update reads of a
// child. What is cheap to recompute from T and held (the fraction short,
// whether a whole slot short, the heap priority) is not stored.
type hkey struct {
	t    float64
	held float64
	kid  [2]int32 // the left and the right child
}

type node struct {
	sum      float64
	lo, hi   ratio   // subtree least below, greatest over (below, over)
	plusLo   ratio   // subtree least plus
	fracHi   float64 // subtree greatest frac
	ratio    ratio   // held/T (T > 0); for T = 0, everything if it holds a slot, else nothing
	plus     ratio   // (held+1)/T: a whole slot short of a proportional share when ≤ S/ΣT
	anyShort bool    // some node of the subtree is short
	live     bool
}

// Hopper maintains Hopper's Algorithm 1 (thesis §3.4, Theorem 1; see
// alloc.Allocate for the algorithm and its special cases) over a changing
// set of jobs. Jobs are named by the ids Add returns: small integers,
// reused after Remove, so that the jobs' shares fit a slice indexed by id
// (Snapshot).
//
// Costs, n the jobs held: Add, Update and Remove O(log n) expected (a
// treap's rotations; an Update whose new count keeps the job between its
// neighbours in the order, one descent and no rotation), SetHeld O(log n)
// expected (less when the bounds stop changing partway up, and no descent
// for the job the last Next or Reclaim named), SetSlots O(1); Target O(1),
// after an O(log n) search for the cut-off job in the capacity-constrained
// case, done once after each batch of events (the first Target, Next or
// Snapshot after an event; an Update of a job after the cut-off job, to a
// count still after it, keeps the cut); Snapshot O(ids). Memory O(ids): the
// largest number of jobs held at once. In steady state (no more jobs held
// than before) no method allocates.
//
// The zero Hopper is not usable: create one with New.
type Hopper struct {
	slots float64
	beta  float64
	c     float64 // the speculation factor 2/β (1 for β ≥ 2)

	counts []float64       // scratch: the remaining tasks by id (SnapshotSlots)
	ws     alloc.Workspace // SnapshotSlots' reference's

	// The jobs by id, each a node of the search tree (node); an id not in
	// use has live false and sits on the free list.
	keys  []hkey
	nodes []node
	free  []int32
	root  int32
	n     int
	path  []int32 // scratch: a root-to-node path (treap.go)
	// pathTo is the node path leads to from the root, none if path is not
	// such a path: set by findPath and by Next and Reclaim's descents,
	// valid while the tree keeps its shape (SetHeld, SetSlots and the
	// queries keep it), so that SetHeld of the job Next or Reclaim just
	// named need not descend again.
	pathTo int32
	sink   float64 // scratch: what findPathToward read, unused

	// The cut, valid while fresh: the capacity-constrained case holds
	// (constrained), the cut-off job (cut, none if every job gets V_i) and
	// what it gets (left).
	fresh       bool
	constrained bool
	cut         int32
	left0       float64
}

// New returns a Hopper holding no job, for a cluster of slots ≥ 0 slots
// (finite) and the jobs' Pareto tail index beta > 1 (finite; β ≥ 2 means
// no speculation). Errors are *specsched.InputError naming "slots" or
// "beta".
func New(slots, beta float64) (*Hopper, error) {
	const fn = "online.New"
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return nil, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return nil, err
	}
	return &Hopper{slots: slots, beta: beta, c: hopper.Factor(beta), root: none, pathTo: none}, nil
}

// Len is the number of jobs held. O(1).
func (h *Hopper) Len() int { return h.n }

// IDs is one more than the largest id in use or ever returned by Add and
// not reused since: the length Snapshot writes. O(1).
func (h *Hopper) IDs() int { return len(h.nodes) }

// Slots is the cluster's slots. O(1).
func (h *Hopper) Slots() float64 { return h.slots }

// Add adds a job of remaining ≥ 0 tasks (finite) and returns its id: the
// id Remove freed most recently, if one is free, else IDs(). An error
// (an *specsched.InputError on "remaining", index IDs()), with h
// unchanged, for a negative, NaN or infinite count, or one that would make
// the jobs' total overflow. O(log n) expected; amortised O(1) allocations
// while the ids grow, none after.
func (h *Hopper) Add(remaining float64) (int, error) {
	const fn = "online.Hopper.Add"
	if err := h.checkCount(fn, len(h.nodes), remaining, 0); err != nil {
		return 0, err
	}
	id := takeID(&h.free, &h.nodes, node{})
	if int(id) == len(h.keys) {
		h.keys = append(h.keys, hkey{kid: [2]int32{none, none}})
	}
	h.keys[id].t = remaining + 0 // −0 is +0
	h.nodes[id].live = true
	h.n++
	h.insert(id)
	if math.IsInf(h.total(), 1) { // summed in the tree's order, it overflowed
		h.remove(id)
		h.release(id)
		return 0, check.Err(fn, int(id), "remaining", remaining, overflows)
	}
	return int(id), nil
}

// overflows is the reason of a count that makes the total overflow.
const overflows = "makes the jobs' total remaining tasks overflow float64"

// Update sets job id's remaining tasks to remaining ≥ 0 (finite). An error
// (an *specsched.InputError naming "id" or "remaining" and the id), with h
// unchanged, for an id not in use, or a count Add would reject. O(log n)
// expected: one descent to the job (and, beside it, to its new place), in
// place when the new count keeps it between its neighbours in the order,
// else a removal and an insertion from where the two paths part. It keeps
// the cut fresh if the job was after the cut-off job and still is.
func (h *Hopper) Update(id int, remaining float64) error {
	const fn = "online.Hopper.Update"
	if err := h.checkID(fn, id); err != nil {
		return err
	}
	if err := h.checkCount(fn, id, remaining, h.keys[id].t); err != nil {
		return err
	}
	old := h.keys[id].t
	keep := h.afterCut(int32(id))
	h.move(int32(id), remaining+0)
	if math.IsInf(h.total(), 1) { // summed in the tree's order, it overflowed
		h.move(int32(id), old)
		return check.Err(fn, id, "remaining", remaining, overflows)
	}
	h.fresh = keep && h.before(h.cut, int32(id)) // the cut is still fresh
	return nil
}

// afterCut reports whether the cut is fresh, there is a cut-off job, and
// job id comes after it. A job moving from after the cut-off job to after
// it (the cut fresh before the move) changes neither the cut nor what the cut-off job gets: the jobs up to
// the cut-off job are the same, and so are the subtrees the cut's search
// sums them by (the path's nodes before the cut-off job are those with
// the greatest priority between themselves and it, their left subtrees
// the jobs between them, and a treap's shape over a run of jobs depends
// on those jobs alone); the case stays capacity-constrained, ΣT being at
// least those jobs' sum. O(1).
func (h *Hopper) afterCut(id int32) bool {
	return h.fresh && h.constrained && h.cut != none && h.before(h.cut, id)
}

// Remove removes job id (finished, or gone); its id may be returned by a
// later Add. An error (an *specsched.InputError on "id"), with h unchanged,
// for an id not in use. O(log n) expected.
func (h *Hopper) Remove(id int) error {
	if err := h.checkID("online.Hopper.Remove", id); err != nil {
		return err
	}
	h.remove(int32(id))
	h.release(int32(id))
	return nil
}

// release puts id, already out of the tree, back on the free list.
func (h *Hopper) release(id int32) {
	h.nodes[id].live = false
	h.keys[id].t, h.keys[id].held = 0, 0
	h.free = append(h.free, id)
	h.n--
}

// SetSlots changes the cluster's slots to slots ≥ 0 (finite). An error (an
// *specsched.InputError on "slots"), with h unchanged, otherwise. O(1).
func (h *Hopper) SetSlots(slots float64) error {
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
// O(log n) expected: the path to the job (none to find if the last Next or
// Reclaim named it and the tree kept its shape since), recomputed bottom-up
// as far as its bounds change.
func (h *Hopper) SetHeld(id, slots int) error {
	const fn = "online.Hopper.SetHeld"
	if err := h.checkID(fn, id); err != nil {
		return err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return err
	}
	h.keys[id].held = float64(slots)
	h.refreshNode(int32(id))
	return nil
}

// Held is the slots job id holds (SetHeld), 0 for an id not in use. O(1).
func (h *Hopper) Held(id int) int {
	if id < 0 || id >= len(h.nodes) {
		return 0
	}
	return int(h.keys[id].held)
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
//     node keeps its subtree's largest: from none held, Next hands out
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
// job. O(log n) expected, after the search for the cut if an event came
// since the last query.
func (h *Hopper) Next() (int, bool) {
	h.refresh()
	if h.total() == 0 || h.slots == 0 {
		return 0, false
	}
	if !h.constrained {
		r := quotient(h.slots, h.total())
		x := h.firstAtMost(h.root, r)
		if x == none {
			x = h.firstBelow(h.root, r)
		}
		return int(x), x != none
	}
	// 1. A whole slot short: before the cut, c·T − held ≥ 1; the cut, by
	// its own share.
	if x := h.firstShort(h.root); x != none && (h.cut == none || h.before(x, h.cut)) {
		return int(x), true
	}
	if h.cut != none && h.keys[h.cut].held <= h.left0-1 {
		return int(h.cut), true
	}
	// 2. The largest fraction before the cut, then the cut's own.
	best := h.prefixFrac(h.root)
	cutFrac := -1.0
	if h.cut != none {
		if d := h.left0 - h.keys[h.cut].held; d > 0 && d < 1 {
			cutFrac = d
		}
	}
	switch {
	case best > 0 && best >= cutFrac:
		return int(h.firstFrac(h.root, best)), true
	case cutFrac > 0:
		return int(h.cut), true
	}
	return 0, false
}

// firstAtMost returns the first node of subtree x whose plus ratio is at
// most r, or none. O(depth).
func (h *Hopper) firstAtMost(x int32, r ratio) int32 {
	h.path, h.pathTo = h.path[:0], none
	for x != none && h.nodes[x].plusLo <= r {
		h.path = append(h.path, x) // the path to x (pathTo)
		if l := h.keys[x].kid[0]; l != none && h.nodes[l].plusLo <= r {
			x = l
			continue
		}
		if h.nodes[x].plus <= r {
			h.pathTo = x
			return x
		}
		x = h.keys[x].kid[1]
	}
	return none
}

// firstShort returns the first short node of subtree x, or none.
// O(depth).
func (h *Hopper) firstShort(x int32) int32 {
	h.path, h.pathTo = h.path[:0], none
	for x != none && h.nodes[x].anyShort {
		h.path = append(h.path, x) // the path to x (pathTo)
		if l := h.keys[x].kid[0]; l != none && h.nodes[l].anyShort {
			x = l
			continue
		}
		if h.short(x) {
			h.pathTo = x
			return x
		}
		x = h.keys[x].kid[1]
	}
	return none
}

// inPrefix reports whether node x comes before the cut (every node does
// when there is no cut-off job).
func (h *Hopper) inPrefix(x int32) bool { return h.cut == none || h.before(x, h.cut) }

// prefixFrac returns the largest frac of the nodes before the cut (−1 if
// none is a candidate). O(depth): the nodes before the cut are, along the
// path to it, the nodes passed on the right and their left subtrees.
func (h *Hopper) prefixFrac(x int32) float64 {
	best := -1.0
	for x != none {
		if !h.inPrefix(x) {
			x = h.keys[x].kid[0]
			continue
		}
		if l := h.keys[x].kid[0]; l != none {
			best = max(best, h.nodes[l].fracHi)
		}
		best = max(best, h.frac(x))
		x = h.keys[x].kid[1]
	}
	return best
}

// firstFrac returns the first node before the cut whose frac is f, the
// largest there (prefixFrac). O(depth).
func (h *Hopper) firstFrac(x int32, f float64) int32 {
	for x != none {
		switch l := h.keys[x].kid[0]; {
		case l != none && h.nodes[l].fracHi >= f:
			x = l
		case !h.inPrefix(x):
			return none
		case h.frac(x) == f:
			return x
		default:
			x = h.keys[x].kid[1]
		}
	}
	return none
}

// Reclaim returns the job whose slot should be taken back first when the
// cluster shrinks: the last job, in Algorithm 1's order, that holds more
// slots than its share, and true; or false when none does. The comparison
// is Next's, per task (held_i/T_i > S_i/T_i); a job of 0 tasks holding a
// slot, or a job after the
// cut-off job holding one, is over its share (0). O(log n) expected, after
// the search for the cut.
func (h *Hopper) Reclaim() (int, bool) {
	h.refresh()
	holding := nothing // above it: every job holding a slot
	if h.total() == 0 || h.slots == 0 {
		x := h.lastAbove(h.root, holding)
		return int(x), x != none
	}
	if !h.constrained {
		x := h.lastAbove(h.root, quotient(h.slots, h.total()))
		return int(x), x != none
	}
	if h.cut != none {
		// After the cut every held slot is over the share: the last job
		// holding one, if it comes after the cut.
		if x := h.lastAbove(h.root, holding); x != none && h.before(h.cut, x) {
			return int(x), true
		}
		if h.keys[h.cut].held > h.left0 {
			return int(h.cut), true
		}
	}
	// Before the cut (the cut itself is not over, nor anything after it).
	x := h.lastAbove(h.root, quotient(h.c, 1))
	return int(x), x != none
}

// firstBelow returns the first node of subtree x, in (T, id) order, whose
// below ratio is less than r, or none. O(depth).
func (h *Hopper) firstBelow(x int32, r ratio) int32 {
	h.path, h.pathTo = h.path[:0], none
	for x != none && h.nodes[x].lo < r {
		h.path = append(h.path, x) // the path to x (pathTo)
		if l := h.keys[x].kid[0]; l != none && h.nodes[l].lo < r {
			x = l
			continue
		}
		if h.below(x) < r {
			h.pathTo = x
			return x
		}
		x = h.keys[x].kid[1]
	}
	return none
}

// lastAbove returns the last node of subtree x, in (T, id) order, whose
// over ratio is greater than r, or none. O(depth).
func (h *Hopper) lastAbove(x int32, r ratio) int32 {
	h.path, h.pathTo = h.path[:0], none
	for x != none && r < h.nodes[x].hi {
		h.path = append(h.path, x) // the path to x (pathTo)
		if rt := h.keys[x].kid[1]; rt != none && r < h.nodes[rt].hi {
			x = rt
			continue
		}
		if r < h.nodes[x].ratio {
			h.pathTo = x
			return x
		}
		x = h.keys[x].kid[0]
	}
	return none
}

// setRatios sets id's held/T and (held+1)/T as Next and Reclaim compare
// them: the quotients for T > 0; a job of 0 tasks is never below its
// share (below: everything) and is over it exactly when it holds a slot
// (ratio: everything, else nothing), and is never a whole slot short
// (plus: everything).
func (h *Hopper) setRatios(id int32) {
	t, held := h.keys[id].t, h.keys[id].held
	switch {
	case t > 0:
		h.nodes[id].ratio, h.nodes[id].plus = quotient(held, t), quotient(held+1, t)
	case held > 0:
		h.nodes[id].ratio, h.nodes[id].plus = everything, everything
	default:
		h.nodes[id].ratio, h.nodes[id].plus = nothing, everything
	}
}

// below is node x's held/T as Next compares it: its ratio, or everything
// for a job of 0 tasks (never below its share).
func (h *Hopper) below(x int32) ratio {
	if h.keys[x].t == 0 {
		return everything
	}
	return h.nodes[x].ratio
}

// short reports whether node x holds at most c·T − 1: a whole slot short
// of V = c·T (never for T = 0, V = 0).
func (h *Hopper) short(x int32) bool {
	return h.keys[x].held <= h.c*h.keys[x].t+0-1
}

// frac is c·T − held of node x if in (0, 1) (held = ⌊V⌋, a
// largest-remainder candidate), else −1.
func (h *Hopper) frac(x int32) float64 {
	if d := h.c*h.keys[x].t + 0 - h.keys[x].held; d > 0 && d < 1 {
		return d
	}
	return -1
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
	ma, ea := math.Frexp(a)
	mb, eb := math.Frexp(b)
	m, e := math.Frexp(ma / mb) // ma/mb in (0.5, 2): no overflow, no underflow
	const fraction = 1<<52 - 1
	return ratio(uint64(ea-eb+e+ratioBias)<<51 | math.Float64bits(m)&fraction>>1)
}

// Target returns job id's share S_i of Algorithm 1: what alloc.Allocate
// gives it on the jobs held. An error (an *specsched.InputError on "id")
// for an id not in use. O(1), after the search for the cut (O(log n)) if
// an event came since the last query.
func (h *Hopper) Target(id int) (float64, error) {
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
	if c := cmp.Compare(h.remainingOf(a), h.remainingOf(b)); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// Snapshot writes every job's share to dst[id], 0 for an id not in use,
// and returns dst[:IDs()] (grown if its capacity is less): alloc.Allocate
// on the remaining tasks indexed by id, 0 for ids not in use. O(IDs()).
func (h *Hopper) Snapshot(dst []float64) []float64 {
	n := len(h.nodes)
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	h.refresh()
	for id := range dst {
		dst[id] = 0
		if h.nodes[id].live {
			dst[id] = h.share(int32(id))
		}
	}
	return dst
}

// remainingOf is the remaining tasks of id, 0 for an id not in use.
func (h *Hopper) remainingOf(id int) float64 {
	if id < 0 || id >= len(h.nodes) {
		return 0
	}
	return h.keys[id].t
}

// share is job id's share, with the cut fresh.
func (h *Hopper) share(id int32) float64 {
	t := h.keys[id].t
	switch {
	case h.total() == 0 || h.slots == 0:
		return 0
	case !h.constrained:
		return hopper.Proportional(t, h.total(), h.slots)
	case h.cut == none || h.before(id, h.cut):
		return h.c*t + 0
	case id == h.cut:
		return h.left0
	}
	return 0
}

// total is ΣT over the jobs held.
func (h *Hopper) total() float64 {
	if h.root == none {
		return 0
	}
	return h.nodes[h.root].sum
}

// refresh recomputes the case and the cut if an event came since the last.
// Case 1 holds when c·ΣT ≥ S within alloc.CaseTolerance, as in Allocate;
// its cut is the first job, in (T, id) order, at which the virtual sizes so
// far reach S, found by one descent: a subtree is skipped whole when the
// sum before it plus its own stays below S/c.
func (h *Hopper) refresh() {
	if h.fresh {
		return
	}
	h.fresh = true
	total := h.total()
	h.constrained = total > 0 && h.slots > 0 && h.c*total >= h.slots*(1-hopper.CaseTolerance)
	if !h.constrained {
		return
	}
	h.cut = none
	before := 0.0 // ΣT of the jobs before x's subtree
	for x := h.root; x != none; {
		l := h.keys[x].kid[0]
		ls := 0.0
		if l != none {
			ls = h.nodes[l].sum
		}
		switch {
		case h.c*(before+ls) >= h.slots && l != none:
			x = l
		case h.c*(before+ls+h.keys[x].t) >= h.slots:
			h.cut = x
			h.left0 = min(h.c*h.keys[x].t, max(h.slots-h.c*(before+ls), 0))
			return
		default:
			before += ls + h.keys[x].t
			x = h.keys[x].kid[1]
		}
	}
	// Rounding kept the virtual sizes a hair below S although c·ΣT ≥ S:
	// every job gets V_i (cut none).
}

// before reports whether job a comes before job b in (T, id) order.
func (h *Hopper) before(a, b int32) bool {
	return h.keys[a].t < h.keys[b].t || h.keys[a].t == h.keys[b].t && a < b
}

// checkID returns an error unless id is in use.
func (h *Hopper) checkID(fn string, id int) error {
	if id < 0 || id >= len(h.nodes) || !h.nodes[id].live {
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
	if math.IsInf(h.total()-old+remaining, 0) {
		return check.Err(fn, id, "remaining", remaining, overflows)
	}
	return nil
}

// priority is id's treap priority: a fixed hash of the id, so the tree's
// shape depends only on the jobs held. It is splitmix64's finaliser, a
// bijection (an added constant, xor-shifts and multiplications by odd
// numbers, each invertible on 64 bits): no two ids share a priority.
func priority(id int32) uint64 {
	z := uint64(id) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
