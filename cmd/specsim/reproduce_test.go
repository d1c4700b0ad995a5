package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/overlap"
	"github.com/specsched/specsched/sim"
)

// TestMeanCI: a sample worked by hand. x = 1..5: mean 3, sample standard
// deviation √2.5, and t_{0.975, 4} = 2.776 (a printed table of Student's
// t), so the half-width is 2.776·√2.5/√5 = 1.963. One value has no
// interval.
func TestMeanCI(t *testing.T) {
	t.Parallel()
	m, h := meanCI([]float64{1, 2, 3, 4, 5})
	if m != 3 || math.Abs(h-1.963) > 1e-3 {
		t.Fatalf("meanCI(1..5) = %v ± %v, want 3 ± 1.963", m, h)
	}
	if m, h := meanCI([]float64{0.25}); m != 0.25 || !math.IsNaN(h) {
		t.Fatalf("meanCI(0.25) = %v ± %v, want 0.25 ± NaN", m, h)
	}
	if got := pctCI([]float64{0.25}); got != "25.0%" {
		t.Fatalf("pctCI(0.25) = %q, want 25.0%% (one value, no interval)", got)
	}
	if got := pctCI([]float64{0.1, 0.3}); got != "20.0% ± 127.1" { // t_{0.975,1} = 12.706; s = 0.1414; 12.706·0.1414/√2 = 1.2706
		t.Fatalf("pctCI(0.1, 0.3) = %q", got)
	}
}

// TestParetoMean: the truncated Pareto mean against a numerical integral
// of x·f(x) over [x_m, c] divided by F(c), with gonum's Pareto density
// (quadrature, not the closed form), and without truncation against
// β·x_m/(β−1).
func TestParetoMean(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ xm, beta, ratio float64 }{
		{1, 1.1, 8}, {2, 1.4, 3}, {0.5, 1.8, 20}, {3, 2.5, 1.5}, {1, 1.2, 1000},
	} {
		p := distuv.Pareto{Xm: c.xm, Alpha: c.beta}
		hi := c.ratio * c.xm
		want := quad.Fixed(func(x float64) float64 { return x * p.Prob(x) }, c.xm, hi, 20000, nil, 0) / p.CDF(hi)
		if got := paretoMean(c.xm, c.beta, hi); math.Abs(got-want) > 1e-6*want {
			t.Errorf("paretoMean(%v, %v, %v) = %v, quadrature %v", c.xm, c.beta, hi, got, want)
		}
		if got, want := paretoMean(c.xm, c.beta, 0), c.beta*c.xm/(c.beta-1); math.Abs(got-want) > 1e-12*want {
			t.Errorf("untruncated paretoMean(%v, %v) = %v, want %v", c.xm, c.beta, got, want)
		}
	}
	if got := paretoMean(2, 1.5, 2); got != 2 {
		t.Errorf("paretoMean truncated at x_m = %v, want x_m = 2", got)
	}
}

// TestSlotsForLoad: worked by hand. Two jobs arriving at 0 and 50, each
// of 100 tasks of mean 2 (Pareto x_m = 1, β = 2, untruncated): work 400
// over a span of 50 at load 0.8 is 400 / 40 = 10 slots; at load 2, 4.
func TestSlotsForLoad(t *testing.T) {
	t.Parallel()
	jobs := []sim.Job{
		{Arrival: 0, Beta: 2, Phases: []sim.Phase{{Tasks: 100, Scale: 1}}},
		{Arrival: 50, Beta: 2, Phases: []sim.Phase{{Tasks: 60, Scale: 1}, {Tasks: 40, Scale: 1}}},
	}
	for _, c := range []struct {
		load float64
		want int
	}{{0.8, 10}, {2, 4}, {1000, 1}} {
		if got := slotsForLoad(jobs, c.load); got != c.want {
			t.Errorf("slotsForLoad(load %v) = %d, want %d", c.load, got, c.want)
		}
	}
	if got := slotsForLoad(jobs[:1], 0.8); got != 1 {
		t.Errorf("one arrival (no span): %d slots, want 1", got)
	}
}

