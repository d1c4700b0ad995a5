package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/specsched/specsched/overlap"
	"github.com/specsched/specsched/sim"
)

const reproduceSummary = `Reruns the comparisons of the Hopper thesis's evaluation (§6: Figures
6.1, 6.3, 6.4, 6.5 and 6.7) on the slot simulator and writes a report in
Markdown: for each comparison the paper's figure, ours (the mean over
-seeds seeds and its 95% confidence interval, Student's t) and their ratio.

Hopper and its baseline always run the same in-job speculation rule, as in
the thesis ("GRASS+Hopper vs. GRASS+SRPT"): every rule the simulator has
(sim.RuleNames) that speculates is paired. Estimates of a task's remaining
time come from observed progress (-estimator observed) unless -estimator
says otherwise. The workloads are the synthetic default (sim.DefaultWorkload
at -load on -slots slots, -jobs jobs) and, with -swim DIR, the two SWIM
Facebook days (DIR/FB-2009_samples_24_times_1hr_0.tsv and FB-2010_…) on a
cluster of as many slots as give them an offered load of -load (the
day's first-copy work over its span).`

// reproFlags are the reproduce command's flags.
type reproFlags struct {
	seeds, swimSeeds, jobs, slots int
	overlapJobs                   int
	load                          float64
	out, swimDir, estimator       string
	quiet                         bool
	est                           sim.Estimator
}

// A reproRun names one simulation of the report: a workload, a policy and
// the parameters the comparisons vary. Runs are memoised: a run several
// comparisons share is simulated once.
type reproRun struct {
	workload string  // "synthetic" or a SWIM day ("FB-2009", "FB-2010")
	policy   string  // a preset or allocator+rule (parsePolicy)
	mantri   bool    // Speculation.Mantri: Mantri's straggler rule
	machine  bool    // Config.Service = MachineService: a task's copies share its work
	eps      float64 // Config.Eps
	beta     float64 // Config.Beta: 0 means the jobs' own
	load     float64 // the offered load
	tail     float64 // the synthetic workload's one β for every job (0: its default groups)
	slots    int     // the synthetic workload's slots (a SWIM day sizes its own)
	est      string  // Speculation.Estimator by name ("": -estimator's)
	seed     uint64
}

// A reproWorkload is the jobs of one workload and seed, and its cluster.
type reproWorkload struct {
	jobs  []sim.Job
	slots int
}

// reproducer runs and memoises the report's simulations.
type reproducer struct {
	f       *reproFlags
	bar     *progress
	mu      sync.Mutex
	results map[reproRun]*sim.Result
	loads   map[reproRun]*reproWorkload // keyed by the run's workload fields only
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("reproduce", reproduceSummary, stderr)
	f := &reproFlags{}
	fs.IntVar(&f.seeds, "seeds", 5, "seeds of the synthetic workload's comparisons, in [1, 100]")
	fs.IntVar(&f.swimSeeds, "swim-seeds", 2, "seeds of the SWIM days' comparisons, in [1, 100]")
	fs.IntVar(&f.jobs, "jobs", 2000, "jobs of the synthetic workload, in [1, 10^6]")
	fs.IntVar(&f.overlapJobs, "overlap-jobs", 100000, "jobs of each run of the overlapping-phases experiment, in [1, 10^6]")
	fs.IntVar(&f.slots, "slots", 200, "slots of the synthetic workload's cluster, in [1, 10^6]")
	fs.Float64Var(&f.load, "load", 0.8, "offered load, in (0, 10]")
	fs.StringVar(&f.out, "out", "docs/reproduction.md", "the report to write (Markdown); its plots are written beside it (SVG)")
	fs.StringVar(&f.swimDir, "swim", "", "directory of the SWIM Facebook days; empty: the synthetic workload only")
	fs.StringVar(&f.estimator, "estimator", "observed", "how t_rem is estimated: observed, progress or oracle")
	fs.BoolVar(&f.quiet, "q", false, "no progress bar")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := f.check(); err != nil {
		return usageError(fs, "%v", err)
	}
	// The report's directory, for the plots written beside it as well.
	if err := os.MkdirAll(filepath.Dir(f.out), 0o755); err != nil {
		return err
	}
	r := &reproducer{f: f, results: map[reproRun]*sim.Result{}, loads: map[reproRun]*reproWorkload{}}
	start := time.Now()
	var report bytes.Buffer
	if err := r.write(&report, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "specsim reproduce: %d runs in %.0f s\n", len(r.results), time.Since(start).Seconds())
	return os.WriteFile(f.out, report.Bytes(), 0o644)
}

