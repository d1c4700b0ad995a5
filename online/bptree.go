package online

import "math/bits"

// Hopper's jobs sit in a B+-tree ordered by (T, id): every job in a leaf,
// all leaves at one depth, each node holding up to bpWidth items — a leaf
// its jobs, an inner node its children — in key order. Each item keeps,
// in per-node arrays, its last key and, over the jobs below it, ΣT and the
// bounds Next and Reclaim descend by (least held/T below its share, the
// greatest held/T, least (held+1)/T, greatest fraction c·T − held, some
// job a whole slot short). A descent reads a few contiguous arrays per
// level, and at fanout 16 the tree is about log₁₀ n levels deep (nodes
// hold 4 to 16 items): at 10⁵ jobs five levels against a treap's ~23
// expected, so far fewer cache misses per event (the treap's cost).
//
// Every item's sums and bounds are recomputed from its node's items
// (summarize), never adjusted by differences, so they carry no drift. The
// tree's shape — which jobs share a leaf — depends on the order of the
// events, not only on the jobs held: ΣT, added in the tree's grouping,
// may differ in the last place between two histories of the same jobs.
//
// Costs, n the jobs: depth at most 1 + log₄ n (every node but the root at
// least a quarter full), ~log₁₀ n in practice; an insertion, removal or
// move O(bpWidth · depth) = O(log n), splits and merges included (each at
// most once per level); the bounds' update after a change of held stops
// at the first item that comes out unchanged.

// bpWidth is a node's capacity: items (jobs in a leaf, children in an
// inner node). A node other than the root holds at least bpWidth/4; an
// inner root at least 2.
const bpWidth = 16

// A bpNode is a node of the tree; item i is kid[i] (a job's id in a leaf,
// a child node in an inner node) with the key of the last job below it
// (t, id) and, over the jobs below it, the sums and bounds.
//
// A leaf keeps only what its items cannot share: in a leaf an item's id
// is its kid, its ΣT its t, and its lo hi for T > 0, everything for T = 0
// (leafLo), so a leaf's id, sum and lo arrays are not kept (left zero,
// never read). The arrays a leaf uses come first,
// next to the header: a leaf's work touches 9 of the node's 15 cache
// lines, not all of them.
type bpNode struct {
	n      int
	leaf   bool
	short  uint32 // bit i: some job below item i is a whole slot short
	parent int32
	kid    [bpWidth]int32   // leaf: job ids; inner: child nodes
	t      [bpWidth]float64 // the item's last key: T
	hi     [bpWidth]ratio   // greatest held/T as Reclaim compares it (ratio)
	plus   [bpWidth]ratio   // least (held+1)/T
	frac   [bpWidth]float64 // greatest c·T − held in (0, 1), else −1
	id     [bpWidth]int32   // the last key's id (inner nodes only)
	sum    [bpWidth]float64 // ΣT below the item (inner nodes only)
	lo     [bpWidth]ratio   // least held/T as Next compares it (below; inner nodes only)
}

// leafLo is the lo of leaf item k: its held/T (hi) for T > 0; a job of 0
// tasks is never below its share (everything).
func leafLo(n *bpNode, k int) ratio {
	if n.t[k] > 0 {
		return n.hi[k]
	}
	return everything
}

// keyLess reports whether key (t1, id1) comes before (t2, id2).
func keyLess(t1 float64, id1 int32, t2 float64, id2 int32) bool {
	return t1 < t2 || t1 == t2 && id1 < id2
}

// newNode returns a node, the last freed or a new one (takeID), empty.
// O(1), amortised for the append.
func (h *Hopper) newNode(leaf bool, parent int32) int32 {
	x := takeID(&h.freeNodes, &h.nodes, bpNode{})
	h.nodes[x] = bpNode{leaf: leaf, parent: parent}
	return x
}

// setJob writes job id's own key, T and bounds into item i of leaf x (its
// id, ΣT and lo are its kid, t and leafLo):
// held/T and (held+1)/T as quotients for T > 0; a job of 0 tasks is never
// below its share (lo, plus: everything) and is over it exactly when it
// holds a slot (hi: everything, else nothing). O(1).
func (h *Hopper) setJob(x int32, i int, id int32) {
	n := &h.nodes[x]
	t, held := h.jobs[id].t, h.jobs[id].held
	n.kid[i], n.t[i] = id, t
	switch {
	case t > 0:
		n.hi[i], n.plus[i] = quotient(held, t), quotient(held+1, t)
	case held > 0:
		n.hi[i], n.plus[i] = everything, everything
	default:
		n.hi[i], n.plus[i] = nothing, everything
	}
	n.frac[i] = -1
	if d := h.c*t + 0 - held; d > 0 && d < 1 {
		n.frac[i] = d // held = ⌊V⌋: a largest-remainder candidate
	}
	n.short &^= 1 << i
	if held <= h.c*t+0-1 { // a whole slot short of V = c·T (never for T = 0)
		n.short |= 1 << i
	}
}

