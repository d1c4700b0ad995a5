package stragglers

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// testTheorem3KKT: for any number of classes (any β per job) the
// allocation satisfies the KKT conditions of max Σμ_i s.t. ΣS_i = S, a
// certificate of global optimality for the concave objective; it is
// feasible, uses every slot when some job has work, and leaves the input
// alone.
func testTheorem3KKT(t *rapid.T) {
	s := snapshotGen(0, 120).Draw(t, "snapshot")
	slots := slotsFor(t, s)
	orig := snapshot{slices.Clone(s.remaining), slices.Clone(s.beta)}
	got, err := Allocate(nil, s.remaining, s.beta, slots, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	if d := gocmp.Diff(orig, s, gocmp.AllowUnexported(snapshot{})); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	var sum, work float64
	for i, x := range got {
		if !(x >= 0) || math.IsInf(x, 0) || (s.remaining[i] == 0 && x != 0) {
			t.Fatalf("job %d (T %v): S_i = %v", i, s.remaining[i], x)
		}
		sum += x
		work += s.remaining[i]
	}
	if want := map[bool]float64{true: slots, false: 0}[work > 0]; !approx(sum, want, slots) {
		t.Fatalf("ΣS_i = %v, want %v", sum, want)
	}
	if work == 0 || slots == 0 {
		return
	}
	if gap, lambda := kktGap(s.remaining, s.beta, got); gap > kktTol*max(1, lambda) {
		t.Fatalf("KKT violated by %v (λ = %v): %v", gap, lambda, got)
	}
}

func TestTheorem3KKT(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTheorem3KKT)
}

// testTheorem3Optimize: gonum/optimize finds no higher total throughput on
// small instances.
func testTheorem3Optimize(t *rapid.T) {
	n := rapid.IntRange(1, 5).Draw(t, "n")
	remaining, beta := make([]float64, n), make([]float64, n)
	for i := range n {
		remaining[i] = rapid.Float64Range(0.5, 20).Draw(t, "T")
		beta[i] = rapid.OneOf(rapid.Float64Range(1.05, 1.95), rapid.Just(2.5)).Draw(t, "beta")
	}
	var scale float64
	for i := range n {
		scale += 2 * remaining[i] / math.Sqrt(min(beta[i], 2)-1)
	}
	slots := rapid.Float64Range(0.1, scale).Draw(t, "slots")
	got, err := Allocate(nil, remaining, beta, slots, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	ours := totalThroughput(remaining, beta, got)
	best := maximise(remaining, beta, slots, uint64(n))
	if best > ours*(1+1e-7) {
		t.Fatalf("optimizer found Σμ = %v > %v (S = %v, allocation %v)", best, ours, slots, got)
	}
}

func TestTheorem3Optimize(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTheorem3Optimize)
}

// testOneClassIsAlgorithm1: with one β for every job, Allocate is
// alloc.Allocate, bit for bit.
func testOneClassIsAlgorithm1(t *rapid.T) {
	s := snapshotGen(0, 200).Draw(t, "snapshot")
	b := rapid.OneOf(rapid.Float64Range(1.01, 3), rapid.Just(2.0)).Draw(t, "beta")
	for i := range s.beta {
		s.beta[i] = b
	}
	slots := slotsFor(t, s)
	got, err := Allocate(nil, s.remaining, s.beta, slots, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	want, err := alloc.Allocate(nil, s.remaining, slots, b, nil)
	if err != nil {
		t.Fatalf("alloc.Allocate: %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("β = %v, S = %v:\ngot  %v\nwant %v (Algorithm 1)", b, slots, got, want)
	}
	gotSlots, err := AllocateSlots(nil, s.remaining, s.beta, int(slots), nil)
	if err != nil {
		t.Fatalf("AllocateSlots: %v", err)
	}
	wantSlots, err := alloc.AllocateSlots(nil, s.remaining, int(slots), b, nil)
	if err != nil {
		t.Fatalf("alloc.AllocateSlots: %v", err)
	}
	if !slices.Equal(gotSlots, wantSlots) {
		t.Fatalf("slots:\ngot  %v\nwant %v", gotSlots, wantSlots)
	}
}

func TestOneClassIsAlgorithm1(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testOneClassIsAlgorithm1)
}

// testTwoClassesIsAlgorithm4: with two classes of β in (1, 2), Allocate is
// the literal Algorithm 4 (TwoClasses).
func testTwoClassesIsAlgorithm4(t *rapid.T) {
	s := snapshotGen(0, 200).Draw(t, "snapshot")
	b1 := rapid.Float64Range(1.01, 1.98).Draw(t, "beta1")
	b2 := rapid.Float64Range(1.01, 1.98).Filter(func(b float64) bool { return b != b1 }).Draw(t, "beta2")
	for i := range s.beta {
		s.beta[i] = []float64{b1, b2}[rapid.IntRange(0, 1).Draw(t, "class")]
	}
	// A drawn S, and every breakpoint of the water-filling with a hair to
	// either side, where Algorithm 4's cases meet.
	all := []float64{slotsFor(t, s)}
	for _, x := range breakpoints(s) {
		all = append(all, x, x*(1-1e-7), x*(1+1e-7))
	}
	for _, slots := range all {
		got, err := Allocate(nil, s.remaining, s.beta, slots, nil)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		want, err := TwoClasses(nil, s.remaining, s.beta, slots, nil)
		if err != nil {
			t.Fatalf("TwoClasses: %v", err)
		}
		if !sameAllocation(got, want, slots) {
			t.Fatalf("β = (%v, %v), S = %v:\ngot  %v\nwant %v (Algorithm 4)", b1, b2, slots, got, want)
		}
	}
}

func TestTwoClassesIsAlgorithm4(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTwoClassesIsAlgorithm4)
}

