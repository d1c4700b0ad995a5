package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
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
sim.ParseTrace).`

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

func runCluster(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cluster", clusterSummary, stderr)
	policies := fs.String("policies", "all", "comma-separated policies ("+policyList()+"), or all")
	slots := fs.Int("slots", defaultSlots, "slots in the cluster")
	load := fs.Float64("load", defaultLoad, "offered load of the synthetic workload, in (0, 10]")
	jobs := fs.Int("jobs", defaultJobs, "jobs in the synthetic workload")
	betas := fs.String("beta", defaultBetas, "comma-separated Pareto tail index β of each job group (equal shares of the jobs)")
	seed := fs.Uint64("seed", 1, "seed of the workload and of every random draw")
	trace := fs.String("trace", "", "run the jobs of this CSV trace instead of a synthetic workload")
	rule := fs.String("rule", "thesis", "in-job straggler rule: thesis (t_rem > t_new) or mantri")
	estimator := fs.String("estimator", "progress", "how t_rem is estimated: progress or oracle")
	detect := fs.Float64("detect", sim.DefaultDetect, "how long a task runs before it can be judged a straggler, as a fraction of t_new")
	serviceFlag := fs.String("service", "copy", "copy durations: copy (each copy draws its own) or machine (a task's work on machines of random speed)")
	cv := fs.Float64("cv", 0.5, "coefficient of variation of a machine's slowdown, for -service machine")
	eps := fs.Float64("eps", sim.DefaultEps, "ε of hopper-eps, a fraction of the fair share")
	budget := fs.Float64("budget", sim.DefaultBudgetFraction, "share of the slots the budgeted policies reserve for copies (at least 1 if > 0, at most all but 1)")
	jsonOut := fs.Bool("json", false, "write the results as JSON, one object per policy")
	plotFile := fs.String("plot", "", "draw the CDFs of job completion time to this .svg or .png file")
	quiet := fs.Bool("q", false, "no progress bar")
	if err := parse(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	ps, err := parsePolicies(*policies)
	if err != nil {
		return usageError(fs, "-policies: %v", err)
	}
	named := strings.TrimSpace(*policies) != "all"
	if *jobs < 1 || *jobs > sim.MaxSynthJobs {
		return usageError(fs, "-jobs %d: must lie in [1, %d]", *jobs, sim.MaxSynthJobs)
	}
	if *slots < 1 || *slots > sim.MaxSlots {
		return usageError(fs, "-slots %d: must lie in [1, %d]", *slots, sim.MaxSlots)
	}
	if !(*budget >= 0 && *budget < 1) {
		return usageError(fs, "-budget %g: must lie in [0, 1)", *budget)
	}
	if !(*eps >= 0 && *eps <= 1) {
		return usageError(fs, "-eps %g: must lie in [0, 1]", *eps)
	}
	spec := sim.DefaultSpeculation()
	r, err := stragglers.ParseRule(*rule)
	if err != nil {
		return usageError(fs, "-rule %q: want thesis or mantri", *rule)
	}
	spec.Mantri = r == stragglers.MantriRule
	if spec.Estimator, err = sim.ParseEstimator(*estimator); err != nil {
		return usageError(fs, "-estimator %q: want progress or oracle", *estimator)
	}
	if !(*detect >= 0 && *detect <= 1e6) {
		return usageError(fs, "-detect %g: must lie in [0, 1e6]", *detect)
	}
	spec.Detect = *detect
	var svc sim.Service
	switch *serviceFlag {
	case "copy":
	case "machine":
		svc = sim.MachineService
		if !(*cv > 0 && *cv <= 100) {
			return usageError(fs, "-cv %g: must lie in (0, 100]", *cv)
		}
	default:
		return usageError(fs, "-service %q: want copy or machine", *serviceFlag)
	}
	if *plotFile != "" && !strings.HasSuffix(*plotFile, ".svg") && !strings.HasSuffix(*plotFile, ".png") {
		return usageError(fs, "-plot %q: the file must end in .svg or .png", *plotFile)
	}

	var workload []sim.Job
	var describe string
	if *trace != "" {
		for _, f := range []string{"jobs", "load", "beta"} {
			if set[f] {
				return usageError(fs, "-%s describes the synthetic workload and cannot be combined with -trace", f)
			}
		}
		if workload, err = readTrace(*trace); err != nil {
			return err
		}
		describe = fmt.Sprintf("trace %s", *trace)
	} else {
		c := sim.DefaultWorkload(*jobs, *slots, *load)
		if c.Groups, err = parseGroups(*betas); err != nil {
			return usageError(fs, "-beta %q: %v", *betas, err)
		}
		if workload, err = sim.Synthesize(c, rand.New(rand.NewPCG(*seed, 0x5eed))); err != nil {
			return err
		}
		describe = fmt.Sprintf("synthetic workload, offered load %g, β %s", *load, *betas)
	}
	tasks := 0
	for _, j := range workload {
		for _, p := range j.Phases {
			tasks += p.Tasks
		}
	}

	if !named {
		ps = runnable(ps, *slots, stderr)
	}
	// SRPT and Fair are the baselines of the gains: run them even if not asked.
	shown := ps
	ps = withBaselines(ps)
	cfgs := make([]sim.Config, len(ps))
	for i, p := range ps {
		cfg := sim.DefaultConfig(p, *slots)
		cfg.Seed = *seed
		cfg.Eps = *eps
		cfg.Speculation = spec
		cfg.Service, cfg.ServiceCV = svc, *cv
		cfg.Budget = budgetSlots(*budget, *slots)
		if !canRun(p, *slots) {
			return usageError(fs, "-policies: %v needs at least 2 slots", p)
		}
		cfgs[i] = cfg
	}
	bar := newProgress(stderr, !*quiet && isTerminal(stderr), len(ps)*len(workload))
	results, err := runAll(workload, cfgs, bar)
	bar.done()
	if err != nil {
		return err
	}
	rows, err := compare(ps, results)
	if err != nil {
		return err
	}
	rows = only(rows, shown)
	if *plotFile != "" {
		if err := plotCDF(*plotFile, rows); err != nil {
			return fmt.Errorf("-plot %s: %w", *plotFile, err)
		}
	}
	if *jsonOut {
		return writeJSON(stdout, rows)
	}
	fmt.Fprintf(stdout, "%d jobs, %d tasks on %d slots (%s; seed %d)\n", len(workload), tasks, *slots, describe, *seed)
	service := ""
	if svc == sim.MachineService {
		service = fmt.Sprintf("; machine service variability, CV %g", *cv)
	}
	fmt.Fprintf(stdout, "speculation: %s rule, %s estimates, judged after %g·t_new%s; times in units of the mean task duration\n\n",
		*rule, spec.Estimator, spec.Detect, service)
	writeTable(stdout, rows)
	return nil
}

// canRun reports whether policy p can run on a cluster of slots slots:
// budgeted speculation reserves at least one slot for copies and runs tasks
// on the others, so it needs two.
func canRun(p sim.Policy, slots int) bool {
	return slots >= 2 || (p != sim.SRPTBudgeted && p != sim.FairBudgeted)
}

// runnable returns the policies of the default set that can run on slots
// slots, and notes on stderr those it leaves out: the default run works on
// any valid cluster, while a policy named by -policies that cannot run is an
// error.
func runnable(ps []sim.Policy, slots int, stderr io.Writer) []sim.Policy {
	var out []sim.Policy
	var left []string
	for _, p := range ps {
		if canRun(p, slots) {
			out = append(out, p)
		} else {
			left = append(left, p.String())
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

func parsePolicies(s string) ([]sim.Policy, error) {
	if strings.TrimSpace(s) == "all" {
		return sim.Policies(), nil
	}
	var ps []sim.Policy
	seen := map[sim.Policy]bool{}
	for _, name := range strings.Split(s, ",") {
		p, err := sim.ParsePolicy(name)
		if err != nil {
			return nil, err
		}
		if !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	return ps, nil
}

func withBaselines(ps []sim.Policy) []sim.Policy {
	out := append([]sim.Policy(nil), ps...)
	for _, base := range []sim.Policy{sim.SRPT, sim.Fair} {
		found := false
		for _, p := range ps {
			found = found || p == base
		}
		if !found {
			out = append(out, base)
		}
	}
	return out
}

func only(rows []clusterResult, ps []sim.Policy) []clusterResult {
	var out []clusterResult
	for _, p := range ps {
		for _, r := range rows {
			if r.Policy == p.String() {
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

// runAll simulates every configuration on the jobs, up to GOMAXPROCS at a
// time. Each run is a pure function of its inputs, so the results do not
// depend on the scheduling of the goroutines.
func runAll(jobs []sim.Job, cfgs []sim.Config, bar *progress) ([]*sim.Result, error) {
	results := make([]*sim.Result, len(cfgs))
	errs := make([]error, len(cfgs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range cfgs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cfg := cfgs[i]
			cfg.Progress = func(int, int) { bar.add(1) }
			results[i], errs[i] = sim.Simulate(jobs, cfg)
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%v: %w", cfgs[i].Policy, err)
		}
	}
	return results, nil
}

// compare summarises every result against the SRPT and Fair runs.
func compare(ps []sim.Policy, results []*sim.Result) ([]clusterResult, error) {
	var srpt, fair *sim.Result
	for i, p := range ps {
		switch p {
		case sim.SRPT:
			srpt = results[i]
		case sim.Fair:
			fair = results[i]
		}
	}
	rows := make([]clusterResult, len(ps))
	for i, r := range results {
		s := sim.Summarize(r)
		row := clusterResult{
			Policy: ps[i].String(), timeStats: summaryStats(s),
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
