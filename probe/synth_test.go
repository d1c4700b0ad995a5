package probe

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
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

// TestSynthConfigBounds: every bound Synthesize documents, at the bound
// (accepted) and one step beyond (rejected with an InputError on the field,
// a scalar), from GoogleLike; validate is called directly, so a bound of
// 2^31 jobs is accepted without drawing them.
func TestSynthConfigBounds(t *testing.T) {
	t.Parallel()
	up := func(v float64) float64 { return math.Nextafter(v, math.Inf(1)) }
	down := func(v float64) float64 { return math.Nextafter(v, math.Inf(-1)) }
	for _, tc := range []struct {
		name  string
		set   func(c *SynthConfig)
		field string // "" when accepted
	}{
		{"google", func(c *SynthConfig) {}, ""},
		{"jobs 0", func(c *SynthConfig) { c.Jobs = 0 }, ""},
		{"jobs max", func(c *SynthConfig) { c.Jobs = MaxProbes }, ""},
		{"jobs -1", func(c *SynthConfig) { c.Jobs = -1 }, "Jobs"},
		{"jobs max+1", func(c *SynthConfig) { c.Jobs = MaxProbes + 1 }, "Jobs"},
		{"long fraction 0", func(c *SynthConfig) { c.LongFraction = 0 }, "LongFraction"},
		{"long fraction 1", func(c *SynthConfig) { c.LongFraction = 1 }, "LongFraction"},
		// p and f just below 1 give m_L = (1−f)⁻¹(1−p)·f·n_S·m_S/(p·n_L) =
		// n_S·m_S/n_L: 2e7 with n_S = 1e6, n_L = 1.
		{"long fraction just below 1", func(c *SynthConfig) {
			c.LongFraction, c.LongWorkFraction, c.ShortTasks, c.LongTasks = down(1), down(1), 1e6, 1
		}, ""},
		{"long work fraction 0", func(c *SynthConfig) { c.LongWorkFraction = 0 }, "LongWorkFraction"},
		{"long work fraction 1", func(c *SynthConfig) { c.LongWorkFraction = 1 }, "LongWorkFraction"},
		{"long work fraction NaN", func(c *SynthConfig) { c.LongWorkFraction = math.NaN() }, "LongWorkFraction"},
		{"short tasks 1", func(c *SynthConfig) { c.ShortTasks, c.LongTasks = 1, 1 }, ""}, // m_L ≈ 878.8
		{"short tasks below 1", func(c *SynthConfig) { c.ShortTasks = down(1) }, "ShortTasks"},
		{"short tasks 1e6", func(c *SynthConfig) { c.ShortTasks, c.LongTasks = 1e6, 1e6 }, ""},
		{"short tasks above 1e6", func(c *SynthConfig) { c.ShortTasks = up(1e6) }, "ShortTasks"},
		{"long tasks 1", func(c *SynthConfig) { c.LongTasks = 1 }, ""},
		{"long tasks below 1", func(c *SynthConfig) { c.LongTasks = down(1) }, "LongTasks"},
		{"long tasks 1e6", func(c *SynthConfig) { c.LongTasks, c.ShortTasks = 1e6, 1e6 }, ""}, // m_L ≈ 878.8
		{"long tasks above 1e6", func(c *SynthConfig) { c.LongTasks = up(1e6) }, "LongTasks"},
		{"short task mean 0", func(c *SynthConfig) { c.ShortTaskMean = 0 }, "ShortTaskMean"},
		{"short task mean +Inf", func(c *SynthConfig) { c.ShortTaskMean = math.Inf(1) }, "ShortTaskMean"},
		{"spread 0", func(c *SynthConfig) { c.Spread = 0 }, ""},
		{"spread negative", func(c *SynthConfig) { c.Spread = down(0) }, "Spread"},
		{"spread 1", func(c *SynthConfig) { c.Spread = 1 }, "Spread"},
		{"nodes 1", func(c *SynthConfig) { c.Nodes = 1 }, ""},
		{"nodes max", func(c *SynthConfig) { c.Nodes = MaxProbes }, ""},
		{"nodes 0", func(c *SynthConfig) { c.Nodes = 0 }, "Nodes"},
		{"nodes max+1", func(c *SynthConfig) { c.Nodes = MaxProbes + 1 }, "Nodes"},
		{"load 0", func(c *SynthConfig) { c.Load = 0 }, "Load"},
		{"load +Inf", func(c *SynthConfig) { c.Load = math.Inf(1) }, "Load"},
		// Classes: GoogleLike's long mean is 119.52/1.02 ≈ 117.18. With
		// ShortTaskMean 20 the classes are separated while
		// 117.18·(1−s) > 20·(1+s), s < 97.18/137.18 ≈ 0.7084.
		{"spread 0.70", func(c *SynthConfig) { c.Spread = 0.70 }, ""},
		{"spread 0.71", func(c *SynthConfig) { c.Spread = 0.71 }, "LongTaskMean"},
		// Equal class means (f = p, n_S = n_L): m_L = m_S, no separation
		// at any spread.
		{"equal means", func(c *SynthConfig) { c.LongWorkFraction, c.LongTasks, c.Spread = 0.1, 8, 0 }, "LongTaskMean"},
		// Long durations up to m_L·(1+s) ≤ MaxTime: m_S = 1e11 gives
		// m_L ≈ 5.86e11 and 5.86e11·1.5 ≈ 8.8e11 ≤ 1e12; m_S = 2e11
		// gives 1.76e12.
		{"long durations within MaxTime", func(c *SynthConfig) { c.ShortTaskMean = 1e11 }, ""},
		// p = f = 1/2, n_S = 2, n_L = 1, spread 0: m_L = 2·m_S exactly, and
		// m_S = 5e11 puts the longest duration at MaxTime exactly.
		{"long durations at MaxTime", func(c *SynthConfig) {
			c.LongFraction, c.LongWorkFraction, c.ShortTasks, c.LongTasks, c.Spread, c.ShortTaskMean = 0.5, 0.5, 2, 1, 0, 5e11
		}, ""},
		{"long durations beyond MaxTime", func(c *SynthConfig) { c.ShortTaskMean = 2e11 }, "LongTaskMean"},
	} {
		c := GoogleLike(10, 100, 0.8)
		tc.set(&c)
		err := c.validate("probe.Synthesize")
		var ie *specsched.InputError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: %v; want it accepted", tc.name, err)
		case tc.field != "" && (!errors.As(err, &ie) || ie.Field != tc.field || ie.Index != check.Scalar):
			t.Errorf("%s: error %v; want an InputError on the scalar %s", tc.name, err, tc.field)
		}
	}
}