// check validates the flags once parsed and sets f.est; its error names
// the flag.
func (f *reproFlags) check() error {
	for _, c := range []struct {
		name   string
		v, max int
	}{{"seeds", f.seeds, 100}, {"swim-seeds", f.swimSeeds, 100}, {"jobs", f.jobs, 1e6}, {"slots", f.slots, 1e6}, {"overlap-jobs", f.overlapJobs, 1e6}} {
		if c.v < 1 || c.v > c.max {
			return fmt.Errorf("-%s %d: must lie in [1, %d]", c.name, c.v, c.max)
		}
	}
	if !(f.load > 0 && f.load <= 10) {
		return fmt.Errorf("-load %g: must lie in (0, 10]", f.load)
	}
	var err error
	if f.est, err = sim.ParseEstimator(f.estimator); err != nil {
		return fmt.Errorf("-estimator %q: %v", f.estimator, err)
	}
	return nil
}

// speculating lists the simulator's in-job rules that speculate, in the
// report's order: the thesis's own rule first.
func speculating() []string {
	var out []string
	for _, r := range sim.RuleNames() {
		if r != "launch" && r != "plan" && r != "idle" { // idle: paired with srpt-conserving below
			out = append(out, r)
		}
	}
	return out
}

// workloads lists the report's workloads: the synthetic one, then the
// SWIM days found under -swim.
func (r *reproducer) workloads() []string {
	w := []string{"synthetic"}
	if r.f.swimDir != "" {
		w = append(w, "FB-2009", "FB-2010")
	}
	return w
}

// seedsOf is how many seeds a workload's comparisons average.
func (r *reproducer) seedsOf(workload string) int {
	if workload == "synthetic" {
		return r.f.seeds
	}
	return r.f.swimSeeds
}

// workload returns the jobs and slots of run's workload and seed.
func (r *reproducer) workload(run reproRun) (*reproWorkload, error) {
	key := reproRun{workload: run.workload, load: run.load, slots: run.slots, tail: run.tail, seed: run.seed}
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.loads[key]; ok {
		return w, nil
	}
	var w *reproWorkload
	if run.workload == "synthetic" {
		c := sim.DefaultWorkload(r.f.jobs, run.slots, run.load)
		if run.tail != 0 {
			c.Groups = []sim.Group{{Beta: run.tail, Weight: 1}}
		}
		jobs, err := sim.Synthesize(c, rand.New(rand.NewPCG(run.seed, 0x5eed)))
		if err != nil {
			return nil, err
		}
		w = &reproWorkload{jobs: jobs, slots: run.slots}
	} else {
		jobs, err := r.swimDay(run.workload, run.seed)
		if err != nil {
			return nil, err
		}
		w = &reproWorkload{jobs: jobs, slots: slotsForLoad(jobs, run.load)}
	}
	r.loads[key] = w
	return w, nil
}

// swimDay reads and converts a SWIM day by its cluster's rule
// (sim.SwimFB2009 or SwimFB2010) with the synthetic workload's groups.
func (r *reproducer) swimDay(day string, seed uint64) ([]sim.Job, error) {
	rule := sim.SwimFB2009()
	if day == "FB-2010" {
		rule = sim.SwimFB2010()
	}
	rule.Groups = sim.DefaultWorkload(1, 1, 1).Groups
	return readSwim(filepath.Join(r.f.swimDir, day+"_samples_24_times_1hr_0.tsv"), rule, seed)
}

// slotsForLoad is the cluster size at which the jobs' first-copy work over
// their span (first arrival to last arrival) is the offered load: the
// work is Σ tasks × the mean of the phase's truncated Pareto law
// (paretoMean). At least 1 slot.
func slotsForLoad(jobs []sim.Job, load float64) int {
	work, first, last := 0.0, math.Inf(1), math.Inf(-1)
	for _, j := range jobs {
		first, last = min(first, j.Arrival), max(last, j.Arrival)
		for _, p := range j.Phases {
			work += float64(p.Tasks) * paretoMean(p.Scale, j.Beta, p.Cap)
		}
	}
	span := last - first
	if !(span > 0) {
		return 1
	}
	return max(1, int(math.Round(work/(span*load))))
}

// paretoMean is the mean of Pareto(xm, β) truncated at c (c = 0: not
// truncated), through sim.ParetoScale, its inverse: the scale of mean 1 at
// ratio c/xm is 1 over the mean-to-scale factor.
func paretoMean(xm, beta, c float64) float64 {
	ratio := math.Inf(1)
	if c > 0 {
		ratio = c / xm
	}
	return xm / sim.ParetoScale(1, beta, ratio)
}

