package alloc_test

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
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

// bigModel is eqs. 3.2, 3.3 and 3.5 in exact arithmetic (math/big, 300
// bits — every operation below is a product, quotient or difference of at
// most a few float64s, rounded far below float64's precision): the
// reference the model functions are compared with, for valid arguments.
func bigModel(name string, remaining, slots, beta float64) *big.Float {
	const prec = 300
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	z := func() *big.Float { return new(big.Float).SetPrec(prec) }
	if name == "VirtualSize" {
		slots = 0 // not an argument: any value
	}
	T, S, b := f(remaining), f(slots), f(beta)
	two := f(2)
	if remaining == 0 && name != "VirtualSize" {
		return f(0)
	}
	noSpec := beta >= alloc.NoSpeculationBeta
	factor := z().Quo(two, b) // 2/β
	if noSpec {
		factor = f(1)
	}
	virtual := z().Mul(factor, T)
	switch name {
	case "VirtualSize":
		return virtual
	case "SpeculationLevel":
		if noSpec {
			return f(1)
		}
		if virtual.Cmp(S) >= 0 {
			return factor
		}
		return z().Quo(S, T)
	default: // Throughput
		if noSpec {
			if S.Cmp(T) < 0 {
				return S
			}
			return T
		}
		bm1 := z().Sub(b, f(1))
		if S.Cmp(virtual) <= 0 { // β²/(4(β−1))·S
			num := z().Mul(z().Mul(b, b), S)
			return num.Quo(num, z().Mul(f(4), bm1))
		}
		// β/(β−1)·T − T²/((β−1)·S)
		first := z().Quo(z().Mul(b, T), bm1)
		second := z().Quo(z().Mul(T, T), z().Mul(bm1, S))
		return first.Sub(first, second)
	}
}

// modelTolAbs is the absolute slack of the comparison with bigModel: a few
// subnormal units, for results in the subnormal range.
const modelTolAbs = 4 * math.SmallestNonzeroFloat64

// closeToBig reports whether got is within modelTol (relative) plus
// modelTolAbs of the exact want.
func closeToBig(got float64, want *big.Float) bool {
	diff := new(big.Float).SetPrec(300).Sub(new(big.Float).SetFloat64(got), want)
	tol := new(big.Float).SetPrec(300).Abs(want)
	tol.Mul(tol, big.NewFloat(modelTol))
	tol.Add(tol, big.NewFloat(modelTolAbs))
	return diff.Abs(diff).Cmp(tol) <= 0
}

// beyondFloat64 reports whether x exceeds MaxFloat64 by more than the
// relative slack rel (rel < 0: within |rel| below it).
func beyondFloat64(x *big.Float, rel float64) bool {
	limit := new(big.Float).SetPrec(300).SetFloat64(math.MaxFloat64)
	limit.Mul(limit, new(big.Float).SetPrec(300).SetFloat64(1+rel))
	return x.Cmp(limit) > 0
}

// modelNoPanic returns a property that feeds arbitrary values — NaN, ±Inf,
// extremes, and values over float64's whole range (testutil.Magnitude) —
// to one scalar model function: it returns an InputError exactly when an
// argument is invalid or the exact result (bigModel) leaves float64's
// range ("result overflows", allowed within rounding of MaxFloat64), and
// otherwise a finite value ≥ 0 (never −0) within modelTol of the exact one.
func modelNoPanic(name string) func(*rapid.T) {
	return func(t *rapid.T) {
		pick := func(label string) float64 {
			specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, math.Copysign(0, -1), 1, 1.5, 2, math.MaxFloat64, 5e-324, math.Nextafter(1, 2)}
			switch rapid.IntRange(0, 2).Draw(t, label+"_kind") {
			case 0:
				return rapid.SampledFrom(specials).Draw(t, label)
			case 1:
				return testutil.Magnitude().Draw(t, label)
			}
			return rapid.Float64().Draw(t, label)
		}
		remaining, slots, beta := pick("remaining"), pick("slots"), pick("beta")
		finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }
		valid := finite(remaining) && beta > 1 && !math.IsInf(beta, 1)
		var v float64
		var err error
		var exact *big.Float
		switch name {
		case "VirtualSize":
			v, err = alloc.VirtualSize(remaining, beta)
		case "SpeculationLevel":
			v, err = alloc.SpeculationLevel(remaining, slots, beta)
			valid = valid && finite(slots)
		case "Throughput":
			v, err = alloc.Throughput(remaining, slots, beta)
			valid = valid && finite(slots)
		case "TotalThroughput":
			v, err = alloc.TotalThroughput([]float64{remaining, 1}, []float64{slots, 1}, beta)
			valid = valid && finite(slots) && !math.IsInf(remaining+1, 1) && !math.IsInf(slots+1, 1)
		}
		if valid {
			if name == "TotalThroughput" {
				exact = bigModel("Throughput", remaining, slots, beta)
				exact.Add(exact, bigModel("Throughput", 1, 1, beta))
			} else {
				exact = bigModel(name, remaining, slots, beta)
			}
		}
		if err != nil {
			var ie *specsched.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%s: error %v is not an InputError", name, err)
			}
			if valid && !(strings.Contains(ie.Reason, "overflows") && beyondFloat64(exact, -1e-9)) {
				t.Fatalf("%s(%g, %g, %g): unexpected error %v (exact result %v)", name, remaining, slots, beta, err, exact)
			}
			return
		}
		if !valid {
			t.Fatalf("%s(%g, %g, %g) accepted invalid input", name, remaining, slots, beta)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || math.Signbit(v) {
			t.Fatalf("%s(%g, %g, %g) = %g", name, remaining, slots, beta, v)
		}
		if beyondFloat64(exact, 1e-9) {
			t.Fatalf("%s(%g, %g, %g) = %g, but the exact result %v overflows", name, remaining, slots, beta, v, exact)
		}
		if !closeToBig(v, exact) {
			t.Fatalf("%s(%g, %g, %g) = %g, exact %v", name, remaining, slots, beta, v, exact.Text('g', 17))
		}
	}
}

func TestModelNoPanic(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"VirtualSize", "SpeculationLevel", "Throughput", "TotalThroughput"} {
		t.Run(name, func(t *testing.T) { rapid.Check(t, modelNoPanic(name)) })
	}
}

func FuzzVirtualSize(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(modelNoPanic("VirtualSize"))) }
func FuzzSpeculationLevel(f *testing.F) { f.Fuzz(rapid.MakeFuzz(modelNoPanic("SpeculationLevel"))) }
func FuzzThroughput(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(modelNoPanic("Throughput"))) }
func FuzzTotalThroughput(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(modelNoPanic("TotalThroughput"))) }
