package dag

import (
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched/alloc"
)

// TestMagnitudeReproducers holds the reproducers of issue 17: V_i =
// (2/β)·T_i·√α_i underflowed to 0 with T_i > 0, and the proportional case
// divided 0/0 (NaN; MinInt64 in the integer form); and a spread of weights
// whose targets fit float64 was rejected as "alpha = +Inf". Each expected
// value is worked by hand: one job gets all of S (case 1), and for two jobs
// ordered by max{T, T'} the first job's target t_1^(2) = (2/β)·1·√(1e300/1e-300)
// ≥ S = 1e300, so case 1 gives it all of S.
func TestMagnitudeReproducers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		jobs  []Job
		slots float64
		beta  float64
		want  []float64
	}{
		{"tiny T and α, β = 3", []Job{{Remaining: 1e-300, Downstream: 0, Alpha: 1e-300}}, 1, 3, []float64{1}},
		{"tiny T and α, β = 1.5", []Job{{Remaining: 1e-200, Downstream: 0, Alpha: 1e-300}}, 1, 1.5, []float64{1}},
		{"subnormal T", []Job{{Remaining: 5e-324, Downstream: 0, Alpha: 1}}, 1, 1.5, []float64{1}},
		{"wide α spread, β = 1.5", []Job{{Remaining: 1e300, Downstream: 0, Alpha: 1e-300}, {Remaining: 1, Downstream: 0, Alpha: 1e300}}, 1e300, 1.5, []float64{0, 1e300}},
		{"wide α spread, β = 3", []Job{{Remaining: 1e300, Downstream: 0, Alpha: 1e-300}, {Remaining: 2, Downstream: 0, Alpha: 1e300}}, 1e300, 3, []float64{0, 1e300}},
		// Formerly rejected, though the targets fit: ΣT overflows (job 0
		// comes first by index, its target (2/β)·MaxFloat64 exceeds S);
		{"ΣT overflows", []Job{{Remaining: math.MaxFloat64, Downstream: 0, Alpha: 1}, {Remaining: math.MaxFloat64, Downstream: 0, Alpha: 1}}, 1, 1.5, []float64{1, 0}},
		// (2/β)·ΣT·√(α_max/α_min) overflows; job 1's target (2/β)·1e300 ≥ S;
		{"α spread", []Job{{Remaining: 1e10, Downstream: 0, Alpha: 1e-300}, {Remaining: 1, Downstream: 0, Alpha: 1e300}}, 1, 1.5, []float64{0, 1}},
		// V = (2/1.2)·1e308·√1.5 overflows; one job gets all of S.
		{"virtual size overflows", []Job{{Remaining: 1e308, Downstream: 1, Alpha: 1.5}}, 1, 1.2, []float64{1}},
	} {
		got, err := Allocate(nil, tc.jobs, tc.slots, tc.beta, nil)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: Allocate = %v, %v; want %v", tc.name, got, err, tc.want)
		}
		if tc.slots > alloc.MaxTotal {
			continue
		}
		want := make([]int, len(tc.want))
		for i, w := range tc.want {
			want[i] = int(w)
		}
		slots, err := AllocateSlots(nil, tc.jobs, int(tc.slots), tc.beta, nil)
		if err != nil || !slices.Equal(slots, want) {
			t.Errorf("%s: AllocateSlots = %v, %v; want %v", tc.name, slots, err, want)
		}
	}
}

// TestProportionalUnderflow: in the proportional case a share far below
// the others' is still computed (S·V_i/ΣV, not (V_i/ΣV)·S, which
// underflows). Two jobs with α = 1, β = 2 (V = T): T = (1e-200, 1e200),
// keys ascending, S = 1e300 ≫ ΣV: case 4 gives S·T_i/ΣT = (1e-100, 1e300).
// Subnormal sizes are weighed at full precision: T = (5e-324, 1e-323) on
// S = 3 gives (1, 2) — (2/β)·T rounded at subnormal precision would give
// 1 ulp and 3 ulps, (0.75, 2.25).
func TestProportionalUnderflow(t *testing.T) {
	t.Parallel()
	got, err := Allocate(nil, []Job{{Remaining: 1e-200, Downstream: 0, Alpha: 1}, {Remaining: 1e200, Downstream: 0, Alpha: 1}}, 1e300, 2, nil)
	if err != nil || math.Abs(got[0]-1e-100) > 1e-100*1e-12 || got[1] != 1e300 {
		t.Errorf("got %v, %v; want [1e-100 1e300]", got, err)
	}
	got, err = Allocate(nil, []Job{{Remaining: 5e-324, Downstream: 0, Alpha: 1}, {Remaining: 1e-323, Downstream: 0, Alpha: 1}}, 3, 1.5, nil)
	if err != nil || math.Abs(got[0]-1) > 1e-12 || math.Abs(got[1]-2) > 1e-12 {
		t.Errorf("subnormal T: got %v, %v; want [1 2]", got, err)
	}
}

