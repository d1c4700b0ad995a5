package dagkernel

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

// tol is the relative tolerance between sums taken in different orders.
const tol = 1e-9

func approx(a, b, scale float64) bool {
	return math.Abs(a-b) <= tol*max(1, scale, math.Abs(a), math.Abs(b))
}

// jobsGen draws a valid snapshot: ties in every field, finished jobs,
// integer counts (the simulator's) and continuous values, α in the range
// dag.EstimateAlpha gives and beyond.
func jobsGen(t *rapid.T) []Job {
	jobs := make([]Job, rapid.IntRange(0, 80).Draw(t, "n"))
	ties := rapid.Bool().Draw(t, "ties")
	for i := range jobs {
		if ties {
			jobs[i] = Job{
				Remaining:  float64(rapid.IntRange(0, 6).Draw(t, "T")),
				Downstream: float64(rapid.IntRange(0, 6).Draw(t, "T'")),
				Alpha:      rapid.SampledFrom([]float64{0.05, 0.5, 1, 2, 20}).Draw(t, "alpha"),
			}
		} else {
			jobs[i] = Job{
				Remaining:  rapid.Float64Range(0, 100).Draw(t, "T"),
				Downstream: rapid.Float64Range(0, 100).Draw(t, "T'"),
				Alpha:      rapid.Float64Range(0.01, 20).Draw(t, "alpha"),
			}
		}
	}
	return jobs
}

func dagJobs(jobs []Job) []testutil.DAGJob {
	out := make([]testutil.DAGJob, len(jobs))
	for i, j := range jobs {
		out[i] = testutil.DAGJob(j)
	}
	return out
}

// nearThreshold reports whether S is within rounding of a case threshold
// (testutil.NearThreshold).
func nearThreshold(slots float64, thresholds []float64) bool {
	return testutil.NearThreshold(slots, thresholds, tol)
}

// testAllocateMatchesReference: Prepare + Allocate give Algorithm 3 as
// the thesis states it, case by case (testutil.DAGReference: a sort and
// explicit loops), except within rounding of a case threshold; the jobs
// are left as they were and every share is written.
func testAllocateMatchesReference(t *rapid.T) {
	jobs := jobsGen(t)
	beta := rapid.SampledFrom([]float64{1.2, 1.5, 1.9, 2, 3}).Draw(t, "beta")
	var total float64
	for _, j := range jobs {
		total += j.Remaining * math.Sqrt(j.Alpha)
	}
	slots := rapid.Float64Range(0, 1.5).Draw(t, "fraction") * (total + 1)
	orig := slices.Clone(jobs)
	var ws Workspace
	p := ws.Prepare(jobs, slots, beta)
	got := make([]float64, len(jobs))
	for i := range got {
		got[i] = math.NaN()
	}
	ws.Allocate(got, jobs, slots, &p)
	if !slices.Equal(jobs, orig) {
		t.Fatal("Allocate modified jobs")
	}
	want, thresholds := testutil.DAGReference(dagJobs(jobs), slots, beta)
	if nearThreshold(slots, thresholds) {
		return
	}
	for i := range got {
		if !approx(got[i], want[i], slots) {
			t.Fatalf("S = %v, β = %v, jobs %v:\ngot  %v\nwant %v", slots, beta, jobs, got, want)
		}
	}
}

func TestAllocateMatchesReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateMatchesReference)
}

func FuzzAllocateMatchesReference(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateMatchesReference)) }

// testSlotsRounds: Slots is Allocate's shares rounded by the textbook
// largest remainder (testutil.LargestRemainder, a sort), equal remainders
// in Algorithm 3's order: the smaller max{T, T'}, the larger α, the
// smaller index; to S when some job has work, to 0 otherwise.
func testSlotsRounds(t *rapid.T) {
	jobs := jobsGen(t)
	for i := range jobs {
		jobs[i].Remaining = math.Round(jobs[i].Remaining) // task counts, as the simulator has
	}
	beta := rapid.SampledFrom([]float64{1.2, 1.5, 2, 3}).Draw(t, "beta")
	slots := rapid.IntRange(0, 300).Draw(t, "slots")
	var ws Workspace
	p := ws.Prepare(jobs, float64(slots), beta)
	got := make([]int, len(jobs))
	for i := range got {
		got[i] = -1
	}
	ws.Slots(got, jobs, slots, &p)
	p = ws.Prepare(jobs, float64(slots), beta)
	shares := make([]float64, len(jobs))
	ws.Allocate(shares, jobs, float64(slots), &p)
	keys, alphas := make([]float64, len(jobs)), make([]float64, len(jobs))
	total := 0
	for i, j := range jobs {
		keys[i], alphas[i] = max(j.Remaining, j.Downstream), -j.Alpha
		if j.Remaining > 0 {
			total = slots
		}
	}
	want, ok := testutil.LargestRemainder(shares, total, keys, alphas)
	if !ok {
		t.Fatalf("shares %v do not round textbook-wise to %d", shares, total)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Slots = %v, largest remainder of %v: %v", got, shares, want)
	}
}

