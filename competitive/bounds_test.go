package competitive

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// permutations calls f with every permutation of 0..n-1.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// testLowerBound: eq. 18's second term is the best completion order's
// Σ(N+1−k)·w_(k)/M (Theorem 1, eq. 17), found here by trying every order.
func testLowerBound(t *rapid.T) {
	jobs := genJobs(t, 0, 7, 6, 2)
	machines := rapid.IntRange(1, 50).Draw(t, "machines")
	peak := rapid.SampledFrom([]float64{1, 1.5, 4}).Draw(t, "peak")
	before := cloneJobs(jobs)
	got, err := LowerBound(jobs, machines, peak, nil)
	if err != nil {
		t.Fatalf("LowerBound: %v", err)
	}
	mustNotChange(t, before, jobs)
	chains := 0.0
	works := make([]float64, len(jobs))
	for j, job := range jobs {
		works[j] = taskByTask(job, 0, false)
		for _, p := range []Phase{job.Map, job.Reduce} {
			if p.Tasks > 0 {
				chains += p.Mean
			}
		}
	}
	best := math.Inf(1)
	if len(jobs) == 0 {
		best = 0
	}
	permutations(len(jobs), func(order []int) {
		s := 0.0
		for k, j := range order {
			s += float64(len(jobs)-k) * works[j]
		}
		best = min(best, s)
	})
	if want := max(chains/peak, best/float64(machines)); !closeTo(got, want, relTol) {
		t.Fatalf("LowerBound = %v, want max(%v/Δ, %v/M) = %v", got, chains, best, want)
	}
}

func TestLowerBound(t *testing.T) { t.Parallel(); rapid.Check(t, testLowerBound) }

// testSEWBound against eq. 23 with A_j summed over all i with Υ_i ≤ Υ_j.
func testSEWBound(t *rapid.T) {
	jobs := someJobs(t, 0, 15)
	machines := rapid.IntRange(1, 30).Draw(t, "machines")
	lambda := rapid.SampledFrom([]float64{0, 1, 2.5}).Draw(t, "lambda")
	before := cloneJobs(jobs)
	got, err := SEWBound(make([]float64, 1, 40), jobs, machines, lambda, nil)
	if err != nil {
		t.Fatalf("SEWBound: %v", err)
	}
	mustNotChange(t, before, jobs)
	for j, job := range jobs {
		yj := taskByTask(job, lambda, false)
		a := 0.0
		for _, other := range jobs {
			if y := taskByTask(other, lambda, false); y <= yj {
				a += y
			}
		}
		want := 0.0
		if job.Map.Tasks+job.Reduce.Tasks > 0 {
			for _, p := range []Phase{job.Map, job.Reduce} {
				if p.Tasks > 0 {
					want += p.Mean + lambda*p.SD
				}
			}
			want += 2 * a / float64(machines)
		}
		if !closeTo(got[j], want, relTol) {
			t.Fatalf("job %d: bound %v, want %v", j, got[j], want)
		}
	}
}

func TestSEWBound(t *testing.T) { t.Parallel(); rapid.Check(t, testSEWBound) }

func testSEWConfidence(t *rapid.T) {
	lambda := rapid.Float64Range(0, 1000).Draw(t, "lambda")
	got, err := SEWConfidence(lambda)
	if err != nil {
		t.Fatalf("SEWConfidence(%v): %v", lambda, err)
	}
	if want := math.Pow(lambda, 8) / math.Pow(1+lambda*lambda, 4); !closeTo(got, want, 1e-12) {
		t.Fatalf("SEWConfidence(%v) = %v, want λ⁸/(1+λ²)⁴ = %v", lambda, got, want)
	}
	// Four Cantelli bounds λ²/(1+λ²) multiplied (the proof of Theorem 2).
	c := lambda * lambda / (1 + lambda*lambda)
	if !closeTo(got, c*c*c*c, 1e-12) {
		t.Fatalf("SEWConfidence(%v) = %v, want (λ²/(1+λ²))⁴ = %v", lambda, got, c*c*c*c)
	}
	more, _ := SEWConfidence(lambda + 1)
	if !(got >= 0 && got <= more && more <= 1) {
		t.Fatalf("not a non-decreasing probability: %v then %v", got, more)
	}
}

func TestSEWConfidence(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSEWConfidence)
	for _, c := range []struct{ lambda, want float64 }{{0, 0}, {1, 1.0 / 16}, {2, 256.0 / 625}, {1e200, 1}} {
		if got, err := SEWConfidence(c.lambda); err != nil || !closeTo(got, c.want, 1e-15) {
			t.Errorf("SEWConfidence(%v) = %v, %v; want %v", c.lambda, got, err, c.want)
		}
	}
}

