package volcano

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/specsched/specsched/stragglers"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/framework"
	"volcano.sh/volcano/pkg/scheduler/plugins/util"
)

// PluginName is the name the plug-in registers under and the name a
// volcano-scheduler.conf tier lists it by (thesis §3.5: the ε-fair Hopper
// allocation).
const PluginName = "hopper"

// The plug-in's arguments in volcano-scheduler.conf, with their defaults
// (thesis §3.5 for ε, §3.1 for β).
const (
	// ArgEpsilon is ε, the share of its fair share a job may lose to
	// speculation-aware allocation, in [0, 1]: 0 is the Fair scheduler, 1
	// is Algorithm 1 (§3.4) alone.
	ArgEpsilon = "hopper.epsilon"
	// ArgBeta is the default Pareto tail index β > 1 for jobs with no
	// annotation and too few finished tasks to fit one (§3.1).
	ArgBeta = "hopper.beta"
	// ArgMinFitSamples is how many finished task durations a job needs
	// before β is fitted from them (stragglers.ParetoFit; ≥ 2).
	ArgMinFitSamples = "hopper.minFitSamples"
)

// Defaults of the plug-in's arguments.
const (
	// DefaultEpsilon is the thesis's evaluation setting, ε = 10% (§3.5,
	// §6).
	DefaultEpsilon = 0.1
	// DefaultBeta is β = 1.5, the tail of the thesis's worked example
	// (Table 2.1, §2.1) and inside the 1 < β < 2 range the thesis reports
	// for production traces (§3.1).
	DefaultBeta = 1.5
	// DefaultMinFitSamples is 20 finished tasks: the maximum-likelihood
	// β's relative standard error is about 1/√n, 22% at 20 samples and
	// more with fewer.
	DefaultMinFitSamples = 20
)

// Annotations the plug-in reads (thesis §3.1: β is per job; §3.3: a
// speculative copy is a second slot for a task).
const (
	// AnnotationBeta on a PodGroup sets the job's β, a decimal number
	// > 1. Bad values (≤ 1, NaN, ±Inf, not a number) are logged, reported
	// as an EventBadBeta event on the PodGroup and ignored.
	AnnotationBeta = "hopper.specsched.io/beta"
	// AnnotationSpeculative = "true" on a pod marks it as a speculative
	// copy of a task already counted (for Spark, an executor pod asked for
	// only to run speculative tasks): it can be bound within the job's
	// target but does not count as a remaining task.
	AnnotationSpeculative = "hopper.specsched.io/speculative"
)

// EventBadBeta is the reason of the Warning event the plug-in records on a
// PodGroup whose AnnotationBeta it cannot use (once per session, like the log
// line; Kubernetes' event correlator folds the repeats into a count).
const EventBadBeta = "HopperBadBeta"

