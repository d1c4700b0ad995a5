package waterfill

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/testutil"
)

// TestMain: SPECSCHED_RAPID_SHRINKTIME caps rapid's shrinking in mutation
// runs (testutil.Main); unset, the tests run as usual.
func TestMain(m *testing.M) { testutil.Main(m) }

// kktTol is the relative tolerance of the KKT certificate's multiplier.
const kktTol = 1e-6

// snapshotGen draws a valid snapshot: task counts and real sizes with
// finished jobs and ties, β per job from a few classes (two on either side
// of the β ≥ 2 class, ties within a class) or all distinct.
func snapshotGen(t *rapid.T) (remaining, beta []float64) {
	n := rapid.IntRange(0, 50).Draw(t, "n")
	remaining, beta = make([]float64, n), make([]float64, n)
	distinct := rapid.Bool().Draw(t, "distinct")
	for i := range n {
		remaining[i] = rapid.OneOf(rapid.Float64Range(0, 100), rapid.SampledFrom([]float64{0, 1, 2, 5})).Draw(t, "T")
		if distinct {
			beta[i] = rapid.Float64Range(1.01, 3).Draw(t, "beta")
		} else {
			beta[i] = rapid.SampledFrom([]float64{1.1, 1.5, 1.9, 2, 4}).Draw(t, "beta")
		}
	}
	return remaining, beta
}

// testFillKKT: Fill's allocation is feasible (every share finite and ≥ 0,
// 0 for a finished job), sums to S when some job has work (to 0 otherwise),
// and satisfies the KKT conditions of max Σμ_i(S_i) s.t. ΣS_i = S
// (testutil.KKT, from the throughput's one-sided derivatives): Theorem 3's
// certificate of optimality, independent of how the level was found.
func testFillKKT(t *rapid.T) {
	remaining, beta := snapshotGen(t)
	// S on the scale of ΣV_i, where the level moves from class to class.
	var virtual float64
	for i, x := range remaining {
		virtual += 2 / min(beta[i], 2) * x
	}
	slots := rapid.Float64Range(0, 1.5).Draw(t, "fraction") * (virtual + 1)
	if rapid.Bool().Draw(t, "small") {
		slots = rapid.Float64Range(0, 5).Draw(t, "slots")
	}
	orig := slices.Clone(remaining)
	var ws Workspace
	ws.Prepare(remaining, beta)
	got := make([]float64, len(remaining))
	for i := range got {
		got[i] = math.NaN() // every share must be written
	}
	work := ws.Fill(got, remaining, slots)
	if !slices.Equal(remaining, orig) {
		t.Fatal("Fill modified remaining")
	}
	var sum, total float64
	for i, x := range got {
		if !(x >= 0) || math.IsInf(x, 0) || (remaining[i] == 0 && x != 0) {
			t.Fatalf("job %d (T = %v): S_i = %v", i, remaining[i], x)
		}
		sum += x
		total += remaining[i]
	}
	if work != (total > 0) {
		t.Fatalf("Fill reports work = %v with ΣT = %v", work, total)
	}
	want := slots
	if total == 0 {
		want = 0
	}
	if math.Abs(sum-want) > 1e-9*max(1, slots) {
		t.Fatalf("ΣS_i = %v, want %v (%v)", sum, want, got)
	}
	if total == 0 || slots == 0 {
		return
	}
	if err := testutil.KKT(remaining, got, beta, nil, nil, kktTol); err != nil {
		t.Fatalf("%v\nT = %v, β = %v, S = %v: %v", err, remaining, beta, slots, got)
	}
}

func TestFillKKT(t *testing.T) { t.Parallel(); rapid.Check(t, testFillKKT) }

func FuzzFillKKT(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testFillKKT)) }

// testSlotsRounds: Slots is Fill's shares rounded by the textbook largest
// remainder (testutil.LargestRemainder, a sort), ties to the smaller T_i,
// then the smaller index, to S when some job has work and to 0 otherwise.
func testSlotsRounds(t *rapid.T) {
	remaining, beta := snapshotGen(t)
	for i := range remaining {
		remaining[i] = math.Round(remaining[i]) // task counts, as the simulators have
	}
	slots := rapid.IntRange(0, 300).Draw(t, "slots")
	var ws Workspace
	ws.Prepare(remaining, beta)
	got := make([]int, len(remaining))
	for i := range got {
		got[i] = -1
	}
	ws.Slots(got, remaining, slots)
	shares := make([]float64, len(remaining))
	ws.Prepare(remaining, beta)
	total := 0
	if ws.Fill(shares, remaining, float64(slots)) {
		total = slots
	}
	want, ok := testutil.LargestRemainder(shares, total, remaining)
	if !ok {
		t.Fatalf("shares %v do not round textbook-wise to %d", shares, total)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Slots = %v, largest remainder of %v: %v", got, shares, want)
	}
}

func TestSlotsRounds(t *testing.T) { t.Parallel(); rapid.Check(t, testSlotsRounds) }

func FuzzSlotsRounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSlotsRounds)) }

