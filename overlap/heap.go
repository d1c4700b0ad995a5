package overlap

// An entry orders a job in a priority heap: by key, then arrival time, then
// input index (the package's tie-break), with slot the job's place in the
// simulator's job table.
type entry struct {
	key     float64
	arrival float64
	id      int
	slot    int32
}

func (a *entry) before(b *entry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.arrival != b.arrival {
		return a.arrival < b.arrival
	}
	return a.id < b.id
}

// An indexHeap is a binary min-heap of entries that knows where each slot
// sits, so that an entry can be re-keyed or removed in O(log n).
type indexHeap struct {
	items []entry
	pos   []int32 // pos[slot]: index in items, or -1
}

func (h *indexHeap) reset() {
	h.items = h.items[:0]
	for i := range h.pos {
		h.pos[i] = -1
	}
}

// grow makes room for slots below n.
func (h *indexHeap) grow(n int) {
	for len(h.pos) < n {
		h.pos = append(h.pos, -1)
	}
}

func (h *indexHeap) len() int { return len(h.items) }

// top returns the least entry; the heap must not be empty. O(1).
func (h *indexHeap) top() *entry { return &h.items[0] }

// firstExcept returns the least entry whose slot is not skip, or nil. O(1):
// if the root is skip, the answer is the lesser of its children.
func (h *indexHeap) firstExcept(skip int32) *entry {
	n := len(h.items)
	if n == 0 {
		return nil
	}
	if h.items[0].slot != skip {
		return &h.items[0]
	}
	switch {
	case n == 1:
		return nil
	case n == 2 || h.items[1].before(&h.items[2]):
		return &h.items[1]
	default:
		return &h.items[2]
	}
}

// push adds e. O(log n).
func (h *indexHeap) push(e entry) {
	h.items = append(h.items, e)
	i := len(h.items) - 1
	h.pos[e.slot] = int32(i)
	h.up(i)
}

// remove deletes slot's entry. O(log n).
func (h *indexHeap) remove(slot int32) {
	i := int(h.pos[slot])
	last := len(h.items) - 1
	if i != last {
		h.swap(i, last)
	}
	h.items = h.items[:last]
	h.pos[slot] = -1
	if i != last {
		h.down(i)
		h.up(i)
	}
}

// set adds slot with key, re-keys it, or removes it (want false). O(log n).
func (h *indexHeap) set(want bool, key, arrival float64, id int, slot int32) {
	i := h.pos[slot]
	switch {
	case !want:
		if i >= 0 {
			h.remove(slot)
		}
	case i < 0:
		h.push(entry{key: key, arrival: arrival, id: id, slot: slot})
	case h.items[i].key != key:
		old := h.items[i].key
		h.items[i].key = key
		if key < old {
			h.up(int(i))
		} else {
			h.down(int(i))
		}
	}
}

func (h *indexHeap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i].slot] = int32(i)
	h.pos[h.items[j].slot] = int32(j)
}

func (h *indexHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.items[i].before(&h.items[parent]) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

func (h *indexHeap) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		best := l
		if r := l + 1; r < n && h.items[r].before(&h.items[l]) {
			best = r
		}
		if !h.items[best].before(&h.items[i]) {
			return
		}
		h.swap(i, best)
		i = best
	}
}

// An entryHeap is a plain binary min-heap of entries (no removal but at the
// top), for queues whose entries only leave in order.
type entryHeap []entry

func (h entryHeap) len() int { return len(h) }

func (h *entryHeap) push(e entry) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s[i].before(&s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

// pop removes and returns the least entry. O(log n).
func (h *entryHeap) pop() entry {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	*h = s
	s.down(0)
	return top
}

// init restores the heap order of all entries. O(n).
func (h entryHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down sifts the entry at i down to its place.
func (h entryHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		best := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			best = r
		}
		if !h[best].before(&h[i]) {
			return
		}
		h[i], h[best] = h[best], h[i]
		i = best
	}
}
