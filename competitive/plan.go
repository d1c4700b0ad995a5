package competitive

import (
	"math/rand/v2"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
)

// ActionKind is what an Action does.
type ActionKind uint8

const (
	// Launch starts Copies copies of an unscheduled task; Task is its
	// ordinal among the phase's Unscheduled tasks (0 ≤ Task < Unscheduled).
	Launch ActionKind = iota
	// Clone starts Copies more copies of a running task; Task indexes the
	// phase's Running.
	Clone
	// Preempt stops Copies of the copies of a running task; Task indexes
	// the phase's Running. A task that loses all its copies becomes
	// unscheduled, its progress kept (checkpointing, §2.3).
	Preempt
)

var kindNames = []string{Launch: "launch", Clone: "clone", Preempt: "preempt"}

// String returns "launch", "clone" or "preempt".
func (k ActionKind) String() string { return enum.Name(k, kindNames, "ActionKind") }

// Action is one scheduling decision for the current slot: start or stop
// Copies copies of one task of one job.
type Action struct {
	Job    int   // index of the job in the snapshot
	Stage  Stage // the phase of the task
	Kind   ActionKind
	Task   int // ordinal among the unscheduled tasks (Launch) or index into Running (Clone, Preempt)
	Copies int // ≥ 1
}

// Mode selects whether SREW+C(β) preempts.
type Mode uint8

const (
	// Preemptive is Algorithm 2 as written, with preemption and
	// checkpointing (§2.3, §4): a job holding more than g_j(t) machines
	// loses copies chosen uniformly at random (line 7), and every job ends
	// the slot with exactly g_j(t) machines.
	Preemptive Mode = iota
	// NonPreemptive is the variant of the evaluation (§5), line 7 dropped:
	// a job keeps every copy it runs, even above g_j(t), and jobs below
	// their share are topped up in increasing order of Υ_j(t) while idle
	// machines last.
	NonPreemptive
)

var modeNames = []string{Preemptive: "preemptive", NonPreemptive: "non-preemptive"}

// String returns "preemptive" or "non-preemptive".
func (m Mode) String() string { return enum.Name(m, modeNames, "Mode") }

