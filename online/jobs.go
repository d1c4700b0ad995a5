package online

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// jobs is the job set under Fair and Classes: a B+-tree ordered by
// (class, T, id), the class being a job's tail index min(β, 2) for
// Classes and 0 for Fair, in the shape of Hopper's (bptree.go): every job
// in a leaf, all leaves at one depth, each node holding up to jbWidth
// items — a leaf its jobs, an inner node its children — in key order. Each
// item keeps the keys of the first and last job below it and, over those
// jobs, the sums the algorithms' cut-offs are found by (active jobs, ΣT,
// Σw, ΣV), the bounds Next and Reclaim descend by, and, for Classes, where
// a class starts below it. At fanout 16 the tree is about log₁₀ n levels
// deep: five at 10⁵ jobs, against the ~23 expected of the treap it
// replaces, whose cache misses were most of an event's cost.
//
// Every item is recomputed from its node's items (summarize), never
// adjusted by differences, so the sums carry no drift; their grouping, and
// so their last bits, follows the tree's shape, which depends on the order
// of the events. Ids are small integers, reused after remove, as in
// Hopper; id = the job's index in nodes.
//
// Costs, n the jobs: depth at most 1 + log₄ n; an insertion or removal
// O(jbWidth · depth) = O(log n), splits and merges included (each at most
// once per level); a change of held recomputes up the job's path only as
// far as the items change. Nothing allocates once the ids and the nodes
// stop growing.
type jobs struct {
	nodes []jobNode // the jobs by id
	free  []int32
	n     int

	tree     []jbNode
	freeTree []int32
	root     int32 // a leaf, empty, when no job is held
	total    sums  // over every job: the root's items added in order

	ends  bool    // keep where classes start (Classes): see jbItem.start
	slots float64 // the cluster's slots
	fresh bool    // the owner's cut-offs are valid: no event since its refresh
}

// A jobNode is what is kept of one job by its id: its class, T, held
// slots, proportional weight w (T/√(β−1), or T), virtual size v (c·T),
// the basis u of its per-unit bounds (a job's share, where proportional,
// is k·u), and the leaf it sits in (none for an id not in use).
type jobNode struct {
	class, t, held float64
	w, v, u        float64
	leaf           int32
	live           bool
}

// jbWidth is a node's capacity in items. A node other than the root holds
// at least jbWidth/4; an inner root at least 2.
const jbWidth = 16

// A jbNode is a node of the tree: n items, in key order.
type jbNode struct {
	n      int
	leaf   bool
	parent int32
	items  [jbWidth]jbItem
}

// A jbItem is a job, in a leaf, or a child node with what its jobs add up
// to, in an inner node.
type jbItem struct {
	s           sums // over the jobs below
	first, last key  // the keys of the first and last job below
	kid         int32

	minHeld          float64 // least held of the active jobs (T > 0) below (+Inf if none)
	maxHeld          float64 // greatest held of the active jobs below (−Inf if none)
	minPlus, minHold ratio   // least (held+1)/u and held/u of the active jobs below (everything if none)
	maxHold          ratio   // greatest held/u of the active jobs below (nothing if none)
	idle             bool    // a job of 0 tasks below holds a slot (over its share, 0)

	// Classes (jobs.ends): a class starts below the item — at a job below
	// it, not its first, whose predecessor is of another class (start) —
	// and, for its last such job, Σw of the jobs below before it (startW)
	// and the slope of its class (startSlope). A start at an item's first
	// job is its node's to see: the previous item's last key differs in
	// class. Classes' level search descends by them.
	start              bool
	startW, startSlope float64
}

// A key is a place in the (class, T, id) order; ids are int64 so that a
// key just before or after a job's own can be written (id ∓ 1/2 as id ∓ 1
// with the order strict, see runs.start and keyAfter).
type key struct {
	class, t float64
	id       int64
}

// keyOf is job x's key.
func (j *jobs) keyOf(x int32) key { return key{j.nodes[x].class, j.nodes[x].t, int64(x)} }

// keyOrLast is job x's key, or keyLast for none (a cut-off not found:
// every job comes before it).
func (j *jobs) keyOrLast(x int32) key {
	if x == none {
		return keyLast
	}
	return j.keyOf(x)
}

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

