package volcano

import (
	"errors"
	"math"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"volcano.sh/apis/pkg/apis/scheduling"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/conf"
	"volcano.sh/volcano/pkg/scheduler/framework"
	"volcano.sh/volcano/pkg/scheduler/util"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
)

// Tests written against the survivors of a hand mutation run of plugin.go
// and decide.go. Each checks documented behaviour against values computed
// by hand or by fairness.AllocateSlots, never the plug-in's own output.

// TestMutMayWaitBoundaries: the rule "a job waits when it holds fewer pods
// than its target, has Pending pods, and its target reaches its PodGroup's
// minMember", at each boundary.
func TestMutMayWaitBoundaries(t *testing.T) {
	cases := []struct {
		name                             string
		held, target, pending, minMember int
		want                             bool
	}{
		{"target equals minMember", 0, 3, 3, 3, true},
		{"target one below minMember", 0, 2, 3, 3, false},
		{"one below target", 2, 3, 1, 1, true},
		{"at target", 3, 3, 1, 1, false},
		{"nothing pending", 1, 3, 0, 1, false},
	}
	for _, c := range cases {
		j := &jobState{held: c.held, target: c.target, pending: c.pending, minMember: c.minMember}
		if got := mayWait(j); got != c.want {
			t.Errorf("%s: mayWait(held %d, target %d, pending %d, minMember %d) = %v, want %v", c.name, c.held, c.target, c.pending, c.minMember, got, c.want)
		}
	}
}

// jobInPhase is a session job whose PodGroup is in the given phase.
func jobInPhase(uid string, phase scheduling.PodGroupPhase) *api.JobInfo {
	info := api.NewJobInfo(api.JobID(uid))
	info.PodGroup = &api.PodGroup{PodGroup: scheduling.PodGroup{Status: scheduling.PodGroupStatus{Phase: phase}}}
	return info
}

// TestMutAnyWaiting: a listed job below its target with pods pending waits
// only when its PodGroup was admitted (not Pending) and none of its pods
// failed the predicates; a job that does not wait leaves the list and a
// relist brings it back once it may wait again.
func TestMutAnyWaiting(t *testing.T) {
	failed := jobInPhase("f", scheduling.PodGroupInqueue)
	failed.NodesFitErrors = map[api.TaskID]*api.FitErrors{"f-t0": api.NewFitErrors()}
	cases := []struct {
		name string
		info *api.JobInfo
		want bool
	}{
		{"admitted", jobInPhase("a", scheduling.PodGroupInqueue), true},
		{"running", jobInPhase("r", scheduling.PodGroupRunning), true},
		{"PodGroup pending", jobInPhase("p", scheduling.PodGroupPending), false},
		{"predicates failed", failed, false},
	}
	for _, c := range cases {
		p := &Plugin{}
		j := &jobState{uid: c.info.UID, info: c.info, held: 0, target: 2, pending: 2, minMember: 1}
		p.relist(j)
		if got := p.anyWaiting(); got != c.want {
			t.Errorf("%s: anyWaiting() = %v, want %v", c.name, got, c.want)
		}
	}

	// Placed to its target the job stops waiting; one pod taken back
	// (held below target, pending again) and relisted, it waits again.
	p := &Plugin{}
	j := &jobState{uid: "a", info: jobInPhase("a", scheduling.PodGroupInqueue), target: 2, pending: 2, minMember: 1}
	p.relist(j)
	j.held, j.pending = 2, 0
	if p.anyWaiting() {
		t.Fatalf("a job at its target still waits")
	}
	j.held, j.pending = 1, 1
	p.relist(j)
	if !p.anyWaiting() {
		t.Errorf("a job back below its target with a pod pending, relisted, does not wait")
	}
}