// ensure simulates the runs (each listed once) not simulated yet, up to
// GOMAXPROCS at a time.
func (r *reproducer) ensure(runs []reproRun) error {
	var todo []reproRun
	r.mu.Lock()
	for _, run := range runs {
		if _, ok := r.results[run]; !ok {
			todo = append(todo, run)
		}
	}
	r.mu.Unlock()
	errs := make([]error, len(todo))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, run := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := r.simulate(run)
			if err != nil {
				errs[i] = fmt.Errorf("%s on %s, seed %d: %w", run.policy, run.workload, run.seed, err)
				return
			}
			r.mu.Lock()
			r.results[run] = res
			r.mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// simulate runs one reproRun.
func (r *reproducer) simulate(run reproRun) (*sim.Result, error) {
	w, err := r.workload(run)
	if err != nil {
		return nil, err
	}
	spec, err := parsePolicy(run.policy)
	if err != nil {
		return nil, err
	}
	cfg := sim.DefaultConfig(spec.preset, w.slots)
	cfg.Seed = run.seed
	cfg.Eps = run.eps
	cfg.Beta = run.beta
	cfg.Budget = budgetSlots(0.1, w.slots)
	cfg.Speculation.Estimator = r.f.est
	if run.est != "" {
		if cfg.Speculation.Estimator, err = sim.ParseEstimator(run.est); err != nil {
			return nil, err
		}
	}
	cfg.Speculation.Mantri = run.mantri
	if run.machine {
		cfg.Service = sim.MachineService
	}
	if spec.alloc != "" {
		if cfg.Allocator, err = sim.NewAllocator(spec.alloc); err != nil {
			return nil, err
		}
		if cfg.Rule, err = sim.NewRule(spec.rule); err != nil {
			return nil, err
		}
	}
	if r.bar != nil {
		cfg.Progress = func(int, int) { r.bar.add(1) }
	}
	return sim.Simulate(w.jobs, cfg)
}

// result returns a simulated run (ensure ran it).
func (r *reproducer) result(run reproRun) *sim.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results[run]
}

// base is the run of a workload, policy and seed with the report's
// defaults (ε = 10%, the jobs' own β).
func (r *reproducer) base(workload, policy string, seed uint64) reproRun {
	run := reproRun{workload: workload, policy: policy, eps: 0.1, seed: seed, load: r.f.load}
	if workload == "synthetic" {
		run.slots = r.f.slots
	}
	return run
}

// pairs is the runs (a, b) of every seed of a workload, each changed by
// change (nil: none).
func (r *reproducer) pairs(workload, a, b string, change func(a, b *reproRun)) [][2]reproRun {
	var out [][2]reproRun
	for s := 1; s <= r.seedsOf(workload); s++ {
		x, y := r.base(workload, a, uint64(s)), r.base(workload, b, uint64(s))
		if change != nil {
			change(&x, &y)
		}
		out = append(out, [2]reproRun{x, y})
	}
	return out
}

// A reproRow is one comparison of the report: its runs, paired by seed
// (baseline, policy), and the paper's value.
type reproRow struct {
	label string
	short string  // the label in a plot
	paper string  // the paper's figure, as the paper states it
	ref   float64 // the paper's value as a fraction, NaN when it gives none
	gain  [][2]reproRun
	slow  [][2]reproRun // for the ε table: (fair, Hopper) pairs for sim.Slowdowns
}

// A reproTable is a section of the report: a heading, the paper's claim
// and its rows.
type reproTable struct {
	heading, intro string
	rows           []reproRow
	eps            bool   // the ε table's columns (gain and slowdowns)
	plot           string // the name of the plot of its gains ("": none), beside the report
}

