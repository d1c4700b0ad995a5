package alloc_test

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// The reproducers of issues 11 and 17 for package alloc, each checked
// against a hand count or an independent computation.

// TestAllocateSlotsNearMaxTotal: near 2^53 the real shares ≥ 2^52 are
// integers and their floors summed past slots; the apportionment returned
// early and Σ was slots + 1 (issue 17). Σ must be slots, and every job
// within one slot of its real share (referenceAllocate, the sorted
// Algorithm 1).
func TestAllocateSlotsNearMaxTotal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		remaining []float64
		slots     int
		beta      float64
	}{
		{[]float64{1, 2, 5.296767113215933e-05}, 1 << 53, 3},
		{[]float64{3, 1, 2.371901274344719e-14}, 1<<53 - 3, 1.1},
	}
	for _, c := range cases {
		got, err := alloc.AllocateSlots(nil, c.remaining, c.slots, c.beta, nil)
		if err != nil {
			t.Fatalf("AllocateSlots(%v, %d, %g): %v", c.remaining, c.slots, c.beta, err)
		}
		if s := sumOf(got); s != c.slots {
			t.Errorf("AllocateSlots(%v, %d, %g) = %v, Σ = %d, want %d", c.remaining, c.slots, c.beta, got, s, c.slots)
		}
		real := referenceAllocate(c.remaining, float64(c.slots), c.beta)
		for i, x := range got {
			if math.Abs(float64(x)-real[i]) > 1 {
				t.Errorf("job %d: %d slots for real share %v", i, x, real[i])
			}
		}
	}
}

// TestApportionWithinTolerance: shares that sum to total only within
// ShareSumTolerance — a unit or more off — must still give Σdst = total
// (issue 17): the difference is taken back or given out unit by unit,
// lowest-ranked unit first (hand counts).
func TestApportionWithinTolerance(t *testing.T) {
	t.Parallel()
	cases := []struct {
		shares []float64
		total  int
		want   []int
	}{
		{[]float64{1e9 + 1}, 1e9, []int{1e9}},
		{[]float64{2e9 - 2}, 2e9, []int{2e9}},
		// 9e6 too many: 4.5e6 whole rounds, one unit from each job a round.
		{[]float64{1 << 52, 1<<52 + 9e6}, 1 << 53, []int{1<<52 - 4.5e6, 1<<52 + 4.5e6}},
		// 2 short with a zero share: both units to the one positive share.
		{[]float64{0, 2e9 - 2}, 2e9, []int{0, 2e9}},
	}
	for _, c := range cases {
		got, err := alloc.Apportion(nil, c.shares, c.total, nil, nil)
		if err != nil {
			t.Fatalf("Apportion(%v, %d): %v", c.shares, c.total, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Apportion(%v, %d) = %v, want %v", c.shares, c.total, got, c.want)
		}
	}
}

// TestAllocatePairwiseSumOverflow: the running sum of {MaxFloat64, 2^969,
// 0, 2^969} is MaxFloat64, but validation's two accumulators overflowed
// and returned a zero summary with a nil error, and every job got 0
// (issue 17). At S = 1, β = 2 (V = T): the smallest positive T is 2^969,
// held by jobs 1 and 3, and the one slot goes to the first of them.
func TestAllocatePairwiseSumOverflow(t *testing.T) {
	t.Parallel()
	r := []float64{math.MaxFloat64, 0x1p969, 0, 0x1p969}
	got, err := alloc.Allocate(nil, r, 1, 2, nil)
	if want := []float64{0, 1, 0, 0}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Allocate(%v, 1, 2) = %v, %v; want %v", r, got, err, want)
	}
	slots, err := alloc.AllocateSlots(nil, r, 1, 2, nil)
	if want := []int{0, 1, 0, 0}; err != nil || !slices.Equal(slots, want) {
		t.Errorf("AllocateSlots(%v, 1, 2) = %v, %v; want %v", r, slots, err, want)
	}
}

