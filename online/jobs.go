package online

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// jobs is the job set under Fair and Classes: a treap ordered by (class,
// T, id), the class being a job's tail index min(β, 2) for Classes and 0
// for Fair, whose nodes hold sums and bounds over their subtrees. Ids are
// small integers, reused after remove, as in Hopper. The tree is a treap
// on the ids' fixed priorities (priority), so its shape, and the order in
// which its sums add, depend only on the jobs held; its operations are
// recursive split, merge and descent, O(depth) = O(log n) expected
// (Seidel and Aragon 1996), and allocate nothing once the ids stop
// growing.
type jobs struct {
	nodes []jobNode
	free  []int32
	root  int32
	n     int
	ends  bool    // keep the class ends (Classes): see jobNode.end
	slots float64 // the cluster's slots
	fresh bool    // the owner's cut-offs are valid: no event since its refresh
}

// A jobNode is one job and, over its subtree, the sums the algorithms'
// cut-offs are found by and the bounds Next descends by.
type jobNode struct {
	class, t, held float64
	w, v           float64 // proportional weight (T/√(β−1), or T) and virtual size (c·T)
	u              float64 // the basis of the per-unit bounds: a job's share, where proportional, is k·u
	left, right    int32
	live           bool
	plus, hold     ratio // (held+1)/u and held/u if T > 0, else everything (setOwn): update's own terms, not recomputed per update

	count            int     // active jobs (T > 0) in the subtree
	sumT, sumW, sumV float64 // over the subtree
	minHeld          float64 // least held of the subtree's active jobs (+Inf if none)
	minPlus, minHold ratio   // least (held+1)/u and held/u of its active jobs (everything if none)
	maxHeld          float64 // greatest held of the subtree's active jobs (−Inf if none)
	maxHold          ratio   // greatest held/u of its active jobs (nothing if none)
	idleHolds        bool    // some job of 0 tasks in the subtree holds a slot (over its share, 0)

	// Class ends, kept when jobs.ends is set: the node is the last of its
	// class (end), the next class's slope a (nextSlope, −1 if none); over
	// the subtree, whether it holds an end (hasEnd), Σw of its nodes up to
	// and including its last end (lastW) and that end's nextSlope
	// (lastSlope). Classes' level search descends by them.
	end              bool
	nextSlope        float64
	hasEnd           bool
	lastW, lastSlope float64
}

// A key is a place in the (class, T, id) order; ids are int64 so that a
// key just before or after a node's own can be written (id ∓ 1/2 as id ∓ 1
// with the order strict, see runs.start and keyAfter).
type key struct {
	class, t float64
	id       int64
}

// keyOf is node x's key.
func (j *jobs) keyOf(x int32) key { return key{j.nodes[x].class, j.nodes[x].t, int64(x)} }

// less reports whether a comes before b.
func (a key) less(b key) bool {
	if a.class != b.class {
		return a.class < b.class
	}
	if a.t != b.t {
		return a.t < b.t
	}
	return a.id < b.id
}

// Sentinel keys: before and after every node.
var (
	keyFirst = key{math.Inf(-1), 0, 0}
	keyLast  = key{math.Inf(1), 0, 0}
)

// add takes an id (the last freed, else a new one) for a job of the given
// class, T, weight, virtual size and basis u, and inserts it. O(log n)
// expected.
func (j *jobs) add(class, t, w, v, u float64) int32 {
	id := takeID(&j.free, &j.nodes, jobNode{})
	j.nodes[id] = jobNode{class: class, t: t, w: w, v: v, u: u, left: none, right: none, live: true}
	j.n++
	j.setOwn(id)
	j.update(id)
	j.root = j.insert(j.root, id)
	if j.ends {
		j.fixEnd(id)
		j.fixEnd(j.lastBefore(j.keyOf(id)))
	}
	return id
}

// detach takes id out of the tree, keeping the class-end marks (its
// predecessor may become its class's last job). O(log n) expected.
func (j *jobs) detach(id int32) {
	var pred int32 = none
	if j.ends {
		pred = j.lastBefore(j.keyOf(id))
	}
	j.root = j.remove(j.root, id)
	if j.ends {
		j.fixEnd(pred)
	}
}

