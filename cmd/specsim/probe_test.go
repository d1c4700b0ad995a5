package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/specsched/specsched/probe"
)

const probeTrace = "../../internal/testdata/probe/sample.trace"

// probeJSON runs specsim probe with args and -json and returns the output
// and the rows it holds.
func probeJSON(t *testing.T, args ...string) (string, []probeRow) {
	t.Helper()
	code, out, errOut := runCmd(t, append(append([]string{"probe"}, args...), "-json")...)
	if code != 0 {
		t.Fatalf("probe %v: exit %d: %s", args, code, errOut)
	}
	var rows []probeRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	return out, rows
}

// TestProbeDefaultsArePaper: the defaults are the paper's model — giving
// -model paper -sampling distinct -thieves general -short-partition 0.17
// explicitly changes no number, and the header gains only the settings
// line (the default header is as before these flags existed).
func TestProbeDefaultsArePaper(t *testing.T) {
	t.Parallel()
	small := []string{"-jobs", "150", "-nodes", "80"}
	explicit := append(slices.Clone(small), "-model", "paper", "-sampling", "distinct", "-thieves", "general", "-short-partition", "0.17")
	a, _ := probeJSON(t, small...)
	if b, _ := probeJSON(t, explicit...); a != b {
		t.Errorf("explicit paper model changed the rows:\n%+v\n%+v", a, b)
	}
	_, out, _ := runCmd(t, append([]string{"probe"}, small...)...)
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || lines[1] != "" || !strings.HasPrefix(lines[0], "150 jobs on 80 nodes (Google-like workload") {
		t.Errorf("default header changed:\n%s", out)
	}
	_, out, _ = runCmd(t, append([]string{"probe"}, explicit...)...)
	want := "short partition 0.17 (eagle, hawk); probe targets distinct; thieves general; model paper"
	if lines = strings.Split(out, "\n"); len(lines) < 3 || lines[1] != want || lines[2] != "" {
		t.Errorf("settings line: got %q; want %q", lines[1], want)
	}
}

// TestProbeModelAuthors: -model authors is -sampling replacement -thieves
// all -int-seconds, and an explicit flag overrides the model's choice.
func TestProbeModelAuthors(t *testing.T) {
	t.Parallel()
	base := []string{"-jobs", "150", "-nodes", "60", "-load", "0.9", "-short-partition", "0.05"}
	model, authorsRows := probeJSON(t, append(slices.Clone(base), "-model", "authors")...)
	if flags, _ := probeJSON(t, append(slices.Clone(base), "-sampling", "replacement", "-thieves", "all", "-int-seconds")...); model != flags {
		t.Errorf("-model authors differs from its three flags:\n%s\n%s", model, flags)
	}
	paper, paperRows := probeJSON(t, base...)
	if model == paper {
		t.Error("-model authors changed nothing")
	}
	override, _ := probeJSON(t, append(slices.Clone(base), "-model", "authors", "-int-seconds=false", "-sampling", "distinct", "-thieves", "general")...)
	if override != paper {
		t.Errorf("flags overriding every choice of -model authors should give the paper's rows:\n%s\n%s", override, paper)
	}
	for _, r := range paperRows {
		if r.StolenByShort != 0 {
			t.Errorf("%s: %d probes stolen by short-partition nodes under general thieves", r.Policy, r.StolenByShort)
		}
	}
	if hawk := authorsRows[1]; hawk.Policy != "hawk" || hawk.StolenByShort == 0 {
		t.Errorf("hawk with every idle node stealing: %+v; want steals by short-partition nodes", hawk)
	}
}

