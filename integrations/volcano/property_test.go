package volcano

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/fairness"
)

// betaAnnotations are the β a generated job may carry; "" is none (the
// default β), so sessions mix annotated and default jobs.
var betaAnnotations = []string{"", "", "1.2", "1.5", "1.8", "2.5"}

// genSession draws a session: 1–4 nodes of 1–8 slots, 1–6 jobs with pending
// tasks, pending copies and (if withRunning) running tasks that fit the
// cluster, ε in [0, 1].
func genSession(t *rapid.T, withRunning bool) sessionSpec {
	s := sessionSpec{
		nodes: rapid.IntRange(1, 4).Draw(t, "nodes"),
		cpus:  rapid.IntRange(1, 8).Draw(t, "cpus"),
		eps:   rapid.SampledFrom([]float64{0, 0.1, 0.25, 0.5, 1}).Draw(t, "eps"),
	}
	free := s.nodes * s.cpus
	n := rapid.IntRange(1, 6).Draw(t, "jobs")
	for i := 0; i < n; i++ {
		job := jobSpec{
			name:    fmt.Sprintf("j%d", i),
			pending: rapid.IntRange(0, 10).Draw(t, "pending"),
			copies:  rapid.IntRange(0, 4).Draw(t, "copies"),
			beta:    rapid.SampledFrom(betaAnnotations).Draw(t, "beta"),
		}
		if withRunning {
			job.running = rapid.IntRange(0, free).Draw(t, "running")
			free -= job.running
		}
		s.jobs = append(s.jobs, job)
	}
	return s
}

// demands is the test's own reading of a spec as Decide's input: tasks are
// the pending and running pods without the copies; β the annotation or the
// default.
func (s sessionSpec) demands() []JobDemand {
	out := make([]JobDemand, len(s.jobs))
	for i, job := range s.jobs {
		beta := DefaultBeta
		if job.beta != "" {
			fmt.Sscan(job.beta, &beta)
		}
		out[i] = JobDemand{Tasks: job.pending + job.running, Beta: beta}
	}
	return out
}

// slots is the plug-in's S for the spec: every pod asks for one slot, so S
// is the cluster's CPUs, or 0 with no pod to give the slot its shape.
func (s sessionSpec) slots() int {
	for _, job := range s.jobs {
		if job.pending+job.copies+job.running > 0 {
			return s.nodes * s.cpus
		}
	}
	return 0
}

// wantTargets is the library's computation of the session's targets: with
// every job at the default β, fairness.AllocateSlots on the task counts
// directly; otherwise Decide (checked against fairness in TestDecide*).
func wantTargets(t *rapid.T, s sessionSpec) ([]int, int) {
	demands := s.demands()
	slots := s.slots()
	same := true
	remaining := make([]float64, len(demands))
	for i, d := range demands {
		remaining[i] = float64(d.Tasks)
		same = same && d.Beta == DefaultBeta
	}
	var dec Decision
	if err := Decide(&dec, demands, slots, DefaultBeta, s.eps, &Workspace{}); err != nil {
		t.Fatalf("Decide: %v", err)
	}
	if same {
		direct, err := fairness.AllocateSlots(nil, remaining, slots, DefaultBeta, s.eps, nil)
		if err != nil {
			t.Fatalf("fairness.AllocateSlots: %v", err)
		}
		return direct, dec.Floor
	}
	return dec.Targets, dec.Floor
}

// checkedSession draws a session (genSession), runs it through the plug-in
// and fails unless its targets are the library's (wantTargets); it returns
// the session, the targets, the ε-fair floor and the outcome.
func checkedSession(t *rapid.T, withRunning bool) (sessionSpec, []int, int, outcome) {
	s := genSession(t, withRunning)
	want, floor := wantTargets(t, s)
	got := runSession(t, s, false)
	if diff := cmp.Diff(want, got.targets); diff != "" {
		t.Fatalf("targets (-library +plug-in):\n%s", diff)
	}
	return s, want, floor, got
}

