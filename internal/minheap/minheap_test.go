package minheap

import (
	"container/heap"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// drawRank draws a rank from small ranges, so that equal keys, equal
// (Key, Next) and even wholly equal ranks are common.
func drawRank(t *rapid.T) Rank {
	return Rank{
		Key:  float64(rapid.IntRange(0, 4).Draw(t, "key")),
		Next: float64(rapid.IntRange(0, 1).Draw(t, "next")),
		ID:   rapid.IntRange(0, 2).Draw(t, "id"),
	}
}

// ref is the container/heap reference: the same Less on the same items, so
// that after every operation its slice must equal the heap's, item for item
// (same sift rules, same tie-breaks: the Value, a serial number, tells
// equal-ranked items apart).
type ref []Item[int]

func (r ref) Len() int           { return len(r) }
func (r ref) Less(i, j int) bool { return r[i].Less(&r[j].Rank) }
func (r ref) Swap(i, j int)      { r[i], r[j] = r[j], r[i] }
func (r *ref) Push(x any)        { *r = append(*r, x.(Item[int])) }
func (r *ref) Pop() any {
	s := *r
	x := s[len(s)-1]
	*r = s[:len(s)-1]
	return x
}

// verify checks the heap order: no item ranks before its parent.
func verify(t *rapid.T, ranks []Rank) {
	for i := 1; i < len(ranks); i++ {
		if p := (i - 1) / 2; ranks[i].Less(&ranks[p]) {
			t.Fatalf("heap order broken at %d: %+v before its parent %+v", i, ranks[i], ranks[p])
		}
	}
}

// sortedRanks is the brute-force model: the multiset of ranks, sorted.
func sortedRanks[I any](items []I, rank func(*I) Rank) []Rank {
	ranks := make([]Rank, len(items))
	for i := range items {
		ranks[i] = rank(&items[i])
	}
	slices.SortFunc(ranks, func(a, b Rank) int {
		switch {
		case a.Less(&b):
			return -1
		case b.Less(&a):
			return 1
		}
		return 0
	})
	return ranks
}

func itemRank(x *Item[int]) Rank   { return x.Rank }
func entryRank(x *Entry[int]) Rank { return x.Rank }

// testHeap runs random Push, Pop, re-ranks (then Fix or Init) and
// truncation, checking after every operation the heap order, the multiset
// of ranks against a sorted slice, Min and Pop against the model's least
// rank, and the whole slice against container/heap's.
func testHeap(t *rapid.T) {
	var h Heap[int]
	var r ref
	var model []Rank // sorted
	serial := 0
	t.Repeat(map[string]func(*rapid.T){
		"push": func(t *rapid.T) {
			rank := drawRank(t)
			h.Push(rank, serial)
			heap.Push(&r, Item[int]{serial, rank})
			serial++
			model = sortedRanks(h, itemRank)
		},
		"pop": func(t *rapid.T) {
			if h.Len() == 0 {
				t.Skip("empty")
			}
			if got := h.Min().Rank; got != model[0] {
				t.Fatalf("Min rank %+v, model %+v", got, model[0])
			}
			got, want := h.Pop(), heap.Pop(&r).(Item[int])
			if got != want || got.Rank != model[0] {
				t.Fatalf("Pop = %+v, container/heap %+v, model rank %+v", got, want, model[0])
			}
			model = model[1:]
		},
		"rerank": func(t *rapid.T) { // then Fix the item, or Init the whole heap
			if h.Len() == 0 {
				t.Skip("empty")
			}
			i := rapid.IntRange(0, h.Len()-1).Draw(t, "index")
			rank := drawRank(t)
			h[i].Rank, r[i].Rank = rank, rank
			if rapid.Bool().Draw(t, "fix") {
				h.Fix(i)
				heap.Fix(&r, i)
			} else {
				h.Init()
				heap.Init(&r)
			}
			model = sortedRanks(h, itemRank)
		},
		"truncate": func(t *rapid.T) {
			h, r, model = h[:0], r[:0], model[:0]
		},
		"": func(t *rapid.T) {
			ranks := make([]Rank, len(h))
			for i := range h {
				ranks[i] = h[i].Rank
			}
			verify(t, ranks)
			if !slices.Equal(h, Heap[int](r)) {
				t.Fatalf("heap %v, container/heap %v", h, r)
			}
			if got := sortedRanks(h, itemRank); !slices.Equal(got, model) {
				t.Fatalf("ranks %v, model %v", got, model)
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

// TestHeapSorts: pushing then popping everything gives the items in rank
// order (a worked case with ties in Key broken by Next, then ID).
func TestHeapSorts(t *testing.T) {
	t.Parallel()
	var h Heap[string]
	for _, x := range []Item[string]{
		{"e", Rank{5, 0, 0}}, {"d", Rank{3, 1, 0}}, {"c", Rank{3, 0, 2}}, {"g", Rank{9, 0, 0}},
		{"b", Rank{0, 0, 1}}, {"x", Rank{3, 0, 1}}, {"f", Rank{7, 0, 0}}, {"a", Rank{0, 0, 0}},
	} {
		h.Push(x.Rank, x.Value)
	}
	var got []string
	for h.Len() > 0 {
		got = append(got, h.Pop().Value)
	}
	if want := []string{"a", "b", "x", "c", "d", "e", "f", "g"}; !slices.Equal(got, want) {
		t.Fatalf("popped %v, want %v", got, want)
	}
}

// testIndexed runs random Push (of absent indices), Remove (present or
// not), re-ranks through Get and Fix, re-keys through Rekey, and Reset, checking after every
// operation the heap order, the position index, Len, Get for every index
// and MinExcept for a drawn index against a model (a map of index → entry,
// its least rank found by brute force), and the entries against
// container/heap driven through the same operations (heap.Remove,
// heap.Fix for both re-ranks).
func testIndexed(t *rapid.T) {
	const indices = 10
	var h Indexed[int]
	if rapid.Bool().Draw(t, "grow") {
		h.Grow(indices)
	}
	var r ref
	model := map[int]Entry[int]{}
	refIndex := func(index int) int {
		for i := range r {
			if r[i].Value == index {
				return i
			}
		}
		return -1
	}
	t.Repeat(map[string]func(*rapid.T){
		"push": func(t *rapid.T) {
			i := rapid.IntRange(0, indices-1).Draw(t, "index")
			if _, in := model[i]; in {
				t.Skip("present")
			}
			rank := drawRank(t)
			h.Push(rank, i, i) // the value is the index, to find it in ref
			heap.Push(&r, Item[int]{i, rank})
			model[i] = Entry[int]{i, rank, i}
		},
		"remove": func(t *rapid.T) {
			i := rapid.IntRange(0, indices).Draw(t, "index") // indices: never pushed
			h.Remove(i)
			if k := refIndex(i); k >= 0 {
				heap.Remove(&r, k)
			}
			delete(model, i)
		},
		"fix": func(t *rapid.T) {
			i := rapid.IntRange(0, indices-1).Draw(t, "index")
			x := h.Get(i)
			if x == nil {
				t.Skip("absent")
			}
			x.Rank = drawRank(t)
			model[i] = *x
			h.Fix(i) // x may now point to another entry
			k := refIndex(i)
			r[k].Rank = model[i].Rank
			heap.Fix(&r, k)
		},
		"rekey": func(t *rapid.T) {
			i := rapid.IntRange(0, indices-1).Draw(t, "index")
			x := h.Get(i)
			if x == nil {
				t.Skip("absent")
			}
			e := *x
			e.Key = drawRank(t).Key
			model[i] = e
			h.Rekey(i, e.Key)
			k := refIndex(i)
			r[k].Key = e.Key
			heap.Fix(&r, k)
		},
		"reset": func(t *rapid.T) {
			h.Reset()
			r = r[:0]
			clear(model)
		},
		"": func(t *rapid.T) {
			ranks := make([]Rank, len(h.items))
			for k := range h.items {
				ranks[k] = h.items[k].Rank
				if h.items[k].Rank != r[k].Rank || h.items[k].Value != r[k].Value {
					t.Fatalf("entry %d = %+v, container/heap %+v", k, h.items[k], r[k])
				}
			}
			verify(t, ranks)
			if h.Len() != len(model) || len(r) != len(model) {
				t.Fatalf("Len %d, container/heap %d, model %d", h.Len(), len(r), len(model))
			}
			for i, p := range h.pos {
				if p >= 0 && h.items[p].Index != i {
					t.Fatalf("pos[%d] = %d holds entry %+v", i, p, h.items[p])
				}
			}
			for i := 0; i <= indices; i++ {
				got := h.Get(i)
				want, in := model[i]
				if (got != nil) != in || (in && *got != want) {
					t.Fatalf("Get(%d) = %v, model %+v (present %v)", i, got, want, in)
				}
			}
			skip := rapid.IntRange(-1, indices-1).Draw(t, "skip")
			var least *Rank
			for i, x := range model {
				if i != skip && (least == nil || x.Less(least)) {
					least = &x.Rank
				}
			}
			got := h.MinExcept(skip)
			if (got == nil) != (least == nil) || (got != nil && (got.Rank != *least || got.Index == skip)) {
				t.Fatalf("MinExcept(%d) = %v, model's least rank %v", skip, got, least)
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

// TestIndexedTotalOrder: with unique IDs the entries leave in rank order
// whatever the operations were (removing the least repeatedly, after a
// re-rank).
func TestIndexedTotalOrder(t *testing.T) {
	t.Parallel()
	var h Indexed[struct{}]
	keys := []float64{4, 1, 1, 3, 0, 1, 4}
	for i, k := range keys {
		h.Push(Rank{Key: k, ID: i}, i, struct{}{})
	}
	h.Get(6).Key = 0 // re-rank the last: (0, 6)
	h.Fix(6)
	var got []string
	for range keys { // at most one removal per entry: a Remove that fails to remove cannot loop forever
		if h.Len() == 0 {
			break
		}
		m := h.Min()
		got = append(got, fmt.Sprint(m.Key, m.Index))
		h.Remove(m.Index)
	}
	if h.Len() != 0 {
		t.Fatalf("%d entries left after removing the least %d times", h.Len(), len(keys))
	}
	want := []string{"0 4", "0 6", "1 1", "1 2", "1 5", "3 3", "4 0"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// TestNoAllocs: once their slices have grown, the heaps' operations
// allocate nothing (the simulators' hot-path contract).
func TestNoAllocs(t *testing.T) {
	var h Heap[int]
	var x Indexed[int]
	for i := range 64 {
		h.Push(Rank{Key: float64(i % 7), ID: i}, i)
		x.Push(Rank{Key: float64(i % 7), ID: i}, i, i)
	}
	h = h[:0]
	x.Reset()
	allocs := testing.AllocsPerRun(100, func() {
		for i := range 64 {
			h.Push(Rank{Key: float64(i * 5 % 7), ID: i}, i)
			x.Push(Rank{Key: float64(i * 5 % 7), ID: i}, i, i)
		}
		x.Get(3).Key = 9
		x.Fix(3)
		_ = x.MinExcept(x.Min().Index)
		for i := range 32 {
			x.Remove(i)
		}
		h[5].Key = 9
		h.Fix(5)
		h.Init()
		for h.Len() > 0 {
			h.Pop()
		}
		x.Reset()
	})
	if allocs != 0 {
		t.Fatalf("%v allocs per run, want 0", allocs)
	}
}

// TestSizes: a zero-size Value adds no padding (see Item), so the heaps
// the simulators use move as few bytes as the hand-written ones did.
func TestSizes(t *testing.T) {
	t.Parallel()
	if got := unsafe.Sizeof(Item[struct{}]{}); got != 24 {
		t.Errorf("Item[struct{}] is %d bytes, want 24", got)
	}
	if got := unsafe.Sizeof(Entry[struct{}]{}); got != 32 {
		t.Errorf("Entry[struct{}] is %d bytes, want 32", got)
	}
	if got := unsafe.Sizeof(Item[int32]{}); got != 32 {
		t.Errorf("Item[int32] is %d bytes, want 32", got)
	}
}

// testIndexedDeep fills an Indexed heap with up to 300 entries (keys from
// a small range, so ties are common), then re-keys, re-ranks and removes
// drawn entries, checking after each operation every slot against
// container/heap driven through the same operations, and the positions;
// finally it empties the heap through Min and Remove and checks the ranks
// come out sorted. Deep heaps make the sifts cross several levels, which
// testIndexed's ten indices rarely do.
func testIndexedDeep(t *rapid.T) {
	n := rapid.IntRange(8, 300).Draw(t, "n")
	var h Indexed[int]
	var r ref
	key := func(label string) float64 { return float64(rapid.IntRange(0, 20).Draw(t, label)) }
	for i := range n {
		rank := Rank{Key: key("key"), Next: float64(rapid.IntRange(0, 1).Draw(t, "next")), ID: i}
		h.Push(rank, i, i)
		heap.Push(&r, Item[int]{i, rank})
	}
	refIndex := func(index int) int {
		for k := range r {
			if r[k].Value == index {
				return k
			}
		}
		return -1
	}
	check := func(op string) {
		if len(h.items) != len(r) {
			t.Fatalf("after %s: %d entries, container/heap %d", op, len(h.items), len(r))
		}
		for k := range h.items {
			if h.items[k].Rank != r[k].Rank || h.items[k].Value != r[k].Value {
				t.Fatalf("after %s: entry %d = %+v, container/heap %+v", op, k, h.items[k], r[k])
			}
			if h.pos[h.items[k].Index] != k {
				t.Fatalf("after %s: pos[%d] = %d, the entry is at %d", op, h.items[k].Index, h.pos[h.items[k].Index], k)
			}
		}
	}
	for range rapid.IntRange(0, 60).Draw(t, "ops") {
		i := rapid.IntRange(0, n-1).Draw(t, "index")
		if h.Get(i) == nil {
			continue
		}
		switch op := rapid.SampledFrom([]string{"rekey", "fix", "remove"}).Draw(t, "op"); op {
		case "rekey":
			k := key("new key")
			h.Rekey(i, k)
			p := refIndex(i)
			r[p].Key = k
			heap.Fix(&r, p)
		case "fix":
			x := h.Get(i)
			x.Rank = Rank{Key: key("new key"), Next: float64(rapid.IntRange(0, 1).Draw(t, "new next")), ID: i}
			rank := x.Rank
			h.Fix(i)
			p := refIndex(i)
			r[p].Rank = rank
			heap.Fix(&r, p)
		case "remove":
			h.Remove(i)
			heap.Remove(&r, refIndex(i))
		}
		check("an operation")
	}
	want := sortedRanks(h.items, entryRank)
	for k := range want {
		m := h.Min()
		if m.Rank != want[k] {
			t.Fatalf("removal %d: least entry %+v, want rank %+v", k, m, want[k])
		}
		i := m.Index // m points into the heap: read before Remove
		h.Remove(i)
		heap.Remove(&r, refIndex(i))
		check("removing the least")
	}
}

func TestIndexedDeep(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testIndexedDeep)
}

// TestIndexedRemoveCases: two removals worked by hand, each checked slot by
// slot against container/heap. (1) The last entry fills a hole in another
// subtree, below its children but above its new parent: it must rise.
// (2) The filler sinks below two children of equal rank: the left one
// rises, as in container/heap.
func TestIndexedRemoveCases(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		keys   []float64 // pushed in order: each at least its parent, so the slots are the push order
		ids    []int
		remove int
		want   []int // the indices, slot by slot, after the removal
	}{
		// Slots 0–15; 5 (key 20) has children 30, 31; the last, key 8 at
		// slot 15 under key 4, fills slot 5 and rises above key 10.
		{"rise", []float64{0, 1, 10, 2, 3, 20, 11, 4, 5, 6, 7, 30, 31, 12, 13, 8},
			[]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
			5, []int{0, 1, 15, 3, 4, 2, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
		// Slots 1 and 2 hold equal ranks (key 5, ID 7); removing the root
		// puts key 9 on top, which sinks below the left one.
		{"tied children", []float64{0, 5, 5, 9}, []int{0, 7, 7, 3}, 0, []int{1, 3, 2}},
	} {
		var h Indexed[int]
		var r ref
		for i, k := range c.keys {
			rank := Rank{Key: k, ID: c.ids[i]}
			h.Push(rank, i, i)
			heap.Push(&r, Item[int]{i, rank})
		}
		h.Remove(c.remove)
		for k := range r {
			if r[k].Value == c.remove {
				heap.Remove(&r, k)
				break
			}
		}
		var got, ref []int
		for k := range h.items {
			got = append(got, h.items[k].Index)
			if h.pos[h.items[k].Index] != k {
				t.Errorf("%s: pos[%d] = %d, the entry is at %d", c.name, h.items[k].Index, h.pos[h.items[k].Index], k)
			}
		}
		for _, x := range r {
			ref = append(ref, x.Value)
		}
		if !slices.Equal(got, c.want) || !slices.Equal(ref, c.want) {
			t.Errorf("%s: slots hold %v, container/heap %v, want %v", c.name, got, ref, c.want)
		}
	}
}
