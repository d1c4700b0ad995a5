// Command specsim runs the schedulers of specsched side by side on a
// simulated cluster and prints how fast each completes the jobs.
//
// With no arguments it runs the built-in default workload (sim.DefaultWorkload:
// 5000 jobs on 200 slots at 80% offered load, heavy-tailed job sizes, three
// straggler groups) under every policy of package sim and prints a table:
// per policy the mean and 50/90/99th percentile job completion time, the
// gain over SRPT and over Fair, the jobs it slows down against Fair, the
// utilisation, and the copies and slot-time it spends on speculation.
//
// Usage:
//
//	specsim [cluster] [flags]   simulate a cluster (the default; see specsim cluster -h)
//	specsim example [flags]     the thesis's worked example (Table 2.1, Figures 2.1–2.3)
//	specsim overlap [flags]     the §5.3 experiment of the overlapping-phases paper
//	specsim probe [flags]       the probe-based schedulers' node-queue simulator
//
// Every subcommand takes -json for machine-readable output; cluster and
// probe take -trace FILE to run a recorded workload. Exit status: 0 on
// success, 2 for bad flags, 1 for any other error (an unreadable or
// malformed trace names the file and line).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/specsched/specsched/internal/stats"
	"github.com/specsched/specsched/sim"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks an error already reported by a flag set (exit status 2).
var errUsage = errors.New("usage")

const usage = `specsim runs the schedulers of specsched on a simulated cluster.

Usage:
  specsim [cluster] [flags]   simulate a cluster and compare policies (default)
  specsim example [flags]     the thesis's worked example (Table 2.1, Figures 2.1–2.3)
  specsim overlap [flags]     the §5.3 experiment of the overlapping-phases paper
  specsim probe [flags]       probe-based schedulers (Eagle, Hawk, Sparrow, Hopper)

Run "specsim <command> -h" for a command's flags.
`

// run is the command: it parses args, writes results to stdout and
// diagnostics to stderr, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "cluster"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "cluster":
		err = runCluster(args, stdout, stderr)
	case "example":
		err = runExample(args, stdout, stderr)
	case "overlap":
		err = runOverlap(args, stdout, stderr)
	case "probe":
		err = runProbe(args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "specsim: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintf(stderr, "specsim %s: %v\n", cmd, err)
	return 1
}

// newFlags returns a flag set for a subcommand that reports errors to
// stderr and returns them instead of exiting.
func newFlags(name, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("specsim "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: specsim %s [flags]\n\n%s\n\nFlags:\n", name, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args, mapping a parse error to errUsage (the flag set has
// printed it) and rejecting stray arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}

// usageError reports a bad flag value like the flag package does.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	return errUsage
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// parseList parses a comma-separated list of names, each trimmed of blanks.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, name := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// timeStats are the columns every subcommand reports about the completion
// (or response) times of one run: how many, their mean and their empirical
// percentiles (internal/stats: gonum stat.Quantile, stat.Empirical).
type timeStats = stats.Summary

// summaryStats are the timeStats of a sim run's summary.
func summaryStats(s sim.Summary) timeStats {
	return timeStats{Jobs: s.Jobs, Mean: s.Mean, P50: s.P50, P90: s.P90, P99: s.P99}
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
