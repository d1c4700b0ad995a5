package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/specsched/specsched/internal/stats"

	"github.com/specsched/specsched/probe"
)

const probeSummary = `Runs probe-based schedulers on the node-queue simulator of package probe
(Eagle §2, §5): Eagle, Hawk, Sparrow and decentralized Hopper, each with the
papers' settings (probe.DefaultConfig), on a Google-like synthetic workload
(probe.GoogleLike: 10% long jobs carrying 83% of the task-seconds) or on a
trace in the Hawk/Eagle simulator's format (probe.ParseTrace: one job per
line, "submit_time n_tasks mean_duration d1 … dn"). Prints each policy's
50/90/99th percentile job completion time, overall and for short and long
jobs, and the utilisation. Times are in seconds.

-preset yahoo|cloudera|google takes the Eagle paper's setting for that trace
(probe.TraceSettings: the authors' cut-off, the short partition of §5 and,
unless -nodes is given, the nodes of Table 2). -model authors reproduces the
choices of the authors' simulator where it and the paper's text differ
(probe.AuthorsCode: probe targets drawn with replacement, every idle node
steals in Hawk; durations truncated to whole seconds); -sampling, -thieves
and -int-seconds set each choice on its own. The setting behind the paper's
Yahoo figures: specsim probe -trace YH.tr -preset yahoo -model authors`

type probeRow struct {
	Policy string `json:"policy"`
	timeStats
	ShortP50    *float64 `json:"short_p50"` // null: no short job
	ShortP90    *float64 `json:"short_p90"`
	ShortP99    *float64 `json:"short_p99"`
	LongP50     *float64 `json:"long_p50"` // null: no long job
	LongP90     *float64 `json:"long_p90"`
	LongP99     *float64 `json:"long_p99"`
	Utilisation float64  `json:"utilisation"`
	// StolenByShort is Hawk's probes stolen by short-partition nodes
	// (-thieves all), left out when 0.
	StolenByShort int64 `json:"stolen_by_short,omitempty"`
}

