package alloc_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// sumTol is the relative tolerance for "Σ S_i = S": the allocation adds n
// rounded terms, each off by at most an ulp, so n·2⁻⁵³ ≪ 1e-9 for every
// snapshot size used here.
const sumTol = 1e-9

// kktTol is the relative tolerance on the KKT multiplier interval; marginals
// are ratios of rounded shares, a few ulps off.
const kktTol = 1e-9

// referenceAllocate is Algorithm 1 exactly as the thesis states it (§3.4):
// sort the jobs by remaining tasks (stable: ties by index), then either fill
// virtual sizes in that order until no slots remain, or share S in
// proportion to T_i.
func referenceAllocate(remaining []float64, slots, beta float64) []float64 {
	c := testutil.Factor(beta)
	out := make([]float64, len(remaining))
	var sumT float64
	for _, r := range remaining {
		sumT += r
	}
	if sumT == 0 {
		return out
	}
	if c*sumT >= slots {
		left := slots
		for _, i := range smallestFirst(remaining) {
			out[i] = min(c*remaining[i], left)
			left -= out[i]
		}
		return out
	}
	for i, r := range remaining {
		out[i] = r / sumT * slots
	}
	return out
}

// smallestFirst returns the job indices in Algorithm 1's order: increasing
// T_i, ties by index (a stable sort).
func smallestFirst(remaining []float64) []int {
	return testutil.SmallestFirst(seq(len(remaining)), remaining)
}

func mustAllocate(t *rapid.T, s testutil.Snapshot) []float64 {
	got, err := alloc.Allocate(nil, s.Remaining, s.Slots, s.Beta, nil)
	if err != nil {
		t.Fatalf("Allocate(%v, %g, %g): %v", s.Remaining, s.Slots, s.Beta, err)
	}
	return got
}

func hasWork(remaining []float64) bool {
	return slices.ContainsFunc(remaining, func(r float64) bool { return r > 0 })
}

// testMatchesReference: the selection-based implementation gives the
// thesis's sort-based allocation, leaves its input alone, and reuses dst.
func testMatchesReference(t *rapid.T) {
	s := testutil.SnapshotGen(60).Draw(t, "s")
	before := slices.Clone(s.Remaining)
	dst := make([]float64, 0, len(s.Remaining)+rapid.IntRange(0, 3).Draw(t, "extraCap"))
	var ws alloc.Workspace
	got, err := alloc.Allocate(dst, s.Remaining, s.Slots, s.Beta, &ws)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	if diff := cmp.Diff(before, s.Remaining); diff != "" {
		t.Fatalf("Allocate modified remaining (-before +after):\n%s", diff)
	}
	if len(got) > 0 && &got[0] != &dst[:1][0] {
		t.Fatalf("Allocate did not reuse a dst with enough capacity")
	}
	want := referenceAllocate(s.Remaining, s.Slots, s.Beta)
	for i := range want {
		if !closeTo(got[i], want[i], sumTol*max(1, s.Slots)) {
			t.Fatalf("job %d: got %v, thesis reference %v", i, got, want)
		}
	}
}

func TestMatchesReference(t *testing.T) { t.Parallel(); rapid.Check(t, testMatchesReference) }

// testFeasibleAndComplete: every S_i ≥ 0 and finite, ΣS_i = S when some job
// has work (0 otherwise), finished jobs get nothing.
func testFeasibleAndComplete(t *rapid.T) {
	s := testutil.SnapshotGen(60).Draw(t, "s")
	got := mustAllocate(t, s)
	var sum float64
	for i, x := range got {
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("job %d: S_i = %g", i, x)
		}
		if s.Remaining[i] == 0 && x != 0 {
			t.Fatalf("finished job %d got %g slots", i, x)
		}
		sum += x
	}
	want := 0.0
	if hasWork(s.Remaining) {
		want = s.Slots
	}
	if !closeTo(sum, want, sumTol) {
		t.Fatalf("ΣS_i = %.17g, want %.17g", sum, want)
	}
}

func TestFeasibleAndComplete(t *testing.T) { t.Parallel(); rapid.Check(t, testFeasibleAndComplete) }

