package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specsched/specsched/overlap"
	"github.com/specsched/specsched/sim"
)

// small is a cluster run that takes well under a second.
var small = []string{"-jobs", "300", "-slots", "30", "-q"}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestClusterTable(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, small...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("stderr not empty without a terminal: %q", errOut)
	}
	for _, p := range sim.Policies() {
		if !strings.Contains(out, " "+p.String()+" ") {
			t.Errorf("table lacks %v:\n%s", p, out)
		}
	}
	for _, want := range []string{"mean", "p99", "vs SRPT", "vs Fair", "slowed", "wasted", "gain over SRPT by job size"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	// "cluster" is the default command.
	code2, out2, _ := runCmd(t, append([]string{"cluster"}, small...)...)
	if code2 != 0 || out2 != out {
		t.Errorf("specsim cluster differs from specsim")
	}
}

// TestDeterministic: the same flags print the same bytes, whatever the
// goroutines' scheduling.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	args := append([]string{"-json", "-seed", "7"}, small...)
	_, a, _ := runCmd(t, args...)
	_, b, _ := runCmd(t, args...)
	if a != b || a == "" {
		t.Fatal("two runs with the same seed printed different output")
	}
	_, c, _ := runCmd(t, append([]string{"-json", "-seed", "8"}, small...)...)
	if c == a {
		t.Fatal("a different seed printed the same output")
	}
}

// TestClusterJSON: one object per policy with the required fields, and the
// numbers those of sim.Simulate on the same workload.
func TestClusterJSON(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, append([]string{"-json", "-policies", "hopper,fair-budgeted"}, small...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if len(rows) != 2 || rows[0]["policy"] != "hopper" || rows[1]["policy"] != "fair-budgeted" {
		t.Fatalf("rows %v", rows)
	}
	for _, r := range rows {
		for _, f := range []string{"policy", "jobs", "mean", "p50", "p90", "p99", "gain_over_srpt", "gain_over_fair", "slowed_vs_fair", "utilisation", "copies", "wasted_slot_time"} {
			if _, ok := r[f]; !ok {
				t.Errorf("%v lacks %q", r["policy"], f)
			}
		}
	}
	// The same run through the library.
	jobs, err := sim.Synthesize(sim.DefaultWorkload(300, 30, defaultLoad), rand.New(rand.NewPCG(1, 0x5eed)))
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(sim.Hopper, 30)
	cfg.Seed = 1
	r, err := sim.Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := sim.Summarize(r)
	if rows[0]["jobs"].(float64) != 300 || rows[0]["mean"].(float64) != s.Mean || rows[0]["p99"].(float64) != s.P99 {
		t.Errorf("hopper: CLI %v, library mean %g p99 %g", rows[0], s.Mean, s.P99)
	}
	// The gains are against the srpt and fair runs.
	for _, base := range []struct {
		p     sim.Preset
		field string
	}{{sim.SRPT, "gain_over_srpt"}, {sim.Fair, "gain_over_fair"}} {
		c := sim.DefaultConfig(base.p, 30)
		c.Seed = 1
		b, err := sim.Simulate(jobs, c)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := sim.Gain(b, r)
		if got := rows[0][base.field].(float64); got != g {
			t.Errorf("%s = %g, library %g", base.field, got, g)
		}
	}
}

func TestClusterPlot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"cdf.svg", "cdf.png"} {
		file := filepath.Join(dir, name)
		code, _, errOut := runCmd(t, append([]string{"-plot", file, "-policies", "srpt,hopper"}, small...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		data, err := os.ReadFile(file)
		if err != nil || len(data) < 1000 {
			t.Fatalf("%s: %d bytes, %v", name, len(data), err)
		}
		if strings.HasSuffix(name, ".svg") && !bytes.Contains(data[:200], []byte("<svg")) {
			t.Errorf("%s is not an SVG", name)
		}
		if strings.HasSuffix(name, ".png") && !bytes.HasPrefix(data, []byte("\x89PNG")) {
			t.Errorf("%s is not a PNG", name)
		}
	}
}

func TestClusterTrace(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "-trace", "../../internal/testdata/sim/sample.csv", "-slots", "20", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "30 jobs, 133 tasks on 20 slots (trace") {
		t.Errorf("header: %s", strings.SplitN(out, "\n", 2)[0])
	}
}