func runProbe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("probe", probeSummary, stderr)
	// Flags in the same shape as runOverlap's (see there).
	nodes := fs.Int("nodes", 1000, "worker nodes (one slot each)")
	load := fs.Float64("load", 0.8, "offered load of the synthetic workload")
	jobs := fs.Int("jobs", 2000, "jobs in the synthetic workload")
	seed := fs.Uint64("seed", 1, "seed of the workload and the simulator")
	trace := fs.String("trace", "", "run the jobs of this trace (Hawk/Eagle format) instead")
	threshold := fs.Float64("threshold", 0, "long/short cut-off on the estimated task duration, seconds (a job above it is long); 0: the preset's, else the synthetic workload's, or for a trace the 90th percentile of the jobs' estimates")
	policies := fs.String("policies", "eagle,hawk,sparrow,hopper", "comma-separated policies: eagle, hawk, sparrow, hopper")
	jsonOut := jsonFlag(fs, "policy")
	opt := probeOptionFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	ps, err := parseList(*policies, probe.ParsePolicy)
	if err != nil {
		return usageError(fs, "-policies: %v (want one of %s)", err, probePolicyNames())
	}
	if err := opt.resolve(fs, *trace != ""); err != nil {
		return err
	}
	if opt.preset != nil && !opt.set["nodes"] {
		*nodes = opt.preset.Nodes
	}
	var workload []probe.Job
	cut := *threshold
	if cut == 0 && opt.preset != nil {
		cut = opt.preset.Threshold
	}
	// Check the configuration the flags give (-nodes, -threshold,
	// -short-partition, …) before reading any workload.
	if err := opt.config(probe.Eagle, *nodes, cut).Validate(); err != nil {
		return err // run maps a field a flag sets to the flag (configFlags)
	}
	if *trace != "" {
		f, err := os.Open(*trace)
		if err != nil {
			return err
		}
		workload, err = probe.ParseTrace(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *trace, err)
		}
		if len(workload) == 0 {
			return fmt.Errorf("%s: no jobs", *trace)
		}
		if *opt.intSeconds {
			workload = probe.TruncateSeconds(workload)
		}
		if cut == 0 {
			est := make([]float64, len(workload))
			for i, j := range workload {
				est[i] = j.EstTask
			}
			slices.Sort(est)
			cut = stats.Quantile(0.9, est)
		}
	} else {
		if *jobs < 1 {
			return usageError(fs, "-jobs %d: must be ≥ 1", *jobs)
		}
		c := probe.GoogleLike(*jobs, *nodes, *load)
		var err error
		if workload, err = probe.Synthesize(c, rand.New(rand.NewPCG(*seed, 0x5eed))); err != nil {
			return err
		}
		if *opt.intSeconds {
			workload = probe.TruncateSeconds(workload)
		}
		if cut == 0 {
			cut = c.Threshold()
		}
	}
	if err := opt.writeTrace(workload); err != nil {
		return err
	}
	var rows []probeRow
	for _, p := range ps {
		r, err := probe.Simulate(workload, opt.config(p, *nodes, cut), rand.New(rand.NewPCG(*seed, 1)))
		if err != nil {
			return fmt.Errorf("%v: %w", p, runFlagError(fs, err))
		}
		s := r.Summarize()
		rows = append(rows, probeRow{
			Policy: p.String(), timeStats: stats.Summarize(slices.Clone(r.Completion)),
			ShortP50: num(s.Short.P50), ShortP90: num(s.Short.P90), ShortP99: num(s.Short.P99),
			LongP50: num(s.Long.P50), LongP90: num(s.Long.P90), LongP99: num(s.Long.P99),
			Utilisation: r.Stats.Utilisation, StolenByShort: r.Stats.StolenByShort,
		})
	}
	if *jsonOut {
		return writeJSON(stdout, rows)
	}
	src := fmt.Sprintf("Google-like workload at load %g", *load)
	if *trace != "" {
		src = "trace " + *trace
	}
	fmt.Fprintf(stdout, "%d jobs on %d nodes (%s; long/short cut-off %.4g s; seed %d)\n", len(workload), *nodes, src, cut, *seed)
	if line := opt.describe(); line != "" {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean\tp50\tp90\tp99\tshort p50\tshort p90\tshort p99\tlong p50\tlong p90\tlong p99\tutil\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t\n", r.Policy, r.Mean, r.P50, r.P90, r.P99,
			cell(r.ShortP50), cell(r.ShortP90), cell(r.ShortP99), cell(r.LongP50), cell(r.LongP90), cell(r.LongP99), r.Utilisation)
	}
	return tw.Flush()
}

// probePolicies are the policies of package probe, in the order of its
// constants.
var probePolicies = []probe.Scheduler{probe.Eagle, probe.Hawk, probe.Sparrow, probe.Hopper}