// TestAllocateUnderflow: T_0/ΣT = 1e-400 underflowed to 0 before the
// product with S = 1e300, and job 0 lost its share 1e-100 (issue 17); a
// −0 T_i gave a −0 share. Every share is compared with math/big's exact
// T_i·S/ΣT (the shares here are far from rounding to anything else).
func TestAllocateUnderflow(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	cases := []struct {
		remaining []float64
		slots     float64
	}{
		{[]float64{1e-200, 1e200}, 1e300},
		{[]float64{5e-324, 1}, math.MaxFloat64 / 4}, // 2^-1074 · 2^1021.99…: normal
		{[]float64{0x1p-1074, 0x1p-1073, 1}, 0x1p1000},
		{[]float64{1e-300, 1e300, 1e-300}, 1e300},
		{[]float64{1, 1e-310}, 1e10},
		{[]float64{negZero, 1, negZero}, 3},
	}
	for _, c := range cases {
		got, err := alloc.Allocate(nil, c.remaining, c.slots, 2, nil)
		if err != nil {
			t.Fatalf("Allocate(%v, %g): %v", c.remaining, c.slots, err)
		}
		total := new(big.Float).SetPrec(200)
		for _, x := range c.remaining {
			total.Add(total, big.NewFloat(x))
		}
		for i, x := range c.remaining {
			exact := new(big.Float).SetPrec(200).Mul(big.NewFloat(x), big.NewFloat(c.slots))
			exact.Quo(exact, total)
			want, _ := exact.Float64()
			if math.Abs(got[i]-want) > 1e-15*want || math.Signbit(got[i]) {
				t.Errorf("Allocate(%v, %g): job %d gets %v, exact %v", c.remaining, c.slots, i, got[i], want)
			}
		}
	}
}

// TestModelOverflow: results beyond MaxFloat64 came back as +Inf with a
// nil error (issue 17); they are InputErrors now. Each exact value is far
// beyond float64's range: 1e300/1e-300, 1/2^-1074, 2^50·1e300 (slope
// β²/(4(β−1)) with β − 1 = 2^-52), (4/3)·MaxFloat64.
func TestModelOverflow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		call func() (float64, error)
	}{
		{"SpeculationLevel(1e-300, 1e300, 1.5)", func() (float64, error) { return alloc.SpeculationLevel(1e-300, 1e300, 1.5) }},
		{"SpeculationLevel(5e-324, 1, 1.5)", func() (float64, error) { return alloc.SpeculationLevel(5e-324, 1, 1.5) }},
		{"Throughput(1e300, 1e300, 1+2^-52)", func() (float64, error) { return alloc.Throughput(1e300, 1e300, math.Nextafter(1, 2)) }},
		{"VirtualSize(MaxFloat64, 1.5)", func() (float64, error) { return alloc.VirtualSize(math.MaxFloat64, 1.5) }},
		{"TotalThroughput one job", func() (float64, error) {
			return alloc.TotalThroughput([]float64{1, 1e300}, []float64{1, 1e300}, math.Nextafter(1, 2))
		}},
		{"TotalThroughput the sum", func() (float64, error) {
			return alloc.TotalThroughput([]float64{math.MaxFloat64, math.MaxFloat64}, []float64{math.MaxFloat64, math.MaxFloat64}, 2)
		}},
	}
	for _, c := range cases {
		v, err := c.call()
		var ie *specsched.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Reason, "overflows") {
			t.Errorf("%s = %v, %v; want an InputError: the result overflows", c.name, v, err)
		}
	}
	// The job is named: job 1's μ overflows, then the sum at job 1.
	_, err := alloc.TotalThroughput([]float64{1, 1e300}, []float64{1, 1e300}, math.Nextafter(1, 2))
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Index != 1 {
		t.Errorf("TotalThroughput: %v, want job 1 named", err)
	}
	_, err = alloc.TotalThroughput([]float64{math.MaxFloat64, math.MaxFloat64}, []float64{math.MaxFloat64, math.MaxFloat64}, 2)
	if !errors.As(err, &ie) || ie.Index != 1 {
		t.Errorf("TotalThroughput: %v, want job 1 named", err)
	}
	// Just inside the range: the largest results are returned.
	if v, err := alloc.VirtualSize(math.MaxFloat64, 2); err != nil || v != math.MaxFloat64 {
		t.Errorf("VirtualSize(MaxFloat64, 2) = %v, %v", v, err)
	}
	if v, err := alloc.SpeculationLevel(1, math.MaxFloat64, 1.5); err != nil || v != math.MaxFloat64 {
		t.Errorf("SpeculationLevel(1, MaxFloat64, 1.5) = %v, %v", v, err)
	}
}

