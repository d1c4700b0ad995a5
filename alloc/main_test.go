package alloc_test

import (
	"flag"
	"os"
	"testing"
)

// TestMain lets a mutation run (many failing runs in a row) cap rapid's
// minimisation of each failure: SPECSCHED_RAPID_SHRINKTIME=1s sets
// -rapid.shrinktime when the flag is not given. Unset, nothing changes.
func TestMain(m *testing.M) {
	flag.Parse()
	if d := os.Getenv("SPECSCHED_RAPID_SHRINKTIME"); d != "" {
		given := false
		flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.shrinktime" })
		if !given {
			_ = flag.Set("rapid.shrinktime", d)
		}
	}
	os.Exit(m.Run())
}
