package volcano

import (
	"testing"

	"volcano.sh/volcano/pkg/scheduler/framework"
)

// TestRegisteredAtInit: importing the package registers the plug-in in
// Volcano's registry under "hopper" (the name a volcano-scheduler.conf
// lists), and the builder found there builds this plug-in with its
// arguments.
func TestRegisteredAtInit(t *testing.T) {
	if hopperAtInit == nil {
		t.Fatalf("no plug-in builder registered under %q at init", PluginName)
	}
	built := hopperAtInit(framework.Arguments{ArgEpsilon: 0.25, ArgBeta: 1.3})
	if built == nil || built.Name() != "hopper" {
		t.Fatalf("the registered builder built %v, want the hopper plug-in", built)
	}
	p, ok := built.(*Plugin)
	if !ok {
		t.Fatalf("the registered builder built a %T, want *Plugin", built)
	}
	if p.eps != 0.25 || p.beta != 1.3 {
		t.Errorf("built %v: the arguments ε = 0.25, β = 1.3 were not applied", p)
	}
}