// TestTotalThroughputSums: TotalThroughput is Σ_i μ_i — the sum of
// Throughput calls, and eq. 3.1 job by job (testutil.Throughput, from the
// Pareto order statistic, not eq. 3.3). For two equal jobs at β = 2 the
// total is 2 (a `total =` in place of `total +=` gives 1).
func TestTotalThroughputSums(t *testing.T) {
	t.Parallel()
	if got, err := alloc.TotalThroughput([]float64{1, 1}, []float64{1, 1}, 2); err != nil || got != 2 {
		t.Errorf("TotalThroughput([1 1], [1 1], 2) = %v, %v; want 2", got, err)
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 20).Draw(t, "n")
		remaining := rapid.SliceOfN(rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(0.01, 100)), n, n).Draw(t, "remaining")
		slots := rapid.SliceOfN(rapid.Float64Range(0, 300), n, n).Draw(t, "slots")
		beta := rapid.Float64Range(1.01, 3).Draw(t, "beta")
		got, err := alloc.TotalThroughput(remaining, slots, beta)
		if err != nil {
			t.Fatalf("TotalThroughput: %v", err)
		}
		var calls float64
		for i := range remaining {
			mu, err := alloc.Throughput(remaining[i], slots[i], beta)
			if err != nil {
				t.Fatalf("Throughput: %v", err)
			}
			calls += mu
		}
		if got != calls {
			t.Fatalf("TotalThroughput = %v, Σ Throughput = %v", got, calls)
		}
		if want := testutil.Total(remaining, slots, beta); !closeTo(got, want, modelTol) {
			t.Fatalf("TotalThroughput = %v, eq. 3.1 gives %v", got, want)
		}
	})
}

// TestAliasedDst: a dst that would be reused and shares memory with an
// input is rejected (the library's rule, check.Disjoint), with dst and the
// inputs untouched. Unaliased, Allocate({3, 1, 2, 2}, S = 4, β = 2) is
// [0 1 2 1] (smallest first: job 1 its 1, jobs 2 and 3 tie at 2 and the
// first of them takes 2, the other the last 1); aliased it was [0 1 0 0]
// (issue 17).
func TestAliasedDst(t *testing.T) {
	t.Parallel()
	r := []float64{3, 1, 2, 2}
	if got, err := alloc.Allocate(nil, r, 4, 2, nil); err != nil || !slices.Equal(got, []float64{0, 1, 2, 1}) {
		t.Fatalf("unaliased: %v, %v", got, err)
	}
	orig := slices.Clone(r)
	floats := []float64{3, 1, 2, 2, 7, 7}
	origFloats := slices.Clone(floats)
	ints := make([]int, 4)
	// An []int dst over the same memory as a []float64 input (only
	// possible through unsafe; detected all the same).
	intsOver := intsView(floats)
	cases := []struct {
		name  string
		call  func() error
		input []float64
		was   []float64
	}{
		{"Allocate dst = remaining", func() error { _, err := alloc.Allocate(r, r, 4, 2, nil); return err }, r, orig},
		{"Allocate dst inside remaining", func() error { _, err := alloc.Allocate(floats[2:2], floats[:4], 4, 2, nil); return err }, floats, origFloats},
		{"AllocateSlots", func() error { _, err := alloc.AllocateSlots(intsOver[:0], floats[:4], 4, 2, nil); return err }, floats, origFloats},
		{"Apportion dst over shares", func() error {
			_, err := alloc.Apportion(intsOver[:0], floats[:4], 8, nil, nil)
			return err
		}, floats, origFloats},
		{"Apportion dst over priority", func() error {
			_, err := alloc.Apportion(intsOver[:0], []float64{1, 1, 1, 1}, 4, floats[:4], nil)
			return err
		}, floats, origFloats},
	}
	for _, c := range cases {
		err := c.call()
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "dst" {
			t.Errorf("%s: %v, want an InputError on dst", c.name, err)
		}
		if !slices.Equal(c.input, c.was) {
			t.Errorf("%s: input changed to %v", c.name, c.input)
		}
	}
	// Disjoint memory, even adjacent, is fine; so is a dst too small to be
	// reused.
	if _, err := alloc.Apportion(ints, []float64{1, 1, 1, 1}, 4, nil, nil); err != nil {
		t.Errorf("Apportion unaliased: %v", err)
	}
	if got, err := alloc.Allocate(floats[4:4], floats[:4], 4, 2, nil); err != nil || !slices.Equal(got, []float64{0, 1, 2, 1}) {
		t.Errorf("Allocate with dst right after remaining: %v, %v", got, err)
	}
	if got, err := alloc.Allocate(r[:0:1], r, 4, 2, nil); err != nil || !slices.Equal(got, []float64{0, 1, 2, 1}) {
		t.Errorf("Allocate with a dst too small to reuse: %v, %v", got, err)
	}
}

