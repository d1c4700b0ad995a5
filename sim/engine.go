package sim

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/minheap"
)

type taskStatus uint8

const (
	taskUnscheduled taskStatus = iota
	taskRunning                // at least one live copy is running
	taskWaiting                // its first copy ran out; it waits for the upstream phase
	taskDone
)

const none = -1 // the null index of copy lists

// copyState is one copy of a task: it holds one slot from start until it is
// released (its task completes, or it is killed). Its record in e.cs (and
// e.prof) is freed for a later copy once no state refers to it — a killed
// copy when its task's run is over, the winning one when its task
// completes — so that the records follow the live copies, not the copies
// ever started (SREW+C's clones alone number in the hundreds of millions
// on a day of FB-2010). seq, the copy's number in the run's creation
// order, names it in the event queue.
type copyState struct {
	task  int32
	next  int32   // the task's next (younger) copy, or none
	num   int32   // the copy's number within its task, from 0
	alive bool    // holding its slot
	pool  bool    // runs in budgeted speculation's reserved pool
	start float64 // when it started
	end   float64 // when its run is over
	eta   float64 // the error factor of its progress estimate (1: exact; 0: not drawn yet, see etaOf)
	seq   int     // copies started before it in the run
}

type taskState struct {
	phase  int32
	status taskStatus
	copies int32 // live copies
	made   int32 // copies ever started: the next copy's number
	head   int32 // oldest copy (copies of a task all end together, so the list only grows)
	tail   int32
	win    int32   // the copy whose run ended first (its record freed once the task is done)
	runPos int32   // position in its job's running list
	due    float64 // while running, the earliest end of its copies' runs so far; once computed, the winning copy's duration
	theta  float64 // the task may be judged a straggler only while now < theta
	start  float64 // when its first copy started
	phi    float64 // when it becomes old enough to be judged (detectAt)
}

type phaseState struct {
	job       int32
	lo, n     int32 // its tasks are lo … lo+n−1 (global indices)
	next      int32 // tasks lo+next … lo+n−1 are unscheduled
	computed  int32 // tasks whose run is over (waiting or done)
	completed int32 // tasks done
	need      int32 // upstream tasks computed before this phase may start
	runnable  bool
	waiting   []int32       // tasks waiting for the upstream phase to complete
	mean, sd  float64       // of the first copies' durations (SREW+C's E_j^z, σ_j^z)
	pareto    distuv.Pareto // its tasks' law (Phase.Durations nil)
	least     float64       // a lower bound of its copies' durations under CopyService (0 if none is used)
	capCDF    float64       // F(Phase.Cap) under it, if Cap > 0
	tnew      float64       // mean duration of a copy
}

type jobState struct {
	plo, phi   int32     // its phases
	unfinished int32     // tasks whose run is not over: T_j
	unsched    int32     // unscheduled tasks of runnable phases
	held       int32     // slots held by live copies (waiting ones included)
	capped     int32     // running tasks with MaxCopies live copies
	waiting    int32     // of which by waiting tasks
	poolHeld   int32     // of which in the budget pool
	running    []int32   // running tasks, in an order fixed by the run
	thetaMax   float64   // an upper bound of theta over its running tasks
	quiet      float64   // no running task can be judged a straggler before this time
	tnew       float64   // t_new
	tau        float64   // the thesis rule's eligibility level: t_rem > tau (t_new)
	mantriCut  float64   // Mantri's cut-off on c/(c+1)·t_rem
	minElapsed float64   // how long a task runs before it may be judged
	specCut    float64   // stragglers.Speculate's Mantri cut-off (its own rounding of mantriCut)
	checks     []float64 // the times of its pending checks, from checkHead on (pushCheck)
	checkHead  int32
	ix         *stragglerIndex // its eligible tasks (engine.indexed), made on first use, dropped when it completes
	done       bool
}

