package intset

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// testSet checks a Set against a map on random operations: Insert's and
// Contains' answers are the map's, and after every operation every value
// inserted is contained. n is drawn from small ranges, where both the bit set and the hash
// table occur, and up to 2⁴⁰, where only the hash table does; values from
// the whole range, its ends and the values held, so that repeats and
// collisions are common. The representation is checked against the
// documented bounds: a bit set exactly when n ≤ 64·(k+16), of ⌈n/64⌉
// words; otherwise a power-of-two table of 2k to 4k slots (at least 2).
func testSet(t *rapid.T) {
	var s Set
	var n, k int
	model := map[int]bool{}
	reset := func(t *rapid.T) {
		n = rapid.OneOf(rapid.IntRange(0, 20000), rapid.IntRange(0, 1<<40)).Draw(t, "n")
		k = rapid.IntRange(0, min(n, 300)).Draw(t, "k")
		s.Reset(n, k)
		clear(model)
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
			model[v] = true
		},
		"contains": func(t *rapid.T) {
			v := value(t)
			if got := s.Contains(v); got != model[v] {
				t.Fatalf("Contains(%d) = %v, want %v (n %d, k %d, held %d)", v, got, model[v], n, k, len(model))
			}
		},
		"": func(t *rapid.T) {
			for v := range model {
				if !s.Contains(v) {
					t.Fatalf("%d inserted, not contained (n %d, k %d)", v, n, k)
				}
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
	if want := max(2*k, 2); size&(size-1) != 0 || size < want || size/2 >= want {
		t.Fatalf("Reset(%d, %d): %d slots, want the least power of two ≥ max(2k, 2) (2k to 4k)", n, k, size)
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
	}
}

// constSource is a rand.Source that always returns x: its draws repeat, so
// the samplers meet values already taken at every step.
type constSource uint64

func (c constSource) Uint64() uint64 { return uint64(c) }

// drawSource draws a seeded PCG or a constant source (1: IntN returns 0
// unless its bound is a power of two; 2⁶⁴−1: IntN(b) returns b−1).
func drawSource(t *rapid.T) func() rand.Source {
	switch rapid.IntRange(0, 3).Draw(t, "source") {
	case 0:
		return func() rand.Source { return constSource(1) }
	case 1:
		return func() rand.Source { return constSource(math.MaxUint64) }
	}
	seed := rapid.Uint64().Draw(t, "seed")
	return func() rand.Source { return rand.NewPCG(seed, 7) }
}

// floydReference is Floyd's algorithm as Bentley and Floyd write it, with
// a Go map for the set: the k-subset of [0, n) that the draws IntN(m+1),
// m = n−k, …, n−1, give, in increasing order.
func floydReference(n, k int, rng *rand.Rand) []int {
	set := map[int]bool{}
	for m := n - k; m < n; m++ {
		t := rng.IntN(m + 1)
		if set[t] {
			t = m
		}
		set[t] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// distinctReference is rejection sampling with a Go map: k distinct values
// of [0, n) in the order drawn.
func distinctReference(n, k int, rng *rand.Rand) []int {
	set := map[int]bool{}
	var out []int
	for len(out) < k {
		if v := rng.IntN(n); !set[v] {
			set[v] = true
			out = append(out, v)
		}
	}
	return out
}

// testSamplers: Floyd and Distinct give what the map-based references give
// on the same draws, after what dst held, in both representations (n from
// small ranges and up to 2⁴⁰), and leave exactly their values in the set.
// A constant source makes Floyd take m at every step and (for Distinct,
// with a power-of-two n so that the draws vary) hits values already taken.
func testSamplers(t *rapid.T) {
	n := rapid.OneOf(rapid.IntRange(1, 5000), rapid.IntRange(1, 1<<40)).Draw(t, "n")
	k := rapid.IntRange(0, min(n, 200)).Draw(t, "k")
	src := drawSource(t)
	var s Set
	prefix := []int{-3, 9}
	got := s.Floyd(slices.Clone(prefix), n, k, rand.New(src()))
	want := append(slices.Clone(prefix), floydReference(n, k, rand.New(src()))...)
	if !slices.Equal(got, want) {
		t.Fatalf("Floyd(%d, %d) = %v, want %v", n, k, got, want)
	}
	checkHeld(t, &s, n, got[len(prefix):])
	if 2*k > n {
		return // rejection would draw for long with a constant source
	}
	if _, constant := src().(constSource); constant && k > 1 {
		return // the same value forever
	}
	got = s.Distinct(slices.Clone(prefix), n, k, rand.New(src()))
	want = append(slices.Clone(prefix), distinctReference(n, k, rand.New(src()))...)
	if !slices.Equal(got, want) {
		t.Fatalf("Distinct(%d, %d) = %v, want %v", n, k, got, want)
	}
	checkHeld(t, &s, n, got[len(prefix):])
}

// checkHeld checks that s contains the values and, among the values below
// 2¹² and the 64 around each, nothing else.
func checkHeld(t *rapid.T, s *Set, n int, values []int) {
	held := map[int]bool{}
	for _, v := range values {
		held[v] = true
	}
	probe := map[int]bool{}
	for v := range min(n, 1<<12) {
		probe[v] = true
	}
	for _, v := range values {
		for d := -32; d < 32; d++ {
			if w := v + d; w >= 0 && w < n {
				probe[w] = true
			}
		}
	}
	for v := range probe {
		if s.Contains(v) != held[v] {
			t.Fatalf("Contains(%d) = %v after sampling %v", v, s.Contains(v), values)
		}
	}
}

func TestSamplers(t *testing.T) { t.Parallel(); rapid.Check(t, testSamplers) }

// FuzzSamplers runs testSamplers on the fuzzer's bytes.
func FuzzSamplers(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSamplers)) }

// TestHashSpreads: Fibonacci hashing spreads consecutive values over the
// table, as the package says: the first slots of 0, …, 999 in a table of
// 2 048 slots are nearly all different (999 distinct; we ask for 3/4), so
// that inserting them rarely probes past their homes. A hash that sent
// every key to one slot would still answer correctly, in O(k) per
// operation.
func TestHashSpreads(t *testing.T) {
	const k = 1000
	var s Set
	s.Reset(1<<40, k)
	homes := map[uint64]bool{}
	for v := range k {
		homes[s.home(uint64(v)+1)] = true
	}
	if len(homes) < k*3/4 {
		t.Fatalf("%d distinct first slots for %d consecutive values in %d slots", len(homes), k, len(s.buf))
	}
}
