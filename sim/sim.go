package sim

// A JobResult is the outcome of one job.
type JobResult struct {
	Arrival    float64
	Finish     float64 // when its last task completed
	Completion float64 // Finish − Arrival
	Tasks      int     // tasks over all its phases
	Group      int
}

// A CopyRecord is one copy that ran (Config.Record): which task, when it
// held its slot, and whether it was killed because another copy of its task
// finished first.
type CopyRecord struct {
	Job, Phase, Task int // the task: Job's phase Phase, task Task (0-based)
	Copy             int // 0 for the task's first copy
	Start, End       float64
	Killed           bool
	Pool             bool // ran in budgeted speculation's reserved pool
}

// Stats are a run's counters.
type Stats struct {
	Events   int // copy ends and arrivals processed
	JobsDone int
	Launched int // first copies: tasks started
	Copies   int // further copies: speculative copies and clones
	Killed   int // copies killed because another copy of their task finished
	// BusySlotTime is the slot-time held by copies; WastedSlotTime the part
	// held by killed copies.
	BusySlotTime, WastedSlotTime float64
	// Start and End are the first arrival and the last completion;
	// Utilisation is BusySlotTime / (Slots·(End − Start)).
	Start, End, Utilisation float64
}

// A Result is the outcome of Simulate: one JobResult per input job, in input
// order, and the run's counters.
type Result struct {
	Policy Preset // Config.Policy (only a label when Config.Allocator and Rule replace it)
	Slots  int
	Jobs   []JobResult
	Stats  Stats
	Copies []CopyRecord // with Config.Record, in the order the copies ended
}

