package minheap

// IndexedItem is the constraint on an Indexed heap's element type T: *T has
// Less, a strict ordering, and Index, the item's identity, an int ≥ 0 that
// no other item in the heap has at the same time (a node, a job's slot).
type IndexedItem[T any] interface {
	Item[T]
	Index() int
}

// An Indexed heap is a binary min-heap of T by P's Less that knows where the
// item of each index sits, so that it can be found, re-keyed or removed in
// O(log n). Memory: the items, and one position per index up to the
// largest index pushed. The zero value is an empty heap.
type Indexed[T any, P IndexedItem[T]] struct {
	items []T
	pos   []int // pos[i]: where the item of index i sits in items, −1 if absent
}

// Grow makes room for the indices below n, so that pushing them does not
// allocate. O(n) the first time.
func (h *Indexed[T, P]) Grow(n int) {
	for len(h.pos) < n {
		h.pos = append(h.pos, -1)
	}
}

// Reset empties the heap, keeping its memory. O(indices grown).
func (h *Indexed[T, P]) Reset() {
	h.items = h.items[:0]
	for i := range h.pos {
		h.pos[i] = -1
	}
}

// Len returns the number of items. O(1).
func (h *Indexed[T, P]) Len() int { return len(h.items) }

// Min returns the least item; the heap must not be empty. O(1).
func (h *Indexed[T, P]) Min() *T { return &h.items[0] }

// MinExcept returns the least item whose index is not skip, or nil if there
// is none. O(1): if the root is skip's, the answer is the lesser of its
// children.
func (h *Indexed[T, P]) MinExcept(skip int) *T {
	n := len(h.items)
	switch {
	case n == 0:
		return nil
	case P(&h.items[0]).Index() != skip:
		return &h.items[0]
	case n == 1:
		return nil
	case n == 2 || P(&h.items[1]).Less(&h.items[2]):
		return &h.items[1]
	default:
		return &h.items[2]
	}
}

// Get returns the item of index i, or nil if it is not in the heap. A caller
// that changes its key must call Fix(i) before the next operation. O(1).
func (h *Indexed[T, P]) Get(i int) *T {
	if i >= len(h.pos) || h.pos[i] < 0 {
		return nil
	}
	return &h.items[h.pos[i]]
}

// Push adds x, whose index must not be in the heap. O(log n), and O(index)
// the first time an index past the grown ones is pushed.
func (h *Indexed[T, P]) Push(x T) {
	i := P(&x).Index()
	h.Grow(i + 1)
	h.items = append(h.items, x)
	h.pos[i] = len(h.items) - 1
	h.up(len(h.items) - 1)
}

// Remove takes the item of index i out of the heap; nothing happens if it
// is not in. O(log n).
func (h *Indexed[T, P]) Remove(i int) {
	if i >= len(h.pos) || h.pos[i] < 0 {
		return
	}
	p := h.pos[i]
	last := len(h.items) - 1
	if p != last {
		h.swap(p, last)
	}
	h.items = h.items[:last]
	h.pos[i] = -1
	if p != last && !h.down(p) {
		h.up(p)
	}
}

// Fix restores the heap order after the key of the item of index i, which
// must be in the heap, was changed in place (through Get). O(log n).
func (h *Indexed[T, P]) Fix(i int) {
	if p := h.pos[i]; !h.down(p) {
		h.up(p)
	}
}

func (h *Indexed[T, P]) swap(a, b int) {
	items := h.items
	items[a], items[b] = items[b], items[a]
	h.pos[P(&items[a]).Index()] = a
	h.pos[P(&items[b]).Index()] = b
}

func (h *Indexed[T, P]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !P(&h.items[i]).Less(&h.items[parent]) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

// down sifts the item at i down to its place and reports whether it moved.
func (h *Indexed[T, P]) down(i int) bool {
	start := i
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return i != start
		}
		best := l
		if r := l + 1; r < n && P(&h.items[r]).Less(&h.items[l]) {
			best = r
		}
		if !P(&h.items[best]).Less(&h.items[i]) {
			return i != start
		}
		h.swap(i, best)
		i = best
	}
}
