package online

// The jobs' search tree: a treap ordered by (T, id), a max-heap on the ids'
// fixed priorities, each node holding ΣT over its subtree (Seidel and
// Aragon, "Randomized search trees", 1996: expected depth O(log n), and
// an expected O(1) rotations per insertion or deletion). Priorities are a
// fixed hash of the id, distinct for distinct ids (above), so
// the tree's shape — and with it the order in which the sums add — depends
// only on the jobs held, not on the events that led there. Each node's
// sum is recomputed from its children's on the way up, never adjusted by
// differences, so the sums carry no drift however many events pass.
//
// Insertion descends to the new key's leaf position and rotates the node
// up while it outranks its parent; deletion rotates the node down, below
// its higher-priority child, until it has at most one child, and splices
// it out. Either way only the nodes on the root-to-node path change their
// subtrees, and they are updated bottom-up from h.path: O(depth) updates,
// against a split and two merges' several times that. A change of T that
// keeps the job between its neighbours in the order changes no subtree's
// set of jobs: the node takes its new key in place and only the sums and
// bounds on its path are recomputed. A change of held alone recomputes
// them only as far up as they change.

// insert adds node id (its T and held set) to the tree. O(depth).
func (h *Hopper) insert(id int32) {
	h.path = h.path[:0]
	h.insertBelow(id)
}

// insertBelow adds node id to the tree, h.path holding the first nodes of
// its descent from the root (none, or a prefix of them: move's shared
// top). O(depth).
func (h *Hopper) insertBelow(id int32) {
	h.pathTo = none // the shape changes
	h.keys[id].kid[0], h.keys[id].kid[1] = none, none
	h.setRatios(id)
	h.update(id)
	h.fresh = false
	x := h.root
	if k := len(h.path); k > 0 {
		x = h.keys[h.path[k-1]].kid[h.side(id, h.path[k-1])]
	}
	for x != none {
		h.path = append(h.path, x)
		x = h.keys[x].kid[h.side(id, x)]
	}
	// Attach id as a leaf, then rotate it up past every parent it outranks.
	h.link(len(h.path)-1, none, id)
	for k := len(h.path) - 1; k >= 0 && h.above(id, h.path[k]); k-- {
		p := h.path[k]
		if h.keys[p].kid[0] == id {
			h.keys[p].kid[0] = h.keys[id].kid[1]
			h.keys[id].kid[1] = p
		} else {
			h.keys[p].kid[1] = h.keys[id].kid[0]
			h.keys[id].kid[0] = p
		}
		h.update(p)
		h.update(id)
		h.link(k-1, p, id)
		h.path = h.path[:k]
	}
	h.updatePath()
}

// remove takes node id out of the tree. O(depth).
func (h *Hopper) remove(id int32) {
	h.detach(id)
	h.updatePath()
}

// move changes node id's remaining tasks to t and its place in the tree:
// a removal and an insertion, whose paths share their top down to where
// the old and the new key part. The nodes on that shared top are descended
// and updated once, by the insertion, which goes on from there instead of
// from the root; for a small change (a task completed: T − 1) the two
// paths share most of their length. Below the shared top the two descents
// are made side by side (findPathToward). O(depth).
func (h *Hopper) move(id int32, t float64) {
	if h.findPathToward(id, t) {
		// In place: the same shape, the path's sums and bounds recomputed.
		h.fresh = false
		h.keys[id].t = t
		h.setRatios(id)
		h.updatePath()
		return
	}
	h.detachFound(id)
	h.keys[id].t = t
	// h.path is the removal's path from the root; its first shared nodes
	// are those on the insertion's descent to the new key.
	shared := 0
	for shared < len(h.path) && (shared == 0 || h.keys[h.path[shared-1]].kid[h.side(id, h.path[shared-1])] == h.path[shared]) {
		shared++
	}
	for k := len(h.path) - 1; k >= shared; k-- {
		h.update(h.path[k])
	}
	// The insertion's descent goes on from the shared top.
	h.path = h.path[:shared]
	h.insertBelow(id)
}