// testTheorem1KKT: Algorithm 1's allocation satisfies the KKT conditions of
// max Σμ_i(S_i) s.t. ΣS_i = S, S_i ≥ 0 — a certificate of global optimality
// for this concave program, computed from the marginals alone.
func testTheorem1KKT(t *rapid.T) {
	s := testutil.SnapshotGen(60).Draw(t, "s")
	got := mustAllocate(t, s)
	if err := testutil.KKT(s.Remaining, got, testutil.Betas(len(got), s.Beta), nil, nil, kktTol); err != nil {
		t.Fatalf("Theorem 1: %v\nremaining %v slots %g β %g\nallocation %v", err, s.Remaining, s.Slots, s.Beta, got)
	}
}

func TestTheorem1KKT(t *testing.T) { t.Parallel(); rapid.Check(t, testTheorem1KKT) }

// testTheorem1Perturbation: moving any amount of capacity from one job to
// another, or redistributing all of it at random, never raises Σμ_i.
func testTheorem1Perturbation(t *rapid.T) {
	s := testutil.SnapshotGen(12).Draw(t, "s")
	if len(s.Remaining) < 2 {
		return
	}
	got := mustAllocate(t, s)
	best := testutil.Total(s.Remaining, got, s.Beta)
	trial := slices.Clone(got)
	for k := range 20 {
		copy(trial, got)
		from := rapid.IntRange(0, len(got)-1).Draw(t, "from")
		to := rapid.IntRange(0, len(got)-1).Draw(t, "to")
		delta := rapid.Float64Range(0, 1).Draw(t, "fraction") * got[from]
		trial[from] -= delta
		trial[to] += delta
		if k%4 == 3 { // a random point of the simplex
			var sum float64
			for i := range trial {
				trial[i] = rapid.Float64Range(0, 1).Draw(t, "w")
				sum += trial[i]
			}
			for i := range trial {
				if sum > 0 {
					trial[i] *= s.Slots / sum
				}
			}
		}
		if v := testutil.Total(s.Remaining, trial, s.Beta); v > best*(1+1e-12)+1e-12 {
			t.Fatalf("Theorem 1: perturbed allocation %v has throughput %.15g > Algorithm 1's %.15g (%v)", trial, v, best, got)
		}
	}
}

func TestTheorem1Perturbation(t *testing.T) { t.Parallel(); rapid.Check(t, testTheorem1Perturbation) }

// TestTheorem1Optimizer: on small instances gonum's Nelder–Mead, searching
// the whole simplex ΣS_i = S from several starts (testutil.MaximizeOnSimplex),
// finds no allocation with more throughput than Algorithm 1 — and finds one
// within 0.1% of it, which shows the search is not vacuous.
func TestTheorem1Optimizer(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 4).Draw(t, "n")
		beta := rapid.Float64Range(1.05, 1.95).Draw(t, "beta")
		remaining := make([]float64, n)
		for i := range remaining {
			remaining[i] = float64(rapid.IntRange(1, 20).Draw(t, "T"))
		}
		slots := rapid.Float64Range(0.2, 2.5).Draw(t, "slotsPerVirtualTotal") * testutil.VirtualTotal(remaining, beta)
		got := mustAllocate(t, testutil.Snapshot{Remaining: remaining, Slots: slots, Beta: beta})
		if err := testutil.NoBetterOnSimplex(remaining, beta, 0, slots, testutil.Total(remaining, got, beta)); err != nil {
			t.Fatalf("Theorem 1: %v (allocation %v)", err, got)
		}
	})
}

// testGuideline1: when capacity is short (ΣV ≥ S), a job with fewer remaining
// tasks — or as many and a smaller index — is never served a smaller
// fraction of its virtual size than another.
func testGuideline1(t *rapid.T) {
	s := testutil.SnapshotGen(40).Draw(t, "s")
	c := testutil.Factor(s.Beta)
	totalV := testutil.VirtualTotal(s.Remaining, s.Beta)
	if totalV < s.Slots {
		return
	}
	got := mustAllocate(t, s)
	served := func(i int) float64 { return got[i] / (c * s.Remaining[i]) }
	for i, ri := range s.Remaining {
		for j, rj := range s.Remaining {
			if ri == 0 || rj == 0 {
				continue
			}
			if (ri < rj || (ri == rj && i < j)) && served(i) < served(j)*(1-sumTol) {
				t.Fatalf("Guideline 1: job %d (T=%g) served %.3g of V, job %d (T=%g) served %.3g", i, ri, served(i), j, rj, served(j))
			}
		}
	}
}

func TestGuideline1(t *testing.T) { t.Parallel(); rapid.Check(t, testGuideline1) }