// Sentinel keys: before and after every job.
var (
	keyFirst = key{math.Inf(-1), 0, 0}
	keyLast  = key{math.Inf(1), 0, 0}
)

// newJobs returns an empty job set (its root an empty leaf) on slots
// slots, keeping class starts if ends.
func newJobs(slots float64, ends bool) jobs {
	j := jobs{slots: slots, ends: ends}
	j.root = j.newTreeNode(true, none)
	return j
}

// newTreeNode returns a node, the last freed or a new one (takeID), empty.
// O(1), amortised for the append.
func (j *jobs) newTreeNode(leaf bool, parent int32) int32 {
	x := takeID(&j.freeTree, &j.tree, jbNode{})
	j.tree[x] = jbNode{leaf: leaf, parent: parent}
	return x
}

// add takes an id (the last freed, else a new one) for a job of the given
// class, T, weight, virtual size and basis u, and inserts it. O(log n).
func (j *jobs) add(class, t, w, v, u float64) int32 {
	id := takeID(&j.free, &j.nodes, jobNode{leaf: none})
	j.nodes[id] = jobNode{class: class, t: t, w: w, v: v, u: u, leaf: none, live: true}
	j.n++
	j.insert(id)
	return id
}

// release removes id from the tree and frees it. O(log n).
func (j *jobs) release(id int32) {
	j.detach(id)
	j.nodes[id] = jobNode{leaf: none}
	j.free = append(j.free, id)
	j.n--
}

// set changes id's class, T, weight, virtual size and basis: in place when
// its new key stays between its neighbours in its leaf; else out of its
// leaf and into the one its new key falls in, found from the old leaf's
// parent up (place), the two leaves' paths recomputed side by side
// (fixPair) — or, when the old leaf is left short, rebalanced and the job
// inserted from the root. O(jbWidth · depth).
func (j *jobs) set(id int32, class, t, w, v, u float64) {
	x := j.nodes[id].leaf
	n := &j.tree[x]
	i := j.indexIn(x, id)
	k := key{class, t, int64(id)}
	r := &j.nodes[id]
	r.class, r.t, r.w, r.v, r.u = class, t, w, v, u
	if i > 0 && i < n.n-1 && n.items[i-1].last.less(k) && k.less(n.items[i+1].first) {
		n.items[i] = j.jobItem(id)
		j.fixUp(x, false)
		return
	}
	j.closeAt(x, i)
	if x != j.root && n.n < jbWidth/4 {
		j.rebalance(x)
		j.insert(id)
		return
	}
	from := n.parent
	if x == j.root {
		from = x
	}
	j.fixPair(x, j.place(id, from))
}

// setHeld changes id's held slots, recomputing its path only as far as
// the items change. O(log n).
func (j *jobs) setHeld(id int32, held float64) {
	j.nodes[id].held = held
	x := j.nodes[id].leaf
	j.tree[x].items[j.indexIn(x, id)] = j.jobItem(id)
	j.fixUp(x, true)
}

// jobItem is job id's item in its leaf: its key as first and last, its own
// sums, and bounds over itself — held, held/u and (held+1)/u for T > 0 (a
// job of 0 tasks is never short, and is over its share, 0, exactly when it
// holds a slot: idle). O(1).
func (j *jobs) jobItem(id int32) jbItem {
	r := &j.nodes[id]
	k := key{r.class, r.t, int64(id)}
	it := jbItem{s: sums{sumT: r.t, sumW: r.w, sumV: r.v}, first: k, last: k, kid: id,
		minHeld: math.Inf(1), maxHeld: math.Inf(-1), minPlus: everything, minHold: everything, maxHold: nothing}
	if r.t > 0 {
		it.s.count = 1
		it.minHeld, it.maxHeld = r.held, r.held
		it.minPlus, it.minHold = quotient(r.held+1, r.u), quotient(r.held, r.u)
		it.maxHold = it.minHold
	} else {
		it.idle = r.held > 0
	}
	return it
}

