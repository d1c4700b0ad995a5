package dag

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/optimize"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/testutil"
)

// smallSort is the most jobs the search sorts and scans one at a time.
const smallSort = selection.SmallSort

// tol is the relative tolerance for comparing real-valued allocations
// computed by different summation orders: n·2⁻⁵³ for n ≤ 10⁴ is ~1e-12, and
// the thresholds divide sums by √α_min; 1e-9 leaves room for that.
const tol = 1e-9

func approx(a, b, scale float64) bool {
	return math.Abs(a-b) <= tol*max(1, scale, math.Abs(a), math.Abs(b))
}

// jobsGen draws snapshots that exercise the order and the cases: small
// integer pools (many ties in max{T, T'} and in α), continuous values, and
// finished jobs (T = 0).
func jobsGen(maxN int) *rapid.Generator[[]Job] { return jobsGenN(0, maxN) }

func jobsGenN(minN, maxN int) *rapid.Generator[[]Job] {
	return rapid.Custom(func(t *rapid.T) []Job {
		n := rapid.IntRange(minN, maxN).Draw(t, "n")
		kind := rapid.IntRange(0, 2).Draw(t, "kind")
		alphas := []float64{0.25, 0.5, 1, 2, 4}
		jobs := make([]Job, n)
		for i := range jobs {
			switch kind {
			case 0: // few distinct values: ties everywhere
				jobs[i] = Job{
					Remaining:  float64(rapid.IntRange(0, 6).Draw(t, "T")),
					Downstream: float64(rapid.IntRange(0, 6).Draw(t, "T'")),
					Alpha:      alphas[rapid.IntRange(0, len(alphas)-1).Draw(t, "alpha")],
				}
			case 1: // continuous values
				jobs[i] = Job{
					Remaining:  rapid.Float64Range(0, 1000).Draw(t, "T"),
					Downstream: rapid.Float64Range(0, 1000).Draw(t, "T'"),
					Alpha:      rapid.Float64Range(0.01, 20).Draw(t, "alpha"),
				}
			default: // integer task counts, continuous weights
				jobs[i] = Job{
					Remaining:  float64(rapid.IntRange(0, 100).Draw(t, "T")),
					Downstream: float64(rapid.IntRange(0, 100).Draw(t, "T'")),
					Alpha:      rapid.Float64Range(0.05, 18).Draw(t, "alpha"),
				}
			}
		}
		return jobs
	})
}

func betaGen() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64Range(1.01, 1.99), rapid.SampledFrom([]float64{1.2, 1.5, 2, 3}))
}

// slotsFor draws S on the scale of the snapshot's largest target.
func slotsFor(t *rapid.T, jobs []Job) float64 {
	var scale float64
	maxA, minA := 0.0, math.Inf(1)
	for _, j := range jobs {
		scale += j.Remaining
		if j.Remaining > 0 {
			maxA, minA = max(maxA, j.Alpha), min(minA, j.Alpha)
		}
	}
	if scale > 0 {
		scale *= 2 * math.Sqrt(maxA/minA)
	}
	return rapid.OneOf(
		rapid.Float64Range(0, 1.2*scale+1),
		rapid.SampledFrom([]float64{0, 1, 2, 3, 5, 8, 13}),
	).Draw(t, "slots")
}

// reference is Algorithm 3 transcribed case by case from the thesis
// (testutil.DAGReference, a sort) on jobs.
func reference(jobs []Job, slots, beta float64) (out []float64, thresholds []float64) {
	return testutil.DAGReference(dagJobs(jobs), slots, beta)
}

// dagJobs converts a snapshot to testutil's copy of the type.
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

func sameAllocation(got, want []float64, scale float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !approx(got[i], want[i], scale) {
			return false
		}
	}
	return true
}

// matchesReference is the property that Allocate, on snapshots drawn by
// gen, agrees with the sorting reference and leaves its input alone.
func matchesReference(gen *rapid.Generator[[]Job]) func(*rapid.T) {
	return func(t *rapid.T) {
		jobs := gen.Draw(t, "jobs")
		beta := betaGen().Draw(t, "beta")
		slots := slotsFor(t, jobs)
		orig := slices.Clone(jobs)
		got, err := Allocate(nil, jobs, slots, beta, nil)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		if d := gocmp.Diff(orig, jobs); d != "" {
			t.Fatalf("input modified (-before +after):\n%s", d)
		}
		want, thresholds := reference(jobs, slots, beta)
		if !sameAllocation(got, want, slots) && !nearThreshold(slots, thresholds) {
			t.Fatalf("S = %v, β = %v:\ngot  %v\nwant %v", slots, beta, got, want)
		}
	}
}

func TestAllocateMatchesReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, matchesReference(jobsGen(60)))
}