// summarize writes node x's summary — its last key, ΣT over its items
// added in order, the bounds over them — into item i of its parent p, and
// reports whether the item changed. O(bpWidth).
func (h *Hopper) summarize(x int32, p *bpNode, i int) bool {
	n := &h.nodes[x]
	s, lo, hi, plus, frac := 0.0, everything, nothing, everything, -1.0
	last := n.n - 1
	var lastID int32
	if n.leaf {
		for k := range n.n {
			s += n.t[k]
			lo, hi, plus, frac = min(lo, leafLo(n, k)), max(hi, n.hi[k]), min(plus, n.plus[k]), max(frac, n.frac[k])
		}
		lastID = n.kid[last]
	} else {
		for k := range n.n {
			s += n.sum[k]
			lo, hi, plus, frac = min(lo, n.lo[k]), max(hi, n.hi[k]), min(plus, n.plus[k]), max(frac, n.frac[k])
		}
		lastID = n.id[last]
	}
	short := n.short != 0
	changed := p.kid[i] != x || p.t[i] != n.t[last] || p.id[i] != lastID || p.sum[i] != s || p.lo[i] != lo || p.hi[i] != hi || p.plus[i] != plus || p.frac[i] != frac || p.short>>i&1 == 1 != short
	p.kid[i], p.t[i], p.id[i], p.sum[i], p.lo[i], p.hi[i], p.plus[i], p.frac[i] = x, n.t[last], lastID, s, lo, hi, plus, frac
	p.short &^= 1 << i
	if short {
		p.short |= 1 << i
	}
	return changed
}

// indexIn is the item of node p whose kid is x (a child node, or a job in
// a leaf), which must be there. O(bpWidth).
func (h *Hopper) indexIn(p, x int32) int {
	n := &h.nodes[p]
	i := 0
	for i < n.n-1 && n.kid[i] != x {
		i++
	}
	return i
}

// fixUp recomputes the items above node x up to the root, and the total;
// with stop, only as far as they change (a change of held: ΣT is the
// same). O(bpWidth · depth).
func (h *Hopper) fixUp(x int32, stop bool) {
	for {
		p := h.nodes[x].parent
		if p == none {
			break
		}
		if !h.summarize(x, &h.nodes[p], h.indexIn(p, x)) && stop {
			return
		}
		x = p
	}
	r := &h.nodes[h.root]
	sums := &r.sum
	if r.leaf {
		sums = &r.t
	}
	s := 0.0
	for k := range r.n {
		s += sums[k]
	}
	h.sum = s
}

// shiftRight opens item i of node x, not full, moving the items from i
// on one place right (one loop over the arrays: cheaper than a copy call
// per array for a node's few items; a leaf's id, sum and lo not kept).
func (h *Hopper) shiftRight(x int32, i int) {
	n := &h.nodes[x]
	for k := n.n; k > i; k-- {
		n.kid[k], n.t[k], n.hi[k], n.plus[k], n.frac[k] = n.kid[k-1], n.t[k-1], n.hi[k-1], n.plus[k-1], n.frac[k-1]
	}
	if !n.leaf {
		for k := n.n; k > i; k-- {
			n.id[k], n.sum[k], n.lo[k] = n.id[k-1], n.sum[k-1], n.lo[k-1]
		}
	}
	low := n.short & (1<<i - 1)
	n.short = low | (n.short&^(1<<i-1))<<1
	n.n++
}

// shiftLeft closes item i of node x, moving the items after it one place
// left.
func (h *Hopper) shiftLeft(x int32, i int) {
	n := &h.nodes[x]
	for k := i; k < n.n-1; k++ {
		n.kid[k], n.t[k], n.hi[k], n.plus[k], n.frac[k] = n.kid[k+1], n.t[k+1], n.hi[k+1], n.plus[k+1], n.frac[k+1]
	}
	if !n.leaf {
		for k := i; k < n.n-1; k++ {
			n.id[k], n.sum[k], n.lo[k] = n.id[k+1], n.sum[k+1], n.lo[k+1]
		}
	}
	low := n.short & (1<<i - 1)
	n.short = low | (n.short>>(i+1))<<i
	n.n--
}

