package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
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
jobs, and the utilisation. Times are in seconds.`

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
}

func runProbe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("probe", probeSummary, stderr)
	// Flags in the same shape as runOverlap's (see there).
	nodes := fs.Int("nodes", 1000, "worker nodes (one slot each)")
	load := fs.Float64("load", 0.8, "offered load of the synthetic workload")
	jobs := fs.Int("jobs", 2000, "jobs in the synthetic workload")
	seed := fs.Uint64("seed", 1, "seed of the workload and the simulator")
	trace := fs.String("trace", "", "run the jobs of this trace (Hawk/Eagle format) instead")
	threshold := fs.Float64("threshold", 0, "long/short cut-off on the estimated task duration, seconds; 0: the synthetic workload's, or for a trace the 90th percentile of the jobs' estimates")
	policies := fs.String("policies", "eagle,hawk,sparrow,hopper", "comma-separated policies: eagle, hawk, sparrow, hopper")
	jsonOut := fs.Bool("json", false, "write the results as JSON, one object per policy")
	if err := parse(fs, args); err != nil {
		return err
	}
	ps, err := parseList(*policies, probe.ParsePolicy)
	if err != nil {
		return usageError(fs, "-policies: %v", err)
	}
	if *nodes < 1 {
		return usageError(fs, "-nodes %d: must be ≥ 1", *nodes)
	}
	if !(*threshold >= 0) {
		return usageError(fs, "-threshold %g: must be ≥ 0", *threshold)
	}
	var workload []probe.Job
	cut := *threshold
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
		if cut == 0 {
			cut = c.Threshold()
		}
	}
	var rows []probeRow
	for _, p := range ps {
		r, err := probe.Simulate(workload, probe.DefaultConfig(p, *nodes, cut), rand.New(rand.NewPCG(*seed, 1)))
		if err != nil {
			return fmt.Errorf("%v: %w", p, err)
		}
		s := r.Summarize()
		rows = append(rows, probeRow{
			Policy: p.String(), timeStats: stats.Summarize(slices.Clone(r.Completion)),
			ShortP50: num(s.Short.P50), ShortP90: num(s.Short.P90), ShortP99: num(s.Short.P99),
			LongP50: num(s.Long.P50), LongP90: num(s.Long.P90), LongP99: num(s.Long.P99),
			Utilisation: r.Stats.Utilisation,
		})
	}
	if *jsonOut {
		return writeJSON(stdout, rows)
	}
	src := fmt.Sprintf("Google-like workload at load %g", *load)
	if *trace != "" {
		src = "trace " + *trace
	}
	fmt.Fprintf(stdout, "%d jobs on %d nodes (%s; long/short cut-off %.4g s; seed %d)\n\n", len(workload), *nodes, src, cut, *seed)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean\tp50\tp90\tp99\tshort p50\tshort p90\tshort p99\tlong p50\tlong p90\tlong p99\tutil\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t\n", r.Policy, r.Mean, r.P50, r.P90, r.P99,
			cell(r.ShortP50), cell(r.ShortP90), cell(r.ShortP99), cell(r.LongP50), cell(r.LongP90), cell(r.LongP99), r.Utilisation)
	}
	return tw.Flush()
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
