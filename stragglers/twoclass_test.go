package stragglers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
)

// TestTwoClassesWorkedExample computes Algorithm 4 by hand. Type I
// (β₁ = 1.25): jobs of 1 and 3 tasks; type II (β₂ = 1.5): 2 and 4 tasks.
// ΣT_I = 4, ΣT_II = 6, θ = (2/1.5)·√(0.5/0.25)·4 = 16√2/3 ≈ 7.542; case 2
// ends at θ + (2/1.5)·6 = θ + 8; case 3 splits S as 4/√0.25 : 6/√0.5 =
// 8 : 6√2. Within a class, Algorithm 1: type I's virtual sizes are 1.6 and
// 4.8 (2/β₁ = 1.6), type II's 8/3 and 16/3.
func TestTwoClassesWorkedExample(t *testing.T) {
	t.Parallel()
	remaining := []float64{1, 2, 3, 4}
	beta := []float64{1.25, 1.5, 1.25, 1.5}
	r2 := math.Sqrt2
	theta := 16 * r2 / 3
	for _, tc := range []struct {
		slots float64
		want  []float64
	}{
		{3, []float64{1.6, 0, 1.4, 0}},          // case 1, type I below its virtual size 6.4: smallest first
		{7, []float64{7.0 / 4, 0, 21.0 / 4, 0}}, // case 1, type I past 6.4: ∝ T
		{theta, []float64{theta / 4, 0, 3 * theta / 4, 0}},
		{10, []float64{theta / 4, 10 - theta, 3 * theta / 4, 0}}, // case 2: type II fills 2.458 < 8/3 into its smaller job
		{theta + 8, []float64{theta / 4, 8.0 / 3, 3 * theta / 4, 16.0 / 3}},
		{30, []float64{ // case 3
			30 * 8 / (8 + 6*r2) / 4, 30 * 6 * r2 / (8 + 6*r2) / 3,
			30 * 8 / (8 + 6*r2) * 3 / 4, 30 * 6 * r2 / (8 + 6*r2) * 2 / 3}},
	} {
		got, err := TwoClasses(nil, remaining, beta, tc.slots, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAllocation(got, tc.want, tc.slots) {
			t.Errorf("S = %v: got %v, want %v", tc.slots, got, tc.want)
		}
		// Which class comes first in the input does not matter: the smaller
		// β is type I. The same jobs, the type II jobs listed first:
		got2, err := TwoClasses(nil, []float64{2, 1, 4, 3}, []float64{1.5, 1.25, 1.5, 1.25}, tc.slots, nil)
		if err != nil || !slices.Equal([]float64{got2[1], got2[0], got2[3], got2[2]}, got) {
			t.Errorf("S = %v: type II first %v, %v; want %v permuted", tc.slots, got2, err, got)
		}
	}
}

// twoClassGen draws a snapshot with two classes of β in (1, 2).
func twoClassGen(t *rapid.T, maxN int) snapshot {
	s := snapshotGen(0, maxN).Draw(t, "snapshot")
	b1 := rapid.Float64Range(1.01, 1.98).Draw(t, "beta1")
	b2 := rapid.OneOf(rapid.Float64Range(1.01, 1.98), rapid.Just(b1)).Draw(t, "beta2")
	for i := range s.beta {
		s.beta[i] = []float64{b1, b2}[rapid.IntRange(0, 1).Draw(t, "class")]
	}
	return s
}

// testTwoClassesTheorem3: Algorithm 4 satisfies the KKT conditions of
// max Σμ_i (Theorem 3), uses every slot, and leaves its input alone.
func testTwoClassesTheorem3(t *rapid.T) {
	s := twoClassGen(t, 120)
	slots := slotsFor(t, s)
	orig := snapshot{slices.Clone(s.remaining), slices.Clone(s.beta)}
	got, err := TwoClasses(nil, s.remaining, s.beta, slots, nil)
	if err != nil {
		t.Fatalf("TwoClasses: %v", err)
	}
	if d := gocmp.Diff(orig, s, gocmp.AllowUnexported(snapshot{})); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	var sum, work float64
	for i, x := range got {
		if !(x >= 0) || (s.remaining[i] == 0 && x != 0) {
			t.Fatalf("job %d: %v", i, x)
		}
		sum += x
		work += s.remaining[i]
	}
	if work == 0 {
		if sum != 0 {
			t.Fatalf("no work: ΣS_i = %v", sum)
		}
		return
	}
	if !approx(sum, slots, slots) {
		t.Fatalf("ΣS_i = %v, want %v", sum, slots)
	}
	if gap, lambda := kktGap(s.remaining, s.beta, got); slots > 0 && gap > kktTol*max(1, lambda) {
		t.Fatalf("KKT violated by %v (λ = %v): %v", gap, lambda, got)
	}
}

func TestTwoClassesTheorem3(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTwoClassesTheorem3)
}

