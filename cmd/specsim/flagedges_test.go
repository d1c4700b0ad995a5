package main

// Tests of the overlap, probe and -swim flags' edges that the mutation
// pass of issue 19 found unchecked: each range's ends, as the messages
// state them, and the probe options against package probe called directly.

import (
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/specsched/specsched/probe"
	"github.com/specsched/specsched/sim"
)

// TestOverlapFlagBounds: -jobs ∈ [1, 2^24], -k ≥ 0, -load ∈ (0, 1), checked
// in that order, so a -jobs or -k at its end followed by a bad -load is
// reported as the -load (nothing runs); -jobs 1 runs. The cases at -jobs
// 2^24 come last, and only if -load 1.5 was rejected with few jobs: a
// wrong load check would run 2^24 jobs for minutes.
func TestOverlapFlagBounds(t *testing.T) {
	t.Parallel()
	type flagCase struct {
		args []string
		code int
		err  string
	}
	check := func(cases []flagCase) {
		for _, c := range cases {
			code, _, errOut := runCmd(t, append([]string{"overlap"}, c.args...)...)
			if code != c.code || !strings.Contains(errOut, c.err) || (c.err == "") != (errOut == "") {
				t.Errorf("overlap %q: exit %d, %q; want %d, %q", c.args, code, errOut, c.code, c.err)
			}
		}
	}
	check([]flagCase{
		{[]string{"-jobs", "1", "-json"}, 0, ""},
		{[]string{"-jobs", "0"}, 2, "-jobs 0: must lie in [1, 2^24]"},
		{[]string{"-jobs", "1", "-k", "0", "-load", "0.5", "-json"}, 0, ""},
		{[]string{"-jobs", "1", "-k", "-1", "-load", "1"}, 2, "-k -1: must be ≥ 0"},
		{[]string{"-jobs", "1", "-load", "0"}, 2, "-load 0: must lie in (0, 1)"},
		{[]string{"-jobs", "1", "-load", "1"}, 2, "-load 1: must lie in (0, 1)"},
		{[]string{"-jobs", "1", "-load", "1.5"}, 2, "-load 1.5: must lie in (0, 1)"},
		{[]string{"-jobs", "1", "-load", "0.999", "-json"}, 0, ""},
	})
	if t.Failed() {
		return
	}
	check([]flagCase{
		{[]string{"-jobs", strconv.Itoa(1 << 24), "-k", "0", "-load", "1.5"}, 2, "-load 1.5: must lie in (0, 1)"},
		{[]string{"-jobs", strconv.Itoa(1<<24 + 1), "-load", "1.5"}, 2, "-jobs 16777217: must lie in [1, 2^24]"},
	})
}

