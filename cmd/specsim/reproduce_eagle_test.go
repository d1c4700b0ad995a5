package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/probe"
)

// TestEagleCells: a class's percentiles, in order.
func TestEagleCells(t *testing.T) {
	t.Parallel()
	s := probe.Summary{Short: specsched.Summary{P50: 1, P90: 2, P99: 3}, Long: specsched.Summary{P50: 4, P90: 5, P99: 6}}
	if got := eagleCells(s, false); got != [3]float64{1, 2, 3} {
		t.Errorf("short: %v", got)
	}
	if got := eagleCells(s, true); got != [3]float64{4, 5, 6} {
		t.Errorf("long: %v", got)
	}
}

// TestWriteEagle: on one seed the section has, per load, a row of
// Eagle's percentiles over Hawk's and one over Sparrow's, each cell the
// ratio of the two runs' percentiles recomputed here from probe.Simulate
// on the same workload (to the 3 decimals printed), and the paper's row.
func TestWriteEagle(t *testing.T) {
	t.Parallel()
	r := &reproducer{f: &reproFlags{seeds: 1}}
	var b bytes.Buffer
	if err := r.writeEagle(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "## Eagle vs Hawk vs Sparrow (Delgado et al. §5.2, §5.7: Figures 2, 9)\n\n") {
		t.Fatalf("heading: %.80q", out)
	}
	for _, load := range eagleLoads {
		c := probe.GoogleLike(eagleJobs, eagleNodes, load)
		jobs, err := probe.Synthesize(c, rand.New(rand.NewPCG(1, 0x5eed)))
		if err != nil {
			t.Fatal(err)
		}
		sum := map[probe.Scheduler]probe.Summary{}
		for _, p := range []probe.Scheduler{probe.Eagle, probe.Hawk, probe.Sparrow} {
			res, err := probe.Simulate(jobs, probe.DefaultConfig(p, eagleNodes, c.Threshold()), rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			sum[p] = res.Summarize()
		}
		for _, other := range []probe.Scheduler{probe.Hawk, probe.Sparrow} {
			e, o := sum[probe.Eagle], sum[other]
			want := fmt.Sprintf("| %g | %v | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", load, other,
				e.Short.P50/o.Short.P50, e.Short.P90/o.Short.P90, e.Short.P99/o.Short.P99,
				e.Long.P50/o.Long.P50, e.Long.P90/o.Long.P90, e.Long.P99/o.Long.P99)
			if !strings.Contains(out, want) {
				t.Errorf("no row %q in:\n%s", want, out)
			}
		}
	}
	if rows := regexp.MustCompile(`(?m)^\| [0-9.]+ \| (hawk|sparrow) \|`).FindAllString(out, -1); len(rows) != 2*len(eagleLoads) {
		t.Errorf("%d rows, want %d", len(rows), 2*len(eagleLoads))
	}
	if !strings.Contains(out, "| paper (Fig. 9) | Hawk | ≈0.2 at the highest load") {
		t.Errorf("no paper row")
	}
}