// side is the side of node b on which node a ≠ b lies in (T, id) order:
// 0 (left) if a comes before b, else 1. Computed without a branch, so
// that findPathToward's two descents, side by side, are not both flushed
// by either's mispredicted turn. (findPath keeps its branches: its
// descents, SetHeld's to the jobs Next names, mostly repeat and predict
// well; measured, a branch-free findPath made SetHeld slower.)
func (h *Hopper) side(a, b int32) int {
	ta, tb := h.keys[a].t, h.keys[b].t
	return (b2i(ta > tb) | b2i(ta == tb)&b2i(a > b)) & 1
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// detach takes node id out of the tree, leaving in h.path the nodes whose
// subtrees changed, from the root down, not yet updated. O(depth).
func (h *Hopper) detach(id int32) {
	h.findPath(id)
	h.detachFound(id)
}

// detachFound is detach with h.path already the path to id (findPath).
func (h *Hopper) detachFound(id int32) {
	h.pathTo = none // the shape changes
	h.fresh = false
	h.path = h.path[:len(h.path)-1] // id's ancestors
	// Rotate id down below its higher-priority child until it has at most
	// one; each child rotated up becomes an ancestor of id.
	for {
		l, r := h.keys[id].kid[0], h.keys[id].kid[1]
		if l == none || r == none {
			h.link(len(h.path)-1, id, max(l, r)) // none is −1: the one child, or none
			break
		}
		var c int32
		if h.above(l, r) {
			c = l
			h.keys[id].kid[0] = h.keys[l].kid[1]
			h.keys[l].kid[1] = id
		} else {
			c = r
			h.keys[id].kid[1] = h.keys[r].kid[0]
			h.keys[r].kid[0] = id
		}
		h.link(len(h.path)-1, id, c)
		h.path = append(h.path, c)
	}
}

// refreshNode recomputes id's own bounds (setRatios) and the subtree sums
// and bounds on its path from the root, for a change of held that leaves
// its place in the order: bottom-up, up to the first node whose subtree's
// bounds come out unchanged (update), above which nothing changes. O(depth).
func (h *Hopper) refreshNode(id int32) {
	h.findPath(id)
	h.setRatios(id)
	for k := len(h.path) - 1; k >= 0 && h.updated(h.path[k]); k-- {
	}
}

// findPath sets h.path to the nodes from the root to id, id last; id must
// be in the tree. O(depth).
func (h *Hopper) findPath(id int32) {
	if h.pathTo == id {
		return // still the path a query found (pathTo)
	}
	h.path, h.pathTo = h.path[:0], id
	for x := h.root; ; {
		h.path = append(h.path, x)
		switch {
		case x == id:
			return
		case h.before(id, x):
			x = h.keys[x].kid[0]
		default:
			x = h.keys[x].kid[1]
		}
	}
}

// findPathToward is findPath(id) and, in the same loop, a walk down to
// where key (t, id) would be inserted — move's insertion — that only reads
// the nodes on its way, so that they are in cache when the insertion comes:
// below the shared top the two descents are two chains of dependent loads,
// and side by side their cache misses overlap instead of adding up.
// It reports whether (t, id) lies between id's neighbours in the order, so
// that id can take the new key where it is: the walk passes through id
// (its subtree's range holds the new key) and, below it, keeps to one side
// — all right under its left child, past every job of that subtree, or all
// left under its right child. O(depth).
func (h *Hopper) findPathToward(id int32, t float64) bool {
	h.path, h.pathTo = h.path[:0], id
	x, y := h.root, h.root
	touch := 0.0
	want, keeps := -1, 1 // the side the walk must keep below id (−1 above it); whether it does
	step := func(y int32) int32 {
		s := h.sideOf(t, id, y)
		if y == id {
			want = 1 - s
		} else if want >= 0 {
			keeps &= b2i(s == want)
		}
		return h.keys[y].kid[s]
	}
	for x != id {
		h.path = append(h.path, x)
		touch += h.touch(x)
		x = h.keys[x].kid[h.side(id, x)]
		if y != none {
			touch += h.touch(y)
			y = step(y)
		}
	}
	h.path = append(h.path, id)
	for y != none {
		touch += h.touch(y)
		y = step(y)
	}
	h.sink = touch
	return want >= 0 && keeps == 1
}

// touch reads node x's own record and its children's, which an update of
// x will read, so that their cache misses start now, beside the
// descent's, instead of one after the other in the updates; the sum read
// is only to keep the loads.
func (h *Hopper) touch(x int32) float64 {
	k := &h.keys[x]
	return h.nodes[x].sum + h.nodes[max(k.kid[0], 0)].sum + h.nodes[max(k.kid[1], 0)].sum
}

// sideOf is side for a key (t, id) not necessarily id's own.
func (h *Hopper) sideOf(t float64, id, b int32) int {
	tb := h.keys[b].t
	return (b2i(t > tb) | b2i(t == tb)&b2i(id > b)) & 1
}

// link makes node to the child of h.path[k] that was node from (the root
// when k < 0); from none: the child on to's side of h.path[k].
func (h *Hopper) link(k int, from, to int32) {
	if k < 0 {
		h.root = to
		return
	}
	p := h.path[k]
	switch {
	case from != none && h.keys[p].kid[0] == from:
		h.keys[p].kid[0] = to
	case from != none:
		h.keys[p].kid[1] = to
	case h.before(to, p):
		h.keys[p].kid[0] = to
	default:
		h.keys[p].kid[1] = to
	}
}

// updatePath updates the nodes of h.path, deepest first.
func (h *Hopper) updatePath() {
	for k := len(h.path) - 1; k >= 0; k-- {
		h.update(h.path[k])
	}
}

// above reports whether node a sits above node b in the heap order: the
// higher priority. Priorities never tie: priority is a bijection of the
// id (splitmix64's finaliser).
func (h *Hopper) above(a, b int32) bool { return priority(a) > priority(b) }

// update recomputes node x's subtree sum and bounds from its own fields
// and its children's.
func (h *Hopper) update(x int32) {
	h.updated(x)
}

// updated is update, and reports whether the subtree sum or bounds
// changed: if not, nothing above x changes either, for a parent's update
// reads of x only these.
func (h *Hopper) updated(x int32) bool {
	n, k := &h.nodes[x], &h.keys[x]
	s, lo, hi, plus, short, frac := k.t, h.below(x), n.ratio, n.plus, h.short(x), h.frac(x)
	if l := k.kid[0]; l != none {
		c := &h.nodes[l]
		s = c.sum + s
		lo, hi, plus = min(lo, c.lo), max(hi, c.hi), min(plus, c.plusLo)
		short, frac = short || c.anyShort, max(frac, c.fracHi)
	}
	if r := k.kid[1]; r != none {
		c := &h.nodes[r]
		s += c.sum
		lo, hi, plus = min(lo, c.lo), max(hi, c.hi), min(plus, c.plusLo)
		short, frac = short || c.anyShort, max(frac, c.fracHi)
	}
	changed := s != n.sum || lo != n.lo || hi != n.hi || plus != n.plusLo || short != n.anyShort || frac != n.fracHi
	n.sum, n.lo, n.hi, n.plusLo, n.anyShort, n.fracHi = s, lo, hi, plus, short, frac
	return changed
}