// release removes id from the tree and frees it. O(log n) expected.
func (j *jobs) release(id int32) {
	j.detach(id)
	j.nodes[id] = jobNode{left: none, right: none}
	j.free = append(j.free, id)
	j.n--
}

// set changes id's class, T, weight, virtual size and basis. O(log n)
// expected.
func (j *jobs) set(id int32, class, t, w, v, u float64) {
	j.detach(id)
	n := &j.nodes[id]
	n.class, n.t, n.w, n.v, n.u, n.left, n.right = class, t, w, v, u, none, none
	j.setOwn(id)
	j.update(id)
	j.root = j.insert(j.root, id)
	if j.ends {
		j.fixEnd(id)
		j.fixEnd(j.lastBefore(j.keyOf(id)))
	}
}

// levelEnd returns the last job of the first class, in order, at whose
// end reaches(w, a) holds — w the Σw of the jobs up to that end, a the
// next class's slope (−1 if none) — for a predicate monotone along the
// classes: one descent on the subtree ends, O(depth). none for an empty
// tree.
func (j *jobs) levelEnd(reaches func(w, a float64) bool) int32 {
	acc := 0.0 // Σw before the subtree
	for x := j.root; x != none; {
		n := &j.nodes[x]
		l := n.left
		upTo := acc + n.w
		if l != none {
			upTo += j.nodes[l].sumW
		}
		// The last end at or before x in its subtree: in the left subtree
		// if it holds one and the search holds there, else x itself.
		if l != none && j.nodes[l].hasEnd && reaches(acc+j.nodes[l].lastW, j.nodes[l].lastSlope) {
			x = l
			continue
		}
		if n.end && reaches(upTo, n.nextSlope) {
			return x
		}
		acc = upTo
		x = n.right
	}
	return none
}

// setHeld changes id's held slots, updating its path. O(log n) expected.
func (j *jobs) setHeld(id int32, held float64) {
	j.nodes[id].held = held
	j.setOwn(id)
	j.touch(j.root, id)
}

// setOwn sets node id's (held+1)/u and held/u from its held, u and T.
// O(1).
func (j *jobs) setOwn(id int32) {
	n := &j.nodes[id]
	n.plus, n.hold = everything, everything
	if n.t > 0 {
		n.plus, n.hold = quotient(n.held+1, n.u), quotient(n.held, n.u)
	}
}

// touch recomputes, bottom-up, the sums and bounds of the nodes on the
// path from x down to id (whose own fields changed), up to the first that
// comes out unchanged: a parent's update reads of its children only their
// sums and bounds, so above it nothing changes. It reports whether x
// changed. O(depth).
func (j *jobs) touch(x, id int32) bool {
	if x != id {
		c := j.nodes[x].right
		if j.keyOf(id).less(j.keyOf(x)) {
			c = j.nodes[x].left
		}
		if !j.touch(c, id) {
			return false // nothing below changed: nor does x
		}
	}
	old := j.nodes[x]
	j.update(x)
	return j.nodes[x] != old
}

// insert puts id into the subtree rooted at x by its (T, id) key, at the
// depth its priority gives it (the subtree below split there by the key),
// and returns the subtree's new root. O(log n) expected. It and remove are the two descents of one treap, alike in
// shape (duplicates pairs them) but not in what they do at the bottom.
func (j *jobs) insert(x, id int32) int32 {
	if x == none {
		return id
	}
	if priority(id) > priority(x) {
		j.nodes[id].left, j.nodes[id].right = j.split(x, j.keyOf(id))
		j.update(id)
		return id
	}
	if j.keyOf(id).less(j.keyOf(x)) {
		j.nodes[x].left = j.insert(j.nodes[x].left, id)
	} else {
		j.nodes[x].right = j.insert(j.nodes[x].right, id)
	}
	j.update(x)
	return x
}

