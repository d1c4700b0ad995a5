package overlap

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/minheap"
)

// verify checks the heap against the model slot by slot: Len, and Get
// finding exactly the model's entries (the heap order and position index
// themselves are checked in internal/minheap, against container/heap).
func (h *indexHeap) verify(t *rapid.T, slots int, model map[int32]slotEntry) {
	if h.Len() != len(model) {
		t.Fatalf("Len %d, model %d", h.Len(), len(model))
	}
	for s := int32(0); s < int32(slots); s++ {
		got := h.Get(int(s))
		want, in := model[s]
		if (got != nil) != in || (in && *got != want) {
			t.Fatalf("Get(%d) = %v, model %+v (present %v)", s, got, want, in)
		}
	}
}

// slotEntry is an indexHeap's entry: a slot (Index) and its rank.
type slotEntry = minheap.Entry[struct{}]

// testIndexHeap checks indexHeap against a model (a map of slot → entry,
// its least element found by sorting) under random set/remove calls.
func testIndexHeap(t *rapid.T) {
	const slots = 12
	var h indexHeap
	h.Grow(slots)
	model := map[int32]slotEntry{}
	least := func(skip int32) *slotEntry {
		var all []slotEntry
		for s, e := range model {
			if s != skip {
				all = append(all, e)
			}
		}
		if len(all) == 0 {
			return nil
		}
		slices.SortFunc(all, func(a, b slotEntry) int {
			if a.Less(&b.Rank) {
				return -1
			}
			if b.Less(&a.Rank) {
				return 1
			}
			return 0
		})
		return &all[0]
	}
	t.Repeat(map[string]func(*rapid.T){
		"set": func(t *rapid.T) {
			s := int32(rapid.IntRange(0, slots-1).Draw(t, "slot"))
			key := float64(rapid.IntRange(0, 5).Draw(t, "key")) // ties
			want := rapid.Float64Range(0, 1).Draw(t, "p") < 0.8
			e := slotEntry{Rank: rank(key, float64(s%3), int(s)), Index: int(s)}
			h.set(want, e.Key, e.Next, e.ID, s)
			if want {
				model[s] = e
			} else {
				delete(model, s)
			}
		},
		"remove": func(t *rapid.T) {
			if h.Len() == 0 {
				t.Skip("empty")
			}
			var present []int32
			for s := range model {
				present = append(present, s)
			}
			slices.Sort(present)
			s := present[rapid.IntRange(0, len(present)-1).Draw(t, "index")]
			h.Remove(int(s))
			delete(model, s)
		},
		"": func(t *rapid.T) {
			h.verify(t, slots, model)
			skip := int32(rapid.IntRange(-1, slots-1).Draw(t, "skip"))
			got, want := h.MinExcept(int(skip)), least(skip)
			if (got == nil) != (want == nil) || (got != nil && *got != *want) {
				t.Fatalf("MinExcept(%d) = %v, model %v", skip, got, want)
			}
		},
	})
}

func TestIndexHeap(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testIndexHeap)
}

// testEntryHeap: pops come out in rank order.
func testEntryHeap(t *rapid.T) {
	keys := rapid.SliceOf(rapid.IntRange(0, 6)).Draw(t, "keys")
	var h entryHeap
	var want []entry
	for i, k := range keys {
		e := entry{Rank: rank(float64(k), 0, i), Value: int32(i)}
		h.push(e.Rank, e.Value)
		want = append(want, e)
	}
	slices.SortStableFunc(want, func(a, b entry) int {
		if a.Less(&b.Rank) {
			return -1
		}
		return 1
	})
	for i := range want {
		if got := h.pop(); got != want[i] {
			t.Fatalf("pop %d = %+v, want %+v", i, got, want[i])
		}
	}
}

func TestEntryHeap(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testEntryHeap)
}