// engine is the state of one run.
type engine struct {
	fn     string
	cfg    Config
	jobs   []Job
	seed   uint64
	slots  int
	betaC  float64 // the β of the homogeneous Hopper policies
	regCap int     // slots for tasks (all but the budget pool)

	// conserving: the allocation is not capped by what jobs can run, so
	// slots left free after the grants are offered to every job.
	conserving bool
	// checks: a decision is taken when a task becomes old enough to be
	// judged a straggler (Speculation.Detect > 0 and copies are on).
	checks bool
	// judges: the policy judges stragglers (stragglers.Speculate), so the
	// eligibility bounds θ must be kept.
	judges bool
	// indexed: the judged tasks are indexed (stragglerIndex): the policy
	// judges stragglers, by an estimator whose t_rem only falls between
	// copy starts (Oracle, Progress).
	indexed bool
	// lazyEnds: a copy that cannot end first draws its duration when read
	// (endOf): no decision is taken at its would-be end (not
	// everyInstant), and no estimate needs it at its start (not Observed).
	lazyEnds bool
	// observed: Estimator Observed; heartbeat is the interval between a
	// copy's reports as a fraction of t_new, floor each phase's shortest
	// copy (its nominal run) and prof the copies' progress profiles (see
	// observe.go).
	observed  bool
	heartbeat float64
	floor     []float64
	prof      []profile
	// everyInstant: a decision is taken at every instant the event loop
	// stops at, the would-be ends of killed copies included. Best-effort
	// and budgeted speculation give a straggler at most one copy per
	// decision, so how many decisions are taken changes their runs; every
	// other policy does at a decision all that the state allows, and the
	// state and the rules' eligibility (which only shrinks as time passes,
	// but at the check events) are unchanged at such an instant.
	everyInstant bool

	js []jobState
	ps []phaseState
	ts []taskState
	cs []copyState

	now     float64
	events  eventHeap
	checkq  minheap.Indexed[struct{}] // the jobs with checks pending, by their first (pushCheck)
	copySeq int                       // copies started
	// freeCopies are the records of cs free for the next copies.
	freeCopies []int32
	active     []int32 // arrived, unfinished jobs in arrival order
	sc         scratch // kept for reuse (scratch.go): the completed jobs' empty structures
	pruned     bool    // some active job completed since the last schedule
	busy       int     // slots held
	unsched    int     // unscheduled runnable tasks over all jobs
	regBusy    int     // slots held outside the pool

	res *Result

	// steps counts the engine's unit operations — copies started, heap
	// operations, visits of a task's copies and of view entries — for the
	// tests that check a run costs what its jobs need, whatever the idle
	// slots.
	steps int

	// The policy: the allocator shares the slots, the rule uses them.
	alloc     Allocator
	rule      InJobRule
	requester RequestRule      // the rule, if its copies count in the demand (speculation on)
	pool      PoolRule         // the rule, if it fills a reserved pool (speculation on)
	poolKeyer PoolKeyAllocator // the allocator, if it orders the jobs for the pool
	dec       Decision         // what alloc and rule see: this engine
	err       error            // the first error met inside a Decision method
	moments   bool             // phaseMoments has run (Decision.PhaseMoments)

	// The grant's scratch, reused at every decision: the allocation and
	// priority of the active jobs, and the order of the jobs the grants
	// serve.
	target []int
	key    []float64
	order  []int32
	sorter positionSort
	urgent []urgentCand // scanUrgent's candidates
}

// eventHeap is the queue of events: internal/minheap's heap ranked by
// (time, c), c — a copy's creation order — breaking ties, so that a run
// does not depend on heap internals (nor on which record a copy reuses).
type eventHeap struct{ h minheap.Heap[int32] }

// An event is the end of the run of copy number c ≥ 0 (creation order), or,
// for c ≤ reportBase, a report of copy number reportBase − c that lifts its
// estimate above the rule's level (Observed). (The moments tasks become old
// enough to be judged, the checks, are queued apart: pushCheck.) slot is the copy's record in
// e.cs, which names a later copy once the copy's record is freed (then
// cs[slot].seq differs: the event is stale).
type event struct {
	t    float64
	c    int
	slot int32
}

// reportBase is the identifier of the report events of copy 0; those of
// copy c are reportBase − c, below every check event.
const reportBase = -1 << 32

func (q *eventHeap) push(ev event) { q.h.Push(minheap.Rank{Key: ev.t, ID: int(ev.c)}, ev.slot) }

func (q *eventHeap) pop() event {
	it := q.h.Pop()
	return event{t: it.Key, c: it.ID, slot: it.Value}
}

// len is the number of events queued.
func (q *eventHeap) len() int { return len(q.h) }