// TestProbeShortPartition: -short-partition sets the short partition of
// Eagle and Hawk only: each row is the mean completion time probe.Simulate
// gives, called directly, on the same workload with that setting for Eagle
// and Hawk and probe.DefaultConfig's for Sparrow and Hopper. -jobs 1 is
// enough for a run.
func TestProbeShortPartition(t *testing.T) {
	t.Parallel()
	const jobs, nodes, load, frac = 60, 40, 0.9, 0.3
	_, rows := probeJSON(t, "-jobs", strconv.Itoa(jobs), "-nodes", strconv.Itoa(nodes), "-load", "0.9",
		"-short-partition", "0.3", "-policies", "eagle,hawk,sparrow,hopper")
	c := probe.GoogleLike(jobs, nodes, load)
	workload, err := probe.Synthesize(c, rand.New(rand.NewPCG(1, 0x5eed)))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []probe.Scheduler{probe.Eagle, probe.Hawk, probe.Sparrow, probe.Hopper} {
		cfg := probe.DefaultConfig(p, nodes, c.Threshold())
		if p == probe.Eagle || p == probe.Hawk {
			cfg.ShortFraction = frac
		}
		r, err := probe.Simulate(workload, cfg, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		mean := 0.0
		for _, x := range r.Completion {
			mean += x
		}
		mean /= float64(len(r.Completion))
		if rows[i].Policy != p.String() || math.Abs(rows[i].Mean-mean) > 1e-9*mean {
			t.Errorf("%s: mean %g, want %v's %g", rows[i].Policy, rows[i].Mean, p, mean)
		}
	}
	if code, out, errOut := runCmd(t, "probe", "-jobs", "1", "-json"); code != 0 || !strings.Contains(out, `"jobs": 1,`) {
		t.Errorf("probe -jobs 1: exit %d, %s%s", code, out, errOut)
	}
}

// TestProbeHeaderAndTraceErrors: -int-seconds is named in the settings
// line after the rest of it; a -write-trace file that cannot be written
// (/dev/full: every write fails) is an error, exit 1.
func TestProbeHeaderAndTraceErrors(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "probe", "-jobs", "20", "-nodes", "20", "-int-seconds", "-policies", "sparrow")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[1], "short partition ") ||
		!strings.HasSuffix(lines[1], "; durations truncated to whole seconds; model paper") {
		t.Errorf("probe -int-seconds: exit %d, %s%s", code, out, errOut)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	code, out, errOut = runCmd(t, "probe", "-jobs", "20", "-nodes", "20", "-write-trace", "/dev/full", "-policies", "sparrow")
	if code != 1 || out != "" || !strings.Contains(errOut, "no space left on device") {
		t.Errorf("probe -write-trace /dev/full: exit %d, stdout %q, stderr %q; want exit 1 and ENOSPC", code, out, errOut)
	}
}

// TestSwimFlagBounds: -block ∈ (0, 2^30] MiB and -rate positive with
// -rate·MiB ≤ 1e15 bytes/s, ends included, and what they set:
// BlockSize = -block·2^20 bytes, Rate = -rate·2^20. 1e15/2^20 =
// 953674316.40625 is exact in binary. A file whose name tells neither year
// needs both -block and -slots. Only parsed: nothing runs.
func TestSwimFlagBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args        []string
		ok          bool
		block       int64
		rate        float64
		slots       int
		clusterName string
	}{
		{[]string{"-swim", "FB-2009.tsv"}, true, 64 << 20, sim.SwimRate, sim.FB2009Machines * sim.SwimSlotsPerMachine, "FB-2009"},
		{[]string{"-swim", "fb2010.tsv", "-slots", "9"}, true, 128 << 20, sim.SwimRate, 9, "FB-2010"},
		{[]string{"-swim", "x-2009.tsv", "-block", "1073741824"}, true, 1 << 50, sim.SwimRate, sim.FB2009Machines * sim.SwimSlotsPerMachine, "FB-2009"},
		{[]string{"-swim", "x-2009.tsv", "-block", "2147483648"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "x-2009.tsv", "-block", "0"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "x-2009.tsv", "-rate", "0"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "x-2009.tsv", "-rate", "953674316.40625"}, true, 64 << 20, 1e15, sim.FB2009Machines * sim.SwimSlotsPerMachine, "FB-2009"},
		{[]string{"-swim", "x-2009.tsv", "-rate", "953674317"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "x-2009.tsv", "-rate", "1e15"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "day.tsv", "-block", "2", "-slots", "5"}, true, 2 << 20, sim.SwimRate, 5, ""},
		{[]string{"-swim", "day.tsv", "-block", "2"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "day.tsv", "-slots", "5"}, false, 0, 0, 0, ""},
		{[]string{"-swim", "day.tsv"}, false, 0, 0, 0, ""},
	} {
		f, err := parseClusterFlags(c.args, io.Discard)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok %v", c.args, err, c.ok)
			continue
		}
		if !c.ok {
			continue
		}
		if f.swim.rule.BlockSize != c.block || f.swim.rule.Rate != c.rate || *f.slots != c.slots || f.swim.cluster != c.clusterName {
			t.Errorf("%q: block %d, rate %g, %d slots, cluster %q; want %d, %g, %d, %q", c.args,
				f.swim.rule.BlockSize, f.swim.rule.Rate, *f.slots, f.swim.cluster, c.block, c.rate, c.slots, c.clusterName)
		}
	}
}
