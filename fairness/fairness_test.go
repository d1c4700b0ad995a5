package fairness_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/testutil"
)

// sumTol is the relative tolerance for ΣS_i = S and for comparing
// allocations computed along different summation orders.
const sumTol = 1e-9

// kktTol is the relative tolerance on the KKT multiplier interval.
const kktTol = 1e-9

func closeTo(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

type fairSnapshot struct {
	testutil.Snapshot
	Eps float64
}

func fairGen(maxJobs int) *rapid.Generator[fairSnapshot] {
	return rapid.Custom(func(t *rapid.T) fairSnapshot {
		s := testutil.SnapshotGen(maxJobs).Draw(t, "s")
		eps := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.1, 0.5, 1})).Draw(t, "eps")
		return fairSnapshot{Snapshot: s, Eps: eps}
	})
}

func mustAllocate(t *rapid.T, s fairSnapshot) []float64 {
	got, err := fairness.Allocate(nil, s.Remaining, s.Slots, s.Beta, s.Eps, nil)
	if err != nil {
		t.Fatalf("Allocate(%v, %g, %g, %g): %v", s.Remaining, s.Slots, s.Beta, s.Eps, err)
	}
	return got
}

// floors returns each job's fairness floor (1−ε)S/N, 0 for finished jobs.
func floors(s fairSnapshot) []float64 {
	active := 0
	for _, r := range s.Remaining {
		if r > 0 {
			active++
		}
	}
	out := make([]float64, len(s.Remaining))
	for i, r := range s.Remaining {
		if r > 0 {
			out[i] = (1 - s.Eps) * s.Slots / float64(active)
		}
	}
	return out
}

// testMatchesReference: the selection-based implementation gives the
// thesis's allocation, and leaves its input alone.
func testMatchesReference(t *rapid.T) {
	s := fairGen(50).Draw(t, "s")
	before := slices.Clone(s.Remaining)
	var ws fairness.Workspace
	got, err := fairness.Allocate(nil, s.Remaining, s.Slots, s.Beta, s.Eps, &ws)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	if diff := cmp.Diff(before, s.Remaining); diff != "" {
		t.Fatalf("Allocate modified remaining:\n%s", diff)
	}
	want := testutil.FairReference(s.Remaining, s.Slots, s.Beta, s.Eps)
	for i := range want {
		if !closeTo(got[i], want[i], sumTol*max(1, s.Slots)) {
			t.Fatalf("job %d: got %v, thesis reference %v (remaining %v, S %g, β %g, ε %g)", i, got, want, s.Remaining, s.Slots, s.Beta, s.Eps)
		}
	}
}

func TestMatchesReference(t *testing.T) { t.Parallel(); rapid.Check(t, testMatchesReference) }

// testTheorem2: every active job gets at least (1−ε)S/N, finished jobs get
// nothing, ΣS_i = S, and the allocation satisfies the KKT conditions of
// max Σμ_i s.t. ΣS_i = S, S_i ≥ (1−ε)S/N — throughput maximal among ε-fair
// allocations.
func testTheorem2(t *rapid.T) {
	s := fairGen(50).Draw(t, "s")
	got := mustAllocate(t, s)
	floor := floors(s)
	var sum float64
	for i, x := range got {
		if x < floor[i]*(1-sumTol) || math.IsInf(x, 0) || math.IsNaN(x) {
			t.Fatalf("job %d gets %g, below its floor %g", i, x, floor[i])
		}
		if s.Remaining[i] == 0 && x != 0 {
			t.Fatalf("finished job %d gets %g", i, x)
		}
		sum += x
	}
	want := 0.0
	if slices.ContainsFunc(s.Remaining, func(r float64) bool { return r > 0 }) {
		want = s.Slots
	}
	if !closeTo(sum, want, sumTol) {
		t.Fatalf("ΣS_i = %.17g, want %.17g", sum, want)
	}
	if err := testutil.KKT(s.Remaining, got, testutil.Betas(len(got), s.Beta), nil, floor, kktTol); err != nil {
		t.Fatalf("Theorem 2: %v\nremaining %v S %g β %g ε %g\nallocation %v", err, s.Remaining, s.Slots, s.Beta, s.Eps, got)
	}
}