// next is the time of the earliest event; the queue must not be empty.
func (q *eventHeap) next() float64 { return q.h[0].Key }

// newEngine lays out the state of every job, phase and task.
func newEngine(fn string, jobs []Job, cfg Config, totalTasks int) *engine {
	e := &engine{fn: fn, cfg: cfg, jobs: jobs, seed: cfg.Seed, slots: cfg.Slots, regCap: cfg.Slots}
	e.dec.e = e
	e.alloc, e.rule = cfg.parts()
	// The optional interfaces of the allocator and rule, asked once.
	on := !cfg.Speculation.Off
	if p, ok := e.rule.(PoolRule); ok {
		e.regCap = cfg.Slots - cfg.Budget
		if on {
			e.pool = p
		}
	}
	if r, ok := e.rule.(RequestRule); ok && on {
		e.requester = r
	}
	var books Bookkeeping
	if b, ok := e.rule.(BookkeepingRule); ok {
		books = b.Bookkeeping()
	}
	e.poolKeyer, _ = e.alloc.(PoolKeyAllocator)
	e.conserving = true
	if c, ok := e.alloc.(ConservingAllocator); ok {
		e.conserving = c.WorkConserving()
	}
	e.betaC = clusterBeta(&cfg, jobs)
	e.judges = books.Stragglers && on
	e.everyInstant = books.EveryInstant && on || cfg.debug.everyInstant
	e.checks = e.judges && cfg.Speculation.Detect > 0
	e.observed = cfg.Speculation.Estimator == Observed
	e.indexed = e.judges && !e.observed
	e.lazyEnds = !e.everyInstant && !e.observed && cfg.debug.stretchAfter == 0 && cfg.Service == CopyService
	e.heartbeat = cfg.Speculation.Heartbeat
	if e.heartbeat == 0 {
		e.heartbeat = DefaultHeartbeat
	}
	nPhases := 0
	for j := range jobs {
		nPhases += len(jobs[j].Phases)
	}
	e.js = make([]jobState, len(jobs))
	e.ps = make([]phaseState, 0, nPhases)
	if e.observed || cfg.debug.stretchAfter > 0 {
		e.floor = make([]float64, 0, nPhases)
	}
	e.takeScratch(totalTasks)

	task := int32(0)
	for j := range jobs {
		job := &jobs[j]
		js := &e.js[j]
		js.plo = int32(len(e.ps))
		var tnewSum float64
		var tasks int
		for p := range job.Phases {
			ph := &job.Phases[p]
			st := phaseState{job: int32(j), lo: task, n: int32(ph.Tasks)}
			if p > 0 {
				f := ph.Start
				if f == 0 {
					f = 1
				}
				up := job.Phases[p-1].Tasks
				st.need = int32(math.Ceil(f * float64(up)))
				if st.need < 1 {
					st.need = 1
				}
				if st.need > int32(up) {
					st.need = int32(up)
				}
			}
			st.tnew = phaseMeanCopy(ph, job.Beta)
			if ph.Durations == nil {
				st.pareto = distuv.Pareto{Xm: ph.Scale, Alpha: job.Beta}
				st.capCDF = st.pareto.CDF(ph.Cap)
				// x_m bounds every draw below (the quantile x_m·(1−p)^(−1/β),
				// capped at Cap ≥ x_m), up to Pow's last bits.
				st.least = ph.Scale * (1 - 0x1p-40)
			}
			if e.floor != nil {
				e.floor = append(e.floor, phaseFloor(ph))
			}
			tnewSum += st.tnew * float64(ph.Tasks)
			tasks += ph.Tasks
			for i := int32(0); i < st.n; i++ {
				e.ts[task+i] = taskState{phase: int32(len(e.ps)), head: none, tail: none, runPos: none}
			}
			task += st.n
			e.ps = append(e.ps, st)
		}
		js.phi = int32(len(e.ps))
		js.unfinished = int32(tasks)
		js.tnew = job.NewCopy
		if js.tnew == 0 {
			js.tnew = tnewSum / float64(tasks)
		}
		js.tau = js.tnew
		js.minElapsed = cfg.Speculation.Detect * js.tnew
		js.thetaMax = math.Inf(-1)
		js.quiet = math.Inf(1)
	}
	if cfg.Speculation.Mantri {
		for j := range e.js {
			e.js[j].mantriCut = mantriCutoff(e.js[j].tnew, jobs[j].Beta, cfg.Speculation.Threshold)
			e.js[j].specCut = hopper.MantriCutoff(e.js[j].tnew, jobs[j].Beta, cfg.Speculation.Threshold)
		}
	}
	e.res = &Result{Policy: cfg.Policy, Slots: cfg.Slots, Jobs: make([]JobResult, len(jobs))}
	for j := range jobs {
		r := &e.res.Jobs[j]
		r.Arrival = jobs[j].Arrival
		r.Group = jobs[j].Group
		r.Tasks = jobTasks(&jobs[j])
	}
	return e
}

