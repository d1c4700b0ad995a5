package overlap

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// TestLogNormalParams checks the parameters against gonum's own mean and
// standard deviation of distuv.LogNormal, and the §5.3 values by hand.
func TestLogNormalParams(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ mean, sd float64 }{{1, 3.65}, {1, 3.28}, {2, 0.5}, {1e-3, 1e-2}, {7, 0}} {
		mu, sigma, err := LogNormalParams(c.mean, c.sd)
		if err != nil {
			t.Fatal(err)
		}
		d := distuv.LogNormal{Mu: mu, Sigma: sigma}
		if !near(d.Mean(), c.mean, c.mean) || !near(d.StdDev(), c.sd, c.sd) {
			t.Errorf("LogNormalParams(%v, %v) = (%v, %v): gonum gives mean %v sd %v", c.mean, c.sd, mu, sigma, d.Mean(), d.StdDev())
		}
	}
	// σ² = ln(1 + 3.65²) = ln 14.3225, μ = −σ²/2.
	mu, sigma, _ := LogNormalParams(1, 3.65)
	if math.Abs(sigma-1.6315121) > 1e-6 || math.Abs(mu+1.3309159) > 1e-6 {
		t.Errorf("map sizes: (μ, σ) = (%v, %v), want (−1.3309159, 1.6315121)", mu, sigma)
	}
	for _, c := range []struct {
		mean, sd float64
		field    string
	}{{0, 1, "mean"}, {-1, 1, "mean"}, {math.NaN(), 1, "mean"}, {1, -1, "sd"}, {1, math.Inf(1), "sd"}} {
		_, _, err := LogNormalParams(c.mean, c.sd)
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != c.field {
			t.Errorf("LogNormalParams(%v, %v): got %v, want an error on %q", c.mean, c.sd, err, c.field)
		}
	}
}

func testLogNormalParamsNoPanic(t *rapid.T) {
	mean := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1), math.Copysign(0, -1)})).Draw(t, "mean")
	sd := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1)})).Draw(t, "sd")
	mu, sigma, err := LogNormalParams(mean, sd)
	if err == nil && (!finite(mu) || !finite(sigma) || sigma < 0) {
		t.Fatalf("LogNormalParams(%v, %v) = (%v, %v)", mean, sd, mu, sigma)
	}
}

func TestLogNormalParamsNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLogNormalParamsNoPanic)
}

func FuzzLogNormalParams(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testLogNormalParamsNoPanic)) }