// moveItem copies item i of node from to item j of node to, and points
// the item's job (job.leaf) or child (parent) at to.
func (h *Hopper) moveItem(to int32, j int, from int32, i int) {
	f, d := &h.nodes[from], &h.nodes[to]
	d.kid[j], d.t[j], d.hi[j], d.plus[j], d.frac[j] = f.kid[i], f.t[i], f.hi[i], f.plus[i], f.frac[i]
	if !d.leaf {
		d.id[j], d.sum[j], d.lo[j] = f.id[i], f.sum[i], f.lo[i]
	}
	d.short &^= 1 << j
	d.short |= (f.short >> i & 1) << j
	if d.leaf {
		h.jobs[d.kid[j]].leaf = to
	} else {
		h.nodes[d.kid[j]].parent = to
	}
}

// split moves the upper half of node x, full, to a new node right after
// it in x's parent (a new root above x if x is the root; the parent split
// first if full), and returns the new node. Only x's and the new node's
// items in the parent are recomputed. O(bpWidth · levels split).
func (h *Hopper) split(x int32) int32 {
	p := h.nodes[x].parent
	if p == none {
		p = h.newNode(false, none)
		h.nodes[p].n = 1
		h.nodes[p].kid[0] = x
		h.nodes[x].parent = p
		h.root = p
	} else if h.nodes[p].n == bpWidth {
		h.split(p)
		p = h.nodes[x].parent
	}
	y := h.newNode(h.nodes[x].leaf, p)
	half := h.nodes[x].n / 2
	for i := half; i < h.nodes[x].n; i++ {
		h.moveItem(y, i-half, x, i)
	}
	h.nodes[y].n = h.nodes[x].n - half
	h.nodes[x].n = half
	h.nodes[x].short &= 1<<half - 1
	i := h.indexIn(p, x)
	h.shiftRight(p, i+1)
	h.summarize(x, &h.nodes[p], i)
	h.summarize(y, &h.nodes[p], i+1)
	return y
}

// insert adds job id (its T and held set) by its key, and recomputes the
// items on its path. O(bpWidth · depth).
func (h *Hopper) insert(id int32) {
	h.fixUp(h.place(id, h.root), false)
}

// place puts job id in the leaf its key falls in, splitting it if full,
// and returns the leaf; the items above it are not yet recomputed (a
// split's own are). The descent starts at inner node from, or the first
// node above it whose keys enclose the job's — past its first item's
// last key and at most its last item's, so that every node above it
// would choose it too (any previous sibling's keys are below its first
// item's) — or the root: a move finds the job's new leaf from its old
// one's parent, most often without the levels above. O(bpWidth · depth).
func (h *Hopper) place(id, from int32) int32 {
	t := h.jobs[id].t
	x := from
	for x != h.root {
		n := &h.nodes[x]
		if keyLess(n.t[0], n.id[0], t, id) && !keyLess(n.t[n.n-1], n.id[n.n-1], t, id) {
			break
		}
		x = n.parent
	}
	for !h.nodes[x].leaf {
		n := &h.nodes[x]
		i := 0
		for i < n.n-1 && keyLess(n.t[i], n.id[i], t, id) {
			i++
		}
		x = n.kid[i]
	}
	if h.nodes[x].n == bpWidth {
		if s, ok := h.spill(x, t, id); ok {
			x = s
		} else {
			y := h.split(x)
			if n := &h.nodes[x]; keyLess(n.t[n.n-1], n.kid[n.n-1], t, id) {
				x = y
			}
		}
	}
	n := &h.nodes[x]
	i := 0
	for i < n.n && keyLess(n.t[i], n.kid[i], t, id) {
		i++
	}
	h.shiftRight(x, i)
	h.jobs[id].leaf = x
	h.setJob(x, i, id)
	return x
}