// Plugin is the "hopper" Volcano plug-in (thesis §3.5, Algorithm 2, run once
// per scheduling session).
//
// Jobs. Every job of the session with pending or allocated pods (Pending,
// Allocated, Pipelined, Binding, Bound, Running) has T = those pods less the
// ones annotated AnnotationSpeculative; its demand is all of them. A job the
// session's JobValid refuses (gang: fewer pods than its PodGroup's
// minMember) has T = 0: Volcano's actions skip it, so it gets no target and
// does not count among the N jobs sharing the slots. Jobs are taken in UID
// order, so nothing depends on Go's map order.
//
// β. The PodGroup's AnnotationBeta if it is a number > 1; else, when the job
// has at least minFitSamples Succeeded pods with a start time and a
// container finish time, the maximum-likelihood Pareto fit of those
// durations (stragglers.ParetoFit) if it is > 1; else the default β.
//
// Slots. A slot is the largest request in each resource dimension over the
// session's pending and allocated pods (CPU, memory and every scalar
// resource, e.g. GPUs): a node holds ⌊allocatable_d / slot_d⌋ in its
// tightest dimension d, at most its pod count; S sums that over ready
// nodes. Heterogeneous requests are thereby rounded up to the largest
// shape, so S is conservative; capacity used by pods outside Volcano's jobs
// is not subtracted.
//
// Targets come from Decide. The hooks registered in OnSessionOpen:
//   - AllocatableFn refuses a task whose job holds its target while another
//     job waits below its own target: this is the per-job cap. Volcano's
//     allocate, preempt and reclaim actions ask it before every placement,
//     with the task (hence the job) in hand, which the queue-level
//     OverusedFn is not. A job waits when it holds fewer pods than its
//     target, has Pending pods, its target reaches its PodGroup's minMember
//     (else gang would discard what it gets), it is not Pending itself (the
//     enqueue action did not admit it) and none of its pods failed the
//     session's predicates. When no job waits, a job at or past its target
//     may take a free slot: the plug-in is work-conserving, as the thesis's
//     allocation is (§3.5: slots a job cannot use go to the others), rather
//     than leaving a target its job has no pods for idle until the next
//     session.
//   - JobOrderFn: jobs below their target first; then smallest virtual
//     size first when ΣV ≥ S (Guideline 1), else lowest held/target (target
//     0 last); ties by UID. Volcano's allocate action takes one job at a
//     time in this order and puts it back after each placement, so within a
//     queue every waiting job has been served, or found it cannot be, before
//     a job at its target is offered a slot. (A job refused by
//     AllocatableFn loses its turn for the session: Volcano drops the task.)
//   - TaskOrderFn: within a job, tasks before speculative copies, so the
//     job's target goes to its remaining tasks first (§3.3); otherwise
//     Volcano's own order.
//   - JobStarvingFn: a job below its target with pending pods starves, so
//     the preempt action may act for it.
//   - PreemptableFn / ReclaimableFn: no victims for a preemptor whose job
//     holds its target; a victim only if its job stays at or above its
//     target afterwards, hence never below the ε-fair floor.
//   - An event handler counts allocations and evictions as the actions make
//     them, so the checks above see the session's current holdings (an
//     evicted pod is Releasing: it leaves its job's held count and does not
//     return to its pending count; a discarded placement does).
type Plugin struct {
	eps, beta     float64
	minFitSamples int

	// logf reports bad input (annotations, arguments, library errors);
	// klog.Warningf unless a test replaces it.
	logf func(format string, args ...any)

	// Per-session state, rebuilt by OnSessionOpen.
	jobs     map[api.JobID]*jobState
	decision Decision
	ws       Workspace
	slots    int
	// listed holds the jobs that may be waiting (see Plugin); waiting
	// drops those that are not, so the check is amortised O(1) per call.
	listed []*jobState
}

// jobState is one job's view within a session.
type jobState struct {
	index   int // position in UID order, the input index of Decide
	uid     api.JobID
	info    *api.JobInfo // the session's job, for its live phase and fit errors
	target  int
	held    int // pods in Allocated, Pipelined, Binding, Bound or Running
	pending int
	virtual float64
	beta    float64
	// minMember is the PodGroup's minMember (gang's minimum), invalid
	// that the session's JobValid refused the job.
	minMember int
	invalid   bool
	listed    bool // in Plugin.listed
}

var _ framework.Plugin = (*Plugin)(nil)

// init registers New under PluginName in Volcano's plug-in registry, so a
// scheduler binary that imports this package (for its side effect) can list
// "hopper" in volcano-scheduler.conf like a built-in plug-in.
func init() {
	framework.RegisterPluginBuilder(PluginName, New)
}

// New builds the plug-in from its volcano-scheduler.conf arguments (thesis
// §3.5); it is the framework.PluginBuilder to register under PluginName.
// Arguments that are missing, of the wrong type or out of range keep their
// default, with a log line for the last two.
func New(arguments framework.Arguments) framework.Plugin {
	return newPlugin(arguments, klog.Warningf)
}