// TestLongTaskMean: LongTaskMean solves Table 1's share of task-seconds
// for m_L — the share p·n_L·m_L/(p·n_L·m_L + (1−p)·n_S·m_S) it gives is
// f — and Threshold lies midway between the largest short mean
// m_S·(1+Spread) and the smallest long one m_L·(1−Spread).
func TestLongTaskMean(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		c := SynthConfig{
			LongFraction:     rapid.Float64Range(0.01, 0.99).Draw(t, "p"),
			LongWorkFraction: rapid.Float64Range(0.01, 0.99).Draw(t, "f"),
			ShortTasks:       rapid.Float64Range(1, 1e3).Draw(t, "nS"),
			LongTasks:        rapid.Float64Range(1, 1e3).Draw(t, "nL"),
			ShortTaskMean:    rapid.Float64Range(1e-3, 1e3).Draw(t, "mS"),
			Spread:           rapid.Float64Range(0, 0.9).Draw(t, "spread"),
		}
		mL := c.LongTaskMean()
		long := c.LongFraction * c.LongTasks * mL
		short := (1 - c.LongFraction) * c.ShortTasks * c.ShortTaskMean
		if got := long / (long + short); math.Abs(got-c.LongWorkFraction) > 1e-12 {
			t.Fatalf("m_L = %v gives a share of %v, want %v", mL, got, c.LongWorkFraction)
		}
		lo, hi := c.ShortTaskMean*(1+c.Spread), mL*(1-c.Spread)
		th := c.Threshold()
		if math.Abs((th-lo)-(hi-th)) > 1e-12*math.Max(math.Abs(lo), math.Abs(hi)) {
			t.Fatalf("Threshold %v is not midway between %v and %v", th, lo, hi)
		}
	})
}

// TestSynthesizeMoments: the arrivals' mean gap is E[task-seconds per
// job]/(Load·Nodes), E[task-seconds] = p·n_L·m_L + (1−p)·n_S·m_S (Poisson
// arrivals: the gaps are exponential, σ = mean, and their mean is within
// 5σ/√n), and a short (long) job has n_S (n_L) tasks on average: 1 +
// Poisson(n − 1), variance n − 1, within 5σ. Each test's false-alarm rate
// is below 10⁻⁶.
func TestSynthesizeMoments(t *testing.T) {
	t.Parallel()
	n := 40000
	if testing.Short() {
		n = 20000
	}
	c := GoogleLike(n, 1000, 0.8)
	jobs, err := Synthesize(c, rngFrom(13))
	if err != nil {
		t.Fatal(err)
	}
	p, mL := c.LongFraction, c.LongTaskMean()
	work := p*c.LongTasks*mL + (1-p)*c.ShortTasks*c.ShortTaskMean
	wantGap := work / (c.Load * float64(c.Nodes))
	if got, tol := jobs[len(jobs)-1].Submit/float64(n), 5*wantGap/math.Sqrt(float64(n)); math.Abs(got-wantGap) > tol {
		t.Errorf("mean gap %v; want %v ± %v", got, wantGap, tol)
	}
	thr := c.Threshold()
	var count, tasks [2]float64
	for _, j := range jobs {
		k := 0
		if class, _ := Classify(j.EstTask, thr); class == Long {
			k = 1
		}
		count[k]++
		tasks[k] += float64(len(j.Durations))
	}
	for k, want := range []float64{c.ShortTasks, c.LongTasks} {
		got := tasks[k] / count[k]
		if tol := 5 * math.Sqrt((want-1)/count[k]); math.Abs(got-want) > tol {
			t.Errorf("class %d: %v tasks per job on average; want %v ± %v", k, got, want, tol)
		}
	}
}
