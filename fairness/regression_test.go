package fairness_test

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/testutil"
)

// nearlyEqual compares two allocations share by share to a relative
// tolerance.
func nearlyEqual(got, want []float64, tol float64) bool {
	return slices.EqualFunc(got, want, func(a, b float64) bool { return math.Abs(a-b) <= tol*math.Abs(b) })
}

// scaled returns xs·2^k.
func scaled(xs []float64, k int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Ldexp(x, k)
	}
	return out
}

// TestExtremeMagnitudeFloor is issue 11's reproducers: the case-2 tests
// formed T_i·S and f·ΣT, which overflowed to +Inf near 1e308 (first) or
// vanished near 1e−308 (second), and the water-fill stopped at m₂ = 0,
// leaving jobs below the floor. Each answer is checked by hand and against
// the same instance rescaled by an exact power of two into a range where
// those products are harmless.
func TestExtremeMagnitudeFloor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		remaining []float64
		slots     float64
		beta, eps float64
		rescale   int // log2 of the factor that brings the instance near 1
		want      []float64
	}{
		// N = 2, f = 0.5·1e191/2 = 2.5e190 ≥ both V = T (β = 2): m₁ = 2 and
		// 2f < S, case 2. Job 0's proportional share ≈ 1e131 < f: it is held
		// at f and job 1 gets S − f.
		{"T·S overflows", []float64{1e130, 1e190}, 1e191, 2, 0.5, -600, []float64{2.5e190, 7.5e190}},
		// N = 3, f = (1−ε)S/3 ≈ 1.132e-176; m₁ = 2, case 2 (S > V₁ + 2f).
		// Jobs 0 and 2 get 5.07e-189 proportionally, far below f: both are
		// held at f, job 1 gets S − 2f.
		{"T·S underflows",
			[]float64{2.1090137420204253e-189, 3.1044998660901448e-176, 2.1090137420204253e-189}, 7.468981609863186e-176, 2, 0.5453370731714923, 600,
			[]float64{(1 - 0.5453370731714923) * 7.468981609863186e-176 / 3, 7.468981609863186e-176 * (1 - 2*(1-0.5453370731714923)/3), (1 - 0.5453370731714923) * 7.468981609863186e-176 / 3}},
		// ε = 1 is Algorithm 1, case 2: T₀/ΣT·S = 1e-200/1e200·1e300 =
		// 1e-100, but the quotient 1e-400 underflowed to 0 before S
		// scaled it back (issue 17's alloc item, in fairness).
		{"T/ΣT underflows", []float64{1e-200, 1e200}, 1e300, 2, 1, 0, []float64{1e-100, 1e300}},
	}
	for _, tc := range cases {
		got, err := fairness.Allocate(nil, tc.remaining, tc.slots, tc.beta, tc.eps, nil)
		if err != nil || !nearlyEqual(got, tc.want, 1e-12) {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
			continue
		}
		if tc.rescale == 0 {
			continue
		}
		near, err := fairness.Allocate(nil, scaled(tc.remaining, tc.rescale), math.Ldexp(tc.slots, tc.rescale), tc.beta, tc.eps, nil)
		if err != nil || !nearlyEqual(got, scaled(near, -tc.rescale), 1e-12) {
			t.Errorf("%s: got %v; rescaled by 2^%d the instance gives %v, %v", tc.name, got, tc.rescale, near, err)
		}
	}
}

// TestSubnormalQuotient: with ε = 1 (no floor), T = (5e-324, 0.7) and
// S = MaxFloat64, job 0's share T₀/ΣT·S ≈ 1.27e-15; the quotient
// T₀/ΣT ≈ 7.1e-324 rounds to a single subnormal unit (30% off) if formed
// first. The exact value comes from math/big.
func TestSubnormalQuotient(t *testing.T) {
	t.Parallel()
	remaining := []float64{5e-324, 0.7}
	got, err := fairness.Allocate(nil, remaining, math.MaxFloat64, 2, 1, nil)
	exact := new(big.Rat).Mul(testutil.Rat(remaining[0]), testutil.Rat(math.MaxFloat64))
	exact.Quo(exact, testutil.RatSum(remaining))
	want := []float64{testutil.RatFloat(exact), math.MaxFloat64}
	if err != nil || !nearlyEqual(got, want, 1e-12) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
}

