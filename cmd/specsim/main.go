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
//	specsim [command] [flags]
//
// The commands are:
//
//	cluster   simulate a cluster under every allocation policy (the default)
//	example   the thesis's worked example (Table 2.1, Figures 2.1–2.3)
//	overlap   the §5.3 experiment of the overlapping-phases paper
//	probe     probe-based schedulers on node queues (Eagle, Hawk, Sparrow, Hopper)
//	reproduce the thesis's comparisons, written to a Markdown report
//	help      the list of commands, or "specsim help <command>" for a command's flags
//
// Every subcommand but reproduce takes -json for machine-readable output (one JSON
// array, one object per row of the table); cluster and probe take -trace
// FILE to run a recorded workload, and cluster takes -swim FILE to run a day
// of Facebook jobs in SWIM's format (times in seconds). -h prints help to standard output.
// Exit status: 0 on success and for -h, 2 for a bad flag (a value the
// simulator rejects included, named by its flag), 1 for any other error
// (an unreadable or malformed trace names the file and line).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/specsched/specsched"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks an error already reported by a flag set (exit status 2).
var errUsage = errors.New("usage")

const usage = `specsim runs the schedulers of specsched side by side on a simulated cluster.

Usage:

	specsim [command] [flags]

The commands are:

	cluster   simulate a cluster under every allocation policy (the default)
	example   the thesis's worked example (Table 2.1, Figures 2.1–2.3)
	overlap   the §5.3 experiment of the overlapping-phases paper
	probe     probe-based schedulers on node queues (Eagle, Hawk, Sparrow, Hopper)
	reproduce the thesis's comparisons, written to a Markdown report
	help      this list, or "specsim help <command>" for a command's flags

cluster is the default: "specsim -load 1" is "specsim cluster -load 1".
Use "specsim <command> -h" for a command's flags.
`

// commands are the subcommands by name.
var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"cluster":   runCluster,
	"example":   runExample,
	"overlap":   runOverlap,
	"probe":     runProbe,
	"reproduce": runReproduce,
}

// run is the command: it parses args, writes results and help to stdout
// and diagnostics to stderr, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, args, list := route(args)
	if list {
		fmt.Fprint(stdout, usage)
		return 0
	}
	sub, ok := commands[cmd]
	if !ok {
		fmt.Fprintf(stderr, "specsim: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	err := sub(args, stdout, stderr)
	var help *helpText
	if err == nil {
		return 0
	}
	if errors.As(err, &help) {
		fmt.Fprint(stdout, help.text)
		return 0
	}
	if errors.Is(err, errUsage) {
		return 2
	}
	if name, value, reason, ok := flagOf(cmd, err); ok {
		fmt.Fprintf(stderr, "specsim %s: -%s %s: %s\n", cmd, name, value, reason)
		return 2
	}
	fmt.Fprintf(stderr, "specsim %s: %v\n", cmd, err)
	return 1
}

// route splits args into the command and its arguments, or reports that
// they ask for the list of commands (-h, help, help help, help -h).
func route(args []string) (cmd string, rest []string, list bool) {
	// Ifs, not a switch's cases: gremlins v0.6.0 cannot mutate case
	// expressions (issue 19).
	if len(args) > 0 && isHelp(args[0]) {
		return "", nil, true
	}
	if len(args) > 0 && args[0] == "help" {
		if len(args) == 1 || args[1] == "help" || isHelp(args[1]) {
			return "", nil, true // help's own help is the list
		}
		return args[1], []string{"-h"}, false
	}
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		return args[0], args[1:], false
	}
	return "cluster", args, false
}

// isHelp reports whether arg asks for help as the flag package reads it.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--h", "--help":
		return true
	}
	return false
}

// A helpText is the help a flag set printed for -h: run writes it to
// stdout, as help is output the user asked for.
type helpText struct{ text string }

func (h *helpText) Error() string { return "help requested" }

// configFlags maps, per subcommand, the configuration fields its flags set
// (specsched.InputError.Field of a scalar parameter, as sim.Config,
// sim.SynthConfig, overlap's and probe's configurations name them) to the
// flags. A value the library rejects is then reported as a bad value of
// the flag (exit status 2), like a value the command rejects itself.
var configFlags = map[string]map[string]string{
	"cluster": {
		"Slots": "slots", "Jobs": "jobs", "Load": "load", "Eps": "eps",
		"Speculation.Detect": "detect", "Speculation.Heartbeat": "heartbeat", "ServiceCV": "cv",
		"Speculation.Onset.Alpha": "onset-alpha", "Speculation.Onset.Beta": "onset-beta",
	},
	"overlap": {"n": "jobs", "Load": "load", "K": "k"},
	"probe":   {"Nodes": "nodes", "Jobs": "jobs", "Load": "load", "Threshold": "threshold", "ShortFraction": "short-partition"},
}

// flagOf returns the flag, its value and the reason of an
// *specsched.InputError in err about a scalar field one of cmd's flags
// sets, and false for any other error.
func flagOf(cmd string, err error) (name, value, reason string, ok bool) {
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Index >= 0 {
		return "", "", "", false
	}
	name, ok = configFlags[cmd][ie.Field]
	value = strconv.FormatFloat(ie.Value, 'g', -1, 64)
	if ie.Value == math.Trunc(ie.Value) && math.Abs(ie.Value) < 1e15 {
		value = strconv.FormatFloat(ie.Value, 'f', -1, 64) // an integer flag: -slots 20000000, not 2e+07
	}
	if ie.Text != "" {
		value = ie.Text
	}
	return name, value, ie.Reason, ok
}

// newFlags returns a flag set for a subcommand that reports errors to
// stderr and returns them instead of exiting.
func newFlags(name, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("specsim "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	use := name
	if name == "cluster" {
		use = "[cluster]" // the default command
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: specsim %s [flags]\n\n%s\n\nFlags:\n", use, summary)
		fs.PrintDefaults()
	}
	return fs
}

// jsonFlag defines a subcommand's -json flag; row says what a row of its
// table is ("policy", "run").
func jsonFlag(fs *flag.FlagSet, row string) *bool {
	return fs.Bool("json", false, "write the results as one JSON array, an object per "+row+", instead of the table")
}

// parse parses args, mapping a parse error to errUsage (the flag set has
// printed it to stderr) and -h to a *helpText (for stdout), and rejecting
// stray arguments.
func parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	var printed strings.Builder
	fs.SetOutput(&printed)
	err := fs.Parse(args)
	fs.SetOutput(out)
	if errors.Is(err, flag.ErrHelp) {
		return &helpText{printed.String()}
	}
	io.WriteString(out, printed.String())
	if err != nil {
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
// (or response) times of one run: the library's one summary of times
// (how many, their mean and their empirical percentiles).
type timeStats = specsched.Summary

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