// TestMutDeallocationRelists drives the hooks through a Statement on a
// session: 2 nodes of 4 slots, a runs 4 pods on n000 and has 2 pending, b
// has 4 pending; the targets are fairness.AllocateSlots' for T = 6 and 4 on
// 8 slots. While b waits below its target a's pending task may not be
// placed; with b placed to its target it may (work conservation); once the
// Statement is discarded b waits again and a's task is refused again. A
// task of a job the session does not know, and a nil task, are not refused.
func TestMutDeallocationRelists(t *testing.T) {
	s := sessionSpec{nodes: 2, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "a", running: 4, pending: 2},
		{name: "b", pending: 4},
	}}
	oracle, err := fairness.AllocateSlots(nil, []float64{6, 4}, 8, DefaultBeta, DefaultEpsilon, nil)
	if err != nil {
		t.Fatal(err)
	}
	if oracle[0] > 4 || oracle[1] < 1 || oracle[1] > 4 {
		t.Fatalf("oracle targets %v: the case needs a at or past its target and b a target it can fill", oracle)
	}
	h := newHarness(s)
	ssn := h.test.RegisterSession(hopperTiers(s.eps), nil)
	defer h.test.Close()
	p := h.plugin
	if got := targetsOf(p, s); got[0] != oracle[0] || got[1] != oracle[1] {
		t.Fatalf("targets %v, oracle %v", got, oracle)
	}
	a, b := ssn.Jobs[jobID("a")], ssn.Jobs[jobID("b")]
	queue := ssn.Queues[a.Queue]
	var aPending *api.TaskInfo
	for _, task := range a.TaskStatusIndex[api.Pending] {
		aPending = task
		break
	}
	var bPending []*api.TaskInfo
	for _, task := range b.TaskStatusIndex[api.Pending] {
		bPending = append(bPending, task)
	}
	if !ssn.Allocatable(queue, &api.TaskInfo{Job: "ns/unknown"}) || !ssn.Allocatable(queue, nil) {
		t.Errorf("a task of an unknown job or a nil task refused")
	}
	if ssn.Allocatable(queue, aPending) {
		t.Errorf("a (past its target) may take a slot while b waits with none")
	}
	stmt := framework.NewStatement(ssn)
	for _, task := range bPending[:oracle[1]] {
		if err := stmt.Allocate(task, ssn.Nodes[nodeName(1)]); err != nil {
			t.Fatal(err)
		}
	}
	if !ssn.Allocatable(queue, aPending) {
		t.Errorf("b holds its target and nothing waits, yet a's task is refused")
	}
	stmt.Discard()
	if ssn.Allocatable(queue, aPending) {
		t.Errorf("b's placements discarded (b waits again), yet a may take a slot")
	}
}

// TestMutStarving: a job starves only below its target with pods pending.
// 2 nodes of 3 slots: a runs 3 and has 3 pending, b has 6 pending; targets
// 3 and 3 (fairness.AllocateSlots for T = 6 and 6 on 6 slots). a at its
// target does not starve though it has pods pending. In a second session
// (a runs 6, b has 6 pending, targets 3 and 3) four of a's pods are evicted:
// a is below its target with nothing pending and does not starve.
func TestMutStarving(t *testing.T) {
	oracle, err := fairness.AllocateSlots(nil, []float64{6, 6}, 6, DefaultBeta, DefaultEpsilon, nil)
	if err != nil {
		t.Fatal(err)
	}
	if oracle[0] != 3 || oracle[1] != 3 {
		t.Fatalf("oracle targets %v, the case needs 3 and 3", oracle)
	}
	func() {
		s := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
			{name: "a", running: 3, pending: 3},
			{name: "b", pending: 6},
		}}
		ssn, _, _ := openSession(s, &eventLog{})
		defer framework.CloseSession(ssn)
		a, b := ssn.Jobs[jobID("a")], ssn.Jobs[jobID("b")]
		if ssn.JobStarving(a) || !ssn.JobStarving(b) {
			t.Errorf("starving: a (at target, 3 pending) %v, b (below, 6 pending) %v; want b only", ssn.JobStarving(a), ssn.JobStarving(b))
		}
	}()
	func() {
		s := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
			{name: "a", running: 6},
			{name: "b", pending: 6},
		}}
		ssn, _, _ := openSession(s, &eventLog{})
		defer framework.CloseSession(ssn)
		a := ssn.Jobs[jobID("a")]
		n := 0
		for _, task := range a.Tasks {
			if n == 4 {
				break
			}
			if err := ssn.Evict(task, "test"); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if ssn.JobStarving(a) {
			t.Errorf("a (2 held after four evictions, target 3, nothing pending) starves")
		}
	}()
}