// remove takes id out of the subtree rooted at x, merging its children in
// its place, and returns the subtree's new root. O(log n) expected.
func (j *jobs) remove(x, id int32) int32 {
	if x == id {
		return j.merge(j.nodes[x].left, j.nodes[x].right)
	}
	if j.keyOf(id).less(j.keyOf(x)) {
		j.nodes[x].left = j.remove(j.nodes[x].left, id)
	} else {
		j.nodes[x].right = j.remove(j.nodes[x].right, id)
	}
	j.update(x)
	return x
}

// split splits subtree x into the nodes before k and the rest.
func (j *jobs) split(x int32, k key) (int32, int32) {
	if x == none {
		return none, none
	}
	if j.keyOf(x).less(k) {
		l, r := j.split(j.nodes[x].right, k)
		j.nodes[x].right = l
		j.update(x)
		return x, r
	}
	l, r := j.split(j.nodes[x].left, k)
	j.nodes[x].left = r
	j.update(x)
	return l, x
}

// merge joins subtrees a and b, every node of a before every node of b.
func (j *jobs) merge(a, b int32) int32 {
	switch {
	case a == none:
		return b
	case b == none:
		return a
	case priority(a) > priority(b):
		j.nodes[a].right = j.merge(j.nodes[a].right, b)
		j.update(a)
		return a
	}
	j.nodes[b].left = j.merge(a, j.nodes[b].left)
	j.update(b)
	return b
}

// update recomputes node x's subtree sums and bounds from its own fields
// and its children's.
func (j *jobs) update(x int32) {
	n := &j.nodes[x]
	n.count, n.sumT, n.sumW, n.sumV = 0, n.t, n.w, n.v
	n.minHeld, n.minPlus, n.minHold = math.Inf(1), everything, everything
	n.maxHeld, n.maxHold, n.idleHolds = math.Inf(-1), nothing, false
	if n.t > 0 {
		n.count, n.minHeld, n.maxHeld = 1, n.held, n.held
		n.minPlus, n.minHold, n.maxHold = n.plus, n.hold, n.hold
	} else {
		n.idleHolds = n.held > 0
	}
	for _, c := range [2]int32{n.left, n.right} {
		if c == none {
			continue
		}
		s := &j.nodes[c]
		n.count += s.count
		n.sumT += s.sumT
		n.sumW += s.sumW
		n.sumV += s.sumV
		n.minHeld = min(n.minHeld, s.minHeld)
		n.minPlus, n.minHold = min(n.minPlus, s.minPlus), min(n.minHold, s.minHold)
		n.maxHeld, n.maxHold = max(n.maxHeld, s.maxHeld), max(n.maxHold, s.maxHold)
		n.idleHolds = n.idleHolds || s.idleHolds
	}
	if !j.ends {
		return
	}
	upTo := n.w // Σw of the left subtree and the node
	if n.left != none {
		upTo = j.nodes[n.left].sumW + n.w
	}
	switch {
	case n.right != none && j.nodes[n.right].hasEnd:
		r := &j.nodes[n.right]
		n.hasEnd, n.lastW, n.lastSlope = true, upTo+r.lastW, r.lastSlope
	case n.end:
		n.hasEnd, n.lastW, n.lastSlope = true, upTo, n.nextSlope
	case n.left != none && j.nodes[n.left].hasEnd:
		l := &j.nodes[n.left]
		n.hasEnd, n.lastW, n.lastSlope = true, l.lastW, l.lastSlope
	default:
		n.hasEnd, n.lastW, n.lastSlope = false, 0, 0
	}
}

// lastBefore is the last node whose key is before k, or none. O(depth).
func (j *jobs) lastBefore(k key) int32 {
	best := int32(none)
	for x := j.root; x != none; {
		if j.keyOf(x).less(k) {
			best, x = x, j.nodes[x].right
		} else {
			x = j.nodes[x].left
		}
	}
	return best
}

// fixEnd recomputes whether node y (none: nothing) is the last of its
// class, and the next class's slope, from its successor, and updates its
// path. O(depth).
func (j *jobs) fixEnd(y int32) {
	if y == none {
		return
	}
	n := &j.nodes[y]
	s := j.firstAfter(j.keyOf(y))
	n.end, n.nextSlope = s == none || j.nodes[s].class != n.class, -1
	if s != none {
		n.nextSlope = slope(j.nodes[s].class)
	}
	j.touch(j.root, y)
}

