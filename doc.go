// Package specsched is a library of speculation-aware cluster-scheduling
// algorithms: at every task completion or job arrival a scheduler hands it an
// immutable snapshot of its jobs and gets back how many slots each job should
// hold, how many speculative copies or clones to run, and which queued work a
// node should take next.
//
// Stragglers — tasks that run many times longer than their siblings — are
// the norm in data-analytics clusters, and the usual fix is to run
// speculative copies of slow tasks and keep the first to finish. Deciding how
// much capacity each job may spend on such copies is a scheduling decision,
// and the algorithms here make it jointly with the allocation across jobs,
// as the papers they come from prove optimal or competitive.
//
// # Where things are
//
//	paper                                            package      entry points
//	-----------------------------------------------  -----------  ------------------------------------------
//	Hopper (Ren, Caltech MS thesis 2015) §3.1–3.4     alloc        Allocate, AllocateSlots (Algorithm 1),
//	                                                               VirtualSize, SpeculationLevel, Throughput,
//	                                                               TotalThroughput (eq. 3.2–3.5), Apportion
//	Hopper §3.4, kept current by events               online       Hopper: Add, Update, Remove, SetSlots,
//	                                                               Target, Compare, Snapshot (Algorithm 1 in
//	                                                               O(log n) per event; integer form to come)
//	Hopper §3.5                                       fairness     Allocate, AllocateSlots (Algorithm 2)
//	Hopper §4.1, §5.2, §6.2.1                         dag          Allocate, AllocateSlots (Algorithm 3),
//	                                                               EstimateAlpha, Ratio (α with dampening)
//	Hopper §4.2 (Theorem 3), §6.4.2;                  stragglers   TwoClasses, TwoClassesSlots (Algorithm 4),
//	Hopper conf. §7.2; Hopper §2.1 and Mantri                      Allocate, AllocateSlots (K classes / per-job
//	(Xu et al. §5)                                                 β), FitPareto, ParetoFit (β fitting),
//	                                                               Speculate, SpeculateRunning (in-job
//	                                                               speculation policy)
//	Xu et al., task cloning, §3 SEW                   competitive  SEW (Algorithm 1), LowerBound (eq. 18),
//	                                                               SEWBound, SEWConfidence (Theorem 2),
//	                                                               SEWRatio (Theorem 3)
//	Xu et al. §4 SREW+C(β)                            competitive  Shares, Machines (g_j(t)), Plan, SREWC
//	                                                               (Algorithm 2), SREWCSpeed, SREWCRatio
//	                                                               (Theorem 4), EffectiveWorkload,
//	                                                               RemainingEffectiveWorkload (eq. 19, 25)
//	Xu et al. §2 time-slotted model                   competitive  Simulate (SEW, SREW+C(β), Fair)
//	Lin, Zhang, Wierman, Tan, overlapping phases      overlap      Rates (MaxSRPT §4.1 Alg. 1, SplitSRPT §4.2
//	(Performance Evaluation 2013)                                  Alg. 2, k-LPS and FIFO of §5), Simulate
//	                                                               (exact fluid tandem queue), LowerBound
//	                                                               (§5.1), Workload (§5.3), RunExperiment,
//	                                                               Corollary4Instance, Corollary6Instance,
//	                                                               Theorem2Instance
//	Eagle (Delgado et al., SoCC 2016) §2–6            probe        Classify, ProbeCount, GetProbeFromQueue
//	                                                               (Algorithm 1), StateVector, PlaceProbes,
//	                                                               ReplaceProbes, Freshest (SSS), PlaceLWL,
//	                                                               StealBatch (Hawk), Simulate, ParseTrace,
//	                                                               Synthesize
//	Hopper (conference paper) §6.1                    probe        HopperPick (decentralized Hopper at a
//	                                                               worker, on fairness.Allocate)
//	Hopper §2 (Table 2.1, Figures 2.1–2.3), §3.1,     sim          Simulate (every policy above on a slot
//	§4.1, §6; Xu et al. §5                                         cluster, with in-job speculation),
//	                                                               Synthesize, DefaultWorkload, ParseTrace,
//	                                                               WriteTrace, ThesisExample, Summarize,
//	                                                               Gain, Slowdowns, BinGains
//
// The command cmd/specsim runs sim's default workload under every policy
// and prints the comparison (go run ./cmd/specsim); its subcommands run the
// thesis's worked example, overlap's §5.3 experiment and probe's simulator.
//
// Each function's doc comment names the section, equation, algorithm and
// theorem of the paper it implements.
//
// # Papers
//
// The papers are the specification; "Hopper" or "the thesis" alone means
// the first, "the Hopper conference paper" the second.
//
//   - Xiaoqi Ren, "Speculation-aware Resource Allocation for Cluster
//     Schedulers", Master's thesis, California Institute of Technology,
//     2015 (CaltechTHESIS 8664, https://thesis.library.caltech.edu/8664/).
//     Hopper's model, virtual job sizes, Algorithms 1–4 and Theorems 1–3,
//     the worked example of Table 2.1, the evaluation of §6.
//   - Xiaoqi Ren, Ganesh Ananthanarayanan, Adam Wierman, Minlan Yu,
//     "Hopper: Decentralized Speculation-aware Cluster Scheduling at Scale",
//     ACM SIGCOMM 2015, pp. 379–392, doi:10.1145/2829988.2787481.
//     Decentralized Hopper on Sparrow (§6.1), β re-fitting, α estimation.
//   - Huanle Xu, Wing Cheong Lau, Zhibo Yang, Gustavo de Veciana, Hanxu Hou,
//     "Mitigating Service Variability in MapReduce Clusters via Task
//     Cloning: A Competitive Analysis", IEEE Transactions on Parallel and
//     Distributed Systems, 2017, doi:10.1109/TPDS.2017.2689767. SEW,
//     SREW+C(β), the time-slotted model of machine variability.
//   - Pamela Delgado, Diego Didona, Florin Dinu, Willy Zwaenepoel,
//     "Job-aware Scheduling in Eagle: Divide and Stick to Your Probes", ACM
//     Symposium on Cloud Computing (SoCC) 2016, doi:10.1145/2987550.2987563.
//     Succinct State Sharing, sticky batch probing, the Hawk and Sparrow
//     baselines.
//   - Minghong Lin, Li Zhang, Adam Wierman, Jian Tan, "Joint Optimization of
//     Overlapping Phases in MapReduce", Performance Evaluation, 2013 (a short
//     version in ACM SIGMETRICS Performance Evaluation Review,
//     doi:10.1145/2567529.2567534). MaxSRPT, SplitSRPT, the overlapping
//     tandem queue.
//
// # Layers
//
// The module is layered; each layer imports only the ones before it:
//
//  1. The root package specsched: the two error types every package
//     returns, InputError (a bad argument: function, job, field, value,
//     reason) and TraceError (a malformed trace line), and Summary, the one
//     summary of completion times every simulator reports.
//  2. internal/: the machinery the algorithms share and users never see —
//     check (input validation and the dst-overlap rule), scale (shares at
//     the edges of float64's range), selection (the one radix-selection
//     engine every cut-off search runs on, and largest-remainder
//     apportionment; every package's opaque Workspace holds one), hopper
//     (the unchecked kernels of Hopper's model and of Algorithms 1 and 2,
//     which alloc's and fairness's exported functions call after
//     validating, and stragglers and probe's simulator call on data they
//     validated), the kernels of the other allocators on the same terms —
//     dagkernel (Algorithm 3 and its α, behind dag), waterfill (the
//     K-class water-filling, behind stragglers.Allocate) and srewc
//     (SREW+C's machine shares, behind competitive.Shares and Machines),
//     specbase (the speculation baselines' kernels — LATE, GRASS, Dolly,
//     Spark's and Hadoop's rules — and the Task and Action types they
//     share with Hopper's rule, behind stragglers) —,
//     enum (the names of every enumeration),
//     minheap (the simulators' one binary heap), stats (computes the
//     one Summary) and testutil (generators and references for
//     the tests).
//  3. The algorithm packages, pure functions of a snapshot, each an
//     exported validation in front of a kernel: alloc, then fairness, dag
//     and stragglers (which build on alloc and internal/hopper),
//     competitive, overlap's Rates, and probe's placement functions; and
//     online, Algorithm 1 kept up to date by events instead of recomputed
//     from a snapshot (alloc.Allocate is its reference).
//  4. The simulators, which run those functions at every event: sim (slot
//     cluster), probe's Simulate (node queues), competitive's Simulate
//     (time slots) and overlap's Simulate (fluid tandem queue). Each keeps
//     its own event loop and shares the heap and summary of layer 2.
//  5. cmd/specsim, the command line over the simulators.
//
// sim composes a policy from two parts: an allocator, which shares the
// slots among jobs at each decision (sim.Allocator: SRPT, Fair, Hopper's
// Algorithms 1–4, SREW+C), and an in-job rule, which decides how a job
// uses the slots it got (sim.InJobRule: launch only, Hopper's speculation,
// best effort, budgeted, SREW+C's plan). Any allocator combines with any
// rule, and a user's own implementation of either plugs into Simulate
// through sim.Config; the named policies (sim.Preset) are presets of the
// two, and specsim's -policies accepts both the names and allocator+rule.
//
// Where validation happens. Each algorithm checks a snapshot once, at its
// exported function; code in the module that holds data it has already
// checked calls the kernel behind it instead (internal/hopper,
// dagkernel, waterfill, srewc, specbase, and the packages' unexported
// kernels), so
// no error that "cannot happen" is produced or thrown away. sim's built-in
// allocators are such code: at each decision they build a snapshot from
// the engine's validated state (task counts, tail indices, Config) and
// call the kernels, each of whose doc comments states the precondition
// its caller has checked; a user's allocator gets the same results from
// the exported functions (sim's TestUserPartsMatchBuiltIns). The
// speculation baselines are such code too: sim's LATE, GRASS, Dolly, Spark
// and Hadoop rules and competitive's GRASS and Dolly call
// internal/specbase, the kernels behind stragglers' baseline functions, on
// views built from validated state (stragglers' TestKernelsMatch checks
// kernel and exported function agree). (Unlike a user's plug-in,
// several built-in rules also read engine state that sim.Decision does
// not expose.)
//
// The simulators share one shape, Simulate(workload, parameters…)
// (result, error), and differ where their models do: sim keys a random
// stream to each draw (its purpose, task and copy) from Config.Seed
// (common random numbers: every policy sees the same task durations), probe and
// competitive draw from one injected *rand.Rand, and overlap's fluid model
// is deterministic and writes each job's response time to a dst with a
// workspace, as the decision functions do.
//
// # Conventions shared by every package
//
// Snapshots in, allocations out. Every decision function is a pure function
// of its arguments: no globals, no clocks, no goroutines, no map iteration
// order. Inputs are never modified. Randomised algorithms take their source
// of randomness (a *rand.Rand from math/rand/v2) as an argument, so the same
// input gives the same output, bit for bit, on every run.
//
// Outputs go to dst. A function that produces one value per job takes a
// destination slice first and returns the result: dst is resliced to the
// number of jobs and overwritten when its capacity suffices, and a new slice
// is allocated otherwise, so passing nil is fine and passing a reused slice
// allocates nothing. On error the function returns nil and leaves the
// contents of dst untouched. A dst that would be reused must not share
// memory with any input slice (the algorithms read their inputs after they
// start writing): such a call returns an *InputError on the field "dst".
//
// Scratch space is a workspace. Functions that need scratch memory take a
// *Workspace of their own package (alloc.Workspace, fairness.Workspace,
// dag.Workspace, …) as their last argument. The zero value is ready to use; it grows to the largest snapshot
// seen and is then reused, so a scheduler that keeps one workspace per
// goroutine makes its decisions without allocating. A nil workspace is
// allowed and allocates a temporary one. A workspace must not be shared by
// concurrent calls.
//
// Errors, not panics. Inputs are validated once, at the boundary, before any
// work: NaN, ±Inf, negative counts, out-of-range parameters and mismatched
// lengths return a *InputError naming the function, the job index and the
// field. No exported function panics on any value a caller can pass; fuzz
// targets hold that line. Every finite value is an input, from subnormals
// to MaxFloat64 and counts up to 2^53: a function answers it correctly or,
// where a result or an intermediate would leave float64's range in a way
// that cannot be worked around, rejects it with an *InputError whose bound
// its doc comment states. It never returns NaN or ±Inf with a nil error.
//
// Real and integer forms. Each allocation algorithm has a real-valued form,
// Allocate, that follows the paper's formulas exactly, and an integer form,
// AllocateSlots, that turns the real shares into whole slots with
// alloc.Apportion: the slots sum exactly to the integer total, no job is
// moved by a whole slot or more (near 2^53, where the real shares are
// themselves rounded to a few units, by at most one slot more than that
// rounding), and ties go in the algorithm's own priority order.
//
// # Choosing an algorithm
//
// Jobs of one phase whose task durations share one heavy tail: alloc.Allocate
// (Hopper, Algorithm 1) maximises total throughput and serves the smallest
// virtual sizes first when capacity is short. If no job may fall far below
// its fair share S/N, use fairness.Allocate with ε, the fraction of the fair
// share a job may lose (ε = 0 is the Fair scheduler, ε = 1 is Algorithm 1; the
// paper evaluates ε = 0.1).
//
// Jobs whose running phase feeds a pipelined downstream phase (map → shuffle,
// DAG stages): dag.Allocate (Hopper, Algorithm 3) orders them by max{T, T'}
// (MaxSRPT) and weighs their virtual sizes by √α, α being the downstream work
// per unit of upstream work; dag.EstimateAlpha computes α from the data
// produced and read, with a dampening d ∈ [0, 1] (0.8 Spark-like, 0.3
// Hadoop-like; d = 0, or every α = 1, is Algorithm 1).
//
// When job groups have different straggler tails, fit β per group from
// completed task durations (stragglers.FitPareto, or stragglers.ParetoFit
// online) and allocate with stragglers.Allocate, which takes a β per job and
// maximises total throughput (Theorem 3 for any number of classes; for two
// classes it is Algorithm 4, stragglers.TwoClasses; for one, Algorithm 1).
// Inside a job, stragglers.Speculate (or SpeculateRunning, from the running
// tasks and the queue length) turns its slots into launches and
// speculative copies, by the thesis's rule (t_rem > t_new) or Mantri's
// (P(t_rem > (c+1)/c·t_new) > δ, δ = 0.25 by default).
//
// MapReduce jobs on machines whose speed varies from slot to slot, and whose
// tasks can be cloned (several copies, the first to finish wins):
// competitive.SREWC (SREW+C(β), Algorithm 2 of Xu et al.) gives the machines
// to the ⌈βN⌉ jobs with the smallest remaining effective workload
// Υ_j(t) = Σ unfinished tasks × (mean + λ·SD) and spreads each job's machines
// evenly over its tasks, cloning when nothing is left to start. β = 1 is the
// Fair scheduler; the paper evaluates β = 0.7, λ = 1 and proves
// (1+2β+ε)-speed O(1/(βε))-competitiveness (for β ≤ 1/2, λ = 0).
// competitive.Machines alone gives the integer shares g_j(t); without
// preemption use competitive.NonPreemptive (the paper's §5 variant). For a
// batch of jobs known up front, competitive.SEW (Algorithm 1).
//
// Jobs whose map and shuffle (copy) phases overlap — shuffle work becomes
// available as map tasks finish — share two stations, the map slots and the
// network: overlap.Rates gives each job its map and shuffle rate. MaxSRPT
// (order by max(x(t), y(t))) is within 2α/(1+α) of optimal and best when a
// job's map and shuffle sizes are alike; SplitSRPT (map-heavy and
// shuffle-heavy jobs split the capacity by the least imbalance β) is within
// 1 + 1/β and best when they differ a lot. overlap.KLPS models Hadoop's Fair
// Scheduler. overlap.Simulate runs any of them on an arrival sequence.
//
// Probe-based (decentralized) schedulers, where each node keeps its own queue
// and no component sees every node: package probe. A node choosing which
// queued probe to serve calls probe.GetProbeFromQueue (Eagle's SRPT with
// sticky batch probing and a starvation cap of 5 task estimates); a
// distributed scheduler places a short job's probes with probe.PlaceProbes
// and re-places rejected ones with probe.ReplaceProbes on the freshest
// probe.StateVector of nodes holding long tasks; a central scheduler places
// long tasks with probe.PlaceLWL. With speculative copies and an ε-fairness
// requirement, a worker picks the job for its free slot with
// probe.HopperPick. probe.Simulate compares Eagle, Hawk, Sparrow and
// decentralized Hopper on a trace (probe.ParseTrace) or a synthetic workload
// (probe.Synthesize).
//
// To see what a policy buys on a given workload before deploying it, run
// it in package sim: sim.Simulate plays a workload (sim.Synthesize, or a CSV
// trace read by sim.ParseTrace) on a cluster of slots under Fair, SRPT,
// Hopper (Algorithms 1–4), SREW+C(β) or the best-effort and budgeted
// speculation strawmen, each job filling its slots with
// stragglers.Speculate, and sim.Summarize, sim.Gain and sim.Slowdowns give
// the thesis's §6 metrics. Runs with the same seed see the same task
// durations, so two policies are compared on the same sample path.
package specsched