// testWithinClassAlgorithm1: inside every class the class's slots are
// shared by Algorithm 1 (the statement below Algorithm 4), checked against
// alloc.Allocate on the class alone.
func testWithinClassAlgorithm1(t *rapid.T) {
	s := snapshotGen(0, 120).Draw(t, "snapshot")
	slots := slotsFor(t, s)
	got, err := Allocate(nil, s.remaining, s.beta, slots, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	classes := map[float64][]int{}
	for i, b := range s.beta {
		key := min(b, 2) // the β ≥ 2 jobs form one class with the same model
		classes[key] = append(classes[key], i)
	}
	for b, members := range classes {
		var share float64
		rem := make([]float64, len(members))
		for k, i := range members {
			share += got[i]
			rem[k] = s.remaining[i]
		}
		if b >= 2 {
			// The β ≥ 2 class never holds more than its T_i while a job with
			// β < 2 can use a slot (μ stops growing at T_i).
			hasHeavy := false
			for i, bb := range s.beta {
				hasHeavy = hasHeavy || (bb < 2 && s.remaining[i] > 0)
			}
			if hasHeavy {
				for _, i := range members {
					if got[i] > s.remaining[i]*(1+tol) {
						t.Fatalf("job %d (β %v): %v slots > T = %v", i, s.beta[i], got[i], s.remaining[i])
					}
				}
				continue
			}
		}
		want, err := alloc.Allocate(nil, rem, share, b, nil)
		if err != nil {
			t.Fatalf("alloc.Allocate: %v", err)
		}
		for k, i := range members {
			if !approx(got[i], want[k], slots) {
				t.Fatalf("class β = %v (share %v): job %d got %v, Algorithm 1 gives %v", b, share, i, got[i], want[k])
			}
		}
	}
}

func TestWithinClassAlgorithm1(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testWithinClassAlgorithm1)
}

// testContinuousMonotone: every S_i is non-decreasing and 1-Lipschitz in S
// (so continuous), across the whole range.
func testContinuousMonotone(t *rapid.T) {
	s := snapshotGen(1, 12).Draw(t, "snapshot")
	var scale float64
	for i, T := range s.remaining {
		scale += 2 * T / math.Sqrt(min(s.beta[i], 2)-1)
	}
	grid := []float64{0}
	for range 30 {
		grid = append(grid, rapid.Float64Range(0, scale+1).Draw(t, "S"))
	}
	slices.Sort(grid)
	var ws Workspace
	prev, err := Allocate(nil, s.remaining, s.beta, grid[0], &ws)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	for k := 1; k < len(grid); k++ {
		cur, err := Allocate(nil, s.remaining, s.beta, grid[k], &ws)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		ds := grid[k] - grid[k-1]
		for i := range cur {
			d := cur[i] - prev[i]
			if d < -tol*max(1, grid[k]) || d > ds+tol*max(1, grid[k]) {
				t.Fatalf("job %d: %v → %v while S went %v → %v", i, prev[i], cur[i], grid[k-1], grid[k])
			}
		}
		prev = cur
	}
}