// summarize is node x's item in its parent: its first and last keys, its
// items' sums added in order, the bounds over them and, for Classes, its
// last class start (at an item's first job when the item before ends in
// another class, or inside an item). O(jbWidth).
func (j *jobs) summarize(x int32) jbItem {
	n := &j.tree[x]
	it := jbItem{first: n.items[0].first, last: n.items[n.n-1].last, kid: x,
		minHeld: math.Inf(1), maxHeld: math.Inf(-1), minPlus: everything, minHold: everything, maxHold: nothing}
	for k := range n.n {
		c := &n.items[k]
		if j.ends {
			if k > 0 && n.items[k-1].last.class != c.first.class {
				it.start, it.startW, it.startSlope = true, it.s.sumW, slope(c.first.class)
			}
			if c.start {
				it.start, it.startW, it.startSlope = true, it.s.sumW+c.startW, c.startSlope
			}
		}
		it.s = it.s.add(c.s)
		it.minHeld, it.maxHeld = min(it.minHeld, c.minHeld), max(it.maxHeld, c.maxHeld)
		it.minPlus, it.minHold, it.maxHold = min(it.minPlus, c.minPlus), min(it.minHold, c.minHold), max(it.maxHold, c.maxHold)
		it.idle = it.idle || c.idle
	}
	return it
}

// indexIn is the item of node p whose kid is x (a child node, or a job in
// a leaf), which must be there. O(jbWidth).
func (j *jobs) indexIn(p, x int32) int {
	n := &j.tree[p]
	i := 0
	for i < n.n-1 && n.items[i].kid != x {
		i++
	}
	return i
}

// fixUp recomputes the items above node x up to the root, and the total;
// with stop, only as far as they change (a change of held: the sums stay).
// O(jbWidth · depth).
func (j *jobs) fixUp(x int32, stop bool) {
	for {
		p := j.tree[x].parent
		if p == none {
			break
		}
		i := j.indexIn(p, x)
		it := j.summarize(x)
		if stop && j.tree[p].items[i] == it {
			return
		}
		j.tree[p].items[i] = it
		x = p
	}
	r := &j.tree[j.root]
	s := sums{}
	for k := range r.n {
		s = s.add(r.items[k].s)
	}
	j.total = s
}

// relink points the items of node x from k on at it: their jobs' leaf, or
// their children's parent.
func (j *jobs) relink(x int32, k int) {
	n := &j.tree[x]
	for ; k < n.n; k++ {
		if n.leaf {
			j.nodes[n.items[k].kid].leaf = x
		} else {
			j.tree[n.items[k].kid].parent = x
		}
	}
}

// openAt opens item i of node x, not full, moving the items from i on one
// place right; closeAt closes it, moving the items after it left.
func (j *jobs) openAt(x int32, i int) {
	n := &j.tree[x]
	copy(n.items[i+1:n.n+1], n.items[i:n.n])
	n.n++
}

func (j *jobs) closeAt(x int32, i int) {
	n := &j.tree[x]
	copy(n.items[i:n.n-1], n.items[i+1:n.n])
	n.n--
	n.items[n.n] = jbItem{}
}

// split moves the upper half of node x, full, to a new node right after
// it in x's parent (a new root above x if x is the root; the parent split
// first if full), and returns the new node; x's and the new node's items
// in the parent are recomputed. O(jbWidth · levels split).
func (j *jobs) split(x int32) int32 {
	p := j.tree[x].parent
	if p == none {
		p = j.newTreeNode(false, none)
		j.tree[p].n = 1
		j.tree[p].items[0].kid = x
		j.tree[x].parent = p
		j.root = p
	} else if j.tree[p].n == jbWidth {
		j.split(p)
		p = j.tree[x].parent
	}
	y := j.newTreeNode(j.tree[x].leaf, p)
	xn, yn := &j.tree[x], &j.tree[y]
	half := xn.n / 2
	yn.n = copy(yn.items[:], xn.items[half:xn.n])
	clear(xn.items[half:xn.n])
	xn.n = half
	j.relink(y, 0)
	i := j.indexIn(p, x)
	j.openAt(p, i+1)
	j.tree[p].items[i] = j.summarize(x)
	j.tree[p].items[i+1] = j.summarize(y)
	return y
}