func newPlugin(arguments framework.Arguments, logf func(string, ...any)) *Plugin {
	p := &Plugin{eps: DefaultEpsilon, beta: DefaultBeta, minFitSamples: DefaultMinFitSamples, logf: logf}
	if v, ok := floatArg(arguments, ArgEpsilon, logf); ok {
		if v >= 0 && v <= 1 {
			p.eps = v
		} else {
			logf("hopper: argument %s = %v is not in [0, 1]; using %v", ArgEpsilon, v, DefaultEpsilon)
		}
	}
	if v, ok := floatArg(arguments, ArgBeta, logf); ok {
		if validBeta(v) {
			p.beta = v
		} else {
			logf("hopper: argument %s = %v is not a finite number > 1; using %v", ArgBeta, v, DefaultBeta)
		}
	}
	if v, ok := floatArg(arguments, ArgMinFitSamples, logf); ok {
		if v >= 2 && v <= math.MaxInt32 && v == math.Trunc(v) {
			p.minFitSamples = int(v)
		} else {
			logf("hopper: argument %s = %v is not a whole number ≥ 2; using %v", ArgMinFitSamples, v, DefaultMinFitSamples)
		}
	}
	return p
}

// floatArg reads a number given as a YAML float, an int or a string.
func floatArg(arguments framework.Arguments, key string, logf func(string, ...any)) (float64, bool) {
	raw, ok := arguments[key]
	if !ok {
		return 0, false
	}
	switch v := raw.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err == nil {
			return f, true
		}
	}
	logf("hopper: argument %s = %v is not a number; keeping the default", key, raw)
	return 0, false
}

func validBeta(b float64) bool { return b > 1 && !math.IsInf(b, 0) }

// Name returns PluginName (thesis §3.5).
func (p *Plugin) Name() string { return PluginName }

// Target returns the job's target for the current session and whether the
// session knows the job (thesis §3.5, Algorithm 2's integer share).
func (p *Plugin) Target(uid api.JobID) (int, bool) {
	if p == nil {
		return 0, false
	}
	j, ok := p.jobs[uid]
	if !ok {
		return 0, false
	}
	return j.target, true
}

// Floor returns the current session's ε-fair floor ⌊(1−ε)·S/N⌋ (thesis
// §3.5).
func (p *Plugin) Floor() int {
	if p == nil {
		return 0
	}
	return p.decision.Floor
}

// Slots returns the current session's S, in slots of the session's largest
// pod shape (see Plugin; thesis §3.1's slots).
func (p *Plugin) Slots() int {
	if p == nil {
		return 0
	}
	return p.slots
}