// TestAllocateMatchesReferenceLarge: snapshots past the search's small-sort
// size, so that the radix levels decide the case.
func TestAllocateMatchesReferenceLarge(t *testing.T) {
	t.Parallel()
	rapid.Check(t, matchesReference(jobsGenN(smallSort+1, 300)))
}

// testAllocateAtThresholds puts S exactly on every case boundary and a hair
// to either side, where the strict and non-strict inequalities decide.
func testAllocateAtThresholds(t *rapid.T) {
	jobs := jobsGen(12).Draw(t, "jobs")
	beta := betaGen().Draw(t, "beta")
	_, thresholds := reference(jobs, 1, beta)
	for _, x := range thresholds {
		for _, s := range []float64{x, x * (1 - 1e-6), x * (1 + 1e-6)} {
			got, err := Allocate(nil, jobs, s, beta, nil)
			if err != nil {
				t.Fatalf("Allocate: %v", err)
			}
			want, _ := reference(jobs, s, beta)
			if !sameAllocation(got, want, s) && !nearThreshold(s, thresholds) {
				t.Fatalf("S = %v (threshold %v):\ngot  %v\nwant %v", s, x, got, want)
			}
		}
	}
}

func TestAllocateAtThresholds(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateAtThresholds)
}

// testAllocateFeasible: ΣS_i = S when some job has work, 0 otherwise; every
// S_i ≥ 0; finished jobs get 0.
func testAllocateFeasible(t *rapid.T) {
	jobs := jobsGen(200).Draw(t, "jobs")
	beta := betaGen().Draw(t, "beta")
	slots := slotsFor(t, jobs)
	dst := make([]float64, rapid.IntRange(0, 300).Draw(t, "cap"))
	got, err := Allocate(dst, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	if len(got) != len(jobs) {
		t.Fatalf("len = %d, want %d", len(got), len(jobs))
	}
	var sum float64
	work := false
	for i, s := range got {
		if !(s >= 0) || math.IsInf(s, 0) {
			t.Fatalf("job %d: S_i = %v", i, s)
		}
		if jobs[i].Remaining == 0 && s != 0 {
			t.Fatalf("finished job %d got %v", i, s)
		}
		work = work || jobs[i].Remaining > 0
		sum += s
	}
	want := 0.0
	if work {
		want = slots
	}
	if !approx(sum, want, slots) {
		t.Fatalf("ΣS_i = %v, want %v", sum, want)
	}
}

func TestAllocateFeasible(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateFeasible)
}

// testAllocateIsAlgorithm1: with every α equal and T' ≤ T, Algorithm 3 is
// Algorithm 1, which alloc.Allocate implements independently.
func testAllocateIsAlgorithm1(t *rapid.T) {
	jobs := jobsGen(200).Draw(t, "jobs")
	alpha := rapid.SampledFrom([]float64{1, 0.3, 2.5, 1e-3}).Draw(t, "alpha")
	remaining := make([]float64, len(jobs))
	for i := range jobs {
		jobs[i].Alpha = alpha
		jobs[i].Downstream = jobs[i].Remaining * rapid.Float64Range(0, 1).Draw(t, "T'/T")
		remaining[i] = jobs[i].Remaining
	}
	beta := betaGen().Draw(t, "beta")
	slots := slotsFor(t, jobs)
	got, err := Allocate(nil, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	want, err := alloc.Allocate(nil, remaining, slots, beta, nil)
	if err != nil {
		t.Fatalf("alloc.Allocate: %v", err)
	}
	if !sameAllocation(got, want, slots) {
		t.Fatalf("S = %v:\ngot  %v\nwant %v (Algorithm 1)", slots, got, want)
	}
	gotSlots, err := AllocateSlots(nil, jobs, int(slots), beta, nil)
	if err != nil {
		t.Fatalf("AllocateSlots: %v", err)
	}
	wantSlots, err := alloc.AllocateSlots(nil, remaining, int(slots), beta, nil)
	if err != nil {
		t.Fatalf("alloc.AllocateSlots: %v", err)
	}
	for i := range gotSlots {
		// Equal unless a summation-order ulp moved a remainder across a tie.
		if d := gotSlots[i] - wantSlots[i]; d < -1 || d > 1 {
			t.Fatalf("slots:\ngot  %v\nwant %v (Algorithm 1)", gotSlots, wantSlots)
		}
	}
}

func TestAllocateIsAlgorithm1(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateIsAlgorithm1)
}

