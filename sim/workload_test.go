package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/testutil"
)

// TestParetoScale checks the truncated Pareto mean of ParetoScale against
// numerical quadrature of x·f(x) over [x_m, ratio·x_m], divided by F(ratio·x_m),
// with gonum's Pareto density.
func TestParetoScale(t *testing.T) {
	t.Parallel()
	const tol = 1e-6 // quadrature on a log-spaced grid of 2000 Legendre nodes per decade
	for _, beta := range []float64{1.05, 1.2, 1.5, 1.9, 2.5, 4} {
		for _, ratio := range []float64{1.5, 4, 15, 100, 1e4} {
			mean := 1.7
			xm := ParetoScale(mean, beta, ratio)
			d := distuv.Pareto{Xm: xm, Alpha: beta}
			// Integrate in log space, x = e^u, dx = x du: smooth integrand.
			f := func(u float64) float64 { x := math.Exp(u); return x * d.Prob(x) * x }
			num := quad.Fixed(f, math.Log(xm), math.Log(ratio*xm), 4000, nil, 0)
			got := num / d.CDF(ratio*xm)
			if math.Abs(got-mean) > tol*mean {
				t.Errorf("β = %g, ratio %g: truncated mean with x_m = %g is %.9g by quadrature, want %g", beta, ratio, xm, got, mean)
			}
		}
		if got, want := ParetoScale(1, beta, math.Inf(1)), (beta-1)/beta; math.Abs(got-want) > 1e-15 {
			t.Errorf("β = %g untruncated: x_m = %g, want (β−1)/β = %g", beta, got, want)
		}
	}
	if got := ParetoScale(3, 1.5, 1); got != 3 {
		t.Errorf("ratio 1: x_m = %g, want the mean", got)
	}
}

// TestKeyedDurations: the keyed draws follow their laws. Pareto copies (with
// and without a cap) pass a Kolmogorov–Smirnov comparison with gonum's CDF;
// the log-normal factors have the stated median or mean; different keys give
// different draws and the same key the same.
func TestKeyedDurations(t *testing.T) {
	t.Parallel()
	n := 20000
	if testing.Short() {
		n = 5000
	}
	// The KS statistic of n draws exceeds 1.95/√n with probability 0.1%.
	ks := 1.95 / math.Sqrt(float64(n))
	for _, tc := range []struct{ xm, beta, limit float64 }{{0.5, 1.2, 0}, {1, 1.8, 0}, {0.3, 1.1, 4.5}} {
		d := distuv.Pareto{Xm: tc.xm, Alpha: tc.beta}
		x := make([]float64, n)
		for i := range x {
			x[i] = paretoDuration(7, i/3, i%3, tc.xm, tc.beta, tc.limit)
			if x[i] < tc.xm || tc.limit > 0 && x[i] > tc.limit {
				t.Fatalf("draw %g outside [%g, %g]", x[i], tc.xm, tc.limit)
			}
		}
		slices.Sort(x)
		norm := 1.0
		if tc.limit > 0 {
			norm = d.CDF(tc.limit)
		}
		var worst float64
		for i, v := range x {
			f := d.CDF(v) / norm
			worst = math.Max(worst, math.Max(math.Abs(f-float64(i)/float64(n)), math.Abs(f-float64(i+1)/float64(n))))
		}
		if worst > ks {
			t.Errorf("Pareto(%g, %g) cap %g: KS distance %g > %g", tc.xm, tc.beta, tc.limit, worst, ks)
		}
	}
	// Medians and means of the log-normal factors.
	var below, sum float64
	for i := 0; i < n; i++ {
		if logNormalMedianOne(3, drawEstimate, i, 0, 0.3) < 1 {
			below++
		}
		sum += logNormalMeanOne(3, drawMachine, i, 1, 0.5)
	}
	if frac := below / float64(n); math.Abs(frac-0.5) > 4*0.5/math.Sqrt(float64(n)) {
		t.Errorf("median-one factor below 1 in %g of draws, want 0.5", frac)
	}
	// SD of the mean-one factor is 0.5: the sample mean is within 4·0.5/√n.
	if mean := sum / float64(n); math.Abs(mean-1) > 4*0.5/math.Sqrt(float64(n)) {
		t.Errorf("mean-one factor has sample mean %g", mean)
	}
	if logNormalMedianOne(3, drawEstimate, 1, 0, 0) != 1 {
		t.Error("σ = 0 must give exactly 1")
	}
	a, b := keyedUniform(1, drawDuration, 5, 0), keyedUniform(1, drawDuration, 5, 0)
	c, d := keyedUniform(1, drawDuration, 5, 1), keyedUniform(2, drawDuration, 5, 0)
	if a != b || a == c || a == d || !(a > 0 && a < 1) {
		t.Errorf("keyed draws: same key %g, %g; other copy %g; other seed %g", a, b, c, d)
	}
}

