package minheap

// An Entry is an item of an Indexed heap: a Value with its Rank and its
// Index, the identity by which the heap finds it (a node, a job's slot),
// an int ≥ 0 that no other entry in the heap has at the same time.
type Entry[V any] struct {
	Value V // first: see Item
	Rank
	Index int
}

// An Indexed heap is a binary min-heap of entries by rank that knows where
// the entry of each index sits, so that it can be found, re-ranked or
// removed in O(log n). Memory: the entries, and one position per index up
// to the largest index pushed. The zero value is an empty heap.
type Indexed[V any] struct {
	items []Entry[V]
	pos   []int // pos[i]: where the entry of index i sits in items, −1 if absent
}

// Grow makes room for the indices below n, so that pushing them does not
// allocate. O(n) the first time.
func (h *Indexed[V]) Grow(n int) {
	for len(h.pos) < n {
		h.pos = append(h.pos, -1)
	}
}

// Reset empties the heap, keeping its memory. O(indices grown).
func (h *Indexed[V]) Reset() {
	h.items = h.items[:0]
	for i := range h.pos {
		h.pos[i] = -1
	}
}

// Len returns the number of entries. O(1).
func (h *Indexed[V]) Len() int { return len(h.items) }

// Min returns the least entry; the heap must not be empty. O(1).
func (h *Indexed[V]) Min() *Entry[V] { return &h.items[0] }

// MinExcept returns the least entry whose index is not skip, or nil if
// there is none. O(1): if the root is skip's, the answer is the lesser of
// its children.
func (h *Indexed[V]) MinExcept(skip int) *Entry[V] {
	n := len(h.items)
	switch {
	case n == 0:
		return nil
	case h.items[0].Index != skip:
		return &h.items[0]
	case n == 1:
		return nil
	case n == 2 || h.items[1].Less(&h.items[2].Rank):
		return &h.items[1]
	default:
		return &h.items[2]
	}
}

// Get returns the entry of index i, or nil if it is not in the heap. A
// caller that changes its rank must call Fix(i) before the next operation.
// O(1).
func (h *Indexed[V]) Get(i int) *Entry[V] {
	if i >= len(h.pos) || h.pos[i] < 0 {
		return nil
	}
	return &h.items[h.pos[i]]
}

// Push adds v with rank r under index i, which must not be in the heap.
// O(log n), and O(i) the first time an index past the grown ones is
// pushed.
func (h *Indexed[V]) Push(r Rank, i int, v V) {
	h.Grow(i + 1)
	h.items = append(h.items, Entry[V]{v, r, i})
	last := len(h.items) - 1
	h.pos[i] = last
	h.up(last)
}

// Remove takes the entry of index i out of the heap; nothing happens if it
// is not in. O(log n).
func (h *Indexed[V]) Remove(i int) {
	if i >= len(h.pos) || h.pos[i] < 0 {
		return
	}
	p := h.pos[i]
	last := len(h.items) - 1
	if p != last {
		// The last entry fills the hole (container/heap swaps the two
		// and drops the last: the same entries at the same places).
		h.items[p] = h.items[last]
		h.pos[h.items[p].Index] = p
	}
	h.items = h.items[:last]
	h.pos[i] = -1
	if p != last && !h.down(p) {
		h.up(p)
	}
}

// Fix restores the heap order after the rank of the entry of index i,
// which must be in the heap, was changed in place (through Get). O(log n).
//
// It sifts up when the entry now ranks before its parent and down
// otherwise: one comparison decides, and the entries end where
// container/heap's Fix (down, then up if nothing moved) puts them, since in
// a heap that was in order before the change only one direction can move.
func (h *Indexed[V]) Fix(i int) {
	p := h.pos[i]
	if p > 0 && h.items[p].Less(&h.items[(p-1)/2].Rank) {
		h.up(p)
	} else {
		h.down(p)
	}
}

// Rekey sets the Key of the entry of index i, which must be in the heap,
// and restores the heap order. O(log n), and O(1) when the entry stays.
//
// Only the key changes, so the entry can move only one way: up when the
// key fell, down when it rose, nowhere when it is equal. Rekey sifts that
// way alone, where Fix must first compare the entry with its parent — a
// simulator that lowers a job's remaining work at every event, mostly
// without moving it, pays one comparison instead of three. The entries end
// where container/heap's Fix puts them.
func (h *Indexed[V]) Rekey(i int, key float64) {
	p := h.pos[i]
	e := &h.items[p]
	old := e.Key
	e.Key = key
	if key < old {
		h.up(p)
	} else if key > old {
		h.down(p)
	}
}

// up sifts the entry at i up to its place, moving a hole as Heap.up does;
// each entry moved, and the sifted one at its place, has its position
// written once.
func (h *Indexed[V]) up(i int) {
	items, pos := h.items, h.pos
	x := items[i]
	at := i
	for at > 0 {
		parent := (at - 1) / 2
		if !x.Less(&items[parent].Rank) {
			break
		}
		items[at] = items[parent]
		pos[items[at].Index] = at
		at = parent
	}
	if at != i {
		items[at] = x
		pos[x.Index] = at
	}
}

// down sifts the entry at i down to its place, moving a hole as Heap.down
// does, and reports whether it moved.
func (h *Indexed[V]) down(i int) bool {
	items, pos := h.items, h.pos
	n := len(items)
	if 2*i+1 >= n {
		return false // a leaf
	}
	x := items[i]
	at := i
	for {
		l := 2*at + 1
		if l >= n {
			break
		}
		best := l
		if r := l + 1; r < n && items[r].Less(&items[l].Rank) {
			best = r
		}
		if !items[best].Less(&x.Rank) {
			break
		}
		items[at] = items[best]
		pos[items[at].Index] = at
		at = best
	}
	if at == i {
		return false
	}
	items[at] = x
	pos[x.Index] = at
	return true
}