// Plan computes the per-slot decisions of SREW+C(β), Xu et al. Algorithm 2
// lines 3–14, for jobs that have been allotted machines[j] machines (g_j(t),
// normally from Machines) on a cluster of cluster machines. It resets dst to
// length 0, appends the actions and returns it; actions come in job order.
//
// For each active job j, with o_j(t) its running copies, its current phase
// z (map while a map task is unfinished, else reduce: reduce tasks never
// start before every map task has finished) and u its unscheduled tasks in
// z:
//
//   - o > g (line 7): in Preemptive mode, o − g of the job's running copies,
//     chosen uniformly at random, are preempted; in NonPreemptive mode the
//     job keeps them.
//   - g > o, u > 0 (line 12): g − o copies are launched over the u
//     unscheduled tasks, q = ⌊(g−o)/u⌋ on each and one more on r = (g−o) mod u
//     of them chosen uniformly at random: every task gets ⌊(g−o)/u⌋ or
//     ⌈(g−o)/u⌉ and the total is exactly g − o. (Exact integer division:
//     nothing real-valued is rounded here.)
//   - g > o, u = 0 (line 14): the same split of g − o clones over the
//     phase's running tasks (z_j(t) = len(Running)).
//
// In Preemptive mode the plan leaves every active job with exactly g_j(t)
// machines, so Σ g = M keeps the cluster fully used. In NonPreemptive mode
// the idle machines, cluster − Σ o_j, may not cover every job's g − o;
// jobs are then served in increasing (Υ_j(t), index) order and the job at
// which they run out launches what is left, split as above.
//
// Randomness comes from rng. A nil rng makes the choices deterministic:
// the lowest ordinals get the extra copy, and preemption takes copies from
// the first running tasks.
//
// Complexity: O(n + Σ_j len(Running_j) + A + r log r) for n jobs, A
// actions and r ≤ A + P randomly chosen tasks or copies, P the copies
// preempted at random (a random r-subset of k items costs O(r log r) time
// and O(r) memory however large k is; with a nil rng, or when a job loses
// all its copies, preemption draws nothing), plus O(c log c) to order the
// c jobs below their share in NonPreemptive mode when idle machines run
// short. Memory follows the same terms, never the cluster size: the
// launches and preemptions a call may make are bounded by MaxActions.
// Allocation-free with a dst of sufficient capacity and a reused ws.
//
// Special cases: no jobs gives no actions. An inactive job's allotment is
// ignored. A job with g = o gets no action. An error, with dst untouched,
// is returned for len(machines) ≠ len(jobs), a negative allotment, Σ
// machines > cluster, running copies Σ o_j > cluster, cluster < 0 or > 2⁵³,
// an unknown mode, λ < 0, NaN or ±Inf (λ orders jobs in NonPreemptive
// mode), an invalid job (see EffectiveWorkload; here also every entry
// of Running must be ≥ 1), and a slot that would launch more than
// MaxActions tasks (Σ_j min(g_j − o_j, u_j)) or preempt more than
// MaxActions copies (Σ_j (o_j − g_j) in Preemptive mode); that error names
// the job at which the sum passes the bound. dst, which the actions may
// fill up to its capacity, must not overlap jobs, machines or any job's
// Running (an error otherwise).
func Plan(dst []Action, jobs []Job, machines []int, cluster int, lambda float64, mode Mode, rng *rand.Rand, ws *Workspace) ([]Action, error) {
	const fn = "competitive.Plan"
	if err := checkPlanArgs(fn, jobs, cluster, lambda, mode); err != nil {
		return nil, err
	}
	if err := check.Len(fn, "machines", len(machines), len(jobs)); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, cap(dst), "machines", machines); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, cap(dst), "jobs", jobs); err != nil {
		return nil, err
	}
	sum := 0
	for j, g := range machines {
		if g < 0 || g > cluster-sum {
			return nil, check.Err(fn, j, "machines", float64(g), "must be ≥ 0 and sum to at most cluster")
		}
		sum += g
	}
	if err := checkRunning(fn, jobs, cluster, check.SpanOf(dst, cap(dst))); err != nil {
		return nil, err
	}
	return orNew(ws).plan(fn, dst, jobs, machines, cluster, lambda, mode, rng)
}

// SREWC is one slot of SREW+C(β), Xu et al. Algorithm 2: the integer
// shares g_j(t) of Machines followed by the Plan for them. It resets dst to
// length 0, appends the slot's actions and returns it.
//
// Complexity: Machines' O(n) plus Plan's; allocation-free with a dst of
// sufficient capacity and a reused ws.
//
// Special cases and errors: those of Machines and Plan (machines here is
// the cluster size M; the MaxActions error names the job whose share
// g_j(t) passes the bound).
func SREWC(dst []Action, jobs []Job, machines int, beta, lambda float64, mode Mode, rng *rand.Rand, ws *Workspace) ([]Action, error) {
	const fn = "competitive.SREWC"
	if !(beta > 0 && beta <= 1) {
		return nil, check.Err(fn, check.Scalar, "beta", beta, "must lie in (0, 1]")
	}
	if err := checkPlanArgs(fn, jobs, machines, lambda, mode); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, cap(dst), "jobs", jobs); err != nil {
		return nil, err
	}
	if err := checkRunning(fn, jobs, machines, check.SpanOf(dst, cap(dst))); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	allot, err := ws.machines(fn, ws.allot, jobs, machines, beta, lambda)
	if err != nil {
		return nil, err
	}
	ws.allot = allot
	return ws.plan(fn, dst, jobs, ws.allot, machines, lambda, mode, rng)
}

// checkPlanArgs validates the scalars and the snapshot (deeply).
func checkPlanArgs(fn string, jobs []Job, cluster int, lambda float64, mode Mode) error {
	if cluster < 0 || cluster > maxCount {
		return check.Err(fn, check.Scalar, "machines", float64(cluster), "must lie in [0, 2^53]")
	}
	if mode > NonPreemptive {
		return check.Err(fn, check.Scalar, "mode", float64(mode), "must be Preemptive or NonPreemptive")
	}
	return checkJobs(fn, jobs, lambda, true)
}

