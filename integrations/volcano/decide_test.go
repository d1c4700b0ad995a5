package volcano

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
)

const tol = 1e-9

// testDecideOneBeta: with one β for every job, Decide is
// fairness.AllocateSlots on the task counts, exactly (thesis §3.5).
func testDecideOneBeta(t *rapid.T) {
	n := rapid.IntRange(0, 30).Draw(t, "n")
	beta := rapid.Float64Range(1.01, 3).Draw(t, "beta")
	eps := rapid.Float64Range(0, 1).Draw(t, "eps")
	slots := rapid.IntRange(0, 500).Draw(t, "slots")
	jobs := make([]JobDemand, n)
	remaining := make([]float64, n)
	for i := range jobs {
		jobs[i] = JobDemand{Tasks: rapid.IntRange(0, 100).Draw(t, "tasks"), Beta: beta}
		remaining[i] = float64(jobs[i].Tasks)
	}
	var dec Decision
	if err := Decide(&dec, jobs, slots, beta, eps, &Workspace{}); err != nil {
		t.Fatalf("Decide: %v", err)
	}
	want, err := fairness.AllocateSlots(nil, remaining, slots, beta, eps, nil)
	if err != nil {
		t.Fatalf("fairness.AllocateSlots: %v", err)
	}
	if diff := cmp.Diff(want, dec.Targets); diff != "" {
		t.Fatalf("targets (-fairness +Decide):\n%s", diff)
	}
}

func TestDecideOneBeta(t *testing.T) { rapid.Check(t, testDecideOneBeta) }

// testDecideVirtualSizes: with a β per job, every job keeps its own virtual
// size (eq. 3.5) under the reference β, so Algorithm 1 (ε = 1) gives each
// job its virtual size when slots cover them all, within the rounding, and
// every active job keeps the floor at any ε.
func testDecideVirtualSizes(t *rapid.T) {
	n := rapid.IntRange(1, 20).Draw(t, "n")
	betaRef := rapid.Float64Range(1.01, 3).Draw(t, "betaRef")
	eps := rapid.Float64Range(0, 1).Draw(t, "eps")
	jobs := make([]JobDemand, n)
	var sumV float64
	active := 0
	for i := range jobs {
		jobs[i] = JobDemand{Tasks: rapid.IntRange(0, 50).Draw(t, "tasks"), Beta: rapid.Float64Range(1.01, 3).Draw(t, "beta")}
		v, _ := alloc.VirtualSize(float64(jobs[i].Tasks), jobs[i].Beta)
		sumV += v
		if jobs[i].Tasks > 0 {
			active++
		}
	}
	slots := rapid.IntRange(0, 3*int(sumV)+1).Draw(t, "slots")
	var dec Decision
	if err := Decide(&dec, jobs, slots, betaRef, eps, &Workspace{}); err != nil {
		t.Fatalf("Decide: %v", err)
	}
	total := 0
	for i, job := range jobs {
		v, _ := alloc.VirtualSize(float64(job.Tasks), job.Beta)
		if math.Abs(dec.Virtual[i]-v) > tol*max(1, v) {
			t.Fatalf("job %d: virtual %v, want %v", i, dec.Virtual[i], v)
		}
		if job.Tasks > 0 && dec.Targets[i] < dec.Floor {
			t.Fatalf("job %d: target %d below the floor %d", i, dec.Targets[i], dec.Floor)
		}
		if job.Tasks == 0 && dec.Targets[i] != 0 {
			t.Fatalf("job %d without tasks: target %d", i, dec.Targets[i])
		}
		total += dec.Targets[i]
	}
	if active > 0 && total != slots {
		t.Fatalf("targets sum to %d, want %d", total, slots)
	}
	if dec.Constrained != (sumV >= float64(slots)) {
		t.Fatalf("constrained %v with ΣV %v and %d slots", dec.Constrained, sumV, slots)
	}
	if eps == 1 && float64(slots) >= sumV+float64(n) {
		// Guideline 2: shares in proportion to V, each at least V − 1.
		for i := range jobs {
			if float64(dec.Targets[i]) < dec.Virtual[i]-1 {
				t.Fatalf("job %d: target %d below its virtual size %v", i, dec.Targets[i], dec.Virtual[i])
			}
		}
	}
}

func TestDecideVirtualSizes(t *testing.T) { rapid.Check(t, testDecideVirtualSizes) }

// TestDecideErrors: bad input reaches the caller as the library's error,
// never a panic.
func TestDecideErrors(t *testing.T) {
	var dec Decision
	ws := &Workspace{}
	for name, c := range map[string]struct {
		jobs []JobDemand
		beta float64
		eps  float64
	}{
		"job β 1":   {[]JobDemand{{3, 1}}, 1.5, 0.1},
		"job β NaN": {[]JobDemand{{3, math.NaN()}}, 1.5, 0.1},
		"ref β 0.5": {[]JobDemand{{3, 1.5}}, 0.5, 0.1},
		"ε NaN":     {[]JobDemand{{3, 1.5}}, 1.5, math.NaN()},
		"ε 2":       {[]JobDemand{{3, 1.5}}, 1.5, 2},
		"tasks < 0": {[]JobDemand{{-1, 1.5}}, 1.5, 0.1},
	} {
		if err := Decide(&dec, c.jobs, 10, c.beta, c.eps, ws); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