// testMonotoneInSlots: raising S never lowers any S_i and raises none by
// more than the increase — so each S_i is a continuous, non-decreasing
// function of S, across the boundary ΣV = S between the two cases.
func testMonotoneInSlots(t *rapid.T) {
	s := testutil.SnapshotGen(40).Draw(t, "s")
	totalV := testutil.VirtualTotal(s.Remaining, s.Beta)
	// Straddle the boundary half of the time.
	lo := rapid.Float64Range(0, 1.5).Draw(t, "lo") * max(totalV, 1)
	hi := lo + rapid.Float64Range(0, 1).Draw(t, "step")*max(totalV, 1)
	a := mustAllocate(t, testutil.Snapshot{Remaining: s.Remaining, Slots: lo, Beta: s.Beta})
	b := mustAllocate(t, testutil.Snapshot{Remaining: s.Remaining, Slots: hi, Beta: s.Beta})
	slack := sumTol * max(1, hi)
	for i := range a {
		if d := b[i] - a[i]; d < -slack || d > hi-lo+slack {
			t.Fatalf("job %d: S_i(%g) = %g, S_i(%g) = %g: change %g outside [0, %g]", i, lo, a[i], hi, b[i], d, hi-lo)
		}
	}
}

func TestMonotoneInSlots(t *testing.T) { t.Parallel(); rapid.Check(t, testMonotoneInSlots) }

// testScaleInvariance: scaling every T_i and S by a power of two (exact in
// floating point) scales every S_i by the same factor.
func testScaleInvariance(t *rapid.T) {
	s := testutil.SnapshotGen(40).Draw(t, "s")
	scale := math.Ldexp(1, rapid.IntRange(-20, 20).Draw(t, "log2scale"))
	scaled := testutil.Snapshot{Remaining: make([]float64, len(s.Remaining)), Slots: s.Slots * scale, Beta: s.Beta}
	for i, r := range s.Remaining {
		scaled.Remaining[i] = r * scale
	}
	a, b := mustAllocate(t, s), mustAllocate(t, scaled)
	for i := range a {
		if !closeTo(b[i], a[i]*scale, sumTol*max(1, scaled.Slots)) {
			t.Fatalf("job %d: S_i = %g at scale 1, %g at scale %g", i, a[i], b[i], scale)
		}
	}
}

func TestScaleInvariance(t *testing.T) { t.Parallel(); rapid.Check(t, testScaleInvariance) }

// testPermutation: permuting the jobs permutes the allocation. Jobs with a
// unique T_i keep their share exactly; within a group of equal T_i the
// shares are handed out by index, so the group's multiset of shares is kept.
func testPermutation(t *rapid.T) {
	s := testutil.SnapshotGen(40).Draw(t, "s")
	perm := rapid.Permutation(seq(len(s.Remaining))).Draw(t, "perm")
	permuted := testutil.Snapshot{Remaining: make([]float64, len(perm)), Slots: s.Slots, Beta: s.Beta}
	for to, from := range perm {
		permuted.Remaining[to] = s.Remaining[from]
	}
	a, b := mustAllocate(t, s), mustAllocate(t, permuted)
	groups := map[float64][2][]float64{}
	for to, from := range perm {
		g := groups[s.Remaining[from]]
		g[0], g[1] = append(g[0], a[from]), append(g[1], b[to])
		groups[s.Remaining[from]] = g
	}
	for r, g := range groups {
		slices.Sort(g[0])
		slices.Sort(g[1])
		for k := range g[0] {
			if !closeTo(g[0][k], g[1][k], sumTol*max(1, s.Slots)) {
				t.Fatalf("jobs with T = %g: shares %v before the permutation, %v after", r, g[0], g[1])
			}
		}
	}
}

