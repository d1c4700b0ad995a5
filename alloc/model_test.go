package alloc_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
)

// modelTol is the relative tolerance for comparing closed forms that are
// algebraically equal but computed along different paths (a few ulps, with
// margin for catastrophic cancellation near S_i = V_i).
const modelTol = 1e-9

func closeTo(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// blowUp is the second factor of eq. 3.1, E[τ]/(k·E[min(τ_1..τ_k)]), for
// Pareto(x_m, β) durations: the minimum of k Pareto(x_m, β) variables is
// Pareto(x_m, kβ), whose mean is kβx_m/(kβ−1), so the factor is
// (β/(β−1)) / (k·kβ/(kβ−1)) = (kβ−1)/(k²(β−1)). It is derived here from the
// distribution, independently of the package's eq. 3.3.
func blowUp(k, beta float64) float64 {
	return (k*beta - 1) / (k * k * (beta - 1))
}

// eq31 is the throughput model of eq. 3.1 for speculation level k.
func eq31(remaining, slots, k, beta float64) float64 {
	return min(slots, remaining*k) * blowUp(k, beta)
}

// TestParetoMinimumMean checks by simulation (gonum's Pareto sampler, fixed
// seed) the order statistic behind blowUp: E[min of k Pareto(x_m, β)] =
// kβx_m/(kβ−1). Only kβ > 2 is simulated, where the minimum has a finite
// variance and the sample mean converges at the usual rate.
func TestParetoMinimumMean(t *testing.T) {
	t.Parallel()
	const samples = 200_000
	const tol = 0.02 // ≈ 6 standard errors for these parameters
	src := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct{ k, beta float64 }{{2, 1.2}, {2, 1.6}, {3, 1.3}, {4, 1.1}} {
		d := distuv.Pareto{Xm: 1, Alpha: tc.beta, Src: src}
		var sum float64
		for range samples {
			m := math.Inf(1)
			for range int(tc.k) {
				m = min(m, d.Rand())
			}
			sum += m
		}
		got := sum / samples
		want := tc.k * tc.beta / (tc.k*tc.beta - 1)
		if math.Abs(got-want) > tol*want {
			t.Errorf("k=%g β=%g: simulated E[min] = %.4f, order statistic gives %.4f", tc.k, tc.beta, got, want)
		}
	}
}

// testThroughputIsEq31 checks eq. 3.3 against eq. 3.1 with the Pareto
// blow-up factor and the level of eq. 3.2 — a derivation independent of the
// package's closed form (and of its corrected first case).
func testThroughputIsEq31(t *rapid.T) {
	beta := rapid.Float64Range(1.01, 1.99).Draw(t, "beta")
	remaining := rapid.Float64Range(0.01, 1e4).Draw(t, "remaining")
	slots := rapid.Float64Range(0, 3).Draw(t, "slotsPerVirtualSize") * 2 / beta * remaining
	k, err := alloc.SpeculationLevel(remaining, slots, beta)
	if err != nil {
		t.Fatalf("SpeculationLevel: %v", err)
	}
	got, err := alloc.Throughput(remaining, slots, beta)
	if err != nil {
		t.Fatalf("Throughput: %v", err)
	}
	if want := eq31(remaining, slots, k, beta); !closeTo(got, want, modelTol) {
		t.Fatalf("Throughput(%g, %g, %g) = %g, eq. 3.1 with k = %g gives %g", remaining, slots, beta, got, k, want)
	}
}

func TestThroughputIsEq31(t *testing.T) { t.Parallel(); rapid.Check(t, testThroughputIsEq31) }

// testSpeculationLevelIsOptimal checks eq. 3.2: the level it returns
// maximises eq. 3.1 over k ≥ 1, found numerically by gonum's Brent-free
// golden-section search via optimize.Minimize on a 1-D problem.
func testSpeculationLevelIsOptimal(t *rapid.T) {
	beta := rapid.Float64Range(1.05, 1.95).Draw(t, "beta")
	remaining := rapid.Float64Range(1, 100).Draw(t, "remaining")
	slots := rapid.Float64Range(0.05, 3).Draw(t, "slotsPerVirtualSize") * 2 / beta * remaining
	k, err := alloc.SpeculationLevel(remaining, slots, beta)
	if err != nil {
		t.Fatalf("SpeculationLevel: %v", err)
	}
	// Maximise over k in [1, 20] with NelderMead on an unbounded variable
	// mapped into the interval.
	toK := func(x float64) float64 { return 1 + 19/(1+math.Exp(-x)) }
	problem := optimize.Problem{Func: func(x []float64) float64 { return -eq31(remaining, slots, toK(x[0]), beta) }}
	res, err := optimize.Minimize(problem, []float64{0}, &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-13, Iterations: 200}}, &optimize.NelderMead{})
	if err != nil && res == nil {
		t.Fatalf("optimize: %v", err)
	}
	best := -res.F
	if at := eq31(remaining, slots, k, beta); at < best*(1-1e-7) {
		t.Fatalf("eq. 3.2 level k = %g gives throughput %g, the optimiser found %g at k = %g", k, at, best, toK(res.X[0]))
	}
}