func TestSlotsRounds(t *testing.T) { t.Parallel(); rapid.Check(t, testSlotsRounds) }

func FuzzSlotsRounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSlotsRounds)) }

// testPrepareRecords: Prepare records exactly the jobs with work, in
// index order, with key max{T, T'}, their α and index, and the range of
// the keys' bits — checked against a filter and min/max taken here.
func testPrepareRecords(t *rapid.T) {
	jobs := jobsGen(t)
	var ws Workspace
	p := ws.Prepare(jobs, 10, 1.5)
	var want []record
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i, j := range jobs {
		if j.Remaining > 0 {
			key := max(j.Remaining, j.Downstream)
			want = append(want, record{key: key, alpha: j.Alpha, idx: i})
			lo, hi = min(lo, math.Float64bits(key)), max(hi, math.Float64bits(key))
		}
	}
	if len(ws.recs) != len(want) {
		t.Fatalf("%d records, want %d", len(ws.recs), len(want))
	}
	for i, r := range ws.recs {
		if r.key != want[i].key || r.alpha != want[i].alpha || r.idx != want[i].idx || !(r.v > 0) {
			t.Fatalf("record %d = %+v, want %+v with v > 0", i, r, want[i])
		}
	}
	if len(want) > 0 && (p.lo != lo || p.hi != hi) {
		t.Fatalf("key range [%x, %x], want [%x, %x]", p.lo, p.hi, lo, hi)
	}
}

func TestPrepareRecords(t *testing.T) { t.Parallel(); rapid.Check(t, testPrepareRecords) }

// testAlphaFormula: Alpha is the §5.2 formula written the thesis's way,
// (backlog + r·RemainingInput)/RemainingInput, clamped and raised to d —
// the form the kernel avoids only for overflow, so on moderate values the
// two agree to rounding — with the recurring ratio when no task has
// completed and 1 when neither ratio is known or nothing remains.
func testAlphaFormula(t *rapid.T) {
	field := func(label string) float64 {
		return rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(0, 1000)).Draw(t, label)
	}
	doneIn, doneOut, rem, read := field("done.input"), field("done.output"), field("remaining"), field("read")
	recIn, recOut := field("recurring.input"), field("recurring.output")
	d := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.3, 0.8, 1})).Draw(t, "dampening")
	got := Alpha(doneIn, doneOut, rem, read, recIn, recOut, d)
	r, known := 0.0, false
	switch {
	case doneIn > 0:
		r, known = doneOut/doneIn, true
	case recIn > 0:
		r, known = recOut/recIn, true
	}
	want := 1.0
	if known && rem > 0 {
		raw := (math.Max(0, doneOut-read) + r*rem) / rem
		want = math.Pow(math.Min(math.Max(raw, 0.05), 20), d)
	}
	if math.Abs(got-want) > 1e-12*want {
		t.Fatalf("Alpha = %v, want %v", got, want)
	}
}

func TestAlphaFormula(t *testing.T) { t.Parallel(); rapid.Check(t, testAlphaFormula) }

func FuzzAlphaFormula(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAlphaFormula)) }

