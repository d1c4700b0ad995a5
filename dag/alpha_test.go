package dag

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// TestEstimateAlphaWorkedExample: a job whose completed tasks read 100 and
// produced 50 (r = 1/2), with 300 input left and 20 of the 50 read: the
// downstream phase has 30 + 150 = 180 to read against 300 of upstream
// input, α_raw = 0.6; dampened, 0.6^0.8 = 0.66454 (Spark) and
// 0.6^0.3 = 0.85792 (Hadoop).
func TestEstimateAlphaWorkedExample(t *testing.T) {
	t.Parallel()
	p := Progress{Done: Ratio{Input: 100, Output: 50}, RemainingInput: 300, Read: 20}
	for _, tc := range []struct{ d, want float64 }{
		{1, 0.6},
		{DampeningSpark, 0.664539805948974},
		{DampeningHadoop, 0.8579172004440949},
		{0, 1},
	} {
		got, err := EstimateAlpha(p, Ratio{}, tc.d)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("d = %v: α = %v, %v; want %v", tc.d, got, err, tc.want)
		}
	}
	// No task has completed: the recurring job's ratio, 2, is the estimate
	// (nothing produced yet, so nothing to read but the future output).
	got, err := EstimateAlpha(Progress{RemainingInput: 50}, Ratio{Input: 10, Output: 20}, 1)
	if err != nil || got != 2 {
		t.Errorf("recurring prior: α = %v, %v; want 2", got, err)
	}
	// A job's own completed tasks win over the recurring history.
	got, err = EstimateAlpha(Progress{Done: Ratio{Input: 10, Output: 40}, RemainingInput: 10, Read: 40}, Ratio{Input: 1, Output: 1}, 1)
	if err != nil || got != 4 {
		t.Errorf("multi-wave: α = %v, %v; want 4", got, err)
	}
	// Nothing known, nothing left: the neutral weight.
	for _, p := range []Progress{{RemainingInput: 5}, {Done: Ratio{Input: 3, Output: 3}}} {
		if got, err := EstimateAlpha(p, Ratio{}, 1); err != nil || got != 1 {
			t.Errorf("%+v: α = %v, %v; want 1", p, got, err)
		}
	}
	// Clamped: nothing to read gives the floor, a huge backlog the ceiling.
	if got, _ := EstimateAlpha(Progress{Done: Ratio{Input: 1, Output: 0}, RemainingInput: 5}, Ratio{}, 1); got != MinAlpha {
		t.Errorf("no output: α = %v, want %v", got, MinAlpha)
	}
	if got, _ := EstimateAlpha(Progress{Done: Ratio{Input: 1, Output: 1e6}, RemainingInput: 1e-3}, Ratio{}, 1); got != MaxAlpha {
		t.Errorf("backlog: α = %v, want %v", got, MaxAlpha)
	}
	// The clamp is the documented [0.05, 20], and a ratio of 19 is inside
	// it: r = 19/1, nothing produced is left unread (Read = Output), α = 19.
	if MinAlpha != 0.05 || MaxAlpha != 20 {
		t.Errorf("clamp [%v, %v], want [0.05, 20]", MinAlpha, MaxAlpha)
	}
	if got, err := EstimateAlpha(Progress{Done: Ratio{Input: 1, Output: 19}, RemainingInput: 1, Read: 19}, Ratio{}, 1); err != nil || got != 19 {
		t.Errorf("r = 19: α = %v, %v; want 19", got, err)
	}
	// Read beyond the output of the completed tasks (reads of tasks still
	// running): the unread backlog is 0, not negative. r = 5/10, α =
	// (0 + 0.5·10)/10 = 0.5; without the floor it would be (5 − 8 + 5)/10.
	if got, err := EstimateAlpha(Progress{Done: Ratio{Input: 10, Output: 5}, RemainingInput: 10, Read: 8}, Ratio{}, 1); err != nil || got != 0.5 {
		t.Errorf("read past the output: α = %v, %v; want 0.5", got, err)
	}
}

func progressGen() *rapid.Generator[Progress] {
	return rapid.Custom(func(t *rapid.T) Progress {
		out := rapid.Float64Range(0, 1e4).Draw(t, "done.output")
		return Progress{
			Done:           Ratio{Input: rapid.Float64Range(0, 1e4).Draw(t, "done.input"), Output: out},
			RemainingInput: rapid.Float64Range(0, 1e4).Draw(t, "remaining input"),
			Read:           out * rapid.Float64Range(0, 1.2).Draw(t, "read fraction"),
		}
	})
}