// testSynthesizeShape checks a synthetic workload against its configuration:
// arrivals increasing and calibrated so that Σ tasks·MeanTask = Load·Slots·
// (last arrival); β from the groups; downstream phases between MinRatio and
// 1 times their upstream (rounded up); Pareto scales and caps giving the mean
// task duration; and the same rng seed giving the same jobs.
func testSynthesizeShape(t *rapid.T) {
	c := DefaultWorkload(rapid.IntRange(0, 300).Draw(t, "jobs"), rapid.IntRange(1, 500).Draw(t, "slots"),
		rapid.Float64Range(0.05, 2).Draw(t, "load"))
	c.MeanTask = rapid.Float64Range(0.01, 100).Draw(t, "mean")
	c.MaxSlowdown = rapid.SampledFrom([]float64{0, 1, 15, math.Inf(1)}).Draw(t, "maxSlowdown")
	c.MinRatio = rapid.Float64Range(0.01, 1).Draw(t, "minRatio")
	c.MaxTasks = rapid.IntRange(1, 3000).Draw(t, "maxTasks")
	seed := rapid.Uint64().Draw(t, "seed")
	jobs, err := Synthesize(c, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatalf("Synthesize: %v", err)
	}
	if len(jobs) != c.Jobs {
		t.Fatalf("%d jobs, want %d", len(jobs), c.Jobs)
	}
	var work, last float64
	for j, job := range jobs {
		if job.Arrival <= 0 || j > 0 && job.Arrival < jobs[j-1].Arrival {
			t.Fatalf("job %d arrives at %g after %g", j, job.Arrival, last)
		}
		last = job.Arrival
		if job.Beta != c.Groups[job.Group].Beta {
			t.Fatalf("job %d: β %g, group %d has %g", j, job.Beta, job.Group, c.Groups[job.Group].Beta)
		}
		if len(job.Phases) > len(c.PhaseWeights) {
			t.Fatalf("job %d has %d phases", j, len(job.Phases))
		}
		for p, ph := range job.Phases {
			work += float64(ph.Tasks) * c.MeanTask
			if p == 0 && (ph.Tasks < 1 || ph.Tasks > c.MaxTasks) {
				t.Fatalf("job %d: %d tasks, cap %d", j, ph.Tasks, c.MaxTasks)
			}
			if p > 0 {
				up := job.Phases[p-1].Tasks
				if ph.Tasks > up || ph.Tasks < int(math.Ceil(c.MinRatio*float64(up))) {
					t.Fatalf("job %d phase %d: %d tasks after %d (ratio ≥ %g)", j, p, ph.Tasks, up, c.MinRatio)
				}
				if ph.Start != c.SlowStart {
					t.Fatalf("start %g, want %g", ph.Start, c.SlowStart)
				}
			}
			ratio := math.Inf(1)
			if ph.Cap > 0 {
				ratio = ph.Cap / ph.Scale
			}
			if mean := ph.Scale * truncatedParetoFactor(job.Beta, ratio); math.Abs(mean-c.MeanTask) > 1e-9*c.MeanTask {
				t.Fatalf("job %d phase %d: mean duration %g, want %g", j, p, mean, c.MeanTask)
			}
		}
	}
	if c.Jobs > 0 {
		if got := work / (float64(c.Slots) * last); math.Abs(got-c.Load) > 1e-9*c.Load {
			t.Fatalf("offered load %g, want %g", got, c.Load)
		}
	}
	again, _ := Synthesize(c, rand.New(rand.NewPCG(seed, 1)))
	if diff := cmp.Diff(jobs, again); diff != "" {
		t.Fatalf("same seed, different jobs:\n%s", diff)
	}
	if _, err := Simulate(jobs, DefaultConfig(Hopper, c.Slots)); err != nil && len(jobs) < 50 {
		t.Fatalf("Simulate rejects a synthetic workload: %v", err)
	}
}