// TestCaseToleranceBand: S a hair (within alloc.CaseTolerance) above
// Σmax{f, V_i} took case 1, whose fill then ran out of jobs and left
// ΣS_i < S — 8 192 slots short at S = 2^53 (found by testSlotsMagnitudes
// with remaining (0, 0, 1), ε = 9.09e-13). The shares max{f, V_i} are now
// scaled up to sum to S: with ε = 1 and β = 2 that is T_i/ΣT·S. (Handing
// the band to case 2 instead put shares an ulp below V_i, on the kink of
// μ = min{S_i, T_i}: TestTheorem2's seed TestTheorem2-20261124115209-21668.)
func TestCaseToleranceBand(t *testing.T) {
	t.Parallel()
	slots := 3 * (1 + 5e-13)
	got, err := fairness.Allocate(nil, []float64{1, 2}, slots, 2, 1, nil)
	if want := []float64{slots / 3, slots / 3 * 2}; err != nil || !nearlyEqual(got, want, 1e-15) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
	const s = 1<<53 - 8
	ints, err := fairness.AllocateSlots(nil, []float64{0, 0, 1}, s, 1.01, 9.094947017729282e-13, nil)
	if want := []int{0, 0, s}; err != nil || !slices.Equal(ints, want) {
		t.Fatalf("AllocateSlots: got %v, %v; want %v", ints, err, want)
	}
}