// phaseMeanCopy is the mean duration of a copy of one of the phase's tasks:
// βx_m/(β−1) for Pareto durations, the mean of the durations a copy takes
// otherwise.
func phaseMeanCopy(ph *Phase, beta float64) float64 {
	if ph.Durations == nil {
		ratio := math.Inf(1)
		if ph.Cap > 0 {
			ratio = ph.Cap / ph.Scale
		}
		return ph.Scale * truncatedParetoFactor(beta, ratio)
	}
	d := ph.CopyDurations
	if d == nil {
		d = ph.Durations
	}
	var sum float64
	for _, x := range d {
		sum += x
	}
	return sum / float64(len(d))
}

// phaseFloor is the shortest a copy of one of the phase's tasks can take:
// its Pareto scale x_m, or the least of its durations.
func phaseFloor(ph *Phase) float64 {
	if ph.Durations == nil {
		return ph.Scale
	}
	least := math.Inf(1)
	for _, x := range ph.Durations {
		least = math.Min(least, x)
	}
	for _, x := range ph.CopyDurations {
		least = math.Min(least, x)
	}
	return least
}

// phaseMoments computes, for SREW+C's effective workloads (Xu et al. eq.
// 25, Assumption 1), the mean and standard deviation of each phase's task
// durations from the durations its first copies take: what the scheduler
// knows a priori, estimated as the paper's §5 does from the trace. It is
// computed at the first call of Decision.PhaseMoments of the run (moments
// set), so that a run whose policy does not read them does not pay for
// them.
func (e *engine) phaseMoments() {
	e.moments = true
	for p := range e.ps {
		ph := &e.ps[p]
		var sum, sq float64
		for i := int32(0); i < ph.n; i++ {
			d := e.firstWork(ph.lo + i)
			sum += d
			sq += d * d
		}
		n := float64(ph.n)
		ph.mean = sum / n
		if v := sq/n - ph.mean*ph.mean; v > 0 {
			ph.sd = math.Sqrt(v)
		}
	}
}

// firstWork is the duration of a task's first copy under CopyService: its
// work under MachineService.
func (e *engine) firstWork(task int32) float64 {
	ts := &e.ts[task]
	pst := &e.ps[ts.phase]
	job := &e.jobs[pst.job]
	ph := &job.Phases[ts.phase-e.js[pst.job].plo]
	return firstDuration(e.seed, job, ph, int(task-pst.lo), int(task))
}

// copyDuration is how long copy number num of a task runs.
func (e *engine) copyDuration(task int32, num int32) float64 {
	ts := &e.ts[task]
	pst := &e.ps[ts.phase]
	job := &e.jobs[pst.job]
	ph := &job.Phases[ts.phase-e.js[pst.job].plo]
	i := task - pst.lo
	if e.cfg.Service == MachineService {
		return e.firstWork(task) * logNormalMeanOne(e.seed, drawMachine, int(task), int(num), e.cfg.ServiceCV)
	}
	switch {
	case ph.Durations == nil && ph.Cap > 0:
		// paretoDuration's truncated draw, with its F(Cap) kept per
		// phase: the same value, one power fewer per copy.
		u := keyedUniform(e.seed, drawDuration, int(task), int(num))
		return math.Min(pst.pareto.Quantile(u*pst.capCDF), ph.Cap)
	case ph.Durations == nil:
		return paretoDuration(e.seed, int(task), int(num), ph.Scale, job.Beta, ph.Cap)
	case num == 0:
		return ph.Durations[i]
	case ph.CopyDurations != nil:
		return ph.CopyDurations[i]
	}
	return ph.Durations[borrowIndex(e.seed, int(task), int(num), int(pst.n))]
}

