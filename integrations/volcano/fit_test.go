package volcano

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// paretoSeconds draws n durations from a Pareto(xm, β) by inversion,
// rounded to milliseconds (what a pod's timestamps keep once serialised
// is coarser; the test needs only that the oracle sees the same values).
func paretoSeconds(rng *rand.Rand, n int, xm, beta float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		u := 1 - rng.Float64() // (0, 1]
		out[i] = math.Round(xm*math.Pow(u, -1/beta)*1000) / 1000
	}
	return out
}

// mleBeta is the Pareto maximum-likelihood tail index n / Σ ln(x_i/min x),
// written out here as the oracle for the plug-in's stragglers.ParetoFit.
func mleBeta(durations []float64) float64 {
	xm := math.Inf(1)
	for _, d := range durations {
		xm = math.Min(xm, d)
	}
	var sum float64
	for _, d := range durations {
		sum += math.Log(d / xm)
	}
	return float64(len(durations)) / sum
}

// TestFittedBeta: a job with no β annotation and at least minFitSamples
// finished pods gets the maximum-likelihood β of their durations (thesis
// §3.1; the conference paper's online fit, §7.2), and the session's targets
// are Decide's with that β; fewer finished pods, pods without a start time
// and an annotation all keep the fit out. The durations come from a
// Pareto(10 s, 1.1), far from the default β = 1.5, so the targets differ
// from the default's (checked, so the test is not vacuous).
func TestFittedBeta(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	history := paretoSeconds(rng, DefaultMinFitSamples, 10, 1.1)
	fitted := mleBeta(history)
	if math.Abs(fitted-DefaultBeta) < 0.2 || !(fitted > 1) {
		t.Fatalf("the sample's β̂ = %v is too close to the default or ≤ 1; pick another seed", fitted)
	}
	withoutStart := append(append([]float64(nil), history[:DefaultMinFitSamples-1]...), 0)
	cases := []struct {
		name string
		a    jobSpec
		beta float64 // the β job a must be given
	}{
		{"fitted", jobSpec{name: "a", pending: 3, copies: 3, finished: history}, fitted},
		{"one sample short", jobSpec{name: "a", pending: 3, copies: 3, finished: history[1:]}, DefaultBeta},
		{"a pod without start time", jobSpec{name: "a", pending: 3, copies: 3, finished: withoutStart}, DefaultBeta},
		{"annotation first", jobSpec{name: "a", pending: 3, copies: 3, finished: history, beta: "1.9"}, 1.9},
	}
	var defaultTargets []int
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := sessionSpec{nodes: 2, cpus: 3, eps: 1, jobs: []jobSpec{c.a, {name: "b", pending: 6}}}
			var want Decision
			if err := Decide(&want, []JobDemand{{3, c.beta}, {6, DefaultBeta}}, 6, DefaultBeta, 1, nil); err != nil {
				t.Fatal(err)
			}
			got := runSession(t, spec, false)
			if len(got.logs) != 0 {
				t.Errorf("log lines %q, want none", got.logs)
			}
			if diff := cmp.Diff(want.Targets, got.targets); diff != "" {
				t.Errorf("targets (-Decide with β %v +plug-in):\n%s", c.beta, diff)
			}
			if diff := cmp.Diff(want.Targets, got.bound); diff != "" {
				t.Errorf("placements (-Decide with β %v +plug-in):\n%s", c.beta, diff)
			}
			if c.beta == DefaultBeta {
				defaultTargets = got.targets
			}
		})
	}
	var fittedTargets Decision
	if err := Decide(&fittedTargets, []JobDemand{{3, fitted}, {6, DefaultBeta}}, 6, DefaultBeta, 1, nil); err != nil {
		t.Fatal(err)
	}
	if defaultTargets == nil || cmp.Equal(defaultTargets, fittedTargets.Targets) {
		t.Errorf("targets with the default β %v equal those with the fit %v: the session does not tell them apart", defaultTargets, fittedTargets.Targets)
	}
}
