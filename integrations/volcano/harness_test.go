package volcano

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"volcano.sh/volcano/pkg/scheduler/actions/allocate"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/cache"
	"volcano.sh/volcano/pkg/scheduler/conf"
	"volcano.sh/volcano/pkg/scheduler/framework"
	"volcano.sh/volcano/pkg/scheduler/uthelper"
	"volcano.sh/volcano/pkg/scheduler/util"
)

// The tests drive the plug-in through Volcano's own unit-test harness:
// uthelper.TestCommonStruct builds a scheduler cache with a fake binder and
// evictor from Kubernetes objects, opens a session with the given tiers and
// runs real actions. The plug-in registry and the enabled-action map are
// Volcano globals, so these tests do not run in parallel.

const testNamespace = "ns"

// jobSpec is one job of a generated session: tasks and speculative copies
// waiting (Pending pods), tasks running, and the β annotation ("" for none).
type jobSpec struct {
	name    string
	pending int
	copies  int
	running int
	beta    string
	// finished are the durations in seconds of the job's Succeeded pods
	// (start time to the container's finish); a duration ≤ 0 gives a pod
	// with no start time.
	finished []float64
	// minMember is the PodGroup's minMember (0: 1); phase its phase
	// ("": Inqueue); selector the node selector of its pending pods.
	minMember int32
	phase     schedulingv1beta1.PodGroupPhase
	selector  map[string]string
}

// sessionSpec is a cluster of identical nodes of cpus one-CPU slots each.
type sessionSpec struct {
	nodes, cpus int
	jobs        []jobSpec
	eps         float64 // the plug-in's hopper.epsilon
}

func slotRequest() v1.ResourceList {
	return v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("1Gi")}
}

func nodeName(i int) string { return fmt.Sprintf("n%03d", i) }

// podName numbers pods so that Volcano's default task order (by UID) is the
// order of creation: tasks "t", then copies "x".
func podName(job, kind string, i int) string { return fmt.Sprintf("%s-%s%04d", job, kind, i) }

// objects builds the harness's Kubernetes objects. Running pods fill the
// nodes in order; the spec must leave room for them.
func (s sessionSpec) objects() ([]*v1.Node, []*v1.Pod, []*schedulingv1beta1.PodGroup) {
	var nodes []*v1.Node
	for i := 0; i < s.nodes; i++ {
		alloc := v1.ResourceList{
			v1.ResourceCPU:    resource.MustParse(strconv.Itoa(s.cpus)),
			v1.ResourceMemory: resource.MustParse(strconv.Itoa(s.cpus) + "Gi"),
			v1.ResourcePods:   resource.MustParse("110"),
		}
		nodes = append(nodes, util.BuildNode(nodeName(i), alloc, nil))
	}
	var pods []*v1.Pod
	var groups []*schedulingv1beta1.PodGroup
	placed := 0
	for _, job := range s.jobs {
		annotations := map[string]string{}
		if job.beta != "" {
			annotations[AnnotationBeta] = job.beta
		}
		minMember, phase := job.minMember, job.phase
		if minMember == 0 {
			minMember = 1
		}
		if phase == "" {
			phase = schedulingv1beta1.PodGroupInqueue
		}
		groups = append(groups, util.BuildPodGroupWithAnno(job.name, testNamespace, "default", minMember, nil, phase, annotations))
		for i := 0; i < job.running; i++ {
			node := nodeName(placed / s.cpus)
			placed++
			pods = append(pods, util.BuildPod(testNamespace, podName(job.name, "r", i), node, v1.PodRunning, slotRequest(), job.name, nil, nil))
		}
		for i := 0; i < job.pending; i++ {
			pods = append(pods, util.BuildPod(testNamespace, podName(job.name, "t", i), "", v1.PodPending, slotRequest(), job.name, nil, job.selector))
		}
		start := time.Date(2015, 6, 1, 0, 0, 0, 0, time.UTC)
		for i, seconds := range job.finished {
			pod := util.BuildPod(testNamespace, podName(job.name, "f", i), "", v1.PodSucceeded, slotRequest(), job.name, nil, nil)
			if seconds > 0 {
				pod.Status.StartTime = &metav1.Time{Time: start}
				finish := metav1.Time{Time: start.Add(time.Duration(seconds * float64(time.Second)))}
				pod.Status.ContainerStatuses = []v1.ContainerStatus{
					{Name: "early", State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{FinishedAt: metav1.Time{Time: start.Add(time.Millisecond)}}}},
					{Name: "main", State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{FinishedAt: finish}}},
				}
			}
			pods = append(pods, pod)
		}
		for i := 0; i < job.copies; i++ {
			pod := util.BuildPod(testNamespace, podName(job.name, "x", i), "", v1.PodPending, slotRequest(), job.name, nil, nil)
			pod.Annotations[AnnotationSpeculative] = "true"
			pods = append(pods, pod)
		}
	}
	return nodes, pods, groups
}

