package dagkernel

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/testutil"
)

// Tests of the kernel at the ends of float64's range, which the issue-12
// mutation pass found unchecked by the package's own tests (dag's tests
// reached them, the kernel's did not): the unsafe snapshot (Ṽ recomputed
// apart), the targets formed apart, and the proportional shares formed with
// the exponents apart.

// testAllocateHomogeneous: Algorithm 3 is homogeneous in (T, T', S) —
// scaling every size and S by 2^k scales every share by 2^k (thesis §4.1:
// each case's share is S, a target V_i/√α or S·V_i/ΣV, all of degree one).
// The snapshot of jobsGen is scaled by a 2^k that takes its largest or its
// least nonzero value to the edge of float64's normal range (every scaled
// value exact), where T_i·√α_i overflows or is subnormal and the kernel must
// keep the exponents apart; the shares, scaled back, are those
// testutil.DAGReference gives for the unscaled snapshot.
func testAllocateHomogeneous(t *rapid.T) {
	jobs := jobsGen(t)
	beta := rapid.SampledFrom([]float64{1.2, 1.5, 1.9, 2, 3}).Draw(t, "beta")
	var total float64
	least, most := math.Inf(1), 0.0
	for _, j := range jobs {
		total += j.Remaining * math.Sqrt(j.Alpha)
		for _, v := range []float64{j.Remaining, j.Downstream} {
			if v > 0 {
				least, most = min(least, v), max(most, v)
			}
		}
	}
	slots := rapid.Float64Range(0, 1.5).Draw(t, "fraction") * (total + 1)
	if slots > 0 {
		least, most = min(least, slots), max(most, slots)
	}
	if most == 0 {
		return
	}
	// k puts the largest value within 2^shift of MaxFloat64, or the least
	// within 2^shift of the least normal; every scaled value stays a normal
	// number, so the scaled snapshot is exactly the scaled instance.
	_, eMost := math.Frexp(most)
	_, eLeast := math.Frexp(least)
	shift := rapid.IntRange(0, 6).Draw(t, "shift")
	k := 1024 - eMost - shift
	if rapid.Bool().Draw(t, "down") {
		k = -1021 - eLeast + shift
	}
	if eMost+k > 1024 || eLeast+k < -1021 {
		return // the snapshot spans too many binades to move either end
	}
	scaled := make([]Job, len(jobs))
	for i, j := range jobs {
		scaled[i] = Job{Remaining: math.Ldexp(j.Remaining, k), Downstream: math.Ldexp(j.Downstream, k), Alpha: j.Alpha}
	}
	sslots := math.Ldexp(slots, k)
	var ws Workspace
	p := ws.Prepare(scaled, sslots, beta)
	got := make([]float64, len(jobs))
	ws.Allocate(got, scaled, sslots, &p)
	want, thresholds := testutil.DAGReference(dagJobs(jobs), slots, beta)
	if nearThreshold(slots, thresholds) {
		return
	}
	for i := range got {
		if back := math.Ldexp(got[i], -k); !approx(back, want[i], slots) {
			t.Fatalf("k = %d, S = %v, β = %v, jobs %v:\ngot  %v (scaled back)\nwant %v", k, slots, beta, jobs, got, want)
		}
	}
}

func TestAllocateHomogeneous(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateHomogeneous) }

func FuzzAllocateHomogeneous(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateHomogeneous)) }

// TestProportionalNearMinNormal: case 4 where the least Ṽ_i is a normal
// number but Ṽ_i/ΣṼ is not. T = (0.8125, 2^−1022), α = (4, 2.25), T' = 0,
// β = 2 (V = T·√α = (1.625, 1.5·2^−1022)), S = 1.375 > ΣV/√α_min =
// 1.625/1.5: the shares S·V_i/ΣV, exact by math/big, rounded once: 1.375 and
// (33/26)·2^−1022. Formed as S·(Ṽ_i/ΣṼ), the quotient (12/13)·2^−1022 is
// subnormal and loses bits, enough here to round the share to the next
// float64 up (found by a search); the different α make the exponents-apart form
// depend on both T_i and √α_i, and job 1 (listed last) the one whose loss
// from the sum would show.
func TestProportionalNearMinNormal(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 0.8125, Alpha: 4}, {Remaining: 0x1p-1022, Alpha: 2.25}}
	const slots = 1.375
	v := []*big.Float{big.NewFloat(1.625), new(big.Float).SetMantExp(big.NewFloat(1.5), -1022)}
	sum := new(big.Float).SetPrec(2000).Add(v[0], v[1])
	var ws Workspace
	p := ws.Prepare(jobs, slots, 2)
	got := make([]float64, 2)
	ws.Allocate(got, jobs, slots, &p)
	for i := range v {
		share := new(big.Float).SetPrec(2000).Mul(big.NewFloat(slots), v[i])
		want, _ := share.Quo(share, sum).Float64()
		if got[i] != want {
			t.Errorf("job %d: share %v, want S·V_i/ΣV = %v", i, got[i], want)
		}
	}
}