func TestPermutation(t *testing.T) { t.Parallel(); rapid.Check(t, testPermutation) }

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// testAllocateSlots: the integer form sums to exactly S when there is work,
// keeps every job within one slot of its real share, and is exactly
// Apportion of the real shares in Algorithm 1's order.
func testAllocateSlots(t *rapid.T) {
	s := testutil.SnapshotGen(60).Draw(t, "s")
	slots := rapid.IntRange(0, 500).Draw(t, "slots")
	before := slices.Clone(s.Remaining)
	var ws alloc.Workspace
	got, err := alloc.AllocateSlots(nil, s.Remaining, slots, s.Beta, &ws)
	if err != nil {
		t.Fatalf("AllocateSlots: %v", err)
	}
	if diff := cmp.Diff(before, s.Remaining); diff != "" {
		t.Fatalf("AllocateSlots modified remaining:\n%s", diff)
	}
	real := referenceAllocate(s.Remaining, float64(slots), s.Beta)
	sum := 0
	for i, x := range got {
		if x < 0 || math.Abs(float64(x)-real[i]) >= 1 {
			t.Fatalf("job %d: %d slots, real share %g", i, x, real[i])
		}
		sum += x
	}
	if want := map[bool]int{true: slots, false: 0}[hasWork(s.Remaining)]; sum != want {
		t.Fatalf("Σ = %d, want %d (%v)", sum, want, got)
	}
	realShares := mustAllocate(t, testutil.Snapshot{Remaining: s.Remaining, Slots: float64(slots), Beta: s.Beta})
	total := map[bool]int{true: slots, false: 0}[hasWork(s.Remaining)]
	want, err := alloc.Apportion(nil, realShares, total, s.Remaining, nil)
	if err != nil {
		t.Fatalf("Apportion: %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("AllocateSlots = %v, Apportion(Allocate) = %v", got, want)
	}
}

func TestAllocateSlots(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateSlots) }

func TestAllocateSpecialCases(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		remaining []float64
		slots     float64
		beta      float64
		want      []float64
	}{
		{"no jobs", nil, 10, 1.5, []float64{}},
		{"no slots", []float64{3, 4}, 0, 1.5, []float64{0, 0}},
		{"no work", []float64{0, 0}, 10, 1.5, []float64{0, 0}},
		{"finished job", []float64{0, 3}, 10, 1.5, []float64{0, 10}},
		// ΣV = 8/1.5 + 12/1.5 = 13.33 ≥ 6: A gets V_A = 5.33, B the rest.
		{"Table 2.1", []float64{4, 6}, 6, 1.5, []float64{16.0 / 3, 2.0 / 3}},
		// Ties go by index: three jobs of V = 1.6 on 3 slots.
		{"ties by index", []float64{1, 1, 1}, 3, 1.25, []float64{1.6, 1.4, 0}},
		{"boundary", []float64{3, 6}, 12, 1.5, []float64{4, 8}},
		{"β ≥ 2", []float64{3, 5}, 4, 2.5, []float64{3, 1}},
		{"abundant", []float64{2, 3, 5}, 20, 1.5, []float64{4, 6, 10}},
	}
	for _, tc := range cases {
		got, err := alloc.Allocate(nil, tc.remaining, tc.slots, tc.beta, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return closeTo(a, b, 1e-12) }) {
			t.Errorf("%s: Allocate(%v, %g, %g) = %v, want %v", tc.name, tc.remaining, tc.slots, tc.beta, got, tc.want)
		}
	}
}

func TestAllocateErrors(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name      string
		remaining []float64
		slots     float64
		beta      float64
		index     int
		field     string
	}{
		{"NaN task count", []float64{1, nan, 3}, 4, 1.5, 1, "remaining"},
		{"negative task count", []float64{1, 2, -3}, 4, 1.5, 2, "remaining"},
		{"infinite task count", []float64{inf}, 4, 1.5, 0, "remaining"},
		{"sum overflows", []float64{math.MaxFloat64, math.MaxFloat64}, 4, 3, 1, "remaining"},
		{"negative slots", []float64{1}, -1, 1.5, -1, "slots"},
		{"NaN slots", []float64{1}, nan, 1.5, -1, "slots"},
		{"infinite slots", []float64{1}, inf, 1.5, -1, "slots"},
		{"β = 1", []float64{1}, 1, 1, -1, "beta"},
		{"β NaN", []float64{1}, 1, nan, -1, "beta"},
		{"β +Inf", []float64{1}, 1, inf, -1, "beta"},
	}
	for _, tc := range cases {
		dst := []float64{7, 7, 7}
		got, err := alloc.Allocate(dst, tc.remaining, tc.slots, tc.beta, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, %v; want an InputError for job %d field %q", tc.name, got, err, tc.index, tc.field)
		}
		if got != nil || !slices.Equal(dst, []float64{7, 7, 7}) {
			t.Errorf("%s: on error got %v and dst %v; want nil and dst untouched", tc.name, got, dst)
		}
	}
	_, err := alloc.AllocateSlots(nil, []float64{1}, -1, 1.5, nil)
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Field != "slots" {
		t.Errorf("AllocateSlots(slots = -1): %v", err)
	}
}

// bad draws one of the values a caller must not pass.
func bad(t *rapid.T, label string) float64 {
	return rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -5e-324, math.MaxFloat64, 1e308}).Draw(t, label)
}

