package probe

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// TestSynthesizeTable1 checks the generated workload has the shape it was
// asked for: Eagle Table 1's Google row (10% long jobs, 83% of the
// task-seconds in long jobs) and the offered load.
func TestSynthesizeTable1(t *testing.T) {
	t.Parallel()
	n := 40000
	if testing.Short() {
		n = 10000
	}
	c := GoogleLike(n, 1000, 0.8)
	jobs, err := Synthesize(c, rngFrom(11))
	if err != nil {
		t.Fatal(err)
	}
	thr := c.Threshold()
	longs, longWork, work := 0, 0.0, 0.0
	for _, j := range jobs {
		w := 0.0
		for _, d := range j.Durations {
			w += d
		}
		work += w
		// The classes never meet the threshold's neighbourhood.
		if j.EstTask > c.ShortTaskMean*(1+c.Spread) && j.EstTask < c.LongTaskMean()*(1-c.Spread) {
			t.Fatalf("estimate %v between the classes", j.EstTask)
		}
		if class, _ := Classify(j.EstTask, thr); class == Long {
			longs++
			longWork += w
		}
	}
	// Long jobs are Binomial(n, 0.1): 5σ = 5·√(0.1·0.9/n).
	if got, sigma := float64(longs)/float64(n), math.Sqrt(0.09/float64(n)); math.Abs(got-0.10) > 5*sigma {
		t.Errorf("long fraction %v; want 0.10 ± %v", got, 5*sigma)
	}
	// The work fraction f varies mostly with the number of long jobs: by
	// the delta method σ_f ≈ f(1−f)·CV(long work) with CV ≈ √(0.9/(0.1n));
	// allow 5σ.
	f := c.LongWorkFraction
	sigma := f * (1 - f) * math.Sqrt(0.9/(0.1*float64(n)))
	if got := longWork / work; math.Abs(got-f) > 5*sigma {
		t.Errorf("long task-seconds fraction %v; want %v ± %v", got, f, 5*sigma)
	}
	// Offered load: work per unit time over the node count, 5σ of the
	// Poisson arrival count plus the work's own spread (CV per job ≤ 3).
	span := jobs[len(jobs)-1].Submit
	load := work / span / float64(c.Nodes)
	if tol := 5 * 3 / math.Sqrt(float64(n)) * c.Load; math.Abs(load-c.Load) > tol {
		t.Errorf("offered load %v; want %v ± %v", load, c.Load, tol)
	}
}

// testSynthesize: valid jobs in submission order, estimates equal to the
// mean of the durations, same seed same jobs.
func testSynthesize(t *rapid.T) {
	c := GoogleLike(rapid.IntRange(0, 200).Draw(t, "jobs"), rapid.IntRange(1, 500).Draw(t, "nodes"), rapid.Float64Range(0.05, 2).Draw(t, "load"))
	c.Spread = rapid.Float64Range(0, 0.6).Draw(t, "spread")
	seed := rapid.Uint64().Draw(t, "seed")
	jobs, err := Synthesize(c, rngFrom(seed))
	if err != nil {
		t.Fatalf("Synthesize: %v", err)
	}
	prev := 0.0
	for _, j := range jobs {
		if j.Submit < prev || len(j.Durations) == 0 {
			t.Fatalf("job %+v after %v", j, prev)
		}
		prev = j.Submit
		sum := 0.0
		for _, d := range j.Durations {
			sum += d
		}
		const tol = 1e-12 // one division
		if mean := sum / float64(len(j.Durations)); math.Abs(mean-j.EstTask) > tol*mean {
			t.Fatalf("EstTask %v; mean of durations %v", j.EstTask, mean)
		}
	}
	again, _ := Synthesize(c, rngFrom(seed))
	if d := cmp.Diff(jobs, again); d != "" {
		t.Fatalf("not deterministic:\n%s", d)
	}
}

func TestSynthesize(t *testing.T) { t.Parallel(); rapid.Check(t, testSynthesize) }

func testSynthesizeNoPanic(t *rapid.T) {
	c := SynthConfig{
		Jobs:             rapid.IntRange(-2, 30).Draw(t, "jobs"),
		LongFraction:     anyFloat(t, "longFraction") / 100,
		LongWorkFraction: anyFloat(t, "longWorkFraction") / 100,
		ShortTasks:       anyFloat(t, "shortTasks"),
		LongTasks:        anyFloat(t, "longTasks"),
		ShortTaskMean:    anyFloat(t, "shortTaskMean"),
		Spread:           anyFloat(t, "spread") / 100,
		Nodes:            rapid.IntRange(-1, 100).Draw(t, "nodes"),
		Load:             anyFloat(t, "load"),
	}
	jobs, err := Synthesize(c, drawRNG(t, "seed"))
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %T %v", err, err)
		}
		return
	}
	for _, j := range jobs {
		if math.IsNaN(j.Submit) || math.IsInf(j.Submit, 0) || math.IsNaN(j.EstTask) || len(j.Durations) == 0 {
			t.Fatalf("invalid job %+v from %+v", j, c)
		}
	}
}

func TestSynthesizeNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSynthesizeNoPanic) }
func FuzzSynthesize(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testSynthesizeNoPanic)) }

// TestSynthesizeLoadTooLow: a Load so low that the first arrival passes
// MaxTime is an error on Load (what to change), not on a job's Submit: at
// Load 1e-300 on 1000 nodes the mean gap is E[task-seconds per job] ≈ 847
// (0.1·60·117.2 + 0.9·8·20, LongTaskMean = 117.2) over Load·Nodes =
// 1e-297, 8.5e299 s, so job 0 passes MaxTime with probability
// 1 − exp(−1e12/8.5e299).
func TestSynthesizeLoadTooLow(t *testing.T) {
	t.Parallel()
	jobs, err := Synthesize(GoogleLike(10, 1000, 1e-300), rngFrom(1))
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Field != "Load" || ie.Index != -1 || ie.Value != 1e-300 ||
		!strings.Contains(ie.Reason, "too low: job 0 would arrive at") || jobs != nil {
		t.Errorf("Synthesize at Load 1e-300: %d jobs, error %v; want an InputError on Load, too low, naming job 0", len(jobs), err)
	}
}