func TestContinuousMonotone(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testContinuousMonotone)
}

// testAllocateSlots: the integer form sums to S, stays within a slot of the
// real share, keeps zeros, and a reused workspace changes nothing.
func testAllocateSlots(t *rapid.T) {
	var ws Workspace
	for range 2 {
		s := snapshotGen(0, 200).Draw(t, "snapshot")
		slots := rapid.IntRange(0, 3000).Draw(t, "slots")
		got, err := AllocateSlots(nil, s.remaining, s.beta, slots, &ws)
		if err != nil {
			t.Fatalf("AllocateSlots: %v", err)
		}
		real, err := Allocate(nil, s.remaining, s.beta, float64(slots), nil)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		sum, work := 0, false
		for i, x := range got {
			sum += x
			work = work || s.remaining[i] > 0
			if math.Abs(float64(x)-real[i]) >= 1 || (real[i] == 0 && x != 0) {
				t.Fatalf("job %d: %d slots, real share %v", i, x, real[i])
			}
		}
		if want := map[bool]int{true: slots, false: 0}[work]; sum != want {
			t.Fatalf("Σ = %d, want %d", sum, want)
		}
		fresh, _ := AllocateSlots(nil, s.remaining, s.beta, slots, nil)
		if !slices.Equal(fresh, got) {
			t.Fatalf("reused workspace: %v, fresh %v", got, fresh)
		}
	}
}

func TestAllocateSlots(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateSlots)
}

// TestAllocateWorkedExample: three classes by hand. Jobs (T, β):
// A (4, 1.25), B (6, 1.5), C (3, 3). Slopes a = β²/(4(β−1)): A 25/16,
// B 9/8, C 1 (β ≥ 2). Virtual sizes: A 6.4, B 8, C 3. Weights T/√(β−1):
// A 8, B 6√2 ≈ 8.485.
//   - S = 5: A alone, below its virtual size: (5, 0, 0).
//   - A grows past 6.4 until λ = a_B = 9/8: A holds 8/√(9/8) = 16√2/3 ≈ 7.542;
//     S = 7: (7, 0, 0).
//   - S = 10: λ = 9/8, B fills: (16√2/3, 10 − 16√2/3, 0).
//   - B full at S = 16√2/3 + 8 ≈ 15.542; both grow until λ = 1 at
//     S = 8 + 6√2 ≈ 16.485. S = 16: A:B = 8 : 6√2.
//   - λ = 1: C fills its 3: S = 18 gives (8, 6√2, 18 − 8 − 6√2).
//   - S = 30: C holds 3, A and B share 27 as 8 : 6√2.
func TestAllocateWorkedExample(t *testing.T) {
	t.Parallel()
	remaining := []float64{4, 6, 3}
	beta := []float64{1.25, 1.5, 3}
	r2 := math.Sqrt2
	for _, tc := range []struct {
		slots float64
		want  []float64
	}{
		{5, []float64{5, 0, 0}},
		{7, []float64{7, 0, 0}},
		{10, []float64{16 * r2 / 3, 10 - 16*r2/3, 0}},
		{16, []float64{16 * 8 / (8 + 6*r2), 16 * 6 * r2 / (8 + 6*r2), 0}},
		{18, []float64{8, 6 * r2, 18 - 8 - 6*r2}},
		{30, []float64{27 * 8 / (8 + 6*r2), 27 * 6 * r2 / (8 + 6*r2), 3}},
	} {
		got, err := Allocate(nil, remaining, beta, tc.slots, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAllocation(got, tc.want, tc.slots) {
			t.Errorf("S = %v: got %v, want %v", tc.slots, got, tc.want)
		}
	}
	// Only β ≥ 2 jobs: the leftover beyond ΣT is shared ∝ T (alloc.Allocate).
	got, _ := Allocate(nil, []float64{1, 3}, []float64{2, 4}, 8, nil)
	if !sameAllocation(got, []float64{2, 6}, 8) {
		t.Errorf("β ≥ 2 only: got %v, want [2 6]", got)
	}
}

// testAllocateNoPanic injects NaN, ±Inf, negatives and huge values: the
// result is an *InputError with dst untouched, or a feasible allocation.
func testAllocateNoPanic(t *rapid.T) {
	s := hostileSnapshot(t)
	testutil.RealNoPanic(t, "stragglers.Allocate", tol, func(dst []float64, slots float64) ([]float64, error) {
		return Allocate(dst, s.remaining, s.beta, slots, nil)
	})
}

func TestAllocateNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateNoPanic)
}