// TestTraceUnits: a trace's times are in its own unit, and the header and
// the plot's axis say so (issue 19: a trace with durations 1000, 3000, 2000
// printed its means under "times in units of the mean task duration"); the
// synthetic workload's header and axis keep the mean task duration, its
// time unit.
func TestTraceUnits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(trace, []byte("job,arrival,phase,duration,beta\na,0,0,1000,1.5\nb,0,0,3000,1.5\nc,0,0,2000,1.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args          []string
		header, label string
	}{
		{[]string{"-trace", trace, "-slots", "2"}, "; times in the trace's time unit\n", "completion time (the trace&#39;s time unit)"},
		{small, "; times in units of the mean task duration\n", "completion time (mean task durations)"},
	} {
		svg := filepath.Join(dir, "cdf.svg")
		args := append([]string{"-q", "-policies", "hopper", "-plot", svg}, tc.args...)
		code, out, errOut := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("specsim %v: exit %d: %s", args, code, errOut)
		}
		if lines := strings.SplitAfter(out, "\n"); len(lines) < 2 || !strings.HasSuffix(lines[1], tc.header) {
			t.Errorf("specsim %v: header %q, want it to end %q", args, lines[:2], tc.header)
		}
		data, err := os.ReadFile(svg)
		if err != nil || !bytes.Contains(data, []byte(">"+tc.label+"<")) {
			t.Errorf("specsim %v: the plot lacks the axis label %q (%v)", args, tc.label, err)
		}
	}
}

// TestBadInput: bad flags exit 2 with a message; unreadable or malformed
// traces exit 1 naming the file and line.
func TestBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("job,arrival,phase,duration,beta\na,0,0,1,1.5\na,0,0,-3,1.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-slots", "0"}, 2, "-slots"},
		{[]string{"-policies", "lottery"}, 2, "unknown policy"},
		{[]string{"-beta", "0.9"}, 2, "-beta"},
		{[]string{"-rule", "late"}, 2, "-rule"},
		{[]string{"-estimator", "psychic"}, 2, "-estimator"},
		{[]string{"-budget", "1"}, 2, "-budget"},
		{[]string{"-service", "cloud"}, 2, "-service"},
		{[]string{"-service", "machine", "-cv", "0"}, 2, "-cv"},
		{[]string{"-cv", "-1"}, 2, "specsim cluster: -cv -1: must lie in (0, 100]\n"}, // it passed silently without -service machine
		{[]string{"-detect", "-1"}, 2, "-detect"},
		{[]string{"-eps", "2"}, 2, "-eps"},
		{[]string{"-jobs", "0"}, 2, "-jobs"},
		{[]string{"-load", "abc"}, 2, "invalid value"},
		{[]string{"-plot", "cdf.gif"}, 2, ".svg or .png"},
		{[]string{"stray"}, 2, "unknown command"},
		{[]string{"-q", "stray"}, 2, "unexpected argument"},
		{[]string{"-nosuchflag"}, 2, "not defined"},
		{[]string{"-trace", bad, "-jobs", "5"}, 2, "cannot be combined"},
		{[]string{"-trace", filepath.Join(dir, "missing.csv")}, 1, "missing.csv"},
		{[]string{"-trace", bad}, 1, "line 3"},
		// Values the library's configurations reject, named by their flag
		// (issue 19: -load 11 exited 1 with "sim.Synthesize: Load = 11").
		{[]string{"-load", "20", "-q"}, 2, "specsim cluster: -load 20: must lie in (0, 10]\n"},
		{[]string{"-slots", "20000000", "-q"}, 2, "specsim cluster: -slots 20000000: must lie in [1, 2^24]\n"},
		{[]string{"-jobs", "99999999"}, 2, "-jobs 99999999: must lie in [1, 16777216]"},
		{[]string{"-detect", "2e6"}, 2, "-detect 2000000: must lie in [0, 1e6]"},
		{[]string{"-estimator", "observed", "-heartbeat", "-1"}, 2, "-heartbeat -1: must lie in [0, 1e6]"},
		{[]string{"-estimator", "observed", "-onset-alpha", "2"}, 2, "-onset-beta 0: must lie in [0.25, 10]"},
		{[]string{"-onset-alpha", "11", "-onset-beta", "1"}, 2, "-onset-alpha 11: must lie in [0.25, 10]"},
		// A load so low the arrivals pass sim.MaxTime / probe.MaxTime: it
		// exited 1 naming job 0's Arrival (Submit).
		{[]string{"-load", "1e-300", "-jobs", "10"}, 2, "specsim cluster: -load 1e-300: too low: the arrivals would span more than 1e+12"},
		{[]string{"-load", "1e-8", "-slots", "1", "-q"}, 2, "specsim cluster: -load 1e-08: too low: the arrivals leave the range"},
		{[]string{"probe", "-load", "1e-300"}, 2, "specsim probe: -load 1e-300: too low: job 0 would arrive at"},
		{[]string{"probe", "-load", "0"}, 2, "specsim probe: -load 0: must be finite and > 0\n"},
		{[]string{"probe", "-nodes", "3000000000", "-jobs", "5"}, 2, "specsim probe: -nodes 3000000000: must lie in [1, 2^31]\n"},
		{[]string{"overlap", "-jobs", "100000000000"}, 2, "-jobs 100000000000: must lie in [1, 2^24]"},
		// -nodes, -threshold and -k are checked by probe.Config.Validate and
		// overlap.Discipline.Validate alone, and named by their flags.
		{[]string{"probe", "-nodes", "0"}, 2, "specsim probe: -nodes 0: must lie in [1, 2^31]\n"},
		{[]string{"probe", "-threshold", "-1"}, 2, "specsim probe: -threshold -1: must be ≥ 0 (+Inf allowed)\n"},
		{[]string{"overlap", "-k", "-1"}, 2, "specsim overlap: -k -1: must be ≥ 0 (0 means DefaultK)\n"},
		{[]string{"help", "nope"}, 2, "unknown command \"nope\""},
		{[]string{"example", "-x"}, 2, "not defined"},
		{[]string{"overlap", "-policies", "lifo"}, 2, `name = "lifo": unknown policy`}, // not name = 0
		{[]string{"overlap", "-load", "1.2"}, 2, "-load"},
		{[]string{"probe", "-policies", "yarn"}, 2, `-policies: probe.ParsePolicy: policy = "yarn": unknown policy (want one of eagle, hawk, sparrow, hopper)`},
		{[]string{"probe", "-trace", bad}, 1, "bad.csv"},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("specsim %v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
		if out != "" {
			t.Errorf("specsim %v: stdout %q, want nothing on an error", tc.args, out)
		}
	}
}