func TestTheorem2(t *testing.T) { t.Parallel(); rapid.Check(t, testTheorem2) }

// testTheorem2Perturbation: moving capacity between jobs without pushing any
// job below its floor never raises the throughput.
func testTheorem2Perturbation(t *rapid.T) {
	s := fairGen(12).Draw(t, "s")
	if len(s.Remaining) < 2 {
		return
	}
	got := mustAllocate(t, s)
	floor := floors(s)
	best := testutil.Total(s.Remaining, got, s.Beta)
	trial := slices.Clone(got)
	for range 20 {
		copy(trial, got)
		from := rapid.IntRange(0, len(got)-1).Draw(t, "from")
		to := rapid.IntRange(0, len(got)-1).Draw(t, "to")
		delta := rapid.Float64Range(0, 1).Draw(t, "fraction") * max(0, got[from]-floor[from])
		trial[from] -= delta
		trial[to] += delta
		if v := testutil.Total(s.Remaining, trial, s.Beta); v > best*(1+1e-12)+1e-12 {
			t.Fatalf("Theorem 2: ε-fair perturbation %v has throughput %.15g > %.15g of %v", trial, v, best, got)
		}
	}
}

func TestTheorem2Perturbation(t *testing.T) { t.Parallel(); rapid.Check(t, testTheorem2Perturbation) }

// TestTheorem2Optimizer: gonum's Nelder–Mead over all ε-fair allocations
// (the floors plus a split of the rest, testutil.MaximizeOnSimplex) finds
// nothing better than Algorithm 2, and gets within 0.1% of it.
func TestTheorem2Optimizer(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 4).Draw(t, "n")
		beta := rapid.Float64Range(1.05, 1.95).Draw(t, "beta")
		eps := rapid.Float64Range(0.05, 0.95).Draw(t, "eps")
		remaining := make([]float64, n)
		for i := range remaining {
			remaining[i] = float64(rapid.IntRange(1, 30).Draw(t, "T"))
		}
		slots := rapid.Float64Range(0.2, 2.5).Draw(t, "slotsPerVirtualTotal") * testutil.VirtualTotal(remaining, beta)
		got := mustAllocate(t, fairSnapshot{Snapshot: testutil.Snapshot{Remaining: remaining, Slots: slots, Beta: beta}, Eps: eps})
		floor := (1 - eps) * slots / float64(n)
		if err := testutil.NoBetterOnSimplex(remaining, beta, floor, slots, testutil.Total(remaining, got, beta)); err != nil {
			t.Fatalf("Theorem 2: %v (allocation %v)", err, got)
		}
	})
}

// testEpsilonEnds: ε = 0 is the Fair scheduler (S/N each active job) and
// ε = 1 is Algorithm 1.
func testEpsilonEnds(t *rapid.T) {
	s := testutil.SnapshotGen(40).Draw(t, "s")
	fair := mustAllocate(t, fairSnapshot{Snapshot: s, Eps: 0})
	floor := floors(fairSnapshot{Snapshot: s, Eps: 0})
	for i := range fair {
		if !closeTo(fair[i], floor[i], sumTol) {
			t.Fatalf("ε = 0: job %d gets %g, want S/N = %g", i, fair[i], floor[i])
		}
	}
	hopper := mustAllocate(t, fairSnapshot{Snapshot: s, Eps: 1})
	want, err := alloc.Allocate(nil, s.Remaining, s.Slots, s.Beta, nil)
	if err != nil {
		t.Fatalf("alloc.Allocate: %v", err)
	}
	for i := range want {
		if !closeTo(hopper[i], want[i], sumTol*max(1, s.Slots)) {
			t.Fatalf("ε = 1: %v, Algorithm 1: %v", hopper, want)
		}
	}
}

func TestEpsilonEnds(t *testing.T) { t.Parallel(); rapid.Check(t, testEpsilonEnds) }

