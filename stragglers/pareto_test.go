package stragglers

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
)

// TestFitParetoWorkedExample: durations 1, 2, 4: x̂_m = 1, Σln(x/1) =
// ln 2 + ln 4 = 3 ln 2, β̂ = 3/(3 ln 2) = 1/ln 2 ≈ 1.4427.
func TestFitParetoWorkedExample(t *testing.T) {
	t.Parallel()
	xm, beta, err := FitPareto([]float64{2, 1, 4})
	if err != nil || xm != 1 || math.Abs(beta-1/math.Ln2) > 1e-15 {
		t.Errorf("FitPareto = (%v, %v, %v), want (1, %v)", xm, beta, err, 1/math.Ln2)
	}
	var f ParetoFit
	for _, x := range []float64{2, 4, 1} { // the minimum arrives last
		if err := f.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	xm, beta, err = f.Fit()
	if err != nil || xm != 1 || math.Abs(beta-1/math.Ln2) > 1e-15 || f.Count() != 3 {
		t.Errorf("ParetoFit = (%v, %v, %v), want (1, %v)", xm, beta, err, 1/math.Ln2)
	}
}

// sample draws n durations from Pareto(xm, β) with gonum's distuv.
func sample(n int, xm, beta float64, seed uint64) []float64 {
	d := distuv.Pareto{Xm: xm, Alpha: beta, Src: rand.NewPCG(seed, 0x5eed)}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = d.Rand()
	}
	return xs
}

// TestFitParetoConverges fits samples drawn with distuv.Pareto at several β
// and sample sizes, with fixed seeds, and checks the error against the
// maximum-likelihood theory it should follow: β̂ is asymptotically normal
// with variance β²/n (the inverse Fisher information), so the median
// relative error |β̂ − β|/β is about Φ⁻¹(3/4)/√n ≈ 0.674/√n, whatever β and
// x_m are. It logs, for each β, the smallest sample size at which the
// median relative error is below 5%.
func TestFitParetoConverges(t *testing.T) {
	t.Parallel()
	const (
		q3   = 0.6744897501960817 // Φ⁻¹(3/4): the median of |N(0, 1)|
		reps = 120                // fits per size (0.25 s in all; not shrunk by -short)
	)
	// The sample median of reps draws of |Z| has a standard error of
	// 1/(2·2φ(q3)·√reps) ≈ 0.786/√reps, 1.17/√reps relative to q3 (10.7%
	// here); the band allows four of them, and 5% more above for the MLE's
	// upward bias n/(n−2) at moderate n.
	band := 4 * 1.17 / math.Sqrt(reps)
	sizes := []int{10, 20, 50, 100, 200, 500, 1000, 2000, 5000}
	var report strings.Builder
	for bi, beta := range []float64{1.1, 1.3, 1.5, 1.8, 2.5} {
		fmt.Fprintf(&report, "β = %.1f:", beta)
		below, below90 := 0, 0
		prevMedian := math.Inf(1)
		for _, n := range sizes {
			errs := make([]float64, reps)
			for r := range errs {
				xs := sample(n, 3, beta, uint64(1_000_000*bi+1000*n+r))
				_, b, err := FitPareto(xs)
				if err != nil {
					t.Fatal(err)
				}
				errs[r] = math.Abs(b-beta) / beta
			}
			slices.Sort(errs)
			median, p90 := errs[reps/2], errs[reps*9/10]
			fmt.Fprintf(&report, " n=%d %.3f/%.3f", n, median, p90)
			if median < 0.05 && below == 0 {
				below = n
			}
			if p90 < 0.05 && below90 == 0 {
				below90 = n
			}
			// Shrinks with n (allowing for the sampling noise of a median
			// of reps draws at neighbouring sizes).
			if median > prevMedian*1.25 {
				t.Errorf("β = %v: median error %v at n = %d above %v at the previous size", beta, median, n, prevMedian)
			}
			prevMedian = median
			// Matches the asymptotic theory once n is moderate: the median
			// of reps draws has a relative spread of about 1.2/√reps.
			if theory := q3 / math.Sqrt(float64(n)); n >= 100 && (median < (1-band)*theory || median > (1+band+0.05)*theory) {
				t.Errorf("β = %v, n = %d: median relative error %v, theory %v", beta, n, median, theory)
			}
		}
		if below == 0 {
			t.Errorf("β = %v: median error never below 5%% up to n = %d", beta, sizes[len(sizes)-1])
		}
		fmt.Fprintf(&report, " → median below 5%% from n = %d, 90th percentile from n = %d\n", below, below90)
	}
	t.Logf("relative error of β̂ (median/90th percentile over %d fits per size):\n%s", reps, report.String())
}