// testAddSums: Add returns the running ΣT_i and ΣT_i/√(β_i−1) (β_i < 2) in
// index order — the sums the caller bounds by MaxSum — computed here
// from their definition.
func testAddSums(t *rapid.T) {
	remaining, beta := snapshotGen(t)
	var ws Workspace
	ws.Reset(len(remaining))
	var total, sumW float64
	for i, x := range remaining {
		total += x
		if beta[i] < 2 {
			sumW += x / math.Sqrt(beta[i]-1)
		}
		if gt, gw := ws.Add(x, beta[i]); gt != total || gw != sumW {
			t.Fatalf("job %d: Add = %v, %v; want %v, %v", i, gt, gw, total, sumW)
		}
	}
}

func TestAddSums(t *testing.T) { t.Parallel(); rapid.Check(t, testAddSums) }

// TestFinishRescales: when every job with β < 2 has T below 2^−900 the
// weights are rescaled (WeightScale), so that shares proportional to them
// keep their digits. T = 2^−1074, 3·2^−1074 with β = 1 + 10^−9 and
// 2^−1074 with β = 1.5, S = 4: every virtual size is far below S, so the
// level lies below every slope and S_i = S·w_i/Σw, w_i = T_i/√(β_i−1),
// computed here on T scaled to 1, 3, 1. Unscaled, the subnormal weights
// keep a few bits (w_3 = 1.41·2^−1074 rounds to 2^−1074) and the shares
// are off by up to 30%.
func TestFinishRescales(t *testing.T) {
	t.Parallel()
	remaining := []float64{0x1p-1074, 0x3p-1074, 0x1p-1074}
	beta := []float64{1 + 1e-9, 1 + 1e-9, 1.5}
	var w [3]float64
	var sum float64
	for i, x := range []float64{1, 3, 1} {
		w[i] = x / math.Sqrt(beta[i]-1)
		sum += w[i]
	}
	var ws Workspace
	ws.Prepare(remaining, beta)
	got := make([]float64, 3)
	ws.Fill(got, remaining, 4)
	for i := range got {
		if want := 4 * w[i] / sum; math.Abs(got[i]-want) > 1e-12*want {
			t.Fatalf("job %d: %v, want %v (all %v)", i, got[i], want, got)
		}
	}
}

// TestPortion: x/d·s by hand, on the fast path and where x/d underflows
// (1e−300 of 1e300 slots among 1e300 is 1e−300, which x/d = 0 would lose);
// x = 0 gives 0 and x = d gives s.
func TestPortion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ x, d, s, want float64 }{
		{1, 4, 8, 2},
		{0, 5, 3, 0},
		{7, 7, 3.5, 3.5},
		{1e-300, 1e300, 1e300, 1e-300},
		{3e-200, 1e200, 2e150, 6e-250},
	} {
		if got := Portion(tc.x, tc.d, tc.s); math.Abs(got-tc.want) > 1e-15*tc.want {
			t.Errorf("Portion(%v, %v, %v) = %v, want %v", tc.x, tc.d, tc.s, got, tc.want)
		}
	}
}

// TestFillTwoClassesWorked: Algorithm 4's cases for two jobs, T = 10 each,
// β₁ = 1.2 and β₂ = 1.5, worked from the KKT conditions. Job 1 alone
// until its weight w₁ = T/√(β₁−1) reaches the level a(β₂) = β₂²/(4(β₂−1))
// = 1.125: up to S = w₁/√1.125 ≈ 21.08 it takes everything; then job 2
// fills its virtual size V₂ = (2/β₂)·T ≈ 13.33 at λ = a(β₂), job 1
// holding w₁/√1.125 (S = 30: 21.08 and 8.92); past S ≈ 34.41 both share S
// in proportion to w_i = T/√(β_i−1) (S = 45: 27.57 and 17.43). The
// allocation is homogeneous in (T, S): the same instance times 2^−1000
// (T below 2^−900, where the weights are rescaled), 2^500 and 2^1000
// (where rescaling would overflow them) gives the shares times that power.
func TestFillTwoClassesWorked(t *testing.T) {
	t.Parallel()
	w1, w2 := 10/math.Sqrt(0.2), 10/math.Sqrt(0.5)
	atLevel := w1 / math.Sqrt(1.125)
	for _, scale := range []float64{1, 0x1p-1000, 0x1p500, 0x1p1000} {
		remaining, beta := []float64{10 * scale, 10 * scale}, []float64{1.2, 1.5}
		for _, tc := range []struct{ slots, s1, s2 float64 }{
			{15, 15, 0},
			{30, atLevel, 30 - atLevel},
			{45, 45 * w1 / (w1 + w2), 45 * w2 / (w1 + w2)},
		} {
			var ws Workspace
			ws.Prepare(remaining, beta)
			got := make([]float64, 2)
			ws.Fill(got, remaining, tc.slots*scale)
			tol := 1e-12 * tc.slots * scale
			if math.Abs(got[0]-tc.s1*scale) > tol || math.Abs(got[1]-tc.s2*scale) > tol {
				t.Errorf("scale %g, S = %v: %v, want [%v %v]", scale, tc.slots*scale, got, tc.s1*scale, tc.s2*scale)
			}
		}
	}
}
