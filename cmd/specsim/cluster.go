package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/specsched/specsched/sim"
	"github.com/specsched/specsched/stragglers"
)

// Defaults of the cluster command: the workload `specsim` runs with no
// arguments (see sim.DefaultWorkload).
const (
	defaultSlots = 200
	defaultJobs  = 5000
	defaultLoad  = 0.8
	defaultBetas = "1.1,1.4,1.8"
)

const clusterSummary = `Simulates a cluster of slots under several allocation policies and prints,
per policy, the mean and 50/90/99th percentile job completion time, the gain
(reduction of the mean) over SRPT and over Fair, the jobs slowed down against
Fair (fraction, average and worst slow-down), the utilisation, the
speculative copies started and the share of slot-time spent on killed copies,
then the gain over SRPT by job size. Times are in units of the mean task
duration (for a trace, in the trace's unit).

The workload is sim.DefaultWorkload (Poisson arrivals at the offered load,
power-law tasks per job, Pareto task durations with one tail index β per job
group, chains of up to three phases) unless -trace names a CSV trace (one row
per task: job,arrival,phase,duration[,group][,beta][,start]; see
sim.ParseTrace) or -swim a day of Facebook jobs in SWIM's format (tasks per
block of data, durations in seconds from the bytes; see sim.SwimJobs).`

// clusterResult is one policy's row, as printed and as -json writes it.
type clusterResult struct {
	Policy string `json:"policy"`
	timeStats
	GainSRPT      float64  `json:"gain_over_srpt"`
	GainFair      float64  `json:"gain_over_fair"`
	SlowedFrac    float64  `json:"slowed_vs_fair"`
	SlowdownMean  float64  `json:"slowdown_mean"`
	SlowdownWorst float64  `json:"slowdown_worst"`
	Utilisation   float64  `json:"utilisation"`
	Copies        int      `json:"copies"`
	Killed        int      `json:"killed"`
	Wasted        float64  `json:"wasted_slot_time"`
	WastedFrac    float64  `json:"wasted_fraction"`
	Bins          []binOut `json:"gain_over_srpt_by_size"`

	result *sim.Result
}

type binOut struct {
	Lo   int      `json:"min_tasks"`
	Hi   *int     `json:"max_tasks"` // null for the last, open bin
	Jobs int      `json:"jobs"`
	Gain *float64 `json:"gain"` // null for an empty bin
}

// clusterFlags are the cluster command's flags.
type clusterFlags struct {
	fs                           *flag.FlagSet
	set                          map[string]bool // the flags given
	policies, betas, trace, rule *string
	estimator, service, plotFile *string
	slots, jobs                  *int
	load, detect, heartbeat      *float64
	onsetAlpha, onsetBeta        *float64
	cv, eps, budget              *float64
	seed                         *uint64
	jsonOut, quiet               *bool
	specs                        []policySpec // -policies, parsed
	named                        bool         // -policies names the policies (not all)
	spec                         sim.Speculation
	svc                          sim.Service
	swim                         swimFlags
}

