package overlap

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestCompSum: compSum's value is the sum of its terms rounded once (its
// doc: the exactly rounded sum up to O(n·ulp²)), against math/big's exact
// sum — where a plain float64 sum loses the small terms entirely: 1 and a
// thousand terms of 2^-60 (each below half an ulp of 1, so 1 + 2^-60
// rounds to 1; exactly, 1 + 1000·2^-60 rounds to 1 + 4·2^-52); the same
// with the large term last; small terms on both sides of 1; and random non-negative terms of mixed
// magnitudes, within an ulp of the exact sum.
func TestCompSum(t *testing.T) {
	t.Parallel()
	exact := func(terms []float64) float64 {
		s := new(big.Float).SetPrec(4096)
		for _, v := range terms {
			s.Add(s, new(big.Float).SetFloat64(v))
		}
		f, _ := s.Float64()
		return f
	}
	check := func(name string, terms []float64, ulps float64) {
		t.Helper()
		var k compSum
		for _, v := range terms {
			k.add(v)
		}
		want := exact(terms)
		if got := k.value(); math.Abs(got-want) > ulps*(math.Nextafter(want, math.Inf(1))-want) {
			t.Errorf("%s: compSum %v (%x), exact sum %v (%x)", name, got, got, want, want)
		}
	}
	small := make([]float64, 1001)
	small[0] = 1
	for i := 1; i < len(small); i++ {
		small[i] = 0x1p-60
	}
	if want := 1 + 4*0x1p-52; exact(small) != want {
		t.Fatalf("exact sum %x, want %x", exact(small), want)
	}
	check("1 then 1000 × 2^-60", small, 0)
	last := append(append([]float64{}, small[1:]...), 1)
	check("1000 × 2^-60 then 1", last, 0)
	check("2^-60 then 1 then 2^-60", []float64{0x1p-60, 1, 0x1p-60, 0x1p-60, 0x1p-60}, 0)
	// A small term first, then the large one (compSum's other branch):
	// 1 + 3·2^-54 rounds to 1 + 2^-52, the compensation keeps −2^-54, and
	// the last 2^-54 brings the exact sum to 1 + 2^-52 (with the
	// compensation's sign wrong, 1 + 1.5·2^-52, which rounds to 1 + 2^-51).
	check("3·2^-54 then 1 then 2^-54", []float64{0x3p-54, 1, 0x1p-54}, 0)
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 200; it++ {
		terms := make([]float64, 1+r.IntN(300))
		for i := range terms {
			terms[i] = r.Float64() * math.Ldexp(1, r.IntN(120)-60)
		}
		check("random", terms, 1)
	}
}