// throughput is eq. 3.3 written out here (with alloc's β ≥ 2 extension),
// independently of the code under test, with its derivative.
func throughput(T, S, beta float64) (mu, dmu float64) {
	switch {
	case T == 0:
		return 0, 0
	case beta >= 2:
		if S < T {
			return S, 1
		}
		return T, 0
	case S <= 2/beta*T:
		a := beta * beta / (4 * (beta - 1))
		return a * S, a
	default:
		r := T / S // T²/S² as (T/S)²: T² underflows for tiny T
		return beta/(beta-1)*T - T*r/(beta-1), r * r / (beta - 1)
	}
}

// caseFour draws S above Σt_i^(n), Algorithm 3's abundant case.
func caseFour(t *rapid.T, jobs []Job, beta float64) float64 {
	c := 2 / beta
	if beta >= 2 {
		c = 1
	}
	var sumV float64
	minA := math.Inf(1)
	for _, j := range jobs {
		sumV += c * j.Remaining * math.Sqrt(j.Alpha)
		if j.Remaining > 0 {
			minA = min(minA, j.Alpha)
		}
	}
	return sumV / math.Sqrt(minA) * rapid.Float64Range(1+1e-6, 4).Draw(t, "S/threshold")
}

// testCaseFourKKT: in case 4 the allocation satisfies the KKT conditions of
// max Σα_i·μ_i(S_i) s.t. ΣS_i = S: every job is past its virtual size
// (2/β)·T_i and the weighted marginals α_i·μ_i'(S_i) are all equal. For a
// concave objective on the simplex that certifies a global maximum.
func testCaseFourKKT(t *rapid.T) {
	jobs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Job {
		return Job{
			Remaining:  rapid.Float64Range(0.5, 100).Draw(t, "T"),
			Downstream: rapid.Float64Range(0, 100).Draw(t, "T'"),
			Alpha:      rapid.Float64Range(0.05, 18).Draw(t, "alpha"),
		}
	}), 1, 50).Draw(t, "jobs")
	beta := rapid.Float64Range(1.01, 1.99).Draw(t, "beta")
	slots := caseFour(t, jobs, beta)
	got, err := Allocate(nil, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	lambda := -1.0
	for i, j := range jobs {
		if got[i] < 2/beta*j.Remaining*(1-tol) {
			t.Fatalf("job %d: S_i = %v below its virtual size %v", i, got[i], 2/beta*j.Remaining)
		}
		_, d := throughput(j.Remaining, got[i], beta)
		m := j.Alpha * d
		if lambda < 0 {
			lambda = m
		}
		if math.Abs(m-lambda) > 1e-7*lambda {
			t.Fatalf("job %d: weighted marginal %v, job 0: %v", i, m, lambda)
		}
	}
}

func TestCaseFourKKT(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCaseFourKKT)
}

// maximise solves max Σw_i·μ_i(S_i) s.t. ΣS_i = S, S_i ≥ 0 numerically with
// gonum's BFGS on the softmax parametrisation S_i = S·e^{z_i}/Σe^{z_j}, the
// best of a few starts.
func maximise(T, w []float64, slots, beta float64, seed uint64) float64 {
	n := len(T)
	alloc := func(z []float64) []float64 {
		m := slices.Max(z)
		s := make([]float64, n)
		var sum float64
		for i, zi := range z {
			s[i] = math.Exp(zi - m)
			sum += s[i]
		}
		for i := range s {
			s[i] *= slots / sum
		}
		return s
	}
	value := func(z []float64) float64 {
		var v float64
		for i, s := range alloc(z) {
			mu, _ := throughput(T[i], s, beta)
			v += w[i] * mu
		}
		return -v
	}
	grad := func(g, z []float64) {
		s := alloc(z)
		d := make([]float64, n)
		var mean float64
		for i := range s {
			_, d[i] = throughput(T[i], s[i], beta)
			d[i] *= w[i]
			mean += d[i] * s[i] / slots
		}
		for i := range g {
			g[i] = -s[i] * (d[i] - mean) // ∂S_i/∂z_j = S_i(δ_ij − S_j/S)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	best := math.Inf(-1)
	for start := range 4 {
		z := make([]float64, n)
		for i := range z {
			if start == 1 {
				z[i] = math.Log(T[i] * math.Sqrt(w[i])) // the closed form's direction
			} else if start > 1 {
				z[i] = rng.NormFloat64()
			}
		}
		res, err := optimize.Minimize(optimize.Problem{Func: value, Grad: grad}, z,
			&optimize.Settings{GradientThreshold: 1e-12, MajorIterations: 2000}, &optimize.BFGS{})
		if err != nil && res == nil {
			continue
		}
		best = max(best, -res.F)
	}
	return best
}

// testCaseFourOptimize: gonum/optimize finds no α-weighted throughput above
// case 4's allocation on small instances.
func testCaseFourOptimize(t *rapid.T) {
	jobs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Job {
		return Job{
			Remaining:  rapid.Float64Range(1, 20).Draw(t, "T"),
			Downstream: rapid.Float64Range(0, 20).Draw(t, "T'"),
			Alpha:      rapid.Float64Range(0.1, 10).Draw(t, "alpha"),
		}
	}), 1, 5).Draw(t, "jobs")
	beta := rapid.Float64Range(1.05, 1.95).Draw(t, "beta")
	slots := caseFour(t, jobs, beta)
	got, err := Allocate(nil, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	T, w := make([]float64, len(jobs)), make([]float64, len(jobs))
	var ours float64
	for i, j := range jobs {
		T[i], w[i] = j.Remaining, j.Alpha
		mu, _ := throughput(j.Remaining, got[i], beta)
		ours += j.Alpha * mu
	}
	best := maximise(T, w, slots, beta, uint64(len(jobs)))
	if best > ours*(1+1e-7) {
		t.Fatalf("optimizer found Σαμ = %v > Algorithm 3's %v (S = %v, allocation %v)", best, ours, slots, got)
	}
}

func TestCaseFourOptimize(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCaseFourOptimize)
}

