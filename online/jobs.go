package online

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// jobs is the job set under Fair and Classes: a B+-tree ordered by
// (class, T, id), the class being a job's tail index min(β, 2) for
// Classes and 0 for Fair, in the shape of Hopper's (bptree.go): every job
// in a leaf, all leaves at one depth, each node holding up to jbWidth
// items — a leaf its jobs, an inner node its children — in key order. A
// leaf keeps of each job only what its summary is computed from (jbJob,
// one cache line); an inner node keeps, for each child, the keys of the
// first and last job below it and, over those jobs, the sums the
// algorithms' cut-offs are found by (active jobs, ΣT, Σw, ΣV), the bounds
// Next and Reclaim descend by, and, for Classes, where a class starts
// below it (jbItem). At fanout 16 the tree is about log₁₀ n levels deep:
// five at 10⁵ jobs, against the ~23 expected of the treap it replaced,
// whose cache misses were most of an event's cost.
//
// Every item is recomputed from its node's items (summarize), never
// adjusted by differences, so the sums carry no drift; their grouping, and
// so their last bits, follows the tree's shape, which depends on the order
// of the events. Ids are small integers, reused after remove, as in
// Hopper; id = the job's index in nodes. Leaves and inner nodes are kept
// in two stores, each with its own ids.
//
// Costs, n the jobs: depth at most 1 + log₄ n; an insertion or removal
// O(jbWidth · depth) = O(log n), splits and merges included (each at most
// once per level); a change of held recomputes up the job's path only as
// far as the items change. Nothing allocates once the ids and the nodes
// stop growing.
type jobs struct {
	nodes  []jobNode // the jobs by id
	leafOf []int32   // each job's leaf by id (none for an id not in use)
	free   []int32
	n      int

	leaves     []jbLeaf // the leaves by id
	freeLeaves []int32
	tree       []jbNode // the inner nodes by id
	freeTree   []int32
	root       int32 // a leaf (empty when no job is held) if height is 1, else an inner node
	height     int   // the levels, leaves included
	total      sums  // over every job: the root's items added in order

	ends  bool    // keep where classes start (Classes): see jbItem.start
	slots float64 // the cluster's slots
	fresh bool    // the owner's cut-offs are valid: no event since its refresh
}

// A jobNode is what is kept of one job by its id (zero for an id not in
// use): its class, T, proportional weight w (T/√(β−1), or T; 0 for
// Classes' class 2) and virtual size v (c·T). The basis u of its per-unit
// bounds — a job's share, where proportional, is k·u — is w, or T where w
// is 0 (basis). Its leaf is leafOf's, and its held slots are kept only in
// its entry there: an event reads the entry, not this record, which the
// queries by id read.
type jobNode struct {
	class, t, w, v float64
}

// basis is the u of a job of T t and weight w: w, or t where w is 0
// (Fair: w = T; Classes: w, or T for the class 2, whose w is 0).
func basis(t, w float64) float64 {
	if w == 0 {
		return t
	}
	return w
}

// jbWidth is a node's capacity in items. A node other than the root holds
// at least jbWidth/4; an inner root at least 2.
const jbWidth = 16

// A bnode is a node's items, in key order, their count and the node's
// parent (none at the root): a leaf's items are jobs (jbJob), an inner
// node's its children (jbItem).
type bnode[T any] struct {
	items  [jbWidth]T
	n      int
	parent int32
}

// A jbLeaf is a leaf, its jobs on whole cache lines (jbJob is 64 bytes,
// the header padded to 64).
type jbLeaf struct {
	bnode[jbJob]
	_ [64 - 16]byte
}

// A jbNode is an inner node; leafKids: its children are leaves.
type jbNode struct {
	bnode[jbItem]
	leafKids bool
}

// A jbJob is a job in its leaf: its id (kid), key, Σ's terms, held, and
// for T > 0 its bounds (held+1)/u and held/u (plus, hold; zero for T = 0:
// a job of 0 tasks is never short, and over its share, 0, exactly when it
// holds a slot).
type jbJob struct {
	kid        int32
	class, t   float64
	w, v       float64
	held       int64
	plus, hold ratio
}