// TestReproduce runs the command at a small size and checks the report:
// every section is there, and the first comparison's number is the mean,
// over seeds, of sim.Gain on runs made here from the sim API alone (the
// synthetic workload of each seed, srpt+speculate against hopper, observed
// estimates, ε = 10%, the 10% budget).
func TestReproduce(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "docs", "r.md") // docs/ does not exist yet
	code, stdout, errOut := runCmd(t, "reproduce", "-seeds", "2", "-jobs", "300", "-slots", "20", "-overlap-jobs", "2000", "-out", out, "-q")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	report := string(raw)
	for _, h := range []string{"Figures 6.1, 6.3", "Figure 6.5", "Figure 6.4", "Figure 6.7", "correlated slowness", "best-effort speculation", "How much the estimates decide", "keeping its slots", "Overlapping map and shuffle"} {
		if !strings.Contains(report, h) {
			t.Errorf("no section on %s", h)
		}
	}
	if svg, err := os.ReadFile(filepath.Join(filepath.Dir(out), "r-synthetic.svg")); err != nil || !strings.Contains(string(svg), "<svg") || !strings.Contains(report, "](r-synthetic.svg)") {
		t.Errorf("the plot r-synthetic.svg is missing, not an SVG or not linked (%v)", err)
	}
	if n := strings.Count(report, "Mantri's rule |"); n != 1 || !strings.Contains(report, "| hopper+speculate vs srpt+speculate, Mantri's rule |") {
		t.Errorf("want one Mantri row, for the thesis's rule (one same-speculation table here), found %d", n)
	}
	for _, e := range []string{"| 0% |", "| 5% |", "| 10% |", "| 15% |", "| 20% |", "| 30% |"} {
		if !strings.Contains(report, e) {
			t.Errorf("the ε table lacks the row %s", e)
		}
	}
	if strings.Contains(report, "DIR is the directory of the SWIM files") {
		t.Error("the report has the SWIM days' note without -swim")
	}
	if !strings.Contains(report, "## Reading the tables") {
		t.Error("the report lacks its reading")
	}
	// The same-speculation table's first row, under -estimator's observed
	// progress at the report's load.
	gain := meanGain(t, 0.8, sim.Observed, &sim.SpeculateRule{}, &sim.SRPTAllocator{})
	want := fmt.Sprintf("| hopper+speculate vs srpt+speculate | ∼50%% | %.1f%% ± ", 100*gain)
	if !strings.Contains(report, want) {
		t.Errorf("report lacks %q:\n%s", want, report)
	}
	// The estimator table's row under exact estimates at load 1.2: Hopper
	// against best effort at the lowest priority, each run on its own
	// estimator rather than -estimator's (observed).
	if want := fmt.Sprintf("| oracle, load 1.2: hopper vs srpt-conserving+idle | — | %.1f%% ± ", 100*meanGain(t, 1.2, sim.Oracle, &sim.IdleRule{}, &sim.SRPTAllocator{Conserving: true})); !strings.Contains(report, want) {
		t.Errorf("report lacks %q", want)
	}
	// The overlapping-phases row at load 0.9: k-LPS's mean over the lower
	// bound, averaged over the two seeds.
	var rel [3]float64
	for seed := uint64(1); seed <= 2; seed++ {
		res, err := overlap.RunExperiment(overlap.ExperimentConfig{Load: 0.9, Jobs: 2000, Seed: seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range []float64{res.KLPS, res.MaxSRPT, res.SplitSRPT} {
			rel[i] += m / res.LowerBound / 2
		}
	}
	if want := regexp.MustCompile(fmt.Sprintf(`\| 0\.9 \| %.3f ± [0-9.]+ \| %.3f ± [0-9.]+ \| %.3f ± [0-9.]+ \|`, rel[0], rel[1], rel[2])); !want.MatchString(report) {
		t.Errorf("report lacks the row %v:\n%s", want, report)
	}
	// The ratio to the paper: the mean over 0.5, to two decimals.
	if want := fmt.Sprintf("| %.2f |\n", gain/0.5); !strings.Contains(report, "| hopper+speculate vs srpt+speculate | ∼50% | ") || !strings.Contains(report, want) {
		t.Errorf("report lacks the ratio %q", want)
	}
	// A row without a paper value has no ratio.
	if !regexp.MustCompile(`(?m)^\| load 0\.5, 50 slots \| — \| [^|]+ \| — \|$`).MatchString(report) {
		t.Error("the map's rows must show no paper value and no ratio")
	}
	// The plot: 8 × 4 inches.
	if svg, _ := os.ReadFile(filepath.Join(filepath.Dir(out), "r-synthetic.svg")); !strings.Contains(string(svg), `width="576pt" height="288pt"`) && !strings.Contains(string(svg), `width="8in" height="4in"`) {
		t.Errorf("the plot is not 8 × 4 inches: %.200s", svg)
	}
}

// TestReproduceBadFlags: a value out of range is a usage error (exit 2)
// naming its flag; a missing SWIM directory fails with the file's name.
func TestReproduceBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-seeds", "0"}, {"-jobs", "0"}, {"-slots", "-1"}, {"-swim-seeds", "101"}, {"-load", "0"}, {"-load", "NaN"}, {"-estimator", "psychic"}} {
		code, _, errOut := runCmd(t, append([]string{"reproduce", "-q"}, args...)...)
		if code != 2 || !strings.Contains(errOut, args[0]) {
			t.Errorf("reproduce %v: exit %d, stderr %q; want 2 naming the flag", args, code, errOut)
		}
	}
	dir := t.TempDir()
	code, _, errOut := runCmd(t, "reproduce", "-q", "-seeds", "1", "-jobs", "10", "-swim", dir, "-out", filepath.Join(dir, "r.md"))
	if code != 1 || !strings.Contains(errOut, "FB-2009_samples_24_times_1hr_0.tsv") {
		t.Errorf("missing SWIM days: exit %d, stderr %q", code, errOut)
	}
}

