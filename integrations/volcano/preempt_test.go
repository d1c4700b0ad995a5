package volcano

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched/fairness"
	"volcano.sh/volcano/pkg/scheduler/actions/preempt"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/framework"
)

// TestPreemptKeepsTargets runs Volcano's preempt action on a full cluster:
// job a holds every slot, job b waits with nothing. Hopper's guard lets
// the action evict a's pods only while a stays at or above its target
// (fairness.AllocateSlots on the two jobs' tasks, the oracle here), so a
// loses min(held − target, what b waits for, b's target) pods — the action
// evicts only for b's waiting pods — and never falls below the ε-fair
// floor.
func TestPreemptKeepsTargets(t *testing.T) {
	for _, c := range []struct{ aRunning, bPending int }{{6, 6}, {6, 2}, {6, 1}, {5, 6}} {
		t.Run(fmt.Sprintf("a%d-b%d", c.aRunning, c.bPending), func(t *testing.T) {
			spec := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
				{name: "a", running: c.aRunning},
				{name: "b", pending: c.bPending},
			}}
			targets, err := fairness.AllocateSlots(nil, []float64{float64(c.aRunning), float64(c.bPending)}, 6, DefaultBeta, DefaultEpsilon, nil)
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(spec)
			ssn := h.test.RegisterSession(hopperTiers(spec.eps), nil)
			defer h.test.Close()
			h.test.Run([]framework.Action{preempt.New()})
			evicted := map[string]int{}
			for _, job := range ssn.Jobs {
				evicted[job.Name] = len(job.TaskStatusIndex[api.Releasing])
			}
			wantA := min(c.aRunning-targets[0], c.bPending, targets[1])
			if evicted["a"] != wantA || evicted["b"] != 0 {
				t.Errorf("evicted %v, want a %d (held %d, target %d) and b 0", evicted, wantA, c.aRunning, targets[0])
			}
			if floor := h.plugin.Floor(); c.aRunning-evicted["a"] < floor {
				t.Errorf("a left with %d pods, below the floor %d", c.aRunning-evicted["a"], floor)
			}
			if len(h.sink.lines) != 0 {
				t.Errorf("warnings %q", h.sink.lines)
			}
		})
	}
}

// TestVictimsByHand: the guard on a state written by hand — a (held 4,
// target 2) can lose two pods, c (held 1, target 1) none; the preemptor's
// own pods are kept, nil and unknown jobs' pods dropped; a preemptor whose
// job holds its target gets no victims.
func TestVictimsByHand(t *testing.T) {
	p := &Plugin{jobs: map[api.JobID]*jobState{
		"a": {uid: "a", held: 4, target: 2},
		"b": {uid: "b", held: 1, target: 3},
		"c": {uid: "c", held: 1, target: 1},
		"d": {uid: "d", held: 2, target: 2},
	}}
	task := func(job, name string) *api.TaskInfo { return &api.TaskInfo{Job: api.JobID(job), Name: name} }
	preemptees := []*api.TaskInfo{task("a", "a1"), nil, task("c", "c1"), task("a", "a2"), task("b", "b1"), task("x", "x1"), task("a", "a3")}
	var got []string
	for _, victim := range p.victims(task("b", "b9"), preemptees) {
		got = append(got, victim.Name)
	}
	if diff := cmp.Diff([]string{"a1", "a2", "b1"}, got); diff != "" {
		t.Errorf("victims for b (-want +got):\n%s", diff)
	}
	if got := p.victims(task("d", "d9"), preemptees); got != nil {
		t.Errorf("victims for d at its target: %v", got)
	}
	if got := p.victims(task("x", "x9"), preemptees); got != nil {
		t.Errorf("victims for an unknown job: %v", got)
	}
}