// orderedJobs draws a snapshot whose α is non-increasing along Algorithm 3's
// order (keys ascending, weights descending), so that every case 2 serves
// the new job last.
func orderedJobs(t *rapid.T, maxN int) []Job {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	keys := make([]float64, n)
	alphas := make([]float64, n)
	for i := range keys {
		keys[i] = float64(rapid.IntRange(1, 30).Draw(t, "key"))
		alphas[i] = rapid.SampledFrom([]float64{0.2, 0.5, 1, 3, 9}).Draw(t, "alpha")
	}
	slices.Sort(keys)
	slices.Sort(alphas)
	slices.Reverse(alphas)
	jobs := make([]Job, n)
	for i := range jobs {
		T := keys[i]
		if rapid.Bool().Draw(t, "downstream is the key") {
			T = keys[i] * rapid.Float64Range(0.05, 1).Draw(t, "T/key")
			jobs[i] = Job{Remaining: T, Downstream: keys[i], Alpha: alphas[i]}
		} else {
			jobs[i] = Job{Remaining: T, Downstream: T * rapid.Float64Range(0, 1).Draw(t, "T'/T"), Alpha: alphas[i]}
		}
	}
	// Shuffle the input order: the algorithm must find the order itself.
	perm := rapid.Permutation(jobs).Draw(t, "perm")
	return perm
}

// sweep checks that between consecutive values of S every S_i moves by at
// least 0 and at most the increase of S: each S_i is non-decreasing and
// 1-Lipschitz, hence continuous.
func sweep(t *rapid.T, jobs []Job, beta float64, grid []float64) {
	slices.Sort(grid)
	prev, err := Allocate(nil, jobs, grid[0], beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	for _, s := range grid[1:] {
		cur, err := Allocate(nil, jobs, s, beta, nil)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		ds := s - grid[0]
		for i := range cur {
			d := cur[i] - prev[i]
			if d < -tol*max(1, s) || d > ds+tol*max(1, s) {
				t.Fatalf("job %d: S_i went from %v to %v while S rose to %v from %v", i, prev[i], cur[i], s, grid[0])
			}
		}
		prev = cur
		grid[0] = s
	}
}

// testContinuousWhenOrdered: with α non-increasing along the order, every
// S_i is continuous and non-decreasing in S across all case boundaries.
func testContinuousWhenOrdered(t *rapid.T) {
	jobs := orderedJobs(t, 10)
	beta := betaGen().Draw(t, "beta")
	_, thresholds := reference(jobs, 1, beta)
	grid := []float64{0}
	for _, x := range thresholds {
		grid = append(grid, x, x*(1-1e-9), x*(1+1e-9))
	}
	hi := 1.0
	if len(thresholds) > 0 {
		hi = 2 * slices.Max(thresholds)
	}
	for range 20 {
		grid = append(grid, rapid.Float64Range(0, hi).Draw(t, "S"))
	}
	sweep(t, jobs, beta, grid)
}

func TestContinuousWhenOrdered(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testContinuousWhenOrdered)
}

// testMonotoneWithinCases: for any weights, every S_i is continuous and
// non-decreasing in S between consecutive case boundaries.
func testMonotoneWithinCases(t *rapid.T) {
	jobs := jobsGen(10).Draw(t, "jobs")
	beta := betaGen().Draw(t, "beta")
	_, thresholds := reference(jobs, 1, beta)
	bounds := append([]float64{0}, thresholds...)
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	bounds = append(bounds, 2*bounds[len(bounds)-1]+10)
	r := rapid.IntRange(0, len(bounds)-2).Draw(t, "region")
	lo, hi := bounds[r], bounds[r+1]
	if hi-lo <= 2e-6*max(1, hi) {
		return // an empty region
	}
	grid := []float64{lo + 1e-6*max(1, hi)}
	for range 10 {
		grid = append(grid, rapid.Float64Range(grid[0], hi-1e-6*max(1, hi)).Draw(t, "S"))
	}
	sweep(t, jobs, beta, grid)
}

