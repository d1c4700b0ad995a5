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
// against a split and two merges' several times that.

// insert adds node id (its T and held set) to the tree. O(depth).
func (h *Hopper) insert(id int32) {
	h.nodes[id].left, h.nodes[id].right = none, none
	h.setRatios(id)
	h.update(id)
	h.fresh = false
	h.path = h.path[:0]
	for x := h.root; x != none; {
		h.path = append(h.path, x)
		if h.before(id, x) {
			x = h.nodes[x].left
		} else {
			x = h.nodes[x].right
		}
	}
	// Attach id as a leaf, then rotate it up past every parent it outranks.
	h.link(len(h.path)-1, none, id)
	for k := len(h.path) - 1; k >= 0 && h.above(id, h.path[k]); k-- {
		p := h.path[k]
		if h.nodes[p].left == id {
			h.nodes[p].left = h.nodes[id].right
			h.nodes[id].right = p
		} else {
			h.nodes[p].right = h.nodes[id].left
			h.nodes[id].left = p
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
// the old and the new key part. The nodes on that shared top are updated
// once, by the insertion, instead of twice; for a small change (a task
// completed: T − 1) the two paths share most of their length. O(depth).
func (h *Hopper) move(id int32, t float64) {
	h.detach(id)
	h.nodes[id].t = t
	// h.path is the removal's path from the root; its first shared nodes
	// are those on the insertion's descent to the new key.
	shared := 0
	for shared < len(h.path) && (shared == 0 || h.child(h.path[shared-1], id) == h.path[shared]) {
		shared++
	}
	for k := len(h.path) - 1; k >= shared; k-- {
		h.update(h.path[k])
	}
	h.insert(id)
}

// child is node x's child on id's side of it.
func (h *Hopper) child(x, id int32) int32 {
	if h.before(id, x) {
		return h.nodes[x].left
	}
	return h.nodes[x].right
}

// detach takes node id out of the tree, leaving in h.path the nodes whose
// subtrees changed, from the root down, not yet updated. O(depth).
func (h *Hopper) detach(id int32) {
	h.fresh = false
	h.findPath(id)
	h.path = h.path[:len(h.path)-1] // id's ancestors
	// Rotate id down below its higher-priority child until it has at most
	// one; each child rotated up becomes an ancestor of id.
	for {
		l, r := h.nodes[id].left, h.nodes[id].right
		if l == none || r == none {
			h.link(len(h.path)-1, id, max(l, r)) // none is −1: the one child, or none
			break
		}
		var c int32
		if h.above(l, r) {
			c = l
			h.nodes[id].left = h.nodes[l].right
			h.nodes[l].right = id
		} else {
			c = r
			h.nodes[id].right = h.nodes[r].left
			h.nodes[r].left = id
		}
		h.link(len(h.path)-1, id, c)
		h.path = append(h.path, c)
	}
}

// refreshNode recomputes id's own bounds (setRatios) and the subtree sums
// and bounds on its path from the root, for a change of held that leaves
// its place in the order. O(depth).
func (h *Hopper) refreshNode(id int32) {
	h.findPath(id)
	h.setRatios(id)
	h.updatePath()
}

// findPath sets h.path to the nodes from the root to id, id last; id must
// be in the tree. O(depth).
func (h *Hopper) findPath(id int32) {
	h.path = h.path[:0]
	for x := h.root; ; {
		h.path = append(h.path, x)
		switch {
		case x == id:
			return
		case h.before(id, x):
			x = h.nodes[x].left
		default:
			x = h.nodes[x].right
		}
	}
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
	case from != none && h.nodes[p].left == from:
		h.nodes[p].left = to
	case from != none:
		h.nodes[p].right = to
	case h.before(to, p):
		h.nodes[p].left = to
	default:
		h.nodes[p].right = to
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
	n := &h.nodes[x]
	s, lo, hi, plus, short, frac := n.t, h.below(x), n.ratio, n.plus, h.short(x), h.frac(x)
	if l := n.left; l != none {
		c := &h.nodes[l]
		s = c.sum + s
		lo, hi, plus = min(lo, c.lo), max(hi, c.hi), min(plus, c.plusLo)
		short, frac = short || c.anyShort, max(frac, c.fracHi)
	}
	if r := n.right; r != none {
		c := &h.nodes[r]
		s += c.sum
		lo, hi, plus = min(lo, c.lo), max(hi, c.hi), min(plus, c.plusLo)
		short, frac = short || c.anyShort, max(frac, c.fracHi)
	}
	n.sum, n.lo, n.hi, n.plusLo, n.anyShort, n.fracHi = s, lo, hi, plus, short, frac
}
