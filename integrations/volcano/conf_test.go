package volcano

import (
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"volcano.sh/volcano/pkg/scheduler"
	// Volcano's actions and built-in plug-ins register themselves, as in
	// vc-scheduler.
	_ "volcano.sh/volcano/pkg/scheduler/actions"
	_ "volcano.sh/volcano/pkg/scheduler/plugins"
)

// examplePlugins are the plug-ins examples/volcano-scheduler.conf lists, in
// its order; TestMain notes which of them Volcano's registry held at init.
var examplePlugins = []string{"priority", "gang", "conformance", "hopper", "predicates", "nodeorder"}

// TestExampleConf parses examples/volcano-scheduler.conf with Volcano's own
// loader (scheduler.UnmarshalSchedulerConf, what vc-scheduler runs on
// --scheduler-conf): its actions exist, every plug-in it names is
// registered in a binary that imports Volcano's plug-ins and this package,
// and hopper's arguments reach the plug-in as written, without a warning.
func TestExampleConf(t *testing.T) {
	raw, err := os.ReadFile("examples/volcano-scheduler.conf")
	if err != nil {
		t.Fatal(err)
	}
	actions, tiers, _, _, err := scheduler.UnmarshalSchedulerConf(string(raw))
	if err != nil {
		t.Fatalf("Volcano's loader: %v", err)
	}
	var actionNames []string
	for _, action := range actions {
		actionNames = append(actionNames, action.Name())
	}
	if diff := cmp.Diff([]string{"enqueue", "allocate", "backfill"}, actionNames); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	var names []string
	found := 0
	for _, tier := range tiers {
		for _, option := range tier.Plugins {
			names = append(names, option.Name)
			if !slices.Contains(registeredAtInit, option.Name) {
				t.Errorf("plug-in %q is not registered at init", option.Name)
			}
			if option.Name != PluginName {
				continue
			}
			found++
			for _, enabled := range []*bool{option.EnabledJobOrder, option.EnabledTaskOrder, option.EnabledJobStarving, option.EnabledPreemptable, option.EnabledReclaimable, option.EnabledAllocatable} {
				if enabled == nil || !*enabled {
					t.Errorf("hopper's hooks are not all enabled by Volcano's defaults: %+v", option)
					break
				}
			}
			sink := &logSink{}
			p := newPlugin(option.Arguments, sink.logf)
			if p.eps != 0.1 || p.beta != 1.5 || p.minFitSamples != 20 || len(sink.lines) != 0 {
				t.Errorf("arguments %v built %v with warnings %q; want ε = 0.1, β = 1.5, minFitSamples = 20", option.Arguments, p, sink.lines)
			}
		}
	}
	if found != 1 {
		t.Errorf("hopper listed %d times, want once", found)
	}
	if diff := cmp.Diff(examplePlugins, names); diff != "" {
		t.Errorf("plug-ins (-want +got):\n%s", diff)
	}
}