func TestRatios(t *testing.T) {
	t.Parallel()
	if got, err := SEWRatio(1); err != nil || got != 3 {
		t.Errorf("SEWRatio(1) = %v, %v; want 3", got, err)
	}
	if got, err := SEWRatio(2.5); err != nil || got != 4.5 {
		t.Errorf("SEWRatio(2.5) = %v, %v; want 4.5", got, err)
	}
	if got, err := SREWCSpeed(0.25, 0.5); err != nil || got != 2 {
		t.Errorf("SREWCSpeed(0.25, 0.5) = %v, %v; want 2", got, err)
	}
	// 2(M + δ + MΔ)/(βε) with M = 10, δ = 2, Δ = 1: 2·22/0.125 = 352.
	if got, err := SREWCRatio(10, 0.25, 0.5, 1); err != nil || got != 352 {
		t.Errorf("SREWCRatio(10, 0.25, 0.5, 1) = %v, %v; want 352", got, err)
	}
	// β = 1/2 is inside the domain (δ(1−β) − 1 = ε/2 exactly): with ε = 1,
	// δ = 3 and the constant is 2(10 + 3 + 10)/0.5 = 92.
	if got, err := SREWCRatio(10, 0.5, 1, 1); err != nil || got != 92 {
		t.Errorf("SREWCRatio(10, 0.5, 1, 1) = %v, %v; want 92", got, err)
	}
	if _, err := SREWCSpeed(0.5000000000000001, 1); err == nil {
		t.Errorf("SREWCSpeed accepted β just above 1/2")
	}
}

// testTheorem4Domain checks the step of Theorem 4's proof that fixes the
// domain of β: δ(1−β) − 1 ≥ ε/2 for δ = 1 + 2β + ε. The difference is
// β(1−2β) + ε(1/2−β): ≥ 0 for every β ≤ 1/2 (so SREWCRatio accepts them)
// and < 0 for every ε when β > 1/2.
func testTheorem4Domain(t *rapid.T) {
	beta := rapid.Float64Range(1e-6, 1).Draw(t, "beta")
	eps := rapid.Float64Range(1e-6, 10).Draw(t, "eps")
	delta := 1 + 2*beta + eps
	holds := delta*(1-beta)-1 >= eps/2-1e-12
	_, err := SREWCRatio(4, beta, eps, 1)
	if beta <= 0.5 && (!holds || err != nil) {
		t.Fatalf("β = %v, ε = %v: step holds %v, error %v; want it to hold and be accepted", beta, eps, holds, err)
	}
	if beta > 0.5 && err == nil {
		t.Fatalf("β = %v > 1/2 accepted", beta)
	}
	if beta > 0.5+1e-6 && holds {
		t.Fatalf("β = %v, ε = %v: the step holds above 1/2", beta, eps)
	}
}

func TestTheorem4Domain(t *testing.T) { t.Parallel(); rapid.Check(t, testTheorem4Domain) }

func testBoundsNoPanic(t *rapid.T) {
	jobs := genJobs(t, 0, 6, 5, 2)
	corrupt(t, jobs)
	machines := anyInt(t, "machines", 0, 1, 4)
	lambda := anyFloat(t, "lambda", 0, 1, 1e200)
	peak := anyFloat(t, "peak", 1, 2, 0.5)
	beta := anyFloat(t, "beta", 0.5, 0.25, 0.75, 5e-324)
	eps := anyFloat(t, "eps", 0.5, 5e-324, 0)
	finite := func(name string, v float64, err error) {
		if err != nil {
			if !isInputError(err, "competitive."+name) {
				t.Fatalf("%s: %v is not an InputError of the function", name, err)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("%s = %v", name, v)
		}
	}
	v, err := LowerBound(jobs, machines, peak, nil)
	finite("LowerBound", v, err)
	sentinel := []float64{-3, -3}
	dst := slices.Clone(sentinel)
	b, err := SEWBound(dst, jobs, machines, lambda, nil)
	if err != nil && (b != nil || !slices.Equal(dst, sentinel)) {
		t.Fatalf("SEWBound error %v with result %v, dst %v", err, b, dst)
	}
	for _, x := range b {
		finite("SEWBound", x, nil)
	}
	if err != nil {
		finite("SEWBound", 0, err)
	}
	v, err = SEWConfidence(lambda)
	finite("SEWConfidence", v, err)
	if err == nil && v > 1 {
		t.Fatalf("SEWConfidence = %v > 1", v)
	}
	v, err = SEWRatio(peak)
	finite("SEWRatio", v, err)
	v, err = SREWCSpeed(beta, eps)
	finite("SREWCSpeed", v, err)
	v, err = SREWCRatio(machines, beta, eps, peak)
	finite("SREWCRatio", v, err)
}

func TestBoundsNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testBoundsNoPanic) }

func FuzzLowerBound(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testBoundsNoPanic)) }
func FuzzSEWBound(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testBoundsNoPanic)) }
func FuzzSEWConfidence(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testBoundsNoPanic)) }
func FuzzSEWRatio(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testBoundsNoPanic)) }
func FuzzSREWCSpeed(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testBoundsNoPanic)) }
func FuzzSREWCRatio(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testBoundsNoPanic)) }

// testStringsNoPanic covers the String methods of the enums.
func testStringsNoPanic(t *rapid.T) {
	v := rapid.Uint8().Draw(t, "v")
	for _, s := range []string{Stage(v).String(), ActionKind(v).String(), Mode(v).String(), Algorithm(v).String()} {
		if s == "" {
			t.Fatalf("empty String for %d", v)
		}
	}
}

func TestStrings(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testStringsNoPanic)
	got := []string{MapStage.String(), ReduceStage.String(), Launch.String(), Clone.String(), Preempt.String(),
		Preemptive.String(), NonPreemptive.String(), AlgorithmSEW.String(), AlgorithmSREWC.String(), AlgorithmFair.String(), Mode(9).String(), Algorithm(7).String()}
	want := []string{"map", "reduce", "launch", "clone", "preempt", "preemptive", "non-preemptive", "SEW", "SREW+C", "Fair", "Mode(9)", "Algorithm(7)"}
	if !slices.Equal(got, want) {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func FuzzString(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testStringsNoPanic)) }