// TestRatioEdges: Ratio's domain (input > 0, both finite) includes
// MaxFloat64 in either field, by hand.
func TestRatioEdges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, out, want float64
		ok            bool
	}{
		{math.MaxFloat64, math.MaxFloat64, 1, true},
		{math.MaxFloat64, 0, 0, true},
		{1, math.MaxFloat64, math.MaxFloat64, true},
		{0x1p-1074, 1, math.Inf(1), true}, // past float64's range: +Inf
		{0, 1, 0, false},
		{math.Inf(1), 1, 0, false},
		{1, math.Inf(1), 0, false},
	} {
		if r, ok := Ratio(tc.in, tc.out); r != tc.want || ok != tc.ok {
			t.Errorf("Ratio(%v, %v) = %v, %v; want %v, %v", tc.in, tc.out, r, ok, tc.want, tc.ok)
		}
	}
}

// TestAllocateOverflowingProduct: T_i·√α_i past MaxFloat64 where the
// scaled Ṽ_i is not (the unsafe snapshot: Allocate recomputes each Ṽ_i with
// the exponents apart). T = (2^1021, 1.5·2^1021), α = 64 (√α = 8), T' = 0,
// β = 2, S = 5·2^1021: V = (2^1024, 1.5·2^1024), both beyond float64 as
// products, ΣV/√α_min = 2.5·2^1021 < S, so case 4, by hand: S·V_i/ΣV =
// 2^1022 and 1.5·2^1022. (With V_i rounded to +Inf, the search would stop
// at the first job and give it all of S.)
func TestAllocateOverflowingProduct(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 0x1p1021, Alpha: 64}, {Remaining: 0x1.8p1021, Alpha: 64}}
	slots := 5 * 0x1p1021
	var ws Workspace
	p := ws.Prepare(jobs, slots, 2)
	if p.safe {
		t.Fatal("test setup: the snapshot is safe; want T·√α past MaxFloat64")
	}
	got := make([]float64, 2)
	ws.Allocate(got, jobs, slots, &p)
	if want := []float64{0x1p1022, 0x1.8p1022}; got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestAllocateSubnormalProduct: a job whose T_i·√α_i is subnormal, in a
// snapshot where c·2^k is finite (S = 2^−1022, k = 1022): Ṽ_i must be
// formed with the exponents apart, not as the subnormal product (which
// keeps 3 bits here) times c·2^k. T = (5·2^−1074, 2^−1030), α = (2, 1),
// T' = 0, β = 2: V = (5√2·2^−1074, 2^−1030), ΣV/√α_min far below S, so
// case 4; job 1's share S·V_1/ΣV, exact by math/big (√2 to 300 bits) and
// rounded once, is 1810·2^−1074 (the product's rounding would give 1792).
func TestAllocateSubnormalProduct(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 5 * 0x1p-1074, Alpha: 2}, {Remaining: 0x1p-1030, Alpha: 1}}
	slots := 0x1p-1022
	const prec = 300
	v1 := new(big.Float).SetPrec(prec).Sqrt(big.NewFloat(2))
	v1.Mul(v1, big.NewFloat(jobs[0].Remaining))
	sum := new(big.Float).SetPrec(prec).Add(v1, big.NewFloat(jobs[1].Remaining))
	share := new(big.Float).SetPrec(prec).Mul(v1, big.NewFloat(slots))
	want, _ := share.Quo(share, sum).Float64()
	var ws Workspace
	p := ws.Prepare(jobs, slots, 2)
	if p.safe || !p.sc.fast {
		t.Fatalf("test setup: safe %v, fast %v; want an unsafe snapshot with c·2^k finite", p.safe, p.sc.fast)
	}
	got := make([]float64, 2)
	ws.Allocate(got, jobs, slots, &p)
	if got[0] != want {
		t.Fatalf("job 1's share %v (%v·2^−1074), want S·V_1/ΣV = %v (%v·2^−1074)", got[0], got[0]/0x1p-1074, want, want/0x1p-1074)
	}
}

