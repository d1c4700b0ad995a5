package main

// Tests of the command's edges that the mutation pass of issue 19 found
// unchecked: the dispatch of the arguments, flagOf's formatting, the
// progress bar, the bounds of the cluster flags, the header and the
// table. Each checks a hand-worked expectation or the library directly.
//
// Mutants of the command no test can kill (gremlins v0.6.0, .ci/mutate):
//   - cluster.go budgetSlots, "b < 1" as "b <= 1": equivalent; at b = 1
//     the body sets b = 1.
//   - plot.go ticks125, "e < 0" as "e <= 0": equivalent; at e = 0 both
//     branches give m (m/10^0 and m·10^0, math.Pow(10, 0) = 1 exactly).
//   - INVERT_BITWISE on the address-of "&" of example.go's &[2]float64{…}
//     and main.go's errors.As(err, &help), INVERT_ASSIGNMENTS of probe.go's
//     string "line +=": the mutants do not compile (gremlins lists the
//     package-level ones as NOT COVERED: a var initialiser has no
//     coverage block).
//   - The loops of plot.go's cdfPoints and ticks125 made endless (k = step,
//     e--, m--, a non-positive lo let through to Log10): TIMED OUT, that
//     is, detected.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/sim"
)

// TestRoute: the arguments name a command as the usage says — "specsim
// [command] [flags]", cluster the default, a first argument starting with
// "-" a flag of cluster — and -h, help, "help help" and "help -h" ask for
// the list, "help cmd" for cmd's flags.
func TestRoute(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		cmd  string
		rest []string
		list bool
	}{
		{nil, "cluster", nil, false},
		{[]string{}, "cluster", []string{}, false},
		{[]string{"-h"}, "", nil, true},
		{[]string{"--help"}, "", nil, true},
		{[]string{"help"}, "", nil, true},
		{[]string{"help", "help"}, "", nil, true},
		{[]string{"help", "-help"}, "", nil, true},
		{[]string{"help", "probe"}, "probe", []string{"-h"}, false},
		{[]string{"example", "-json"}, "example", []string{"-json"}, false},
		{[]string{"cluster"}, "cluster", []string{}, false},
		{[]string{"-jobs", "3"}, "cluster", []string{"-jobs", "3"}, false},
		{[]string{"-h2"}, "cluster", []string{"-h2"}, false},
		{[]string{""}, "cluster", []string{""}, false}, // then "unexpected argument"
		{[]string{"bogus", "-h"}, "bogus", []string{"-h"}, false},
	} {
		cmd, rest, list := route(c.args)
		if cmd != c.cmd || !slices.Equal(rest, c.rest) || (rest == nil) != (c.rest == nil) || list != c.list {
			t.Errorf("route(%q) = %q, %q, %v; want %q, %q, %v", c.args, cmd, rest, list, c.cmd, c.rest, c.list)
		}
	}
}

// TestRunExitStatus: the exit statuses of the package comment — 0 for a
// run and for help (on stdout), 2 for a bad flag or command, 1 for any
// other error.
func TestRunExitStatus(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "none.csv")
	for _, c := range []struct {
		args     []string
		code     int
		out, err string // substrings of stdout, stderr ("" for empty)
	}{
		{[]string{"example"}, 0, "Table 2.1", ""},
		{[]string{"-h"}, 0, "The commands are:", ""},
		{[]string{"help", "overlap"}, 0, "Usage: specsim overlap [flags]", ""},
		{[]string{"bogus"}, 2, "", `unknown command "bogus"`},
		{[]string{"example", "-nosuch"}, 2, "", "-nosuch"},
		{[]string{"example", "stray"}, 2, "", `unexpected argument "stray"`},
		{[]string{"-q", "-trace", missing}, 1, "", "specsim cluster: open " + missing},
	} {
		code, out, errOut := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) ||
			(c.out == "") != (out == "") || (c.err == "") != (errOut == "") {
			t.Errorf("specsim %q: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out, errOut, c.code, c.out, c.err)
		}
	}
}