func TestMonotoneWithinCases(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testMonotoneWithinCases)
}

// TestCaseTwoBoundaryJump is the worked example of the doc comment,
// computed by hand: T = (1, 1), T' = (0, 2), α = (1, 4), β = 1.5, so the
// order is (job 0, job 1), V = (4/3, 8/3), α_min^(2) = 1. Case 1 ends at
// S = V_1/√1 = 4/3; case 2 (k = 1) serves job 1 (weight 4) before job 0
// (k_min) up to its target 8/3, then job 0; case 4 starts at 4.
func TestCaseTwoBoundaryJump(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 1, Downstream: 0, Alpha: 1}, {Remaining: 1, Downstream: 2, Alpha: 4}}
	for _, tc := range []struct{ slots, s0, s1 float64 }{
		{1, 1, 0},
		{4.0 / 3, 4.0 / 3, 0},
		{1.5, 0, 1.5},         // just past case 1: job 0 drops to 0
		{3, 1.0 / 3, 8.0 / 3}, // job 1 at its target 8/3, job 0 the rest
		{4, 4.0 / 3, 8.0 / 3}, // end of case 2 = start of case 4
		{6, 2, 4},             // case 4: proportional to V = (4/3, 8/3)
	} {
		got, err := Allocate(nil, jobs, tc.slots, 1.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !approx(got[0], tc.s0, 1) || !approx(got[1], tc.s1, 1) {
			t.Errorf("S = %v: got %v, want [%v %v]", tc.slots, got, tc.s0, tc.s1)
		}
	}
}

// TestAllocateWorkedExample checks a three-job instance by hand. β = 1.5
// (2/β = 4/3); jobs in input order A (T 3, T' 1, α 1), B (T 2, T' 6, α 4),
// C (T 6, T' 6, α 1/4). Order by max{T, T'}: A (3), then B and C tie at 6
// and B (larger α) goes first: A, B, C. V = (4, 16/3, 4), α_min^(k) =
// (1, 1, 1/4). Thresholds: case 1 ends at V_A/√α_min^(2) = 4; case 2
// (k = 1) ends at (4 + 16/3)/1 = 28/3; case 3 (k = 1) ends at
// (28/3)/√(1/4) = 56/3; case 2 (k = 2) ends at (28/3 + 4)·2 = 80/3.
func TestAllocateWorkedExample(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 3, Downstream: 1, Alpha: 1}, {Remaining: 2, Downstream: 6, Alpha: 4}, {Remaining: 6, Downstream: 6, Alpha: 0.25}}
	for _, tc := range []struct {
		slots float64
		want  [3]float64
	}{
		{3, [3]float64{3, 0, 0}},                    // case 1
		{5, [3]float64{0, 5, 0}},                    // case 2, k = 1: k_min = A, B first (target 16/3)
		{8, [3]float64{8 - 16.0/3, 16.0 / 3, 0}},    // then A
		{14, [3]float64{14 * 3 / 7, 14 * 4 / 7, 0}}, // case 3, k = 1: A:B = 4 : 16/3 = 3 : 4
		// case 2, k = 2: targets with α_min = 1/4: A 8, B 32/3, C 8 (k_min = C, last).
		{20, [3]float64{8, 32.0 / 3, 20 - 8 - 32.0/3}},
		{30, [3]float64{30 * 3 / 10, 30 * 4 / 10, 30 * 3 / 10}}, // case 4: V = 4 : 16/3 : 4
	} {
		got, err := Allocate(nil, jobs, tc.slots, 1.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAllocation(got, tc.want[:], tc.slots) {
			t.Errorf("S = %v: got %v, want %v", tc.slots, got, tc.want)
		}
	}
}

// testAllocateSlots: the integer form sums to S exactly when work exists,
// stays within one slot of the real-valued share, and keeps zeros.
func testAllocateSlots(t *rapid.T) {
	jobs := jobsGen(200).Draw(t, "jobs")
	beta := betaGen().Draw(t, "beta")
	slots := rapid.IntRange(0, 2000).Draw(t, "slots")
	orig := slices.Clone(jobs)
	got, err := AllocateSlots(nil, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("AllocateSlots: %v", err)
	}
	if d := gocmp.Diff(orig, jobs); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	real, err := Allocate(nil, jobs, float64(slots), beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	sum, work := 0, false
	for i, s := range got {
		sum += s
		work = work || jobs[i].Remaining > 0
		if math.Abs(float64(s)-real[i]) >= 1 {
			t.Fatalf("job %d: %d slots, real share %v", i, s, real[i])
		}
		if real[i] == 0 && s != 0 {
			t.Fatalf("job %d: %d slots for a zero share", i, s)
		}
	}
	want := 0
	if work {
		want = slots
	}
	if sum != want {
		t.Fatalf("Σ = %d, want %d", sum, want)
	}
}

func TestAllocateSlots(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateSlots)
}

