package minheap

import (
	"container/heap"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// item is a test element: keys drawn from a small range so that ties are
// common; Less orders by key alone (a strict weak order, ties left to the
// heap) or, with byID, by key then id (a total order, as the simulators'
// are).
type item struct {
	key, id int
}

func (a *item) Less(b *item) bool { return a.key < b.key }
func (a *item) Index() int        { return a.id }

// ref is the container/heap reference: the same Less on the same slice, so
// that after every operation its slice must equal the Heap's, item for
// item (same sift rules, same tie-breaks).
type ref []item

func (r ref) Len() int           { return len(r) }
func (r ref) Less(i, j int) bool { return r[i].Less(&r[j]) }
func (r ref) Swap(i, j int)      { r[i], r[j] = r[j], r[i] }
func (r *ref) Push(x any)        { *r = append(*r, x.(item)) }
func (r *ref) Pop() any {
	s := *r
	x := s[len(s)-1]
	*r = s[:len(s)-1]
	return x
}

// verify checks the heap order: no item is Less than its parent.
func verify[T any, P Item[T]](t *rapid.T, items []T) {
	for i := 1; i < len(items); i++ {
		if p := (i - 1) / 2; P(&items[i]).Less(&items[p]) {
			t.Fatalf("heap order broken at %d: %+v before its parent %+v", i, items[i], items[p])
		}
	}
}

// sortedKeys is the brute-force model: the multiset of keys, sorted.
func sortedKeys(items []item) []int {
	keys := make([]int, len(items))
	for i := range items {
		keys[i] = items[i].key
	}
	slices.Sort(keys)
	return keys
}

// testHeap runs random Push, Pop, Init (after re-keying), Fix and
// truncation,
// checking after every operation the heap order, the multiset of keys
// against a sorted slice, Min and Pop against the model's least key, and
// the whole slice against container/heap's.
func testHeap(t *rapid.T) {
	var h Heap[item, *item]
	var r ref
	var model []int // sorted keys
	next := 0
	t.Repeat(map[string]func(*rapid.T){
		"push": func(t *rapid.T) {
			x := item{key: rapid.IntRange(0, 6).Draw(t, "key"), id: next}
			next++
			h.Push(x)
			heap.Push(&r, x)
			model = append(model, x.key)
			slices.Sort(model)
		},
		"pop": func(t *rapid.T) {
			if h.Len() == 0 {
				t.Skip("empty")
			}
			if got := h.Min().key; got != model[0] {
				t.Fatalf("Min key %d, model %d", got, model[0])
			}
			got, want := h.Pop(), heap.Pop(&r).(item)
			if got != want || got.key != model[0] {
				t.Fatalf("Pop = %+v, container/heap %+v, model key %d", got, want, model[0])
			}
			model = model[1:]
		},
		"rekey": func(t *rapid.T) {
			if h.Len() == 0 {
				t.Skip("empty")
			}
			i := rapid.IntRange(0, h.Len()-1).Draw(t, "index")
			k := rapid.IntRange(0, 6).Draw(t, "key")
			h[i].key, r[i].key = k, k
			h.Init()
			heap.Init(&r)
			model = sortedKeys(h)
		},
		"fix": func(t *rapid.T) {
			if h.Len() == 0 {
				t.Skip("empty")
			}
			i := rapid.IntRange(0, h.Len()-1).Draw(t, "index")
			k := rapid.IntRange(0, 6).Draw(t, "key")
			h[i].key, r[i].key = k, k
			h.Fix(i)
			heap.Fix(&r, i)
			model = sortedKeys(h)
		},
		"truncate": func(t *rapid.T) {
			h, r, model = h[:0], r[:0], model[:0]
		},
		"": func(t *rapid.T) {
			verify[item](t, h)
			if !slices.Equal(h, Heap[item, *item](r)) {
				t.Fatalf("heap %v, container/heap %v", h, r)
			}
			if got := sortedKeys(h); !slices.Equal(got, model) {
				t.Fatalf("keys %v, model %v", got, model)
			}
			if h.Len() != len(model) {
				t.Fatalf("Len %d, model %d", h.Len(), len(model))
			}
		},
	})
}

func TestHeap(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testHeap)
}

// TestHeapSorts: pushing then popping everything gives the keys in order
// and, for a total order, the items in order (a worked case with ties).
func TestHeapSorts(t *testing.T) {
	t.Parallel()
	var h Heap[item, *item]
	keys := []int{5, 3, 3, 9, 0, 3, 7, 0}
	for id, k := range keys {
		h.Push(item{key: k, id: id})
	}
	var got []int
	for h.Len() > 0 {
		got = append(got, h.Pop().key)
	}
	if want := []int{0, 0, 3, 3, 3, 5, 7, 9}; !slices.Equal(got, want) {
		t.Fatalf("popped %v, want %v", got, want)
	}
}