// testDampeningInterpolates: d = 0 ignores pipelining (α = 1); in between,
// log α = d·log α(1), so α moves monotonically from 1 to α(1).
func testDampeningInterpolates(t *rapid.T) {
	p := progressGen().Draw(t, "progress")
	prior := Ratio{Input: rapid.Float64Range(0, 10).Draw(t, "prior.input"), Output: rapid.Float64Range(0, 10).Draw(t, "prior.output")}
	d := rapid.Float64Range(0, 1).Draw(t, "d")
	full, err := EstimateAlpha(p, prior, 1)
	if err != nil {
		t.Fatalf("EstimateAlpha: %v", err)
	}
	if full < MinAlpha || full > MaxAlpha {
		t.Fatalf("α(1) = %v outside [%v, %v]", full, MinAlpha, MaxAlpha)
	}
	damped, err := EstimateAlpha(p, prior, d)
	if err != nil {
		t.Fatalf("EstimateAlpha: %v", err)
	}
	if math.Abs(math.Log(damped)-d*math.Log(full)) > 1e-12 {
		t.Fatalf("α(%v) = %v, α(1) = %v: log α(d) ≠ d·log α(1)", d, damped, full)
	}
	if zero, _ := EstimateAlpha(p, prior, 0); zero != 1 {
		t.Fatalf("α(0) = %v, want 1", zero)
	}
}

func TestDampeningInterpolates(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testDampeningInterpolates)
}

// testAlphaMonotone: reading more of the backlog never raises α; producing
// more intermediate data per input never lowers it.
func testAlphaMonotone(t *rapid.T) {
	p := progressGen().Draw(t, "progress")
	d := rapid.Float64Range(0, 1).Draw(t, "d")
	base, err := EstimateAlpha(p, Ratio{}, d)
	if err != nil {
		t.Fatalf("EstimateAlpha: %v", err)
	}
	more := p
	more.Read += rapid.Float64Range(0, 1e3).Draw(t, "more read")
	if a, _ := EstimateAlpha(more, Ratio{}, d); a > base*(1+1e-12) {
		t.Fatalf("reading more raised α from %v to %v", base, a)
	}
	richer := p
	richer.Done.Output += rapid.Float64Range(0, 1e3).Draw(t, "more output")
	if a, _ := EstimateAlpha(richer, Ratio{}, d); a < base*(1-1e-12) {
		t.Fatalf("more output lowered α from %v to %v", base, a)
	}
}

func TestAlphaMonotone(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAlphaMonotone)
}

// TestAlphaAccuracy is a sample-path check of §5.2's estimator and of the
// conference paper's "accuracy of 92%, on average" (§6.3, §7.2): a
// multi-wave job of 200 tasks whose per-task intermediate-to-input ratios
// vary with the coefficient of variation the thesis measures within a
// phase (0.07 at the median, 0.24 at the 90th percentile), input sizes
// log-normal, downstream reading what is produced with a lag. After each
// wave the estimate (d = 1) is compared with the true α of the simulated
// future: the data the downstream phase will actually read over the input
// left. Accuracy is 1 − |estimate − truth|/truth, averaged over waves and
// seeds.
func TestAlphaAccuracy(t *testing.T) {
	t.Parallel()
	const (
		tasks = 200
		wave  = 20 // tasks per wave
	)
	seeds := 30
	if testing.Short() {
		seeds = 10
	}
	for _, tc := range []struct{ cv, minAccuracy float64 }{
		{0.07, 0.97}, // median within-phase variation: a ~0.07/√20 ≈ 1.6% error
		{0.24, 0.92}, // 90th percentile: the paper's 92%
	} {
		var sum float64
		var count int
		for seed := range uint64(seeds) {
			src := rand.NewPCG(seed, 3)
			sigma := math.Sqrt(math.Log1p(tc.cv * tc.cv))
			ratioDist := distuv.LogNormal{Mu: math.Log(0.7) - sigma*sigma/2, Sigma: sigma, Src: src}
			inputDist := distuv.LogNormal{Mu: 0, Sigma: 0.5, Src: src}
			in, out := make([]float64, tasks), make([]float64, tasks)
			for i := range in {
				in[i] = inputDist.Rand()
				out[i] = in[i] * ratioDist.Rand()
			}
			var p Progress
			for _, x := range in {
				p.RemainingInput += x
			}
			for done := wave; done < tasks; done += wave {
				for i := done - wave; i < done; i++ {
					if err := p.Done.Add(in[i], out[i]); err != nil {
						t.Fatal(err)
					}
					p.RemainingInput -= in[i]
				}
				p.Read = 0.6 * p.Done.Output // downstream lags behind
				var future float64
				for i := done; i < tasks; i++ {
					future += out[i]
				}
				truth := (p.Done.Output - p.Read + future) / p.RemainingInput
				est, err := EstimateAlpha(p, Ratio{}, 1)
				if err != nil {
					t.Fatal(err)
				}
				sum += 1 - math.Abs(est-truth)/truth
				count++
			}
		}
		acc := sum / float64(count)
		t.Logf("CV %.2f: mean accuracy %.4f over %d estimates", tc.cv, acc, count)
		if acc < tc.minAccuracy {
			t.Errorf("CV %v: mean accuracy %.4f, want ≥ %v", tc.cv, acc, tc.minAccuracy)
		}
	}
}