// spill makes room for key (t, id) at leaf x, full, without a split when
// a sibling under the same parent has room: the key itself goes there if
// it falls at the seam (before x's first job, for the left sibling; after
// its last, for the right), else x's first job moves to the end of the
// left sibling or its last to the front of the right. It returns the leaf
// the key now goes in, and false if neither sibling has room. The
// sibling's item in the parent is recomputed when a job moved (x's, and
// the leaf the key goes in, are on the caller's walk up). Passing a job
// on instead of splitting keeps the leaves fuller (B*-trees do the same):
// at 10⁵ jobs, after the arrivals settle, 70% full instead of 56% — a
// fifth fewer leaves, fewer cache lines for the same jobs, and an event
// 6–8% faster. (place never takes the right seam: its descent chose x over
// the right sibling, so the key is at most x's last — only the moving
// job's old leaf has a stale item in its parent, and that leaf is not
// full. The branch keeps spill right for any key the descent could send
// to x, up to its right sibling's first; no test reaches it.) O(bpWidth).
func (h *Hopper) spill(x int32, t float64, id int32) (int32, bool) {
	p := h.nodes[x].parent
	if p == none {
		return x, false
	}
	pn, n := &h.nodes[p], &h.nodes[x]
	j := h.indexIn(p, x)
	if j > 0 {
		if l := pn.kid[j-1]; h.nodes[l].n < bpWidth {
			if keyLess(t, id, n.t[0], n.kid[0]) {
				return l, true
			}
			ln := &h.nodes[l]
			h.moveItem(l, ln.n, x, 0)
			ln.n++
			h.shiftLeft(x, 0)
			h.summarize(l, pn, j-1)
			return x, true
		}
	}
	if j < pn.n-1 {
		if r := pn.kid[j+1]; h.nodes[r].n < bpWidth {
			if keyLess(n.t[n.n-1], n.kid[n.n-1], t, id) {
				return r, true
			}
			h.shiftRight(r, 0)
			h.moveItem(r, 0, x, n.n-1)
			n.n--
			n.short &= 1<<n.n - 1
			h.summarize(r, pn, j+1)
			return x, true
		}
	}
	return x, false
}

// fixPair recomputes the items above leaves x and y, at one depth as all
// leaves are: side by side up to their lowest common ancestor, then once
// to the root. A split since x changed (place's) leaves stale items only
// on x's path and y's — a split node's items are its children's, stale
// only for the child on x's path, which the walk up x's parents reaches
// in whichever half it went — so the two walks still cover them.
func (h *Hopper) fixPair(x, y int32) {
	for x != y {
		px, py := h.nodes[x].parent, h.nodes[y].parent
		h.summarize(x, &h.nodes[px], h.indexIn(px, x))
		h.summarize(y, &h.nodes[py], h.indexIn(py, y))
		x, y = px, py
	}
	h.fixUp(x, false)
}

// remove takes job id out of the tree. O(bpWidth · depth).
func (h *Hopper) remove(id int32) {
	x := h.jobs[id].leaf
	h.shiftLeft(x, h.indexIn(x, id))
	h.rebalance(x)
}

// rebalance restores node x's fill after it lost an item — merged with a
// sibling if the two fit in one node, else topped up with one item of the
// sibling — and recomputes the items above; a merge may leave the parent
// short in turn, and an inner root left with one child gives way to it.
// O(bpWidth · depth).
func (h *Hopper) rebalance(x int32) {
	n := &h.nodes[x]
	p := n.parent
	if p == none {
		if !n.leaf && n.n == 1 {
			h.root = n.kid[0]
			h.nodes[h.root].parent = none
			h.freeNodes = append(h.freeNodes, x)
			x = h.root
		}
		h.fixUp(x, false)
		return
	}
	if n.n >= bpWidth/4 {
		h.fixUp(x, false)
		return
	}
	i := h.indexIn(p, x)
	l, r := x, x
	if i > 0 {
		l = h.nodes[p].kid[i-1]
	} else {
		r = h.nodes[p].kid[i+1]
	}
	ln, rn := &h.nodes[l], &h.nodes[r]
	if ln.n+rn.n <= bpWidth { // merge r into l
		for k := range rn.n {
			h.moveItem(l, ln.n+k, r, k)
		}
		ln.n += rn.n
		h.shiftLeft(p, h.indexIn(p, r))
		h.freeNodes = append(h.freeNodes, r)
		h.summarize(l, &h.nodes[p], h.indexIn(p, l))
		h.rebalance(p)
		return
	}
	if l == x { // borrow the right sibling's first item
		h.moveItem(l, ln.n, r, 0)
		ln.n++
		h.shiftLeft(r, 0)
	} else { // the left sibling's last
		h.shiftRight(r, 0)
		h.moveItem(r, 0, l, ln.n-1)
		ln.n--
		ln.short &= 1<<ln.n - 1
	}
	h.summarize(l, &h.nodes[p], h.indexIn(p, l))
	h.fixUp(r, false)
}