// TestSubnormalAlpha: a subnormal weight is an input like any other. Job
// 0 (T 1, key 1, α 5e-324) comes before job 1 (T 1, key 2, α 1); β = 2.
// On S = 1, job 0's target √(α_0/α_0) = 1 covers S (case 1): [1 0]. On
// S = 3, case 2: job 1 (target √(1/5e-324) ≈ 4.5e161) is served first and
// takes all 3, job 0, the least weight, is served last and gets 0.
func TestSubnormalAlpha(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 1, Downstream: 0, Alpha: 5e-324}, {Remaining: 1, Downstream: 2, Alpha: 1}}
	for _, tc := range []struct{ slots, want0, want1 float64 }{{1, 1, 0}, {3, 0, 3}} {
		got, err := Allocate(nil, jobs, tc.slots, 2, nil)
		if err != nil || got[0] != tc.want0 || got[1] != tc.want1 {
			t.Errorf("S = %v: got %v, %v; want [%v %v]", tc.slots, got, err, tc.want0, tc.want1)
		}
	}
}

// TestAllocateSlotsNearMaxCount: near 2^53 the real-valued shares are
// integers or halves, Σ⌊S_i⌋ could exceed the total, and the apportionment
// returned Σ = slots + 1 (issue 17). Two jobs (T 2, T' 2, α 2) and
// (T 3, T' 5, α 0.5), β = 1.5, S = 2^53 − 7 (case 4: V ∝ 2√2 : 3/√2, so
// 4 : 3). The result must sum to S exactly, each job within one slot of
// its real share.
func TestAllocateSlotsNearMaxCount(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 2, Downstream: 2, Alpha: 2}, {Remaining: 3, Downstream: 5, Alpha: 0.5}}
	const slots = 1<<53 - 7
	got, err := AllocateSlots(nil, jobs, slots, 1.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got[0]+got[1] != slots {
		t.Errorf("got %v, Σ = %d; want Σ = %d", got, got[0]+got[1], slots)
	}
	// 4/7 and 3/7 of S, exactly, in integers: S = 7q + r.
	q, r := slots/7, slots%7
	if d := got[0] - 4*q; d != 4*r/7 && d != 4*r/7+1 {
		t.Errorf("job 0: %d, want ⌊4/7·S⌋ or ⌈4/7·S⌉ (4/7·S = %d + %d/7)", got[0], 4*q, 4*r)
	}
}

// TestUnsafeProducts: snapshots whose T_i·√α_i leaves the normal range
// although Ṽ_i (scaled so that S ∈ [1, 2)) does not: the product must not
// be used as it is. β = 2 (V = T·√α).
//   - T·√α underflows: job 0 (T 1e-200, key 1e-200, α 1e-300), job 1
//     (T 1, key 1, α 1), S = 5e-201: job 0's target 1e-200·√(1e-300/1e-300)
//     covers S (case 1): [5e-201 0]; with T·√α = 0, job 1 would take S.
//   - T·√α overflows: two jobs (T 1e300, α 1e300) with keys 1e300 and 2e300,
//     S = 3e300 beyond both targets (1e300 each): case 4, [1.5e300 1.5e300];
//     with T·√α = +Inf, job 0 would seem to cover S.
//   - S = 1.5e308 (scaling it to [1, 2) takes 2^−1023, whose c·2^k is not a
//     normal number): jobs (MaxFloat64, 0, 1) and (1, MaxFloat64, 1), equal
//     keys and weights, so job 0 first, its target MaxFloat64 covers S
//     (case 1): [1.5e308 0].
//   - S = 3e-320, subnormal (scaling it takes 2^1061, and c·2^k overflows):
//     two jobs (T 1e-320, α 1e300) with keys 1e-320 and 1, whose T·√α =
//     1e-170 is normal; their targets (1e-320 each) are below S: case 4,
//     S/2 each — with Ṽ_i = T·√α·(+Inf), job 0 would seem to cover S.
func TestUnsafeProducts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		jobs  []Job
		slots float64
		want  []float64
	}{
		{"underflow", []Job{{Remaining: 1e-200, Downstream: 0, Alpha: 1e-300}, {Remaining: 1, Downstream: 1, Alpha: 1}}, 5e-201, []float64{5e-201, 0}},
		{"overflow", []Job{{Remaining: 1e300, Downstream: 1e300, Alpha: 1e300}, {Remaining: 1e300, Downstream: 2e300, Alpha: 1e300}}, 3e300, []float64{1.5e300, 1.5e300}},
		{"S near MaxFloat64", []Job{{Remaining: math.MaxFloat64, Downstream: 0, Alpha: 1}, {Remaining: 1, Downstream: math.MaxFloat64, Alpha: 1}}, 1.5e308, []float64{1.5e308, 0}},
		{"S subnormal", []Job{{Remaining: 1e-320, Downstream: 0, Alpha: 1e300}, {Remaining: 1e-320, Downstream: 1, Alpha: 1e300}}, 3e-320, []float64{1.5e-320, 1.5e-320}},
	} {
		got, err := Allocate(nil, tc.jobs, tc.slots, 2, nil)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}