// TestReproduceFlagBounds: each bound of the flags is accepted and the
// next value out is not (reproFlags.check).
func TestReproduceFlagBounds(t *testing.T) {
	t.Parallel()
	base := reproFlags{seeds: 1, swimSeeds: 1, jobs: 1, slots: 1, overlapJobs: 1, load: 1, estimator: "observed"}
	for _, c := range []struct {
		set func(*reproFlags)
		ok  bool
	}{
		{func(f *reproFlags) {}, true},
		{func(f *reproFlags) { f.seeds = 100 }, true},
		{func(f *reproFlags) { f.seeds = 101 }, false},
		{func(f *reproFlags) { f.swimSeeds = 100 }, true},
		{func(f *reproFlags) { f.jobs = 1e6 }, true},
		{func(f *reproFlags) { f.jobs = 1e6 + 1 }, false},
		{func(f *reproFlags) { f.slots = 1e6 }, true},
		{func(f *reproFlags) { f.overlapJobs = 1e6 + 1 }, false},
		{func(f *reproFlags) { f.load = 10 }, true},
		{func(f *reproFlags) { f.load = math.Nextafter(10, 11) }, false},
		{func(f *reproFlags) { f.load = math.SmallestNonzeroFloat64 }, true},
		{func(f *reproFlags) { f.estimator = "oracle" }, true},
	} {
		f := base
		c.set(&f)
		if err := f.check(); (err == nil) != c.ok {
			t.Errorf("%+v: check() = %v, want ok %v", f, err, c.ok)
		}
	}
	f := base
	f.estimator = "progress"
	if f.check(); f.est != sim.Progress {
		t.Errorf("-estimator progress set %v", f.est)
	}
}