// heldNone is the bounds of held over no active job: lo above, hi below
// every count (held ≤ 2⁵³, a whole number: an int64, whose min and max
// cost less than a float's).
var heldNone = struct{ lo, hi int64 }{math.MaxInt64, math.MinInt64}

// A jbItem is a child of an inner node with what its jobs add up to.
type jbItem struct {
	s           sums // over the jobs below
	first, last key  // the keys of the first and last job below
	kid         int32

	minHeld          int64 // least held of the active jobs (T > 0) below (heldNone.lo if none)
	maxHeld          int64 // greatest held of the active jobs below (heldNone.hi if none)
	minPlus, minHold ratio // least (held+1)/u and held/u of the active jobs below (everything if none)
	maxHold          ratio // greatest held/u of the active jobs below (nothing if none)
	idle             bool  // a job of 0 tasks below holds a slot (over its share, 0)

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

// key is the job's key.
func (jb *jbJob) key() key { return key{jb.class, jb.t, int64(jb.kid)} }

// sums is the job's own sums.
func (jb *jbJob) sums() sums {
	s := sums{sumT: jb.t, sumW: jb.w, sumV: jb.v}
	if jb.t > 0 {
		s.count = 1
	}
	return s
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
	j := jobs{slots: slots, ends: ends, height: 1}
	j.root = j.newLeaf(none)
	return j
}

// newLeaf and newInner return a node, the last freed or a new one
// (takeID), empty. O(1), amortised for the append.
func (j *jobs) newLeaf(parent int32) int32 {
	x := takeID(&j.freeLeaves, &j.leaves, jbLeaf{})
	j.leaves[x].parent = parent
	return x
}

func (j *jobs) newInner(leafKids bool, parent int32) int32 {
	x := takeID(&j.freeTree, &j.tree, jbNode{})
	j.tree[x].leafKids, j.tree[x].parent = leafKids, parent
	return x
}

// parentOf is node x's parent (x a leaf if leaf), none at the root.
func (j *jobs) parentOf(x int32, leaf bool) int32 {
	if leaf {
		return j.leaves[x].parent
	}
	return j.tree[x].parent
}

// setParent makes p node x's parent (x a leaf if leaf).
func (j *jobs) setParent(x int32, leaf bool, p int32) {
	if leaf {
		j.leaves[x].parent = p
	} else {
		j.tree[x].parent = p
	}
}

// size is the number of items of node x (a leaf if leaf).
func (j *jobs) size(x int32, leaf bool) int {
	if leaf {
		return j.leaves[x].n
	}
	return j.tree[x].n
}

// add takes an id (the last freed, else a new one) for a job of the given
// class, T, weight and virtual size, and inserts it. O(log n).
func (j *jobs) add(class, t, w, v float64) int32 {
	id := takeID(&j.free, &j.nodes, jobNode{})
	if int(id) == len(j.leafOf) {
		j.leafOf = append(j.leafOf, none)
	}
	j.nodes[id] = jobNode{class: class, t: t, w: w, v: v}
	j.n++
	j.insert(entry(id, class, t, w, v, 0))
	return id
}

// release removes id from the tree and frees it. O(log n).
func (j *jobs) release(id int32) {
	j.detach(id)
	j.nodes[id] = jobNode{}
	j.free = append(j.free, id)
	j.n--
}

// live reports whether id is in use.
func (j *jobs) live(id int) bool { return id >= 0 && id < len(j.leafOf) && j.leafOf[id] != none }

// entryOf is job id's entry in its leaf. O(jbWidth).
func (j *jobs) entryOf(id int32) *jbJob {
	x := j.leafOf[id]
	return &j.leaves[x].items[j.jobIndex(x, id)]
}

// set changes id's class, T, weight and virtual size: in place when
// its new key stays between its neighbours in its leaf; else out of its
// leaf and into the one its new key falls in, found from the old leaf's
// parent up (place), the two leaves' paths recomputed side by side
// (fixPair) — or, when the old leaf is left short, rebalanced and the job
// inserted from the root. O(jbWidth · depth).
// The events read the job's entry, held included, and write its record
// without reading it.
func (j *jobs) set(id int32, class, t, w, v float64) {
	x := j.leafOf[id]
	l := &j.leaves[x]
	i := j.jobIndex(x, id)
	jb := entry(id, class, t, w, v, l.items[i].held)
	r := &j.nodes[id]
	r.class, r.t, r.w, r.v = class, t, w, v
	if k := jb.key(); i > 0 && i < l.n-1 && l.items[i-1].key().less(k) && k.less(l.items[i+1].key()) {
		l.items[i] = jb
		j.fixUp(x, true, false)
		return
	}
	closeAt(&l.bnode, i)
	if j.height > 1 && l.n < jbWidth/4 {
		j.rebalance(x, true)
		j.insert(jb)
		return
	}
	from := l.parent
	if j.height == 1 {
		from = x
	}
	j.fixPair(x, j.place(jb, from))
}

// setHeld changes id's held slots, recomputing its path only as far as
// the items change. O(log n).
func (j *jobs) setHeld(id int32, held float64) {
	x := j.leafOf[id]
	e := &j.leaves[x].items[j.jobIndex(x, id)]
	*e = entry(id, e.class, e.t, e.w, e.v, int64(held))
	j.fixUp(x, true, true)
}

// entry is the leaf entry of job id of the given class, T, w, v and held:
// its bounds held/u and (held+1)/u (u its basis) for T > 0. O(1).
func entry(id int32, class, t, w, v float64, held int64) jbJob {
	jb := jbJob{kid: id, class: class, t: t, w: w, v: v, held: held}
	if t > 0 {
		u := basis(t, w)
		jb.plus, jb.hold = quotient(float64(held)+1, u), quotient(float64(held), u)
	}
	return jb
}

// summarize is node x's item in its parent (x a leaf if leaf): its first
// and last keys, its items' sums added in order, the bounds over them and,
// for Classes, its last class start (at an item's first job when the item
// before ends in another class, or inside an item). The fold runs on
// local variables, the item written once. O(jbWidth).
func (j *jobs) summarize(x int32, leaf bool) jbItem {
	var s sums
	minHeld, maxHeld := heldNone.lo, heldNone.hi
	minPlus, minHold, maxHold := everything, everything, nothing
	idle, start := false, false
	var startW, startSlope float64
	var first, last key
	if leaf {
		l := &j.leaves[x]
		first, last = l.items[0].key(), l.items[l.n-1].key()
		for k := range l.n {
			c := &l.items[k]
			if j.ends && k > 0 && l.items[k-1].class != c.class {
				start, startW, startSlope = true, s.sumW, slope(c.class)
			}
			s = s.add(c.sums())
			if c.t > 0 {
				minHeld, maxHeld = min(minHeld, c.held), max(maxHeld, c.held)
				minPlus, minHold, maxHold = min(minPlus, c.plus), min(minHold, c.hold), max(maxHold, c.hold)
			} else {
				idle = idle || c.held > 0
			}
		}
	} else {
		n := &j.tree[x]
		first, last = n.items[0].first, n.items[n.n-1].last
		for k := range n.n {
			c := &n.items[k]
			if j.ends {
				if k > 0 && n.items[k-1].last.class != c.first.class {
					start, startW, startSlope = true, s.sumW, slope(c.first.class)
				}
				if c.start {
					start, startW, startSlope = true, s.sumW+c.startW, c.startSlope
				}
			}
			s = s.add(c.s)
			minHeld, maxHeld = min(minHeld, c.minHeld), max(maxHeld, c.maxHeld)
			minPlus, minHold, maxHold = min(minPlus, c.minPlus), min(minHold, c.minHold), max(maxHold, c.maxHold)
			idle = idle || c.idle
		}
	}
	return jbItem{s: s, first: first, last: last, kid: x,
		minHeld: minHeld, maxHeld: maxHeld, minPlus: minPlus, minHold: minHold, maxHold: maxHold, idle: idle,
		start: start, startW: startW, startSlope: startSlope}
}

// indexIn is the item of inner node p whose kid is x, which must be
// there; jobIndex is job id's place in leaf x, where it must be.
// O(jbWidth).
func (j *jobs) indexIn(p, x int32) int {
	n := &j.tree[p]
	i := 0
	for i < n.n-1 && n.items[i].kid != x {
		i++
	}
	return i
}

func (j *jobs) jobIndex(x, id int32) int {
	l := &j.leaves[x]
	i := 0
	for i < l.n-1 && l.items[i].kid != id {
		i++
	}
	return i
}

// fixUp recomputes the items above node x (a leaf if leaf) up to the
// root, and the total; with stop, only as far as they change (a change of
// held: the sums stay). O(jbWidth · depth).
func (j *jobs) fixUp(x int32, leaf, stop bool) {
	for {
		p := j.parentOf(x, leaf)
		if p == none {
			break
		}
		i := j.indexIn(p, x)
		it := j.summarize(x, leaf)
		if stop && j.tree[p].items[i] == it {
			return
		}
		j.tree[p].items[i] = it
		x, leaf = p, false
	}
	s := sums{}
	if j.height == 1 {
		r := &j.leaves[j.root]
		for k := range r.n {
			s = s.add(r.items[k].sums())
		}
	} else {
		r := &j.tree[j.root]
		for k := range r.n {
			s = s.add(r.items[k].s)
		}
	}
	j.total = s
}

// relink points the items of node x (a leaf if leaf) from k on at it:
// their jobs' leaf, or their children's parent.
func (j *jobs) relink(x int32, leaf bool, k int) {
	if leaf {
		l := &j.leaves[x]
		for ; k < l.n; k++ {
			j.leafOf[l.items[k].kid] = x
		}
		return
	}
	n := &j.tree[x]
	for ; k < n.n; k++ {
		j.setParent(n.items[k].kid, n.leafKids, x)
	}
}

// openAt opens item i of node n, not full, moving the items from i on one
// place right; closeAt closes it, moving the items after it left.
func openAt[T any](n *bnode[T], i int) {
	copy(n.items[i+1:n.n+1], n.items[i:n.n])
	n.n++
}

func closeAt[T any](n *bnode[T], i int) {
	copy(n.items[i:n.n-1], n.items[i+1:n.n])
	n.n--
	var zero T
	n.items[n.n] = zero
}

// halve moves the upper half of node x's items to y, empty.
func halve[T any](x, y *bnode[T]) {
	half := x.n / 2
	y.n = copy(y.items[:], x.items[half:x.n])
	clear(x.items[half:x.n])
	x.n = half
}

// even restores the fill of siblings l and r after one of them (l if
// fromLeft, else r) lost an item: r merged into l if the two fit in one
// node (merged), else one item moved over from the other. It returns
// whether it merged, and which node, from which item on, now holds items
// that were its sibling's (to relink): l from k, or r (toRight) from 0.
func even[T any](l, r *bnode[T], fromLeft bool) (merged, toRight bool, k int) {
	if l.n+r.n <= jbWidth {
		k = l.n
		l.n += copy(l.items[l.n:], r.items[:r.n])
		return true, false, k
	}
	if fromLeft { // the right sibling's first item
		l.items[l.n] = r.items[0]
		l.n++
		closeAt(r, 0)
		return false, false, l.n - 1
	}
	openAt(r, 0) // the left sibling's last
	r.items[0] = l.items[l.n-1]
	closeAt(l, l.n-1)
	return false, true, 0
}

// split moves the upper half of node x (a leaf if leaf), full, to a new
// node right after it in x's parent (a new root above x if x is the root;
// the parent split first if full), and returns the new node; x's and the
// new node's items in the parent are recomputed. O(jbWidth · levels
// split).
func (j *jobs) split(x int32, leaf bool) int32 {
	p := j.parentOf(x, leaf)
	if p == none {
		p = j.newInner(leaf, none)
		j.tree[p].n = 1
		j.tree[p].items[0].kid = x
		j.setParent(x, leaf, p)
		j.root = p
		j.height++
	} else if j.tree[p].n == jbWidth {
		j.split(p, false)
		p = j.parentOf(x, leaf)
	}
	var y int32
	if leaf {
		y = j.newLeaf(p)
		halve(&j.leaves[x].bnode, &j.leaves[y].bnode)
	} else {
		y = j.newInner(j.tree[x].leafKids, p)
		halve(&j.tree[x].bnode, &j.tree[y].bnode)
	}
	j.relink(y, leaf, 0)
	i := j.indexIn(p, x)
	openAt(&j.tree[p].bnode, i+1)
	j.tree[p].items[i] = j.summarize(x, leaf)
	j.tree[p].items[i+1] = j.summarize(y, leaf)
	return y
}

// insert puts entry jb in the leaf its key falls in and recomputes the
// items on its path. O(jbWidth · depth).
func (j *jobs) insert(jb jbJob) { j.fixUp(j.place(jb, j.root), true, false) }

// place puts entry jb in the leaf its key falls in, splitting it if full,
// and returns the leaf; the items above it are not yet recomputed (a
// split's own are). The descent starts at inner node from (or the root
// leaf), or the first node above it whose keys enclose the job's — after
// its first item's first key and at most its last item's last, so that
// every node above would choose it too (the items before it end before
// its first key) — or the root: a move finds its new leaf from its old
// one's parent, most often without the levels above. (from's items may be
// stale for the job's old leaf, the job taken out of it: a key between the
// stale and the true bound still falls between the leaf's neighbours.)
// O(jbWidth · depth).
func (j *jobs) place(jb jbJob, from int32) int32 {
	k := jb.key()
	x := from
	if j.height > 1 {
		for x != j.root {
			n := &j.tree[x]
			if n.items[0].first.less(k) && !n.items[n.n-1].last.less(k) {
				break
			}
			x = n.parent
		}
		for {
			n := &j.tree[x]
			i := 0
			for i < n.n-1 && n.items[i].last.less(k) {
				i++
			}
			x = n.items[i].kid
			if n.leafKids {
				break
			}
		}
	}
	if j.leaves[x].n == jbWidth {
		y := j.split(x, true)
		if l := &j.leaves[x]; l.items[l.n-1].key().less(k) {
			x = y
		}
	}
	l := &j.leaves[x]
	i := 0
	for i < l.n && l.items[i].key().less(k) {
		i++
	}
	openAt(&l.bnode, i)
	l.items[i] = jb
	j.leafOf[jb.kid] = x
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
	leaf := true
	for x != y {
		px, py := j.parentOf(x, leaf), j.parentOf(y, leaf)
		j.tree[px].items[j.indexIn(px, x)] = j.summarize(x, leaf)
		j.tree[py].items[j.indexIn(py, y)] = j.summarize(y, leaf)
		x, y, leaf = px, py, false
	}
	j.fixUp(x, leaf, false)
}

// detach takes job id out of the tree, rebalancing its leaf and
// recomputing the items above. O(jbWidth · depth).
func (j *jobs) detach(id int32) {
	x := j.leafOf[id]
	closeAt(&j.leaves[x].bnode, j.jobIndex(x, id))
	j.leafOf[id] = none
	j.rebalance(x, true)
}

// rebalance restores node x's fill (x a leaf if leaf) after it lost an
// item — merged with a sibling if the two fit in one node, else topped up
// with one item of the sibling (even) — and recomputes the items above; a
// merge may leave the parent short in turn, and an inner root left with
// one child gives way to it. O(jbWidth · depth).
func (j *jobs) rebalance(x int32, leaf bool) {
	p := j.parentOf(x, leaf)
	if p == none {
		if !leaf && j.tree[x].n == 1 {
			n := &j.tree[x]
			j.root, leaf = n.items[0].kid, n.leafKids
			j.setParent(j.root, leaf, none)
			j.tree[x] = jbNode{}
			j.freeTree = append(j.freeTree, x)
			j.height--
			x = j.root
		}
		j.fixUp(x, leaf, false)
		return
	}
	if j.size(x, leaf) >= jbWidth/4 {
		j.fixUp(x, leaf, false)
		return
	}
	i := j.indexIn(p, x)
	l, r := x, x
	if i > 0 {
		l = j.tree[p].items[i-1].kid
	} else {
		r = j.tree[p].items[i+1].kid
	}
	var merged, toRight bool
	var k int
	if leaf {
		merged, toRight, k = even(&j.leaves[l].bnode, &j.leaves[r].bnode, l == x)
	} else {
		merged, toRight, k = even(&j.tree[l].bnode, &j.tree[r].bnode, l == x)
	}
	if toRight {
		j.relink(r, leaf, k)
	} else {
		j.relink(l, leaf, k)
	}
	if merged {
		closeAt(&j.tree[p].bnode, j.indexIn(p, r))
		if leaf {
			j.leaves[r] = jbLeaf{}
			j.freeLeaves = append(j.freeLeaves, r)
		} else {
			j.tree[r] = jbNode{}
			j.freeTree = append(j.freeTree, r)
		}
		j.tree[p].items[j.indexIn(p, l)] = j.summarize(l, leaf)
		j.rebalance(p, false)
		return
	}
	j.tree[p].items[j.indexIn(p, l)] = j.summarize(l, leaf)
	j.fixUp(r, leaf, false)
}

// depth is the number of levels, leaves included. O(1).
func (j *jobs) depth() int { return j.height }

// sums is what a run of jobs in order adds up to.
type sums struct {
	count            int
	sumT, sumW, sumV float64
}

func (s sums) add(o sums) sums {
	return sums{s.count + o.count, s.sumT + o.sumT, s.sumW + o.sumW, s.sumV + o.sumV}
}

// all is the sums over every job held.
func (j *jobs) all() sums { return j.total }

// The searches. Each tests a condition monotone along the order (false,
// then true), so a descent tests it once per item, at the item's last job (or
// the next item's first) with the sums up to there taken from the items
// before: O(jbWidth · depth). The sums below a node, added one item at a
// time, may round a hair differently from its parent's item for it, so a
// descent into an item whose test held takes the item's last job (or the
// parent's next first job) if no test below holds.

// reachV returns the first job x with lo < key(x) < hi at which the ΣV
// of the jobs in that range up to and including x reaches v — Classes'
// Algorithm-1 cut — with the ΣV of the range's jobs before x; or none and
// the sums of every job in the range. Items wholly in the range are tested
// whole; at most two items per level straddle its ends.
// O(jbWidth · depth).
func (j *jobs) reachV(lo, hi key, v float64) (int32, sums) {
	return j.through(j.root, j.height == 1, lo, hi, v, false, sums{})
}

// through is reachV below node x (a leaf if leaf), acc the sums of the
// range's jobs before it, returned advanced past the items passed;
// forced: x's parent's test held, so x's last job is the answer if no
// test holds below.
func (j *jobs) through(x int32, leaf bool, lo, hi key, v float64, forced bool, acc sums) (int32, sums) {
	if leaf {
		l := &j.leaves[x]
		for i := range l.n {
			jb := &l.items[i]
			k := jb.key()
			if !lo.less(k) {
				continue // at or before lo
			}
			if !k.less(hi) {
				break // at or after hi
			}
			through := acc.add(jb.sums())
			if through.sumV >= v || forced && i == l.n-1 {
				return jb.kid, acc
			}
			acc = through
		}
		return none, acc
	}
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
			if through.sumV >= v || forced && i == n.n-1 {
				return j.through(it.kid, n.leafKids, keyFirst, keyLast, v, true, acc)
			}
			acc = through
			continue
		}
		var y int32
		if y, acc = j.through(it.kid, n.leafKids, lo, hi, v, false, acc); y != none {
			return y, acc
		}
	}
	return none, acc
}