// testIndexed runs random Push (of absent indices), Remove (present or
// not), re-keys through Get and Fix, and Reset, checking after every
// operation the heap order, the position index, Len, Get for every index
// and MinExcept for a drawn index against a model (a map of index → item,
// its least items found by sorting), and the items against container/heap
// driven through the same operations (heap.Remove, heap.Fix).
func testIndexed(t *rapid.T) {
	const indices = 10
	var h Indexed[item, *item]
	if rapid.Bool().Draw(t, "grow") {
		h.Grow(indices)
	}
	var r ref
	model := map[int]item{}
	refIndex := func(id int) int {
		for i := range r {
			if r[i].id == id {
				return i
			}
		}
		return -1
	}
	t.Repeat(map[string]func(*rapid.T){
		"push": func(t *rapid.T) {
			id := rapid.IntRange(0, indices-1).Draw(t, "id")
			if _, in := model[id]; in {
				t.Skip("present")
			}
			x := item{key: rapid.IntRange(0, 4).Draw(t, "key"), id: id}
			h.Push(x)
			heap.Push(&r, x)
			model[id] = x
		},
		"remove": func(t *rapid.T) {
			id := rapid.IntRange(0, indices).Draw(t, "id") // indices: never pushed
			h.Remove(id)
			if i := refIndex(id); i >= 0 {
				heap.Remove(&r, i)
			}
			delete(model, id)
		},
		"fix": func(t *rapid.T) {
			id := rapid.IntRange(0, indices-1).Draw(t, "id")
			x := h.Get(id)
			if x == nil {
				t.Skip("absent")
			}
			k := rapid.IntRange(0, 4).Draw(t, "key")
			x.key = k
			model[id] = *x
			h.Fix(id) // x may now point to another item
			i := refIndex(id)
			r[i].key = k
			heap.Fix(&r, i)
		},
		"reset": func(t *rapid.T) {
			h.Reset()
			r = r[:0]
			clear(model)
		},
		"": func(t *rapid.T) {
			verify[item](t, h.items)
			if !slices.Equal(h.items, []item(r)) {
				t.Fatalf("heap %v, container/heap %v", h.items, r)
			}
			if h.Len() != len(model) {
				t.Fatalf("Len %d, model %d", h.Len(), len(model))
			}
			for i, p := range h.pos {
				if p >= 0 && h.items[p].id != i {
					t.Fatalf("pos[%d] = %d holds item %+v", i, p, h.items[p])
				}
			}
			for id := 0; id <= indices; id++ {
				got := h.Get(id)
				want, in := model[id]
				if (got != nil) != in || (in && *got != want) {
					t.Fatalf("Get(%d) = %v, model %+v (present %v)", id, got, want, in)
				}
			}
			skip := rapid.IntRange(-1, indices-1).Draw(t, "skip")
			least := -1
			for id, x := range model {
				if id != skip && (least < 0 || x.key < least) {
					least = x.key
				}
			}
			got := h.MinExcept(skip)
			if (got == nil) != (least < 0) || (got != nil && (got.key != least || got.id == skip)) {
				t.Fatalf("MinExcept(%d) = %v, model's least key %d", skip, got, least)
			}
			if got != nil && skip < 0 && got != h.Min() {
				t.Fatalf("MinExcept(-1) = %v, Min %v", got, h.Min())
			}
		},
	})
}

func TestIndexed(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testIndexed)
}

// byID orders items by key, then id: a total order, as the simulators'.
type byID struct{ item }

func (a *byID) Less(b *byID) bool {
	return a.key < b.key || (a.key == b.key && a.id < b.id)
}

// TestIndexedTotalOrder: under a total order the items leave in sorted
// order whatever the operations were (removing the minimum repeatedly).
func TestIndexedTotalOrder(t *testing.T) {
	t.Parallel()
	var h Indexed[byID, *byID]
	keys := []int{4, 1, 1, 3, 0, 1, 4}
	for id, k := range keys {
		h.Push(byID{item{key: k, id: id}})
	}
	h.Get(6).key = 0 // re-key the last: (0, 6)
	h.Fix(6)
	var got []string
	for h.Len() > 0 {
		m := h.Min()
		got = append(got, fmt.Sprint(m.key, m.id))
		h.Remove(m.id)
	}
	want := []string{"0 4", "0 6", "1 1", "1 2", "1 5", "3 3", "4 0"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}