// TestSlotsNearMaxCount is issue 17's fairness reproducer and two the
// magnitude properties found: near 2^53 the real shares are integers (or
// halves) whose floors can sum past slots, or short of it with every
// fractional part 0, and the shared apportionment overshot (Σ = slots + 1)
// or gave a finished job a slot.
func TestSlotsNearMaxCount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		remaining []float64
		slots     int
		beta, eps float64
		want      []int
	}{
		// f = 0.5·(2^53−4)/2 = 2^51 − 1, exactly; case 2 with job 0 at the
		// floor, job 1 gets S − f = 3·2^51 − 3: both exact integers.
		{"issue 17", []float64{0.15598929136636241, 4}, 1<<53 - 4, 1.5, 0.5, []int{1<<51 - 1, 3<<51 - 3}},
		// Three equal jobs share S = 2^53 − 7 equally (case 2, m₂ = 0):
		// ⌊S/3⌋ each, the one unit left to the first by index.
		{"equal subnormal jobs", []float64{5e-324, 5e-324, 5e-324, 0}, 1<<53 - 7, 1.01, 0.1,
			[]int{(1<<53-7)/3 + 1, (1<<53 - 7) / 3, (1<<53 - 7) / 3, 0}},
	}
	for _, tc := range cases {
		got, err := fairness.AllocateSlots(nil, tc.remaining, tc.slots, tc.beta, tc.eps, nil)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestSummarizeOverflow is issue 17's check.Summarize reproducer in
// fairness: the two accumulators' sum overflowed where the running sum
// does not, and a zero summary came back with a nil error. By hand: N = 3,
// f = 1/6, no V ≤ f (m₁ = 0), case 1: everyone gets 1/6 and the ½ left
// tops up the smallest active jobs in index order — job 1 (T = 2^969).
func TestSummarizeOverflow(t *testing.T) {
	t.Parallel()
	remaining := []float64{math.MaxFloat64, 0x1p969, 0, 0x1p969}
	got, err := fairness.Allocate(nil, remaining, 1, 2, 0.5, nil)
	if want := []float64{1.0 / 6, 2.0 / 3, 0, 1.0 / 6}; err != nil || !nearlyEqual(got, want, 1e-15) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
}

// TestDstOverlap: a dst that would be reused (capacity ≥ n) and shares
// memory with remaining is rejected with dst and remaining untouched; one
// that ends where remaining starts, or is too small to be reused (even if it
// starts inside remaining), is fine.
func TestDstOverlap(t *testing.T) {
	t.Parallel()
	input := []float64{3, 1, 2, 2}
	want, err := fairness.Allocate(nil, input, 4, 2, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantInts, err := fairness.AllocateSlots(nil, input, 4, 2, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	isDstError := func(err error) bool {
		var ie *specsched.InputError
		return errors.As(err, &ie) && ie.Field == "dst" && ie.Index == -1
	}

	buf := make([]float64, 10)
	remaining := buf[4:8]
	copy(remaining, input)
	for _, dst := range [][]float64{remaining, buf[2:2:10], buf[5:5]} {
		before := slices.Clone(buf)
		got, err := fairness.Allocate(dst, remaining, 4, 2, 0.5, nil)
		if !isDstError(err) || got != nil || !slices.Equal(before, buf) {
			t.Errorf("overlapping dst: got %v, %v, buffer %v → %v; want an InputError on dst", got, err, before, buf)
		}
	}
	for _, dst := range [][]float64{buf[0:0:4], buf[7:7]} {
		got, err := fairness.Allocate(dst, remaining, 4, 2, 0.5, nil)
		if err != nil || !slices.Equal(got, want) || !slices.Equal(remaining, input) {
			t.Errorf("disjoint dst: got %v, %v; want %v", got, err, want)
		}
	}

	// An []int dst over remaining's memory (only unsafe can build one).
	ints := unsafe.Slice((*int)(unsafe.Pointer(unsafe.SliceData(remaining))), len(remaining))
	if got, err := fairness.AllocateSlots(ints, remaining, 4, 2, 0.5, nil); !isDstError(err) || got != nil || !slices.Equal(remaining, input) {
		t.Errorf("AllocateSlots, overlapping dst: got %v, %v; want an InputError on dst", got, err)
	}
	if got, err := fairness.AllocateSlots(make([]int, 0, 4), remaining, 4, 2, 0.5, nil); err != nil || !slices.Equal(got, wantInts) {
		t.Errorf("AllocateSlots, disjoint dst: got %v, %v; want %v", got, err, wantInts)
	}

}

// TestInputChecks: every documented rejection, with the field and job
// index it names, dst untouched and no result; and the accepted edges.
func TestInputChecks(t *testing.T) {
	t.Parallel()
	type call struct {
		name      string
		remaining []float64
		slots     float64
		intSlots  int
		beta, eps float64
		index     int
		field     string
	}
	rejected := []call{
		{"ε < 0", []float64{1}, 1, 1, 1.5, -0x1p-1074, -1, "eps"},
		{"ε > 1", []float64{1}, 1, 1, 1.5, 1 + 0x1p-52, -1, "eps"},
		{"ε NaN", []float64{1}, 1, 1, 1.5, math.NaN(), -1, "eps"},
		{"ε +Inf", []float64{1}, 1, 1, 1.5, math.Inf(1), -1, "eps"},
		{"β = 1", []float64{1}, 1, 1, 1, 0.1, -1, "beta"},
		{"β NaN", []float64{1}, 1, 1, math.NaN(), 0.1, -1, "beta"},
		{"β +Inf", []float64{1}, 1, 1, math.Inf(1), 0.1, -1, "beta"},
		{"T negative", []float64{1, -5e-324}, 1, 1, 1.5, 0.1, 1, "remaining"},
		{"T +Inf", []float64{math.Inf(1), 1}, 1, 1, 1.5, 0.1, 0, "remaining"},
		{"T NaN", []float64{1, 1, math.NaN()}, 1, 1, 1.5, 0.1, 2, "remaining"},
		{"ΣV overflows at job 1", []float64{math.MaxFloat64, math.MaxFloat64}, 1, 1, 2, 0.1, 1, "remaining"},
		{"V₀ = (2/β)·T₀ overflows", []float64{math.MaxFloat64}, 1, 1, 1.5, 0.1, 0, "remaining"},
		{"ΣT fits, ΣV overflows at job 1", []float64{math.MaxFloat64 / 2, math.MaxFloat64 / 2}, 1, 1, 1.5, 0.1, 1, "remaining"},
	}
	realOnly := []call{
		{"S < 0", []float64{1}, -5e-324, 0, 1.5, 0.1, -1, "slots"},
		{"S NaN", []float64{1}, math.NaN(), 0, 1.5, 0.1, -1, "slots"},
		{"S +Inf", []float64{1}, math.Inf(1), 0, 1.5, 0.1, -1, "slots"},
	}
	intOnly := []call{
		{"slots < 0", []float64{1}, 0, -1, 1.5, 0.1, -1, "slots"},
		{"slots > alloc.MaxTotal", []float64{1}, 0, alloc.MaxTotal + 1, 1.5, 0.1, -1, "slots"},
	}
	check := func(name string, got any, err error, index int, field string, untouched bool) {
		t.Helper()
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != index || ie.Field != field || !untouched {
			t.Errorf("%s: got %v, %v; want an InputError for job %d field %q, dst untouched", name, got, err, index, field)
		}
	}
	for _, tc := range slices.Concat(rejected, realOnly) {
		before := slices.Clone(tc.remaining)
		dst := []float64{7}
		got, err := fairness.Allocate(dst, tc.remaining, tc.slots, tc.beta, tc.eps, nil)
		check("Allocate: "+tc.name, got, err, tc.index, tc.field, got == nil && dst[0] == 7 && cmp.Equal(before, tc.remaining, cmp.Comparer(sameFloat)))
	}
	for _, tc := range slices.Concat(rejected, intOnly) {
		dst := []int{7}
		got, err := fairness.AllocateSlots(dst, tc.remaining, tc.intSlots, tc.beta, tc.eps, nil)
		check("AllocateSlots: "+tc.name, got, err, tc.index, tc.field, got == nil && dst[0] == 7)
	}

	// The edges that are accepted.
	if got, err := fairness.AllocateSlots(nil, []float64{1}, alloc.MaxTotal, 1.5, 0.1, nil); err != nil || !slices.Equal(got, []int{alloc.MaxTotal}) {
		t.Errorf("slots = alloc.MaxTotal: got %v, %v", got, err)
	}
	// −0: a finished job (+0 share), and ε = −0 is ε = 0.
	if got, err := fairness.Allocate(nil, []float64{math.Copysign(0, -1), 2, 6}, 8, 2, math.Copysign(0, -1), nil); err != nil ||
		!slices.Equal(got, []float64{0, 4, 4}) || math.Signbit(got[0]) {
		t.Errorf("−0: got %v, %v; want [0 4 4]", got, err)
	}
	// ΣV at exactly MaxFloat64 is accepted: the one job gets S. (At
	// ε = 0.625 the floor f = 0.375·S and the top-up S − f, both rounded,
	// summed past MaxFloat64 to +Inf: found by testMagnitudes.)
	for _, eps := range []float64{0.5, 0.625} {
		if got, err := fairness.Allocate(nil, []float64{math.MaxFloat64}, math.MaxFloat64, 2, eps, nil); err != nil || got[0] != math.MaxFloat64 {
			t.Errorf("T = S = MaxFloat64, ε = %g: got %v, %v", eps, got, err)
		}
	}
}

// TestVirtualTotalRounding: (2/β)·ΣT rounds past MaxFloat64 while the sum
// the algorithm forms, Σ(2/β)·T_i in index order, does not (found by a
// search over T₀ + T₁ ≈ MaxFloat64·β/2): the snapshot is accepted and
// allocated exactly, for S on both sides of ΣV.
func TestVirtualTotalRounding(t *testing.T) {
	t.Parallel()
	remaining := []float64{8.845383532956631e+307, 4.637314978510739e+307}
	c := 2 / 1.5
	if !math.IsInf(c*(remaining[0]+remaining[1]), 1) || math.IsInf(c*remaining[0]+c*remaining[1], 1) {
		t.Fatalf("the instance no longer straddles the rounding")
	}
	for _, slots := range []float64{1e308, math.MaxFloat64} {
		got, err := fairness.Allocate(nil, remaining, slots, 1.5, 0.5, nil)
		if err != nil {
			t.Fatalf("S = %g: %v", slots, err)
		}
		testutil.CheckFairExact(t, got, remaining, slots, 1.5, 0.5)
	}
}

// sameFloat compares floats bit for bit (NaN equals NaN).
func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