// TestWorkspaceOpaque: alloc.Workspace exposes no field and no method (issue
// 12): a caller can only declare one and pass it, so it can neither read
// the scratch of one call as the input of the next nor reach the internal
// operations. (It replaces a test that remaining = the once-exported
// ws.Shares was left alone.)
func TestWorkspaceOpaque(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[alloc.Workspace]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.IsExported() {
			t.Errorf("alloc.Workspace has the exported field %s", f.Name)
		}
	}
	if n := reflect.PointerTo(typ).NumMethod(); n != 0 {
		t.Errorf("*alloc.Workspace has %d exported methods, want none", n)
	}
}

// intsView is the memory of xs seen as []int (same size on 64-bit
// platforms): a dst that overlaps a []float64 input, for the aliasing tests.
func intsView(xs []float64) []int {
	return unsafe.Slice((*int)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs))
}

// TestInputBoundaries: every documented bound, on both sides — 2^53 =
// MaxTotal accepted and 2^53 + 1 rejected (Apportion's total,
// AllocateSlots' slots); Σshares exactly ShareSumTolerance·total from total
// accepted, a unit more rejected; β = MaxFloat64 and the float just above 1
// accepted, β = 1 rejected.
func TestInputBoundaries(t *testing.T) {
	t.Parallel()
	if got, err := alloc.Apportion(nil, []float64{1 << 53}, alloc.MaxTotal, nil, nil); err != nil || !slices.Equal(got, []int{1 << 53}) {
		t.Errorf("Apportion({2^53}, 2^53) = %v, %v", got, err)
	}
	if got, err := alloc.AllocateSlots(nil, []float64{1, 3}, alloc.MaxTotal, 2, nil); err != nil || !slices.Equal(got, []int{1 << 51, 3 << 51}) {
		t.Errorf("AllocateSlots({1, 3}, 2^53, 2) = %v, %v; want [2^51 3·2^51]", got, err)
	}
	rejected := []struct {
		name, field string
		call        func() error
	}{
		{"Apportion total 2^53+1", "total", func() error {
			_, err := alloc.Apportion(nil, []float64{1<<53 + 2}, alloc.MaxTotal+1, nil, nil)
			return err
		}},
		{"AllocateSlots slots 2^53+1", "slots", func() error {
			_, err := alloc.AllocateSlots(nil, []float64{1}, alloc.MaxTotal+1, 2, nil)
			return err
		}},
		{"AllocateSlots slots -1", "slots", func() error {
			_, err := alloc.AllocateSlots(nil, []float64{1}, -1, 2, nil)
			return err
		}},
		{"Apportion Σ a unit past the tolerance", "sum(shares)", func() error {
			_, err := alloc.Apportion(nil, []float64{1e9 + 2}, 1e9, nil, nil)
			return err
		}},
		{"VirtualSize β = 1", "beta", func() error { _, err := alloc.VirtualSize(1, 1); return err }},
	}
	for _, c := range rejected {
		var ie *specsched.InputError
		if err := c.call(); !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("%s: %v, want an InputError on %s", c.name, err, c.field)
		}
	}
	// Exactly at the tolerance: |Σ − total| = 1e-9·1e9 = 1.
	if got, err := alloc.Apportion(nil, []float64{1e9 - 1}, 1e9, nil, nil); err != nil || !slices.Equal(got, []int{1e9}) {
		t.Errorf("Apportion({1e9 − 1}, 1e9) = %v, %v", got, err)
	}
	for _, beta := range []float64{math.MaxFloat64, math.Nextafter(1, 2)} {
		if v, err := alloc.VirtualSize(3, beta); err != nil || v != 2/beta*3 && !(beta >= 2 && v == 3) {
			t.Errorf("VirtualSize(3, %v) = %v, %v", beta, v, err)
		}
	}
}

// TestAllocateVirtualTotalOverflow: ΣV_i = (2/β)·ΣT_i may overflow where
// ΣT_i does not; the snapshot was rejected, but its answer exists — the
// constrained case, ΣV > MaxFloat64 ≥ S — and is returned: smallest T
// first, V_1 = (4/3)·5e307 to job 1 and the rest of S to job 0; a single
// job of T = MaxFloat64 takes all of S.
func TestAllocateVirtualTotalOverflow(t *testing.T) {
	t.Parallel()
	got, err := alloc.Allocate(nil, []float64{1e308, 5e307}, 1e308, 1.5, nil)
	v1 := 2 / 1.5 * 5e307
	if want := []float64{1e308 - v1, v1}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Allocate({1e308, 5e307}, 1e308, 1.5) = %v, %v; want %v", got, err, want)
	}
	got, err = alloc.Allocate(nil, []float64{math.MaxFloat64}, 4, 1.5, nil)
	if err != nil || !slices.Equal(got, []float64{4}) {
		t.Errorf("Allocate({MaxFloat64}, 4, 1.5) = %v, %v; want [4]", got, err)
	}
	slots, err := alloc.AllocateSlots(nil, []float64{math.MaxFloat64, 1}, 4, 1.5, nil)
	if err != nil || !slices.Equal(slots, []int{3, 1}) {
		t.Errorf("AllocateSlots({MaxFloat64, 1}, 4, 1.5) = %v, %v; want [3 1]", slots, err)
	}
}

