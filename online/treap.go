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
	h.left[id], h.right[id] = none, none
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
		l, r := h.split(h.right[x], key)
		h.right[x] = l
		h.update(x)
		return x, r
	}
	l, r := h.split(h.left[x], key)
	h.left[x] = r
	h.update(x)
	return l, x
}

// splitFirst divides the non-empty subtree x into its first node and the
// rest.
func (h *Hopper) splitFirst(x int32) (first, rest int32) {
	if h.left[x] == none {
		r := h.right[x]
		h.right[x] = none
		h.update(x)
		return x, r
	}
	f, r := h.splitFirst(h.left[x])
	h.left[x] = r
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
	case h.prio[a] > h.prio[b] || h.prio[a] == h.prio[b] && a < b:
		h.right[a] = h.merge(h.right[a], b)
		h.update(a)
		return a
	}
	h.left[b] = h.merge(a, h.left[b])
	h.update(b)
	return b
}

// update recomputes node x's subtree sum and ratio bounds from its
// children's.
func (h *Hopper) update(x int32) {
	s := h.t[x]
	lo, hi, plus, short, frac := h.below[x], h.over[x], h.plus[x], h.short[x], h.frac[x]
	if l := h.left[x]; l != none {
		s = h.sum[l] + s
		lo, hi, plus = minRatio(lo, h.lo[l]), maxRatio(hi, h.hi[l]), minRatio(plus, h.plusLo[l])
		short, frac = short || h.anyShort[l], max(frac, h.fracHi[l])
	}
	if r := h.right[x]; r != none {
		s += h.sum[r]
		lo, hi, plus = minRatio(lo, h.lo[r]), maxRatio(hi, h.hi[r]), minRatio(plus, h.plusLo[r])
		short, frac = short || h.anyShort[r], max(frac, h.fracHi[r])
	}
	h.sum[x], h.lo[x], h.hi[x], h.plusLo[x], h.anyShort[x], h.fracHi[x] = s, lo, hi, plus, short, frac
}
