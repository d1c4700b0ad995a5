package online

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
)

// TestQuotient: ratio's order is the order of the exact quotients a/b
// (math/big, exact for floats), up to the rounding and the cut last bit
// of each: when the exact quotients differ by more than 2^−50 relatively,
// the ratios are ordered as they are; when they are equal, the ratios are
// equal. Over every magnitude, subnormals included.
func TestQuotient(t *testing.T) {
	t.Parallel()
	f := func(t *rapid.T, label string) float64 {
		switch rapid.IntRange(0, 2).Draw(t, label+"Kind") {
		case 0:
			return float64(rapid.IntRange(1, 1<<20).Draw(t, label))
		case 1:
			return math.Ldexp(float64(rapid.IntRange(1, 1<<20).Draw(t, label)), rapid.IntRange(-1074, 1000).Draw(t, label+"Exp"))
		}
		return rapid.SampledFrom([]float64{math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-300, 1e300, 3, 7}).Draw(t, label)
	}
	// Worked by hand: mantissa quotients on both sides of 1 (3/2: 0.75/0.5
	// = 1.5 = 0.75·2; 4/5: 0.5/0.625 = 0.8), equal exponents apart, and
	// two quotients 2^−51 apart, the resolution the packing keeps (1 and
	// 1 + 2^−51: fraction fields 0 and 2, 0 and 1 after the cut bit).
	for _, c := range []struct{ a, b, c, d float64 }{{4, 5, 3, 2}, {1, 3, 1, 2}, {1e-300, 1e300, 1e300, 1e-300}, {5e-324, 1, 1, math.MaxFloat64}, {1, 1, 1 + 0x1p-51, 1}} {
		if !(quotient(c.a, c.b) < quotient(c.c, c.d)) || quotient(c.c, c.d) < quotient(c.a, c.b) {
			t.Errorf("%v/%v < %v/%v: ratios %+v, %+v", c.a, c.b, c.c, c.d, quotient(c.a, c.b), quotient(c.c, c.d))
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		a, b, c, d := f(t, "a"), f(t, "b"), f(t, "c"), f(t, "d")
		if rapid.Bool().Draw(t, "tie") { // c/d = a/b exactly: scale both by a power of two or a small integer
			k := rapid.SampledFrom([]float64{2, 0.5, 3, 1024}).Draw(t, "k")
			c, d = a*k, b*k
			if math.IsInf(c, 0) || math.IsInf(d, 0) || c == 0 || d == 0 || c/k != a || d/k != b {
				t.Skip("the scaled pair is not exact")
			}
		}
		x := new(big.Float).SetPrec(4000).Quo(new(big.Float).SetPrec(4000).SetFloat64(a), new(big.Float).SetFloat64(b))
		y := new(big.Float).SetPrec(4000).Quo(new(big.Float).SetPrec(4000).SetFloat64(c), new(big.Float).SetFloat64(d))
		p, q := quotient(a, b), quotient(c, d)
		switch x.Cmp(y) {
		case 0:
			if p != q {
				t.Fatalf("%v/%v = %v/%v, ratios %+v and %+v", a, b, c, d, p, q)
			}
		default:
			// Far apart (relative difference > 2^-50): the order holds.
			diff := new(big.Float).Sub(x, y)
			diff.Abs(diff)
			bound := new(big.Float).Mul(new(big.Float).Abs(x), big.NewFloat(math.Ldexp(1, -50)))
			if diff.Cmp(bound) > 0 && (p < q) != (x.Cmp(y) < 0) {
				t.Fatalf("%v/%v vs %v/%v: exact %v, ratios %+v %+v", a, b, c, d, x.Cmp(y), p, q)
			}
		}
		if quotient(0, b) != nothing || !(nothing < p) || !(p < everything) {
			t.Fatalf("0, %+v and everything out of order", p)
		}
	})
}