// topUsage is what `specsim -h` must say, written out by hand: every
// command on one line, as `go help` lists them, and which is the default.
const topUsage = `specsim runs the schedulers of specsched side by side on a simulated cluster.

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

// exampleUsage is what `specsim example -h` must say: the usage line, what
// the command does, and its one flag.
const exampleUsage = `Usage: specsim example [flags]

Runs the worked example of the Hopper thesis (§2, Table 2.1, Figures
2.1–2.3) on 6 slots: job A with tasks of 8, 3, 3, 3 time units, job B with
6, 6, 3, 3, 1, 1, every speculative copy taking 2 (1 for B5, B6), copies made
when t_rem > t_new. Prints each policy's completion times of A and B and,
where the thesis has a figure, its caption's values.

Figures 2.1 and 2.3 judge a task a straggler as soon as it starts; Figure
2.2's vacant slot needs a detection delay of one time unit (see the sim
package's tests for the schedules derived by hand).

Flags:
  -json
    	write the results as one JSON array, an object per run, instead of the table
`

// TestHelp: help goes to stdout with exit status 0 (it is what the user
// asked for), as the goldens above say; the top-level list names every
// command once; each command's -h starts with its usage line and lists
// every flag it defines.
func TestHelp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-h"}, topUsage},
		{[]string{"-help"}, topUsage},
		{[]string{"--help"}, topUsage},
		{[]string{"help"}, topUsage},
		{[]string{"help", "help"}, topUsage}, // they said unknown command
		{[]string{"help", "-h"}, topUsage},
		{[]string{"help", "--help"}, topUsage},
		{[]string{"example", "-h"}, exampleUsage},
		{[]string{"help", "example"}, exampleUsage},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != 0 || out != tc.want || errOut != "" {
			t.Errorf("specsim %v: exit %d, stderr %q, stdout\n%s\nwant exit 0, no stderr, stdout\n%s", tc.args, code, errOut, out, tc.want)
		}
	}
	for name := range commands {
		if n := strings.Count(topUsage, "\n\t"+name+" "); n != 1 {
			t.Errorf("the command list names %s %d times, want once", name, n)
		}
	}
	for _, tc := range []struct {
		args  []string
		usage string
		flags []string
	}{
		{[]string{"cluster", "-h"}, "Usage: specsim [cluster] [flags]\n\nSimulates a cluster", []string{
			"beta", "budget", "cv", "detect", "eps", "estimator", "heartbeat", "jobs", "json", "load", "onset-alpha", "onset-beta", "plot",
			"policies", "q", "rule", "seed", "service", "slots", "trace"}},
		{[]string{"help", "cluster"}, "Usage: specsim [cluster] [flags]\n", nil},
		{[]string{"-q", "-h"}, "Usage: specsim [cluster] [flags]\n", nil},
		{[]string{"overlap", "-h"}, "Usage: specsim overlap [flags]\n\nRuns the synthetic experiment of §5.3",
			[]string{"jobs", "json", "k", "load", "policies", "seed"}},
		{[]string{"probe", "-h"}, "Usage: specsim probe [flags]\n\n", []string{"nodes", "trace", "policies"}},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, tc.usage) {
			t.Errorf("specsim %v: exit %d, stderr %q, stdout %.80q…; want exit 0 and help starting %q", tc.args, code, errOut, out, tc.usage)
		}
		for _, f := range tc.flags {
			if !strings.Contains(out, "\n  -"+f+" ") && !strings.Contains(out, "\n  -"+f+"\n") && !strings.Contains(out, "\n  -"+f+"\t") {
				t.Errorf("specsim %v: help lacks -%s", tc.args, f)
			}
		}
		if strings.Contains(out, "-json") && tc.args[0] != "probe" && !strings.Contains(out, "one JSON array") {
			t.Errorf("specsim %v: -json's help does not say it writes one JSON array", tc.args)
		}
	}
	// A bad flag prints the error and the usage to stderr, exit 2.
	code, out, errOut := runCmd(t, "example", "-x")
	if code != 2 || out != "" || !strings.Contains(errOut, "flag provided but not defined: -x\nUsage: specsim example") {
		t.Errorf("example -x: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestExample: the figures' captions are reproduced.
func TestExample(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "example", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []exampleRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	figures := 0
	for _, r := range rows {
		if r.Thesis == nil {
			continue
		}
		figures++
		if r.A != r.Thesis[0] || r.B != r.Thesis[1] {
			t.Errorf("Figure %s (%s): (%g, %g), thesis (%g, %g)", r.Figure, r.Policy, r.A, r.B, r.Thesis[0], r.Thesis[1])
		}
	}
	if figures != 5 {
		t.Errorf("%d figures, want 5", figures)
	}
	code, out, _ = runCmd(t, "example")
	if code != 0 || !strings.Contains(out, "Figure 2.3: (3, 6)") {
		t.Errorf("table:\n%s", out)
	}
	// The last row, Hopper judging after one time unit, ends A and B at
	// (8, 6) (the schedule is derived by hand in sim's
	// example_thesis_test.go), and the table says what it is: it was an
	// unexplained "hopper 1 8 6 7".
	last := rows[len(rows)-1]
	if last.Policy != "hopper" || last.Detect != 1 || last.A != 8 || last.B != 6 || last.Note == "" {
		t.Errorf("last row %+v, want hopper judging after 1 at (8, 6), with a note", last)
	}
	for _, want := range []string{"hopper           1             8  6  7     Figure 2.3 with Figure 2.2's delay (below)\n",
		"The last row runs Hopper with that\ndelay"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestOverlap: the subcommand runs overlap.RunExperiment's experiment.
func TestOverlap(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "overlap", "-json", "-jobs", "3000", "-load", "0.75", "-seed", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []overlapRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	want, err := overlap.RunExperiment(overlap.ExperimentConfig{Load: 0.75, Jobs: 3000, Seed: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	means := map[string]float64{"klps": want.KLPS, "maxsrpt": want.MaxSRPT, "splitsrpt": want.SplitSRPT}
	for _, r := range rows {
		if m, ok := means[r.Policy]; !ok || math.Abs(r.Mean-m) > 1e-12*m || math.Abs(r.Relative-m/want.LowerBound) > 1e-9 {
			t.Errorf("%s: mean %g relative %g, RunExperiment %g, %g", r.Policy, r.Mean, r.Relative, m, m/want.LowerBound)
		}
	}
	if len(rows) != 3 {
		t.Errorf("%d rows", len(rows))
	}
	if code, out, _ := runCmd(t, "overlap", "-jobs", "500", "-policies", "fifo,maxsrpt-strict"); code != 0 || !strings.Contains(out, "fifo") {
		t.Errorf("overlap with other policies: exit %d\n%s", code, out)
	}
}

func TestProbe(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "probe", "-jobs", "200", "-nodes", "100", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []probeRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0].Policy != "eagle" || rows[0].Jobs != 200 || rows[0].ShortP50 == nil {
		t.Errorf("rows %+v", rows)
	}
	code, out, errOut = runCmd(t, "probe", "-trace", "../../internal/testdata/probe/sample.trace", "-nodes", "50", "-policies", "sparrow,hopper")
	if code != 0 || !strings.Contains(out, "sparrow") {
		t.Errorf("probe -trace: exit %d %s\n%s", code, errOut, out)
	}
}

// TestDefaultPoliciesAnyCluster is issue 17's reproducer: `specsim -jobs 3
// -slots 1` failed with "srpt-budgeted needs at least 2 slots" although no
// policy was named. The default set runs on any valid cluster, leaving out,
// with a note, the budgeted policies (a reserved pool and a task slot need
// two); a policy named by -policies that cannot run is still an error.
func TestDefaultPoliciesAnyCluster(t *testing.T) {
	t.Parallel()
	for _, policies := range [][]string{nil, {"-policies", "all"}} {
		args := append([]string{"-jobs", "3", "-slots", "1", "-q"}, policies...)
		code, out, errOut := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("specsim %v: exit %d: %s", args, code, errOut)
		}
		if !strings.Contains(errOut, "note: srpt-budgeted, fair-budgeted left out") {
			t.Errorf("specsim %v: stderr %q lacks the note", args, errOut)
		}
		for _, p := range sim.Policies() {
			shown := strings.Contains(out, " "+p.String()+" ")
			if want := p != sim.SRPTBudgeted && p != sim.FairBudgeted; shown != want {
				t.Errorf("specsim %v: %v shown %v, want %v:\n%s", args, p, shown, want, out)
			}
		}
	}
	for _, p := range []string{"srpt-budgeted", "fair-budgeted", "hopper,fair-budgeted"} {
		code, _, errOut := runCmd(t, "-jobs", "3", "-slots", "1", "-q", "-policies", p)
		if code != 2 || !strings.Contains(errOut, "needs at least 2 slots") {
			t.Errorf("-policies %s on 1 slot: exit %d, stderr %q; want 2 and the reason", p, code, errOut)
		}
	}
	// Two slots run every policy, with no note.
	code, _, errOut := runCmd(t, "-jobs", "3", "-slots", "2", "-q")
	if code != 0 || errOut != "" {
		t.Errorf("2 slots: exit %d, stderr %q", code, errOut)
	}
}