// firstOver returns the first job with c·T > x, a test on the key alone,
// and the sums of the jobs before it, or none and the sums of every job:
// the descent of the searches on the whole order, the test on the item's
// last key: exact there, so the item it holds at holds its answer (no
// fallback). O(jbWidth · depth).
func (j *jobs) firstOver(c, x float64) (int32, sums) {
	var acc sums
	y := j.root
	for leaf := j.height == 1; !leaf; {
		n := &j.tree[y]
		i := 0
		for ; i < n.n && !(c*n.items[i].last.t > x); i++ {
			acc = acc.add(n.items[i].s)
		}
		if i == n.n {
			return none, acc
		}
		y, leaf = n.items[i].kid, n.leafKids
	}
	l := &j.leaves[y]
	for i := range l.n {
		if c*l.items[i].t > x {
			return l.items[i].kid, acc
		}
		acc = acc.add(l.items[i].sums())
	}
	return none, acc
}

// A fillTest is Fair's case-1 fill as a test on the sums through a job:
// false before m₁'s key (those jobs have no top-up: the test is 0 ≥
// extra, false for extra > 0), else the top-ups Σ max{0, c·T − f} after
// the sums before m₁ (base), max{0, c·(ΣT − base ΣT) − f·(N − base N)},
// reach extra.
type fillTest struct {
	m1              key
	base            sums
	c, floor, extra float64
}