// sums is what a run of jobs in order adds up to.
type sums struct {
	count            int
	sumT, sumW, sumV float64
}

func (s sums) plusNode(n *jobNode) sums {
	return sums{s.count + n.count, s.sumT + n.sumT, s.sumW + n.sumW, s.sumV + n.sumV}
}

// subtree is the sums of subtree x (zero for none).
func (j *jobs) subtree(x int32) sums {
	if x == none {
		return sums{}
	}
	return sums{}.plusNode(&j.nodes[x])
}

// own is node x's own sums.
func (j *jobs) own(x int32) sums {
	n := &j.nodes[x]
	s := sums{sumT: n.t, sumW: n.w, sumV: n.v}
	if n.t > 0 {
		s.count = 1
	}
	return s
}

func (s sums) add(o sums) sums {
	return sums{s.count + o.count, s.sumT + o.sumT, s.sumW + o.sumW, s.sumV + o.sumV}
}

// all is the sums over every job held.
func (j *jobs) all() sums { return j.subtree(j.root) }

// search returns the first node x, in order, at which found(before, x)
// holds — before the sums of the jobs ahead of x — with those sums, or
// none and the sums of every job. found must be monotone along the order
// (false, then true). O(depth).
func (j *jobs) search(found func(before sums, x int32) bool) (int32, sums) {
	return j.searchIn(j.root, found)
}

// searchIn is search over subtree root alone.
func (j *jobs) searchIn(root int32, found func(before sums, x int32) bool) (int32, sums) {
	best, bestBefore := int32(none), sums{}
	acc := sums{}
	for x := root; x != none; {
		l := j.nodes[x].left
		before := acc.add(j.subtree(l))
		if found(before, x) {
			best, bestBefore = x, before
			x = l
			continue
		}
		acc = before.add(j.own(x))
		x = j.nodes[x].right
	}
	if best == none {
		return none, acc
	}
	return best, bestBefore
}

// A probe asks of a job whether it is short of a share or over it: its
// held against a constant share (held ≤ bound − 1 whole, held < bound
// short, held > bound over, on minHeld and maxHeld), or against a share
// proportional to its basis u, per unit of u ((held+1)/u ≤ r, held/u < r,
// held/u > r, on minPlus, minHold and maxHold). Only active jobs (T > 0)
// are ever short; a job of 0 tasks has the share 0 and is over it exactly
// when it holds a slot, whatever the bound.
type probe struct {
	perWeight bool
	mode      probeMode
	bound     float64 // the share, for a constant one
	r         ratio   // the share per unit of u, for a proportional one
}

// A probeMode is what a probe looks for.
type probeMode int

const (
	shortWhole probeMode = iota // a whole slot short: held ≤ share − 1
	shortAtAll                  // short at all: held < share
	over                        // over the share: held > share
)

// may reports whether subtree x may hold a job the probe accepts (exact
// for a subtree wholly in range), is whether node x itself is one.
func (j *jobs) may(x int32, p probe) bool {
	n := &j.nodes[x]
	switch {
	case p.mode == over && p.perWeight:
		return n.idleHolds || p.r < n.maxHold
	case p.mode == over:
		return n.idleHolds || p.bound < n.maxHeld
	case !p.perWeight && p.mode == shortWhole:
		return n.minHeld <= p.bound-1
	case !p.perWeight:
		return n.minHeld < p.bound
	case p.mode == shortWhole:
		return n.minPlus <= p.r
	}
	return n.minHold < p.r
}

func (j *jobs) is(x int32, p probe) bool {
	n := &j.nodes[x]
	if n.t == 0 {
		return p.mode == over && n.held > 0
	}
	switch {
	case p.mode == over && p.perWeight:
		return p.r < n.hold
	case p.mode == over:
		return p.bound < n.held
	case !p.perWeight && p.mode == shortWhole:
		return n.held <= p.bound-1
	case !p.perWeight:
		return n.held < p.bound
	case p.mode == shortWhole:
		return n.plus <= p.r
	}
	return n.hold < p.r
}