// TestNextTies: jobs holding exactly their shares are neither below nor
// over them, in both cases, worked by hand.
//
// Proportional: 10 slots, β = 2 (2/β = 1), jobs of 1 and 4 tasks (ΣT = 5
// < 10): shares 2 and 8 (S/ΣT = 2 per task). Constrained: 4 slots, β =
// 1.5 (4/3): jobs of 3 and 6 tasks, V = 4 and 8; job 0 gets V_0 = 4
// (exactly S: it is the cut-off job, its share 4), job 1 nothing.
func TestNextTies(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		slots, beta float64
		tasks       []float64
		held        []int
		next, back  int // −1: none
	}{
		{"proportional, at the shares", 10, 2, []float64{1, 4}, []int{2, 8}, -1, -1},
		{"proportional, one short", 10, 2, []float64{1, 4}, []int{1, 8}, 0, -1},
		{"proportional, one over", 10, 2, []float64{1, 4}, []int{2, 9}, -1, 1},
		{"proportional, short and over", 10, 2, []float64{1, 4}, []int{3, 7}, 1, 0},
		{"constrained, at the shares", 4, 1.5, []float64{3, 6}, []int{4, 0}, -1, -1},
		{"constrained, cut one short", 4, 1.5, []float64{3, 6}, []int{3, 0}, 0, -1},
		{"constrained, cut one over", 4, 1.5, []float64{3, 6}, []int{5, 0}, -1, 0},
		{"constrained, after the cut holding", 4, 1.5, []float64{3, 6}, []int{4, 1}, -1, 1},
		{"constrained, before the cut exact", 9, 1.5, []float64{3, 6}, []int{4, 5}, -1, -1}, // V = 4, then 5 of 8
		{"constrained, before the cut short", 9, 1.5, []float64{3, 6}, []int{3, 6}, 0, 1},
		{"no slots", 0, 1.5, []float64{3, 6}, []int{0, 1}, -1, 1},
		{"a job of no task holding", 10, 2, []float64{0, 4}, []int{1, 4}, 1, 0},
		// 8/3 slots, two jobs of 1 task (V = 4/3 each): the second is the
		// cut-off job with 8/3 − 4/3 = 4/3 exactly, so both fall a third
		// short — a tie to the bit, which goes to the first.
		{"constrained, the cut's fraction ties", 8.0 / 3, 1.5, []float64{1, 1}, []int{1, 1}, 0, -1},
	} {
		h, err := New(c.slots, c.beta)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range c.tasks {
			id, err := h.Add(v)
			if err != nil || id != i {
				t.Fatalf("%s: Add: %d, %v", c.name, id, err)
			}
			if err := h.SetHeld(id, c.held[i]); err != nil {
				t.Fatal(err)
			}
		}
		next, ok := h.Next()
		if !ok {
			next = -1
		}
		back, ok := h.Reclaim()
		if !ok {
			back = -1
		}
		if next != c.next || back != c.back {
			t.Errorf("%s: Next %d, Reclaim %d; want %d, %d", c.name, next, back, c.next, c.back)
		}
	}
}

