package volcano

import (
	"testing"

	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/framework"

	"github.com/specsched/specsched/fairness"
)

// twoJobsOfThree is the session of a and b, 3 pending pods each, on 2 nodes
// of 3 slots, and its targets as fairness.AllocateSlots gives them for
// T = 3 and 3 on 6 slots.
func twoJobsOfThree(t *testing.T) (sessionSpec, []int) {
	t.Helper()
	s := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "a", pending: 3},
		{name: "b", pending: 3},
	}}
	oracle, err := fairness.AllocateSlots(nil, []float64{3, 3}, 6, DefaultBeta, DefaultEpsilon, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, oracle
}

// TestMutSessionStateDropped: Target knows a job only while its session is
// open. 2 nodes of 3 slots, a and b with 3 pending pods each: the targets
// are fairness.AllocateSlots' for T = 3 and 3 on 6 slots while the session
// is open; once it is closed Target reports the job unknown. A zero-value
// Plugin (no logger, β = 0) cannot compute targets (Decide refuses β = 0):
// OnSessionOpen logs through klog instead of panicking and leaves no job
// known.
func TestMutSessionStateDropped(t *testing.T) {
	s, oracle := twoJobsOfThree(t)
	ssn, p, _ := openSession(s, &eventLog{})
	for i, name := range []string{"a", "b"} {
		if got, ok := p.Target(jobID(name)); !ok || got != oracle[i] {
			t.Errorf("open session: Target(%s) = %d, %v; want %d, true", name, got, ok, oracle[i])
		}
	}
	framework.CloseSession(ssn)
	if got, ok := p.Target(jobID("a")); ok || got != 0 {
		t.Errorf("closed session: Target(a) = %d, %v; want 0, false", got, ok)
	}

	ssn, _, _ = openSession(s, &eventLog{})
	defer framework.CloseSession(ssn)
	zero := &Plugin{}
	zero.OnSessionOpen(ssn)
	if got, ok := zero.Target(jobID("a")); ok || got != 0 {
		t.Errorf("zero-value plug-in: Target(a) = %d, %v; want 0, false (no targets)", got, ok)
	}
}

// TestMutNoShapeNoSlots: a session whose only job has finished pods and
// none pending or allocated has no slot shape, so S = 0 and the job's
// target is 0, though its node has room for 4 one-CPU pods.
func TestMutNoShapeNoSlots(t *testing.T) {
	s := sessionSpec{nodes: 1, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{{name: "a", finished: []float64{1, 2}}}}
	ssn, p, _ := openSession(s, &eventLog{})
	defer framework.CloseSession(ssn)
	if got := p.Slots(); got != 0 {
		t.Errorf("Slots() = %d, want 0 (no pending or allocated pod)", got)
	}
	if got, ok := p.Target(jobID("a")); !ok || got != 0 {
		t.Errorf("Target(a) = %d, %v; want 0, true", got, ok)
	}
}

// TestMutNilSessionJob: a nil entry in the session's jobs is a job with no
// tasks (target 0, not among the N sharing the slots): the two real jobs,
// 3 pending pods each on 2 nodes of 3 slots, keep fairness.AllocateSlots'
// targets for T = 3 and 3 on 6 slots.
func TestMutNilSessionJob(t *testing.T) {
	s, oracle := twoJobsOfThree(t)
	ssn, _, _ := openSession(s, &eventLog{})
	defer framework.CloseSession(ssn)
	ghost := jobID("ghost")
	ssn.Jobs[ghost] = nil
	defer delete(ssn.Jobs, ghost)
	sink := &logSink{}
	p := newPlugin(nil, sink.logf)
	p.OnSessionOpen(ssn)
	if got, ok := p.Target(ghost); !ok || got != 0 {
		t.Errorf("Target(nil job) = %d, %v; want 0, true", got, ok)
	}
	for i, name := range []string{"a", "b"} {
		if got, ok := p.Target(jobID(name)); !ok || got != oracle[i] {
			t.Errorf("Target(%s) = %d, %v; want %d, true", name, got, ok, oracle[i])
		}
	}
}

// TestForeignObjects: the job-order and starving hooks, asked about a job
// the session does not know or an object that is not a job (only a direct
// Session call can do that; Volcano's actions pass the session's jobs), give
// no opinion: the order falls to Volcano's own (creation time, then UID:
// "~unknown" sorts after "default/a", so the unknown job is not first) and
// nothing foreign starves.
func TestForeignObjects(t *testing.T) {
	s := sessionSpec{nodes: 1, cpus: 2, eps: DefaultEpsilon, jobs: []jobSpec{{name: "a", pending: 3}}}
	ssn, p, _ := openSession(s, &eventLog{})
	defer framework.CloseSession(ssn)
	if p == nil {
		t.Fatal("the harness did not build the hopper plug-in")
	}
	known := ssn.Jobs[jobID("a")]
	unknown := &api.JobInfo{UID: "~unknown", CreationTimestamp: known.CreationTimestamp}
	if ssn.JobOrderFn(unknown, known) {
		t.Errorf("an unknown job ordered before a: hopper gave an opinion on a job it does not know")
	}
	if !ssn.JobOrderFn(known, unknown) {
		t.Errorf("a not ordered before the unknown job by Volcano's fallback (UID)")
	}
	if !ssn.JobStarving(known) {
		t.Errorf("a (target %d, 0 held, 3 pending) does not starve", func() int { v, _ := p.Target(jobID("a")); return v }())
	}
	for _, obj := range []interface{}{"not a job", (*api.JobInfo)(nil), unknown} {
		if ssn.JobStarving(obj) {
			t.Errorf("%#v starves", obj)
		}
	}
}