// TestGenerateStatistics checks a large sample of the §5.3 workload against
// the distributions it is drawn from: sorted arrivals with mean gap 1/λ;
// log x and log(y/x) normal with the LogNormalParams means (checked on
// medians, robust to the heavy tails) and uncorrelated; mean map size 1.
func TestGenerateStatistics(t *testing.T) {
	t.Parallel()
	const n = 100000
	w := PaperWorkload(0.9)
	jobs, err := w.Generate(nil, n, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != n || !slices.IsSortedFunc(jobs, func(a, b Arrival) int { return int(math.Copysign(1, a.Time-b.Time)) }) {
		t.Fatalf("%d jobs, sorted %v", len(jobs), slices.IsSortedFunc(jobs, func(a, b Arrival) int { return int(math.Copysign(1, a.Time-b.Time)) }))
	}
	logX, logG, x := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, a := range jobs {
		x[i], logX[i], logG[i] = a.Map, math.Log(a.Map), math.Log(a.Shuffle/a.Map)
	}
	muX, sigmaX, _ := LogNormalParams(1, 3.65)
	muG, sigmaG, _ := LogNormalParams(1, 3.28)
	// Sample medians of normals: sd ≈ 1.2533·σ/√n ≈ 0.0065; 5 sd.
	if m := median(logX); math.Abs(m-muX) > 5*1.2533*sigmaX/math.Sqrt(n) {
		t.Errorf("median log x = %v, want %v", m, muX)
	}
	if m := median(logG); math.Abs(m-muG) > 5*1.2533*sigmaG/math.Sqrt(n) {
		t.Errorf("median log γ = %v, want %v", m, muG)
	}
	if s := stat.StdDev(logX, nil); math.Abs(s-sigmaX) > 0.02 {
		t.Errorf("sd of log x = %v, want %v", s, sigmaX)
	}
	if c := stat.Correlation(logX, logG, nil); math.Abs(c) > 5/math.Sqrt(n) {
		t.Errorf("corr(log x, log γ) = %v, want 0 (independent)", c)
	}
	// Mean map size 1, sd of the sample mean 3.65/√n ≈ 0.012; 5 sd.
	if m := stat.Mean(x, nil); math.Abs(m-1) > 5*3.65/math.Sqrt(n) {
		t.Errorf("mean map size %v, want 1", m)
	}
	// Mean gap 1/λ = 1/0.9; sd of the sample mean (1/λ)/√n.
	if g := jobs[n-1].Time / n; math.Abs(g-1/0.9) > 5/0.9/math.Sqrt(n) {
		t.Errorf("mean interarrival %v, want %v", g, 1/0.9)
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestGenerateDeterministic: the same seed gives the same jobs, bit for bit;
// another seed does not.
func TestGenerateDeterministic(t *testing.T) {
	t.Parallel()
	w := PaperWorkload(0.75)
	a, _ := w.Generate(nil, 1000, rand.New(rand.NewPCG(7, 7)))
	b, _ := w.Generate(make([]Arrival, 0, 1000), 1000, rand.New(rand.NewPCG(7, 7)))
	c, _ := w.Generate(nil, 1000, rand.New(rand.NewPCG(8, 8)))
	if !slices.Equal(a, b) {
		t.Error("same seed, different jobs")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds, same jobs")
	}
	// The rate: with E[y] = 2·E[x] the shuffle station is the busier one.
	w = Workload{Load: 0.5, MapMean: 1, MapSD: 0, RatioMean: 2, RatioSD: 0}
	jobs, err := w.Generate(nil, 20000, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if g := jobs[len(jobs)-1].Time / 20000; math.Abs(g-4) > 0.2 {
		t.Errorf("mean gap %v, want 1/λ = max(E[x], E[y])/load = 4", g)
	}
	if jobs[0].Map != 1 || jobs[0].Shuffle != 2 {
		t.Errorf("sd 0 gives %+v, want sizes (1, 2)", jobs[0])
	}
}

func TestGenerateErrors(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		w     Workload
		n     int
		rng   *rand.Rand
		field string
	}{
		{PaperWorkload(0.9), -1, rng, "n"},
		{PaperWorkload(0), 10, rng, "Load"},
		{PaperWorkload(math.NaN()), 10, rng, "Load"},
		{PaperWorkload(2e9), 10, rng, "Load"},
		{Workload{Load: 1, MapMean: 1e101, MapSD: 1, RatioMean: 1, RatioSD: 1}, 10, rng, "mapMean"},
		{Workload{Load: 1, MapMean: 1, MapSD: 1e7, RatioMean: 1, RatioSD: 1}, 10, rng, "mapSD"},
		{PaperWorkload(0.9), 10, nil, "rng"},
		{Workload{Load: 1, MapMean: 0, MapSD: 1, RatioMean: 1, RatioSD: 1}, 10, rng, "mapMean"},
		{Workload{Load: 1, MapMean: 1, MapSD: 1, RatioMean: 1, RatioSD: -1}, 10, rng, "ratioSD"},
	}
	for _, c := range cases {
		dst := []Arrival{{Time: 42}}
		got, err := c.w.Generate(dst, c.n, c.rng)
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != c.field || got != nil || dst[0].Time != 42 {
			t.Errorf("%+v n=%d: got %v, want an InputError on %q", c.w, c.n, err, c.field)
		}
	}
}

func testGenerateNoPanic(t *rapid.T) {
	w := Workload{
		Load:      rapid.OneOf(rapid.Float64(), rapid.Just(math.NaN()), rapid.Float64Range(0.1, 1), rapid.SampledFrom([]float64{1e-9, 1e9}), testutil.Magnitude()).Draw(t, "load"),
		MapMean:   rapid.OneOf(rapid.Float64(), rapid.Just(1.0), rapid.SampledFrom([]float64{1e-100, 1e100}), testutil.Magnitude()).Draw(t, "mapMean"),
		MapSD:     rapid.OneOf(rapid.Float64(), rapid.Just(3.65), rapid.SampledFrom([]float64{1e106, 1e-94}), testutil.Magnitude()).Draw(t, "mapSD"),
		RatioMean: rapid.OneOf(rapid.Float64(), rapid.Just(1.0), testutil.Magnitude()).Draw(t, "ratioMean"),
		RatioSD:   rapid.OneOf(rapid.Float64(), rapid.Just(3.28), testutil.Magnitude()).Draw(t, "ratioSD"),
	}
	n := rapid.IntRange(-2, 50).Draw(t, "n")
	jobs, err := w.Generate(nil, n, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) {
			t.Fatalf("error %v is not an *InputError", err)
		}
		return
	}
	inRange := func(mean, sd float64) bool { return mean >= 1e-100 && mean <= 1e100 && sd >= 0 && sd <= 1e6*mean }
	if !(w.Load >= 1e-9 && w.Load <= 1e9) || !inRange(w.MapMean, w.MapSD) || !inRange(w.RatioMean, w.RatioSD) || n < 0 {
		t.Fatalf("%+v n=%d accepted outside the documented bounds", w, n)
	}
	for i, a := range jobs {
		if !finite(a.Time) || !finite(a.Map) || !finite(a.Shuffle) || a.Map < 0 || a.Shuffle < 0 || (i > 0 && a.Time < jobs[i-1].Time) {
			t.Fatalf("job %d: %+v", i, a)
		}
	}
	_ = PaperWorkload(w.Load)
}

func TestGenerateNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testGenerateNoPanic)
}

func FuzzGenerate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testGenerateNoPanic)) }

// testPaperWorkload: PaperWorkload is a constructor; any load gives the
// paper's distributions (§5.3: 1, 3.65, 1, 3.28).
func testPaperWorkload(t *rapid.T) {
	load := rapid.OneOf(rapid.Float64(), rapid.Just(math.NaN())).Draw(t, "load")
	w := PaperWorkload(load)
	if w.MapMean != 1 || w.MapSD != 3.65 || w.RatioMean != 1 || w.RatioSD != 3.28 || (w.Load != load && !math.IsNaN(load)) {
		t.Fatalf("PaperWorkload(%v) = %+v", load, w)
	}
}

func TestPaperWorkload(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testPaperWorkload)
}

func FuzzPaperWorkload(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testPaperWorkload)) }