// TestNextApportions: S slots handed out one at a time by Next, from none
// held, give in the capacity-constrained case alloc.AllocateSlots's
// integer allocation (largest remainders, ties by fewer tasks then id) —
// exactly, or where the two differ, an allocation that is as much one by
// largest remainders: remainders that tie in exact arithmetic are rounded
// differently by the two (the cut-off job's share is S minus the others'
// V summed in another order), so the check is then that every job gets
// ⌊S_i⌋ or ⌈S_i⌉, the total is S, and no job rounded down has a remainder
// larger, beyond 1e-9, than one rounded up. In the proportional case every
// job gets ⌊S_i⌋ or ⌈S_i⌉ slots.
func TestNextApportions(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		beta := rapid.SampledFrom([]float64{1.1, 1.25, 1.5, 1.99, 2.5}).Draw(t, "beta")
		counts := rapid.SliceOfN(rapid.IntRange(0, 12), 1, 12).Draw(t, "remaining")
		rem := make([]float64, len(counts))
		for i, c := range counts {
			rem[i] = float64(c)
		}
		slots := rapid.IntRange(0, 60).Draw(t, "slots")
		h, err := New(float64(slots), beta)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range rem {
			if _, err := h.Add(v); err != nil {
				t.Fatal(err)
			}
		}
		held := make([]int, len(rem))
		for range slots {
			j, ok := h.Next()
			if !ok {
				break
			}
			held[j]++
			if err := h.SetHeld(j, held[j]); err != nil {
				t.Fatal(err)
			}
		}
		want, err := alloc.AllocateSlots(nil, rem, slots, beta, nil)
		if err != nil {
			t.Fatal(err)
		}
		shares, err := alloc.Allocate(nil, rem, float64(slots), beta, nil)
		if err != nil {
			t.Fatal(err)
		}
		h.refresh()
		for i, s := range shares {
			if float64(held[i]) < math.Floor(s+1e-9) || float64(held[i]) > math.Ceil(s-1e-9) {
				t.Fatalf("job %d: %d slots of a share %v (handed out %v)", i, held[i], s, held)
			}
		}
		if !h.constrained || slices.Equal(held, want) {
			return
		}
		sum, up, down := 0, 2.0, -1.0 // the least remainder rounded up, the greatest rounded down
		for i, s := range shares {
			sum += held[i]
			if r := s - math.Floor(s); float64(held[i]) > s {
				up = min(up, r)
			} else if float64(held[i]) < s {
				down = max(down, r)
			}
		}
		if sum != slots || down > up+1e-9 {
			t.Fatalf("Next handed out %v (total %d); AllocateSlots %v; shares %v", held, sum, want, shares)
		}
		// Jobs of as many tasks, both getting V = c·T (not the cut-off
		// job, whose share each computes its own way), tie exactly: the
		// slot goes to the one first in Algorithm 1's order.
		for i, si := range shares {
			for j, sj := range shares {
				ri := si - math.Floor(si)
				if rem[i] == rem[j] && si == sj && si == h.c*rem[i] && ri > 0 && float64(held[i]) < si && float64(held[j]) > sj && h.Compare(i, j) < 0 {
					t.Fatalf("jobs %d and %d tie at remainder %v; %d, later, got the slot (handed out %v)", i, j, ri, j, held)
				}
			}
		}
	})
}

// TestFrexp: frexp, quotient's fast path, gives math.Frexp's mantissa (bit
// for bit) and exponent for every finite f > 0: the bounds of the normal
// range and the subnormals below it (passed on to math.Frexp), powers of
// two, and every exponent field under random fractions.
func TestFrexp(t *testing.T) {
	t.Parallel()
	same := func(t interface{ Fatalf(string, ...any) }, f float64) {
		m, e := frexp(f)
		wm, we := math.Frexp(f)
		if math.Float64bits(m) != math.Float64bits(wm) || e != we {
			t.Fatalf("frexp(%v) = %v·2^%d, math.Frexp %v·2^%d", f, m, e, wm, we)
		}
	}
	for _, f := range []float64{math.SmallestNonzeroFloat64, 0x1p-1022 - 0x1p-1074, 0x1p-1022, 0x1p-1022 + 0x1p-1074,
		1e-300, 0.5, 1 - 0x1p-53, 1, 1.5, 3, 1e300, math.MaxFloat64} {
		same(t, f)
	}
	rapid.Check(t, func(t *rapid.T) {
		// Every exponent field, 0 (subnormals) to 2046 (the largest
		// finite), under a drawn fraction: drawing the exponent as well
		// left most of the range untried (rapid favours small values).
		frac := rapid.Uint64Range(1, 1<<52-1).Draw(t, "fraction")
		for e := range uint64(2047) {
			same(t, math.Float64frombits(e<<52|frac))
		}
	})
}