// testRatioMatchesModel drives a Ratio one task at a time against the
// obvious model (the lists of inputs and outputs) with rapid's state
// machine.
func testRatioMatchesModel(t *rapid.T) {
	var r Ratio
	var ins, outs []float64
	t.Repeat(map[string]func(*rapid.T){
		"add": func(t *rapid.T) {
			in := rapid.Float64Range(0, 100).Draw(t, "input")
			out := rapid.Float64Range(0, 100).Draw(t, "output")
			if err := r.Add(in, out); err != nil {
				t.Fatalf("Add(%v, %v): %v", in, out, err)
			}
			ins, outs = append(ins, in), append(outs, out)
		},
		"bad": func(t *rapid.T) {
			before := r
			in, out := badFloat(t, "input"), rapid.Float64Range(0, 1).Draw(t, "output")
			if rapid.Bool().Draw(t, "swap") {
				in, out = out, in
			}
			valid := in >= 0 && out >= 0 && !math.IsInf(in, 1) && !math.IsInf(out, 1)
			overflow := math.IsInf(r.Input+in, 1) || math.IsInf(r.Output+out, 1)
			err := r.Add(in, out)
			if !valid || overflow {
				var ie *specsched.InputError
				if !errors.As(err, &ie) || r != before {
					t.Fatalf("Add(%v, %v): err %v, ratio %+v → %+v", in, out, err, before, r)
				}
			} else if err != nil {
				t.Fatalf("Add(%v, %v): %v", in, out, err)
			} else {
				ins, outs = append(ins, in), append(outs, out)
			}
		},
		"": func(t *rapid.T) {
			var sumIn, sumOut float64
			for i := range ins {
				sumIn += ins[i]
				sumOut += outs[i]
			}
			v, ok := r.Value()
			if ok != (sumIn > 0 && !math.IsInf(sumOut/sumIn, 1)) {
				t.Fatalf("Value ok = %v with Σinput = %v, Σoutput = %v", ok, sumIn, sumOut)
			}
			if ok && math.Abs(v-sumOut/sumIn) > 1e-12*max(1, v) {
				t.Fatalf("Value = %v, want %v", v, sumOut/sumIn)
			}
		},
	})
}

func TestRatioMatchesModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatioMatchesModel)
}

// testEstimateAlphaNoPanic: hostile fields give an *InputError or a weight
// in [MinAlpha^d, MaxAlpha^d] ⊂ [MinAlpha, MaxAlpha].
func testEstimateAlphaNoPanic(t *rapid.T) {
	p := progressGen().Draw(t, "progress")
	prior := Ratio{Input: rapid.Float64Range(0, 10).Draw(t, "prior.input"), Output: rapid.Float64Range(0, 10).Draw(t, "prior.output")}
	fields := []*float64{&p.Done.Input, &p.Done.Output, &p.RemainingInput, &p.Read, &prior.Input, &prior.Output}
	for _, f := range fields {
		if rapid.IntRange(0, 3).Draw(t, "corrupt") == 0 {
			*f = badFloat(t, "value")
		}
	}
	d := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{-0.1, 1.1, math.NaN(), math.Inf(1)})).Draw(t, "d")
	a, err := EstimateAlpha(p, prior, d)
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "dag.EstimateAlpha" {
			t.Fatalf("error %v is not a dag.EstimateAlpha *InputError", err)
		}
		return
	}
	if !(a >= MinAlpha && a <= MaxAlpha) {
		t.Fatalf("α = %v", a)
	}
	var r Ratio
	_ = r.Add(p.Done.Input, p.Done.Output)
	if v, ok := r.Value(); ok && !(v >= 0) {
		t.Fatalf("Value = %v", v)
	}
}

func TestEstimateAlphaNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testEstimateAlphaNoPanic)
}

func FuzzEstimateAlpha(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testEstimateAlphaNoPanic)) }

func FuzzRatio(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testRatioMatchesModel)) }

// TestEstimateAlphaErrors names each invalid field.
func TestEstimateAlphaErrors(t *testing.T) {
	t.Parallel()
	ok := Progress{Done: Ratio{1, 1}, RemainingInput: 1, Read: 0}
	for _, tc := range []struct {
		p     Progress
		prior Ratio
		d     float64
		field string
	}{
		{Progress{Done: Ratio{math.NaN(), 1}, RemainingInput: 1}, Ratio{}, 1, "done.input"},
		{Progress{Done: Ratio{1, -1}, RemainingInput: 1}, Ratio{}, 1, "done.output"},
		{Progress{Done: Ratio{1, 1}, RemainingInput: math.Inf(1)}, Ratio{}, 1, "remaining input"},
		{Progress{Done: Ratio{1, 1}, RemainingInput: 1, Read: -2}, Ratio{}, 1, "read"},
		{ok, Ratio{math.Inf(1), 0}, 1, "recurring.input"},
		{ok, Ratio{1, math.NaN()}, 1, "recurring.output"},
		{ok, Ratio{}, 1.5, "dampening"},
		{ok, Ratio{}, math.NaN(), "dampening"},
	} {
		_, err := EstimateAlpha(tc.p, tc.prior, tc.d)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("%+v, %+v, %v: got %v, want field %q", tc.p, tc.prior, tc.d, err, tc.field)
		}
	}
	var r Ratio
	if err := r.Add(math.MaxFloat64, 0); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(math.MaxFloat64, 0); err == nil || r.Input != math.MaxFloat64 {
		t.Errorf("overflow: err %v, ratio %+v", err, r)
	}
}