// OnSessionOpen computes every job's target and registers the hooks that
// enforce it (thesis §3.5; see Plugin). On a library error, or a nil
// session or plug-in, it logs and registers nothing, leaving the session to
// the other plug-ins.
//
// Complexity: O(P log P + J log J + N·R) for P pods, J jobs, N nodes and R
// resource dimensions.
func (p *Plugin) OnSessionOpen(ssn *framework.Session) {
	if p == nil || ssn == nil {
		klog.Warningf("hopper: OnSessionOpen on a nil plug-in or session (%p, %p); no targets", p, ssn)
		return
	}
	if p.logf == nil {
		p.logf = klog.Warningf
	}
	uids := make([]api.JobID, 0, len(ssn.Jobs))
	for uid := range ssn.Jobs {
		uids = append(uids, uid)
	}
	slices.Sort(uids)

	p.jobs = make(map[api.JobID]*jobState, len(uids))
	demands := make([]JobDemand, len(uids))
	states := make([]jobState, len(uids))
	shape := api.EmptyResource()
	for i, uid := range uids {
		job := ssn.Jobs[uid]
		st := &states[i]
		st.index, st.uid = i, uid
		p.jobs[uid] = st
		if job == nil {
			demands[i] = JobDemand{Beta: p.beta}
			continue
		}
		tasks := 0
		for _, task := range job.Tasks {
			if task == nil {
				continue
			}
			var counts bool
			switch {
			case task.Status == api.Pending:
				st.pending++
				counts = true
			case api.AllocatedStatus(task.Status) || task.Status == api.Pipelined:
				st.held++
				counts = true
			}
			if !counts {
				continue
			}
			if task.Resreq != nil {
				shape.SetMaxResource(task.Resreq)
			}
			if !isSpeculative(task.Pod) {
				tasks++
			}
		}
		st.info, st.minMember = job, int(job.MinAvailable)
		if vr := ssn.JobValid(job); vr != nil && !vr.Pass {
			st.invalid, tasks = true, 0
		}
		st.beta = p.jobBeta(ssn, job)
		demands[i] = JobDemand{Tasks: tasks, Beta: st.beta}
	}
	p.slots = sessionSlots(ssn, shape)

	if err := Decide(&p.decision, demands, p.slots, p.beta, p.eps, &p.ws); err != nil {
		p.logf("hopper: no targets this session: %v", err)
		p.jobs = nil
		return
	}
	p.listed = p.listed[:0]
	for i := range states {
		states[i].target = p.decision.Targets[i]
		states[i].virtual = p.decision.Virtual[i]
		p.relist(&states[i])
	}
	p.register(ssn)
}

// isSpeculative reports whether a pod carries AnnotationSpeculative = "true".
func isSpeculative(pod *v1.Pod) bool {
	return pod != nil && pod.Annotations[AnnotationSpeculative] == "true"
}

// jobBeta picks the job's β: annotation, else fit, else default (thesis
// §3.1; conference paper §7.2 for the online fit). A bad annotation is
// logged and reported as a Warning event (EventBadBeta) on the PodGroup.
func (p *Plugin) jobBeta(ssn *framework.Session, job *api.JobInfo) float64 {
	if job.PodGroup != nil {
		if raw, ok := job.PodGroup.Annotations[AnnotationBeta]; ok {
			b, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
			if err == nil && validBeta(b) {
				return b
			}
			msg := fmt.Sprintf("job %s: annotation %s = %q is not a finite number > 1; using the fitted or default β", job.UID, AnnotationBeta, raw)
			p.logf("hopper: %s", msg)
			// The session's recorder takes a format: the annotation's
			// text must not be read as one.
			ssn.RecordPodGroupEvent(job.PodGroup, v1.EventTypeWarning, EventBadBeta, strings.ReplaceAll(msg, "%", "%%"))
		}
	}
	var fit stragglers.ParetoFit
	for _, task := range job.TaskStatusIndex[api.Succeeded] {
		if d, ok := podDuration(task.Pod); ok {
			if err := fit.Add(d); err != nil {
				p.logf("hopper: job %s: task duration %v s: %v", job.UID, d, err)
			}
		}
	}
	if fit.Count() >= p.minFitSamples {
		if _, b, err := fit.Fit(); err == nil && validBeta(b) {
			return b
		}
	}
	return p.beta
}

// podDuration is a finished pod's run time in seconds: its start time to the
// last container's finish.
func podDuration(pod *v1.Pod) (float64, bool) {
	if pod == nil || pod.Status.StartTime == nil {
		return 0, false
	}
	var end float64
	found := false
	for _, cs := range pod.Status.ContainerStatuses {
		if t := cs.State.Terminated; t != nil {
			s := t.FinishedAt.Sub(pod.Status.StartTime.Time).Seconds()
			if !found || s > end {
				end, found = s, true
			}
		}
	}
	return end, found && end > 0
}