// TestCaseBoundary: at ΣV = S·(1 − CaseTolerance) exactly (in float64) the
// case is the constrained one, as documented — every job gets V_i —
// and one ulp of S·(1 − CaseTolerance) above ΣV it is the proportional one,
// S_i = T_i/ΣT·S. One job of T = 1 at β = 2 (V = T): S is found by
// stepping through the floats around 1/(1 − CaseTolerance).
func TestCaseBoundary(t *testing.T) {
	t.Parallel()
	slots := 1 / (1 - alloc.CaseTolerance)
	for range 64 {
		if slots*(1-alloc.CaseTolerance) < 1 {
			slots = math.Nextafter(slots, 2)
		} else if slots*(1-alloc.CaseTolerance) > 1 {
			slots = math.Nextafter(slots, 0)
		}
	}
	if slots*(1-alloc.CaseTolerance) != 1 {
		t.Fatalf("no S with S·(1 − CaseTolerance) = 1 near %v", slots)
	}
	if got, err := alloc.Allocate(nil, []float64{1}, slots, 2, nil); err != nil || !slices.Equal(got, []float64{1}) {
		t.Errorf("Allocate({1}, %v, 2) = %v, %v; want [1] (constrained: V)", slots, got, err)
	}
	above := slots
	for above*(1-alloc.CaseTolerance) <= 1 {
		above = math.Nextafter(above, 2)
	}
	if got, err := alloc.Allocate(nil, []float64{1}, above, 2, nil); err != nil || !slices.Equal(got, []float64{above}) {
		t.Errorf("Allocate({1}, %v, 2) = %v, %v; want [%v] (proportional: S)", above, got, err, above)
	}
}

// TestNegativeZeroShares: a T_i of −0 is accepted as 0 and gets +0 in
// every path of Algorithm 1 — proportional, constrained with a cut-off, and
// constrained where rounding leaves the fill a hair short of S (ΣV = 1
// within CaseTolerance of S = 1 + 1e-13: every job gets V_i).
func TestNegativeZeroShares(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	for _, slots := range []float64{3, 0.5, 1 + 1e-13} {
		got, err := alloc.Allocate(nil, []float64{negZero, 1, negZero}, slots, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{0, min(slots, 1), 0}
		if slots > 1+alloc.CaseTolerance {
			want[1] = slots
		}
		if !slices.Equal(got, want) || math.Signbit(got[0]) || math.Signbit(got[2]) {
			t.Errorf("Allocate({−0, 1, −0}, %v, 2) = %v, want %v with +0s", slots, got, want)
		}
	}
}

// TestModelSignedZero: −0 arguments are accepted as 0 and every result is
// +0, never −0 (VirtualSize of T = −0; Throughput with S_i = −0, on both
// sides of β = 2; the total of such throughputs).
func TestModelSignedZero(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	results := map[string]func() (float64, error){
		"VirtualSize(−0, 1.5)":   func() (float64, error) { return alloc.VirtualSize(negZero, 1.5) },
		"VirtualSize(−0, 3)":     func() (float64, error) { return alloc.VirtualSize(negZero, 3) },
		"Throughput(1, −0, 3)":   func() (float64, error) { return alloc.Throughput(1, negZero, 3) },
		"Throughput(1, −0, 1.5)": func() (float64, error) { return alloc.Throughput(1, negZero, 1.5) },
		"TotalThroughput":        func() (float64, error) { return alloc.TotalThroughput([]float64{1}, []float64{negZero}, 3) },
	}
	for name, call := range results {
		if v, err := call(); err != nil || v != 0 || math.Signbit(v) {
			t.Errorf("%s = %v, %v; want +0", name, v, err)
		}
	}
}

// TestMaxTotalIsMaxExact: the test generators' count bound (testutil, which
// does not import alloc) is the one Apportion documents.
func TestMaxTotalIsMaxExact(t *testing.T) {
	if alloc.MaxTotal != testutil.MaxExact {
		t.Fatalf("alloc.MaxTotal = %d, testutil.MaxExact = %d", alloc.MaxTotal, testutil.MaxExact)
	}
}