// find returns the first node (the last, if last) of subtree x with lo <
// key < hi that p accepts, or none. O(depth): a subtree may cannot hold
// one is skipped; the nodes visited lie on the paths to lo and hi, plus
// one descent into a subtree wholly in range that holds the answer (there
// may is exact, so a descent into it never comes back empty).
func (j *jobs) find(x int32, lo, hi key, p probe, last bool) int32 {
	for x != none && j.may(x, p) {
		k := j.keyOf(x)
		switch {
		case !lo.less(k):
			x = j.nodes[x].right
		case !k.less(hi):
			x = j.nodes[x].left
		default:
			// x in range: its left subtree is bounded by lo only, its right
			// by hi only. The near side is searched first (recursively), then
			// x, then the far side (in this loop).
			near, far := j.nodes[x].left, j.nodes[x].right
			nearLo, nearHi, farLo, farHi := lo, keyLast, keyFirst, hi
			if last {
				near, far = far, near
				nearLo, nearHi, farLo, farHi = keyFirst, hi, lo, keyLast
			}
			if y := j.find(near, nearLo, nearHi, p, last); y != none {
				return y
			}
			if j.is(x, p) {
				return x
			}
			x, lo, hi = far, farLo, farHi
		}
	}
	return none
}

// sumBelow is the sums of the jobs before key k. O(depth).
func (j *jobs) sumBelow(k key) sums {
	acc := sums{}
	for x := j.root; x != none; {
		if j.keyOf(x).less(k) {
			acc = acc.add(j.subtree(j.nodes[x].left)).add(j.own(x))
			x = j.nodes[x].right
		} else {
			x = j.nodes[x].left
		}
	}
	return acc
}

// firstAfter is the first node whose key is after k, or none. O(depth).
func (j *jobs) firstAfter(k key) int32 {
	best := int32(none)
	for x := j.root; x != none; {
		if k.less(j.keyOf(x)) {
			best, x = x, j.nodes[x].left
		} else {
			x = j.nodes[x].right
		}
	}
	return best
}

// A share is what the jobs of a run of the order get: a constant
// (bound), or r per unit of their basis u (perWeight).
type share struct {
	perWeight bool
	bound     float64
	r         ratio
}

// constantShare and perUnit are the shares bound, and num/den per unit of
// u (the quotient rounded once at any magnitude: num/den itself may
// overflow; nobody is below a share ≤ 0).
func constantShare(bound float64) share { return share{bound: bound} }

func perUnit(num, den float64) share {
	if !(num > 0) {
		return share{perWeight: true, r: nothing}
	}
	return share{perWeight: true, r: quotient(num, den)}
}

// runs splits the order into consecutive runs over each of which the
// shares are one share: run k holds the jobs from the end of run k−1 (the
// first job, for k = 0) up to, not including, ends[k]; the last ends at
// keyLast. At most five runs (Fair's case 1: the floors, the virtual sizes,
// the cut-off job, the floors again, and none after).
type runs struct {
	n      int
	ends   [5]key
	shares [5]share
}

// add appends a run ending before end with the given share.
func (rs *runs) add(end key, s share) {
	rs.ends[rs.n], rs.shares[rs.n] = end, s
	rs.n++
}

// start is the key just before run k's first job.
func (rs *runs) start(k int) key {
	if k == 0 {
		return keyFirst
	}
	lo := rs.ends[k-1]
	lo.id-- // the run starts at ends[k-1]'s job
	return lo
}

// first is the first job, in order, that mode accepts against its run's
// share, or none; last the last. O(runs · depth).
func (j *jobs) first(rs *runs, mode probeMode) int32 {
	for k := range rs.n {
		s := rs.shares[k]
		if x := j.find(j.root, rs.start(k), rs.ends[k], probe{s.perWeight, mode, s.bound, s.r}, false); x != none {
			return x
		}
	}
	return none
}

func (j *jobs) last(rs *runs, mode probeMode) int32 {
	for k := rs.n - 1; k >= 0; k-- {
		s := rs.shares[k]
		if x := j.find(j.root, rs.start(k), rs.ends[k], probe{s.perWeight, mode, s.bound, s.r}, true); x != none {
			return x
		}
	}
	return none
}