// TestM2Zero pins the case the thesis's "1 ≤ m₂" excludes: when Algorithm 1's
// proportional split is already ε-fair no job is held at the floor. With
// T = (5, 6), S = 100, ε = 0.1: f = 45, the proportional shares 45.45 and
// 54.55 both clear it, so they are the answer; m₂ = 1 would give (45, 55),
// which has less throughput (eq. 3.3: Σ T²/S_i is larger).
func TestM2Zero(t *testing.T) {
	t.Parallel()
	got, err := fairness.Allocate(nil, []float64{5, 6}, 100, 1.5, 0.1, nil)
	want := []float64{500.0 / 11, 600.0 / 11}
	if err != nil || !closeTo(got[0], want[0], 1e-12) || !closeTo(got[1], want[1], 1e-12) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
	forced := []float64{45, 55}
	if a, b := testutil.Total([]float64{5, 6}, got, 1.5), testutil.Total([]float64{5, 6}, forced, 1.5); a <= b {
		t.Fatalf("throughput with m₂ = 0 is %g, with m₂ = 1 it is %g", a, b)
	}
}

// TestWorkedCases checks hand-computed allocations of both cases.
func TestWorkedCases(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		remaining []float64
		slots     float64
		eps       float64
		want      []float64
	}{
		// β = 1.5, T = (1, 3, 12): V = (4/3, 4, 16), S = 12, ε = 0.5: f = 2,
		// m₁ = 1, Σ_{i>1}V + m₁f = 22 ≥ 12: case 1. Floors use 6; the 6 left
		// top up job 2 by V−f = 2 and job 3 by the remaining 4.
		{"case 1", []float64{1, 3, 12}, 12, 0.5, []float64{2, 4, 6}},
		// Same jobs, S = 60: f = 10, m₁ = 2, Σ_{i>2}V + 2f = 36 < 60: case 2.
		// m = 0: 1/16·60 = 3.75 < 10; m = 1: 3/15·50 = 10 ≥ max(10, 4): m₂ = 1.
		// Job 1 gets 10; jobs 2, 3 split 50 as 3:12.
		{"case 2", []float64{1, 3, 12}, 60, 0.5, []float64{10, 10, 40}},
		// A job with V below the floor and S between ΣV = 21⅓ and
		// Σmax{f, V_i} = 23⅔ (S = 22, f = 11/3): case 1 — floors take 11,
		// job 2 tops up to V = 4, job 3 gets the 10⅔ left above its floor.
		// (The water-fill, max{f, g·T_i}, would give 11/3, 11/3, 44/3.)
		{"case 1 above ΣV", []float64{1, 3, 12}, 22, 0.5, []float64{11.0 / 3, 4, 43.0 / 3}},
		// A finished job neither counts in N nor gets slots.
		{"finished job", []float64{0, 1, 3, 12}, 60, 0.5, []float64{0, 10, 10, 40}},
	}
	for _, tc := range cases {
		got, err := fairness.Allocate(nil, tc.remaining, tc.slots, 1.5, tc.eps, nil)
		if err != nil || !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return closeTo(a, b, 1e-12) }) {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// testMonotoneInSlots: each S_i is non-decreasing in S and changes by no more
// than S does — continuous across both case boundaries.
func testMonotoneInSlots(t *rapid.T) {
	s := fairGen(40).Draw(t, "s")
	totalV := testutil.VirtualTotal(s.Remaining, s.Beta)
	lo := rapid.Float64Range(0, 1.5).Draw(t, "lo") * max(totalV, 1)
	hi := lo + rapid.Float64Range(0, 1).Draw(t, "step")*max(totalV, 1)
	s.Slots = lo
	a := mustAllocate(t, s)
	s.Slots = hi
	b := mustAllocate(t, s)
	slack := sumTol * max(1, hi)
	for i := range a {
		if d := b[i] - a[i]; d < -slack || d > hi-lo+slack {
			t.Fatalf("job %d: S_i(%g) = %g, S_i(%g) = %g", i, lo, a[i], hi, b[i])
		}
	}
}

func TestMonotoneInSlots(t *testing.T) { t.Parallel(); rapid.Check(t, testMonotoneInSlots) }

// testScaleAndPermutation: scaling T and S by a power of two scales the
// allocation; permuting jobs with distinct T permutes it.
func testScaleAndPermutation(t *rapid.T) {
	s := fairGen(30).Draw(t, "s")
	base := mustAllocate(t, s)
	scale := math.Ldexp(1, rapid.IntRange(-20, 20).Draw(t, "log2scale"))
	scaled := fairSnapshot{Snapshot: testutil.Snapshot{Slots: s.Slots * scale, Beta: s.Beta}, Eps: s.Eps}
	for _, r := range s.Remaining {
		scaled.Remaining = append(scaled.Remaining, r*scale)
	}
	sc := mustAllocate(t, scaled)
	for i := range base {
		if !closeTo(sc[i], base[i]*scale, sumTol*max(1, scaled.Slots)) {
			t.Fatalf("job %d: %g at scale 1, %g at scale %g", i, base[i], sc[i], scale)
		}
	}
	perm := rapid.Permutation(seq(len(s.Remaining))).Draw(t, "perm")
	permuted := fairSnapshot{Snapshot: testutil.Snapshot{Slots: s.Slots, Beta: s.Beta}, Eps: s.Eps}
	for _, from := range perm {
		permuted.Remaining = append(permuted.Remaining, s.Remaining[from])
	}
	pa := mustAllocate(t, permuted)
	count := map[float64]int{}
	for _, r := range s.Remaining {
		count[r]++
	}
	for to, from := range perm {
		if count[s.Remaining[from]] == 1 && !closeTo(pa[to], base[from], sumTol*max(1, s.Slots)) {
			t.Fatalf("job %d (T = %g) gets %g, at position %d after permuting %g", from, s.Remaining[from], base[from], to, pa[to])
		}
	}
}

func TestScaleAndPermutation(t *testing.T) { t.Parallel(); rapid.Check(t, testScaleAndPermutation) }

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// testAllocateSlots: the integer form sums to S exactly when a job is
// active, is within a slot of the real shares, gives every active job at
// least ⌊(1−ε)S/N⌋, and is Apportion of the real shares.
func testAllocateSlots(t *rapid.T) {
	s := fairGen(50).Draw(t, "s")
	slots := rapid.IntRange(0, 400).Draw(t, "slots")
	s.Slots = float64(slots)
	before := slices.Clone(s.Remaining)
	got, err := fairness.AllocateSlots(nil, s.Remaining, slots, s.Beta, s.Eps, nil)
	if err != nil {
		t.Fatalf("AllocateSlots: %v", err)
	}
	if !slices.Equal(before, s.Remaining) {
		t.Fatalf("AllocateSlots modified remaining")
	}
	real := mustAllocate(t, s)
	floor := floors(s)
	sum, active := 0, false
	for i, x := range got {
		if math.Abs(float64(x)-real[i]) >= 1 || float64(x) < math.Floor(floor[i]*(1+1e-12)) {
			t.Fatalf("job %d: %d slots, real share %g, floor %g", i, x, real[i], floor[i])
		}
		sum += x
		active = active || s.Remaining[i] > 0
	}
	total := 0
	if active {
		total = slots
	}
	if sum != total {
		t.Fatalf("Σ = %d, want %d", sum, total)
	}
	want, err := alloc.Apportion(nil, real, total, s.Remaining, nil)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("AllocateSlots = %v, Apportion(Allocate) = %v, %v", got, want, err)
	}
}

