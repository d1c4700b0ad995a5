package intset

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// testSet checks a Set against a map on random operations: Insert's and
// Contains' answers are the map's, and after every operation SortValues
// turns the values inserted, in insertion order, into the map's keys in
// increasing order (the bit set writes them back from its bits, so this
// checks its contents too). n is drawn from small ranges, where both the bit set and the hash
// table occur, and up to 2⁴⁰, where only the hash table does; values from
// the whole range, its ends and the values held, so that repeats and
// collisions are common. The representation is checked against the
// documented bounds: a bit set exactly when n ≤ 64·(k+16), of ⌈n/64⌉
// words; otherwise a power-of-two table of 2k to 4k slots (at least 2).
func testSet(t *rapid.T) {
	var s Set
	var n, k int
	model := map[int]bool{}
	var inserted []int // the model's keys in insertion order
	reset := func(t *rapid.T) {
		n = rapid.OneOf(rapid.IntRange(0, 20000), rapid.IntRange(0, 1<<40)).Draw(t, "n")
		k = rapid.IntRange(0, min(n, 300)).Draw(t, "k")
		s.Reset(n, k)
		clear(model)
		inserted = inserted[:0]
		checkShape(t, &s, n, k)
	}
	value := func(t *rapid.T) int {
		if n == 0 {
			t.Skip("no values in [0, 0)")
		}
		switch rapid.IntRange(0, 3).Draw(t, "where") {
		case 0:
			return rapid.IntRange(0, n-1).Draw(t, "v")
		case 1:
			return rapid.IntRange(0, min(n, 130)-1).Draw(t, "v")
		case 2:
			return rapid.IntRange(max(0, n-130), n-1).Draw(t, "v")
		}
		if len(model) == 0 {
			t.Skip("nothing held")
		}
		return rapid.SampledFrom(slices.Sorted(maps.Keys(model))).Draw(t, "v")
	}
	reset(t)
	t.Repeat(map[string]func(*rapid.T){
		"reset": reset,
		"insert": func(t *rapid.T) {
			v := value(t)
			if !model[v] && len(model) == k {
				t.Skip("k values held")
			}
			if got, want := s.Insert(v), !model[v]; got != want {
				t.Fatalf("Insert(%d) = %v, want %v (n %d, k %d, held %d)", v, got, want, n, k, len(model))
			}
			if !model[v] {
				inserted = append(inserted, v)
			}
			model[v] = true
		},
		"contains": func(t *rapid.T) {
			v := value(t)
			if got := s.Contains(v); got != model[v] {
				t.Fatalf("Contains(%d) = %v, want %v (n %d, k %d, held %d)", v, got, model[v], n, k, len(model))
			}
		},
		"": func(t *rapid.T) {
			got := slices.Clone(inserted)
			s.SortValues(got)
			if want := slices.Sorted(maps.Keys(model)); !slices.Equal(got, want) {
				t.Fatalf("SortValues(%v) = %v, want %v (n %d, k %d)", inserted, got, want, n, k)
			}
		},
	})
}

// fataler is what checkShape needs of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkShape checks the representation Reset chose for n and k against the
// package's documented bounds.
func checkShape(t fataler, s *Set, n, k int) {
	t.Helper()
	if want := n <= 64*(k+16); s.dense != want {
		t.Fatalf("Reset(%d, %d): bit set %v, want %v", n, k, s.dense, want)
	}
	size := len(s.buf)
	if s.dense {
		if want := (n + 63) / 64; size != want {
			t.Fatalf("Reset(%d, %d): %d words, want %d", n, k, size, want)
		}
		return
	}
	if size&(size-1) != 0 || size < 2*k || size < 2 || size > max(4*k, 2) {
		t.Fatalf("Reset(%d, %d): %d slots, want a power of two in [max(2k, 2), max(4k, 2)]", n, k, size)
	}
	if 1<<(64-s.shift) != size {
		t.Fatalf("Reset(%d, %d): shift %d for %d slots", n, k, s.shift, size)
	}
}

func TestSet(t *testing.T) { rapid.Check(t, testSet) }

// FuzzSet runs testSet on the fuzzer's bytes.
func FuzzSet(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSet)) }

// TestSetFull fills sets with up to k values in both representations,
// half of them spread over the range (i·stride mod n for even i) and half
// packed at its top (n − k + i for odd i), and checks every answer against
// the list of values inserted.
func TestSetFull(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, k, stride int }{
		{1, 1, 1},
		{64, 64, 1},
		{1024 + 64*5, 5, 7},     // the last n of the bit set for k = 5
		{1024 + 64*5 + 1, 5, 7}, // the first n of the hash table
		{1 << 40, 1000, 1<<28 + 3},
		{1 << 40, 1000, 1 << 20}, // multiples of a power of two: one home bucket for many keys without the multiplicative hash
		{5000, 4000, 1},
	} {
		var s Set
		s.Reset(c.n, c.k)
		checkShape(t, &s, c.n, c.k)
		top := c.n - c.k
		var want []int
		for i := 0; i < c.k; i++ {
			v := (i * c.stride) % c.n
			if i%2 == 1 {
				v = top + i
			}
			want = append(want, v)
		}
		slices.Sort(want)
		want = slices.Compact(want)
		for _, v := range want {
			if !s.Insert(v) {
				t.Fatalf("n %d k %d: Insert(%d) = false on a new value", c.n, c.k, v)
			}
		}
		for _, v := range want {
			if s.Insert(v) || !s.Contains(v) {
				t.Fatalf("n %d k %d: %d not held after its insertion", c.n, c.k, v)
			}
		}
		got := slices.Clone(want)
		slices.Reverse(got)
		if s.SortValues(got); !slices.Equal(got, want) {
			t.Fatalf("n %d k %d: SortValues = %v, want %v", c.n, c.k, got, want)
		}
		held := 0
		for v := range min(c.n, 1<<16) {
			if s.Contains(v) {
				held++
			}
		}
		inRange := 0
		for _, v := range want {
			if v < 1<<16 {
				inRange++
			}
		}
		if held != inRange {
			t.Fatalf("n %d k %d: Contains true for %d values below 2^16, want %d", c.n, c.k, held, inRange)
		}
	}
}

// TestSetReuse: a Set reused for sets no larger than one it has held
// allocates nothing, and a Reset forgets the values held before.
func TestSetReuse(t *testing.T) {
	var s Set
	s.Reset(1<<30, 100)
	s.Reset(5000, 100)
	allocs := testing.AllocsPerRun(100, func() {
		for _, n := range []int{5000, 1 << 30} {
			s.Reset(n, 100)
			for v := 0; v < 100; v++ {
				s.Insert(v * 37 % n)
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("reused Set: %v allocations per run, want 0", allocs)
	}
	for _, n := range []int{1 << 30, 5000} {
		s.Reset(n, 100)
		for v := 0; v < 100; v++ {
			if s.Contains(v * 37 % n) {
				t.Fatalf("n %d: Reset kept %d", n, v*37%n)
			}
		}
		s.SortValues(nil) // the bit set would write past nil if a bit were left
	}
}
