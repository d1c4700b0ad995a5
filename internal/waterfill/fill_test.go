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
	slots := rapid.OneOf(rapid.Float64Range(0, 300), rapid.Float64Range(0, 5)).Draw(t, "slots")
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
// weights are rescaled, so that shares proportional to them keep their
// digits: T = 2^−1074 and 2^−1073 with β = 1 + 10^−9 split S 1 : 2 (the
// case WeightScale's comment gives), which unscaled subnormal weights
// would get wrong.
func TestFinishRescales(t *testing.T) {
	t.Parallel()
	remaining := []float64{0x1p-1074, 0x1p-1073}
	beta := []float64{1 + 1e-9, 1 + 1e-9}
	var ws Workspace
	ws.Prepare(remaining, beta)
	got := make([]float64, 2)
	ws.Fill(got, remaining, 3)
	if math.Abs(got[0]-1) > 1e-12 || math.Abs(got[1]-2) > 1e-12 {
		t.Fatalf("shares %v, want [1 2]", got)
	}
}
