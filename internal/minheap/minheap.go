// Package minheap holds the binary min-heaps of the library's simulators:
// Heap, a plain priority queue (push, pop the least), and Indexed, one that
// also knows where each item sits so that any item can be re-keyed or
// removed. sim, probe and overlap keep their own event loops; their event
// and job queues are these two types.
//
// Items order themselves: the element type T has a method Less(*T) bool on
// its pointer, a strict ordering (irreflexive and transitive, with
// incomparability transitive), written as the constraint Item[T]. Both
// heaps sift with the textbook rules of container/heap (a child moves up
// only when strictly less than its parent; on the way down the right
// child is taken only when strictly less than the left), so when Less is a
// total order — the simulators always break ties, by insertion sequence,
// index or slot — the order in which items leave does not depend on the
// heap's internals: a run is the same as with any other correct heap.
//
// Less is called through the type parameter, so T should be a small struct
// (a pointer T would make every call go through a dictionary of a shared
// shape); the heaps allocate only when their slices grow.
package minheap

// Item is the constraint on a heap's element type T: *T has Less, a strict
// ordering of the items.
type Item[T any] interface {
	*T
	Less(*T) bool
}

// A Heap is a binary min-heap of T by P's Less. The zero value is an empty
// heap. It is a slice so that a caller may range over the items, change
// their keys and then call Init, or empty it with h = h[:0].
type Heap[T any, P Item[T]] []T

// Len returns the number of items. O(1).
func (h Heap[T, P]) Len() int { return len(h) }

// Min returns the least item; the heap must not be empty. O(1).
func (h Heap[T, P]) Min() *T { return &h[0] }

// Push adds x. O(log n).
func (h *Heap[T, P]) Push(x T) {
	*h = append(*h, x)
	h.up(len(*h) - 1)
}

// Pop removes and returns the least item; the heap must not be empty.
// O(log n).
func (h *Heap[T, P]) Pop() T {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	*h = s
	s.down(0)
	return top
}

// Init restores the heap order of all items, after their keys were changed
// in place. O(n).
func (h Heap[T, P]) Init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// Fix restores the heap order after the key of the item at i was changed in
// place (h[0] being the least: change its key and Fix(0) to re-rank it).
// O(log n).
func (h Heap[T, P]) Fix(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

// up sifts the item at i up to its place.
func (h Heap[T, P]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !P(&h[i]).Less(&h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

// down sifts the item at i down to its place and reports whether it moved.
func (h Heap[T, P]) down(i int) bool {
	start := i
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return i != start
		}
		best := l
		if r := l + 1; r < n && P(&h[r]).Less(&h[l]) {
			best = r
		}
		if !P(&h[best]).Less(&h[i]) {
			return i != start
		}
		h[i], h[best] = h[best], h[i]
		i = best
	}
}
