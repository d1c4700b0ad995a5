package dag

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Tests at the boundaries between Algorithm 3's cases and between the
// fast and exact paths of its arithmetic (the mutation pass of issue 11).
// Each expected value is exact and worked by hand: an instance whose
// shares are representable, and whose arithmetic on the documented path
// is exact, must give them to the bit.

// roundsTo returns the floats T near target/w (both > 0, normal) whose
// product T·w rounds to target exactly.
func roundsTo(target, w float64) []float64 {
	var out []float64
	x := target / w
	for range 4 {
		x = math.Nextafter(x, 0)
	}
	for range 9 {
		if x*w == target {
			out = append(out, x)
		}
		x = math.Nextafter(x, math.Inf(1))
	}
	return out
}

// TestCaseTwoUpperBoundaryExact: S equal to the sum of the targets is the
// upper end of case 2 (Σ_{i≤k+1} t_i^(k+1) ≥ S, inclusive), where every
// job gets its target. With β = 2, α = 1 and integer T_i (T' = 0) the
// targets are the T_i and S = ΣT_i; case 2 fills them with exact integer
// arithmetic, so every job gets T_i to the bit — the proportional formula
// (T_i/ΣT)·S of case 4 would round (1/49·49 ≠ 1 in float64).
func TestCaseTwoUpperBoundaryExact(t *testing.T) {
	t.Parallel()
	ones := make([]float64, 49)
	for i := range ones {
		ones[i] = 1
	}
	for _, T := range [][]float64{{1, 48}, {48, 1}, ones, {3, 7, 11, 13, 5, 1}} {
		jobs := make([]Job, len(T))
		S := 0.0
		for i, x := range T {
			jobs[i] = Job{Remaining: x, Alpha: 1}
			S += x
		}
		got, err := Allocate(nil, jobs, S, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range T {
			if got[i] != T[i] {
				t.Errorf("T = %v, S = %v: job %d got %v, want %v", T, S, i, got[i], T[i])
			}
		}
	}
}

// TestProportionalExactSplit: n identical jobs (n = 2 or 4) in case 4 get
// S/n each, exactly: on the fast path Ṽ_i/ΣṼ = 1/n is exact and so is
// its product with S. Identical jobs are in case 4 as soon as S exceeds
// their targets' sum, nṼ/√α ≪ S here. The instances: moderate sizes with
// full mantissas (T·√α and S random), and the boundary of the fast path,
// Ṽ_i = 2^−1022 exactly (the smallest normal number, which the fast path
// takes): β = 1.5, α = 1, S ∈ [2^100, 2^101) (scaled by 2^−100), and T the
// floats with (2/1.5)·T rounding to 2^−922 — T itself has a full mantissa
// (0.75·2^−921 and its neighbours), so S·T/ΣT formed from T would round.
func TestProportionalExactSplit(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 1))
	type inst struct {
		T, alpha, beta float64
		n              int
		S              float64
	}
	var cases []inst
	for range 200 {
		for _, beta := range []float64{1.5, 2} {
			cases = append(cases, inst{1 + r.Float64(), 1 + 3*r.Float64(), beta, 2 << r.IntN(2), 1e6 * (1 + r.Float64())})
		}
	}
	edge := roundsTo(0x1p-922, 2/1.5)
	if len(edge) == 0 {
		t.Fatal("no T with (2/1.5)·T = 2^−922")
	}
	for _, T := range edge {
		for range 100 {
			cases = append(cases, inst{T, 1, 1.5, 2 << r.IntN(2), 0x1p100 * (1 + r.Float64())})
		}
	}
	for _, c := range cases {
		jobs := make([]Job, c.n)
		for i := range jobs {
			jobs[i] = Job{Remaining: c.T, Alpha: c.alpha}
		}
		got, err := Allocate(nil, jobs, c.S, c.beta, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range got {
			if want := c.S / float64(c.n); g != want {
				t.Fatalf("%d jobs (T %v, α %v), β %v, S = %v: job %d got %v, want S/n = %v",
					c.n, c.T, c.alpha, c.beta, c.S, i, g, want)
			}
		}
	}
}

// TestProportionalRatioMinNormal: the other guard of the fast path, a ratio
// Ṽ_1/ΣṼ of exactly 2^−1022 (a normal number: the fast path computes it
// exactly). Two jobs, α = 1, β = 1.5, S = s·2^10 with s ∈ (1, 2) (scaled by
// 2^−10): T_2 with (2/1.5)·T_2 rounding to 2^10, so Ṽ_2 = 1, and T_1 =
// T_2·2^−1022, Ṽ_1 = 2^−1022; ΣṼ rounds to 1. Job 1 comes first (smaller
// key); S̃ > 1 exceeds Ṽ_1+Ṽ_2, so case 4: S·T_i/(T_1+T_2), which rounds
// to S·2^−1022 and S (the exact shares differ from these by a relative
// 2^−1022).
func TestProportionalRatioMinNormal(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 2))
	edge := roundsTo(0x1p10, 2/1.5)
	if len(edge) == 0 {
		t.Fatal("no T with (2/1.5)·T = 2^10")
	}
	for _, T2 := range edge {
		jobs := []Job{{Remaining: T2 * 0x1p-1022, Alpha: 1}, {Remaining: T2, Alpha: 1}}
		for range 200 {
			S := 0x1p10 * math.Nextafter(1+r.Float64(), 2)
			got, err := Allocate(nil, jobs, S, 1.5, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := []float64{S * 0x1p-1022, S}; got[0] != want[0] || got[1] != want[1] {
				t.Fatalf("T = %v, S = %v: got %v, want %v", jobs, S, got, want)
			}
		}
	}
}

// TestProportionalSubnormalRatio: a share whose ratio Ṽ_i/ΣṼ is below
// 2^−1022 while Ṽ_i is normal must not be formed from that ratio (it has
// fewer than 53 bits there) but with the exponents apart. Two jobs, β = 2,
// α = 2^80 (√α = 2^40), S = 2^1000 (scaled by 2^−1000): T_2 = 1.5·2^998
// (Ṽ_2 = 1.5·2^38), T_1 = x·2^−62 (Ṽ_1 = x·2^−1022, x ∈ [1, 2)), so the
// ratio is about 2^−1060. Case 4 (S̃ = 1 > ΣṼ/2^40 = 0.375):
// S·T_1/(T_1+T_2) = x/1.5·2^−60, checked against math/big.
func TestProportionalSubnormalRatio(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 3))
	const alpha, S = 0x1p80, 0x1p1000
	for range 50 {
		x := 1 + r.Float64()
		jobs := []Job{{Remaining: x * 0x1p-62, Alpha: alpha}, {Remaining: 1.5 * 0x1p998, Alpha: alpha}}
		got, err := Allocate(nil, jobs, S, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, kind, _ := bigReference(jobs, S, 2)
		if kind[0] != shareFormula || kind[1] != shareFormula {
			t.Fatalf("reference kinds %v, want two proportional shares", kind)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 0x1p-52*want[i] {
				t.Fatalf("x = %v: job %d got %v, want %v", x, i, got[i], want[i])
			}
		}
	}
}