// move changes job id's remaining tasks to t: in place if the new key
// stays between the job's neighbours in its leaf, else out of its leaf
// and into the one its new key falls in (its old leaf rebalanced if left
// short), the two leaves' paths recomputed side by side.
// O(bpWidth · depth).
func (h *Hopper) move(id int32, t float64) {
	x := h.jobs[id].leaf
	n := &h.nodes[x]
	i := h.indexIn(x, id)
	h.jobs[id].t = t
	if i > 0 && i < n.n-1 && keyLess(n.t[i-1], n.kid[i-1], t, id) && keyLess(t, id, n.t[i+1], n.kid[i+1]) {
		h.setJob(x, i, id)
		h.fixUp(x, false)
		return
	}
	h.shiftLeft(x, i)
	if x != h.root && n.n < bpWidth/4 {
		h.rebalance(x)
		h.insert(id)
		return
	}
	from := n.parent
	if x == h.root {
		from = x
	}
	h.fixPair(x, h.place(id, from))
}

// depth is the number of levels, leaves included. O(depth).
func (h *Hopper) depth() int {
	d := 1
	for x := h.root; !h.nodes[x].leaf; x = h.nodes[x].kid[0] {
		d++
	}
	return d
}

// The descents. Each item's bounds are exact over the jobs below it, so a
// descent that enters an item finds its job there: O(bpWidth · depth).

// firstShort returns the first job a whole slot short of c·T, or none.
func (h *Hopper) firstShort() int32 {
	x := h.root
	for {
		n := &h.nodes[x]
		if n.short == 0 {
			return none
		}
		i := bits.TrailingZeros32(n.short)
		if n.leaf {
			return n.kid[i]
		}
		x = n.kid[i]
	}
}

// prefixFrac returns the greatest frac of the jobs before the cut (−1 if
// none is a candidate): the items before the cut's path, read up the path
// from the cut's leaf; every job's, when there is no cut-off job.
func (h *Hopper) prefixFrac() float64 {
	best := -1.0
	if h.cut == none {
		r := &h.nodes[h.root]
		for k := range r.n {
			best = max(best, r.frac[k])
		}
		return best
	}
	x, child := h.jobs[h.cut].leaf, h.cut
	for x != none {
		n := &h.nodes[x]
		for k := 0; k < n.n && n.kid[k] != child; k++ {
			best = max(best, n.frac[k])
		}
		x, child = n.parent, x
	}
	return best
}

// firstFrac returns the first job whose frac is at least f, or none; for
// f the greatest before the cut (prefixFrac), a job before the cut.
func (h *Hopper) firstFrac(f float64) int32 {
	x := h.root
	for {
		n := &h.nodes[x]
		i := 0
		for i < n.n && n.frac[i] < f {
			i++
		}
		if i == n.n {
			return none
		}
		if n.leaf {
			return n.kid[i]
		}
		x = n.kid[i]
	}
}

// firstAtMost returns the first job whose (held+1)/T is at most r, or
// none.
func (h *Hopper) firstAtMost(r ratio) int32 {
	x := h.root
	for {
		n := &h.nodes[x]
		i := 0
		for i < n.n && n.plus[i] > r {
			i++
		}
		if i == n.n {
			return none
		}
		if n.leaf {
			return n.kid[i]
		}
		x = n.kid[i]
	}
}

// firstBelow returns the first job whose held/T, as Next compares it, is
// less than r, or none.
func (h *Hopper) firstBelow(r ratio) int32 {
	x := h.root
	for {
		n := &h.nodes[x]
		i := 0
		if n.leaf {
			for i < n.n && leafLo(n, i) >= r {
				i++
			}
			if i == n.n {
				return none
			}
			return n.kid[i]
		}
		for i < n.n && n.lo[i] >= r {
			i++
		}
		if i == n.n {
			return none
		}
		x = n.kid[i]
	}
}

// lastAbove returns the last job whose held/T, as Reclaim compares it, is
// greater than r, or none.
func (h *Hopper) lastAbove(r ratio) int32 {
	x := h.root
	for {
		n := &h.nodes[x]
		i := n.n - 1
		for i >= 0 && n.hi[i] <= r {
			i--
		}
		if i < 0 {
			return none
		}
		if n.leaf {
			return n.kid[i]
		}
		x = n.kid[i]
	}
}