// holds is the test at key k with the sums through its job.
func (t *fillTest) holds(through sums, k key) bool {
	if k.less(t.m1) {
		return 0 >= t.extra
	}
	return t.topups(through) >= t.extra
}

// topups is the top-ups of the jobs after m₁ up to the sums through.
func (t *fillTest) topups(through sums) float64 {
	return max(0, t.c*(through.sumT-t.base.sumT)-t.floor*float64(through.count-t.base.count))
}

// fill returns the first job at which t holds, with the sums before it,
// or none and the sums of every job: reachV's descent, fallback included,
// on the whole order, with t's test. O(jbWidth · depth).
func (j *jobs) fill(t *fillTest) (int32, sums) {
	var acc sums
	x, forced := j.root, false
	for leaf := j.height == 1; !leaf; {
		n := &j.tree[x]
		i := 0
		for ; i < n.n; i++ {
			through := acc.add(n.items[i].s)
			if t.holds(through, n.items[i].last) || forced && i == n.n-1 {
				break
			}
			acc = through
		}
		if i == n.n {
			return none, acc
		}
		x, leaf, forced = n.items[i].kid, n.leafKids, true
	}
	l := &j.leaves[x]
	for i := range l.n {
		through := acc.add(l.items[i].sums())
		if t.holds(through, l.items[i].key()) || forced && i == l.n-1 {
			return l.items[i].kid, acc
		}
		acc = through
	}
	return none, acc
}