// TestReproduceSwim runs the report on two SWIM "days" made of the
// module's 20-job excerpt, and checks each day's cluster against an
// independent count: every phase of ⌈bytes/block⌉ tasks, each of mean
// duration max(bytes per task / rate, 1 s) (sim.SwimConfig), a job with
// no bytes one task of 1 s; slots = round(work / (span × load)). The SWIM
// rows average -swim-seeds seeds (one here: no interval), the synthetic
// ones -seeds (two: an interval).
func TestReproduceSwim(t *testing.T) {
	t.Parallel()
	sample, err := os.ReadFile(sampleSwim)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, day := range []string{"FB-2009", "FB-2010"} {
		if err := os.WriteFile(filepath.Join(dir, day+"_samples_24_times_1hr_0.tsv"), sample, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "r.md")
	code, _, errOut := runCmd(t, "reproduce", "-q", "-seeds", "2", "-swim-seeds", "1", "-jobs", "100", "-slots", "10", "-overlap-jobs", "100", "-load", "0.05", "-swim", dir, "-out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	report := string(raw)
	recs, err := sim.ParseSwim(strings.NewReader(string(sample)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		day   string
		block float64
	}{{"FB-2009", 64 * sim.MiB}, {"FB-2010", 128 * sim.MiB}} {
		work, tasks := 0.0, 0
		for _, j := range recs {
			if j.MapInput == 0 && j.Shuffle == 0 {
				work++
				tasks++
			}
			for _, b := range []float64{float64(j.MapInput), float64(j.Shuffle)} {
				if b > 0 {
					n := math.Ceil(b / c.block)
					work += n * max(b/n/sim.SwimRate, sim.SwimMinTask)
					tasks += int(n)
				}
			}
		}
		span := recs[len(recs)-1].Submit - recs[0].Submit
		want := fmt.Sprintf("%s (%d jobs, %d tasks, %d slots)", c.day, len(recs), tasks, int(math.Round(work/(span*0.05))))
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
		row := regexp.MustCompile(`(?m)^\| ` + c.day + `: hopper-eps vs fair\+speculate \| >70% \| (.*) \|`).FindStringSubmatch(report)
		if row == nil || strings.Contains(row[1], "±") {
			t.Errorf("%s's Fair row %q: want one seed, no interval", c.day, row)
		}
	}
	if !strings.Contains(report, "| synthetic: hopper-eps vs fair+speculate | >70% | ") || !strings.Contains(report, "-swim DIR -swim-seeds 1") || !strings.Contains(report, ", the SWIM days over 1.") {
		t.Errorf("report lacks the synthetic row or the SWIM flags:\n%s", report)
	}
	if !strings.Contains(report, "the cluster at which its first copies' work over its span is the offered load") ||
		!strings.Contains(report, "1–2% of the slots' capacity") || !strings.Contains(report, "average over 1 seed(s), the synthetic ones over 2:") {
		t.Errorf("report lacks the SWIM days' note (cluster sized for the load, seeds):\n%s", report)
	}
	if row := regexp.MustCompile(`(?m)^\| synthetic: hopper-eps vs fair\+speculate \| >70% \| (.*) \|`).FindStringSubmatch(report); row == nil || !strings.Contains(row[1], "±") {
		t.Errorf("synthetic Fair row %q: want two seeds, an interval", row)
	}
}

// meanGain simulates TestReproduce's synthetic workload (300 jobs, 20 slots)
// at load under seeds 1 and 2, as the report does — SRPT with rule and
// allocator against the Hopper preset, both under estimator — and returns
// the mean of the two seeds' gains of Hopper.
func meanGain(t *testing.T, load float64, estimator sim.Estimator, rule sim.InJobRule, allocator sim.Allocator) float64 {
	t.Helper()
	var sum float64
	for seed := uint64(1); seed <= 2; seed++ {
		jobs, err := sim.Synthesize(sim.DefaultWorkload(300, 20, load), rand.New(rand.NewPCG(seed, 0x5eed)))
		if err != nil {
			t.Fatal(err)
		}
		var res [2]*sim.Result
		for i, p := range []sim.Preset{sim.SRPT, sim.Hopper} {
			cfg := sim.DefaultConfig(p, 20)
			cfg.Seed, cfg.Eps, cfg.Budget = seed, 0.1, 2
			cfg.Speculation.Estimator = estimator
			if p == sim.SRPT {
				cfg.Rule, cfg.Allocator = rule, allocator
			}
			if res[i], err = sim.Simulate(jobs, cfg); err != nil {
				t.Fatal(err)
			}
		}
		g, err := sim.Gain(res[0], res[1])
		if err != nil {
			t.Fatal(err)
		}
		sum += g
	}
	return sum / 2
}
