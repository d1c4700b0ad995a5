package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/specsched/specsched/sim"
)

// TestPolicyCombinations: -policies takes allocator+rule combinations
// beside the presets; a combination that is a preset runs as the preset,
// under its name, and the rows of a combination are those of a run of
// sim.Simulate with the same allocator and rule.
func TestPolicyCombinations(t *testing.T) {
	t.Parallel()
	args := []string{"-jobs", "60", "-slots", "20", "-q", "-json", "-policies", "srpt+besteffort, hopper+besteffort,HOPPER+speculate,fair+plan"}
	code, out, errOut := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []clusterResult
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Policy)
	}
	if got, want := strings.Join(names, ","), "srpt-besteffort,hopper+besteffort,hopper,fair+plan"; got != want {
		t.Fatalf("rows %s, want %s", got, want)
	}
	// The same rows from the presets and a direct run of the combination.
	_, presets, _ := runCmd(t, "-jobs", "60", "-slots", "20", "-q", "-json", "-policies", "srpt-besteffort,hopper")
	var want []clusterResult
	if err := json.Unmarshal([]byte(presets), &want); err != nil {
		t.Fatal(err)
	}
	if rows[0].Mean != want[0].Mean || rows[2].Mean != want[1].Mean || rows[2].Copies != want[1].Copies {
		t.Errorf("combinations that are presets differ from them: %+v / %+v", rows, want)
	}
	f, err := parseClusterFlags([]string{"-jobs", "60", "-slots", "20"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, err := f.workload()
	if err != nil {
		t.Fatal(err)
	}
	cfg := f.config(sim.SRPT)
	cfg.Allocator, cfg.Rule = &sim.HopperAllocator{}, &sim.BestEffortRule{}
	r, err := sim.Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s := sim.Summarize(r); s.Mean != rows[1].Mean || s.Copies != rows[1].Copies {
		t.Errorf("hopper+besteffort: mean %g, %d copies; a direct run gives %g, %d", rows[1].Mean, rows[1].Copies, s.Mean, s.Copies)
	}
}

// TestPolicyNamesAndFlagErrors: bad combinations name what is unknown; a
// combination with the budgeted rule needs two slots; the help lists the
// allocators and rules; a sim.Config range error names the flag that set
// the field.
func TestPolicyNamesAndFlagErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-policies", "hopper+magic"}, `unknown in-job rule "magic"`},
		{[]string{"-policies", "magic+launch"}, `unknown allocator "magic"`},
		{[]string{"-policies", "hopper+"}, `unknown in-job rule ""`},
		{[]string{"-jobs", "3", "-slots", "1", "-policies", "hopper-eps+budgeted"}, "hopper-eps+budgeted needs at least 2 slots"},
		{[]string{"-slots", "0"}, "-slots 0: must lie in [1, 2^24]"},
		{[]string{"-slots", "16777217"}, "-slots 16777217: must lie in [1, 2^24]"},
		{[]string{"-eps", "NaN"}, "-eps NaN: must lie in [0, 1]"},
		{[]string{"-detect", "2e6"}, "-detect 2000000: must lie in [0, 1e6]"},
		{[]string{"-service", "machine", "-cv", "101"}, "-cv 101: must lie in (0, 100]"},
	} {
		code, _, errOut := runCmd(t, append(tc.args, "-q")...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("specsim %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
	// -cv is checked under the copy service too, which ignores it (Config
	// checks ServiceCV only under the machine service): a bad value is a
	// mistake whatever the service.
	if code, _, errOut := runCmd(t, "-cv", "0", "-jobs", "5", "-q", "-policies", "srpt"); code != 2 || !strings.Contains(errOut, "-cv 0: must lie in (0, 100]") {
		t.Errorf("-cv 0 with copy service: exit %d: %s; want 2 naming -cv", code, errOut)
	}
	_, help, _ := runCmd(t, "cluster", "-h")
	for _, name := range append(sim.AllocatorNames(), sim.RuleNames()...) {
		if !strings.Contains(help, name) {
			t.Errorf("cluster -h does not name %q", name)
		}
	}
}

// TestRunOrder: the runs that copy start first, each part in the order
// given; written out by hand for presets and combinations.
func TestRunOrder(t *testing.T) {
	t.Parallel()
	specs := []policySpec{
		presetSpec(sim.Fair), presetSpec(sim.Hopper), presetSpec(sim.SRPT),
		{name: "fair+late", alloc: "fair", rule: "late"}, presetSpec(sim.SREWC),
		{name: "hopper+launch", alloc: "hopper", rule: "launch"}, presetSpec(sim.SRPTBestEffort),
	}
	want := []int{1, 3, 4, 6, 0, 2, 5}
	if got := runOrder(specs); !slices.Equal(got, want) {
		t.Fatalf("runOrder = %v, want %v", got, want)
	}
	if got := runOrder(nil); len(got) != 0 {
		t.Fatalf("runOrder(nil) = %v, want none", got)
	}
}