// sumsAround returns the sums of the jobs with key < b and of those with
// b < key < e, for b ≤ e: in one descent, each item wholly on one side of
// b, and before e, added whole, in order (as reachV adds the items of a
// range); only the items straddling b or e are entered.
// O(jbWidth · depth).
func (j *jobs) sumsAround(b, e key) (before, in sums) {
	before, in, _ = j.sumBelow(j.root, j.height == 1, b, e, sums{}, sums{})
	return before, in
}

// sumBelow is sumsAround below node x (a leaf if leaf), before and in
// returned with its jobs added, and whether it reached e (the rest of the
// order is after it).
func (j *jobs) sumBelow(x int32, leaf bool, b, e key, before, in sums) (sums, sums, bool) {
	if leaf {
		l := &j.leaves[x]
		for i := range l.n {
			switch k := l.items[i].key(); {
			case k.less(b):
				before = before.add(l.items[i].sums())
			case !k.less(e):
				return before, in, true
			case b.less(k):
				in = in.add(l.items[i].sums())
			}
		}
		return before, in, false
	}
	n := &j.tree[x]
	for i := range n.n {
		it := &n.items[i]
		switch {
		case it.last.less(b): // wholly before b
			before = before.add(it.s)
		case !it.first.less(e): // at or after e
			return before, in, true
		case b.less(it.first) && it.last.less(e): // wholly between
			in = in.add(it.s)
		default:
			var done bool
			if before, in, done = j.sumBelow(it.kid, n.leafKids, b, e, before, in); done {
				return before, in, true
			}
		}
	}
	return before, in, false
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
	for leaf := j.height == 1; !leaf; {
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
		x, leaf = n.items[i].kid, n.leafKids
	}
	l := &j.leaves[x]
	for i := range l.n {
		jb := &l.items[i]
		if found(acc, jb.key()) {
			return jb.kid, acc
		}
		acc = acc.add(jb.sums())
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
	x := j.root
	for leaf := j.height == 1; !leaf; {
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
				x, leaf, forced, entered = it.kid, n.leafKids, true, true
				break
			}
			acc += it.s.sumW
		}
		if !entered {
			return n.items[n.n-1].last.class
		}
	}
	// A leaf: a start at each job of another class than its predecessor.
	l := &j.leaves[x]
	last := 0 // forced: the leaf's last start, 2i at job i
	if forced {
		for i := 1; i < l.n; i++ {
			if l.items[i-1].class != l.items[i].class {
				last = 2 * i
			}
		}
	}
	for i := range l.n {
		jb := &l.items[i]
		if i > 0 && l.items[i-1].class != jb.class && (reaches(acc, slope(jb.class)) || forced && last == 2*i) {
			return l.items[i-1].class
		}
		acc += jb.w
	}
	return l.items[l.n-1].class
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
// since the bounds are over exactly the jobs below.
func (it *jbItem) may(p probe) bool {
	return p.accepts(it.s.count > 0, it.idle, it.minHeld, it.maxHeld, it.minPlus, it.minHold, it.maxHold)
}