// sessionSlots is S: per ready node, the slots of the given shape its
// allocatable resources hold in their tightest dimension, at most its pod
// count (thesis §3.1's identical slots, see Plugin).
func sessionSlots(ssn *framework.Session, shape *api.Resource) int {
	if shape.IsEmpty() {
		return 0
	}
	names := shape.ResourceNames()
	total := 0
	for _, node := range ssn.Nodes {
		if node == nil || !node.Ready() || node.Allocatable == nil {
			continue
		}
		fit := math.MaxInt
		for _, name := range names {
			need := shape.Get(name)
			if need <= 0 {
				continue
			}
			have := node.Allocatable.Get(name)
			if k := math.Floor(have / need); k < float64(fit) {
				fit = int(max(k, 0))
			}
		}
		if max := node.Allocatable.MaxTaskNum; max > 0 && max < fit {
			fit = max
		}
		if fit == math.MaxInt {
			fit = 0
		}
		total += fit
		if total > 1<<53 {
			return 1 << 53
		}
	}
	return total
}

// register installs the session hooks (see Plugin).
func (p *Plugin) register(ssn *framework.Session) {
	ssn.AddAllocatableFn(p.Name(), func(_ *api.QueueInfo, candidate *api.TaskInfo) bool {
		if candidate == nil {
			return true
		}
		j, ok := p.jobs[candidate.Job]
		if !ok {
			return true
		}
		return j.held < j.target || !p.anyWaiting()
	})
	ssn.AddJobOrderFn(p.Name(), func(l, r interface{}) int {
		lj, lok := p.jobOf(l)
		rj, rok := p.jobOf(r)
		if !lok || !rok {
			return 0
		}
		return p.compare(lj, rj)
	})
	ssn.AddTaskOrderFn(p.Name(), func(l, r interface{}) int {
		ls, rs := isSpeculativeTask(l), isSpeculativeTask(r)
		switch {
		case ls == rs:
			return 0
		case rs:
			return -1
		default:
			return 1
		}
	})
	ssn.AddJobStarvingFns(p.Name(), func(obj interface{}) bool {
		job, ok := obj.(*api.JobInfo)
		if !ok || job == nil {
			return false
		}
		j, ok := p.jobs[job.UID]
		return ok && j.held < j.target && len(job.TaskStatusIndex[api.Pending]) > 0
	})
	evictable := func(preemptor *api.TaskInfo, preemptees []*api.TaskInfo) ([]*api.TaskInfo, int) {
		return p.victims(preemptor, preemptees), util.Permit
	}
	ssn.AddPreemptableFn(p.Name(), evictable)
	ssn.AddReclaimableFn(p.Name(), evictable)
	ssn.AddEventHandler(&framework.EventHandler{
		AllocateFunc: func(event *framework.Event) {
			if event == nil || event.Task == nil {
				return
			}
			if j, ok := p.jobs[event.Task.Job]; ok {
				j.held++
				// Running: an eviction undone (Statement.unevict),
				// not a Pending pod placed.
				if event.Task.Status != api.Running {
					j.pending--
				}
			}
		},
		DeallocateFunc: func(event *framework.Event) {
			if event == nil || event.Task == nil {
				return
			}
			if j, ok := p.jobs[event.Task.Job]; ok {
				j.held--
				// Pending: a placement undone; else an eviction
				// (Releasing), whose pod does not wait again.
				if event.Task.Status == api.Pending {
					j.pending++
				}
				p.relist(j)
			}
		},
	})
}

// mayWait is the part of "j waits" (see Plugin) that only this plug-in's
// counts change: below its target with Pending pods, a valid job whose
// target reaches its minMember.
func mayWait(j *jobState) bool {
	return !j.invalid && j.held < j.target && j.pending > 0 && j.target >= j.minMember
}

// relist puts j in p.listed if it may wait and is not there.
func (p *Plugin) relist(j *jobState) {
	if !j.listed && mayWait(j) {
		j.listed = true
		p.listed = append(p.listed, j)
	}
}

