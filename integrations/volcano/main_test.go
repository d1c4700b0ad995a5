package volcano

import (
	"os"
	"testing"

	"volcano.sh/volcano/cmd/scheduler/app/options"
	"volcano.sh/volcano/pkg/scheduler/framework"
)

// Volcano's plug-in registry as the package's and Volcano's init left it,
// before any test ran: the harness's Close empties the registry
// (framework.CleanupPluginBuilders), so it is read once, in TestMain.
var (
	// hopperAtInit is the builder registered under PluginName.
	hopperAtInit framework.PluginBuilder
	// registeredAtInit are the names of examplePlugins registered.
	registeredAtInit []string
)

// TestMain notes what the package's init registered, then sets Volcano's
// scheduler options to their defaults, as Volcano's own plug-in tests do:
// the allocate action reads them.
func TestMain(m *testing.M) {
	hopperAtInit, _ = framework.GetPluginBuilder(PluginName)
	for _, name := range examplePlugins {
		if _, ok := framework.GetPluginBuilder(name); ok {
			registeredAtInit = append(registeredAtInit, name)
		}
	}
	options.Default()
	os.Exit(m.Run())
}