// tables lays out the report: every comparison and its runs.
func (r *reproducer) tables() []reproTable {
	var out []reproTable
	for _, wl := range r.workloads() {
		t := reproTable{heading: "Hopper vs SRPT, both running the same speculation (Figures 6.1, 6.3): " + r.describe(wl),
			plot:  strings.TrimSuffix(filepath.Base(r.f.out), ".md") + "-" + strings.ToLower(wl) + ".svg",
			intro: "The thesis: \"Jobs, overall, speedup by ∼50%\" with GRASS in both (Figure 6.1), and \"Hopper's results are independent of the straggler mitigation strategy\" (LATE, Mantri, GRASS; Figure 6.3)."}
		for _, rule := range speculating() {
			t.rows = append(t.rows, reproRow{label: "hopper+" + rule + " vs srpt+" + rule, short: rule, paper: "∼50%", ref: 0.5,
				gain: r.pairs(wl, "srpt+"+rule, "hopper+"+rule, nil)})
			if rule == "speculate" {
				t.rows = append(t.rows, reproRow{label: "hopper+speculate vs srpt+speculate, Mantri's rule", short: "Mantri", paper: "∼50%", ref: 0.5,
					gain: r.pairs(wl, "srpt+speculate", "hopper+speculate", func(a, b *reproRun) { a.mantri, b.mantri = true, true })})
			}
			if rule == "besteffort" {
				t.rows = append(t.rows, reproRow{label: "hopper+idle vs srpt-conserving+idle (best effort at the lowest priority)", short: "idle", paper: "∼50%", ref: 0.5,
					gain: r.pairs(wl, "srpt-conserving+idle", "hopper+idle", nil)},
					reproRow{label: "hopper vs srpt-conserving+idle", short: "hopper/idle", paper: "∼50%", ref: 0.5,
						gain: r.pairs(wl, "srpt-conserving+idle", "hopper", nil)})
			}
		}
		out = append(out, t)
	}
	fair := reproTable{heading: "Hopper vs Fair (Figure 6.5)",
		intro: "The thesis: \"Job speedups are over 70%\" against the Fair Scheduler and DRF. Hopper is ε-fair with ε = 10% (hopper-eps); both run the thesis's speculation rule."}
	hetero := reproTable{heading: "Heterogeneous β (Figure 6.7)",
		intro: "The thesis: \"a valuable difference of ∼10% in the overall completion time\" from each job group's β instead of a homogeneous β = 1.2."}
	for _, wl := range r.workloads() {
		fair.rows = append(fair.rows, reproRow{label: wl + ": hopper-eps vs fair+speculate", paper: ">70%", ref: 0.7,
			gain: r.pairs(wl, "fair+speculate", "hopper-eps", nil)})
		hetero.rows = append(hetero.rows, reproRow{label: wl + ": hopper-hetero vs hopper with β = 1.2", paper: "∼10%", ref: 0.1,
			gain: r.pairs(wl, "hopper", "hopper-hetero", func(a, _ *reproRun) { a.beta = 1.2 })})
	}
	eps := reproTable{heading: "The fairness knob ε (Figure 6.4), synthetic workload", eps: true,
		intro: "The thesis: gains \"rise for small values of ϵ and plateau beyond ϵ = 15%\"; at ε = 10% \"fewer than 4% of jobs slow down\" against a fair allocation (3.8% on Bing), \"by ≤ 5%\" (§6). Hopper is hopper-eps; its gain is over srpt+speculate and its slowdowns against fair+speculate."}
	for _, e := range []float64{0, 0.05, 0.10, 0.15, 0.20, 0.30} {
		set := func(_, b *reproRun) { b.eps = e }
		eps.rows = append(eps.rows, reproRow{label: fmt.Sprintf("%g%%", 100*e),
			gain: r.pairs("synthetic", "srpt+speculate", "hopper-eps", set),
			slow: r.pairs("synthetic", "fair+speculate", "hopper-eps", set)})
	}
	return append(out, fair, eps, hetero, r.machineTable(), r.bestEffortMap(), r.estimatorTable(), r.reserveMap())
}

// estimatorTable: Hopper against both readings of best effort and against
// SRPT without speculation, under each estimate of t_rem, at the report's
// slots and two loads — how much speculation is worth at all bounds what
// any allocation of copies can gain.
func (r *reproducer) estimatorTable() reproTable {
	t := reproTable{heading: "How much the estimates decide (synthetic workload)",
		intro: "hopper against srpt (no speculation), srpt-besteffort (copies in the job's demand) and srpt-conserving+idle (copies at the lowest priority), under each estimator of t_rem: oracle (exact), progress (the truth × a log-normal error, detected once a task has run 0.1·t_new) and observed (LATE's estimate from progress reports every 0.1·t_new, copies slowing part-way)."}
	for _, est := range []string{"oracle", "progress", "observed"} {
		for _, load := range []float64{0.8, 1.2} {
			for _, base := range []string{"srpt", "srpt-besteffort", "srpt-conserving+idle"} {
				t.rows = append(t.rows, reproRow{label: fmt.Sprintf("%s, load %g: hopper vs %s", est, load, base), ref: math.NaN(),
					gain: r.pairs("synthetic", base, "hopper", func(a, b *reproRun) { a.est, b.est, a.load, b.load = est, est, load, load })})
			}
		}
	}
	return t
}

// machineTable repeats the main comparisons under correlated slowness
// (sim.MachineService: a task has a fixed work, and every copy runs it on
// a machine of random speed), the other legitimate reading of straggling.
func (r *reproducer) machineTable() reproTable {
	t := reproTable{heading: "Under correlated slowness (synthetic workload, -service machine)",
		intro: "The tables above draw every copy's duration independently (sim.CopyService). Here a task has a fixed work and each copy runs it on a machine of random speed (log-normal, mean 1, coefficient of variation 0.5; sim.MachineService), so a copy of a long task is long too."}
	machine := func(a, b *reproRun) { a.machine, b.machine = true, true }
	for _, rule := range []string{"speculate", "besteffort"} {
		t.rows = append(t.rows, reproRow{label: "hopper+" + rule + " vs srpt+" + rule, paper: "∼50%", ref: 0.5,
			gain: r.pairs("synthetic", "srpt+"+rule, "hopper+"+rule, machine)})
	}
	t.rows = append(t.rows,
		reproRow{label: "hopper vs srpt-besteffort", ref: math.NaN(), gain: r.pairs("synthetic", "srpt-besteffort", "hopper", machine)},
		reproRow{label: "hopper-eps vs fair+speculate", paper: ">70%", ref: 0.7, gain: r.pairs("synthetic", "fair+speculate", "hopper-eps", machine)})
	return t
}