func TestAllocateSlots(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateSlots) }

func TestErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		remaining []float64
		slots     float64
		beta, eps float64
		index     int
		field     string
	}{
		{"ε < 0", []float64{1}, 1, 1.5, -0.1, -1, "eps"},
		{"ε > 1", []float64{1}, 1, 1.5, 1.5, -1, "eps"},
		{"ε NaN", []float64{1}, 1, 1.5, math.NaN(), -1, "eps"},
		{"β ≤ 1", []float64{1}, 1, 0.9, 0.1, -1, "beta"},
		{"NaN task count", []float64{1, math.NaN()}, 1, 1.5, 0.1, 1, "remaining"},
		{"negative slots", []float64{1}, -2, 1.5, 0.1, -1, "slots"},
	}
	for _, tc := range cases {
		dst := []float64{3}
		got, err := fairness.Allocate(dst, tc.remaining, tc.slots, tc.beta, tc.eps, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field || got != nil || dst[0] != 3 {
			t.Errorf("%s: got %v, %v; want an InputError for job %d field %q", tc.name, got, err, tc.index, tc.field)
		}
	}
	if _, err := fairness.AllocateSlots(nil, []float64{1}, -1, 1.5, 0.1, nil); err == nil {
		t.Errorf("AllocateSlots accepted slots = -1")
	}
}

