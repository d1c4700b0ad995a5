package srewc

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/testutil"
)

// TestMain: SPECSCHED_RAPID_SHRINKTIME caps rapid's shrinking in mutation
// runs (testutil.Main); unset, the tests run as usual.
func TestMain(m *testing.M) { testutil.Main(m) }

// loadsGen draws remaining effective workloads: inactive jobs (0), ties
// from a small set, and arbitrary positive values.
func loadsGen(t *rapid.T) []float64 {
	return rapid.SliceOfN(rapid.OneOf(
		rapid.SampledFrom([]float64{0, 0.25, 0.5, 1, 2, 3, 4}),
		rapid.Float64Range(0, 1e6),
	), 0, 40).Draw(t, "load")
}

// betaGen draws β ∈ (0, 1]: small rationals p/q (βN often an integer, the
// remainders often tied) and arbitrary values.
func betaGen(t *rapid.T) float64 {
	q := rapid.IntRange(1, 16).Draw(t, "q")
	p := float64(rapid.IntRange(1, q).Draw(t, "p")) / float64(q)
	// 5e−324 and 1e−300: βN < 1 with M/(βN) past float64's range, where
	// only the partial share is formed.
	return rapid.OneOf(rapid.Just(p), rapid.Float64Range(0x1p-20, 1), rapid.SampledFrom([]float64{5e-324, 1e-300})).Draw(t, "beta")
}

// machinesGen draws M, with the paper's cluster and 2^53 among the edges.
func machinesGen(t *rapid.T) int {
	return rapid.OneOf(rapid.IntRange(0, 200), rapid.SampledFrom([]int{11000, 1 << 53})).Draw(t, "machines")
}

// paperShares is g_j(t) of §4.1 by its definition, with a sort: the active
// jobs ranked by (Υ_j(t), index), |ψ_j^s(t)| = N − i_j, and the three
// cases written in the rank form y = βN (y − i_j over y first, as the
// kernel's partial share).
func paperShares(load []float64, machines int, beta float64) []float64 {
	var order []int
	for j, v := range load {
		if v > 0 {
			order = append(order, j)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(load[a], load[b]), cmp.Compare(a, b)) })
	out := make([]float64, len(load))
	y, m := beta*float64(len(order)), float64(machines)
	for i, j := range order {
		switch r := float64(i); {
		case r+1 <= y:
			out[j] = m / y
		case r < y:
			out[j] = (y - r) / y * m
		}
	}
	return out
}

// testSharesFormula: Shares is §4.1's formula, bit for bit, on the ranks
// the sort gives; load is left as it was.
func testSharesFormula(t *rapid.T) {
	load, beta, machines := loadsGen(t), betaGen(t), machinesGen(t)
	orig := slices.Clone(load)
	active, r := Summarize(load)
	got := make([]float64, len(load))
	for i := range got {
		got[i] = -1 // every share must be written
	}
	Shares(new(Workspace), got, load, active, r, machines, beta)
	if !slices.Equal(load, orig) {
		t.Fatal("Shares modified load")
	}
	if want := paperShares(load, machines, beta); !slices.Equal(got, want) {
		t.Fatalf("Shares(%v, M = %d, β = %v) = %v, formula %v", load, machines, beta, got, want)
	}
}

func TestSharesFormula(t *testing.T) { t.Parallel(); rapid.Check(t, testSharesFormula) }

func FuzzSharesFormula(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSharesFormula)) }

// testMachinesRounds: Machines is the formula's shares rounded by the
// textbook largest remainder (testutil.LargestRemainder, a sort), ties to
// the smaller Υ_j(t), then the smaller index, to M when a job is active
// and to 0 otherwise.
func testMachinesRounds(t *rapid.T) {
	load, beta, machines := loadsGen(t), betaGen(t), machinesGen(t)
	active, r := Summarize(load)
	got := make([]int, len(load))
	for i := range got {
		got[i] = -1
	}
	Machines(new(Workspace), got, load, active, r, machines, beta)
	total := machines
	if active == 0 {
		total = 0
	}
	want, ok := testutil.LargestRemainder(paperShares(load, machines, beta), total, load)
	if !ok {
		return // shares near 2^53 whose floors sum past M: the guard's case below
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Machines(%v, M = %d, β = %v) = %v, largest remainder %v", load, machines, beta, got, want)
	}
}

func TestMachinesRounds(t *testing.T) { t.Parallel(); rapid.Check(t, testMachinesRounds) }

func FuzzMachinesRounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testMachinesRounds)) }

// testApportionedGuard: the guard of Machines (the general rounding, for
// shares without the structure it relies on) gives what the structural
// path gives wherever both apply — so that, if floating point ever sends a
// snapshot there, the answer is the same rule.
func testApportionedGuard(t *rapid.T) {
	load, beta := loadsGen(t), betaGen(t)
	machines := rapid.OneOf(rapid.IntRange(1, 200), rapid.SampledFrom([]int{11000, 1 << 53})).Draw(t, "machines")
	active, r := Summarize(load)
	if active == 0 {
		return
	}
	var ws Workspace
	got := make([]int, len(load))
	Machines(&ws, got, load, active, r, machines, beta)
	want := make([]int, len(load))
	ws.apportioned(want, load, newBetaRule(active, machines, beta), r, len(load)-active, machines)
	if !slices.Equal(got, want) {
		t.Fatalf("structural %v, general %v", got, want)
	}
}

func TestApportionedGuard(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionedGuard) }

// TestSummarize: the active count and the range of the positive loads, by
// hand.
func TestSummarize(t *testing.T) {
	t.Parallel()
	active, r := Summarize([]float64{0, 3, 0.5, 0, 7, 3})
	if active != 4 || r != (Range{Least: 0.5, Most: 7}) {
		t.Fatalf("Summarize = %d, %+v; want 4, {0.5 7}", active, r)
	}
	if active, _ := Summarize([]float64{0, 0}); active != 0 {
		t.Fatalf("no active job: %d", active)
	}
}

// TestMachinesFastPath: Machines settles the rounding from the shares'
// structure, not by its guard's general routine, on every snapshot of a
// grid of ties (loads from a small set, β = p/q, M up to 40), and gets
// the textbook rounding there (remainder ties between the whole and the
// partial shares included): the guard is for shares that lose that
// structure to rounding near 2^53. (Not
// parallel: it counts calls through HookApportioned.)
func TestMachinesFastPath(t *testing.T) {
	calls := 0
	HookApportioned = func() { calls++ }
	defer func() { HookApportioned = nil }()
	var ws Workspace
	loads := [][]float64{{1}, {0, 2, 2}, {1, 1, 1, 1}, {3, 0, 1, 2, 1, 3}, {0.5, 0.5, 4, 4, 4, 0, 2}}
	for _, load := range loads {
		active, r := Summarize(load)
		dst := make([]int, len(load))
		for q := 1; q <= 8; q++ {
			for p := 1; p <= q; p++ {
				for m := 1; m <= 40; m++ {
					beta := float64(p) / float64(q)
					Machines(&ws, dst, load, active, r, m, beta)
					want, ok := testutil.LargestRemainder(paperShares(load, m, beta), m, load)
					if ok && !slices.Equal(dst, want) {
						t.Fatalf("Machines(%v, M = %d, β = %d/%d) = %v, largest remainder %v", load, m, p, q, dst, want)
					}
				}
			}
		}
	}
	if calls != 0 {
		t.Fatalf("Machines took the general routine %d times", calls)
	}
}