// reserveMap: Hopper keeping the slots Algorithm 1 gives a job for its
// copies (hopper-reserve, HopperAllocator.Reserve) instead of lending them
// out until a straggler is detected, against SRPT with best-effort
// speculation, from few slots (slow turnover) to many.
func (r *reproducer) reserveMap() reproTable {
	t := reproTable{heading: "Hopper keeping its slots for its copies (synthetic workload)",
		intro: "hopper-reserve+speculate (Algorithm 1's slots beyond what a job can use now stay idle until its stragglers are detected; eq. 3.4: speculation \"should not be sacrificed even when the system is capacity constrained\") against srpt-besteffort. A best-effort copy waits for the next slot to free, about the mean task duration over the slots; Hopper's reservation can only win where that wait is long against the detection delay."}
	for _, load := range []float64{0.8, 1.2} {
		for _, slots := range []int{10, 50, 200} {
			t.rows = append(t.rows, reproRow{label: fmt.Sprintf("load %g, %d slots", load, slots), ref: math.NaN(),
				gain: r.pairs("synthetic", "srpt-besteffort", "hopper-reserve+speculate", func(a, b *reproRun) {
					a.load, b.load, a.slots, b.slots = load, load, slots, slots
				})})
		}
	}
	return t
}

// bestEffortMap is the table of where Hopper's allocation gains over SRPT
// with best-effort speculation (thesis §2.2: copies run "only when new
// slots become available"): the synthetic workload over load × slots, and
// over one β for every job.
func (r *reproducer) bestEffortMap() reproTable {
	t := reproTable{heading: "Where Hopper's allocation beats best-effort speculation (synthetic workload)",
		intro: "hopper (Algorithm 1 and the thesis's rule) against srpt-besteffort (SRPT, and a copy of a straggler whenever a slot is free), over offered load × slots with the default β groups, then with one β for every job at the report's load and slots; then against best effort at the lowest priority (srpt-conserving+idle: a copy runs only on a slot no job's unscheduled task wants, sim.IdleRule), over load × slots. The thesis does not state this comparison; its §2.2 example has Hopper ahead."}
	for _, load := range []float64{0.5, 0.8, 1.0, 1.2} {
		for _, slots := range []int{50, 200, 1000} {
			t.rows = append(t.rows, reproRow{label: fmt.Sprintf("load %g, %d slots", load, slots), ref: math.NaN(),
				gain: r.pairs("synthetic", "srpt-besteffort", "hopper", func(a, b *reproRun) {
					a.load, b.load, a.slots, b.slots = load, load, slots, slots
				})})
		}
	}
	for _, beta := range []float64{1.1, 1.4, 1.8} {
		t.rows = append(t.rows, reproRow{label: fmt.Sprintf("β = %g for every job", beta), ref: math.NaN(),
			gain: r.pairs("synthetic", "srpt-besteffort", "hopper", func(a, b *reproRun) { a.tail, b.tail = beta, beta })})
	}
	for _, load := range []float64{0.5, 0.8, 1.0, 1.2} {
		for _, slots := range []int{50, 200, 1000} {
			t.rows = append(t.rows, reproRow{label: fmt.Sprintf("copies at the lowest priority: load %g, %d slots", load, slots), ref: math.NaN(),
				gain: r.pairs("synthetic", "srpt-conserving+idle", "hopper", func(a, b *reproRun) {
					a.load, b.load, a.slots, b.slots = load, load, slots, slots
				})})
		}
	}
	return t
}

// describe names a workload and its cluster for a heading.
func (r *reproducer) describe(wl string) string {
	if wl == "synthetic" {
		return fmt.Sprintf("synthetic workload (%d jobs, %d slots)", r.f.jobs, r.f.slots)
	}
	if wk, err := r.workload(r.base(wl, "srpt", 1)); err == nil {
		tasks := 0
		for _, j := range wk.jobs {
			for _, p := range j.Phases {
				tasks += p.Tasks
			}
		}
		return fmt.Sprintf("%s (%d jobs, %d tasks, %d slots)", wl, len(wk.jobs), tasks, wk.slots)
	}
	return wl
}