// TestTargetSubnormal: case 2's target t_i = V_i/√α_min^(m) of a served job
// whose Ṽ_i is subnormal must be formed from T_i, √α_i and √α_min with the
// exponents apart, not as the subnormal Ṽ_i (already rounded) times
// 1/√α_min. Three jobs in Algorithm 3's order (max{T, T'} ascending):
// T = 5·2^−1074 with α = 3, T = 0.5 with α = 0.5, T = 0.75 with α = 3; T' = 0,
// β = 2, S = 1. The first two reach (5√3·2^−1074 + 0.5·√0.5)/√0.5 ≈ 0.5 < S,
// all three ≈ 2.34 ≥ S: case 2 with α_min = 0.5; the first job is neither
// the last served nor the one of least α, so it gets its target
// 5√3/√0.5·2^−1074 = 5√6·2^−1074, exact by math/big and rounded once:
// 12·2^−1074 (from the rounded Ṽ = 9·2^−1074 it would be 13).
func TestTargetSubnormal(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 5 * 0x1p-1074, Alpha: 3}, {Remaining: 0.5, Alpha: 0.5}, {Remaining: 0.75, Alpha: 3}}
	const prec = 300
	target := new(big.Float).SetPrec(prec).Sqrt(big.NewFloat(6))
	target.Mul(target, big.NewFloat(jobs[0].Remaining))
	want, _ := target.Float64()
	var ws Workspace
	p := ws.Prepare(jobs, 1, 2)
	got := make([]float64, 3)
	ws.Allocate(got, jobs, 1, &p)
	if got[0] != want {
		t.Fatalf("shares %v: the first job's %v·2^−1074, want its target 5√6·2^−1074 rounded, %v·2^−1074", got, got[0]/0x1p-1074, want/0x1p-1074)
	}
}

// TestTargetSubnormalFactor: case 2's targets when S is so small that
// 2^−k/√α_min^(m), the factor from Ṽ_i to t_i, is subnormal (S = 2^−1050,
// k = 1050): t_i must be formed from T_i, √α_i and √α_min with the exponents
// apart, not as Ṽ_i times the factor rounded to a subnormal. T = (2, 34)
// ·2^−1056, α = (0.3, 1), T' = 0, β = 2: the first job alone reaches
// T_1 = S/32 < S, both (T_1√0.3 + T_2)/√0.3 ≈ 1.001·S ≥ S, so case 2 with
// α_min = 0.3; the second job is the last served and its target
// T_2/√0.3 ≈ 0.97·S fits: it gets T_2/√0.3, exact by math/big and rounded
// once (the rounded factor would give the next float64 up).
func TestTargetSubnormalFactor(t *testing.T) {
	t.Parallel()
	slots := 0x1p-1050
	jobs := []Job{{Remaining: 2 * 0x1p-1056, Alpha: 0.3}, {Remaining: 34 * 0x1p-1056, Alpha: 1}}
	const prec = 300
	target := new(big.Float).SetPrec(prec).Sqrt(big.NewFloat(0.3))
	target.Quo(big.NewFloat(jobs[1].Remaining).SetPrec(prec), target)
	want, _ := target.Float64()
	var ws Workspace
	p := ws.Prepare(jobs, slots, 2)
	got := make([]float64, 2)
	ws.Allocate(got, jobs, slots, &p)
	if got[1] != want || got[0] != slots-want {
		t.Fatalf("shares %v, want the second job's target T_2/√0.3 = %v and the first the rest %v", got, want, slots-want)
	}
}

// TestProportionalSubnormalSizes: case 4 with every V_i subnormal, far
// below S. T = (3, 5)·2^−1074, α = 2, T' = 0, β = 2, S = 1: ΣV/√α_min =
// 8·2^−1074 < S, and with α equal the shares S·V_i/ΣV are S·T_i/ΣT = 3/8 and
// 5/8, exactly, by hand. The subnormal Ṽ_i = T_i·√2 keep no more than 3
// bits (4 and 7 units), so the shares must be formed from T_i and √α_i
// with the exponents apart, not as Ṽ_i/ΣṼ (4/11 and 7/11).
func TestProportionalSubnormalSizes(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 3 * 0x1p-1074, Alpha: 2}, {Remaining: 5 * 0x1p-1074, Alpha: 2}}
	var ws Workspace
	p := ws.Prepare(jobs, 1, 2)
	got := make([]float64, 2)
	ws.Allocate(got, jobs, 1, &p)
	if got[0] != 0.375 || got[1] != 0.625 {
		t.Fatalf("got %v, want [0.375 0.625]", got)
	}
}