// TestAllocateSlotsTies: equal remainders go to the smaller max{T, T'}.
// Two jobs with T = 1, α = 1 and keys 5 and 1, β = 1.5, S = 3: case 4
// gives 1.5 each; the extra slot goes to job 1 (key 1), not to job 0.
func TestAllocateSlotsTies(t *testing.T) {
	t.Parallel()
	got, err := AllocateSlots(nil, []Job{{Remaining: 1, Downstream: 5, Alpha: 1}, {Remaining: 1, Downstream: 0, Alpha: 1}}, 3, 1.5, nil)
	if err != nil || !slices.Equal(got, []int{1, 2}) {
		t.Errorf("got %v, %v; want [1 2]", got, err)
	}
}

// testDeterministicAndReused: same input, same bits; a reused dst and
// workspace give the same result as fresh ones.
func testDeterministicAndReused(t *rapid.T) {
	var ws Workspace
	dst := make([]float64, 0, 8)
	for range 3 {
		jobs := jobsGen(300).Draw(t, "jobs")
		beta := betaGen().Draw(t, "beta")
		slots := slotsFor(t, jobs)
		fresh, err := Allocate(nil, jobs, slots, beta, nil)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		dst, err = Allocate(dst, jobs, slots, beta, &ws)
		if err != nil {
			t.Fatalf("Allocate: %v", err)
		}
		if !slices.Equal(fresh, dst) {
			t.Fatalf("reused workspace: %v, fresh: %v", dst, fresh)
		}
	}
}

func TestDeterministicAndReused(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testDeterministicAndReused)
}

// testPermutationEquivariant: when no two jobs tie in the order, permuting
// the input permutes the output.
func testPermutationEquivariant(t *rapid.T) {
	jobs := jobsGen(40).Draw(t, "jobs")
	beta := betaGen().Draw(t, "beta")
	slots := slotsFor(t, jobs)
	seen := map[[2]float64]bool{}
	for _, j := range jobs {
		k := [2]float64{max(j.Remaining, j.Downstream), j.Alpha}
		if j.Remaining > 0 && seen[k] {
			return // a tie: the index decides
		}
		seen[k] = true
	}
	idx := make([]int, len(jobs))
	for i := range idx {
		idx[i] = i
	}
	idx = rapid.Permutation(idx).Draw(t, "perm")
	permuted := make([]Job, len(jobs))
	for i, p := range idx {
		permuted[i] = jobs[p]
	}
	a, err := Allocate(nil, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	b, err := Allocate(nil, permuted, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	_, thresholds := reference(jobs, slots, beta)
	for i, p := range idx {
		if !approx(b[i], a[p], slots) && !nearThreshold(slots, thresholds) {
			t.Fatalf("permuted job %d (original %d): %v, want %v", i, p, b[i], a[p])
		}
	}
}

func TestPermutationEquivariant(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testPermutationEquivariant)
}

// badFloat returns a value that some validation must reject.
func badFloat(t *rapid.T, label string) float64 {
	return rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-300, math.Copysign(0, -1), 1e308, 0}).Draw(t, label)
}

// testAllocateNoPanic feeds hostile values anywhere: the result is an
// *InputError with dst untouched, or a valid allocation.
func testAllocateNoPanic(t *rapid.T) {
	jobs := hostileJobs(t)
	beta := hostileBeta(t)
	testutil.RealNoPanic(t, "dag.Allocate", tol, func(dst []float64, slots float64) ([]float64, error) {
		return Allocate(dst, jobs, slots, beta, nil)
	})
}

func TestAllocateNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateNoPanic)
}

// hostileJobs draws a snapshot with NaN, ±Inf, negative and huge values
// injected (rapid never generates them itself).
func hostileJobs(t *rapid.T) []Job {
	jobs := jobsGen(20).Draw(t, "jobs")
	for i := range jobs {
		switch rapid.IntRange(0, 5).Draw(t, "corrupt") {
		case 0:
			jobs[i].Remaining = badFloat(t, "T")
		case 1:
			jobs[i].Downstream = badFloat(t, "T'")
		case 2:
			jobs[i].Alpha = badFloat(t, "alpha")
		}
	}
	return jobs
}