// write plans the report, runs its simulations and writes it.
func (r *reproducer) write(w, stderr io.Writer) error {
	tables := r.tables()
	var runs []reproRun // each once, in the report's order
	seen := map[reproRun]bool{}
	jobs := 0
	for _, t := range tables {
		for _, row := range t.rows {
			for _, p := range slices.Concat(row.gain, row.slow) {
				for _, run := range p {
					if !seen[run] {
						seen[run] = true
						runs = append(runs, run)
						wk, err := r.workload(run)
						if err != nil {
							return fmt.Errorf("%s: %w", run.workload, err)
						}
						jobs += len(wk.jobs)
					}
				}
			}
		}
	}
	r.bar = runBar(stderr, r.f.quiet, 1, jobs)
	err := r.ensure(runs)
	r.bar.done()
	if err != nil {
		return err
	}
	f := r.f
	fmt.Fprintf(w, "# Reproducing the Hopper thesis's evaluation\n\n")
	fmt.Fprintf(w, "Generated by `specsim reproduce %s` (%d simulations). Estimates from %v progress; offered load %g; the synthetic workload is averaged over %d seeds",
		strings.Join(reproArgs(f), " "), len(runs), f.est, f.load, f.seeds)
	if f.swimDir != "" {
		fmt.Fprintf(w, ", the SWIM days over %d", f.swimSeeds)
	}
	fmt.Fprintf(w, ". A gain is the reduction of the mean job completion time against the baseline; ± is the half-width of the 95%% confidence interval over seeds (Student's t).\n\n")
	if f.swimDir != "" {
		fmt.Fprintf(w, swimNote, f.swimSeeds, f.seeds)
	}
	for _, t := range tables {
		fmt.Fprintf(w, "## %s\n\n%s\n\n", t.heading, t.intro)
		if err := r.writeTable(w, t); err != nil {
			return err
		}
		if t.plot != "" {
			if err := r.plotGains(filepath.Join(filepath.Dir(f.out), t.plot), t); err != nil {
				return err
			}
			fmt.Fprintf(w, "![%s](%s)\n\n", t.heading, t.plot)
		}
	}
	if err := r.writeOverlap(w); err != nil {
		return err
	}
	if err := r.writeSREWC(w); err != nil {
		return err
	}
	if err := r.writeEagle(w); err != nil {
		return err
	}
	_, err = io.WriteString(w, reproReading)
	return err
}

// swimNote is the report's paragraph on the SWIM days (with -swim): the
// file's command, the cluster they run on and their seeds (-swim-seeds,
// -seeds).
const swimNote = `DIR is the directory of the SWIM files (` + "`../shared/data/swim`" + ` beside the module): this file and its plots are rewritten by ` + "`go run ./cmd/specsim reproduce`" + ` with the flags above, from the module's root. The SWIM days do not run on Facebook's clusters (600 machines in 2009, 3 000 in 2010, 4 slots each): there a day offers 1–2%% of the slots' capacity, no task ever waits and every allocation gives the same times. Each day runs instead on the cluster at which its first copies' work over its span is the offered load (the slots are in each section's heading). The SWIM rows average over %d seed(s), the synthetic ones over %d: a day of FB-2010 is 11.4 M tasks, a hundred times a synthetic run; with one seed a SWIM row has no interval.

`

