package volcano

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	"volcano.sh/volcano/pkg/scheduler/actions/allocate"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/conf"
	"volcano.sh/volcano/pkg/scheduler/framework"
	"volcano.sh/volcano/pkg/scheduler/plugins"
	"volcano.sh/volcano/pkg/scheduler/plugins/gang"
	"volcano.sh/volcano/pkg/scheduler/plugins/predicates"

	"github.com/specsched/specsched/fairness"
)

// withGang runs one allocate session on s with gang, then hopper, in the
// first tier and predicates in the second (the example
// volcano-scheduler.conf's order), every hook enabled, and the actions
// given before allocate; it returns the
// plug-in (its session closed), the targets and the pods placed per job, in
// spec order.
func withGang(t *testing.T, s sessionSpec, actions ...framework.Action) (*Plugin, []int, []int) {
	t.Helper()
	h := newHarness(s)
	h.test.Plugins[gang.PluginName] = gang.New
	h.test.Plugins[predicates.PluginName] = predicates.New
	option := func(name string, args framework.Arguments) conf.PluginOption {
		o := conf.PluginOption{Name: name, Arguments: args}
		plugins.ApplyPluginConfDefaults(&o)
		return o
	}
	tiers := []conf.Tier{
		{Plugins: []conf.PluginOption{option(gang.PluginName, nil), option(PluginName, framework.Arguments{ArgEpsilon: s.eps})}},
		{Plugins: []conf.PluginOption{option(predicates.PluginName, nil)}},
	}
	ssn := h.test.RegisterSession(tiers, nil)
	defer h.test.Close()
	if h.plugin == nil {
		t.Fatal("the harness did not build the hopper plug-in")
	}
	targets := targetsOf(h.plugin, s)
	h.test.Run(append(actions, allocate.New()))
	bound := make([]int, len(s.jobs))
	for i, job := range s.jobs {
		info := ssn.Jobs[jobID(job.name)]
		if info == nil {
			continue
		}
		for _, task := range info.Tasks {
			if task.Status == api.Allocated || task.Status == api.Binding || task.Status == api.Bound {
				bound[i]++
			}
		}
	}
	return h.plugin, targets, bound
}

// targetsOf is the plug-in's target of every job of s, 0 for one it does
// not know.
func targetsOf(p *Plugin, s sessionSpec) []int {
	out := make([]int, len(s.jobs))
	for i, job := range s.jobs {
		out[i], _ = p.Target(jobID(job.name))
	}
	return out
}

// TestGangBlockedNoTarget: g's PodGroup asks for 5 members and has 3 pods,
// so gang's JobValid refuses it. It gets no target and does not count in N:
// x and y (10 pods each) share the 8 slots as fairness.AllocateSlots gives
// two jobs, and take them all.
func TestGangBlockedNoTarget(t *testing.T) {
	s := sessionSpec{nodes: 2, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "g", pending: 3, minMember: 5},
		{name: "x", pending: 10},
		{name: "y", pending: 10},
	}}
	p, targets, bound := withGang(t, s)
	two, err := fairness.AllocateSlots(nil, []float64{10, 10}, 8, DefaultBeta, DefaultEpsilon, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, two[0], two[1]}
	if diff := cmp.Diff(want, targets); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, bound); diff != "" {
		t.Errorf("placed (-want +got):\n%s", diff)
	}
	if floor := p.Floor(); floor != 3 {
		t.Errorf("floor %d, want ⌊0.9·8/2⌋ over the two valid jobs", floor)
	}
}