// testNoPanic corrupts snapshots with NaN, ±Inf, negatives and huge values:
// an InputError naming a valid job, or a finite ε-fair allocation.
func testNoPanic(t *rapid.T) {
	s := fairGen(15).Draw(t, "s")
	special := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -5e-324, math.MaxFloat64, 2, 0})
	switch rapid.IntRange(0, 4).Draw(t, "corrupt") {
	case 0:
		if len(s.Remaining) > 0 {
			s.Remaining[rapid.IntRange(0, len(s.Remaining)-1).Draw(t, "job")] = special.Draw(t, "remaining")
		}
	case 1:
		s.Slots = special.Draw(t, "slots")
	case 2:
		s.Beta = special.Draw(t, "beta")
	case 3:
		s.Eps = special.Draw(t, "eps")
	}
	intSlots := rapid.IntRange(-3, 300).Draw(t, "intSlots")
	got, err := fairness.Allocate(nil, s.Remaining, s.Slots, s.Beta, s.Eps, nil)
	ints, errInt := fairness.AllocateSlots(nil, s.Remaining, intSlots, s.Beta, s.Eps, nil)
	for _, e := range []error{err, errInt} {
		var ie *specsched.InputError
		if e != nil && (!errors.As(e, &ie) || ie.Index >= len(s.Remaining) || ie.Field == "") {
			t.Fatalf("bad error %v", e)
		}
	}
	if err == nil {
		var sum float64
		for i, x := range got {
			if !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("job %d gets %g", i, x)
			}
			sum += x
		}
		if sum > s.Slots*(1+sumTol)+sumTol {
			t.Fatalf("Σ = %g > S = %g", sum, s.Slots)
		}
	} else if got != nil {
		t.Fatalf("result with error")
	}
	if errInt == nil {
		sum := 0
		for _, x := range ints {
			if x < 0 {
				t.Fatalf("negative slots %v", ints)
			}
			sum += x
		}
		if sum > intSlots {
			t.Fatalf("Σ = %d > %d", sum, intSlots)
		}
	}
}

func TestNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testNoPanic) }

// FuzzAllocate and FuzzAllocateSlots share the property: it calls both.
func FuzzAllocate(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testNoPanic)) }
func FuzzAllocateSlots(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testNoPanic)) }

// TestHugeSlots is the regression the no-panic property found: with S near
// MaxFloat64, computing T_i·(S/ΣT) overflowed to +Inf; (T_i/ΣT)·S does not.
func TestHugeSlots(t *testing.T) {
	t.Parallel()
	got, err := fairness.Allocate(nil, []float64{0.5}, math.MaxFloat64, 1.01, 1, nil)
	if err != nil || got[0] != math.MaxFloat64 {
		t.Fatalf("got %v, %v; want [MaxFloat64]", got, err)
	}
	got, err = alloc.Allocate(nil, []float64{0.5, 0.25}, math.MaxFloat64, 1.01, nil)
	if err != nil || math.IsInf(got[0], 0) || math.IsInf(got[1], 0) {
		t.Fatalf("alloc: got %v, %v", got, err)
	}
}
