package online

// The jobs' search tree: a treap ordered by (T, id), a max-heap on the ids'
// fixed priorities, each node holding ΣT over its subtree (Seidel and
// Aragon, "Randomized search trees", 1996: expected depth O(log n)).
// Insertion and deletion split the tree at a key and merge the parts back;
// each node's sum is recomputed from its children's on the way up, never
// adjusted by differences, so the sums carry no drift however many events
// pass.

// insert adds node id (its T and held set) to the tree.
func (h *Hopper) insert(id int32) {
	h.nodes[id].left, h.nodes[id].right = none, none
	h.setRatios(id)
	h.update(id)
	l, r := h.split(h.root, id)
	h.root = h.merge(h.merge(l, id), r)
	h.fresh = false
}

// remove takes node id out of the tree.
func (h *Hopper) remove(id int32) {
	l, r := h.split(h.root, id) // l: before id; r: id and after
	_, r = h.splitFirst(r)      // r's first node is id
	h.root = h.merge(l, r)
	h.fresh = false
}

// split divides the subtree x into the nodes before key (in (T, id) order)
// and the others.
func (h *Hopper) split(x, key int32) (before, after int32) {
	if x == none {
		return none, none
	}
	if h.before(x, key) {
		l, r := h.split(h.nodes[x].right, key)
		h.nodes[x].right = l
		h.update(x)
		return x, r
	}
	l, r := h.split(h.nodes[x].left, key)
	h.nodes[x].left = r
	h.update(x)
	return l, x
}

// splitFirst divides the non-empty subtree x into its first node and the
// rest.
func (h *Hopper) splitFirst(x int32) (first, rest int32) {
	if h.nodes[x].left == none {
		r := h.nodes[x].right
		h.nodes[x].right = none
		h.update(x)
		return x, r
	}
	f, r := h.splitFirst(h.nodes[x].left)
	h.nodes[x].left = r
	h.update(x)
	return f, x
}

// merge joins subtrees a and b, every node of a before every node of b.
func (h *Hopper) merge(a, b int32) int32 {
	switch {
	case a == none:
		return b
	case b == none:
		return a
	case h.nodes[a].prio > h.nodes[b].prio || h.nodes[a].prio == h.nodes[b].prio && a < b:
		h.nodes[a].right = h.merge(h.nodes[a].right, b)
		h.update(a)
		return a
	}
	h.nodes[b].left = h.merge(a, h.nodes[b].left)
	h.update(b)
	return b
}

// update recomputes node x's subtree sum and ratio bounds from its
// children's.
func (h *Hopper) update(x int32) {
	s := h.nodes[x].t
	lo, hi, plus, short, frac := h.nodes[x].below, h.nodes[x].over, h.nodes[x].plus, h.nodes[x].short, h.nodes[x].frac
	if l := h.nodes[x].left; l != none {
		s = h.nodes[l].sum + s
		lo, hi, plus = minRatio(lo, h.nodes[l].lo), maxRatio(hi, h.nodes[l].hi), minRatio(plus, h.nodes[l].plusLo)
		short, frac = short || h.nodes[l].anyShort, max(frac, h.nodes[l].fracHi)
	}
	if r := h.nodes[x].right; r != none {
		s += h.nodes[r].sum
		lo, hi, plus = minRatio(lo, h.nodes[r].lo), maxRatio(hi, h.nodes[r].hi), minRatio(plus, h.nodes[r].plusLo)
		short, frac = short || h.nodes[r].anyShort, max(frac, h.nodes[r].fracHi)
	}
	h.nodes[x].sum, h.nodes[x].lo, h.nodes[x].hi, h.nodes[x].plusLo, h.nodes[x].anyShort, h.nodes[x].fracHi = s, lo, hi, plus, short, frac
}
