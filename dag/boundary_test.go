package dag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Tests at the boundaries between Algorithm 3's cases and between the
// fast and exact paths of its arithmetic (the mutation pass of issue 11).
// Each is checked against something independent: shares worked by hand
// where they are representable and the documented path computes them
// exactly (to the bit), math/big, the instance rescaled by powers of two
// (to the bit, where both instances take the fast paths), or the
// sort-and-scan reference of the search.

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

// sameRescaled reports whether Allocate gives the same bits, times 2^e,
// on the instance with T, T' and S times 2^e and α times 4^f (which must
// be exact): the homogeneity of Algorithm 3, which the fast paths keep to
// the bit, since their products and quotients of normal numbers round
// alike at every scale.
func sameRescaled(t *testing.T, jobs []Job, S, beta float64, e, f int) bool {
	t.Helper()
	scaled := make([]Job, len(jobs))
	for i, j := range jobs {
		scaled[i] = Job{Remaining: math.Ldexp(j.Remaining, e), Downstream: math.Ldexp(j.Downstream, e), Alpha: math.Ldexp(j.Alpha, 2*f)}
		if math.Ldexp(scaled[i].Remaining, -e) != j.Remaining || math.Ldexp(scaled[i].Downstream, -e) != j.Downstream ||
			math.Ldexp(scaled[i].Alpha, -2*f) != j.Alpha {
			t.Fatalf("job %d (%v) not exactly scalable by 2^%d, 4^%d", i, j, e, f)
		}
	}
	a, err := Allocate(nil, jobs, S, beta, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Allocate(nil, scaled, math.Ldexp(S, e), beta, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if math.Ldexp(b[i], -e) != a[i] {
			t.Errorf("T, S ×2^%d, α ×4^%d: job %d got %v, scaled back %v (jobs %v, S %v, β %v)", e, f, i, a[i], math.Ldexp(b[i], -e), jobs, S, beta)
			return false
		}
	}
	return true
}

// TestPathBoundariesRescaled: instances at the boundaries of the fast
// paths of scale.go, each compared with the instance rescaled (T, T', S by
// 2^e, α by 4^f) away from the boundary. The boundary values are normal
// numbers, which the doc comments give to the fast path; the exact path
// (mantissas and exponents apart, multiplied in another order) may round
// differently. β = 1.5, so that c = 2/β is no power of two; an extra job
// B (T 2^−600, α 2^−1000, key 2^1000 or MaxFloat64: last in the order,
// served by no case here, T·√α = 0) makes every snapshot unsafe, so that Ṽ_i goes
// through virtual.
func TestPathBoundariesRescaled(t *testing.T) {
	t.Parallel()
	const beta = 1.5
	c := 2 / beta
	r := rand.New(rand.NewPCG(11, 4))
	B := Job{Remaining: 0x1p-600, Downstream: 0x1p1000, Alpha: 0x1p-1000}

	// virtual, T·√α = 2^−1022 exactly: job A (α ∈ [1, 4), T·√α rounding
	// to 2^−1022, first) and job C (T 2, α 1, J_m and the least weight),
	// S ∈ [1, 2) (no scaling): case 2 (S ≤ t_A + t_C), A gets its target
	// Ṽ_A = c·2^−1022. Twin: T, S ×2, where T_A·√α = 2^−1021.
	n := 0
	for range 100 {
		alpha := 1 + 3*r.Float64()
		for _, T := range roundsTo(0x1p-1022, math.Sqrt(alpha)) {
			if 2*T*math.Sqrt(alpha) != 0x1p-1021 {
				continue // T·√α below 2^−1022, rounded at subnormal spacing
			}
			n++
			jobs := []Job{{Remaining: T, Alpha: alpha}, {Remaining: 2, Alpha: 1}, B}
			sameRescaled(t, jobs, 1+r.Float64(), beta, 1, 0)
		}
	}
	// virtual, T·√α = MaxFloat64 exactly: job A (α ∈ 16·(1, 4), T·√α
	// rounding to MaxFloat64), job C (T MaxFloat64/2, α 16, J_m and the
	// least weight), S ∈ [0.35, 0.49)·MaxFloat64 (below 2^1023, so that c·2^k
	// is a normal number: k ≥ −1022), above t_A = c·T_A·√α_A/4 ≈
	// MaxFloat64/3: case 2, A gets its target. Twin: T, S ×2^−1.
	for range 100 {
		alpha := 16 * (1 + 3*r.Float64())
		for _, T := range roundsTo(math.MaxFloat64, math.Sqrt(alpha)) {
			n++
			jobs := []Job{{Remaining: T, Alpha: alpha}, {Remaining: math.MaxFloat64 / 2, Alpha: 16}, {Remaining: B.Remaining, Downstream: math.MaxFloat64, Alpha: B.Alpha}}
			sameRescaled(t, jobs, math.MaxFloat64*(0.35+0.14*r.Float64()), beta, -1, 0)
		}
	}
	if n < 100 {
		t.Fatalf("only %d instances at the boundaries of virtual", n)
	}
	// targets, 2^−k/√α_min = 2^−1022 exactly: α_min = 2^1000 and S ∈
	// [2^−522, 2^−521) (k = 522). Jobs 1 and 2 (T ∈ 2^−525·[1, 2), α
	// 2^1000·(1, 2), targets below S/2 together), job 3 (T 2^−521, α
	// 2^1000, target above S, J_m and the least weight): case 2, jobs 1
	// and 2 get their targets. Twin: α ×4^−1.
	for range 50 {
		jobs := []Job{
			{Remaining: 0x1p-525 * (1 + r.Float64()), Downstream: 0x1p-525, Alpha: 0x1p1000 * (1 + r.Float64())},
			{Remaining: 0x1p-525 * (1 + r.Float64()), Downstream: 0x1p-524, Alpha: 0x1p1000 * (1 + r.Float64())},
			{Remaining: 0x1p-521, Alpha: 0x1p1000},
		}
		sameRescaled(t, jobs, 0x1p-522*(1+r.Float64()), beta, 0, -1)
	}
	// targets, Ṽ_i = 2^−1022 exactly: job A (α 2, (T·√2)·c rounding to
	// 2^−922, first), job C (T 2^101, α 1, J_m), S ∈ [2^100, 2^101)
	// (k = −100): case 2, A gets its target Ṽ_A·2^100/1. Twin: α ×4.
	for _, y := range roundsTo(0x1p-922, c) {
		for _, T := range roundsTo(y, math.Sqrt(2)) {
			for range 20 {
				jobs := []Job{{Remaining: T, Alpha: 2}, {Remaining: 0x1p101, Alpha: 1}}
				sameRescaled(t, jobs, 0x1p100*(1+r.Float64()), beta, 0, 1)
			}
		}
	}
}

// TestSumInOrderAtThreshold: S exactly at a case boundary whose float sum
// is exact only when the two small sizes are added before the large one.
// β = 2, α = 1 (V = T): J_1 (T 2^−53, key k_1), J_2 (T 2^−53, key k_2),
// J_3 (T 1, key k_3), then jobs (T 1, key 2^1000, α 4) up to n. S = 1 +
// 2^−52 = T_1 + T_2 + T_3 is the upper end of case 2 with k+1 = 3
// (inclusive; α_min^(4) = α_min^(3) = 1, so case 3 with k+1 = 3 is empty):
// J_1 and J_2 get their targets 2^−53, J_3 the remaining 1, the others 0.
// 2^−53 + 2^−53 + 1 is exact; J_2 + J_3 first (a histogram bucket holding
// both but not J_1) rounds to 1, and the cut would move to J_4, which,
// heavier than J_3, would take J_3's slots (case 2).
//   - n = 48, the most that search sorts and scans one at a time (smallSort),
//     keys 1, 2^100, 1.5·2^100 (J_2 and J_3 share any bucket of 16 over
//     [1, 2^1000], J_1 does not);
//   - n = 64, keys 1, 2, 3: one bucket of the 16 over [1, 2^1000] holds all
//     three (its sum, in index order, is exact); a finer level, one bucket
//     per binade, would hold J_2 and J_3 without J_1.
func TestSumInOrderAtThreshold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		keys [3]float64
	}{
		{smallSort, [3]float64{1, 0x1p100, 1.5 * 0x1p100}},
		{64, [3]float64{1, 2, 3}},
	} {
		jobs := []Job{
			{Remaining: 0x1p-53, Downstream: tc.keys[0], Alpha: 1},
			{Remaining: 0x1p-53, Downstream: tc.keys[1], Alpha: 1},
			{Remaining: 1, Downstream: tc.keys[2], Alpha: 1},
		}
		for len(jobs) < tc.n {
			jobs = append(jobs, Job{Remaining: 1, Downstream: 0x1p1000, Alpha: 4})
		}
		got, err := Allocate(nil, jobs, 1+0x1p-52, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, len(jobs))
		want[0], want[1], want[2] = 0x1p-53, 0x1p-53, 1
		if !slices.Equal(got, want) {
			t.Errorf("n = %d, keys %v: got %v, want %v", tc.n, tc.keys, got, want)
		}
	}
}

