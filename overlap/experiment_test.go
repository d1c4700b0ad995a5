package overlap

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// TestRunExperiment: a small run is the composition of its parts (the same
// workload simulated separately gives the same means, bit for bit), is
// deterministic, and its lower bound is below every policy's mean.
func TestRunExperiment(t *testing.T) {
	t.Parallel()
	n := 20000
	if testing.Short() {
		n = 3000
	}
	cfg := ExperimentConfig{Load: 0.75, Jobs: n, Seed: 3}
	var ws Workspace
	got, err := RunExperiment(cfg, &ws)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := RunExperiment(cfg, nil)
	if got != again {
		t.Errorf("not deterministic: %+v then %+v", got, again)
	}
	jobs, _ := PaperWorkload(0.75).Generate(nil, n, rand.New(rand.NewPCG(3, 3)))
	mean := func(k Algorithm) float64 {
		resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: k}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return total(resp) / float64(n)
	}
	lb, _ := LowerBound(jobs, 1, nil)
	want := ExperimentResult{KLPS: mean(KLPS), MaxSRPT: mean(MaxSRPT), SplitSRPT: mean(SplitSRPT), LowerBound: lb / float64(n)}
	if got != want {
		t.Errorf("RunExperiment = %+v, want %+v", got, want)
	}
	for name, m := range map[string]float64{"k-LPS": got.KLPS, "MaxSRPT": got.MaxSRPT, "SplitSRPT": got.SplitSRPT} {
		if m < got.LowerBound {
			t.Errorf("%s mean %v below the lower bound %v", name, m, got.LowerBound)
		}
	}
	// §5.3: both algorithms are much better than k-LPS on this workload.
	if got.MaxSRPT >= got.KLPS || got.SplitSRPT >= got.KLPS {
		t.Errorf("expected MaxSRPT (%v) and SplitSRPT (%v) below k-LPS (%v)", got.MaxSRPT, got.SplitSRPT, got.KLPS)
	}
}

func testRunExperimentNoPanic(t *rapid.T) {
	cfg := ExperimentConfig{
		Load: rapid.OneOf(rapid.Float64Range(0.1, 0.95), rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), 0}), testutil.Magnitude()).Draw(t, "load"),
		Jobs: rapid.IntRange(-2, 60).Draw(t, "jobs"),
		Seed: rapid.Uint64().Draw(t, "seed"),
		K:    rapid.IntRange(-1, 4).Draw(t, "k"),
	}
	res, err := RunExperiment(cfg, nil)
	if err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) {
			t.Fatalf("error %v is not an *InputError", err)
		}
		return
	}
	for _, m := range []float64{res.KLPS, res.MaxSRPT, res.SplitSRPT, res.LowerBound} {
		if !finite(m) || m < 0 {
			t.Fatalf("%+v: mean %v", cfg, m)
		}
	}
}

func TestRunExperimentNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRunExperimentNoPanic)
}

func FuzzRunExperiment(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testRunExperimentNoPanic)) }