// next is Next over the runs: the first job a whole slot short of its
// share, else the first short at all; reclaim is Reclaim: the last job
// over its share. Each reports whether it found one.
func (j *jobs) next(rs *runs) (int, bool) {
	for _, mode := range [2]probeMode{shortWhole, shortAtAll} {
		if x := j.first(rs, mode); x != none {
			return int(x), true
		}
	}
	return 0, false
}

func (j *jobs) reclaim(rs *runs) (int, bool) {
	x := j.last(rs, over)
	return int(x), x != none
}

// keyAfter is the key just after node x's: a run ending at it holds x.
func (j *jobs) keyAfter(x int32) key {
	k := j.keyOf(x)
	k.id++
	return k
}

// checkID returns an error unless id is in use.
func (j *jobs) checkID(fn string, id int) error {
	if id < 0 || id >= len(j.nodes) || !j.nodes[id].live {
		return check.Err(fn, id, "id", float64(id), "no job with this id (never added, or removed)")
	}
	return nil
}

// held is the slots job id holds, 0 for an id not in use.
func (j *jobs) heldOf(id int) int {
	if id < 0 || id >= len(j.nodes) {
		return 0
	}
	return int(j.nodes[id].held)
}

// compare is the (class, T, id) order of ids a and b, ids not in use
// comparing as jobs of class 0 and 0 tasks.
func (j *jobs) compare(a, b int) int {
	ka, kb := j.keyOrZero(a), j.keyOrZero(b)
	switch {
	case ka.less(kb):
		return -1
	case kb.less(ka):
		return 1
	}
	return 0
}

func (j *jobs) keyOrZero(id int) key {
	if id < 0 || id >= len(j.nodes) || !j.nodes[id].live {
		return key{0, 0, int64(id)}
	}
	return j.keyOf(int32(id))
}

// takeID returns the last freed id of free (its node as its release left
// it), else a new one whose node, fresh, it appends to nodes: the ids of
// Fair's and Classes' jobs, and of Hopper's jobs and B+-tree nodes. O(1),
// amortised for the append.
func takeID[T any](free *[]int32, nodes *[]T, fresh T) int32 {
	if k := len(*free); k > 0 {
		id := (*free)[k-1]
		*free = (*free)[:k-1]
		return id
	}
	*nodes = append(*nodes, fresh)
	return int32(len(*nodes) - 1)
}

// The events and the snapshot Fair and Classes share, fn naming the
// exported method; an event that changes the shares marks the owner's
// cut-offs stale (fresh = false).

// removeJob is Remove: an error (an *specsched.InputError on "id"), with j
// unchanged, for an id not in use. O(log n) expected.
func (j *jobs) removeJob(fn string, id int) error {
	if err := j.checkID(fn, id); err != nil {
		return err
	}
	j.fresh = false
	j.release(int32(id))
	return nil
}

// setSlots is SetSlots: slots ≥ 0 (finite), else an error (an
// *specsched.InputError on "slots") with j unchanged. O(1).
func (j *jobs) setSlots(fn string, slots float64) error {
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return err
	}
	j.slots, j.fresh = slots, false
	return nil
}

// setHeldJob is SetHeld: job id holds slots ≥ 0 slots (at most 2^53), else
// an error (an *specsched.InputError on "id" or "slots") with j unchanged.
// The shares do not change. O(log n) expected.
func (j *jobs) setHeldJob(fn string, id, slots int) error {
	if err := j.checkID(fn, id); err != nil {
		return err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return err
	}
	j.setHeld(int32(id), float64(slots))
	return nil
}

// snapshot writes share(id) to dst[id] for every id in use, 0 for the
// others, and returns dst[:len(nodes)], grown if too small; the owner's
// cut-offs must be fresh. O(ids).
func (j *jobs) snapshot(dst []float64, share func(int32) float64) []float64 {
	n := len(j.nodes)
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	for id := range dst {
		dst[id] = 0
		if j.nodes[id].live {
			dst[id] = share(int32(id))
		}
	}
	return dst
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