// TestTargetsFactorOutOfRange: case 2's targets t_i = Ṽ_i·2^−k/√α_min^(m)
// where that factor is not a normal number must be computed with the
// exponents apart. β = 1.5. Factor +Inf: S = 1.5·2^1000 (k = −1000),
// α_min = 2^−1000 (factor 2^1500); J_1 (T 2^998, α 3·2^−1000, target
// c·2^998·√3 < S) and J_2 (T 2^1001, α 2^−1000, target c·2^1001 > S, J_m
// and the least weight): case 2, J_1 gets its target, J_2 the rest.
// Factor 0: the same instance with T, S times 2^−2000 and α times 2^2000
// (factor 2^−1500). Checked against math/big.
func TestTargetsFactorOutOfRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		jobs []Job
		S    float64
	}{
		{[]Job{{Remaining: 0x1p998, Alpha: 3 * 0x1p-1000}, {Remaining: 0x1p1001, Alpha: 0x1p-1000}}, 1.5 * 0x1p1000},
		{[]Job{{Remaining: 0x1p-1002, Alpha: 3 * 0x1p1000}, {Remaining: 0x1p-999, Alpha: 0x1p1000}}, 1.5 * 0x1p-1000},
	} {
		got, err := Allocate(nil, tc.jobs, tc.S, 1.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, kind, _ := bigReference(tc.jobs, tc.S, 1.5)
		if kind[0] != shareFormula || kind[1] != shareRemainder {
			t.Fatalf("reference kinds %v, want a target and a remainder (case 2)", kind)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 0x1p-50*tc.S {
				t.Errorf("S = %v: job %d got %v, want %v", tc.S, i, got[i], want[i])
			}
		}
	}
}