func runCluster(args []string, stdout, stderr io.Writer) error {
	f, err := parseClusterFlags(args, stderr)
	if err != nil {
		return err
	}
	var plotOut *plotOutput
	if *f.plotFile != "" {
		if plotOut, err = openPlot(*f.plotFile); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	err = f.simulate(plotOut, stdout, stderr)
	if plotOut != nil {
		plotOut.discard() // after a failure before the plot was written
	}
	return err
}

// simulate runs the cluster command once its flags are parsed and the
// -plot file (nil: none) is open; plotCDF closes the file when it has
// written the plot.
func (f *clusterFlags) simulate(plotOut *plotOutput, stdout, stderr io.Writer) error {
	workload, describe, err := f.workload()
	if err != nil {
		return err
	}
	specs := f.specs
	if !f.named {
		specs = runnable(specs, *f.slots, stderr)
	}
	// SRPT and Fair are the baselines of the gains: run them even if not asked.
	shown := specs
	specs = withBaselines(specs)
	cfgs, err := f.configs(specs)
	if err != nil {
		return err
	}
	bar := runBar(stderr, *f.quiet, len(specs), len(workload))
	results, err := runAll(workload, specs, cfgs, bar)
	bar.done()
	if err != nil {
		return err
	}
	rows, err := compare(specs, results)
	if err != nil {
		return err
	}
	rows = only(rows, shown)
	if plotOut != nil {
		if err := plotCDF(plotOut, rows, f.timeAxis()); err != nil {
			return fmt.Errorf("-plot %s: %w", *f.plotFile, err)
		}
	}
	if *f.jsonOut {
		return writeJSON(stdout, rows)
	}
	f.writeHeader(stdout, workload, describe)
	writeTable(stdout, rows)
	return nil
}

// parseClusterFlags parses and checks the cluster command's flags. The
// ranges of the simulator's parameters are sim.Config's (Config.Validate),
// its errors reported by run against the flag that set the field.
func parseClusterFlags(args []string, stderr io.Writer) (*clusterFlags, error) {
	fs := newFlags("cluster", clusterSummary, stderr)
	f := &clusterFlags{fs: fs, set: map[string]bool{}}
	f.policies = fs.String("policies", "all", "comma-separated policies: presets ("+policyList()+
		"), combinations allocator+rule of an allocator ("+strings.Join(sim.AllocatorNames(), ", ")+
		") and an in-job rule ("+strings.Join(sim.RuleNames(), ", ")+"), or all (the presets)")
	f.slots = fs.Int("slots", defaultSlots, "slots in the cluster")
	f.load = fs.Float64("load", defaultLoad, "offered load of the synthetic workload, in (0, 10]: the first copies' work arriving per unit time over the slots (speculative copies come on top: see util)")
	f.jobs = fs.Int("jobs", defaultJobs, "jobs in the synthetic workload")
	f.betas = fs.String("beta", defaultBetas, "comma-separated Pareto tail index β of each job group (equal shares of the jobs)")
	f.seed = fs.Uint64("seed", 1, "seed of the workload and of every random draw")
	f.trace = fs.String("trace", "", "run the jobs of this CSV trace instead of a synthetic workload")
	f.rule = fs.String("rule", "thesis", "in-job straggler rule: thesis (t_rem > t_new) or mantri")
	f.estimator = fs.String("estimator", "progress", "how t_rem is estimated: progress (the true remaining time × a log-normal error), oracle (exact) or observed (LATE's estimate from the progress copies report every -heartbeat·t_new, copies slowing part-way)")
	f.heartbeat = fs.Float64("heartbeat", sim.DefaultHeartbeat, "under -estimator observed, the interval between a copy's progress reports, as a fraction of t_new")
	f.onsetAlpha = fs.Float64("onset-alpha", 0, "under -estimator observed, α of the Beta(α, β) law of where a copy slows down (the fraction of its work done first); 0 with -onset-beta 0 is uniform, else α, β in [0.25, 10] (α < β: early, α > β: late)")
	f.onsetBeta = fs.Float64("onset-beta", 0, "under -estimator observed, β of the Beta(α, β) law of where a copy slows down (see -onset-alpha)")
	f.detect = fs.Float64("detect", sim.DefaultDetect, "how long a task runs before it can be judged a straggler, as a fraction of t_new")
	f.service = fs.String("service", "copy", "copy durations: copy (each copy draws its own) or machine (a task's work on machines of random speed)")
	f.cv = fs.Float64("cv", 0.5, "coefficient of variation of a machine's slowdown, in (0, 100], for -service machine (checked even without it)")
	f.eps = fs.Float64("eps", sim.DefaultEps, "ε of hopper-eps, a fraction of the fair share")
	f.budget = fs.Float64("budget", sim.DefaultBudgetFraction, "share of the slots the budgeted policies reserve for copies (at least one slot if > 0, at most all slots but one)")
	f.jsonOut = jsonFlag(fs, "policy")
	f.plotFile = fs.String("plot", "", "draw the CDFs of job completion time to this .svg or .png file")
	f.quiet = fs.Bool("q", false, "no progress bar")
	f.swim.define(fs)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if err := f.swim.check(fs, f.set, f.slots); err != nil {
		return nil, err
	}

	var err error
	if f.specs, err = parsePolicies(*f.policies); err != nil {
		return nil, usageError(fs, "-policies: %v", err)
	}
	f.named = strings.TrimSpace(*f.policies) != "all"
	// -jobs ≥ 1 and -budget, a share, are the command's own bounds.
	if *f.jobs < 1 || *f.jobs > sim.MaxSynthJobs {
		return nil, usageError(fs, "-jobs %d: must lie in [1, %d]", *f.jobs, sim.MaxSynthJobs)
	}
	if !(*f.budget >= 0 && *f.budget < 1) {
		return nil, usageError(fs, "-budget %g: must lie in [0, 1)", *f.budget)
	}
	f.spec = sim.DefaultSpeculation()
	r, err := stragglers.ParseRule(*f.rule)
	if err != nil {
		return nil, usageError(fs, "-rule %q: want thesis or mantri", *f.rule)
	}
	f.spec.Mantri = r == stragglers.MantriRule
	if f.spec.Estimator, err = sim.ParseEstimator(*f.estimator); err != nil {
		return nil, usageError(fs, "-estimator %q: want progress, oracle or observed", *f.estimator)
	}
	f.spec.Detect = *f.detect
	f.spec.Heartbeat = *f.heartbeat
	f.spec.Onset = sim.Onset{Alpha: *f.onsetAlpha, Beta: *f.onsetBeta}
	switch *f.service {
	case "copy":
	case "machine":
		f.svc = sim.MachineService
	default:
		return nil, usageError(fs, "-service %q: want copy or machine", *f.service)
	}
	if *f.plotFile != "" && plotFormat(*f.plotFile) == "" {
		return nil, usageError(fs, "-plot %q: the file must end in .svg or .png", *f.plotFile)
	}
	// A value sim.Config rejects is reported against its flag (see
	// configFlags), before the workload is drawn. It is checked as for
	// -service machine, so that a bad -cv is reported even when the copy
	// service, which ignores it, runs.
	cfg := f.config(sim.SRPT)
	cfg.Service = sim.MachineService
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// config is the configuration the flags give preset p.
func (f *clusterFlags) config(p sim.Preset) sim.Config {
	cfg := sim.DefaultConfig(p, *f.slots)
	cfg.Seed = *f.seed
	cfg.Eps = *f.eps
	cfg.Speculation = f.spec
	cfg.Service, cfg.ServiceCV = f.svc, *f.cv
	cfg.Budget = budgetSlots(*f.budget, *f.slots)
	return cfg
}

// configs returns the configuration of every policy, each with its own
// allocator and rule values (they keep scratch memory, and the runs are
// concurrent).
func (f *clusterFlags) configs(specs []policySpec) ([]sim.Config, error) {
	cfgs := make([]sim.Config, len(specs))
	for i, s := range specs {
		if !canRun(s, *f.slots) {
			return nil, usageError(f.fs, "-policies: %v needs at least 2 slots", s.name)
		}
		cfgs[i] = f.config(s.preset)
		if s.alloc == "" {
			continue
		}
		var err error
		if cfgs[i].Allocator, err = sim.NewAllocator(s.alloc); err != nil {
			return nil, err
		}
		if cfgs[i].Rule, err = sim.NewRule(s.rule); err != nil {
			return nil, err
		}
	}
	return cfgs, nil
}

// workload returns the jobs to run — the trace's, or the synthetic
// workload's — and their description for the header.
func (f *clusterFlags) workload() ([]sim.Job, string, error) {
	if *f.swim.file != "" {
		groups, err := parseGroups(*f.betas)
		if err != nil {
			return nil, "", usageError(f.fs, "-beta %q: %v", *f.betas, err)
		}
		return f.swim.workload(groups, *f.seed)
	}
	if *f.trace != "" {
		for _, name := range []string{"jobs", "load", "beta"} {
			if f.set[name] {
				return nil, "", usageError(f.fs, "-%s describes the synthetic workload and cannot be combined with -trace", name)
			}
		}
		jobs, err := readTrace(*f.trace)
		return jobs, fmt.Sprintf("trace %s", *f.trace), err
	}
	c := sim.DefaultWorkload(*f.jobs, *f.slots, *f.load)
	var err error
	if c.Groups, err = parseGroups(*f.betas); err != nil {
		return nil, "", usageError(f.fs, "-beta %q: %v", *f.betas, err)
	}
	// A value sim.SynthConfig rejects (-load 11) is reported against its
	// flag by run (see configFlags).
	jobs, err := sim.Synthesize(c, rand.New(rand.NewPCG(*f.seed, 0x5eed)))
	return jobs, fmt.Sprintf("synthetic workload, offered load %g, β %s", *f.load, *f.betas), err
}

// writeHeader prints the two lines above the table: the workload and the
// speculation.
func (f *clusterFlags) writeHeader(w io.Writer, workload []sim.Job, describe string) {
	tasks := 0
	for _, j := range workload {
		for _, p := range j.Phases {
			tasks += p.Tasks
		}
	}
	fmt.Fprintf(w, "%d jobs, %d tasks on %d slots (%s; seed %d)\n", len(workload), tasks, *f.slots, describe, *f.seed)
	service := ""
	if f.svc == sim.MachineService {
		service = fmt.Sprintf("; machine service variability, CV %g", *f.cv)
	}
	estimates := f.spec.Estimator.String() + " estimates"
	if f.spec.Estimator == sim.Observed {
		beat := *f.heartbeat
		if beat == 0 {
			beat = sim.DefaultHeartbeat // what 0 means
		}
		onset := "part-way"
		if o := f.spec.Onset; o != (sim.Onset{}) {
			onset = fmt.Sprintf("part-way, onset Beta(%g, %g)", o.Alpha, o.Beta)
		}
		estimates = fmt.Sprintf("observed progress (reports every %g·t_new, copies slowing %s)", beat, onset)
	}
	fmt.Fprintf(w, "speculation: %s rule, %s, judged after %g·t_new%s; times in %s\n\n",
		*f.rule, estimates, f.spec.Detect, service, f.timeUnit())
}

// timeUnit names the unit of the times printed: the synthetic workload's
// mean task duration is 1 (sim.DefaultWorkload), a trace's times are in the
// trace's own unit.
func (f *clusterFlags) timeUnit() string {
	if *f.swim.file != "" {
		return "seconds"
	}
	if *f.trace != "" {
		return "the trace's time unit"
	}
	return "units of the mean task duration"
}

// timeAxis is the label of the plot's time axis (see timeUnit).
func (f *clusterFlags) timeAxis() string {
	if *f.swim.file == "" && *f.trace == "" {
		return "completion time (mean task durations)"
	}
	return "completion time (" + f.timeUnit() + ")"
}

// A policySpec is a policy of -policies: a preset of package sim, or a
// combination allocator+rule. A combination that is a preset is the preset.
type policySpec struct {
	name        string     // as shown: the preset's name, or "allocator+rule"
	preset      sim.Preset // the preset; for a combination, the label of its results
	alloc, rule string     // a combination's parts, "" for a preset
}

// canRun reports whether policy s can run on a cluster of slots slots:
// budgeted speculation reserves at least one slot for copies and runs tasks
// on the others, so it needs two.
func canRun(s policySpec, slots int) bool {
	_, rule := s.preset.Parts()
	if s.alloc != "" {
		rule = s.rule
	}
	return slots >= 2 || rule != "budgeted"
}

// runnable returns the policies of the default set that can run on slots
// slots, and notes on stderr those it leaves out: the default run works on
// any valid cluster, while a policy named by -policies that cannot run is an
// error.
func runnable(specs []policySpec, slots int, stderr io.Writer) []policySpec {
	var out []policySpec
	var left []string
	for _, s := range specs {
		if canRun(s, slots) {
			out = append(out, s)
		} else {
			left = append(left, s.name)
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(stderr, "specsim: note: %s left out: %d slot(s), budgeted speculation needs at least 2\n", strings.Join(left, ", "), slots)
	}
	return out
}

// budgetSlots is the budget pool of a cluster of slots slots for a share
// fraction ∈ [0, 1) of them: the nearest integer, at least 1 for a positive
// share, and at most slots − 1 (the pool never takes every slot).
func budgetSlots(fraction float64, slots int) int {
	b := int(math.Round(fraction * float64(slots)))
	if b < 1 && fraction > 0 {
		b = 1
	}
	return max(0, min(b, slots-1))
}

func policyList() string {
	var names []string
	for _, p := range sim.Policies() {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

// parsePolicies parses -policies: "all" (every preset), or a
// comma-separated list of presets (sim.ParsePolicy) and combinations
// allocator+rule (sim.NewAllocator, sim.NewRule), repeats dropped.
func parsePolicies(s string) ([]policySpec, error) {
	if strings.TrimSpace(s) == "all" {
		var specs []policySpec
		for _, p := range sim.Policies() {
			specs = append(specs, presetSpec(p))
		}
		return specs, nil
	}
	var specs []policySpec
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		spec, err := parsePolicy(name)
		if err != nil {
			return nil, err
		}
		if !seen[spec.name] {
			seen[spec.name] = true
			specs = append(specs, spec)
		}
	}
	return specs, nil
}

func presetSpec(p sim.Preset) policySpec { return policySpec{name: p.String(), preset: p} }

// parsePolicy parses one policy of -policies.
func parsePolicy(name string) (policySpec, error) {
	a, r, combined := strings.Cut(strings.ToLower(strings.TrimSpace(name)), "+")
	if !combined {
		p, err := sim.ParsePolicy(name)
		return presetSpec(p), err
	}
	a, r = strings.TrimSpace(a), strings.TrimSpace(r)
	if _, err := sim.NewAllocator(a); err != nil {
		return policySpec{}, err
	}
	if _, err := sim.NewRule(r); err != nil {
		return policySpec{}, err
	}
	for _, p := range sim.Policies() {
		if pa, pr := p.Parts(); pa == a && pr == r {
			return presetSpec(p), nil
		}
	}
	return policySpec{name: a + "+" + r, preset: sim.SRPT, alloc: a, rule: r}, nil
}

// withBaselines appends SRPT and Fair to specs unless they are in it.
func withBaselines(specs []policySpec) []policySpec {
	out := append([]policySpec(nil), specs...)
	for _, base := range []sim.Preset{sim.SRPT, sim.Fair} {
		if !slices.ContainsFunc(specs, func(s policySpec) bool { return s.name == base.String() }) {
			out = append(out, presetSpec(base))
		}
	}
	return out
}

// only returns the rows of the policies specs, in their order.
func only(rows []clusterResult, specs []policySpec) []clusterResult {
	var out []clusterResult
	for _, s := range specs {
		for _, r := range rows {
			if r.Policy == s.name {
				out = append(out, r)
			}
		}
	}
	return out
}

func parseGroups(s string) ([]sim.Group, error) {
	var gs []sim.Group
	for _, f := range strings.Split(s, ",") {
		b, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(b > 1 && b <= 1e6) {
			return nil, fmt.Errorf("%q is not a tail index in (1, 1e6]", f)
		}
		gs = append(gs, sim.Group{Beta: b, Weight: 1})
	}
	return gs, nil
}

func readTrace(name string) ([]sim.Job, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	jobs, err := sim.ParseTrace(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs", name)
	}
	return jobs, nil
}

// runBar is the progress bar of runs simulations of jobs jobs each: drawn
// on stderr when it is a terminal, unless quiet (-q); one step per job
// completion of every run (runAll).
func runBar(stderr io.Writer, quiet bool, runs, jobs int) *progress {
	return newProgress(stderr, !quiet && isTerminal(stderr), runs*jobs)
}

// runAll simulates every configuration on the jobs, up to GOMAXPROCS at a
// time. Each run is a pure function of its inputs, so the results do not
// depend on the scheduling of the goroutines.
//
// The runs start in runOrder, the ones that copy tasks first: they cost
// two to three times those that do not (Fair and SRPT alone), so the
// cheap runs fill the workers' last gaps instead of leaving one worker a
// long run at the end (longest first; on a day of FB-2010 the plain runs
// are the cheapest).
func runAll(jobs []sim.Job, specs []policySpec, cfgs []sim.Config, bar *progress) ([]*sim.Result, error) {
	results := make([]*sim.Result, len(cfgs))
	errs := make([]error, len(cfgs))
	next := make(chan int, len(cfgs))
	for _, i := range runOrder(specs) {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(cfgs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cfg := cfgs[i]
				cfg.Progress = func(int, int) { bar.add(1) }
				results[i], errs[i] = sim.Simulate(jobs, cfg)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", specs[i].name, err)
		}
	}
	return results, nil
}

// runOrder is the order in which runAll starts the runs of specs: those
// whose in-job rule copies tasks, then those that only launch them (a
// stable partition).
func runOrder(specs []policySpec) []int {
	order := make([]int, 0, len(specs))
	for pass := range 2 {
		for i, s := range specs {
			rule := s.rule
			if s.alloc == "" {
				_, rule = s.preset.Parts()
			}
			if (rule == "launch") == (pass == 1) {
				order = append(order, i)
			}
		}
	}
	return order
}

// compare summarises every result against the SRPT and Fair runs.
func compare(specs []policySpec, results []*sim.Result) ([]clusterResult, error) {
	var srpt, fair *sim.Result
	for i, s := range specs {
		switch s.name {
		case sim.SRPT.String():
			srpt = results[i]
		case sim.Fair.String():
			fair = results[i]
		}
	}
	rows := make([]clusterResult, len(specs))
	for i, r := range results {
		s := sim.Summarize(r)
		row := clusterResult{
			Policy: specs[i].name, timeStats: s.Summary,
			Utilisation: s.Utilisation, Copies: s.Copies, Killed: s.Killed, Wasted: s.Wasted, WastedFrac: s.WastedFraction,
			result: r,
		}
		var err error
		if row.GainSRPT, err = sim.Gain(srpt, r); err != nil {
			return nil, err
		}
		if row.GainFair, err = sim.Gain(fair, r); err != nil {
			return nil, err
		}
		sd, err := sim.Slowdowns(fair, r)
		if err != nil {
			return nil, err
		}
		row.SlowedFrac, row.SlowdownMean, row.SlowdownWorst = sd.Fraction, sd.Mean, sd.Worst
		bins, err := sim.BinGains(nil, srpt, r, sim.DefaultBins)
		if err != nil {
			return nil, err
		}
		for _, b := range bins {
			out := binOut{Lo: b.Lo, Jobs: b.Jobs}
			if b.Hi != math.MaxInt {
				hi := b.Hi
				out.Hi = &hi
			}
			if !math.IsNaN(b.Gain) {
				g := b.Gain
				out.Gain = &g
			}
			row.Bins = append(row.Bins, out)
		}
		rows[i] = row
	}
	return rows, nil
}
