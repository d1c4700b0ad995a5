package overlap

import "github.com/specsched/specsched/internal/minheap"

// An entry orders a job in a priority heap: by key, then arrival time, then
// input index (the package's tie-break), with slot the job's place in the
// simulator's job table.
type entry struct {
	key     float64
	arrival float64
	id      int
	slot    int32
}

// Less orders entries by key, then arrival time, then input index: a total
// order, as ids are distinct.
func (a *entry) Less(b *entry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.arrival != b.arrival {
		return a.arrival < b.arrival
	}
	return a.id < b.id
}

// Index is the entry's slot, by which an indexHeap finds it.
func (a *entry) Index() int { return int(a.slot) }

// An indexHeap is a min-heap of entries that knows where each slot sits
// (minheap.Indexed), so that an entry can be re-keyed or removed in
// O(log n).
type indexHeap struct {
	minheap.Indexed[entry, *entry]
}

// set adds slot with key, re-keys it, or removes it (want false). O(log n).
func (h *indexHeap) set(want bool, key, arrival float64, id int, slot int32) {
	cur := h.Get(int(slot))
	switch {
	case !want:
		if cur != nil {
			h.Remove(int(slot))
		}
	case cur == nil:
		h.Push(entry{key: key, arrival: arrival, id: id, slot: slot})
	case cur.key != key:
		cur.key = key
		h.Fix(int(slot))
	}
}

// An entryHeap is a plain min-heap of entries (a minheap.Heap; no removal
// but at the top), for queues whose entries only leave in order. It is a
// slice: its users read and lower the root's key in place (which keeps it
// the least) and rebase every key before init.
type entryHeap []entry

func (h *entryHeap) heap() *minheap.Heap[entry, *entry] { return (*minheap.Heap[entry, *entry])(h) }

func (h entryHeap) len() int { return len(h) }

// push adds e. O(log n).
func (h *entryHeap) push(e entry) { h.heap().Push(e) }

// pop removes and returns the least entry. O(log n).
func (h *entryHeap) pop() entry { return h.heap().Pop() }

// init restores the heap order of all entries. O(n).
func (h entryHeap) init() { h.heap().Init() }
