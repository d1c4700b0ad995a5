package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"text/tabwriter"

	"github.com/specsched/specsched/internal/stats"
	"github.com/specsched/specsched/overlap"
)

const overlapSummary = `Runs the synthetic experiment of §5.3 of Lin, Zhang, Wierman and Tan,
"Joint Optimization of Overlapping Phases in MapReduce": jobs with
overlapping map and shuffle phases on two stations of speed 1, the §5.3
workload (overlap.PaperWorkload) at the given load, drawn as
overlap.RunExperiment draws it, under each policy; prints each policy's mean
and 50/90/99th percentile response time and its mean relative to the §5.1
lower bound (the paper's relative E[T]).`

// maxOverlapJobs bounds -jobs: the run holds every job's arrival and
// response time, and 2^24 jobs (sim.MaxSynthJobs) take minutes already.
const maxOverlapJobs = 1 << 24

type overlapRow struct {
	Policy string `json:"policy"`
	timeStats
	Relative float64 `json:"relative_to_lower_bound"`
}

func runOverlap(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("overlap", overlapSummary, stderr)
	// Each subcommand declares and checks its own flags, in the same shape
	// as runProbe's on purpose: the flags differ in names, defaults and help.
	load := fs.Float64("load", 0.9, "load of each station (§5.3 uses 0.75 and 0.9)")
	jobs := fs.Int("jobs", 100000, "number of jobs")
	seed := fs.Uint64("seed", 1, "seed of the workload")
	policies := fs.String("policies", "klps,maxsrpt,splitsrpt", "comma-separated policies: maxsrpt, maxsrpt-strict, splitsrpt, splitsrpt-strict, klps, fifo")
	k := fs.Int("k", overlap.DefaultK, "k of k-LPS")
	jsonOut := jsonFlag(fs, "policy")
	if err := parse(fs, args); err != nil {
		return err
	}
	algorithms, err := parseList(*policies, overlap.ParseAlgorithm)
	if err != nil {
		return usageError(fs, "-policies: %v", err)
	}
	if *jobs < 1 || *jobs > maxOverlapJobs {
		return usageError(fs, "-jobs %d: must lie in [1, 2^24]", *jobs)
	}
	if err := (overlap.Discipline{K: *k}).Validate(); err != nil {
		return err // run maps K to -k (configFlags)
	}
	if !(*load > 0 && *load < 1) {
		return usageError(fs, "-load %g: must lie in (0, 1) (at load ≥ 1 the stations are unstable)", *load)
	}
	// The workload of overlap.RunExperiment: PaperWorkload(load), seeded (Seed, Seed).
	var ws overlap.Workspace
	arrivals, err := overlap.PaperWorkload(*load).Generate(nil, *jobs, rand.New(rand.NewPCG(*seed, *seed)))
	if err != nil {
		return err
	}
	lb, err := overlap.LowerBound(arrivals, 1, &ws)
	if err != nil {
		return err
	}
	lbMean := lb / float64(len(arrivals))
	var rows []overlapRow
	for _, alg := range algorithms {
		times, err := overlap.Simulate(nil, arrivals, 1, overlap.Discipline{Algorithm: alg, K: *k}, &ws)
		if err != nil {
			return err
		}
		s := stats.Summarize(times)
		rows = append(rows, overlapRow{Policy: alg.String(), timeStats: s, Relative: s.Mean / lbMean})
	}
	if *jsonOut {
		return writeJSON(stdout, rows)
	}
	fmt.Fprintf(stdout, "%d jobs at load %g (seed %d); lower bound on the mean response time: %.3f\n\n", *jobs, *load, *seed, lbMean)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean\tp50\tp90\tp99\tmean / lower bound\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", r.Policy, r.Mean, r.P50, r.P90, r.P99, r.Relative)
	}
	return tw.Flush()
}
