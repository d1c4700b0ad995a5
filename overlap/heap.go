package overlap

import "github.com/specsched/specsched/internal/minheap"

// The simulators' priority heaps are internal/minheap heaps whose rank is
// (key, arrival time, input index) — the package's tie-break — and whose
// index is the job's slot in the simulator's job table.

// rank returns the heap rank of a job of key key.
func rank(key, arrival float64, id int) minheap.Rank {
	return minheap.Rank{Key: key, Next: arrival, ID: id}
}

// An indexHeap is a min-heap of slots by rank that knows where each slot
// sits, so that a slot can be re-keyed or removed in O(log n).
type indexHeap struct {
	minheap.Indexed[struct{}]
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
		h.Push(rank(key, arrival, id), int(slot), struct{}{})
	default:
		h.Rekey(int(slot), key)
	}
}

// An entry is a job in an entryHeap: its rank and slot.
type entry = minheap.Item[int32]

// An entryHeap is a plain min-heap of jobs by rank (no removal but at the
// top), for queues whose entries only leave in order. It is a slice: its
// users lower the root's key in place (which keeps it the least) and
// rebase every key before init.
type entryHeap []entry

func (h *entryHeap) heap() *minheap.Heap[int32] { return (*minheap.Heap[int32])(h) }

func (h entryHeap) len() int { return len(h) }

// push adds the job of slot slot with rank r. O(log n).
func (h *entryHeap) push(r minheap.Rank, slot int32) { h.heap().Push(r, slot) }

// pop removes and returns the least entry. O(log n).
func (h *entryHeap) pop() entry { return h.heap().Pop() }

// init restores the heap order of all entries. O(n).
func (h entryHeap) init() { h.heap().Init() }