// insert puts job id in the leaf its key falls in and recomputes the
// items on its path. O(jbWidth · depth).
func (j *jobs) insert(id int32) { j.fixUp(j.place(id, j.root), false) }

// place puts job id in the leaf its key falls in, splitting it if full,
// and returns the leaf; the items above it are not yet recomputed (a
// split's own are). The descent starts at node from, or the first node
// above it whose keys enclose the job's — after its first item's first
// key and at most its last item's last, so that every node above would
// choose it too (the items before it end before its first key) — or the
// root: a move finds its new leaf from its old one's parent, most often
// without the levels above. (from's items may be stale for the job's old
// leaf, the job taken out of it: a key between the stale and the true
// bound still falls between the leaf's neighbours.) O(jbWidth · depth).
func (j *jobs) place(id, from int32) int32 {
	k := j.keyOf(id)
	x := from
	for x != j.root {
		n := &j.tree[x]
		if n.items[0].first.less(k) && !n.items[n.n-1].last.less(k) {
			break
		}
		x = n.parent
	}
	for !j.tree[x].leaf {
		n := &j.tree[x]
		i := 0
		for i < n.n-1 && n.items[i].last.less(k) {
			i++
		}
		x = n.items[i].kid
	}
	if j.tree[x].n == jbWidth {
		y := j.split(x)
		if n := &j.tree[x]; n.items[n.n-1].last.less(k) {
			x = y
		}
	}
	n := &j.tree[x]
	i := 0
	for i < n.n && n.items[i].last.less(k) {
		i++
	}
	j.openAt(x, i)
	n.items[i] = j.jobItem(id)
	j.nodes[id].leaf = x
	return x
}

// fixPair recomputes the items above leaves x and y, at one depth as all
// leaves are: side by side up to their lowest common ancestor, then once
// to the root. A split since x changed (place's) leaves stale items only
// on x's path and y's — a split node's items are its children's, stale
// only for the child on x's path, which the walk up x's parents reaches
// in whichever half it went — so the two walks cover them.
// O(jbWidth · depth).
func (j *jobs) fixPair(x, y int32) {
	for x != y {
		px, py := j.tree[x].parent, j.tree[y].parent
		j.tree[px].items[j.indexIn(px, x)] = j.summarize(x)
		j.tree[py].items[j.indexIn(py, y)] = j.summarize(y)
		x, y = px, py
	}
	j.fixUp(x, false)
}

// detach takes job id out of the tree, rebalancing its leaf and
// recomputing the items above. O(jbWidth · depth).
func (j *jobs) detach(id int32) {
	x := j.nodes[id].leaf
	j.closeAt(x, j.indexIn(x, id))
	j.nodes[id].leaf = none
	j.rebalance(x)
}

// rebalance restores node x's fill after it lost an item — merged with a
// sibling if the two fit in one node, else topped up with one item of the
// sibling — and recomputes the items above; a merge may leave the parent
// short in turn, and an inner root left with one child gives way to it.
// O(jbWidth · depth).
func (j *jobs) rebalance(x int32) {
	n := &j.tree[x]
	p := n.parent
	if p == none {
		if !n.leaf && n.n == 1 {
			j.root = n.items[0].kid
			j.tree[j.root].parent = none
			j.tree[x] = jbNode{}
			j.freeTree = append(j.freeTree, x)
			x = j.root
		}
		j.fixUp(x, false)
		return
	}
	if n.n >= jbWidth/4 {
		j.fixUp(x, false)
		return
	}
	i := j.indexIn(p, x)
	l, r := x, x
	if i > 0 {
		l = j.tree[p].items[i-1].kid
	} else {
		r = j.tree[p].items[i+1].kid
	}
	ln, rn := &j.tree[l], &j.tree[r]
	if ln.n+rn.n <= jbWidth { // merge r into l
		k := ln.n
		ln.n += copy(ln.items[ln.n:], rn.items[:rn.n])
		j.relink(l, k)
		j.closeAt(p, j.indexIn(p, r))
		j.tree[r] = jbNode{}
		j.freeTree = append(j.freeTree, r)
		j.tree[p].items[j.indexIn(p, l)] = j.summarize(l)
		j.rebalance(p)
		return
	}
	if l == x { // borrow the right sibling's first item
		ln.items[ln.n] = rn.items[0]
		ln.n++
		j.closeAt(r, 0)
		j.relink(l, ln.n-1)
	} else { // the left sibling's last
		j.openAt(r, 0)
		rn.items[0] = ln.items[ln.n-1]
		j.closeAt(l, ln.n-1)
		j.relink(r, 0)
	}
	j.tree[p].items[j.indexIn(p, l)] = j.summarize(l)
	j.fixUp(r, false)
}