// TestBudgetSlots: the pool is the nearest integer to the share of the
// slots, at least 1 for a positive share and never every slot (-budget 0.99
// on 2 slots asked Simulate for a pool of 2 and failed).
func TestBudgetSlots(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fraction    float64
		slots, want int
	}{
		{0.1, 200, 20}, {0.1, 6, 1}, {0.1, 4, 1}, {0.001, 5, 1}, {0, 5, 0},
		{0.99, 2, 1}, {0.99, 100, 99}, {0.5, 1, 0}, {0.25, 10, 3},
	} {
		if got := budgetSlots(tc.fraction, tc.slots); got != tc.want {
			t.Errorf("budgetSlots(%g, %d) = %d, want %d", tc.fraction, tc.slots, got, tc.want)
		}
	}
	if code, _, errOut := runCmd(t, "-jobs", "3", "-slots", "2", "-budget", "0.99", "-q", "-policies", "srpt-budgeted"); code != 0 {
		t.Errorf("-budget 0.99 on 2 slots: exit %d: %s", code, errOut)
	}
}

// TestOnsetFlags: -onset-alpha and -onset-beta change the run (the flags'
// validation is in TestBadInput) and the header names the law.
func TestOnsetFlags(t *testing.T) {
	args := []string{"-q", "-jobs", "60", "-slots", "20", "-policies", "hopper", "-estimator", "observed", "-json"}
	code, out, errOut := runCmd(t, append(args, "-onset-alpha", "0.5", "-onset-beta", "2")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, uniform, _ := runCmd(t, args...)
	if out == uniform {
		t.Errorf("-onset-alpha 0.5 -onset-beta 2 gives the uniform onset's output")
	}
	code, txt, _ := runCmd(t, "-q", "-jobs", "60", "-slots", "20", "-policies", "hopper", "-estimator", "observed", "-onset-alpha", "0.5", "-onset-beta", "2")
	if code != 0 || !strings.Contains(txt, "copies slowing part-way, onset Beta(0.5, 2))") {
		t.Errorf("header does not name the onset law:\n%s", txt)
	}
}
