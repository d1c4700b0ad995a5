// Package minheap holds the binary min-heaps of the library's simulators:
// Heap, a plain priority queue (push, pop the least), and Indexed, one that
// also knows where each item sits so that any item can be re-keyed or
// removed. sim, probe and overlap keep their own event loops; their event
// and job queues are these two types.
//
// Every item is ranked by a Rank, (Key, Next, ID) compared
// lexicographically, and carries a Value of the caller's type. The
// simulators' orders are all of this form — an event's time then its
// sequence number, a job's priority key then its arrival then its index —
// and a concrete rank keeps the comparisons inline: an order given through
// a method of a type parameter is an indirect call in Go's generic code
// (through the instantiation's dictionary, never inlined), which cost
// overlap's 10⁶-job simulation 17% more CPU time.
//
// Both heaps sift with the rules of container/heap (a child moves up only
// when strictly less than its parent; on the way down the right child is
// taken only when strictly less than the left), so the items sit exactly
// where container/heap would put them. With IDs unique among the items, as
// the simulators keep them, the order is total and the order in which
// items leave does not depend on the heap's internals at all. Operations
// allocate only when a slice grows.
package minheap

// A Rank orders heap items: by Key, then by Next, then by ID.
type Rank struct {
	Key  float64 // the primary key: an event's time, a job's priority
	Next float64 // the secondary key (an arrival time); 0 when unused
	ID   int     // the last tie-break; unique among a heap's items, it makes the order total
}

// Less reports whether a ranks before b. Keys are compared with <, so they
// should not be NaN.
func (a *Rank) Less(b *Rank) bool {
	if a.Key != b.Key {
		return a.Key < b.Key
	}
	if a.Next != b.Next {
		return a.Next < b.Next
	}
	return a.ID < b.ID
}

// An Item is a Value with its Rank. Value comes first so that a zero-size
// Value (struct{}) takes no room: a zero-size last field is padded, which
// would make the item 32 bytes instead of 24 and its swaps slower.
type Item[V any] struct {
	Value V
	Rank
}

// A Heap is a binary min-heap of items by rank. The zero value is an empty
// heap. It is a slice so that a caller may range over the items, change
// their ranks and then call Init, or empty it with h = h[:0].
type Heap[V any] []Item[V]

// Len returns the number of items. O(1).
func (h Heap[V]) Len() int { return len(h) }

// Min returns the least item; the heap must not be empty. O(1).
func (h Heap[V]) Min() *Item[V] { return &h[0] }

// Push adds v with rank r. O(log n).
func (h *Heap[V]) Push(r Rank, v V) {
	*h = append(*h, Item[V]{v, r})
	h.up(len(*h) - 1)
}

// Pop removes and returns the least item; the heap must not be empty.
// O(log n).
func (h *Heap[V]) Pop() Item[V] {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	*h = s
	s.down(0)
	return top
}

// Init restores the heap order of all items, after their ranks were
// changed in place. O(n).
func (h Heap[V]) Init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// Fix restores the heap order after the rank of the item at i was changed
// in place (h[0] being the least: change its rank and Fix(0) to re-rank
// it). O(log n).
//
// As Indexed.Fix, one comparison with the parent chooses the direction.
func (h Heap[V]) Fix(i int) {
	if i > 0 && h[i].Less(&h[(i-1)/2].Rank) {
		h.up(i)
	} else {
		h.down(i)
	}
}

// up sifts the item at i up to its place.
//
// Both sifts move a hole rather than swap: the item is held aside, each
// item it passes moves one level (one copy instead of a swap's two), and
// the item is written once at its place — the positions container/heap's
// swaps give, with half the stores.
func (h Heap[V]) up(i int) {
	x := h[i]
	at := i
	for at > 0 {
		parent := (at - 1) / 2
		if !x.Less(&h[parent].Rank) {
			break
		}
		h[at] = h[parent]
		at = parent
	}
	if at != i {
		h[at] = x
	}
}

// down sifts the item at i down to its place.
func (h Heap[V]) down(i int) {
	n := len(h)
	if 2*i+1 >= n {
		return // a leaf, or past the end (Pop of the last item)
	}
	x := h[i]
	at := i
	for {
		l := 2*at + 1
		if l >= n {
			break
		}
		best := l
		if r := l + 1; r < n && h[r].Less(&h[l].Rank) {
			best = r
		}
		if !h[best].Less(&x.Rank) {
			break
		}
		h[at] = h[best]
		at = best
	}
	if at != i {
		h[at] = x
	}
}
