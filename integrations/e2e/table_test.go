//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/specsched/specsched/alloc"
)

// hopperConf is a volcano-scheduler.conf with hopper after priority, gang and
// conformance (as ../volcano/examples/volcano-scheduler.conf), with ε and the
// default β given. β is never fitted here (hopper.minFitSamples far above any
// job's pods): a job's β is its annotation's or the default.
func hopperConf(eps, beta float64) string {
	return hopperConfWith("enqueue, allocate, backfill", "  - name: priority\n", eps, beta)
}

// hopperConfWith is hopperConf with the given actions and the plug-ins
// before gang (YAML list items of the first tier, or "").
func hopperConfWith(actions, first string, eps, beta float64) string {
	return fmt.Sprintf(`actions: "%s"
tiers:
- plugins:
%s  - name: gang
    enablePreemptable: false
  - name: conformance
  - name: hopper
    arguments:
      hopper.epsilon: %v
      hopper.beta: %v
      hopper.minFitSamples: 1000000
- plugins:
  - name: predicates
  - name: nodeorder
`, actions, first, eps, beta)
}

// defaultConf is Volcano's default policy for the comparison: gang for
// all-or-nothing, drf and proportion for shares across jobs and queues.
const defaultConf = `actions: "enqueue, allocate, backfill"
tiers:
- plugins:
  - name: priority
  - name: gang
    enablePreemptable: false
  - name: conformance
- plugins:
  - name: drf
    enablePreemptable: false
  - name: predicates
  - name: proportion
  - name: nodeorder
`

// sessionPeriod is the scheduler's --schedule-period in this suite.
const sessionPeriod = 200 * time.Millisecond

// TestTable21 is the thesis's worked example (Table 2.1, §2.1) through the
// API: job A with 4 tasks (and a speculative copy pending for each), job B
// with 6 tasks, room for 6 pods, β = 1.5 on both PodGroups, ε = 1
// (Algorithm 1). The pods bound, as an informer sees them, must be what
// alloc.AllocateSlots computes (A its virtual size ⌊(2/1.5)·4⌋ = 5, B 1),
// A's four tasks among them.
//
// Every object exists before the scheduler starts, so its first session sees
// both jobs.
func TestTable21(t *testing.T) {
	want, err := alloc.AllocateSlots(nil, []float64{4, 6}, 6, 1.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newStack(t, stackOptions{})
	s.addNodes("node", 1, 6)
	beta := map[string]string{"hopper.specsched.io/beta": "1.5"}
	s.createPodGroup("a", 1, beta)
	s.createPodGroup("b", 1, beta)
	s.createPods("a", "t", 4, podSpec{})
	s.createPods("a", "x", 4, podSpec{speculative: true})
	s.createPods("b", "t", 6, podSpec{})
	w := s.watchPods()
	s.startScheduler(hopperConf(1, 1.5), sessionPeriod)

	got := s.settle(w, 6, 10*sessionPeriod, 90*time.Second)
	if got["a"] != want[0] || got["b"] != want[1] {
		t.Fatalf("bound A %d / B %d, want A %d / B %d (alloc.AllocateSlots)", got["a"], got["b"], want[0], want[1])
	}
	if tasks := w.boundBy(false)["a"]; tasks != 4 {
		t.Errorf("A's tasks bound: %d, want all 4 before its copies", tasks)
	}
	t.Logf("bound A %d / B %d, as alloc.AllocateSlots computes", got["a"], got["b"])
}