func hostileBeta(t *rapid.T) float64 {
	return rapid.OneOf(betaGen(), rapid.SampledFrom([]float64{1, 0.5, -2, math.NaN(), math.Inf(1), math.MaxFloat64})).Draw(t, "beta")
}

// testAllocateSlotsNoPanic: the integer form under hostile input.
func testAllocateSlotsNoPanic(t *rapid.T) {
	jobs := hostileJobs(t)
	beta := hostileBeta(t)
	testutil.IntNoPanic(t, "dag.AllocateSlots", func(dst []int, slots int) ([]int, error) {
		return AllocateSlots(dst, jobs, slots, beta, nil)
	})
}

func TestAllocateSlotsNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateSlotsNoPanic)
}

func FuzzAllocate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateNoPanic)) }

func FuzzAllocateSlots(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAllocateSlotsNoPanic)) }

// TestAllocateErrors names the field and job of each invalid input.
func TestAllocateErrors(t *testing.T) {
	t.Parallel()
	ok := []Job{{Remaining: 1, Downstream: 1, Alpha: 1}, {Remaining: 2, Downstream: 0, Alpha: 0.5}}
	with := func(i int, f func(*Job)) []Job {
		js := slices.Clone(ok)
		f(&js[i])
		return js
	}
	for _, tc := range []struct {
		name  string
		jobs  []Job
		slots float64
		beta  float64
		index int
		field string
	}{
		{"beta 1", ok, 1, 1, -1, "beta"},
		{"beta NaN", ok, 1, math.NaN(), -1, "beta"},
		{"beta Inf", ok, 1, math.Inf(1), -1, "beta"},
		{"slots negative", ok, -1, 1.5, -1, "slots"},
		{"slots NaN", ok, math.NaN(), 1.5, -1, "slots"},
		{"slots Inf", ok, math.Inf(1), 1.5, -1, "slots"},
		{"remaining NaN", with(1, func(j *Job) { j.Remaining = math.NaN() }), 1, 1.5, 1, "Remaining"},
		{"remaining negative", with(0, func(j *Job) { j.Remaining = -1 }), 1, 1.5, 0, "Remaining"},
		{"downstream Inf", with(1, func(j *Job) { j.Downstream = math.Inf(1) }), 1, 1.5, 1, "Downstream"},
		{"alpha 0", with(1, func(j *Job) { j.Alpha = 0 }), 1, 1.5, 1, "Alpha"},
		{"alpha NaN", with(0, func(j *Job) { j.Alpha = math.NaN() }), 1, 1.5, 0, "Alpha"},
		{"alpha negative", with(0, func(j *Job) { j.Alpha = -1 }), 1, 1.5, 0, "Alpha"},
		{"alpha Inf", with(1, func(j *Job) { j.Alpha = math.Inf(1) }), 1, 1.5, 1, "Alpha"},
		{"downstream negative", with(0, func(j *Job) { j.Downstream = -1e-300 }), 1, 1.5, 0, "Downstream"},
		{"remaining Inf", with(1, func(j *Job) { j.Remaining = math.Inf(1) }), 1, 1.5, 1, "Remaining"},
	} {
		_, err := Allocate(nil, tc.jobs, tc.slots, tc.beta, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, want job %d field %q", tc.name, err, tc.index, tc.field)
		}
	}
	if _, err := AllocateSlots(nil, ok, -1, 1.5, nil); err == nil {
		t.Error("AllocateSlots(-1): no error")
	}
}

// TestAllocateEdges covers the special cases of the doc comment.
func TestAllocateEdges(t *testing.T) {
	t.Parallel()
	got, err := Allocate(nil, nil, 5, 1.5, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("no jobs: %v, %v", got, err)
	}
	got, err = Allocate(nil, []Job{{Remaining: 0, Downstream: 5, Alpha: 1}, {Remaining: 0, Downstream: 0, Alpha: 2}}, 5, 1.5, nil)
	if err != nil || !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("no work: %v, %v", got, err)
	}
	got, err = Allocate(nil, []Job{{Remaining: 3, Downstream: 0, Alpha: 1}, {Remaining: 4, Downstream: 0, Alpha: 2}}, 0, 1.5, nil)
	if err != nil || !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("no slots: %v, %v", got, err)
	}
	// A finished job's tiny α does not lower α_min: job 1 is served with
	// target 4/3·T·√(α/α_min) = 4/3·3 = 4 and job 2 gets the rest.
	got, err = Allocate(nil, []Job{{Remaining: 0, Downstream: 1, Alpha: 1e-6}, {Remaining: 3, Downstream: 3, Alpha: 2}, {Remaining: 3, Downstream: 4, Alpha: 2}}, 6, 1.5, nil)
	if err != nil || !sameAllocation(got, []float64{0, 4, 2}, 6) {
		t.Errorf("finished job: %v, %v", got, err)
	}
	// β ≥ 2: V_i = T_i·√α_i; one job: S_1 = S.
	got, err = Allocate(nil, []Job{{Remaining: 3, Downstream: 0, Alpha: 4}}, 100, 3, nil)
	if err != nil || !slices.Equal(got, []float64{100}) {
		t.Errorf("one job: %v, %v", got, err)
	}
}