// disjointJobs reports an error when writing the first n elements of dst
// would touch the memory of jobs or of a job's Running: the rule of
// check.Disjoint, for the snapshot and the slices it holds. O(n) for n
// jobs, and nothing when dst is too small to be reused.
func disjointJobs[D any](fn string, dst []D, n int, jobs []Job) error {
	if err := check.Disjoint(fn, dst, n, "jobs", jobs); err != nil {
		return err
	}
	if out := check.SpanOf(dst, n); out.N > 0 {
		for j := range jobs {
			if err := runningOverlap(fn, out, &jobs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRunning reports an error if the snapshot runs more copies than the
// cluster has machines, or if a job's Running overlaps out, the memory of
// the caller's dst (see check.Span).
func checkRunning(fn string, jobs []Job, cluster int, out check.Span) error {
	used := 0
	for j := range jobs {
		if job := &jobs[j]; check.Overlaps(out, job.Map.Running) || check.Overlaps(out, job.Reduce.Running) {
			return runningOverlap(fn, out, job)
		}
		o := jobs[j].copies()
		if o > cluster-used {
			return check.Err(fn, j, "running", float64(o), "running copies must not exceed the cluster's machines")
		}
		used += o
	}
	return nil
}

// MaxActions bounds the work of one call of Plan, SREWC and SEW, whose
// cost would otherwise follow the machine count, not the snapshot: the
// tasks a call launches (its Launch actions, one per task, at most
// min(g−o, u) per job), and the copies it picks one at a time at random —
// those Plan and SREWC preempt, and those SEW's idle machines clone once
// no task is left to launch (Algorithm 1, lines 9–10 and 17–18). Each
// bound is checked before anything is written: beyond it a call returns
// an InputError. Its other actions (Clone and Preempt, one per running
// task at most) are bounded by the snapshot's Running entries. At the
// bound the actions alone take 32 GiB; the simulators of this module
// (2^24 machines at most) stay far below it.
const MaxActions = 1 << 30

// plan is Plan on validated input: it resets dst to length 0, appends the
// actions and returns them, or returns an error naming the job at which
// the slot's launches or preemptions pass MaxActions, with dst untouched.
func (ws *Workspace) plan(fn string, dst []Action, jobs []Job, allot []int, cluster int, lambda float64, mode Mode, rng *rand.Rand) ([]Action, error) {
	ws.grants(jobs, allot, cluster, lambda, mode)
	if j := ws.overMax(jobs, mode); j >= 0 {
		return nil, check.Err(fn, j, "machines", float64(allot[j]),
			"the slot would launch more than MaxActions tasks or preempt more than MaxActions copies")
	}
	return ws.emit(dst, jobs, mode, rng), nil
}

// grants sets ws.grant[j] to the copies job j gains (> 0) or loses (< 0)
// this slot: its allotment less its running copies, rationed to the idle
// machines in NonPreemptive mode. O(n log n).
func (ws *Workspace) grants(jobs []Job, allot []int, cluster int, lambda float64, mode Mode) {
	n := len(jobs)
	ws.grant = ints(ws.grant, n)
	idle := cluster
	need := 0
	for j := range jobs {
		o := jobs[j].copies()
		idle -= o
		ws.grant[j] = 0
		if jobs[j].active() {
			ws.grant[j] = allot[j] - o
			need += max(0, ws.grant[j])
		}
	}
	if mode == NonPreemptive && need > idle {
		ws.rationIdle(jobs, idle, lambda)
	}
}

// emit resets dst to length 0 and appends the actions of ws.grant: the
// launches or clones of each job's gain spread over its tasks, the
// preemptions of its loss (Preemptive mode), picked with rng. Its work is
// the actions it appends: callers bound them by MaxActions (overMax) or,
// like Simulate, by a cluster below it.
func (ws *Workspace) emit(dst []Action, jobs []Job, mode Mode, rng *rand.Rand) []Action {
	dst = dst[:0]
	for j := range jobs {
		k := ws.grant[j]
		if k == 0 || (k < 0 && mode == NonPreemptive) {
			continue
		}
		job := &jobs[j]
		z := job.stage()
		p := job.phase(z)
		if k < 0 {
			dst = ws.preempt(dst, j, z, p, -k, rng)
			continue
		}
		kind, targets := Launch, p.Unscheduled
		if targets == 0 {
			kind, targets = Clone, len(p.Running)
		}
		dst = ws.spread(dst, j, z, kind, targets, k, rng)
	}
	return dst
}

// overMax returns the job at which the plan of ws.grant launches more
// than MaxActions tasks (min(k, u) per job granted k > 0 copies, u its
// unscheduled tasks) or preempts more than MaxActions copies (Preemptive
// mode, −k per job with k < 0), or −1 if it does neither.
func (ws *Workspace) overMax(jobs []Job, mode Mode) int {
	launched, preempted := 0, 0
	for j := range jobs {
		k := ws.grant[j]
		if k < 0 && mode == Preemptive {
			preempted += -k
		} else if k > 0 {
			launched += min(k, jobs[j].phase(jobs[j].stage()).Unscheduled)
		}
		if launched > MaxActions || preempted > MaxActions {
			return j
		}
	}
	return -1
}

// rationIdle cuts ws.grant down to the idle machines, serving the jobs
// below their share in increasing (Υ_j(t), index) order.
func (ws *Workspace) rationIdle(jobs []Job, idle int, lambda float64) {
	ws.order = ws.order[:0]
	ws.load = floats(ws.load, len(jobs))
	for j := range jobs {
		if ws.grant[j] > 0 {
			ws.order = append(ws.order, j)
			ws.load[j] = jobs[j].remaining(lambda)
		}
	}
	sortByLoad(ws.order, ws.load)
	for _, j := range ws.order {
		ws.grant[j] = min(ws.grant[j], idle)
		idle -= ws.grant[j]
	}
}

// spread appends actions that give k copies to targets tasks of job j in
// phase z, ⌊k/targets⌋ to each and one more to k mod targets of them
// chosen uniformly at random (targets > 0).
func (ws *Workspace) spread(dst []Action, j int, z Stage, kind ActionKind, targets, k int, rng *rand.Rand) []Action {
	q, r := k/targets, k%targets
	extra := ws.subset(targets, r, rng)
	if q == 0 {
		for _, t := range extra {
			dst = append(dst, Action{Job: j, Stage: z, Kind: kind, Task: t, Copies: 1})
		}
		return dst
	}
	for t := 0; t < targets; t++ {
		c := q
		if len(extra) > 0 && extra[0] == t {
			c++
			extra = extra[1:]
		}
		dst = append(dst, Action{Job: j, Stage: z, Kind: kind, Task: t, Copies: c})
	}
	return dst
}

// preempt appends the Preempt actions that stop k of the running copies of
// job j (phase z, whose Running is p.Running), a uniformly random k-subset
// of the copies.
func (ws *Workspace) preempt(dst []Action, j int, z Stage, p *Phase, k int, rng *rand.Rand) []Action {
	o := 0
	for _, c := range p.Running {
		o += c
	}
	if rng == nil || k == o {
		// The first k copies, task by task: no subset to draw.
		for t, c := range p.Running {
			if k == 0 {
				break
			}
			n := min(c, k)
			dst = append(dst, Action{Job: j, Stage: z, Kind: Preempt, Task: t, Copies: n})
			k -= n
		}
		return dst
	}
	chosen := ws.subset(o, k, rng)
	end := 0
	for t, c := range p.Running {
		end += c
		n := 0
		for len(chosen) > 0 && chosen[0] < end {
			chosen = chosen[1:]
			n++
		}
		if n > 0 {
			dst = append(dst, Action{Job: j, Stage: z, Kind: Preempt, Task: t, Copies: n})
		}
	}
	return dst
}

// subset returns, in increasing order, a uniformly random k-subset of
// [0, n) (Floyd's algorithm, with the membership set probe's samplers use:
// a bit set for n ≤ 64·(k+16), a hash set above), or {0, …, k−1} with a
// nil rng; 0 ≤ k ≤ n. It takes O(k log k) time and O(k) memory however
// large n is. The result is ws.picked, valid until the next call.
func (ws *Workspace) subset(n, k int, rng *rand.Rand) []int {
	out := ws.picked[:0]
	if rng == nil || k == n {
		for i := 0; i < k; i++ {
			out = append(out, i)
		}
	} else {
		out = ws.taken.Floyd(out, n, k, rng)
	}
	ws.picked = out
	return out
}