// TestProbePreset: -preset yahoo takes Eagle §5's 2% short partition, the
// authors' 90.5811 s cut-off and Table 2's 4 000 nodes unless -nodes is
// given; -short-partition and -threshold override it.
func TestProbePreset(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "probe", "-trace", probeTrace, "-preset", "yahoo", "-policies", "eagle")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"on 4000 nodes", "cut-off 90.58 s", "short partition 0.02 (eagle, hawk)", "preset yahoo"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "probe", "-trace", probeTrace, "-preset", "google", "-nodes", "30", "-short-partition", "0.1", "-threshold", "50", "-policies", "hawk")
	for _, want := range []string{"on 30 nodes", "cut-off 50 s", "short partition 0.1 ", "preset google"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "probe", "-trace", probeTrace, "-preset", "cloudera", "-policies", "sparrow")
	for _, want := range []string{"on 15000 nodes", "cut-off 272.8 s", "short partition 0.09 "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestProbeFlagErrors: bad values are usage errors (exit 2) naming the
// flag; a short partition that leaves a long job no node is a run error
// (exit 1) naming the flag.
func TestProbeFlagErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-short-partition", "1"}, 2, "-short-partition 1: must lie in [0, 1)"},
		{[]string{"-short-partition", "-0.1"}, 2, "-short-partition -0.1: must lie in [0, 1)"},
		{[]string{"-short-partition", "NaN"}, 2, "-short-partition NaN"},
		{[]string{"-sampling", "random"}, 2, `-sampling "random": want distinct or replacement`},
		{[]string{"-thieves", "short"}, 2, `-thieves "short": want general or all`},
		{[]string{"-model", "hawk"}, 2, `-model "hawk": want paper or authors`},
		{[]string{"-preset", "facebook", "-trace", probeTrace}, 2, `-preset "facebook"`},
		{[]string{"-preset", "yahoo"}, 2, "-preset yahoo describes a trace"},
		{[]string{"-nodes", "1", "-short-partition", "0.5", "-jobs", "20"}, 1, "-short-partition 0.5: leaves no general-partition node"},
	} {
		code, _, errOut := runCmd(t, append([]string{"probe"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("probe %v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestProbeWriteTrace: -write-trace writes the jobs run, and running that
// file as a trace with the same cut-off gives the same numbers (the
// format round-trips exactly); with -int-seconds every duration written is
// whole.
func TestProbeWriteTrace(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "w.tr")
	args := []string{"-jobs", "120", "-nodes", "60", "-policies", "eagle,hawk", "-int-seconds", "-threshold", "40"}
	synthetic, _ := probeJSON(t, append(slices.Clone(args), "-write-trace", file)...)
	again, _ := probeJSON(t, "-trace", file, "-nodes", "60", "-policies", "eagle,hawk", "-threshold", "40")
	if synthetic != again {
		t.Errorf("the written trace runs differently:\n%s\n%s", synthetic, again)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 120 {
		t.Fatalf("%d lines; want 120", len(lines))
	}
	for _, line := range lines {
		for _, f := range strings.Fields(line)[1:] {
			if x, err := strconv.ParseFloat(f, 64); err != nil || x != math.Trunc(x) {
				t.Fatalf("%q in %q is not whole", f, line)
			}
		}
	}
	if code, _, errOut := runCmd(t, "probe", "-jobs", "5", "-write-trace", filepath.Join(t.TempDir(), "no", "such", "dir")); code != 1 || !strings.Contains(errOut, "no such") {
		t.Errorf("unwritable -write-trace: exit %d, %q", code, errOut)
	}
}

// TestProbePolicyNames: the names -policies lists for an unknown policy
// are every policy of package probe: each parses back to its policy, and
// the value after the last is not a policy (its String is not a name).
func TestProbePolicyNames(t *testing.T) {
	t.Parallel()
	for i, p := range probePolicies {
		if int(p) != i {
			t.Errorf("probePolicies[%d] = %v (%d), want the constants in order", i, p, int(p))
		}
		if q, err := probe.ParsePolicy(p.String()); q != p || err != nil {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %v", p.String(), q, err, p)
		}
	}
	next := probe.Scheduler(len(probePolicies))
	if _, err := probe.ParsePolicy(next.String()); err == nil {
		t.Errorf("probe has a policy %v beyond the list %s", next, probePolicyNames())
	}
}
