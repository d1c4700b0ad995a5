package specbase_test

import (
	"testing"

	"github.com/specsched/specsched/internal/testutil"
)

// TestMain: SPECSCHED_RAPID_SHRINKTIME caps rapid's shrinking in mutation
// runs (testutil.Main); unset, the tests run as usual.
func TestMain(m *testing.M) { testutil.Main(m) }