// Simulate runs jobs on a cluster of cfg.Slots slots under cfg.Policy and
// returns every job's completion time and the run's counters. It is a
// discrete-event simulation of the model of Hopper's thesis (§3.1, §4.1):
//
//   - Jobs arrive at their Arrival times; each is a chain of phases of tasks
//     (see Job). Every copy of a task draws its duration independently
//     (see Phase; Config.Service), the first copy of a task to finish
//     completes it, and its other copies are killed at once, their slots
//     free for the decision of the same instant.
//   - Events are copy ends, arrivals and, when Speculation.Detect > 0 and
//     the policy speculates, the instants at which tasks have run long
//     enough to be judged stragglers, and, under Speculation.Estimator =
//     Observed, the progress reports that lift a copy's estimated remaining
//     time above the rule's level (the only instants at which a task can
//     turn into a straggler: estimates fall between reports). At every
//     event time the copy ends are
//     processed (in the order the copies were started), then the arrivals
//     (in input order), then one decision: the policy's allocation
//     is computed from the snapshot of the active jobs, the free slots are
//     granted to the jobs below their allocation in the policy's priority
//     order, each job fills its grant by its in-job rule, and slots still
//     free are offered to every job in priority order (work conservation;
//     §3.3, "it should not leave slots unused"). No copy is ever preempted:
//     a job above its allocation keeps its copies and gets no new ones.
//     Under best-effort and budgeted speculation, which give a straggler one
//     copy per decision, a decision is also taken at the instant a killed
//     copy would have ended (as every version of this simulator has done;
//     under the other policies such a decision would change nothing); a
//     caller's rule asks for the same by Bookkeeping.EveryInstant.
//
// The policy is cfg's Allocator and Rule, each nil one that of cfg.Policy
// (see Allocator, InJobRule and the built-in ones for their rules in full);
// what the presets do:
//
// Allocations (T_j: a job's tasks whose run is not over, over all phases):
// SRPT fills each job's demand — the slots it holds plus one per
// unscheduled runnable task (plus one per detected straggler under best
// effort) — in increasing T_j; Fair shares the slots max-min fairly over
// the demands; Hopper calls alloc.AllocateSlots(T, S, β); HopperEps
// fairness.AllocateSlots with Config.Eps; HopperHetero
// stragglers.AllocateSlots with each job's Beta; HopperDAG dag.AllocateSlots
// (see the policy); SREWC competitive.Machines on the remaining effective
// workloads. Priority: increasing T_j (SRPT and the Hopper family; max{T,
// T'} for HopperDAG), increasing Υ_j(t) for SREW+C, arrival for Fair. Ties
// go to the earlier arrival, then the input index. A decision at which no
// job could start a copy is skipped (it would change nothing).
//
// In-job rules: Hopper's policies fill their slots by stragglers.Speculate
// (eq. 3.2's split, then the thesis's or Mantri's rule; Config.Speculation),
// called again while it starts copies. Best-effort speculation (thesis §2.2)
// counts a detected straggler's copy as a task of its job and, of the slots
// handed to the job, gives copies the first (the most urgent first, as
// Speculate orders them), then launches; it does not call again, so a task
// launched at an event waits for the next to be copied. Budgeted speculation
// runs tasks outside a pool of Config.Budget slots and fills the pool's free
// slots with copies of detected stragglers. SREW+C spreads its share over
// the job's tasks with competitive.Plan. Unscheduled tasks are launched
// upstream phase first, in index order.
//
// Randomness: every draw comes from a stream keyed by Config.Seed and what
// it is for (see the package documentation), so a run is a pure function of
// jobs and cfg, and two policies run on the same jobs and seed see the same
// durations for the same copy of the same task.
//
// Copies: a task runs at most MaxCopies copies at once (see MaxCopies); the
// slots its job is granted beyond them go to the other jobs or idle.
//
// Complexity: O(E·(n log n + R·c) + C log C) for E events, n active jobs, R
// the running tasks of the jobs that receive slots at an event (Speculate's
// view; jobs without a possible straggler are served without one), c ≤
// MaxCopies their copies and C ≤ MaxCopies × tasks the copies started, plus
// the allocation's O(n) per event at which a slot is free. Nothing grows with
// the slots the jobs cannot use: a cluster of 2^24 slots costs what one of a
// few hundred does for the same jobs. Memory O(jobs + tasks + copies).
//
// Special cases: no jobs gives an empty result. An error is returned, before
// anything runs, for an invalid cfg (Slots outside [1, 2^24], an unknown
// policy, estimator or service model, a Beta that is neither 0 nor > 1,
// Eps, Threshold or Dampening outside [0, 1], SREWCBeta outside (0, 1] for
// SREWCAllocator, a negative Lambda (or one above MaxSREWCLambda for
// SREWCAllocator), a Budget outside [0, Slots) for a PoolRule
// (BudgetedRule), EstimateError outside [0, 10], Detect outside [0, 1e6], Heartbeat outside
// [0, 1e6], a ServiceCV outside
// (0, 100] under MachineService, any NaN) and an invalid job (see Job and
// Phase: arrival outside [0, 1e12], Beta ≤ 1, no phases, a phase of no
// tasks, Start outside [0, 1], durations or Scale ≤ 0 or above 1e12, or
// below MinTimeRatio × the job's arrival, mismatched lengths, more than 2^28
// tasks in all); errors name the job and the field (Config.Validate makes
// the configuration's checks alone). An error returned by the caller's
// Allocator or InJobRule stops the run and is returned as it is; so do,
// as a *specsched.InputError, a misuse of a Decision's methods by them (a
// position, task or count out of range; see Decision) and an allocator's
// priority that is NaN or negative (Field "key", the job's index). Every job
// of an accepted input completes in a positive time (a copy ends at least
// one ulp of the clock after it starts).
func Simulate(jobs []Job, cfg Config) (*Result, error) {
	e, err := simulate(jobs, cfg)
	if err != nil {
		return nil, err
	}
	e.putScratch()
	return e.res, nil
}

// simulate is Simulate, returning the engine (its counters) to the tests.
func simulate(jobs []Job, cfg Config) (*engine, error) {
	const fn = "sim.Simulate"
	if err := cfg.validate(fn); err != nil {
		return nil, err
	}
	total, err := validateJobs(fn, jobs)
	if err != nil {
		return nil, err
	}
	e := newEngine(fn, jobs, cfg, total)
	if err := e.run(); err != nil {
		return nil, err
	}
	st := &e.res.Stats
	if span := st.End - st.Start; span > 0 {
		st.Utilisation = st.BusySlotTime / (float64(cfg.Slots) * span)
	}
	return e, nil
}

// grow returns s resliced to n elements, reallocated if its capacity is short;
// the contents are not kept.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