// testAllocateNoPanic corrupts a snapshot with NaN, ±Inf, negatives or huge
// values and checks that Allocate and AllocateSlots return an InputError
// naming the corrupted job, or a finite, non-negative allocation within
// capacity.
func testAllocateNoPanic(t *rapid.T) {
	s := testutil.SnapshotGen(20).Draw(t, "s")
	badJob := -1
	switch rapid.IntRange(0, 3).Draw(t, "corrupt") {
	case 0:
		if len(s.Remaining) > 0 {
			badJob = rapid.IntRange(0, len(s.Remaining)-1).Draw(t, "job")
			s.Remaining[badJob] = bad(t, "remaining")
		}
	case 1:
		s.Slots = bad(t, "slots")
	case 2:
		s.Beta = rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 1, 0.5, -2, 1 + 1e-15, math.MaxFloat64}).Draw(t, "beta")
	}
	intSlots := rapid.IntRange(-5, 1000).Draw(t, "intSlots")
	check := func(name string, shares []float64, err error, capacity float64) {
		if err != nil {
			var ie *specsched.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%s: %v is not an InputError", name, err)
			}
			if ie.Index >= len(s.Remaining) || ie.Field == "" {
				t.Fatalf("%s: error names job %d field %q", name, ie.Index, ie.Field)
			}
			if badJob >= 0 && ie.Index >= 0 && ie.Index != badJob && !(s.Remaining[badJob] >= 0) {
				t.Fatalf("%s: error names job %d, the bad value is at job %d", name, ie.Index, badJob)
			}
			if shares != nil {
				t.Fatalf("%s: result %v returned with an error", name, shares)
			}
			return
		}
		var sum float64
		for i, x := range shares {
			if !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("%s: job %d gets %g", name, i, x)
			}
			sum += x
		}
		if sum > capacity*(1+sumTol)+sumTol {
			t.Fatalf("%s: Σ = %g exceeds capacity %g", name, sum, capacity)
		}
	}
	got, err := alloc.Allocate(nil, s.Remaining, s.Slots, s.Beta, nil)
	if err == nil && (!(s.Slots >= 0) || math.IsInf(s.Slots, 0) || !(s.Beta > 1) || math.IsInf(s.Beta, 0) ||
		(badJob >= 0 && !(s.Remaining[badJob] >= 0 && s.Remaining[badJob] <= math.MaxFloat64))) {
		t.Fatalf("Allocate accepted remaining %v, slots %g, β %g", s.Remaining, s.Slots, s.Beta)
	}
	check("Allocate", got, err, s.Slots)
	ints, err := alloc.AllocateSlots(nil, s.Remaining, intSlots, s.Beta, nil)
	var asFloat []float64
	for _, x := range ints {
		asFloat = append(asFloat, float64(x))
	}
	if err == nil && intSlots < 0 {
		t.Fatalf("AllocateSlots accepted slots %d", intSlots)
	}
	check("AllocateSlots", map[bool][]float64{true: nil, false: asFloat}[ints == nil], err, float64(intSlots))
}

func TestAllocateNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateNoPanic) }

// FuzzAllocate and FuzzAllocateSlots share the property: it calls both.
func FuzzAllocate(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testAllocateNoPanic)) }
func FuzzAllocateSlots(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateNoPanic)) }

// TestZeroAllocs: with a dst of enough capacity and a warm workspace, the
// decision functions allocate nothing (the hot path of a scheduler).
func TestZeroAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	remaining := testutil.HeavyTailed(rng, 10_000)
	totalV := testutil.VirtualTotal(remaining, 1.5)
	var ws alloc.Workspace
	shares := make([]float64, len(remaining))
	ints := make([]int, len(remaining))
	for _, slots := range []float64{0.3 * totalV, 2 * totalV} {
		for name, f := range map[string]func(){
			"Allocate":      func() { _, _ = alloc.Allocate(shares, remaining, slots, 1.5, &ws) },
			"AllocateSlots": func() { _, _ = alloc.AllocateSlots(ints, remaining, int(slots), 1.5, &ws) },
			"Apportion":     func() { _, _ = alloc.Apportion(ints, shares, int(math.Round(slots)), remaining, &ws) },
		} {
			_, _ = alloc.Allocate(shares, remaining, math.Round(slots), 1.5, &ws)
			f() // warm the workspace
			if n := testing.AllocsPerRun(20, f); n != 0 {
				t.Errorf("%s at S = %g: %g allocations per call, want 0", name, slots, n)
			}
		}
	}
}
