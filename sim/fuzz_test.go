package sim

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// Fuzz targets for the exported functions not covered elsewhere: each
// property injects values rapid never draws (NaN, ±Inf, negatives, huge
// numbers) and checks that nothing panics and that the result is an error
// or well formed.

var badValues = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1e308, 5e-324}

func anyValue(t *rapid.T, label string) float64 {
	if rapid.IntRange(0, 3).Draw(t, label+"Bad") == 0 {
		return rapid.SampledFrom(badValues).Draw(t, label+"Value")
	}
	return rapid.Float64Range(0, 100).Draw(t, label)
}

func testMetricsNoPanic(t *rapid.T) {
	mk := func(label string) *Result {
		n := rapid.IntRange(0, 6).Draw(t, label+"N")
		r := &Result{Jobs: make([]JobResult, n)}
		for i := range r.Jobs {
			r.Jobs[i] = JobResult{Completion: anyValue(t, label), Tasks: rapid.IntRange(-2, 1000).Draw(t, label+"Tasks")}
		}
		return r
	}
	base, r := mk("base"), mk("r")
	edges := rapid.SliceOfN(rapid.IntRange(-5, 600), 0, 5).Draw(t, "edges")
	s := Summarize(r)
	if s.Jobs != len(r.Jobs) {
		t.Fatalf("Summarize counts %d jobs of %d", s.Jobs, len(r.Jobs))
	}
	valid := len(base.Jobs) == len(r.Jobs) && finite(base) && finite(r)
	if g, err := Gain(base, r); err == nil && !(g <= 1 && !math.IsInf(g, 0)) {
		t.Fatalf("Gain = %g without an error", g)
	} else if err != nil && !isInputError(err) {
		t.Fatalf("Gain error %v", err)
	}
	if sd, err := Slowdowns(base, r); err == nil && (!valid || !(sd.Fraction >= 0 && sd.Fraction <= 1 && sd.Worst >= sd.Mean*(1-1e-12) && !math.IsInf(sd.Mean, 0))) {
		t.Fatalf("Slowdowns = %+v, %v (valid input: %v)", sd, err, valid)
	}
	dst := []BinGain{{Jobs: -7}}
	bins, err := BinGains(dst, base, r, edges)
	if err == nil && len(bins) != len(edges)+1 {
		t.Fatalf("%d bins for %d edges", len(bins), len(edges))
	}
	if err != nil && (dst[0].Jobs != -7 || bins != nil) {
		t.Fatalf("BinGains wrote to dst on error %v", err)
	}
	for _, b := range bins {
		if math.IsInf(b.Gain, 0) {
			t.Fatalf("bin gain %g", b.Gain)
		}
	}
	_ = Completions(nil, r)
}

func finite(r *Result) bool {
	for _, j := range r.Jobs {
		if !(j.Completion >= 0 && j.Completion <= math.MaxFloat64) {
			return false
		}
	}
	return true
}

func TestMetricsNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testMetricsNoPanic) }
func FuzzSummarize(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testMetricsNoPanic)) }
func FuzzGain(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(testMetricsNoPanic)) }
func FuzzSlowdowns(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testMetricsNoPanic)) }
func FuzzBinGains(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(testMetricsNoPanic)) }
func FuzzCompletions(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testMetricsNoPanic)) }

// testParetoScaleNoPanic: for β > 1 and ratio ≥ 1 (or +Inf) the scale is
// finite, positive and at most the mean; other values do not panic.
func testParetoScaleNoPanic(t *rapid.T) {
	mean, beta, ratio := anyValue(t, "mean"), 1+anyValue(t, "betaMinusOne"), 1+anyValue(t, "ratioMinusOne")
	if rapid.Bool().Draw(t, "infinite") {
		ratio = math.Inf(1)
	}
	xm := ParetoScale(mean, beta, ratio)
	valid := mean > 1e-300 && mean < 1e300 && beta > 1 && beta < 1e300 && ratio >= 1
	if valid && !(xm > 0 && xm <= mean*(1+1e-12)) {
		t.Fatalf("ParetoScale(%g, %g, %g) = %g", mean, beta, ratio, xm)
	}
}

func TestParetoScaleNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testParetoScaleNoPanic) }
func FuzzParetoScale(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testParetoScaleNoPanic)) }

// testNamesAndDefaults: parsing any text returns a value whose String is the
// text (case and blanks aside) or an error; the defaults of any policy and
// size either validate or are rejected by Simulate without a panic.
func testNamesAndDefaults(t *rapid.T) {
	s := rapid.OneOf(rapid.String(), rapid.SampledFrom(append(policyNames[:], "oracle", "progress", "observed", "HOPPER ", ""))).Draw(t, "name")
	if p, err := ParsePolicy(s); err == nil && p >= numPolicies {
		t.Fatalf("ParsePolicy(%q) = %v", s, p)
	}
	if e, err := ParseEstimator(s); err == nil && e.String() != s {
		t.Fatalf("ParseEstimator(%q) = %v", s, e)
	}
	p := Preset(rapid.IntRange(0, 255).Draw(t, "policy"))
	slots := rapid.IntRange(-3, 1<<25).Draw(t, "slots")
	cfg := DefaultConfig(p, slots)
	_ = p.String()
	jobs := ThesisExample()
	if slots > 64 {
		jobs = nil // keep big clusters cheap
	}
	if _, err := Simulate(jobs, cfg); err != nil && !isInputError(err) {
		t.Fatalf("Simulate(DefaultConfig(%v, %d)): %v", p, slots, err)
	}
	c := DefaultWorkload(rapid.IntRange(-1, 30).Draw(t, "jobs"), slots, anyValue(t, "load"))
	if c.Slots > 1000 {
		c.Slots = 1000
	}
	if _, err := Synthesize(c, nil); err == nil {
		t.Fatalf("Synthesize with a nil rng: no error")
	}
	if len(Policies()) != int(numPolicies) {
		t.Fatalf("Policies() has %d", len(Policies()))
	}
}

func TestNamesAndDefaults(t *testing.T)              { t.Parallel(); rapid.Check(t, testNamesAndDefaults) }
func FuzzParsePolicy(f *testing.F)                   { f.Fuzz(rapid.MakeFuzz(testNamesAndDefaults)) }
func FuzzParseEstimator(f *testing.F)                { f.Fuzz(rapid.MakeFuzz(testNamesAndDefaults)) }
func FuzzDefaultConfig(f *testing.F)                 { f.Fuzz(rapid.MakeFuzz(testNamesAndDefaults)) }
func FuzzDefaultSpeculationAndWorkload(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testNamesAndDefaults)) }
func FuzzThesisExample(f *testing.F)                 { f.Fuzz(rapid.MakeFuzz(testNamesAndDefaults)) }