// benchFixture is the snapshot the benchmarks share: n jobs with 1–1000
// remaining tasks, 0–999 downstream, α in [0.05, 18.05], and a third of the
// slots the tasks would need, so that the cut falls deep in the order.
func benchFixture(n int) (jobs []Job, remaining []float64, slots float64) {
	rng := rand.New(rand.NewPCG(1, 1))
	jobs = make([]Job, n)
	remaining = make([]float64, n)
	var total float64
	for i := range jobs {
		jobs[i] = Job{
			Remaining:  float64(1 + rng.IntN(1000)),
			Downstream: float64(rng.IntN(1000)),
			Alpha:      0.05 + 18*rng.Float64(),
		}
		remaining[i] = jobs[i].Remaining
		total += jobs[i].Remaining
	}
	return jobs, remaining, total / 3
}

func benchmarkAllocate(b *testing.B, n int) {
	jobs, _, slots := benchFixture(n)
	dst := make([]float64, n)
	var ws Workspace
	if _, err := Allocate(dst, jobs, slots, 1.5, &ws); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dst, _ = Allocate(dst, jobs, slots, 1.5, &ws)
	}
	b.StopTimer()
	var sum float64
	for _, s := range dst {
		sum += s
	}
	if !approx(sum, slots, slots) {
		b.Fatalf("ΣS_i = %v, want %v", sum, slots)
	}
}

func BenchmarkAllocate(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkAllocate(b, n) })
	}
}

func benchmarkAllocateSlots(b *testing.B, n int) {
	jobs, _, slots := benchFixture(n)
	dst := make([]int, n)
	var ws Workspace
	if _, err := AllocateSlots(dst, jobs, int(slots), 1.5, &ws); err != nil { // warm the workspace
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dst, _ = AllocateSlots(dst, jobs, int(slots), 1.5, &ws)
	}
	b.StopTimer()
	sum := 0
	for _, s := range dst {
		sum += s
	}
	if sum != int(slots) {
		b.Fatalf("Σ = %d, want %d", sum, int(slots))
	}
}

func BenchmarkAllocateSlots(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkAllocateSlots(b, n) })
	}
}

// BenchmarkAlgorithm1Baseline runs alloc.Allocate (Algorithm 1, the O(n)
// radix fill that Algorithm 3 generalises) on the same task counts: the
// figures of Allocate are quoted as ratios to it, measured in the same run.
func BenchmarkAlgorithm1Baseline(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			_, remaining, slots := benchFixture(n)
			dst := make([]float64, n)
			var ws alloc.Workspace
			if _, err := alloc.Allocate(dst, remaining, slots, 1.5, &ws); err != nil { // warm the workspace
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				dst, _ = alloc.Allocate(dst, remaining, slots, 1.5, &ws)
			}
			b.StopTimer()
			if len(dst) != n {
				b.Fatal("no result")
			}
		})
	}
}

// TestAllocateSlotsAlphaTie: equal remainders and equal max{T, T'} go to
// the larger α, as in Algorithm 3's order. A (T 2, T' 10, α 1) and
// B (T 1, T' 10, α 4) have the same weighted size T·√α = 2 and the same key
// 10, so on S = 7 slots (abundant: V = (2/1.5)·2 = 2.67 each) they share
// 3.5 each; the odd slot goes to B, whose α is larger, though A comes first
// by index.
func TestAllocateSlotsAlphaTie(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 2, Downstream: 10, Alpha: 1}, {Remaining: 1, Downstream: 10, Alpha: 4}}
	real, err := Allocate(nil, jobs, 7, 1.5, nil)
	if err != nil || math.Abs(real[0]-3.5) > 1e-12 || math.Abs(real[1]-3.5) > 1e-12 {
		t.Fatalf("real shares %v, %v; want [3.5 3.5]", real, err)
	}
	got, err := AllocateSlots(nil, jobs, 7, 1.5, nil)
	if err != nil || !slices.Equal(got, []int{3, 4}) {
		t.Errorf("got %v, %v; want [3 4]", got, err)
	}
}

// referenceOrder is Algorithm 3's order by sorting (testutil.DAGOrder).
func referenceOrder(jobs []Job) []int { return testutil.DAGOrder(dagJobs(jobs)) }