// probePolicyNames lists the names probe.ParsePolicy accepts.
func probePolicyNames() string {
	var names []string
	for _, p := range probePolicies {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

// num is x, or nil for NaN (JSON has no NaN).
func num(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

func cell(x *float64) string {
	if x == nil {
		return "–"
	}
	return fmt.Sprintf("%.2f", *x)
}

// probeOptions are the flags that choose the trace setting and the
// behaviours where the Eagle paper's text and the authors' simulator
// differ.
type probeOptions struct {
	presetName, model, sampling, thieves *string
	shortPartition                       *float64
	intSeconds                           *bool
	traceOut                             *string
	// After resolve: the flags given, the preset (nil: none) and the
	// parsed options.
	set      map[string]bool
	preset   *probe.TraceSetting
	samp     probe.Sampling
	thief    probe.Thieves
	fraction float64
}

func probeOptionFlags(fs *flag.FlagSet) *probeOptions {
	return &probeOptions{
		presetName:     fs.String("preset", "", "the Eagle paper's setting for a trace: yahoo, cloudera or google (cut-off, short partition, and the nodes unless -nodes is given); needs -trace"),
		shortPartition: fs.Float64("short-partition", probe.ShortPartitionGoogle, "fraction of the nodes in Eagle's and Hawk's short partition, in [0, 1); the default is Google's (Eagle §5), and -preset sets its trace's unless this flag is given"),
		model:          fs.String("model", "paper", "paper: the paper's text (distinct probe targets, general-partition thieves, float durations); authors: the authors' simulator (-sampling replacement -thieves all -int-seconds)"),
		sampling:       fs.String("sampling", "", "probe targets: distinct or replacement (each drawn independently); default: the model's"),
		thieves:        fs.String("thieves", "", "which idle nodes steal in Hawk: general (general partition only) or all; default: the model's"),
		intSeconds:     fs.Bool("int-seconds", false, "truncate task durations and estimates to whole seconds, as the authors' simulator reads a trace; default: the model's"),
		traceOut:       fs.String("write-trace", "", "also write the jobs run (after -int-seconds) to this file in the Hawk/Eagle trace format, e.g. to feed the same synthetic workload to the authors' simulator"),
	}
}

// resolve checks the option flags after parsing and fills in what the
// model and the preset imply.
func (o *probeOptions) resolve(fs *flag.FlagSet, haveTrace bool) error {
	o.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { o.set[fl.Name] = true })
	if *o.presetName != "" {
		ts, err := probe.LookupTraceSetting(*o.presetName)
		if err != nil {
			return usageError(fs, "-preset %q: want yahoo, cloudera or google", *o.presetName)
		}
		if !haveTrace {
			return usageError(fs, "-preset %s describes a trace: give it with -trace", *o.presetName)
		}
		o.preset = &ts
	}
	o.fraction = *o.shortPartition
	if o.preset != nil && !o.set["short-partition"] {
		o.fraction = o.preset.ShortFraction
	}
	switch *o.model {
	case "paper":
	case "authors":
		o.samp, o.thief = probe.WithReplacement, probe.AllThieves
		if !o.set["int-seconds"] {
			*o.intSeconds = true
		}
	default:
		return usageError(fs, "-model %q: want paper or authors", *o.model)
	}
	var err error
	if *o.sampling != "" {
		if o.samp, err = probe.ParseSampling(*o.sampling); err != nil {
			return usageError(fs, "-sampling %q: want distinct or replacement", *o.sampling)
		}
	}
	if *o.thieves != "" {
		if o.thief, err = probe.ParseThieves(*o.thieves); err != nil {
			return usageError(fs, "-thieves %q: want general or all", *o.thieves)
		}
	}
	return nil
}

// writeTrace writes the workload to the -write-trace file, if one is given
// (probe.WriteTrace).
func (o *probeOptions) writeTrace(workload []probe.Job) error {
	if *o.traceOut == "" {
		return nil
	}
	f, err := os.Create(*o.traceOut)
	if err != nil {
		return err
	}
	if err := probe.WriteTrace(f, workload); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// config is the configuration of policy p the flags give.
func (o *probeOptions) config(p probe.Scheduler, nodes int, cut float64) probe.Config {
	c := probe.DefaultConfig(p, nodes, cut)
	if p == probe.Eagle || p == probe.Hawk {
		c.ShortFraction = o.fraction
	}
	c.Sampling, c.Thieves = o.samp, o.thief
	return c
}

// describe is the header line of the settings the option flags chose, or
// "" when none was given (the header is then as it always was).
func (o *probeOptions) describe() string {
	given := false
	for _, name := range []string{"preset", "short-partition", "model", "sampling", "thieves", "int-seconds"} {
		given = given || o.set[name]
	}
	if !given {
		return ""
	}
	line := fmt.Sprintf("short partition %g (eagle, hawk); probe targets %v; thieves %v", o.fraction, o.samp, o.thief)
	if *o.intSeconds {
		line += "; durations truncated to whole seconds"
	}
	if o.preset != nil {
		line += "; preset " + o.preset.Name
	}
	return line + "; model " + *o.model
}

// runFlagError names the flag of an *specsched.InputError about a field a
// flag sets (flagOf), keeping it a run error (the value suits some
// workloads and not this one: a short partition that leaves no general
// node when a job is long); any other error is returned as it is.
func runFlagError(fs *flag.FlagSet, err error) error {
	if name, _, reason, ok := flagOf("probe", err); ok {
		return fmt.Errorf("-%s %s: %s", name, fs.Lookup(name).Value, reason)
	}
	return err
}
