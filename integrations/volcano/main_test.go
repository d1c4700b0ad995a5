package volcano

import (
	"os"
	"testing"

	"volcano.sh/volcano/cmd/scheduler/app/options"
)

// TestMain sets Volcano's scheduler options to their defaults, as Volcano's
// own plug-in tests do: the allocate action reads them.
func TestMain(m *testing.M) {
	options.Default()
	os.Exit(m.Run())
}