// TestNotWaiting: a job below its target with pods left does not hold the
// other jobs at their targets when it cannot use its slots this session —
// a gang whose target is below its minMember (gang discards what it gets),
// a PodGroup the enqueue action left Pending, a job whose pods fail the
// predicates. In each case x takes every slot the blocked job leaves; the
// control case (b a plain job) shows the cap holding x at its target.
func TestNotWaiting(t *testing.T) {
	nowhere := map[string]string{"zone": "nowhere"}
	cases := []struct {
		name string
		b    jobSpec
		// xAll: x takes all 6 slots; else x stops at its target and b
		// takes the rest.
		xAll    bool
		enqueue bool
	}{
		{name: "plain", b: jobSpec{name: "b", pending: 3}},
		{name: "gang-target-below-minMember", b: jobSpec{name: "b", pending: 5, minMember: 5}, xAll: true},
		{name: "podgroup-pending", b: jobSpec{name: "b", pending: 3, phase: schedulingv1beta1.PodGroupPending}, xAll: true, enqueue: true},
		{name: "predicates-fail", b: jobSpec{name: "b", pending: 3, selector: nowhere}, xAll: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var actions []framework.Action
			if c.enqueue {
				actions = append(actions, refuseEnqueue{})
			}
			s := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{c.b, {name: "x", pending: 12}}}
			_, targets, bound := withGang(t, s, actions...)
			if targets[0] <= 0 || targets[1] >= 6 {
				t.Fatalf("targets %v: the case needs b a target and x below all 6 slots", targets)
			}
			if c.b.minMember > 0 && targets[0] >= int(c.b.minMember) {
				t.Fatalf("targets %v: b's target must be below its minMember %d", targets, c.b.minMember)
			}
			want := []int{0, 6}
			if !c.xAll {
				want = []int{targets[0], targets[1]}
			}
			if diff := cmp.Diff(want, bound); diff != "" {
				t.Errorf("placed (-want +got) with targets %v:\n%s", targets, diff)
			}
		})
	}
}

// refuseEnqueue is an enqueue action that admits no PodGroup: with it
// configured, Volcano's allocate action skips Pending PodGroups (instead of
// moving them to Inqueue itself).
type refuseEnqueue struct{}

func (refuseEnqueue) Name() string                   { return "enqueue" }
func (refuseEnqueue) Initialize()                    {}
func (refuseEnqueue) Execute(ssn *framework.Session) {}
func (refuseEnqueue) UnInitialize()                  {}

// TestEventCounts drives the plug-in's event handler through a Statement:
// a placement moves a pod from the job's pending count to its held count
// and discarding it moves it back; an eviction (the pod Releasing) leaves
// the held count without returning to pending, and undoing the eviction
// (the pod Running again) restores held alone. A job that falls below its
// target with pods pending is waiting again.
func TestEventCounts(t *testing.T) {
	s := sessionSpec{nodes: 1, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "a", running: 3, pending: 1},
		{name: "b", pending: 2},
	}}
	h := newHarness(s)
	ssn := h.test.RegisterSession(hopperTiers(s.eps), nil)
	defer h.test.Close()
	p := h.plugin
	a, b := p.jobs[jobID("a")], p.jobs[jobID("b")]
	counts := func(when string, j *jobState, held, pending int) {
		t.Helper()
		if j.held != held || j.pending != pending {
			t.Errorf("%s: job %s held %d pending %d, want %d %d", when, j.uid, j.held, j.pending, held, pending)
		}
	}
	counts("open", a, 3, 1)
	counts("open", b, 0, 2)
	if !p.anyWaiting() {
		t.Fatalf("b (target %d, nothing held, 2 pending) does not wait", b.target)
	}
	var pendingB, runningA *api.TaskInfo
	for _, task := range ssn.Jobs[jobID("b")].Tasks {
		pendingB = task
		break
	}
	for _, task := range ssn.Jobs[jobID("a")].TaskStatusIndex[api.Running] {
		runningA = task
		break
	}
	node := ssn.Nodes[nodeName(0)]

	stmt := framework.NewStatement(ssn)
	if err := stmt.Allocate(pendingB, node); err != nil {
		t.Fatal(err)
	}
	counts("allocate", b, 1, 1)
	stmt.Discard()
	counts("discard", b, 0, 2)

	stmt = framework.NewStatement(ssn)
	if err := stmt.Evict(runningA, "test"); err != nil {
		t.Fatal(err)
	}
	counts("evict", a, 2, 1)
	stmt.Discard()
	counts("unevict", a, 3, 1)

	// b placed to its target stops waiting; a placement discarded makes it
	// wait again.
	b.held = b.target
	if p.anyWaiting() && !mayWait(a) {
		t.Errorf("b at its target and a (held %d, target %d) still waiting", a.held, a.target)
	}
	b.held = b.target - 1
	p.relist(b)
	if !p.anyWaiting() {
		t.Errorf("b below its target again (held %d, target %d) is not waiting", b.held, b.target)
	}
}