// depth is the number of levels, leaves included. O(depth).
func (j *jobs) depth() int {
	d := 1
	for x := j.root; !j.tree[x].leaf; x = j.tree[x].items[0].kid {
		d++
	}
	return d
}

// sums is what a run of jobs in order adds up to.
type sums struct {
	count            int
	sumT, sumW, sumV float64
}

func (s sums) add(o sums) sums {
	return sums{s.count + o.count, s.sumT + o.sumT, s.sumW + o.sumW, s.sumV + o.sumV}
}

// own is job x's own sums.
func (j *jobs) own(x int32) sums {
	n := &j.nodes[x]
	s := sums{sumT: n.t, sumW: n.w, sumV: n.v}
	if n.t > 0 {
		s.count = 1
	}
	return s
}

// all is the sums over every job held.
func (j *jobs) all() sums { return j.total }

// The searches. A found function is monotone along the order (false, then
// true), so a descent tests it once per item, at the item's last job (or
// the next item's first) with the sums up to there taken from the items
// before: O(jbWidth · depth). The sums below a node, added one item at a
// time, may round a hair differently from its parent's item for it, so a
// descent into an item whose test held takes the item's last job (or the
// parent's next first job) if no test below holds.

// searchThrough returns the first job x with lo < key(x) < hi at which
// found(through, key(x)) holds — through the sums of the jobs in that range
// up to and including x — with the sums of the range's jobs before x; or
// none and the sums of every job in the range. Items wholly in the range
// are tested whole; at most two items per level straddle its ends.
// O(jbWidth · depth).
func (j *jobs) searchThrough(lo, hi key, found func(through sums, k key) bool) (int32, sums) {
	var acc sums
	x := j.through(j.root, lo, hi, found, false, &acc)
	return x, acc
}

// through is searchThrough below node x, acc the sums of the range's jobs
// before it (advanced past the items passed); forced: x's parent's test
// held, so x's last job is the answer if no test holds below.
func (j *jobs) through(x int32, lo, hi key, found func(sums, key) bool, forced bool, acc *sums) int32 {
	n := &j.tree[x]
	for i := range n.n {
		it := &n.items[i]
		if !lo.less(it.last) {
			continue // at or before lo
		}
		if !it.first.less(hi) {
			break // at or after hi
		}
		if lo.less(it.first) && it.last.less(hi) { // wholly in range
			through := acc.add(it.s)
			if found(through, it.last) || forced && i == n.n-1 {
				if n.leaf {
					return it.kid
				}
				return j.through(it.kid, keyFirst, keyLast, found, true, acc)
			}
			*acc = through
			continue
		}
		if y := j.through(it.kid, lo, hi, found, false, acc); y != none {
			return y
		}
	}
	return none
}

// sumRange is the sums of the jobs with lo < key < hi, each item wholly in
// the range added whole. O(jbWidth · depth).
func (j *jobs) sumRange(lo, hi key) sums {
	_, s := j.searchThrough(lo, hi, func(sums, key) bool { return false })
	return s
}