// TestMutDecideBoundaries: Decide at the edges of its rules, with values
// worked by hand. For β ≥ 2, V = T (eq. 3.5), so T = 3 + 3 on S = 6 is
// ΣV = S exactly: constrained (ΣV ≥ S); on S = 7 it is not. ε = 0 and ε = 1
// are in range and give fairness.AllocateSlots' targets; slots = 0 is in
// range (every target 0) and slots = −1 is refused by Decide itself,
// naming "slots", before ε is looked at. The
// floor counts only jobs with tasks: ⌊0.9·10/2⌋ = 4 for T = 4, 4, 0, and
// 0 when no job has tasks.
func TestMutDecideBoundaries(t *testing.T) {
	var d Decision
	two := []JobDemand{{3, 2}, {3, 2}}
	if err := Decide(&d, two, 6, 2, DefaultEpsilon, nil); err != nil || !d.Constrained {
		t.Errorf("ΣV = 6 = S: constrained %v, err %v; want constrained", d.Constrained, err)
	}
	if err := Decide(&d, two, 7, 2, DefaultEpsilon, nil); err != nil || d.Constrained {
		t.Errorf("ΣV = 6 < S = 7: constrained %v, err %v; want not", d.Constrained, err)
	}
	for _, eps := range []float64{0, 1} {
		jobs := []JobDemand{{5, DefaultBeta}, {1, DefaultBeta}, {2, DefaultBeta}}
		want, err := fairness.AllocateSlots(nil, []float64{5, 1, 2}, 6, DefaultBeta, eps, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := Decide(&d, jobs, 6, DefaultBeta, eps, nil); err != nil {
			t.Errorf("ε = %v refused: %v", eps, err)
			continue
		}
		for i := range want {
			if d.Targets[i] != want[i] {
				t.Errorf("ε = %v: targets %v, fairness.AllocateSlots %v", eps, d.Targets, want)
				break
			}
		}
	}
	if err := Decide(&d, []JobDemand{{2, DefaultBeta}, {0, DefaultBeta}}, 0, DefaultBeta, DefaultEpsilon, nil); err != nil {
		t.Errorf("slots = 0 refused: %v", err)
	} else if d.Targets[0] != 0 || d.Targets[1] != 0 || d.Floor != 0 {
		t.Errorf("slots = 0: targets %v floor %d, want all 0", d.Targets, d.Floor)
	}
	// slots = −1 is Decide's own refusal (named volcano.Decide), and
	// slots is checked before ε: with ε = 2 as well the error still names
	// slots.
	for _, eps := range []float64{DefaultEpsilon, 2} {
		err := Decide(&d, []JobDemand{{2, DefaultBeta}}, -1, DefaultBeta, eps, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "slots" || ie.Func != "volcano.Decide" {
			t.Errorf("slots = −1, ε = %v: error %v, want volcano.Decide's InputError naming slots", eps, err)
		}
	}
	// ε outside [0, 1] is Decide's own refusal, before the jobs' β are
	// looked at: with a bad β as well the error names eps.
	for _, eps := range []float64{-0.5, 1.5} {
		err := Decide(&d, []JobDemand{{2, 0.5}}, 4, DefaultBeta, eps, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "eps" || ie.Func != "volcano.Decide" {
			t.Errorf("ε = %v with a bad β: error %v, want volcano.Decide's InputError naming eps", eps, err)
		}
	}
	if err := Decide(&d, []JobDemand{{4, DefaultBeta}, {4, DefaultBeta}, {0, DefaultBeta}}, 10, DefaultBeta, DefaultEpsilon, nil); err != nil || d.Floor != 4 {
		t.Errorf("T = 4, 4, 0 on 10 slots: floor %d (err %v), want ⌊0.9·10/2⌋ = 4", d.Floor, err)
	}
	if err := Decide(&d, []JobDemand{{0, DefaultBeta}, {0, DefaultBeta}}, 5, DefaultBeta, DefaultEpsilon, nil); err != nil || d.Floor != 0 {
		t.Errorf("no job with tasks: floor %d (err %v), want 0", d.Floor, err)
	}
}

// TestMutHugeMinFitSamples: a whole number past any int is not a usable
// minFitSamples: the default stays, with a log line.
func TestMutHugeMinFitSamples(t *testing.T) {
	sink := &logSink{}
	p := newPlugin(framework.Arguments{ArgMinFitSamples: 1e19}, sink.logf)
	if p.minFitSamples != DefaultMinFitSamples || len(sink.lines) != 1 {
		t.Errorf("minFitSamples 1e19: got %d with logs %q, want the default %d and one line", p.minFitSamples, sink.lines, DefaultMinFitSamples)
	}
}

// TestMutFitRange: with minFitSamples = 2, finished durations 1 s and 100 s
// fit β̂ = 2/ln 100 ≈ 0.43, not > 1: the job keeps the default β (its
// virtual size is (2/1.5)·T); 1 s and 2 s fit β̂ = 2/ln 2 ≈ 2.89, taken
// (V = T). A Succeeded pod whose container finished at its start time, or
// one with a finished container and no start time, has no duration: it is
// skipped without a log line.
func TestMutFitRange(t *testing.T) {
	cases := []struct {
		name     string
		finished []float64
		zero     bool // a third pod finishing at its start
		noStart  bool // a third pod with a finished container and no start time
		beta     float64
	}{
		{"β̂ ≤ 1", []float64{1, 100}, false, false, DefaultBeta},
		{"β̂ > 1", []float64{1, 2}, false, false, 2 / math.Log(2)},
		{"zero duration skipped", []float64{1, 2}, true, false, 2 / math.Log(2)},
		{"no start time skipped", []float64{1, 2}, false, true, 2 / math.Log(2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sessionSpec{nodes: 1, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{{name: "a", pending: 3, finished: c.finished}}}
			h := newHarness(s)
			if c.zero {
				start := metav1.Time{Time: time.Date(2015, 6, 1, 0, 0, 0, 0, time.UTC)}
				pod := util.BuildPod(testNamespace, podName("a", "f", 9), "", v1.PodSucceeded, slotRequest(), "a", nil, nil)
				pod.Status.StartTime = &start
				pod.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "main", State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{FinishedAt: start}}}}
				h.test.Pods = append(h.test.Pods, pod)
			}
			if c.noStart {
				finish := metav1.Time{Time: time.Date(2015, 6, 1, 0, 0, 5, 0, time.UTC)}
				pod := util.BuildPod(testNamespace, podName("a", "f", 8), "", v1.PodSucceeded, slotRequest(), "a", nil, nil)
				pod.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "main", State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{FinishedAt: finish}}}}
				h.test.Pods = append(h.test.Pods, pod)
			}
			on := true
			tiers := []conf.Tier{{Plugins: []conf.PluginOption{{Name: PluginName, EnabledJobOrder: &on, EnabledAllocatable: &on,
				Arguments: map[string]interface{}{ArgMinFitSamples: 2}}}}}
			h.test.RegisterSession(tiers, nil)
			defer h.test.Close()
			want, err := alloc.VirtualSize(3, c.beta)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.plugin.decision.Virtual) != 1 || math.Abs(h.plugin.decision.Virtual[0]-want) > 1e-9 {
				t.Errorf("virtual sizes %v, want [%v] (β = %v)", h.plugin.decision.Virtual, want, c.beta)
			}
			if len(h.sink.lines) != 0 {
				t.Errorf("log lines %q, want none", h.sink.lines)
			}
		})
	}
}