// testTwoClassesSlots: the integer form sums to S and stays within a slot.
func testTwoClassesSlots(t *rapid.T) {
	s := twoClassGen(t, 200)
	slots := rapid.IntRange(0, 3000).Draw(t, "slots")
	got, err := TwoClassesSlots(nil, s.remaining, s.beta, slots, nil)
	if err != nil {
		t.Fatalf("TwoClassesSlots: %v", err)
	}
	real, _ := TwoClasses(nil, s.remaining, s.beta, float64(slots), nil)
	sum, work := 0, false
	for i, x := range got {
		sum += x
		work = work || s.remaining[i] > 0
		if math.Abs(float64(x)-real[i]) >= 1 || (real[i] == 0 && x != 0) {
			t.Fatalf("job %d: %d slots, real %v", i, x, real[i])
		}
	}
	if want := map[bool]int{true: slots, false: 0}[work]; sum != want {
		t.Fatalf("Σ = %d, want %d", sum, want)
	}
}

func TestTwoClassesSlots(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTwoClassesSlots)
}

func testTwoClassesNoPanic(t *rapid.T) {
	s := hostileSnapshot(t)
	testutil.RealNoPanic(t, "stragglers.TwoClasses", tol, func(dst []float64, slots float64) ([]float64, error) {
		return TwoClasses(dst, s.remaining, s.beta, slots, nil)
	})
}

func TestTwoClassesNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTwoClassesNoPanic)
}

func testTwoClassesSlotsNoPanic(t *rapid.T) {
	s := hostileSnapshot(t)
	testutil.IntNoPanic(t, "stragglers.TwoClassesSlots", func(dst []int, slots int) ([]int, error) {
		return TwoClassesSlots(dst, s.remaining, s.beta, slots, nil)
	})
}

func TestTwoClassesSlotsNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTwoClassesSlotsNoPanic)
}

func FuzzTwoClasses(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testTwoClassesNoPanic)) }

func FuzzTwoClassesSlots(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testTwoClassesSlotsNoPanic)) }

func TestTwoClassesErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		remaining, beta []float64
		index           int
		field           string
	}{
		{"lengths", []float64{1}, nil, -1, "len(beta)"},
		{"beta 2", []float64{1, 1}, []float64{1.5, 2}, 1, "beta"},
		{"beta NaN", []float64{1}, []float64{math.NaN()}, 0, "beta"},
		{"third class", []float64{1, 1, 1, 1}, []float64{1.5, 1.2, 1.5, 1.7}, 3, "beta"},
		{"remaining", []float64{1, math.Inf(1)}, []float64{1.5, 1.5}, 1, "remaining"},
	} {
		_, err := TwoClasses(nil, tc.remaining, tc.beta, 3, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, want job %d field %q", tc.name, err, tc.index, tc.field)
		}
	}
}

func benchmarkTwoClasses(b *testing.B, n int) {
	remaining, beta, slots := benchFixture(n, true)
	dst := make([]float64, n)
	var ws Workspace
	if _, err := TwoClasses(dst, remaining, beta, slots, &ws); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dst, _ = TwoClasses(dst, remaining, beta, slots, &ws)
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

func BenchmarkTwoClasses(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkTwoClasses(b, n) })
	}
}