// TestCompareByHand: the job order on states written by hand (a job below
// its target first; then thesis §3.4's Guideline 1 when ΣV ≥ S, else lowest
// held/target, target 0 last; ties by UID). Unconstrained, below-target
// first is already the ratio's order (held/target < 1 exactly when below),
// so only the constrained cases can tell it apart.
func TestCompareByHand(t *testing.T) {
	p := &Plugin{}
	j := func(uid string, held, target int, virtual float64) *jobState {
		return &jobState{uid: api.JobID(uid), held: held, target: target, virtual: virtual}
	}
	cases := []struct {
		constrained bool
		l, r        *jobState
		want        int
	}{
		{true, j("b", 0, 1, 2.5), j("a", 0, 9, 3), -1}, // both below: smaller V
		{true, j("a", 0, 9, 3), j("b", 0, 1, 2.5), 1},
		{true, j("b", 9, 1, 2.5), j("a", 9, 9, 3), -1}, // both at or past: smaller V
		{true, j("b", 0, 1, 3), j("a", 0, 2, 3), 1},    // equal V: UID
		{true, j("b", 9, 1, 2.5), j("a", 0, 9, 3), 1},  // b past its target, a below
		{true, j("a", 0, 9, 3), j("b", 9, 1, 2.5), -1},
		{true, j("b", 1, 2, 9), j("a", 2, 2, 1), -1}, // b below, a at its target
		{false, j("a", 1, 0, 1), j("b", 5, 2, 9), 1},
		{false, j("b", 5, 2, 9), j("a", 1, 0, 1), -1},
		{false, j("b", 0, 0, 1), j("a", 0, 0, 1), 1},
		{false, j("a", 2, 3, 1), j("b", 1, 2, 1), 1},  // 2/3 > 1/2
		{false, j("b", 1, 2, 9), j("a", 2, 3, 1), -1}, // 1/2 < 2/3
		{false, j("b", 2, 4, 1), j("a", 1, 2, 1), 1},  // equal ratios: UID
		{false, j("a", 2, 4, 1), j("b", 1, 2, 1), -1},
	}
	for i, c := range cases {
		p.decision.Constrained = c.constrained
		if got := p.compare(c.l, c.r); got != c.want {
			t.Errorf("case %d: compare(%+v, %+v) = %d, want %d", i, *c.l, *c.r, got, c.want)
		}
	}
}

// TestSessionHooks: on a full cluster (a runs 6, b waits with 6, targets
// 3 and 3 by fairness.AllocateSlots), through the session's own
// dispatchers: b starves and a does not; b may preempt three of a's pods;
// evicting three of them (Session.Evict, which the event handler counts)
// brings a to its target, after which b may preempt none and a task of a
// may not be placed while one of b may.
func TestSessionHooks(t *testing.T) {
	spec := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "a", running: 6},
		{name: "b", pending: 6},
	}}
	ssn, p, _ := openSession(spec, &eventLog{})
	defer framework.CloseSession(ssn)
	targets, err := fairness.AllocateSlots(nil, []float64{6, 6}, 6, DefaultBeta, DefaultEpsilon, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := ssn.Jobs[jobID("a")], ssn.Jobs[jobID("b")]
	if ta, _ := p.Target(a.UID); ta != targets[0] || targets[0] != 3 {
		t.Fatalf("a's target %d, oracle %v", ta, targets)
	}
	if !ssn.JobStarving(b) || ssn.JobStarving(a) {
		t.Errorf("starving: a %v, b %v; want b only", ssn.JobStarving(a), ssn.JobStarving(b))
	}
	var aTasks []*api.TaskInfo
	for _, task := range a.Tasks {
		aTasks = append(aTasks, task)
	}
	var bTask *api.TaskInfo
	for _, task := range b.Tasks {
		bTask = task
	}
	if got := ssn.Preemptable(bTask, aTasks); len(got) != 3 {
		t.Errorf("b may preempt %d of a's pods, want 3", len(got))
	}
	if got := ssn.Reclaimable(bTask, aTasks); len(got) != 3 {
		t.Errorf("b may reclaim %d of a's pods, want 3", len(got))
	}
	for _, task := range aTasks[:3] {
		if err := ssn.Evict(task, "test"); err != nil {
			t.Fatal(err)
		}
	}
	if held := p.jobs[a.UID].held; held != 3 {
		t.Errorf("a holds %d after three evictions, want 3", held)
	}
	if got := ssn.Preemptable(bTask, aTasks[3:]); len(got) != 0 {
		t.Errorf("b may still preempt %d of a's pods at a's target", len(got))
	}
	queue := ssn.Queues[a.Queue]
	if ssn.Allocatable(queue, aTasks[0]) || !ssn.Allocatable(queue, bTask) {
		t.Errorf("allocatable: a %v, b %v; want b only", ssn.Allocatable(queue, aTasks[0]), ssn.Allocatable(queue, bTask))
	}
}