// reproReading closes the report: how the simulator's model bears on the
// thesis's claims, whatever the seeds.
const reproReading = `## Reading the tables

- **Same speculation on both sides.** The thesis's headline compares Hopper
  with SRPT when both run one speculation algorithm per job, so the gain is
  the allocation's alone. With the thesis's own rule (speculate) Hopper
  gains a little (0.5–8%; with Mantri's kill-and-restart variant it loses
  11.6% on FB-2010, not traced): SRPT caps a job at its unfinished tasks,
  and that rule's copies do not count in the demand, so under SRPT they run
  only in slots the job's own tasks leave. With S slots busy and mean task
  duration 1, a slot frees every 1/S on average — 1/200 of a task on the default
  cluster, far less than the time a straggler takes to be detected (0.1 of
  a new copy's duration, later under observed progress) — so a copy that
  may take the next free slot barely waits.
- **Which best effort.** The thesis's §2.2 has best-effort copies run "only
  when new slots become available", which reads two ways. As a task of its
  job: the scheduler hands a freed slot to the job first in its order, and
  that job runs a copy once its own tasks are all scheduled — as Spark's
  TaskSetManager ("find a speculative task if all others tasks have been
  scheduled") and Hadoop's schedulers do, and as srpt-besteffort and the
  LATE, GRASS, Dolly, Spark and Hadoop rules here ask their scheduler for
  slots for copies. SRPT's copies then take slots ahead of other jobs'
  unscheduled tasks, and Hopper's allocation adds nothing: with best
  effort, GRASS, Dolly and Hadoop's rule the two end within about 1% in
  every table, and with LATE's and Spark's rules Hopper is behind, by up to
  5.7% and 3.1% (FB-2010; we have not traced why). At the lowest
  priority — a copy only on a slot no job's unscheduled task wants
  (srpt-conserving+idle, sim.IdleRule) — SRPT's copies wait for slots to go
  idle, rarer the higher the load, and Hopper gains more the higher the load
  (the lowest-priority rows).
- **How much speculation is worth.** No allocation of copies gains more
  than speculation itself: Hopper's gain over SRPT without any copy (the
  estimator table). With exact or early estimates (oracle, progress)
  speculation nearly halves the mean completion time, and against best
  effort at the lowest priority Hopper gains 31–47%, near the thesis's
  ∼50%. With observed progress (copies that slow part-way, known only from
  their reports) speculation is worth about 10%, and every gain shrinks
  with it. The thesis's 50% reproduces here only where both hold: copies
  at the lowest priority, and stragglers known early.
- **Reserving is worse here.** Algorithm 1 gives a small job (2/β)·T slots;
  until its stragglers are detected it can use only T of them. The
  simulator lends the rest to other jobs (work conservation, eq. 3.4's
  second case); hopper-reserve keeps them idle (eq. 3.4's first case,
  "should not be sacrificed"). Keeping them idle costs more than the
  head start buys, even at 10 slots where slots turn over slowest; the
  thesis's example (Table 2.1) gains because all six of its slots stay busy
  until time 3, a synchronised wave that Poisson arrivals and heavy-tailed
  durations do not produce.
- **ε barely matters.** On the default cluster (load 0.8, 200 slots) about
  21 jobs arrive per unit time and each stays about 1.9 (Little's law: some
  40 active jobs), so the fair share S/N is about 5 slots, more than most
  jobs can use (4091 of the default 5000 jobs have 1–5 tasks). The share a
  job cannot use goes to the others in Algorithm 1's order (work
  conservation), so the ε-fair allocation behaves as Algorithm 1 at any ε
  (specsim at ε = 0 and ε = 1 differs by 0.5% in the mean, at load 0.8 and
  at 1.2). The jobs slowed against fair+speculate are those any SRPT-like
  order slows; the thesis's clusters must have run fewer concurrent jobs
  per slot, or larger ones.
- **Against Fair** the gain is what Hopper's SRPT-like order gains over
  max-min sharing when both speculate alike, not the thesis's >70%.
- **Heterogeneous β.** Here Algorithm 4 loses to Hopper with the single
  β = 1.2 (the table), by far on the Facebook days. Algorithm 4 maximises
  throughput (Theorem 3), and its water level serves the classes from the
  heaviest tail: while the jobs of the smallest β can absorb the slots, the
  jobs of the other classes get none, whatever their size. On a cluster
  sized for load 0.8, a Facebook day's β = 1.1 group holds jobs of
  thousands of tasks, and the small jobs of the other groups wait behind
  them (specsim -swim FB-2009 -slots 34: hopper-hetero's 1–5-task jobs end
  17 times later than SRPT's). On the synthetic workload, a reading we have
  not verified: β = 1.2 gives every job more room for copies, 2/1.2 = 1.67 T
  slots, than the groups' β = 1.4 and 1.8 do.

Nothing in these tables was tuned to match the thesis: the workloads are
sim.DefaultWorkload and the SWIM days as documented, and the parameters are
the defaults of sim.DefaultConfig.
`

// writeOverlap writes the synthetic experiment of the overlapping-phases
// paper (§5, overlap.RunExperiment) at the loads of §5.3: each policy's
// mean response time relative to the §5.1 lower bound (the paper's
// "relative E[T]"), over -seeds seeds.
func (r *reproducer) writeOverlap(w io.Writer) error {
	fmt.Fprintf(w, "## Overlapping map and shuffle phases (Lin et al. §5)\n\n")
	fmt.Fprintf(w, "The paper gives its results as figures (§5.2–5.3; not in the text copy): k-LPS (Hadoop's Fair Scheduler) far behind, MaxSRPT and SplitSRPT \"not far from the lower bound\", SplitSRPT ahead of MaxSRPT at high load on the unbalanced sizes. Relative E[T] (mean response time over the §5.1 lower bound), %d jobs per run (the paper runs 5×10⁷), mean ± 95%% CI over %d seeds.\n\n", r.f.overlapJobs, r.f.seeds)
	fmt.Fprintln(w, "| load | k-LPS | MaxSRPT | SplitSRPT |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	var ws overlap.Workspace
	for _, load := range []float64{0.75, 0.9} {
		var klps, maxs, split []float64
		for s := 1; s <= r.f.seeds; s++ {
			res, err := overlap.RunExperiment(overlap.ExperimentConfig{Load: load, Jobs: r.f.overlapJobs, Seed: uint64(s)}, &ws)
			if err != nil {
				return err
			}
			klps, maxs, split = append(klps, res.KLPS/res.LowerBound), append(maxs, res.MaxSRPT/res.LowerBound), append(split, res.SplitSRPT/res.LowerBound)
		}
		fmt.Fprintf(w, "| %g | %s | %s | %s |\n", load, ratioCI(klps), ratioCI(maxs), ratioCI(split))
	}
	fmt.Fprintln(w)
	return nil
}

// ratioCI formats a mean ± 95% half-width of ratios.
func ratioCI(x []float64) string {
	m, h := meanCI(x)
	if math.IsNaN(h) {
		return fmt.Sprintf("%.3f", m)
	}
	return fmt.Sprintf("%.3f ± %.3f", m, h)
}

// plotGains draws a table's gains as bars with their 95% confidence
// intervals, beside the paper's value as a dashed line, to file (SVG).
func (r *reproducer) plotGains(file string, t reproTable) error {
	p := plot.New()
	_, workload, _ := strings.Cut(t.heading, ": ")
	p.Title.Text = "Hopper's gain over SRPT, both with the same speculation: " + workload
	p.Y.Label.Text = "reduction of the mean completion time (%)"
	var bars gainBars
	var names []string
	for i, row := range t.rows {
		gains, err := r.gains(row.gain)
		if err != nil {
			return err
		}
		m, h := meanCI(gains)
		if math.IsNaN(h) {
			h = 0
		}
		bars = append(bars, gainBar{x: float64(i), y: 100 * m, err: 100 * h})
		names = append(names, row.short)
	}
	values := make(plotter.Values, len(bars))
	for i, b := range bars {
		values[i] = b.y
	}
	chart, err := plotter.NewBarChart(values, vg.Points(24))
	if err != nil {
		return err
	}
	chart.Color = plotColors[0]
	errs, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return err
	}
	paper := plotter.NewFunction(func(float64) float64 { return 100 * t.rows[0].ref })
	paper.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(chart, errs, paper, plotter.NewGrid())
	p.Legend.Add("paper", paper)
	p.Legend.Top = true
	p.NominalX(names...)
	p.Y.Min = math.Min(0, p.Y.Min)
	p.Y.Max = math.Max(p.Y.Max, 100*t.rows[0].ref+5)
	return p.Save(8*vg.Inch, 4*vg.Inch, file)
}