// testAllocateSlotsNoPanic is the integer form under hostile input.
func testAllocateSlotsNoPanic(t *rapid.T) {
	s := hostileSnapshot(t)
	testutil.IntNoPanic(t, "stragglers.AllocateSlots", func(dst []int, slots int) ([]int, error) {
		return AllocateSlots(dst, s.remaining, s.beta, slots, nil)
	})
}

func TestAllocateSlotsNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateSlotsNoPanic)
}

func FuzzAllocate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateNoPanic)) }

func FuzzAllocateSlots(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateSlotsNoPanic)) }

func badFloat(t *rapid.T, label string) float64 {
	return rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-300, math.Copysign(0, -1), 1e308, math.MaxFloat64, 0, 1, 1 + 1e-15}).Draw(t, label)
}

// hostileSnapshot draws a snapshot with bad values injected, and sometimes
// mismatched lengths.
func hostileSnapshot(t *rapid.T) snapshot {
	s := snapshotGen(0, 20).Draw(t, "snapshot")
	for i := range s.remaining {
		switch rapid.IntRange(0, 4).Draw(t, "corrupt") {
		case 0:
			s.remaining[i] = badFloat(t, "T")
		case 1:
			s.beta[i] = badFloat(t, "beta")
		}
	}
	if len(s.beta) > 0 && rapid.IntRange(0, 9).Draw(t, "truncate") == 0 {
		s.beta = s.beta[1:]
	}
	return s
}

// TestAllocateErrors names the job and field of each invalid input.
func TestAllocateErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		remaining, beta []float64
		slots           float64
		index           int
		field           string
	}{
		{"lengths", []float64{1, 2}, []float64{1.5}, 1, -1, "len(beta)"},
		{"slots", []float64{1}, []float64{1.5}, math.NaN(), -1, "slots"},
		{"remaining", []float64{1, -2}, []float64{1.5, 1.5}, 1, 1, "remaining"},
		{"beta 1", []float64{1, 2}, []float64{1.5, 1}, 1, 1, "beta"},
		{"beta Inf", []float64{1, 2}, []float64{math.Inf(1), 1.5}, 1, 0, "beta"},
		{"overflow", []float64{math.MaxFloat64 / 4, math.MaxFloat64 / 4 * 1.5}, []float64{2.5, 2.5}, 1, 1, "remaining"},
		{"past MaxFloat64/2", []float64{math.MaxFloat64 / 4, math.Nextafter(math.MaxFloat64/4, math.Inf(1))}, []float64{2.5, 2.5}, 1, 1, "remaining"},
		{"weights past MaxFloat64/2", []float64{1, math.MaxFloat64 / 4}, []float64{1.5, 1.2}, 1, 1, "remaining"},
		{"beta rounds to 1", []float64{1}, []float64{1 + 1e-300}, 1, 0, "beta"},
		{"weight overflow", []float64{1e302}, []float64{1 + 1e-15}, 1, 0, "remaining"},
	} {
		_, err := Allocate(nil, tc.remaining, tc.beta, tc.slots, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, want job %d field %q", tc.name, err, tc.index, tc.field)
		}
	}
}

// benchFixture: n jobs with 1–1000 remaining tasks, a β per job in
// [1.05, 1.95] (K = n classes) or two classes (1.2 and 1.7), and as many
// slots as tasks, so that the water level stops inside the classes.
func benchFixture(n int, twoClasses bool) (remaining, beta []float64, slots float64) {
	rng := rand.New(rand.NewPCG(1, 1))
	remaining, beta = make([]float64, n), make([]float64, n)
	for i := range remaining {
		remaining[i] = float64(1 + rng.IntN(1000))
		if twoClasses {
			beta[i] = []float64{1.2, 1.7}[rng.IntN(2)]
		} else {
			beta[i] = 1.05 + 0.9*rng.Float64()
		}
		slots += remaining[i]
	}
	return remaining, beta, slots
}

func benchmarkAllocate(b *testing.B, n int, twoClasses bool) {
	remaining, beta, slots := benchFixture(n, twoClasses)
	dst := make([]float64, n)
	var ws Workspace
	if _, err := Allocate(dst, remaining, beta, slots, &ws); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dst, _ = Allocate(dst, remaining, beta, slots, &ws)
	}
	b.StopTimer()
	var sum float64
	for _, x := range dst {
		sum += x
	}
	if !approx(sum, slots, slots) {
		b.Fatalf("ΣS_i = %v, want %v", sum, slots)
	}
}