// run is the event loop.
func (e *engine) run() error {
	order := make([]int32, len(e.jobs))
	for j := range order {
		order[j] = int32(j)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return cmpFloat(e.jobs[a].Arrival, e.jobs[b].Arrival)
	})
	next := 0
	first := true
	for next < len(order) || e.events.len() > 0 || e.checkq.Len() > 0 {
		t := math.Inf(1)
		if next < len(order) {
			t = e.jobs[order[next]].Arrival
		}
		if e.events.len() > 0 && e.events.next() < t {
			t = e.events.next()
		}
		if e.checkq.Len() > 0 && e.checkq.Min().Key < t {
			t = e.checkq.Min().Key
		}
		if first {
			e.res.Stats.Start = t
			first = false
		}
		e.now = t
		// decide: something happened at t. The end of a copy killed before
		// it changes nothing, and the decision it would call for is
		// skipped unless the policy hands out one copy per straggler per
		// decision (see everyInstant).
		decide := e.everyInstant
		for e.checkq.Len() > 0 && e.checkq.Min().Key == t {
			e.popCheck()
			e.res.Stats.Events++
			decide = true
		}
		for e.events.len() > 0 && e.events.next() == t {
			ev := e.events.pop()
			e.steps++
			if ev.c < 0 {
				if ev.c <= reportBase && !e.report(ev.slot, reportBase-ev.c) {
					continue
				}
				e.res.Stats.Events++
				decide = true
				continue
			}
			if cp := &e.cs[ev.slot]; cp.seq != ev.c || !cp.alive {
				continue // killed (its record perhaps another copy's since)
			}
			e.res.Stats.Events++
			decide = true
			if err := e.copyRunOver(ev.slot); err != nil {
				return err
			}
		}
		for next < len(order) && e.jobs[order[next]].Arrival == t {
			e.res.Stats.Events++
			decide = true
			e.arrive(order[next])
			next++
		}
		if e.pruned {
			e.active = slices.DeleteFunc(e.active, func(j int32) bool { return e.js[j].done })
			e.pruned = false
		}
		if !decide {
			continue
		}
		if err := e.schedule(); err != nil {
			return err
		}
	}
	for j := range e.js {
		if !e.js[j].done {
			return fmt.Errorf("%s: internal error: job %d never completed", e.fn, j)
		}
	}
	return nil
}