// gainBars are bars with error bars (plotter.XYer and YErrorer).
type gainBars []gainBar

type gainBar struct{ x, y, err float64 }

func (g gainBars) Len() int                        { return len(g) }
func (g gainBars) XY(i int) (float64, float64)     { return g[i].x, g[i].y }
func (g gainBars) YError(i int) (float64, float64) { return g[i].err, g[i].err }

// writeTable writes one section's table.
func (r *reproducer) writeTable(w io.Writer, t reproTable) error {
	if t.eps {
		fmt.Fprintln(w, "| ε | gain over SRPT | jobs slowed vs Fair | their mean slowdown | worst slowdown |")
		fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	} else {
		fmt.Fprintln(w, "| comparison | paper | ours (mean ± 95% CI) | ours / paper |")
		fmt.Fprintln(w, "| --- | --- | --- | --- |")
	}
	for _, row := range t.rows {
		gains, err := r.gains(row.gain)
		if err != nil {
			return err
		}
		if !t.eps {
			m, _ := meanCI(gains)
			ratio := "—"
			if !math.IsNaN(row.ref) && row.ref != 0 {
				ratio = fmt.Sprintf("%.2f", m/row.ref)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", row.label, cmp.Or(row.paper, "—"), pctCI(gains), ratio)
			continue
		}
		var slowed, mean, worst []float64
		for _, p := range row.slow {
			sd, err := sim.Slowdowns(r.result(p[0]), r.result(p[1]))
			if err != nil {
				return err
			}
			slowed, mean, worst = append(slowed, sd.Fraction), append(mean, sd.Mean), append(worst, sd.Worst)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", row.label, pctCI(gains), pctCI(slowed), pctCI(mean), pctCI(worst))
	}
	fmt.Fprintln(w)
	return nil
}

// gains is sim.Gain of each pair's policy over its baseline.
func (r *reproducer) gains(pairs [][2]reproRun) ([]float64, error) {
	var out []float64
	for _, p := range pairs {
		g, err := sim.Gain(r.result(p[0]), r.result(p[1]))
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// meanCI is the mean of x and the half-width of its 95% confidence
// interval, t_{0.975, n−1}·s/√n (NaN for n < 2).
func meanCI(x []float64) (mean, half float64) {
	mean = stat.Mean(x, nil)
	if len(x) < 2 {
		return mean, math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(x) - 1)}.Quantile(0.975)
	return mean, t * stat.StdDev(x, nil) / math.Sqrt(float64(len(x)))
}

// pctCI formats a mean ± 95% half-width in percent.
func pctCI(x []float64) string {
	m, h := meanCI(x)
	if math.IsNaN(h) {
		return fmt.Sprintf("%.1f%%", 100*m)
	}
	return fmt.Sprintf("%.1f%% ± %.1f", 100*m, 100*h)
}

// reproArgs are the flags that reproduce the report, as given.
func reproArgs(f *reproFlags) []string {
	args := []string{fmt.Sprintf("-seeds %d", f.seeds), fmt.Sprintf("-jobs %d", f.jobs), fmt.Sprintf("-slots %d", f.slots), fmt.Sprintf("-overlap-jobs %d", f.overlapJobs),
		fmt.Sprintf("-load %g", f.load), "-estimator " + f.estimator}
	if f.swimDir != "" {
		args = append(args, "-swim DIR", fmt.Sprintf("-swim-seeds %d", f.swimSeeds))
	}
	return args
}