// TestTwoClassesTinyClass is a regression seed found by rapid: a class with
// 1.86e-9 remaining tasks beside one with 1.5. Case 3 gave the tiny class
// "the rest", S − s₁, which kept only a few of its digits (a relative error
// of 6e-8 and a KKT gap above tolerance); its share must be
// S·w_II/(w_I + w_II) to full precision.
func TestTwoClassesTinyClass(t *testing.T) {
	t.Parallel()
	remaining := []float64{1, 0.5, 1.862645149230957e-09}
	beta := []float64{1.25, 1.25, 1.5}
	const slots = 2.96875
	got, err := TwoClasses(nil, remaining, beta, slots, nil)
	if err != nil {
		t.Fatal(err)
	}
	wI, wII := 1.5/math.Sqrt(0.25), remaining[2]/math.Sqrt(0.5)
	if want := slots * wII / (wI + wII); math.Abs(got[2]-want) > 1e-14*want {
		t.Errorf("tiny class: %v, want %v", got[2], want)
	}
	if gap, lambda := kktGap(remaining, beta, got); gap > 1e-12*lambda {
		t.Errorf("KKT gap %v (λ = %v)", gap, lambda)
	}
}

// TestSlotsRemainderTie: an equal remainder goes to the job with fewer
// remaining tasks, the documented tie key of TwoClassesSlots and
// AllocateSlots (before the index). T = (3, 2), β = (1.5625, 1.25), S = 9:
// case 3 splits S by T/√(β−1) = 3/0.75 = 4 and 2/0.5 = 4, so both real
// shares are 4.5; the ninth slot goes to job 1 (2 tasks), not job 0.
func TestSlotsRemainderTie(t *testing.T) {
	t.Parallel()
	remaining, beta := []float64{3, 2}, []float64{1.5625, 1.25}
	real, err := TwoClasses(nil, remaining, beta, 9, nil)
	if err != nil || real[0] != 4.5 || real[1] != 4.5 {
		t.Fatalf("real shares %v, %v; want [4.5 4.5]", real, err)
	}
	if real, err := Allocate(nil, remaining, beta, 9, nil); err != nil || real[0] != 4.5 || real[1] != 4.5 {
		t.Fatalf("Allocate real shares %v, %v; want [4.5 4.5]", real, err)
	}
	want := []int{4, 5}
	if got, err := TwoClassesSlots(nil, remaining, beta, 9, nil); err != nil || !slices.Equal(got, want) {
		t.Errorf("TwoClassesSlots = %v, %v; want %v", got, err, want)
	}
	if got, err := AllocateSlots(nil, remaining, beta, 9, nil); err != nil || !slices.Equal(got, want) {
		t.Errorf("AllocateSlots = %v, %v; want %v", got, err, want)
	}
}

// TestTwoClassesNoWork: the documented special case "no work gives all
// zeros" with two classes and S > 0, where S exceeds θ + (2/β₂)·ΣT_II = 0
// and Algorithm 4's case 3 would split S between two zero weights (0/0).
// Allocate, the K-class solver, agrees.
func TestTwoClassesNoWork(t *testing.T) {
	t.Parallel()
	for _, beta := range [][]float64{{1.2, 1.5, 1.2}, {1.5, 1.2, 1.5}, {1.5, 1.5, 1.5}} {
		remaining := []float64{0, 0, 0}
		for _, slots := range []float64{0, 1, 3, 1e300} {
			got, err := TwoClasses(nil, remaining, beta, slots, nil)
			if err != nil || !slices.Equal(got, []float64{0, 0, 0}) {
				t.Errorf("TwoClasses(β %v, S %v) = %v, %v; want [0 0 0]", beta, slots, got, err)
			}
			all, err := Allocate(nil, remaining, beta, slots, nil)
			if err != nil || !slices.Equal(all, []float64{0, 0, 0}) {
				t.Errorf("Allocate(β %v, S %v) = %v, %v; want [0 0 0]", beta, slots, all, err)
			}
		}
		for _, slots := range []int{0, 1, 7} {
			got, err := TwoClassesSlots(nil, remaining, beta, slots, nil)
			if err != nil || !slices.Equal(got, []int{0, 0, 0}) {
				t.Errorf("TwoClassesSlots(β %v, S %d) = %v, %v; want [0 0 0]", beta, slots, got, err)
			}
		}
	}
}