// detectAt is the first time at which a task started at start has run
// minElapsed by stragglers.Speculate's reckoning (now − start ≥ MinElapsed,
// in floating point).
func detectAt(start, minElapsed float64) float64 {
	t := start + minElapsed
	for t-start < minElapsed {
		t = math.Nextafter(t, math.Inf(1))
	}
	return t
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (e *engine) arrive(j int32) {
	js := &e.js[j]
	e.active = append(e.active, j)
	e.makeRunnable(js.plo)
}

func (e *engine) makeRunnable(p int32) {
	ph := &e.ps[p]
	if ph.runnable {
		return
	}
	ph.runnable = true
	e.js[ph.job].unsched += ph.n - ph.next
	e.unsched += int(ph.n - ph.next)
}

// MaxCopies is the most copies of one task that run at once: a task with
// MaxCopies live copies is not copied again (stragglers.Speculate is shown it
// with t_rem = 0, so it is never eligible; SREW+C's even spread is clipped
// to it), and the slots it would have taken stay free for other jobs or
// idle. Neither paper bounds the copies of a task — SREW+C clones a job's
// tasks into every machine it is allotted (Xu et al. Algorithm 2, line 14)
// and eq. 3.4 speculates "aggressively" in the last tasks — so on a cluster
// far larger than its work a job would hold S/T copies of each of its T
// tasks, and a run would cost O(S) per decision rather than what the jobs
// need. The bound is this library's choice: copies of a task past the
// MaxCopies-th shorten its expected run by less than 1/(MaxCopies·β − 1) <
// 0.4% of x_m (the minimum of k Pareto(x_m, β) copies is Pareto(x_m, kβ),
// of mean x_m·kβ/(kβ − 1)), while each holds a slot. The evaluations of the
// papers and specsim's default workload (200 slots) never reach it.
const MaxCopies = 256

// startCopy starts a new copy of task, in the budget pool or not. The
// caller keeps the task's copies ≤ MaxCopies. A copy ends strictly after
// it starts: a duration below half the clock's ulp would otherwise be lost
// (validateJobs bounds how far below the arrival's scale a duration may
// lie; Config.Service = MachineService can still draw one).
func (e *engine) startCopy(task int32, pool bool) {
	ts := &e.ts[task]
	pst := &e.ps[ts.phase]
	js := &e.js[pst.job]
	num := ts.made
	ts.made++
	eta := 1.0
	if e.cfg.Speculation.Estimator == Progress {
		eta = 0 // drawn when first read (etaOf)
	}
	var end float64
	if num > 0 && e.lazyEnds && !(e.now+pst.least < ts.due) {
		end = math.NaN() // it cannot end first: drawn when read (endOf)
	} else {
		d := e.copyDuration(task, num)
		if t0 := e.cfg.debug.stretchAfter; t0 > 0 {
			d = e.stretch(task, num, d, t0)
		}
		end = copyEnd(e.now, d)
	}
	cp := copyState{task: task, next: none, num: num, start: e.now, end: end, eta: eta, alive: true, pool: pool, seq: e.copySeq}
	e.copySeq++
	var c int32
	if n := len(e.freeCopies); n > 0 {
		c = e.freeCopies[n-1]
		e.freeCopies = e.freeCopies[:n-1]
		e.cs[c] = cp
	} else {
		c = int32(len(e.cs))
		e.cs = append(e.cs, cp)
	}
	if e.observed {
		u := e.onsetFraction(task, num)
		beat := reportBeat(e.heartbeat*js.tnew, e.now)
		pr := newProfile(end-e.now, e.floor[ts.phase], u, beat)
		if int(c) < len(e.prof) {
			e.prof[c] = pr
		} else {
			e.prof = append(e.prof, pr)
		}
	}
	e.steps++
	if ts.tail == none {
		ts.head = c
		ts.start = e.now
		ts.phi = detectAt(e.now, js.minElapsed)
	} else {
		e.cs[ts.tail].next = c
	}
	ts.tail = c
	ts.copies++
	if ts.copies == MaxCopies {
		js.capped++
	}
	if ts.status == taskUnscheduled {
		ts.status = taskRunning
		if js.running == nil {
			js.running = recycled(&e.sc.running)
		}
		ts.runPos = int32(len(js.running))
		js.running = append(js.running, task)
	}
	e.busy++
	js.held++
	if pool {
		js.poolHeld++
	} else {
		e.regBusy++
	}
	if num == 0 {
		e.res.Stats.Launched++
		if e.checks {
			e.pushCheck(pst.job, ts.phi)
		}
	} else {
		e.res.Stats.Copies++
	}
	// Only the copy that ends first ends the task's run (the others are
	// killed then), so only a copy that beats the earliest end so far needs
	// an event (a tie goes to the older copy, as the heap's order by copy
	// index would give it); the end of a copy killed before it changes
	// nothing. Under everyInstant every end is pushed, since a decision is
	// taken at each.
	earliest := num == 0 || end < ts.due
	if earliest {
		ts.due = end
	}
	if earliest || e.everyInstant {
		e.push(event{t: end, c: cp.seq, slot: c})
	}
	if e.judges {
		e.updateTheta(task, c)
		if e.observed && ts.copies < MaxCopies {
			e.pushRise(c, 1)
		}
	}
}

// copyEnd is when a copy started at start and running d ends: start + d,
// or, for a d below half the clock's resolution there, the next float.
func copyEnd(start, d float64) float64 {
	end := start + d
	if !(end > start) {
		end = math.Nextafter(start, math.Inf(1))
	}
	return end
}

// endOf is when copy c's run ends. A copy other than its task's first that
// cannot end before the task's earliest end so far — one started when less
// than its phase's shortest duration x_m was left to that end (least) —
// changes no event and, under a rule that reads no estimate (SREW+C's
// clones, 70% of which are such on a day of FB-2010), nothing at all: its
// duration is drawn, from its keyed stream, only when first read here
// (engine.lazyEnds).
func (e *engine) endOf(c int32) float64 {
	cp := &e.cs[c]
	if math.IsNaN(cp.end) {
		cp.end = copyEnd(cp.start, e.copyDuration(cp.task, cp.num))
	}
	return cp.end
}

// etaOf is copy c's error factor η, drawn from its keyed stream when first
// read: a run whose rule reads no estimate (SREW+C's, which clones into
// every slot it holds) draws none.
func (e *engine) etaOf(c int32) float64 {
	cp := &e.cs[c]
	if cp.eta == 0 {
		cp.eta = logNormalMedianOne(e.seed, drawEstimate, int(cp.task), int(cp.num), e.cfg.Speculation.EstimateError)
	}
	return cp.eta
}

// pushRise queues copy c's first report from report k on that lifts its
// estimate above its job's level, if any (Observed); the reports nextRise
// visits count as the run's work (steps).
func (e *engine) pushRise(c int32, k float64) {
	job := e.ps[e.ts[e.cs[c].task].phase].job
	lo, hi := e.reportLevels(job)
	_, at, ok, visits := e.nextRise(c, k, lo, hi)
	e.steps += visits
	if ok {
		e.push(event{t: at, c: reportBase - e.cs[c].seq, slot: c})
	}
}

// report handles a report event of copy number seq, in record c: if the
// copy still runs (the record is still its), its task still runs and may be
// copied, its eligibility bound takes the new estimate, the copy's next
// rising report is queued, and true calls for a decision.
func (e *engine) report(c int32, seq int) bool {
	cp := &e.cs[c]
	ts := &e.ts[cp.task]
	if cp.seq != seq || !cp.alive || ts.status != taskRunning || ts.copies >= MaxCopies {
		return false
	}
	e.updateTheta(cp.task, c)
	e.pushRise(c, e.reports(c)+1)
	return true
}

// stretch is the tests' tampering with the future (debugFlags.stretchAfter):
// a copy whose every report up to t0 comes before its slowdown, and whose
// nominal run is the phase's floor, takes twice its duration d. Its reports
// up to t0 are unchanged; only what comes after them differs.
func (e *engine) stretch(task, num int32, d, t0 float64) float64 {
	floor := e.floor[e.ts[task].phase]
	u := e.onsetFraction(task, num)
	if d >= floor && e.now+u*floor >= t0 {
		return 2 * d
	}
	return d
}

// pushCheck queues a check of job j at phi, the moment its task just
// launched becomes old enough to be judged a straggler. A check changes no
// state but calls for a decision (and counts as an event), so checks need
// not be ordered among themselves nor against the other events of their
// instant; the job's come in launch order, and their times never decrease
// (detectAt is nondecreasing in the start, which is), so each job keeps
// them in a queue and checkq orders the jobs by their first: O(log J) per
// check for J jobs with checks pending, where the event heap, holding
// every running copy's end besides, would take O(log(copies + checks)).
func (e *engine) pushCheck(j int32, phi float64) {
	e.steps++
	js := &e.js[j]
	if js.checks == nil {
		js.checks = recycled(&e.sc.checks)
	}
	js.checks = append(js.checks, phi)
	if len(js.checks)-int(js.checkHead) == 1 {
		e.checkq.Push(minheap.Rank{Key: phi, ID: int(j)}, int(j), struct{}{})
	}
}

// popCheck takes the earliest check off checkq (which must hold one).
func (e *engine) popCheck() {
	e.steps++
	j := e.checkq.Min().Index
	js := &e.js[j]
	js.checkHead++
	if int(js.checkHead) == len(js.checks) {
		js.checks, js.checkHead = js.checks[:0], 0
		e.checkq.Remove(j)
		return
	}
	if 2*int(js.checkHead) > len(js.checks) && js.checkHead > 32 { // keep the queue O(its pending part)
		js.checks = js.checks[:copy(js.checks, js.checks[js.checkHead:])]
		js.checkHead = 0
	}
	e.checkq.Min().Key = js.checks[js.checkHead]
	e.checkq.Fix(j)
}

// push adds an event to the heap.
func (e *engine) push(ev event) {
	e.steps++
	e.events.push(ev)
}

// launch starts the first copy of the next unscheduled task of phase p.
func (e *engine) launch(p int32) {
	ph := &e.ps[p]
	task := ph.lo + ph.next
	ph.next++
	e.js[ph.job].unsched--
	e.unsched--
	e.startCopy(task, false)
}

// release frees the slot of a live copy at the current time.
func (e *engine) release(c int32, killed bool) {
	cp := &e.cs[c]
	cp.alive = false
	ts := &e.ts[cp.task]
	js := &e.js[e.ps[ts.phase].job]
	ts.copies--
	e.busy--
	js.held--
	if cp.pool {
		js.poolHeld--
	} else {
		e.regBusy--
	}
	held := e.now - cp.start
	e.res.Stats.BusySlotTime += held
	if killed {
		e.res.Stats.Killed++
		e.res.Stats.WastedSlotTime += held
	}
	if e.cfg.Record {
		pst := &e.ps[ts.phase]
		e.res.Copies = append(e.res.Copies, CopyRecord{
			Job: int(pst.job), Phase: int(ts.phase - js.plo), Task: int(cp.task - pst.lo), Copy: int(cp.num),
			Start: cp.start, End: e.now, Killed: killed, Pool: cp.pool,
		})
	}
}

// copyRunOver handles the end of a copy's run: its task's run is over, the
// other copies are killed at once, and the task completes or waits for its
// upstream phase.
func (e *engine) copyRunOver(c int32) error {
	task := e.cs[c].task
	ts := &e.ts[task]
	if ts.status != taskRunning {
		return fmt.Errorf("%s: internal error: copy %d of a task that is not running", e.fn, c)
	}
	p := ts.phase
	pst := &e.ps[p]
	js := &e.js[pst.job]
	if ts.copies >= MaxCopies {
		js.capped--
	}
	for s := ts.head; s != none; {
		e.steps++
		next := e.cs[s].next
		if s != c && e.cs[s].alive {
			e.release(s, true)
			e.freeCopies = append(e.freeCopies, s)
		}
		s = next
	}
	ts.win = c
	ts.due = e.cs[c].end - e.cs[c].start
	// Remove the task from its job's running list (swap with the last).
	last := js.running[len(js.running)-1]
	e.unindex(js, task, last, int32(len(js.running)-1))
	js.running[ts.runPos] = last
	e.ts[last].runPos = ts.runPos
	js.running = js.running[:len(js.running)-1]
	ts.runPos = none
	js.unfinished--
	pst.computed++
	if p > js.plo && e.ps[p-1].completed < e.ps[p-1].n {
		ts.status = taskWaiting
		pst.waiting = append(pst.waiting, task)
		js.waiting++
	} else {
		e.complete(task)
	}
	if p+1 < js.phi && !e.ps[p+1].runnable && pst.computed >= e.ps[p+1].need {
		e.makeRunnable(p + 1)
	}
	return nil
}

// complete marks a task done, releases its last copy and cascades: a phase
// that completes releases the tasks of the next phase that wait for it, and
// the last phase completes the job.
func (e *engine) complete(task int32) {
	for {
		ts := &e.ts[task]
		p := ts.phase
		pst := &e.ps[p]
		js := &e.js[pst.job]
		if ts.status == taskWaiting {
			js.waiting--
		}
		ts.status = taskDone
		e.release(ts.win, false)
		e.freeCopies = append(e.freeCopies, ts.win)
		pst.completed++
		if pst.completed < pst.n {
			return
		}
		if p+1 == js.phi {
			e.finishJob(pst.job)
			return
		}
		down := &e.ps[p+1]
		waiting := down.waiting
		down.waiting = nil
		if len(waiting) == 0 {
			return
		}
		// Complete all but the last waiting task here and continue the
		// cascade with the last (only it can complete the next phase).
		for _, w := range waiting[:len(waiting)-1] {
			e.complete(w)
		}
		task = waiting[len(waiting)-1]
	}
}

func (e *engine) finishJob(j int32) {
	js := &e.js[j]
	js.done = true
	e.recycleJob(j)
	e.pruned = true
	r := &e.res.Jobs[j]
	r.Finish = e.now
	r.Completion = e.now - r.Arrival
	e.res.Stats.End = e.now
	e.res.Stats.JobsDone++
	if e.cfg.Progress != nil {
		e.cfg.Progress(e.res.Stats.JobsDone, len(e.jobs))
	}
}