// outcome is what one session did, per job in spec order.
type outcome struct {
	targets []int
	floor   int
	slots   int
	bound   []int      // pods placed this session
	boundBy [][]string // names of the pods placed, sorted
	logs    []string
}

// logSink collects the plug-in's warnings.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

// hopperTiers enables every hook of the plug-in, with its arguments.
func hopperTiers(eps float64) []conf.Tier {
	on := true
	return []conf.Tier{{Plugins: []conf.PluginOption{{
		Name:               PluginName,
		EnabledJobOrder:    &on,
		EnabledTaskOrder:   &on,
		EnabledJobStarving: &on,
		EnabledPreemptable: &on,
		EnabledReclaimable: &on,
		EnabledAllocatable: &on,
		Arguments:          map[string]interface{}{ArgEpsilon: eps},
	}}}}
}

// runSession opens a session on the spec through the harness, runs the
// allocate action and reports the plug-in's targets and the placements.
// When check is set, the harness's fake binder must have received exactly
// the placements (CheckBind).
func runSession(t fataler, s sessionSpec, check bool) outcome {
	t.Helper()
	h := newHarness(s)
	// The session shares the pod objects and the bind writes their node
	// name: note the waiting ones first.
	waiting := map[string]bool{}
	for _, pod := range h.test.Pods {
		if pod.Spec.NodeName == "" {
			waiting[pod.Name] = true
		}
	}
	ssn := h.test.RegisterSession(hopperTiers(s.eps), nil)
	defer h.test.Close()
	plugin, sink, test := h.plugin, h.sink, &h.test
	if plugin == nil {
		t.Fatalf("the harness did not build the hopper plug-in")
	}
	// Targets as OnSessionOpen computed them, before allocate moves counts.
	var out outcome
	out.floor, out.slots = plugin.Floor(), plugin.Slots()
	for _, job := range s.jobs {
		target, ok := plugin.Target(jobID(job.name))
		if !ok && (job.pending+job.copies+job.running) > 0 {
			t.Fatalf("job %s: no target", job.name)
		}
		out.targets = append(out.targets, target)
	}
	test.Run([]framework.Action{allocate.New()})

	index := map[api.JobID]int{}
	for i, job := range s.jobs {
		index[jobID(job.name)] = i
	}
	out.bound = make([]int, len(s.jobs))
	out.boundBy = make([][]string, len(s.jobs))
	expect := map[string]string{}
	for uid, job := range ssn.Jobs {
		i, ok := index[uid]
		if !ok {
			t.Fatalf("unknown job %s in the session", uid)
		}
		for _, task := range job.Tasks {
			placed := task.Status == api.Allocated || task.Status == api.Binding || task.Status == api.Bound
			if placed && waiting[task.Name] {
				out.bound[i]++
				out.boundBy[i] = append(out.boundBy[i], task.Name)
				expect[task.Namespace+"/"+task.Name] = task.NodeName
			}
		}
		slices.Sort(out.boundBy[i])
	}
	if check {
		test.ExpectBindMap, test.ExpectBindsNum = expect, len(expect)
		if err := test.CheckBind(0); err != nil {
			t.Fatalf("fake binder: %v", err)
		}
	}
	out.logs = sink.lines
	return out
}