func TestSynthesizeShape(t *testing.T) { t.Parallel(); rapid.Check(t, testSynthesizeShape) }

// TestSynthesizeLaws checks the distributions on one large draw (fixed seed,
// tolerances of 5 standard errors): P(T ≥ t) = t^{−α} for the first phase's
// tasks below the cap, the groups' and phase counts' frequencies, and
// exponential inter-arrival gaps (the fraction of gaps above their mean is
// e^{−1}).
func TestSynthesizeLaws(t *testing.T) {
	t.Parallel()
	n := 40000
	if testing.Short() {
		n = 10000
	}
	c := DefaultWorkload(n, 100, 0.8)
	c.Groups = []Group{{Beta: 1.2, Weight: 1}, {Beta: 1.5, Weight: 3}}
	jobs, err := Synthesize(c, rand.New(rand.NewPCG(11, 12)))
	if err != nil {
		t.Fatal(err)
	}
	within := func(what string, got, p float64) {
		t.Helper()
		if se := math.Sqrt(p * (1 - p) / float64(n)); math.Abs(got-p) > 5*se {
			t.Errorf("%s: frequency %g, want %g ± %g", what, got, p, 5*se)
		}
	}
	count := func(pred func(Job) bool) float64 {
		k := 0
		for _, j := range jobs {
			if pred(j) {
				k++
			}
		}
		return float64(k) / float64(n)
	}
	for _, x := range []int{2, 5, 20, 100} {
		within("P(T ≥ "+strconv.Itoa(x)+")", count(func(j Job) bool { return j.Phases[0].Tasks >= x }), math.Pow(float64(x), -c.TaskShape))
	}
	within("group 1", count(func(j Job) bool { return j.Group == 1 }), 0.75)
	for k, w := range c.PhaseWeights {
		within("phases "+strconv.Itoa(k+1), count(func(j Job) bool { return len(j.Phases) == k+1 }), w)
	}
	var mean float64
	gaps := make([]float64, n)
	for j := range jobs {
		prev := 0.0
		if j > 0 {
			prev = jobs[j-1].Arrival
		}
		gaps[j] = jobs[j].Arrival - prev
		mean += gaps[j] / float64(n)
	}
	above := 0
	for _, g := range gaps {
		if g > mean {
			above++
		}
	}
	within("gaps above the mean", float64(above)/float64(n), math.Exp(-1))
}

