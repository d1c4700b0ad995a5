package overlap

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// verify checks the heap property and the position index (the
// container/heap style invariant checker).
func (h *indexHeap) verify(t *rapid.T) {
	for i := range h.items {
		if p := (i - 1) / 2; i > 0 && h.items[i].before(&h.items[p]) {
			t.Fatalf("heap order broken at %d: %+v before its parent %+v", i, h.items[i], h.items[p])
		}
		if h.pos[h.items[i].slot] != int32(i) {
			t.Fatalf("pos[%d] = %d, item at %d", h.items[i].slot, h.pos[h.items[i].slot], i)
		}
	}
	n := 0
	for _, p := range h.pos {
		if p >= 0 {
			n++
		}
	}
	if n != len(h.items) {
		t.Fatalf("%d positions for %d items", n, len(h.items))
	}
}

// testIndexHeap checks indexHeap against a model (a map of slot → entry,
// its least element found by sorting) under random set/remove calls.
func testIndexHeap(t *rapid.T) {
	const slots = 12
	var h indexHeap
	h.grow(slots)
	model := map[int32]entry{}
	least := func(skip int32) *entry {
		var all []entry
		for s, e := range model {
			if s != skip {
				all = append(all, e)
			}
		}
		if len(all) == 0 {
			return nil
		}
		slices.SortFunc(all, func(a, b entry) int {
			if a.before(&b) {
				return -1
			}
			if b.before(&a) {
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
			e := entry{key: key, arrival: float64(s % 3), id: int(s), slot: s}
			h.set(want, e.key, e.arrival, e.id, s)
			if want {
				model[s] = e
			} else {
				delete(model, s)
			}
		},
		"remove": func(t *rapid.T) {
			if h.len() == 0 {
				t.Skip("empty")
			}
			s := h.items[rapid.IntRange(0, h.len()-1).Draw(t, "index")].slot
			h.remove(s)
			delete(model, s)
		},
		"": func(t *rapid.T) {
			h.verify(t)
			if h.len() != len(model) {
				t.Fatalf("len %d, model %d", h.len(), len(model))
			}
			skip := int32(rapid.IntRange(-1, slots-1).Draw(t, "skip"))
			got, want := h.firstExcept(skip), least(skip)
			if (got == nil) != (want == nil) || (got != nil && *got != *want) {
				t.Fatalf("firstExcept(%d) = %v, model %v", skip, got, want)
			}
		},
	})
}

func TestIndexHeap(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testIndexHeap)
}

// testEntryHeap: pops come out in sorted order.
func testEntryHeap(t *rapid.T) {
	keys := rapid.SliceOf(rapid.IntRange(0, 6)).Draw(t, "keys")
	var h entryHeap
	var want []entry
	for i, k := range keys {
		e := entry{key: float64(k), id: i}
		h.push(e)
		want = append(want, e)
	}
	slices.SortStableFunc(want, func(a, b entry) int {
		if a.before(&b) {
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