// TestFlagOf: only a scalar field (Index −1 in specsched.InputError) maps
// to a flag; its value is printed as the flag would be given — an integer
// in full below 10^15, any other number in Go's shortest form — or as its
// Text.
func TestFlagOf(t *testing.T) {
	t.Parallel()
	ie := func(field string, index int, v float64, text string) error {
		return fmt.Errorf("wrapped: %w", &specsched.InputError{Func: "sim.Simulate", Index: index, Field: field, Value: v, Text: text, Reason: "must be good"})
	}
	for _, c := range []struct {
		cmd   string
		err   error
		name  string
		value string
		ok    bool
	}{
		{"cluster", ie("Slots", -1, 20000000, ""), "slots", "20000000", true},
		{"cluster", ie("Load", -1, 10.5, ""), "load", "10.5", true},
		{"cluster", ie("Load", -1, 0.35, ""), "load", "0.35", true},
		{"cluster", ie("Load", -1, 1e15, ""), "load", "1e+15", true},
		{"cluster", ie("Load", -1, 1e15-1, ""), "load", "999999999999999", true},
		{"cluster", ie("Load", -1, -3, ""), "load", "-3", true},
		{"cluster", ie("Eps", -1, math.Inf(1), ""), "eps", "+Inf", true},
		{"cluster", ie("Eps", -1, 0, "many"), "eps", "many", true},
		{"overlap", ie("K", -1, -1, ""), "k", "-1", true},
		{"cluster", ie("Slots", 0, 3, ""), "", "", false}, // job 0's field, not a flag's
		{"cluster", ie("Slots", 4, 3, ""), "", "", false},
		{"cluster", ie("Unknown", -1, 3, ""), "", "3", false},
		{"cluster", fmt.Errorf("plain"), "", "", false},
	} {
		name, value, reason, ok := flagOf(c.cmd, c.err)
		if name != c.name || ok != c.ok || (ok && (value != c.value || reason != "must be good")) {
			t.Errorf("flagOf(%s, %v) = %q, %q, %q, %v; want %q, %q, %v", c.cmd, c.err, name, value, reason, ok, c.name, c.value, c.ok)
		}
	}
}