// testSynthesizeNoPanic injects invalid values: Synthesize returns an error
// or jobs that Simulate accepts, and never panics.
func testSynthesizeNoPanic(t *rapid.T) {
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1e300}
	pick := func(label string, good float64) float64 {
		switch rapid.IntRange(0, 5).Draw(t, label+"Bad") {
		case 0:
			return rapid.SampledFrom(bad).Draw(t, label)
		case 1:
			return testutil.Magnitude().Draw(t, label) // any magnitude: 1e-300 loads, subnormal means
		}
		return good
	}
	c := DefaultWorkload(rapid.IntRange(-2, 40).Draw(t, "jobs"), rapid.IntRange(-1, 50).Draw(t, "slots"), pick("load", 0.7))
	c.MeanTask = pick("mean", 1)
	c.MaxSlowdown = pick("maxSlowdown", 15)
	c.TaskShape = pick("shape", 1.1)
	c.MinRatio = pick("minRatio", 0.1)
	c.SlowStart = pick("slowStart", 0.8)
	c.MaxTasks = rapid.IntRange(-1, 100).Draw(t, "maxTasks")
	c.Groups[0].Beta = pick("beta", 1.1)
	c.Groups[1].Weight = pick("weight", 1)
	c.PhaseWeights[0] = pick("phaseWeight", 0.6)
	var rng *rand.Rand
	if rapid.IntRange(0, 9).Draw(t, "nilRNG") > 0 {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	jobs, err := Synthesize(c, rng)
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %v is not an InputError", err)
		}
		return
	}
	if _, err := Simulate(jobs, DefaultConfig(SRPT, max(1, c.Slots))); err != nil {
		t.Fatalf("Synthesize accepted %+v but Simulate rejects its jobs: %v", c, err)
	}
}

func TestSynthesizeNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSynthesizeNoPanic) }
func FuzzSynthesize(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testSynthesizeNoPanic)) }

// TestSynthesizeOutOfRange: a Load far below the jobs' scale gave arrivals
// of +Inf (Load = 5e-324) or Pareto scales below the clock's resolution at
// the late arrivals (Load = 1e-8 over 5 000 jobs on 1 slot: the first job
// past about 4e11 whose x_m, 0.36 for the β = 1.8 group, is below 2^-40 ×
// its arrival): Synthesize returned jobs that Simulate rejects. It rejects
// them with an error on Load (what to change), before drawing when even one
// task per job spans beyond MaxTime — 10 jobs on 200 slots at Load 1e-300
// span at least 10/(1e-300·200) = 5e298 — and after drawing otherwise.
func TestSynthesizeOutOfRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		jobs, slots int
		load        float64
		why         string
	}{
		{1, 1, 5e-324, "the arrivals would span more than 1e+12"},
		{10, 200, 1e-300, "Jobs·MeanTask/(Load·Slots) = 5e+298"},
		{1, 1, 0.99e-12, "the arrivals would span more than 1e+12"}, // 1/0.99e-12 > 1e12
		{5000, 1, 1e-8, "Phases[0].Scale"},
	} {
		jobs, err := Synthesize(DefaultWorkload(tc.jobs, tc.slots, tc.load), rand.New(rand.NewPCG(1, 1)))
		ie := asInputError(err)
		if ie == nil || ie.Field != "Load" || ie.Index != -1 || ie.Value != tc.load || jobs != nil ||
			!strings.Contains(ie.Reason, "too low") || !strings.Contains(ie.Reason, tc.why) {
			t.Errorf("load %g: %d jobs, error %v; want an InputError on Load, too low, mentioning %q", tc.load, len(jobs), err, tc.why)
		}
	}
	// Far from the bound a low load is fine: 10 jobs on 200 slots at Load
	// 1e-6 span about 5 000 per task.
	if _, err := Synthesize(DefaultWorkload(10, 200, 1e-6), rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Errorf("load 1e-6: %v; want it accepted", err)
	}
}