// search returns the first job x at which found(before, key(x)) holds —
// before the sums of the jobs ahead of x — with those sums, or none and
// the sums of every job: a test needing a job's sums before it, not
// through it (subtracting the job's own from the sums through it could
// lose a small job's T entirely). An inner node tests each item's boundary
// at the next item's first job; its last item is entered untested (its
// boundary, the next node's first job, was tested above, or is the end).
// O(jbWidth · depth).
func (j *jobs) search(found func(before sums, k key) bool) (int32, sums) {
	var acc sums
	fallback, fallbackBefore := int32(none), sums{}
	x := j.root
	for !j.tree[x].leaf {
		n := &j.tree[x]
		i := 0
		for ; i < n.n-1; i++ {
			through := acc.add(n.items[i].s)
			if next := n.items[i+1].first; found(through, next) {
				fallback, fallbackBefore = int32(next.id), through
				break
			}
			acc = through
		}
		x = n.items[i].kid
	}
	n := &j.tree[x]
	for i := range n.n {
		if found(acc, n.items[i].last) {
			return n.items[i].kid, acc
		}
		acc = acc.add(n.items[i].s)
	}
	if fallback == none {
		return none, acc
	}
	return fallback, fallbackBefore
}

// levelClass returns the class of the first class end, in order, at which
// reaches(w, a) holds — w the Σw of the jobs up to that end, a the next
// class's slope — or the last class if none does (the caller's predicate
// holds there: no next class), for a predicate monotone along the classes
// and a tree holding a job. A class ends where the next starts: one
// descent tests each start between two items at its node and each item's
// last start inside it, and enters the item whose last start holds.
// O(jbWidth · depth).
func (j *jobs) levelClass(reaches func(w, a float64) bool) float64 {
	acc := 0.0 // Σw before item i
	forced := false
	for x := j.root; ; {
		n := &j.tree[x]
		last := 0 // forced: the node's last start, 2i at item i's first job, 2i+1 inside item i
		if forced {
			for i := range n.n {
				if i > 0 && n.items[i-1].last.class != n.items[i].first.class {
					last = 2 * i
				}
				if n.items[i].start {
					last = 2*i + 1
				}
			}
		}
		entered := false
		for i := range n.n {
			it := &n.items[i]
			if i > 0 && n.items[i-1].last.class != it.first.class && (reaches(acc, slope(it.first.class)) || forced && last == 2*i) {
				return n.items[i-1].last.class
			}
			if it.start && (reaches(acc+it.startW, it.startSlope) || forced && last == 2*i+1) {
				x, forced, entered = it.kid, true, true
				break
			}
			acc += it.s.sumW
		}
		if !entered {
			return n.items[n.n-1].last.class
		}
	}
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

// may reports whether a job below item it is one the probe accepts: exact,
// since the bounds are over exactly the jobs below (a leaf's item: the job
// itself).
func (it *jbItem) may(p probe) bool {
	switch {
	case p.mode == over && p.perWeight:
		return it.idle || p.r < it.maxHold
	case p.mode == over:
		return it.idle || p.bound < it.maxHeld
	case it.s.count == 0:
		return false // no active job below: none is short, whatever the bound
	case !p.perWeight && p.mode == shortWhole:
		return it.minHeld <= p.bound-1
	case !p.perWeight:
		return it.minHeld < p.bound
	case p.mode == shortWhole:
		return it.minPlus <= p.r
	}
	return it.minHold < p.r
}

// find returns the first job (the last, if last) below node x with lo <
// key < hi that p accepts, or none. An item wholly in the range that may
// holds one is entered and yields it (may is exact); at most two items per
// level straddle the range's ends: O(jbWidth · depth).
func (j *jobs) find(x int32, lo, hi key, p probe, last bool) int32 {
	n := &j.tree[x]
	for k := range n.n {
		i := k
		if last {
			i = n.n - 1 - k
		}
		it := &n.items[i]
		switch {
		case !lo.less(it.last): // at or before lo
			if last {
				return none
			}
			continue
		case !it.first.less(hi): // at or after hi
			if !last {
				return none
			}
			continue
		case !it.may(p):
			continue
		case n.leaf:
			return it.kid
		}
		l, h := lo, hi
		if lo.less(it.first) && it.last.less(hi) {
			l, h = keyFirst, keyLast // wholly in range
		}
		if y := j.find(it.kid, l, h, p, last); y != none {
			return y
		}
	}
	return none
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
// unchanged, for an id not in use. O(log n).
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
// The shares do not change. O(log n).
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
