package online

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// TestQuotient: ratio's order is the order of the exact quotients a/b
// (math/big, exact for floats), up to the one rounding of each: when the
// exact quotients differ by more than two units in the last place, the
// ratios are ordered as they are; when they are equal, the ratios are
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
	// = 1.5 = 0.75·2; 4/5: 0.5/0.625 = 0.8), equal exponents apart.
	for _, c := range []struct{ a, b, c, d float64 }{{4, 5, 3, 2}, {1, 3, 1, 2}, {1e-300, 1e300, 1e300, 1e-300}, {5e-324, 1, 1, math.MaxFloat64}} {
		if !quotient(c.a, c.b).less(quotient(c.c, c.d)) || quotient(c.c, c.d).less(quotient(c.a, c.b)) {
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
			if diff.Cmp(bound) > 0 && p.less(q) != (x.Cmp(y) < 0) {
				t.Fatalf("%v/%v vs %v/%v: exact %v, ratios %+v %+v", a, b, c, d, x.Cmp(y), p, q)
			}
		}
		if quotient(0, b) != nothing || !nothing.less(p) || !p.less(everything) {
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