// TestSynthConfigBounds: every bound Synthesize documents, at the bound
// (accepted) and one step beyond it (rejected, naming the field). validate
// is called directly: a workload of 2^24 jobs is accepted, not drawn.
func TestSynthConfigBounds(t *testing.T) {
	t.Parallel()
	below1 := math.Nextafter(1, 0)
	for _, tc := range []struct {
		name  string
		set   func(c *SynthConfig)
		field string // "" when accepted; "Field: text" when the reason must say text
	}{
		{"jobs 0", func(c *SynthConfig) { c.Jobs = 0 }, ""},
		{"jobs 2^24", func(c *SynthConfig) { c.Jobs = MaxSynthJobs; c.Slots = MaxSlots }, ""},
		{"jobs -1", func(c *SynthConfig) { c.Jobs = -1 }, "Jobs"},
		{"jobs 2^24+1", func(c *SynthConfig) { c.Jobs = MaxSynthJobs + 1 }, "Jobs"},
		{"slots 1", func(c *SynthConfig) { c.Slots = 1 }, ""},
		{"slots 2^24", func(c *SynthConfig) { c.Slots = MaxSlots }, ""},
		{"slots 0", func(c *SynthConfig) { c.Slots = 0 }, "Slots"},
		{"slots 2^24+1", func(c *SynthConfig) { c.Slots = MaxSlots + 1 }, "Slots"},
		{"load 10", func(c *SynthConfig) { c.Load = 10 }, ""},
		{"load 0", func(c *SynthConfig) { c.Load = 0 }, "Load: (0, 10]"},
		{"load 0, no jobs", func(c *SynthConfig) { c.Jobs, c.Load = 0, 0 }, "Load: (0, 10]"},
		{"load above 10", func(c *SynthConfig) { c.Load = math.Nextafter(10, 11) }, "Load"},
		{"mean task 1e6", func(c *SynthConfig) { c.MeanTask = 1e6 }, ""},
		{"mean task 0", func(c *SynthConfig) { c.MeanTask = 0 }, "MeanTask"},
		{"mean task above 1e6", func(c *SynthConfig) { c.MeanTask = math.Nextafter(1e6, 2e6) }, "MeanTask"},
		// 100 jobs of MeanTask 1 on 1 slot at Load 1e-10 span exactly
		// 100/1e-10 = 1e12 = MaxTime: accepted; a little less load is not.
		{"span MaxTime", func(c *SynthConfig) { c.Jobs, c.Slots, c.MeanTask, c.Load = 100, 1, 1, 1e-10 }, ""},
		{"span beyond MaxTime", func(c *SynthConfig) { c.Jobs, c.Slots, c.MeanTask, c.Load = 100, 1, 1, math.Nextafter(1e-10, 0) }, "Load"},
		// 50 jobs of MeanTask 2 on 4 slots span 100/(4·Load) = 1e12 at
		// Load 2.5e-11: a tenth of a percent more load is accepted, less
		// is not (every factor of the bound counts).
		{"span below MaxTime", func(c *SynthConfig) { c.Jobs, c.Slots, c.MeanTask, c.Load = 50, 4, 2, 2.5e-11*1.001 }, ""},
		{"span above MaxTime", func(c *SynthConfig) { c.Jobs, c.Slots, c.MeanTask, c.Load = 50, 4, 2, 2.5e-11*0.999 }, "Load: (Load·Slots) = 1e+12"},
		{"max slowdown 0", func(c *SynthConfig) { c.MaxSlowdown = 0 }, ""},
		{"max slowdown +Inf", func(c *SynthConfig) { c.MaxSlowdown = math.Inf(1) }, ""},
		{"max slowdown 1", func(c *SynthConfig) { c.MaxSlowdown = 1 }, ""},
		{"max slowdown 1e6", func(c *SynthConfig) { c.MaxSlowdown = 1e6 }, ""},
		{"max slowdown below 1", func(c *SynthConfig) { c.MaxSlowdown = below1 }, "MaxSlowdown"},
		{"max slowdown above 1e6", func(c *SynthConfig) { c.MaxSlowdown = math.Nextafter(1e6, 2e6) }, "MaxSlowdown"},
		{"max slowdown -Inf", func(c *SynthConfig) { c.MaxSlowdown = math.Inf(-1) }, "MaxSlowdown"},
		{"no group", func(c *SynthConfig) { c.Groups = nil }, "len(Groups)"},
		{"group beta 1e6", func(c *SynthConfig) { c.Groups = []Group{{Beta: 1e6, Weight: 1}} }, ""},
		{"group beta 1", func(c *SynthConfig) { c.Groups = []Group{{Beta: 2, Weight: 1}, {Beta: 1, Weight: 1}} }, "Groups.Beta"},
		{"group beta above 1e6", func(c *SynthConfig) { c.Groups = []Group{{Beta: math.Nextafter(1e6, 2e6), Weight: 1}} }, "Groups.Beta"},
		{"group weight max", func(c *SynthConfig) { c.Groups = []Group{{Beta: 2, Weight: math.MaxFloat64}} }, ""},
		{"group weight 0", func(c *SynthConfig) { c.Groups = []Group{{Beta: 2, Weight: 0}} }, "Groups.Weight"},
		{"group weight +Inf", func(c *SynthConfig) { c.Groups = []Group{{Beta: 2, Weight: math.Inf(1)}} }, "Groups.Weight"},
		{"task shape 100", func(c *SynthConfig) { c.TaskShape = 100 }, ""},
		{"task shape 0", func(c *SynthConfig) { c.TaskShape = 0 }, "TaskShape"},
		{"task shape above 100", func(c *SynthConfig) { c.TaskShape = math.Nextafter(100, 101) }, "TaskShape"},
		{"max tasks 1", func(c *SynthConfig) { c.MaxTasks = 1 }, ""},
		{"max tasks 2^20", func(c *SynthConfig) { c.MaxTasks = 1 << 20 }, ""},
		{"max tasks 0", func(c *SynthConfig) { c.MaxTasks = 0 }, "MaxTasks"},
		{"max tasks 2^20+1", func(c *SynthConfig) { c.MaxTasks = 1<<20 + 1 }, "MaxTasks"},
		{"no phase weights: one phase", func(c *SynthConfig) { c.PhaseWeights = nil }, ""},
		{"16 phases", func(c *SynthConfig) { c.PhaseWeights = make([]float64, 16); c.PhaseWeights[15] = 1 }, ""},
		{"17 phases", func(c *SynthConfig) { c.PhaseWeights = make([]float64, 17); c.PhaseWeights[0] = 1 }, "len(PhaseWeights)"},
		{"phase weight max", func(c *SynthConfig) { c.PhaseWeights = []float64{0, math.MaxFloat64} }, ""},
		{"phase weight +Inf", func(c *SynthConfig) { c.PhaseWeights = []float64{1, math.Inf(1)} }, "PhaseWeights"},
		{"phase weight negative", func(c *SynthConfig) { c.PhaseWeights = []float64{1, -0.5} }, "PhaseWeights"},
		{"no positive phase weight", func(c *SynthConfig) { c.PhaseWeights = []float64{0, 0} }, "PhaseWeights"},
		{"one phase, any ratio", func(c *SynthConfig) { c.PhaseWeights = []float64{1}; c.MinRatio, c.SlowStart = 0, 2 }, ""},
		{"min ratio 1", func(c *SynthConfig) { c.MinRatio = 1 }, ""},
		{"min ratio 0", func(c *SynthConfig) { c.MinRatio = 0 }, "MinRatio"},
		{"min ratio above 1", func(c *SynthConfig) { c.MinRatio = math.Nextafter(1, 2) }, "MinRatio"},
		{"slow start 1", func(c *SynthConfig) { c.SlowStart = 1 }, ""},
		{"slow start 0", func(c *SynthConfig) { c.SlowStart = 0 }, "SlowStart"},
		{"slow start above 1", func(c *SynthConfig) { c.SlowStart = math.Nextafter(1, 2) }, "SlowStart"},
	} {
		c := DefaultWorkload(100, 20, 0.8)
		if len(c.PhaseWeights) < 2 {
			t.Fatalf("DefaultWorkload has %d phase weights: the MinRatio and SlowStart rows need two or more", len(c.PhaseWeights))
		}
		tc.set(&c)
		field, reason, _ := strings.Cut(tc.field, ": ")
		err := c.validate("sim.Synthesize")
		ie := asInputError(err)
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: %v; want it accepted", tc.name, err)
		case tc.field != "" && (ie == nil || ie.Field != field || !strings.Contains(ie.Reason, reason)):
			t.Errorf("%s: error %v; want an InputError on %s saying %q", tc.name, err, field, reason)
		}
	}
}
