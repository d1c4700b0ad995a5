package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specsched/specsched/sim"
)

const sampleSwim = "../../internal/testdata/swim/sample.tsv"

// TestSwimRun: -swim runs the excerpt under every policy and the header
// says what ran, in seconds. The excerpt has 613 tasks at 64 MiB per task
// (Σ ⌈bytes/64 MiB⌉ over map input and shuffle, one task for each of its
// two jobs without bytes; computed from the file by hand, in Python).
func TestSwimRun(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "-swim", sampleSwim, "-block", "64", "-slots", "40", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"20 jobs, 613 tasks on 40 slots (SWIM day sample.tsv: 64 MiB per task, 20 MiB/s per task, β 1.1,1.4,1.8; seed 1)\n",
		"; times in seconds\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, p := range sim.Policies() {
		if !strings.Contains(out, " "+p.String()+" ") {
			t.Errorf("table lacks %v", p)
		}
	}
	// -plot: the time axis is in seconds.
	svg := filepath.Join(t.TempDir(), "cdf.svg")
	if code, _, errOut := runCmd(t, "-swim", sampleSwim, "-block", "64", "-slots", "40", "-q", "-policies", "hopper", "-plot", svg); code != 0 {
		t.Fatalf("-plot: exit %d: %s", code, errOut)
	}
	if data, err := os.ReadFile(svg); err != nil || !strings.Contains(string(data), ">completion time (seconds)<") {
		t.Errorf("the plot lacks the axis label in seconds (%v)", err)
	}
	// -json: one row per policy, the same numbers for the same seed.
	_, js, _ := runCmd(t, "-swim", sampleSwim, "-block", "64", "-slots", "40", "-q", "-json", "-policies", "hopper")
	_, js2, _ := runCmd(t, "-swim", sampleSwim, "-block", "64", "-slots", "40", "-q", "-json", "-policies", "hopper")
	var rows []clusterResult
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 || rows[0].Jobs != 20 || js != js2 {
		t.Errorf("-json: %v, %d rows; runs equal: %v\n%s", err, len(rows), js == js2, js)
	}
}

// TestSwimCluster: a file named for FB-2009 or FB-2010 gets that cluster's
// block size and slots (machines × 4) unless -block and -slots say
// otherwise.
func TestSwimCluster(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(sampleSwim)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"FB-2009-excerpt.tsv", nil, "on 2400 slots (SWIM day FB-2009-excerpt.tsv (FB-2009): 64 MiB per task"},
		{"fb-2010-excerpt.tsv", nil, "on 12000 slots (SWIM day fb-2010-excerpt.tsv (FB-2010): 128 MiB per task"},
		{"fb-2010-excerpt.tsv", []string{"-block", "256", "-slots", "30", "-rate", "5"}, "on 30 slots (SWIM day fb-2010-excerpt.tsv (FB-2010): 256 MiB per task, 5 MiB/s per task"},
	} {
		file := filepath.Join(dir, tc.name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-swim", file, "-q", "-policies", "srpt"}, tc.extra...)
		code, out, errOut := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("specsim %v: exit %d %s; output lacks %q:\n%s", args, code, errOut, tc.want, out)
		}
	}
}

// TestSwimBadInput: flags that do not fit -swim exit 2; an unreadable or
// malformed file exits 1 naming the file and line.
func TestSwimBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "FB-2009-bad.tsv")
	if err := os.WriteFile(bad, []byte("job0\t1\t1\t2\t3\t4\njob1\t2\t1\t-2\t3\t4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "FB-2009-empty.tsv")
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-block", "64"}, 2, "-block describes a SWIM workload and needs -swim"},
		{[]string{"-rate", "5"}, 2, "-rate describes a SWIM workload"},
		{[]string{"-swim", sampleSwim}, 2, "tells neither FB-2009 nor FB-2010"},
		{[]string{"-swim", sampleSwim, "-block", "64"}, 2, "give -block and -slots"},
		{[]string{"-swim", bad, "-trace", bad}, 2, "-trace cannot be combined with -swim"},
		{[]string{"-swim", bad, "-jobs", "5"}, 2, "-jobs cannot be combined"},
		{[]string{"-swim", bad, "-load", "0.5"}, 2, "-load cannot be combined"},
		{[]string{"-swim", bad, "-block", "0"}, 2, "-block 0"},
		{[]string{"-swim", bad, "-rate", "-1"}, 2, "-rate -1"},
		{[]string{"-swim", bad, "-beta", "0.5"}, 2, "-beta"},
		{[]string{"-swim", bad, "-q"}, 1, "FB-2009-bad.tsv: sim.ParseSwim: line 2: map_input \"-2\""},
		{[]string{"-swim", empty, "-q"}, 1, "no jobs"},
		{[]string{"-swim", filepath.Join(dir, "FB-2009-missing.tsv"), "-q"}, 1, "FB-2009-missing.tsv"},
	} {
		code, _, errOut := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("specsim %v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestSwimFacebookDay: with the Facebook samples present (../shared/data/swim
// from the module root), FB-2009 loads its 5 894 jobs on 2 400 slots; the
// 738 128 tasks were counted from the file with awk (Σ ⌈bytes/64 MiB⌉ over
// map input and shuffle, plus 86 jobs without bytes).
func TestSwimFacebookDay(t *testing.T) {
	t.Parallel()
	file := filepath.Join("..", "..", "..", "shared", "data", "swim", "FB-2009_samples_24_times_1hr_0.tsv")
	if _, err := os.Stat(file); err != nil {
		t.Skipf("the SWIM samples are not at ../shared/data/swim from the module root: %v", err)
	}
	code, out, errOut := runCmd(t, "-swim", file, "-q", "-policies", "srpt")
	if code != 0 || !strings.Contains(out, "5894 jobs, 738128 tasks on 2400 slots") {
		t.Errorf("exit %d %s:\n%s", code, errOut, out)
	}
}

// TestSwimHelp: the cluster command's help lists the -swim flags.
func TestSwimHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(t, "cluster", "-h")
	for _, f := range []string{"swim", "block", "rate"} {
		if code != 0 || !strings.Contains(out, "\n  -"+f+" ") {
			t.Errorf("cluster -h (exit %d) lacks -%s", code, f)
		}
	}
}