// checkRerun runs s again and fails unless it binds the same pods as got.
func checkRerun(t *rapid.T, s sessionSpec, got outcome) {
	again := runSession(t, s, false)
	if diff := cmp.Diff(got.boundBy, again.boundBy); diff != "" {
		t.Fatalf("not deterministic (-first +second):\n%s", diff)
	}
}

// testPendingSessions: sessions with nothing running. Every job gets at
// least min(target, its waiting pods), so every job with tasks keeps
// min(floor, waiting); a job passes its target only when no job is left
// below its target with pods to place; the pods placed are min(slots, all
// waiting) — no slot stays free while a pod waits; the placements are the
// model's (modelPlacements: which job takes each slot past the targets);
// and the same session gives the same pods.
func testPendingSessions(t *rapid.T) {
	s, want, floor, got := checkedSession(t, false)
	if got.floor != floor || got.slots != s.slots() {
		t.Fatalf("floor %d slots %d, want %d %d", got.floor, got.slots, floor, s.slots())
	}
	checkPlacements(t, s, want, got)
	for i, job := range s.jobs {
		if job.pending > 0 && got.bound[i] < min(floor, job.pending+job.copies) {
			t.Fatalf("job %s: bound %d below the floor %d", job.name, got.bound[i], floor)
		}
	}
	checkRerun(t, s, got)
}

// checkPlacements fails unless the session's placements are work-conserving
// and capped as the plug-in documents: when no job held more than its
// target, every job ends with at least min(target, held + waiting); a job
// placed past its target means no job is left below its target with a pod
// to place; all pods are placed or the slots are full; and the placements
// equal modelOf's.
func checkPlacements(t *rapid.T, s sessionSpec, want []int, got outcome) {
	slots := s.slots()
	held, all := 0, 0
	past, short := "", ""
	withinTargets := true
	for i, job := range s.jobs {
		withinTargets = withinTargets && job.running <= want[i]
	}
	for i, job := range s.jobs {
		after := job.running + got.bound[i]
		waiting := job.pending + job.copies
		held += after
		all += job.running + waiting
		if withinTargets && after < min(want[i], job.running+waiting) {
			t.Fatalf("job %s: holds %d, want at least min(target %d, %d pods)", job.name, after, want[i], job.running+waiting)
		}
		if got.bound[i] > 0 && after > want[i] {
			past = job.name
		}
		if after < want[i] && got.bound[i] < waiting {
			short = job.name
		}
	}
	if past != "" && short != "" {
		t.Fatalf("job %s placed past its target while job %s waits below its own", past, short)
	}
	if held != min(slots, all) {
		t.Fatalf("%d pods held of %d on %d slots: want min(slots, pods)", held, all, slots)
	}
	if diff := cmp.Diff(modelOf(t, s, want), got.bound); diff != "" {
		t.Fatalf("placements (-model +plug-in):\n%s", diff)
	}
}

func TestPendingSessions(t *testing.T) { rapid.Check(t, testPendingSessions) }

// testRunningSessions: sessions where jobs already hold slots, possibly past
// their new targets. The placements are checkPlacements' (capped and
// work-conserving, the model's); when no job held more than its target,
// every job with tasks keeps min(floor, its pods); the same session gives
// the same pods.
func testRunningSessions(t *rapid.T) {
	s, want, floor, got := checkedSession(t, true)
	checkPlacements(t, s, want, got)
	withinTargets := true
	for i, job := range s.jobs {
		withinTargets = withinTargets && job.running <= want[i]
	}
	for i, job := range s.jobs {
		after := job.running + got.bound[i]
		if withinTargets && job.pending+job.running > 0 && after < min(floor, job.running+job.pending+job.copies) {
			t.Fatalf("job %s: holds %d, below the floor %d", job.name, after, floor)
		}
	}
	checkRerun(t, s, got)
}

func TestRunningSessions(t *testing.T) { rapid.Check(t, testRunningSessions) }
