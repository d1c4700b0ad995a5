package volcano

import (
	"os"
	"testing"

	"volcano.sh/volcano/cmd/scheduler/app/options"
	"volcano.sh/volcano/pkg/scheduler/framework"
)

// registeredAtInit is the builder Volcano's registry held under PluginName
// before any test ran: the harness's Close empties the registry
// (framework.CleanupPluginBuilders), so it is read once, here.
var registeredAtInit framework.PluginBuilder

// TestMain notes what the package's init registered, then sets Volcano's
// scheduler options to their defaults, as Volcano's own plug-in tests do:
// the allocate action reads them.
func TestMain(m *testing.M) {
	registeredAtInit, _ = framework.GetPluginBuilder(PluginName)
	options.Default()
	os.Exit(m.Run())
}