// TestMutSessionSlots: S counts ready nodes only, and a node's slots in
// full up to 2^53: one node of 3·2^51 CPUs holds 3·2^51 one-CPU slots; a
// NotReady node beside it adds none.
func TestMutSessionSlots(t *testing.T) {
	big := int64(3) << 51
	node := func(name string, ready bool) *api.NodeInfo {
		n := util.BuildNode(name, v1.ResourceList{v1.ResourceCPU: *resource.NewQuantity(big, resource.DecimalSI)}, nil)
		if !ready {
			n.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionFalse}}
		}
		return api.NewNodeInfo(n)
	}
	ssn := &framework.Session{Nodes: map[string]*api.NodeInfo{"up": node("up", true), "down": node("down", false)}}
	shape := &api.Resource{MilliCPU: 1000}
	if got := sessionSlots(ssn, shape); got != int(big) {
		t.Errorf("slots %d, want 3·2^51 = %d (the NotReady node counts none)", got, big)
	}
}

// TestMutTaskOrder: within a job a task comes before a speculative copy, a
// copy after a task, and two tasks of the same kind are left to Volcano's
// own order (here the task order's tie-break, by creation/UID).
func TestMutTaskOrder(t *testing.T) {
	s := sessionSpec{nodes: 1, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{{name: "a", pending: 2, copies: 2}}}
	ssn, _, _ := openSession(s, &eventLog{})
	defer framework.CloseSession(ssn)
	var tasks, copies []*api.TaskInfo
	for _, task := range ssn.Jobs[jobID("a")].Tasks {
		if isSpeculative(task.Pod) {
			copies = append(copies, task)
		} else {
			tasks = append(tasks, task)
		}
	}
	if len(tasks) != 2 || len(copies) != 2 {
		t.Fatalf("%d tasks and %d copies, want 2 and 2", len(tasks), len(copies))
	}
	for _, task := range tasks {
		for _, cp := range copies {
			if !ssn.TaskOrderFn(task, cp) || ssn.TaskOrderFn(cp, task) {
				t.Errorf("task %s and copy %s: task first %v, copy first %v; want the task first", task.Name, cp.Name, ssn.TaskOrderFn(task, cp), ssn.TaskOrderFn(cp, task))
			}
		}
	}
	if ssn.TaskCompareFns(tasks[0], tasks[1]) != 0 || ssn.TaskCompareFns(copies[0], copies[1]) != 0 {
		t.Errorf("two tasks of one kind ordered by the plug-in: %d, %d", ssn.TaskCompareFns(tasks[0], tasks[1]), ssn.TaskCompareFns(copies[0], copies[1]))
	}
}

// TestMutBetaArgument: hopper.beta = 1.9 is the β of a job with no
// annotation and no fit: its virtual size is (2/1.9)·3.
func TestMutBetaArgument(t *testing.T) {
	s := sessionSpec{nodes: 1, cpus: 4, eps: DefaultEpsilon, jobs: []jobSpec{{name: "a", pending: 3}}}
	h := newHarness(s)
	on := true
	tiers := []conf.Tier{{Plugins: []conf.PluginOption{{Name: PluginName, EnabledJobOrder: &on, EnabledAllocatable: &on,
		Arguments: map[string]interface{}{ArgBeta: 1.9}}}}}
	h.test.RegisterSession(tiers, nil)
	defer h.test.Close()
	want := 2 / 1.9 * 3
	if len(h.plugin.decision.Virtual) != 1 || math.Abs(h.plugin.decision.Virtual[0]-want) > 1e-9 {
		t.Errorf("virtual sizes %v, want [%v] (β = 1.9 from the argument)", h.plugin.decision.Virtual, want)
	}
}