// anyWaiting reports whether some job waits below its target (see Plugin).
// It drops from p.listed the jobs that do not: within a session a job's
// fit errors stay and the enqueue action has run, so only a deallocation
// (relist) brings one back. Amortised O(1) per call, O(J + deallocations)
// per session.
func (p *Plugin) anyWaiting() bool {
	for n := len(p.listed); n > 0; n = len(p.listed) {
		j := p.listed[n-1]
		if mayWait(j) && (j.info == nil || !j.info.IsPending() && len(j.info.NodesFitErrors) == 0) {
			return true
		}
		j.listed = false
		p.listed = p.listed[:n-1]
	}
	return false
}

// jobOf is the session's state of a job handed to a hook as an
// interface{} (a *api.JobInfo).
func (p *Plugin) jobOf(obj interface{}) (*jobState, bool) {
	job, ok := obj.(*api.JobInfo)
	if !ok || job == nil {
		return nil, false
	}
	j, ok := p.jobs[job.UID]
	return j, ok
}

// isSpeculativeTask is isSpeculative for a task handed to a hook as an
// interface{} (a *api.TaskInfo).
func isSpeculativeTask(obj interface{}) bool {
	task, ok := obj.(*api.TaskInfo)
	return ok && task != nil && isSpeculative(task.Pod)
}

// compare is the job order: a job below its target before one at or past
// it; then, when capacity is short (ΣV ≥ S, Guideline 1 of §3.4), the
// smaller virtual size first, otherwise the lower held/target first, a job
// with target 0 last. Ties go to the smaller UID.
func (p *Plugin) compare(l, r *jobState) int {
	if lb, rb := l.held < l.target, r.held < r.target; lb != rb {
		if lb {
			return -1
		}
		return 1
	}
	if p.decision.Constrained {
		if l.virtual != r.virtual {
			if l.virtual < r.virtual {
				return -1
			}
			return 1
		}
	} else {
		// held_l/target_l < held_r/target_r without division; target 0
		// counts as +∞.
		switch {
		case l.target == 0 && r.target == 0:
		case l.target == 0:
			return 1
		case r.target == 0:
			return -1
		default:
			a, b := int64(l.held)*int64(r.target), int64(r.held)*int64(l.target)
			if a != b {
				if a < b {
					return -1
				}
				return 1
			}
		}
	}
	return strings.Compare(string(l.uid), string(r.uid))
}

// victims keeps the preemptees whose jobs stay at or above their targets
// once the victims before them are gone, and none for a preemptor whose job
// already holds its target (§3.5: the ε-fair floor ≤ target is never
// crossed). A preemptee of the preemptor's own job is kept: it does not
// change the job's count.
func (p *Plugin) victims(preemptor *api.TaskInfo, preemptees []*api.TaskInfo) []*api.TaskInfo {
	if preemptor == nil {
		return nil
	}
	pj, ok := p.jobs[preemptor.Job]
	if !ok || pj.held >= pj.target {
		return nil
	}
	taken := map[api.JobID]int{}
	var out []*api.TaskInfo
	for _, victim := range preemptees {
		if victim == nil {
			continue
		}
		if victim.Job == preemptor.Job {
			out = append(out, victim)
			continue
		}
		vj, ok := p.jobs[victim.Job]
		if !ok {
			continue
		}
		if vj.held-taken[victim.Job]-1 >= vj.target {
			taken[victim.Job]++
			out = append(out, victim)
		}
	}
	return out
}

// OnSessionClose drops the session's state (thesis §3.5: targets are
// recomputed from the next session's snapshot).
func (p *Plugin) OnSessionClose(*framework.Session) {
	if p == nil {
		return
	}
	p.jobs = nil
	clear(p.listed) // the session's jobs, not to be kept alive
	p.listed = p.listed[:0]
}

// String describes the plug-in's settings, for logs.
func (p *Plugin) String() string {
	if p == nil {
		return "hopper(nil)"
	}
	return fmt.Sprintf("hopper(ε=%v, β=%v, minFitSamples=%d)", p.eps, p.beta, p.minFitSamples)
}