// TestAlphaWorked: α by hand. 10 inputs done producing 20 (r = 2), 5 of
// them read, 5 inputs left: α_raw = 15/5 + 2 = 5; d = 1 gives 5, d = 0.5
// gives √5, d = 0 gives 1. A backlog of 1000 over 1 input clamps to
// MaxAlpha = 20, nothing produced and r = 0.01 to MinAlpha = 0.05.
// A ratio past float64's range is +Inf and gives MaxAlpha.
func TestAlphaWorked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                                  string
		doneIn, doneOut, rem, read, recIn, rO float64
		d, want                               float64
	}{
		{"d = 1", 10, 20, 5, 5, 0, 0, 1, 5},
		{"d = 1/2", 10, 20, 5, 5, 0, 0, 0.5, math.Sqrt(5)},
		{"d = 0", 10, 20, 5, 5, 0, 0, 0, 1},
		{"clamped above", 1, 1000, 1, 0, 0, 0, 1, MaxAlpha},
		{"clamped below", 100, 1, 1, 1, 0, 0, 1, MinAlpha},
		{"recurring", 0, 0, 4, 0, 2, 6, 1, 3},
		{"unknown ratio", 0, 0, 4, 0, 0, 0, 1, 1},
		{"nothing left", 10, 20, 0, 0, 0, 0, 1, 1},
		{"ratio past float64", 0x1p-1074, math.MaxFloat64, 1, math.MaxFloat64, 0, 0, 1, MaxAlpha},
	} {
		if got := Alpha(tc.doneIn, tc.doneOut, tc.rem, tc.read, tc.recIn, tc.rO, tc.d); got != tc.want {
			t.Errorf("%s: α = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// testPrepareChecked: on a valid snapshot PrepareChecked reports −1 and
// records what Prepare records; with a field out of its range (NaN, ±Inf,
// a negative T or T', an α ≤ 0) injected at some jobs, it reports the
// first of them.
func testPrepareChecked(t *rapid.T) {
	jobs := jobsGen(t)
	var want, got Workspace
	pw := want.Prepare(jobs, 10, 1.5)
	pg, bad := got.PrepareChecked(jobs, 10, 1.5)
	if bad != -1 || pg != pw || !slices.Equal(got.recs, want.recs) {
		t.Fatalf("valid snapshot: bad = %d, %+v, want −1, %+v", bad, pg, pw)
	}
	if len(jobs) == 0 {
		return
	}
	first := len(jobs)
	for range rapid.IntRange(1, 3).Draw(t, "bad jobs") {
		i := rapid.IntRange(0, len(jobs)-1).Draw(t, "at")
		v := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -0x1p-1074}).Draw(t, "value")
		switch rapid.IntRange(0, 2).Draw(t, "field") {
		case 0:
			jobs[i].Remaining = v
		case 1:
			jobs[i].Downstream = v
		default:
			jobs[i].Alpha = rapid.SampledFrom([]float64{0, math.Copysign(0, -1), v}).Draw(t, "alpha")
		}
		first = min(first, i)
	}
	if _, bad := got.PrepareChecked(jobs, 10, 1.5); bad != first {
		t.Fatalf("first invalid job reported %d, want %d", bad, first)
	}
}

func TestPrepareChecked(t *testing.T) { t.Parallel(); rapid.Check(t, testPrepareChecked) }

// TestProportionalFarApart: case 4's shares S·V_i/ΣV when the two sizes
// are 2^1200 apart, by hand. T = (2^−600, 2^600), α = 1, T' = 0, β = 2
// (V = T), S = 2^601 > ΣV: job 1 gets 2^601·2^−600/(2^600 + 2^−600), which
// is 2^−599 to within 2^−1200 relative, job 2 gets 2^601 less that. The
// quotient V_1/ΣV = 2^−1200 underflows, so the shares must be formed with
// the exponents apart.
func TestProportionalFarApart(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 0x1p-600, Alpha: 1}, {Remaining: 0x1p600, Alpha: 1}}
	var ws Workspace
	p := ws.Prepare(jobs, 0x1p601, 2)
	got := make([]float64, 2)
	ws.Allocate(got, jobs, 0x1p601, &p)
	if want := []float64{0x1p-599, 0x1p601}; got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestSlotsAlphaTieBreak: equal remainders and equal max{T, T'} go to the
// larger α (Algorithm 3's order). T = (1, 2), T' = (2, 0), α = (4, 1),
// β = 2: V = T·√α = (2, 2), Σt = 4 < S = 5, case 4: shares 2.5 and 2.5;
// the leftover slot goes to job 1 (α = 4): [3, 2].
func TestSlotsAlphaTieBreak(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 1, Downstream: 2, Alpha: 4}, {Remaining: 2, Alpha: 1}}
	var ws Workspace
	p := ws.Prepare(jobs, 5, 2)
	got := make([]int, 2)
	ws.Slots(got, jobs, 5, &p)
	if !slices.Equal(got, []int{3, 2}) {
		t.Fatalf("got %v, want [3 2]", got)
	}
}

// TestPrepareEdges: MaxFloat64 is a valid value of every field
// (PrepareChecked reports −1), and the snapshot is safe exactly when every
// T_i·√α_i of an active job is a normal number and c·2^k is finite:
// subnormal T·√α (T = 10^−310) or one past MaxFloat64 (T = 10^308,
// α = 20) make it unsafe.
func TestPrepareEdges(t *testing.T) {
	t.Parallel()
	var ws Workspace
	if _, bad := ws.PrepareChecked([]Job{{Remaining: math.MaxFloat64, Downstream: math.MaxFloat64, Alpha: math.MaxFloat64}}, 1, 1.5); bad != -1 {
		t.Fatalf("MaxFloat64 fields reported invalid at %d", bad)
	}
	for _, tc := range []struct {
		jobs []Job
		safe bool
	}{
		{[]Job{{Remaining: 3, Alpha: 2}, {Remaining: 5, Alpha: 0.5}}, true},
		{[]Job{{Remaining: 3, Alpha: 2}, {Remaining: 1e-310, Alpha: 1}}, false},
		{[]Job{{Remaining: 1e308, Alpha: 20}, {Remaining: 3, Alpha: 2}}, false},
		{[]Job{{Remaining: 1e-310, Alpha: 1}, {Remaining: 3, Alpha: 2}}, false},
		{[]Job{{Remaining: 3, Alpha: 2}, {Remaining: 1e308, Alpha: 20}}, false},
	} {
		for _, checked := range []bool{false, true} {
			var p Prepared
			if checked {
				p, _ = ws.PrepareChecked(tc.jobs, 10, 1.5)
			} else {
				p = ws.Prepare(tc.jobs, 10, 1.5)
			}
			if p.safe != tc.safe {
				t.Errorf("%v (checked %v): safe = %v, want %v", tc.jobs, checked, p.safe, tc.safe)
			}
		}
	}
}