// TestIsTerminal: a character device counts as a terminal (/dev/null is
// one on every Unix), a buffer, a regular file and a closed file do not.
func TestIsTerminal(t *testing.T) {
	t.Parallel()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	regular, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	closed, err := os.Create(filepath.Join(t.TempDir(), "g"))
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	defer regular.Close()
	for _, c := range []struct {
		name string
		w    io.Writer
		want bool
	}{
		{"/dev/null", null, true}, {"buffer", new(bytes.Buffer), false},
		{"regular file", regular, false}, {"closed file", closed, false},
	} {
		if got := isTerminal(c.w); got != c.want {
			t.Errorf("isTerminal(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

// lockedBuffer is a buffer the bar's goroutine may write to.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestProgress: a disabled bar, or one of no work, starts nothing and
// prints nothing; an enabled one runs until done. The bar stays hidden
// before progressDelay (2 s) and is drawn from then on: 10 of 40 steps is
// a quarter of the 40 columns filled, " 25%", and the elapsed time; done
// clears the line it drew.
func TestProgress(t *testing.T) {
	t.Parallel()
	var quiet bytes.Buffer
	for _, c := range []struct {
		enabled bool
		total   int
	}{{false, 40}, {true, 0}} {
		p := newProgress(&quiet, c.enabled, c.total)
		if p.stop != nil {
			t.Errorf("newProgress(enabled %v, total %d) started the bar", c.enabled, c.total)
		}
		p.add(3)
		p.done()
	}
	if quiet.Len() != 0 {
		t.Errorf("a bar that does not draw printed %q", quiet.String())
	}

	var out lockedBuffer
	p := newProgress(&out, true, 40)
	if p.stop == nil {
		t.Fatal("an enabled bar with work did not start")
	}
	p.add(10)
	p.tick(p.start.Add(1999 * time.Millisecond))
	if got := out.String(); got != "" {
		t.Errorf("bar drawn before 2 s: %q", got)
	}
	p.tick(p.start.Add(2 * time.Second))
	want := "\r[" + strings.Repeat("=", 10) + strings.Repeat(" ", 30) + "]  25%   2.0s"
	if got := out.String(); got != want {
		t.Errorf("bar at 10/40 after 2 s: %q, want %q", got, want)
	}
	p.add(30)
	p.tick(p.start.Add(12500 * time.Millisecond))
	want += "\r[" + strings.Repeat("=", 40) + "] 100%  12.5s"
	if got := out.String(); got != want {
		t.Errorf("bar at 40/40 after 12.5 s: %q, want %q", got, want)
	}
	p.done()
	want += "\r" + strings.Repeat(" ", 60) + "\r"
	if got := out.String(); got != want {
		t.Errorf("done did not clear the line: %q, want %q", got, want)
	}
}

// TestRunBar: the cluster command's bar is drawn on a terminal only, never
// with -q, and counts exactly one step per job completion of every run:
// after runAll it stands at 100%.
func TestRunBar(t *testing.T) {
	t.Parallel()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	for _, c := range []struct {
		w     io.Writer
		quiet bool
		drawn bool
	}{{new(bytes.Buffer), false, false}, {null, true, false}, {null, false, true}} {
		bar := runBar(c.w, c.quiet, 3, 5)
		if (bar.stop != nil) != c.drawn || bar.total != 15 {
			t.Errorf("runBar(%T, quiet %v, 3, 5): started %v, total %d; want %v, 15", c.w, c.quiet, bar.stop != nil, bar.total, c.drawn)
		}
		bar.done()
	}

	f, err := parseClusterFlags([]string{"-jobs", "40", "-slots", "8", "-policies", "hopper,fair"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, err := f.workload()
	if err != nil {
		t.Fatal(err)
	}
	specs := withBaselines(f.specs)
	cfgs, err := f.configs(specs)
	if err != nil {
		t.Fatal(err)
	}
	bar := runBar(io.Discard, true, len(specs), len(jobs))
	if _, err := runAll(jobs, specs, cfgs, bar); err != nil {
		t.Fatal(err)
	}
	if got, want := bar.count.Load(), int64(3*40); got != want || bar.total != want {
		t.Errorf("bar after 3 runs of 40 jobs: %d of %d steps, want %d of %d", got, bar.total, want, want)
	}
}

// TestClusterFlagBounds: the cluster command's own ranges, ends included
// as their messages state them: -jobs in [1, sim.MaxSynthJobs], -budget in
// [0, 1), each -beta in (1, 1e6]. Only parsed: nothing runs.
func TestClusterFlagBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"-jobs", "1"}, true},
		{[]string{"-jobs", "0"}, false},
		{[]string{"-jobs", strconv.Itoa(sim.MaxSynthJobs)}, true},
		{[]string{"-jobs", strconv.Itoa(sim.MaxSynthJobs + 1)}, false},
		{[]string{"-budget", "0"}, true},
		{[]string{"-budget", "-0.01"}, false},
		{[]string{"-budget", "0.99"}, true},
		{[]string{"-budget", "1"}, false},
	} {
		var errOut bytes.Buffer
		_, err := parseClusterFlags(c.args, &errOut)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v (%q), want ok %v", c.args, err, errOut.String(), c.ok)
		}
	}
	for _, c := range []struct {
		beta string
		ok   bool
	}{
		{"1", false}, {"1.0000001", true}, {"1e6", true}, {"1000000.1", false},
		{"2, 1e6", true}, {"2,0.5", false}, {"x", false},
	} {
		gs, err := parseGroups(c.beta)
		if (err == nil) != c.ok {
			t.Errorf("parseGroups(%q): %v, %v; want ok %v", c.beta, gs, err, c.ok)
		}
	}
}

// TestWriteHeader: the two lines above the table, worked by hand: the
// jobs, tasks (summed over every phase), slots, description and seed; then
// the rule, the estimates — for observed, the heartbeat, 0 meaning
// sim.DefaultHeartbeat — the detection delay, the machine service only
// when chosen, and the time unit.
func TestWriteHeader(t *testing.T) {
	t.Parallel()
	jobs := []sim.Job{
		{Phases: []sim.Phase{{Tasks: 2}, {Tasks: 3}}},
		{Phases: []sim.Phase{{Tasks: 4}}},
	}
	for _, c := range []struct {
		args []string
		spec string
	}{
		{nil, fmt.Sprintf("thesis rule, progress estimates, judged after %g·t_new; times in units of the mean task duration", sim.DefaultDetect)},
		{[]string{"-service", "machine", "-cv", "0.7", "-rule", "mantri", "-detect", "0.5"},
			"mantri rule, progress estimates, judged after 0.5·t_new; machine service variability, CV 0.7; times in units of the mean task duration"},
		{[]string{"-cv", "0.7"}, fmt.Sprintf("thesis rule, progress estimates, judged after %g·t_new; times in units of the mean task duration", sim.DefaultDetect)},
		{[]string{"-estimator", "oracle"}, fmt.Sprintf("thesis rule, oracle estimates, judged after %g·t_new; times in units of the mean task duration", sim.DefaultDetect)},
		{[]string{"-estimator", "observed", "-heartbeat", "0"},
			fmt.Sprintf("thesis rule, observed progress (reports every %g·t_new, copies slowing part-way), judged after %g·t_new; times in units of the mean task duration", sim.DefaultHeartbeat, sim.DefaultDetect)},
		{[]string{"-estimator", "observed", "-heartbeat", "0.3", "-trace", "t.csv", "-slots", "7", "-seed", "9"},
			fmt.Sprintf("thesis rule, observed progress (reports every 0.3·t_new, copies slowing part-way), judged after %g·t_new; times in the trace's time unit", sim.DefaultDetect)},
	} {
		f, err := parseClusterFlags(c.args, io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		var out bytes.Buffer
		f.writeHeader(&out, jobs, "desc")
		want := fmt.Sprintf("2 jobs, 9 tasks on %d slots (desc; seed %d)\nspeculation: %s\n\n", *f.slots, *f.seed, c.spec)
		if out.String() != want {
			t.Errorf("%q: header\n%q\nwant\n%q", c.args, out.String(), want)
		}
	}
}

// TestCompareBins: each row's job-size bins are sim.DefaultBins' — 1–5,
// 6–20, 21–100 and the open bin above — their jobs adding up to the
// workload's, the open bin's upper end null.
func TestCompareBins(t *testing.T) {
	t.Parallel()
	rows := clusterRows(t, small)
	for _, r := range rows {
		if len(r.Bins) != len(sim.DefaultBins)+1 {
			t.Fatalf("%s: %d bins, want %d", r.Policy, len(r.Bins), len(sim.DefaultBins)+1)
		}
		lo, jobs := 1, 0
		for i, b := range r.Bins {
			jobs += b.Jobs
			if b.Lo != lo {
				t.Errorf("%s bin %d starts at %d, want %d", r.Policy, i, b.Lo, lo)
			}
			if i < len(sim.DefaultBins) {
				if b.Hi == nil || *b.Hi != sim.DefaultBins[i] {
					t.Errorf("%s bin %d: upper end %v, want %d", r.Policy, i, b.Hi, sim.DefaultBins[i])
				}
				lo = sim.DefaultBins[i] + 1
			} else if b.Hi != nil {
				t.Errorf("%s: open bin with upper end %d", r.Policy, *b.Hi)
			}
			if (b.Gain == nil) != (b.Jobs == 0) {
				t.Errorf("%s bin %d: %d jobs, gain %v", r.Policy, i, b.Jobs, b.Gain)
			}
		}
		if jobs != 300 {
			t.Errorf("%s: bins hold %d jobs, want 300", r.Policy, jobs)
		}
	}
}

// TestWriteTableBins: the by-size table of two hand-made rows (tabwriter
// right-aligned, each cell padded by two blanks): a closed
// bin "lo–hi (n jobs)", the open one ">lo−1 (n jobs)", a gain as a
// percentage with one decimal and a missing one as "–"; no section without
// bins, nor for no rows.
func TestWriteTableBins(t *testing.T) {
	t.Parallel()
	hi, g1, g2 := 5, 0.25, -0.125
	rows := []clusterResult{
		{Policy: "a", Bins: []binOut{{Lo: 1, Hi: &hi, Jobs: 3, Gain: &g1}, {Lo: 6, Jobs: 2, Gain: &g2}}},
		{Policy: "bb", Bins: []binOut{{Lo: 1, Hi: &hi, Jobs: 3}, {Lo: 6, Jobs: 2, Gain: &g1}}},
	}
	var out bytes.Buffer
	writeTable(&out, rows)
	want := "gain over SRPT by job size (tasks):\n" +
		"  policy  1–5 (3 jobs)  >5 (2 jobs)\n" +
		"       a         25.0%       -12.5%\n" +
		"      bb             –        25.0%\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("by-size table:\n%s\nwant it to hold\n%s", out.String(), want)
	}
	for _, rs := range [][]clusterResult{nil, {{Policy: "a"}}} {
		out.Reset()
		writeTable(&out, rs)
		if strings.Contains(out.String(), "by job size") {
			t.Errorf("by-size section for rows %v:\n%s", rs, out.String())
		}
	}
	for x, want := range map[float64]string{0.25: "25.0%", -0.5: "-50.0%", 0: "0.0%", 0.1234: "12.3%", 2: "200.0%", math.NaN(): "–"} {
		if got := pct(x); got != want {
			t.Errorf("pct(%g) = %q, want %q", x, got, want)
		}
	}
}