func TestSpeculationLevelIsOptimal(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculationLevelIsOptimal)
}

// testThroughputConcave checks that μ is concave and non-decreasing in S_i,
// and that its derivative is continuous at S_i = V_i (both one-sided
// difference quotients tend to β²/(4(β−1))).
func testThroughputConcave(t *rapid.T) {
	beta := rapid.Float64Range(1.01, 3).Draw(t, "beta")
	remaining := rapid.Float64Range(0.1, 1000).Draw(t, "remaining")
	a := rapid.Float64Range(0, 5*remaining).Draw(t, "a")
	b := rapid.Float64Range(0, 5*remaining).Draw(t, "b")
	mu := func(s float64) float64 {
		v, err := alloc.Throughput(remaining, s, beta)
		if err != nil {
			t.Fatalf("Throughput: %v", err)
		}
		return v
	}
	if mid := mu((a + b) / 2); mid < (mu(a)+mu(b))/2-modelTol*max(1, mid) {
		t.Fatalf("not concave: μ((a+b)/2) = %g < (μ(%g)+μ(%g))/2 = %g", mid, a, b, (mu(a)+mu(b))/2)
	}
	if lo, hi := min(a, b), max(a, b); mu(lo) > mu(hi)+modelTol*max(1, mu(hi)) {
		t.Fatalf("decreasing: μ(%g) = %g > μ(%g) = %g", lo, mu(lo), hi, mu(hi))
	}
	if beta < 2 {
		v := 2 / beta * remaining
		h := 1e-6 * v
		slope := beta * beta / (4 * (beta - 1))
		left, right := (mu(v)-mu(v-h))/h, (mu(v+h)-mu(v))/h
		if !closeTo(left, slope, 1e-4) || !closeTo(right, slope, 1e-4) {
			t.Fatalf("derivative at V = %g: left %g, right %g, want both %g", v, left, right, slope)
		}
	}
}

func TestThroughputConcave(t *testing.T) { t.Parallel(); rapid.Check(t, testThroughputConcave) }

func TestNoSpeculationExtension(t *testing.T) {
	t.Parallel()
	for _, beta := range []float64{2, 2.5, 10} {
		v, _ := alloc.VirtualSize(7, beta)
		k, _ := alloc.SpeculationLevel(7, 20, beta)
		below, _ := alloc.Throughput(7, 3, beta)
		above, _ := alloc.Throughput(7, 20, beta)
		if v != 7 || k != 1 || below != 3 || above != 7 {
			t.Errorf("β = %g: V = %g, k = %g, μ(3) = %g, μ(20) = %g; want 7, 1, 3, 7", beta, v, k, below, above)
		}
	}
	// Just below 2 the model is the thesis's: V = (2/β)T, level 2/β.
	v, _ := alloc.VirtualSize(7, 1.75)
	if want := 8.0; v != want {
		t.Errorf("VirtualSize(7, 1.75) = %g, want %g", v, want)
	}
}

