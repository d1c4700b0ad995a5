// Package sim is a discrete-event simulator of a cluster of slots for the
// model of Hopper (thesis §2, §3.1, §4.1, §6): jobs arrive
// over time, run their tasks as copies on slots, stragglers are copied, and
// the first copy of a task to finish completes it. It runs every allocation
// policy of specsched on the same workload so that they can be compared, as
// the thesis's §6 does: mean and percentile job completion times, gains over
// SRPT and Fair, gains by job size, slow-downs against Fair (Figure
// 6.4b–c), utilisation, and the slot-time spent on killed copies.
//
// Papers: Xiaoqi Ren, "Speculation-aware Resource Allocation for Cluster
// Schedulers", Master's thesis, California Institute of Technology, 2015
// (CaltechTHESIS 8664), "the thesis"; and, for the trace model of copies
// and SREW+C(β), Huanle Xu, Wing Cheong Lau, Zhibo Yang, Gustavo de
// Veciana, Hanxu Hou, "Mitigating Service Variability in MapReduce Clusters
// via Task Cloning: A Competitive Analysis", IEEE Transactions on Parallel
// and Distributed Systems, 2017, doi:10.1109/TPDS.2017.2689767, "Xu et al.".
//
// # The model
//
// A cluster has S slots; each runs one copy of one task at a time. A Job is
// a chain of phases of parallel tasks; a downstream phase may start once a
// fraction of its upstream phase's tasks have finished, and its tasks
// complete only after the upstream phase has (pipelining, §4.1). Every copy
// of a task draws its duration independently: Pareto(x_m, β) by default
// (§3.1), optionally truncated; or durations from a trace (ParseTrace), a
// copy borrowing the duration of a random task of its phase (Xu et al. §5);
// or fixed durations of each task's first and later copies (the thesis's
// Table 2.1, ThesisExample). With Config.Service = MachineService a task has
// a fixed work and its copies differ only by the speed of their machines
// (Xu et al.'s service variability). The first copy to finish completes the
// task; its other copies are killed at that instant and their slots are free
// for the decision taken at the same instant.
//
// # Decisions
//
// A policy is two values: an Allocator, how the slots are shared among the
// jobs, and an InJobRule, how a job uses the slots it is granted; any
// allocator combines with any rule, and a caller can plug in its own of
// either (Config.Allocator, Config.Rule; see the Allocator example and
// "Writing your own policy" below). The
// Preset constants name combinations of the built-in ones (Preset.Parts). At every
// event — a copy's end, an arrival, a task becoming old enough to be judged
// a straggler — the allocator computes its targets from the active jobs'
// snapshot (a Decision), the free slots go to the jobs below their target
// in its priority order, and each job fills its grant by the rule: Hopper's
// SpeculateRule by stragglers.Speculate (eq. 3.2's split between new tasks
// and copies; the thesis's rule t_rem > t_new or Mantri's), the strawmen of
// §2.2 by BestEffortRule or BudgetedRule, SREW+C by competitive.Plan
// (PlanRule), the non-speculative baselines by LaunchRule, and the
// speculation systems the papers compare against by LATERule, GRASSRule,
// DollyRule, SparkRule and HadoopRule (over stragglers.LATE, GRASS,
// DollyClones, SparkSpeculateStats and HadoopSpeculateStats; no Preset,
// combine them with an allocator). The allocators
// come from alloc (Algorithm 1, HopperAllocator; with Reserve, keeping a
// job's slots for its copies), fairness (Algorithm 2,
// EpsFairAllocator), dag (Algorithm 3, DAGAllocator, α from
// dag.EstimateAlpha), stragglers (the K-class Algorithm 4, HeteroAllocator)
// and competitive (g_j(t) of SREW+C(β), SREWCAllocator), beside SRPT and
// Fair; every integer share comes from alloc.Apportion inside them. The
// built-in allocators and rules own their scratch memory, so a value serves
// one run at a time. No copy is preempted, and a task runs at most
// MaxCopies copies at once, so that a run costs what its jobs need however
// many slots idle. See Simulate for the rules in full and Preset for the
// list.
//
// # Writing your own policy
//
// An Allocator or InJobRule of the caller's is a first-class one: the
// built-in ones are written against the same exported API and use nothing
// else of the engine. At a decision both see the run through a Decision, a
// read-only snapshot of the active jobs: their remaining tasks, demands,
// slots held (in and out of the reserved pool), β and t_new
// (Decision.NewCopy), each phase's progress (Decision.Phase) and the
// moments of its first copies' durations (Decision.PhaseMoments), each
// running task's copies and estimated remaining time, the run's Config; a
// rule acts on it by Decision.Launch and Decision.Copy only. What a policy
// needs of the engine beyond that it declares by optional interfaces,
// asked once per run:
//
//   - ConservingAllocator: decline work conservation (SRPT, Fair).
//   - PoolKeyAllocator: the jobs' order for a reserved pool (Fair).
//   - BookkeepingRule: the straggler bookkeeping — the eligibility filter
//     Decision.MayHaveStraggler, the decisions at the instants tasks become
//     old enough to judge (and, under Observed, at the reports that can
//     make them stragglers) — and a decision at every instant, for a rule
//     that gives a straggler one copy per decision (Hopper's, best
//     effort, budgeted).
//   - RequestRule: copies that count as the job's tasks in its demand
//     (best effort).
//   - PoolRule: a pool of Config.Budget slots that runs copies only,
//     filled after the grants (budgeted).
//
// Decision.AppendRunning shows a job's running tasks as
// stragglers.Speculate takes them, so that a rule judges stragglers with
// the library's estimates; Reported, Elapsed, RunningPhase and
// AppendComputed give what progress-based systems read (a task's last
// report and age, the durations of the finished tasks), Busy and
// SpeculativeCopies the cluster's state (LATE's cap is cluster-wide); the package's tests run every built-in
// allocator and rule against a version written from this API alone and
// find the same run, copy for copy.
//
// # What the scheduler sees
//
// A job's scheduler judges a running task a straggler from t_rem, its
// estimated remaining time, once the task has run Speculation.Detect ×
// t_new. Speculation.Estimator says how t_rem is formed:
//
//   - Oracle: exactly, the time until the task's earliest copy ends.
//   - Progress (DefaultSpeculation): each copy's true remaining time times
//     an error η, log-normal with median 1 and σ = EstimateError, drawn
//     once per copy. Close to an oracle: a copy due soon always looks due
//     soon, and the estimate is there from the copy's start.
//   - Observed: only what the copies have reported. A copy runs at the
//     nominal rate of its phase's fastest copy and slows down at a point
//     drawn over that nominal run (uniformly, or early or late as
//     Speculation.Onset sets), finishing at its drawn
//     duration (so the durations, and every run without speculation, are
//     those of the other estimators); it reports its progress score every
//     Speculation.Heartbeat × t_new (DefaultHeartbeat: Hadoop's 3 s against
//     tasks of 30 s), and its remaining time is estimated at its last report
//     from its progress rate since its start, as LATE (§4) and Hadoop's
//     speculator estimate it. A task is judged only once its first copy
//     has reported, and a copy that slows down late is seen late, or not
//     at all. Every built-in rule — Hopper's (thesis's or Mantri's), best
//     effort, budgeted — and a caller's rule through Decision.RunningTask
//     read t_rem from this one estimator; SREW+C's plan reads no estimate.
//     Observed is meant as the model of the reproduction of the thesis's
//     evaluation; DefaultSpeculation keeps Progress, so that existing
//     results do not change.
//
// The model in full, its sources in the straggler literature, and how the
// decisions it calls for are timed, are documented with the engine's code.
//
// # The thesis's worked example
//
// ThesisExample is Table 2.1 on 6 slots. With tasks judged as soon as they
// start (the thesis "ignores this observation duration", §3.3), best-effort
// SRPT completes jobs (A, B) at (5, 8), best-effort Fair at (6, 8) and Hopper
// at (3, 6), the captions of Figures 2.1 and 2.3. Figure 2.2's budgeted
// speculation, (3, 7) for SRPT and (6, 8) for Fair, needs a detection delay
// of one time unit: with none, its reserved pool would also copy A2 (t_rem
// = 3 > t_new = 2) at time 0, while the text says the second reserved slot
// stays vacant until time 3. The schedules, derived by hand from Table 2.1
// and the rules, are in the package's tests.
//
// # Workloads and metrics
//
// Synthesize draws a workload of SynthConfig (DefaultWorkload is the one the
// specsim command runs): Poisson arrivals calibrated to an offered load,
// power-law tasks per job, job groups with their own β, phase chains.
// ParseTrace reads the CSV trace format, WriteTrace writes it. Summarize,
// Gain, Slowdowns and BinGains compute the metrics.
//
// # Contracts
//
// Simulate is a pure function of its arguments: no clocks, no goroutines, no
// global state, inputs never modified. Every random draw comes from a PCG
// stream keyed by Config.Seed, what the draw is for, the task and the copy
// number (common random numbers): the same jobs, Config and Seed give the
// same Result bit for bit, and two policies run with the same seed see the
// same duration for the same copy of the same task, so their comparison is
// paired. Invalid input returns a *specsched.InputError naming the job and
// field (a *TraceError, with the line, for a malformed trace), and so does a
// misuse of a Decision by the caller's allocator or rule (see Decision); no
// exported function or method panics.
package sim