// harness is uthelper's TestCommonStruct for a spec, with a builder that
// keeps the plug-in it builds and sends its warnings to sink.
type harness struct {
	test   uthelper.TestCommonStruct
	plugin *Plugin
	sink   *logSink
}

func newHarness(s sessionSpec) *harness {
	h := &harness{sink: &logSink{}}
	builder := func(args framework.Arguments) framework.Plugin {
		h.plugin = newPlugin(args, h.sink.logf)
		return h.plugin
	}
	nodes, pods, groups := s.objects()
	h.test = uthelper.TestCommonStruct{
		Name:      "hopper",
		Plugins:   map[string]framework.PluginBuilder{PluginName: builder},
		Pods:      pods,
		Nodes:     nodes,
		PodGroups: groups,
		Queues:    []*schedulingv1beta1.Queue{util.BuildQueue("default", 1, nil)},
	}
	return h
}

// fataler is what runSession needs of *testing.T, *testing.B and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func jobID(name string) api.JobID { return api.JobID(testNamespace + "/" + name) }

// event is one event a session recorded: on which object, of what type,
// for what reason, with what message.
type event struct {
	namespace, name   string
	eventType, reason string
	message           string
}

// eventLog is a record.EventRecorder that keeps every event with the
// namespace and name of its object (client-go's FakeRecorder keeps only a
// string without the object's name).
type eventLog struct {
	mu     sync.Mutex
	events []event
}

var _ record.EventRecorder = (*eventLog)(nil)

func (l *eventLog) Event(object runtime.Object, eventType, reason, message string) {
	e := event{eventType: eventType, reason: reason, message: message}
	if m, err := meta.Accessor(object); err == nil {
		e.namespace, e.name = m.GetNamespace(), m.GetName()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
}

func (l *eventLog) Eventf(object runtime.Object, eventType, reason, messageFmt string, args ...interface{}) {
	l.Event(object, eventType, reason, fmt.Sprintf(messageFmt, args...))
}

func (l *eventLog) AnnotatedEventf(object runtime.Object, _ map[string]string, eventType, reason, messageFmt string, args ...interface{}) {
	l.Eventf(object, eventType, reason, messageFmt, args...)
}

// openSession opens a session on the spec with the hopper plug-in and the
// given event recorder, on a scheduler cache built by Volcano's
// cache.NewCustomMockSchedulerCache with the fake binder, evictor and
// status updater — what uthelper.TestCommonStruct does, which keeps its
// recorder to itself. The caller closes the session.
func openSession(s sessionSpec, recorder record.EventRecorder) (*framework.Session, *Plugin, *logSink) {
	var plugin *Plugin
	sink := &logSink{}
	framework.RegisterPluginBuilder(PluginName, func(args framework.Arguments) framework.Plugin {
		plugin = newPlugin(args, sink.logf)
		return plugin
	})
	sc := cache.NewCustomMockSchedulerCache("hopper-test", util.NewFakeBinder(0), util.NewFakeEvictor(0), &util.FakeStatusUpdater{}, nil, nil, recorder)
	nodes, pods, groups := s.objects()
	for _, node := range nodes {
		sc.AddOrUpdateNode(node)
	}
	for _, pod := range pods {
		sc.AddPod(pod)
	}
	for _, group := range groups {
		sc.AddPodGroupV1beta1(group)
	}
	sc.AddQueueV1beta1(util.BuildQueue("default", 1, nil))
	ssn := framework.OpenSession(sc, hopperTiers(s.eps), nil)
	return ssn, plugin, sink
}