// testFitScaleInvariant: β̂ does not depend on the unit of time, and x̂_m
// scales with it.
func testFitScaleInvariant(t *rapid.T) {
	n := rapid.IntRange(2, 100).Draw(t, "n")
	xs := sample(n, 1, rapid.Float64Range(1.05, 3).Draw(t, "beta"), rapid.Uint64().Draw(t, "seed"))
	scale := rapid.SampledFrom([]float64{1e-3, 0.5, 7, 1e4}).Draw(t, "scale")
	scaled := make([]float64, n)
	for i, x := range xs {
		scaled[i] = x * scale
	}
	xm1, b1, err1 := FitPareto(xs)
	xm2, b2, err2 := FitPareto(scaled)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("errors differ: %v, %v", err1, err2)
	}
	if err1 == nil && (math.Abs(b1-b2) > 1e-9*b1 || math.Abs(xm1*scale-xm2) > 1e-12*xm2) {
		t.Fatalf("unit ×%v: (%v, %v) vs (%v, %v)", scale, xm1, b1, xm2, b2)
	}
}

func TestFitScaleInvariant(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testFitScaleInvariant)
}

// testFitIsLikelihoodMaximum: the log-likelihood at (x̂_m, β̂) is at least
// its value at nearby β and at any x_m ≤ min x_i (the likelihood is 0 above).
func testFitIsLikelihoodMaximum(t *rapid.T) {
	n := rapid.IntRange(2, 60).Draw(t, "n")
	xs := sample(n, rapid.Float64Range(0.1, 10).Draw(t, "xm"), rapid.Float64Range(1.05, 3).Draw(t, "beta"), rapid.Uint64().Draw(t, "seed"))
	xm, beta, err := FitPareto(xs)
	if err != nil {
		t.Fatalf("FitPareto: %v", err) // all equal: impossible for continuous draws
	}
	logLik := func(xm, beta float64) float64 {
		var l float64
		for _, x := range xs {
			l += distuv.Pareto{Xm: xm, Alpha: beta}.LogProb(x)
		}
		return l
	}
	best := logLik(xm, beta)
	for _, f := range []float64{0.9, 0.99, 1.01, 1.1} {
		if l := logLik(xm, beta*f); l > best+1e-9*math.Abs(best) {
			t.Fatalf("β = %v·%v has log-likelihood %v > %v at β̂", beta, f, l, best)
		}
		if l := logLik(xm*min(f, 1), beta); l > best+1e-9*math.Abs(best) {
			t.Fatalf("x_m = %v·%v has log-likelihood %v > %v at x̂_m", xm, f, l, best)
		}
	}
}

func TestFitIsLikelihoodMaximum(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testFitIsLikelihoodMaximum)
}

// testOnlineMatchesBatch drives ParetoFit one duration at a time against
// the batch fit of everything added so far (rapid's state machine).
func testOnlineMatchesBatch(t *rapid.T) {
	var f ParetoFit
	var model []float64
	t.Repeat(map[string]func(*rapid.T){
		"add": func(t *rapid.T) {
			x := rapid.OneOf(rapid.Float64Range(0.01, 100), rapid.Float64Range(1e-6, 1e6), rapid.Just(1.0)).Draw(t, "durations")
			if err := f.Add(x); err != nil {
				t.Fatalf("Add(%v): %v", x, err)
			}
			model = append(model, x)
		},
		"bad": func(t *rapid.T) {
			before := f
			x := rapid.SampledFrom([]float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}).Draw(t, "durations")
			var ie *specsched.InputError
			if err := f.Add(x); !errors.As(err, &ie) || f != before {
				t.Fatalf("Add(%v): err %v, state %+v → %+v", x, err, before, f)
			}
		},
		"": func(t *rapid.T) {
			if f.Count() != len(model) {
				t.Fatalf("Count = %d, want %d", f.Count(), len(model))
			}
			xm, beta, err := f.Fit()
			wxm, wbeta, werr := FitPareto(model)
			if (err == nil) != (werr == nil) {
				t.Fatalf("online err %v, batch err %v (%v)", err, werr, model)
			}
			if err == nil && (xm != wxm || math.Abs(beta-wbeta) > 1e-9*wbeta) {
				t.Fatalf("online (%v, %v), batch (%v, %v)", xm, beta, wxm, wbeta)
			}
		},
	})
}

func TestOnlineMatchesBatch(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testOnlineMatchesBatch)
}

func FuzzParetoFit(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testOnlineMatchesBatch)) }

// testFitParetoNoPanic: hostile durations give an *InputError naming the
// sample, or a finite fit with x̂_m = min and β̂ > 0.
func testFitParetoNoPanic(t *rapid.T) {
	xs := rapid.SliceOfN(rapid.OneOf(rapid.Float64Range(1e-300, 1e300), rapid.SampledFrom([]float64{
		0, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, 1,
	})), 0, 20).Draw(t, "durations")
	orig := slices.Clone(xs)
	xm, beta, err := FitPareto(xs)
	if !slices.Equal(orig, xs) && !slices.ContainsFunc(orig, math.IsNaN) {
		t.Fatalf("input modified")
	}
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "stragglers.FitPareto" {
			t.Fatalf("error %v is not a stragglers.FitPareto *InputError", err)
		}
		return
	}
	if xm != slices.Min(xs) || !(beta > 0) || math.IsInf(beta, 0) {
		t.Fatalf("fit (%v, %v) of %v", xm, beta, xs)
	}
}

func TestFitParetoNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testFitParetoNoPanic)
}

func FuzzFitPareto(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testFitParetoNoPanic)) }

func TestFitParetoErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		xs    []float64
		index int
		field string
	}{
		{nil, -1, "len(durations)"},
		{[]float64{3}, -1, "len(durations)"},
		{[]float64{1, 0}, 1, "durations"},
		{[]float64{1, -2}, 1, "durations"},
		{[]float64{math.NaN(), 1}, 0, "durations"},
		{[]float64{1, math.Inf(1)}, 1, "durations"},
		{[]float64{2, 2, 2}, -1, "durations"},
	} {
		_, _, err := FitPareto(tc.xs)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%v: got %v, want index %d field %q", tc.xs, err, tc.index, tc.field)
		}
	}
	var f ParetoFit
	if _, _, err := f.Fit(); err == nil {
		t.Error("empty ParetoFit: no error")
	}
	_ = f.Add(5)
	_ = f.Add(5)
	if _, _, err := f.Fit(); err == nil {
		t.Error("equal durations: no error")
	}
}

// TestFitParetoSubnormal is a regression test: with x̂_m subnormal and a
// duration whose ratio to it overflows, ln(x/x̂_m) was ln x − ln x̂_m, and
// math.Log on amd64 misreads a subnormal's exponent (ln 5e-324 = −709.09,
// not −744.44). By hand: durations 2^−1074 and MaxFloat64 =
// (1 − 2^−53)·2^1024 give Σ ln(x_i/x̂_m) = 2098·ln 2 + ln(1 − 2^−53), so β̂
// = 2/(2098·ln 2) to rounding; ParetoFit must agree, in either order.
func TestFitParetoSubnormal(t *testing.T) {
	t.Parallel()
	want := 2 / (2098 * math.Ln2)
	for _, xs := range [][]float64{{0x1p-1074, math.MaxFloat64}, {math.MaxFloat64, 0x1p-1074}} {
		xm, beta, err := FitPareto(xs)
		if err != nil || xm != 0x1p-1074 || math.Abs(beta-want) > 1e-15*want {
			t.Errorf("FitPareto(%v) = %v, %v, %v; want 5e-324, %v", xs, xm, beta, err, want)
		}
		var f ParetoFit
		for _, x := range xs {
			if err := f.Add(x); err != nil {
				t.Fatal(err)
			}
		}
		xm, beta, err = f.Fit()
		if err != nil || xm != 0x1p-1074 || math.Abs(beta-want) > 1e-15*want {
			t.Errorf("ParetoFit of %v = %v, %v, %v; want 5e-324, %v", xs, xm, beta, err, want)
		}
	}
}

// testFitMagnitude: over float64's whole range (testutil.Magnitudes:
// subnormals, 1e±300, MaxFloat64, exact ties) the fit is finite with x̂_m =
// min and β̂ > 0, or an error for equal durations; scaling every duration
// by a power of two that keeps them exact scales x̂_m and leaves β̂
// unchanged, bit for bit (the ratios x_i/x̂_m are the same numbers); and
// ParetoFit agrees with FitPareto to rounding.
func testFitMagnitude(t *rapid.T) {
	xs := testutil.Magnitudes(2, 30).Draw(t, "durations")
	for i := range xs {
		if xs[i] == 0 {
			xs[i] = testutil.PositiveMagnitude().Draw(t, "durations")
		}
	}
	xm, beta, err := FitPareto(xs)
	if slices.Min(xs) == slices.Max(xs) {
		if err == nil {
			t.Fatalf("equal durations: fit (%v, %v)", xm, beta)
		}
		return
	}
	if err != nil || xm != slices.Min(xs) || !(beta > 0 && beta <= math.MaxFloat64) {
		t.Fatalf("fit (%v, %v), %v", xm, beta, err)
	}
	var f ParetoFit
	for _, x := range xs {
		if err := f.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	if xm2, beta2, err := f.Fit(); err != nil || xm2 != xm || math.Abs(beta2-beta) > 1e-9*beta {
		t.Fatalf("ParetoFit (%v, %v), %v; FitPareto (%v, %v)", xm2, beta2, err, xm, beta)
	}
	_, e := math.Frexp(slices.Max(xs))
	k := rapid.IntRange(0, max(0, 1024-e)).Draw(t, "scale exponent") // scaling up: exact
	scaled := make([]float64, len(xs))
	for i, x := range xs {
		scaled[i] = math.Ldexp(x, k)
	}
	xm3, beta3, err := FitPareto(scaled)
	if err != nil || xm3 != math.Ldexp(xm, k) || beta3 != beta {
		t.Fatalf("scaled by 2^%d: (%v, %v), %v; unscaled (%v, %v)", k, xm3, beta3, err, xm, beta)
	}
}

func TestFitMagnitude(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testFitMagnitude)
}