func TestModelErrors(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name  string
		call  func() error
		field string
	}{
		{"beta=1", func() error { _, err := alloc.VirtualSize(1, 1); return err }, "beta"},
		{"beta=0.5", func() error { _, err := alloc.Throughput(1, 1, 0.5); return err }, "beta"},
		{"beta=NaN", func() error { _, err := alloc.SpeculationLevel(1, 1, nan); return err }, "beta"},
		{"beta=+Inf", func() error { _, err := alloc.VirtualSize(1, inf); return err }, "beta"},
		{"remaining<0", func() error { _, err := alloc.VirtualSize(-1, 1.5); return err }, "remaining"},
		{"remaining=NaN", func() error { _, err := alloc.Throughput(nan, 1, 1.5); return err }, "remaining"},
		{"slots=-Inf", func() error { _, err := alloc.Throughput(1, -inf, 1.5); return err }, "slots"},
		{"slots=+Inf", func() error { _, err := alloc.SpeculationLevel(1, inf, 1.5); return err }, "slots"},
	}
	for _, tc := range cases {
		var ie *specsched.InputError
		if err := tc.call(); !errors.As(err, &ie) || ie.Field != tc.field || ie.Index != -1 {
			t.Errorf("%s: got error %v, want an InputError for scalar field %q", tc.name, err, tc.field)
		}
	}
	var ie *specsched.InputError
	_, err := alloc.TotalThroughput([]float64{1, 2, nan}, []float64{1, 1, 1}, 1.5)
	if !errors.As(err, &ie) || ie.Index != 2 || ie.Field != "remaining" {
		t.Errorf("TotalThroughput with NaN at job 2: %v", err)
	}
	_, err = alloc.TotalThroughput([]float64{1, 2}, []float64{1, -1}, 1.5)
	if !errors.As(err, &ie) || ie.Index != 1 || ie.Field != "slots" {
		t.Errorf("TotalThroughput with slots[1] = -1: %v", err)
	}
	if _, err = alloc.TotalThroughput([]float64{1, 2}, []float64{1}, 1.5); !errors.As(err, &ie) {
		t.Errorf("TotalThroughput with mismatched lengths: %v", err)
	}
}

// testModelNoPanic feeds arbitrary values, including NaN, ±Inf and extremes,
// to the scalar model functions: each returns an error or a finite,
// non-negative value.
func testModelNoPanic(t *rapid.T) {
	pick := func(label string) float64 {
		specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, math.Copysign(0, -1), 1, 1.5, 2, math.MaxFloat64, 5e-324}
		if rapid.Bool().Draw(t, label+"_special") {
			return rapid.SampledFrom(specials).Draw(t, label)
		}
		return rapid.Float64().Draw(t, label)
	}
	remaining, slots, beta := pick("remaining"), pick("slots"), pick("beta")
	valid := remaining >= 0 && !math.IsInf(remaining, 1) && slots >= 0 && !math.IsInf(slots, 1) && beta > 1 && !math.IsInf(beta, 1)
	for name, f := range map[string]func() (float64, error){
		"VirtualSize":      func() (float64, error) { return alloc.VirtualSize(remaining, beta) },
		"SpeculationLevel": func() (float64, error) { return alloc.SpeculationLevel(remaining, slots, beta) },
		"Throughput":       func() (float64, error) { return alloc.Throughput(remaining, slots, beta) },
		"TotalThroughput": func() (float64, error) {
			return alloc.TotalThroughput([]float64{remaining}, []float64{slots}, beta)
		},
	} {
		v, err := f()
		if err != nil {
			var ie *specsched.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%s: error %v is not an InputError", name, err)
			}
			if valid && name != "VirtualSize" {
				t.Fatalf("%s(%g, %g, %g): unexpected error %v", name, remaining, slots, beta, err)
			}
			continue
		}
		if math.IsNaN(v) || v < 0 {
			t.Fatalf("%s(%g, %g, %g) = %g", name, remaining, slots, beta, v)
		}
	}
}

func TestModelNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testModelNoPanic) }

func FuzzModel(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testModelNoPanic)) }