// may reports whether p accepts the job: may of an item over it alone.
func (jb *jbJob) may(p probe) bool {
	if jb.t > 0 {
		return p.accepts(true, false, jb.held, jb.held, jb.plus, jb.hold, jb.hold)
	}
	return p.accepts(false, jb.held > 0, heldNone.lo, heldNone.hi, everything, everything, nothing)
}

// accepts reports whether p accepts some job of a set with those bounds:
// active, it holds a job of T > 0; idle, a job of 0 tasks holding a slot;
// the least and greatest held, the least (held+1)/u and held/u and the
// greatest held/u of its active jobs.
func (p probe) accepts(active, idle bool, minHeld, maxHeld int64, minPlus, minHold, maxHold ratio) bool {
	switch {
	case p.mode == over && p.perWeight:
		return idle || p.r < maxHold
	case p.mode == over:
		return idle || active && p.bound < float64(maxHeld)
	case !active:
		return false // no active job: none is short, whatever the bound
	case !p.perWeight && p.mode == shortWhole:
		return float64(minHeld) <= p.bound-1
	case !p.perWeight:
		return float64(minHeld) < p.bound
	case p.mode == shortWhole:
		return minPlus <= p.r
	}
	return minHold < p.r
}

// find returns the first job (the last, if last) below node x (a leaf if
// leaf) with lo < key < hi that p accepts, or none. An item wholly in the
// range that may holds one is entered and yields it (may is exact); at
// most two items per level straddle the range's ends: O(jbWidth · depth).
func (j *jobs) find(x int32, leaf bool, lo, hi key, p probe, last bool) int32 {
	if leaf {
		l := &j.leaves[x]
		for k := range l.n {
			i := k
			if last {
				i = l.n - 1 - k
			}
			jb := &l.items[i]
			switch kk := jb.key(); {
			case !lo.less(kk): // at or before lo
				if last {
					return none
				}
				continue
			case !kk.less(hi): // at or after hi
				if !last {
					return none
				}
				continue
			case jb.may(p):
				return jb.kid
			}
		}
		return none
	}
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
		}
		l, h := lo, hi
		if lo.less(it.first) && it.last.less(hi) {
			l, h = keyFirst, keyLast // wholly in range
		}
		if y := j.find(it.kid, n.leafKids, l, h, p, last); y != none {
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
		if x := j.find(j.root, j.height == 1, rs.start(k), rs.ends[k], probe{s.perWeight, mode, s.bound, s.r}, false); x != none {
			return x
		}
	}
	return none
}

func (j *jobs) last(rs *runs, mode probeMode) int32 {
	for k := rs.n - 1; k >= 0; k-- {
		s := rs.shares[k]
		if x := j.find(j.root, j.height == 1, rs.start(k), rs.ends[k], probe{s.perWeight, mode, s.bound, s.r}, true); x != none {
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
	if !j.live(id) {
		return check.Err(fn, id, "id", float64(id), "no job with this id (never added, or removed)")
	}
	return nil
}

// heldOf is the slots job id holds (from its entry: a scheduler asks it of
// the job Next just found, whose leaf that search read), 0 for an id not
// in use.
func (j *jobs) heldOf(id int) int {
	if !j.live(id) {
		return 0
	}
	return int(j.entryOf(int32(id)).held)
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
	if !j.live(id) {
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
		if j.leafOf[id] != none {
			dst[id] = share(int32(id))
		}
	}
	return dst
}