func BenchmarkAllocate(b *testing.B) {
	for _, classes := range []string{"per-job", "two"} {
		for _, n := range []int{10, 100, 1000, 10000, 100000} {
			b.Run(fmt.Sprintf("classes=%s/n=%d", classes, n), func(b *testing.B) { benchmarkAllocate(b, n, classes == "two") })
		}
	}
}

func BenchmarkAllocateSlots(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			remaining, beta, slots := benchFixture(n, false)
			dst := make([]int, n)
			var ws Workspace
			if _, err := AllocateSlots(dst, remaining, beta, int(slots), &ws); err != nil { // warm the workspace
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				dst, _ = AllocateSlots(dst, remaining, beta, int(slots), &ws)
			}
			b.StopTimer()
			sum := 0
			for _, x := range dst {
				sum += x
			}
			if sum != int(slots) {
				b.Fatalf("Σ = %d, want %d", sum, int(slots))
			}
		})
	}
}

// BenchmarkAlgorithm1Baseline runs alloc.Allocate on the same task counts
// with one β: the figures of Allocate and TwoClasses are quoted as ratios
// to it, measured in the same run.
func BenchmarkAlgorithm1Baseline(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			remaining, _, slots := benchFixture(n, false)
			dst := make([]float64, n)
			var ws alloc.Workspace
			if _, err := alloc.Allocate(dst, remaining, slots/2, 1.5, &ws); err != nil { // warm the workspace
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				dst, _ = alloc.Allocate(dst, remaining, slots/2, 1.5, &ws)
			}
			b.StopTimer()
			if len(dst) != n {
				b.Fatal("no result")
			}
		})
	}
}

// TestAllocateAtClassStart: S exactly at the breakpoint where a class
// starts to receive slots, W_{<g}/√a_g (breakpoints, a sort of the
// classes), with every weight near the subnormals (scaled by
// weightScale) and S subnormal, so that the classes before g hold S to the
// last bit: they share all of S, class g and later ones get 0 — not a
// share in proportion to their far larger weights, and never a negative
// one. For two classes, TwoClasses (Algorithm 4's case 1, S ≤ θ) is the
// sibling answer.
func TestAllocateAtClassStart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		remaining, beta []float64
		slots           float64
		later           []int // the jobs of class g and after: 0
	}{
		{[]float64{2.192059143759814e-293, 1.813229e-317}, []float64{1.5, 1.3}, 3.121158e-317, []int{0}},
		{[]float64{1.0609978955e-313, 1.2759463534223696e-303}, []float64{1.5, 2}, 1.50047761345e-313, []int{1}},
		{[]float64{1.7628851326804976e-279, 3.2593855349227e-311, 1.6033346880071782e-291, 6.4758e-319, 3.0420931659278e-310},
			[]float64{1.5, 1.3, 1.5601849066058224, 1.7, 1.1}, 9.63081596811952e-310, []int{0, 2, 3}},
	} {
		// S is one of the breakpoints, to within a few subnormal ulps.
		slots, near := c.slots, false
		for _, x := range breakpoints(snapshot{c.remaining, c.beta}) {
			near = near || math.Abs(x-slots) <= 4*math.SmallestNonzeroFloat64
		}
		if !near {
			t.Fatalf("S = %v is not a breakpoint of %v", slots, breakpoints(snapshot{c.remaining, c.beta}))
		}
		got, err := Allocate(nil, c.remaining, c.beta, slots, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for i, x := range got {
			if !(x >= 0) {
				t.Errorf("%v: job %d gets %v", c.remaining, i, x)
			}
			sum += x
		}
		for _, i := range c.later {
			if got[i] != 0 {
				t.Errorf("%v, β %v, S %v: job %d gets %v, want 0 (its class starts at S)", c.remaining, c.beta, slots, i, got[i])
			}
		}
		if math.Abs(sum-slots) > 4*math.SmallestNonzeroFloat64 {
			t.Errorf("%v: Σ = %v, want S = %v", c.remaining, sum, slots)
		}
		if len(c.remaining) == 2 && c.beta[1] < 2 {
			two, err := TwoClasses(nil, c.remaining, c.beta, slots, nil)
			if err != nil || !slices.Equal(two, got) {
				t.Errorf("TwoClasses gives %v, %v; Allocate %v", two, err, got)
			}
		}
	}
}
