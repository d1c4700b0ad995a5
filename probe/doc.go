// Package probe implements probe-based scheduling at scale: Eagle's
// decision functions, decentralized Hopper's worker-side choice, and a
// node-queue simulator with the Sparrow and Hawk baselines.
//
// Papers: Pamela Delgado, Diego Didona, Florin Dinu, Willy Zwaenepoel,
// "Job-aware Scheduling in Eagle: Divide and Stick to Your Probes", ACM
// Symposium on Cloud Computing (SoCC) 2016, doi:10.1145/2987550.2987563 —
// the system model (§2), Succinct State Sharing (§3.3), sticky batch
// probing with SRPT and the anti-starvation counter (§4.3, Algorithm 1),
// the evaluation settings (§5–6) and Hawk's work stealing (§6.1); and
// Xiaoqi Ren, Ganesh Ananthanarayanan, Adam Wierman, Minlan Yu, "Hopper:
// Decentralized Speculation-aware Cluster Scheduling at Scale", ACM SIGCOMM
// 2015, doi:10.1145/2829988.2787481, §6.1 — decentralized Hopper on
// Sparrow.
//
// Decision functions, each a pure function of its arguments:
//
//   - Classify: long or short, from the estimated mean task duration.
//   - ProbeCount: max{K, ⌈r·t⌉} probes for a job of t tasks.
//   - GetProbeFromQueue: Algorithm 1, which probe a node serves next, and
//     the updated bypass counters.
//   - StateVector, PlaceProbes, Freshest, ReplaceProbes: Succinct State
//     Sharing and the placement of a short job's probes; PlaceProbesWith
//     and ReplaceProbesWith draw the targets as a Sampling says.
//   - PlaceLWL: Least Work Left placement of long tasks.
//   - StealBatch: Hawk's stealing, which probes an idle node takes.
//   - HopperPick: which queued job gets a worker's free slot, by virtual
//     size, slot-constrained or not, with ε-fair targets from package
//     fairness.
//
// Simulate runs the node-queue model of Eagle §2 and §5 under Eagle (with
// each component switchable off, §6.3), Hawk, Sparrow or decentralized
// Hopper, and reports per-job completion times, their 50/90/99th
// percentiles by class (Result.Summarize), the head-of-line counters of
// Table 2 and utilisation. ParseTrace reads the public Hawk/Eagle
// simulator's trace format; Synthesize generates a workload with the shape
// of Table 1.
//
// Contracts. Inputs are never modified. Randomness comes only from the
// *rand.Rand argument: the same seed gives the same result, bit for bit.
// Slices returned are written to dst, which is resliced when its capacity
// suffices; scratch memory comes from a *Workspace (nil allowed). Invalid
// input — NaN, ±Inf, negative durations or counts, out-of-range
// parameters — returns a *specsched.InputError (a *TraceError, with the
// line number, for a malformed trace) and leaves dst untouched; no exported
// function panics. The decision functions the simulator uses are that
// validation followed by an unexported kernel that cannot fail (Classify
// and classify, ProbeCount and probeCount, …); Simulate validates its jobs
// and configuration once and then calls the kernels. Times are in seconds.
//
// # The paper, the authors' simulator and this package
//
// The paper's figures came from the authors' simulator (epfl-labos/eagle,
// simulation/eagle_simulation.py, Python 2; read at HEAD 371b51f). Where
// its code and the paper's text differ, this package follows the text by
// default and offers the code's choice as an option when it changes the
// percentiles measurably: AuthorsCode selects those options and
// TruncateSeconds does what its trace reader does. TraceSettings gives the
// per-trace settings (cut-off, short partition, nodes). Each item says
// what the paper says, what the authors' code does (their function names
// in parentheses) and what we do.
//
//   - Probe targets, at every placement. Paper: "uniformly at random among
//     all nodes" (§3.3); re-placed probes "uniformly at random from the set
//     of nodes that are not currently serving a long job"; probes rejected
//     twice "uniformly at random to nodes in the short partition". Code:
//     each probe's node drawn independently, with replacement
//     (find_workers_random); re-placement among the short-partition nodes
//     plus the general nodes whose bit is clear. We: Config.Sampling,
//     Distinct (default: ⌊k/n⌋ on every node, then distinct nodes) or
//     WithReplacement, for every policy (Hopper included); re-placement
//     among all nodes whose bit is clear (the same set: a short-partition
//     node's bit is never set). Measured on a Yahoo excerpt
//     (docs/probe-vs-authors.md): the 10% gap of Sparrow's short jobs and
//     of Eagle's short p90.
//   - Which idle nodes steal (Hawk). Paper: "idle nodes in the general
//     partition perform ten attempts to steal probes from other nodes in
//     that partition" (§6.1). Code: every worker whose queue is empty when
//     a slot frees, short-partition nodes included (free_slot, ask_probes);
//     victims are general nodes, the thief possibly among them; stolen
//     probes join the thief's queue at once. We: Config.Thieves,
//     GeneralThieves (default) or AllThieves; a victim is never the thief;
//     stolen probes travel 2d; Stats.StolenByShort counts the probes short
//     nodes take. Measured: AllThieves makes Hawk's short jobs 2–3× faster
//     at p50 on that excerpt, short nodes taking half the steals.
//   - Durations. Paper: not said. Code: every duration and the mean
//     truncated to whole seconds as the trace is read (int(float(x))), so a
//     task under 1 s runs 0 s and classification uses the truncated mean.
//     We: float64 throughout; TruncateSeconds on the jobs reproduces the
//     code. Measured: Eagle's short p90 is 13% lower truncated.
//   - Cut-off. Paper: a "given threshold" (§2), no value. Code: mean >
//     cut-off, strict; README values GOOG 1129.532, CCc 272.7830, YH
//     90.5811 s. We: Classify (estimate > threshold); TraceSettings.
//   - Short partition. Paper: 17, 9 and 2% for Google, Cloudera and Yahoo
//     (§5). Code: the lowest node ids, int((100 − big)·N/100) of them. We:
//     the last nodes, ShortPartition's largest-remainder rounding.
//   - When a short probe is rejected (Eagle). Paper: a node "to which a
//     long task is currently assigned" rejects it and answers with its
//     bitvector (§3.3). Code: the scheduler checks, when the job arrives,
//     whether each target runs or holds a long task at that instant and
//     re-places the others at once, without messages
//     (try_round_of_probing); a probe is never rejected on arrival. We: the
//     node rejects on arrival when it holds a long task; the rejection
//     costs d, so re-placed probes arrive at t+3d (code: t+2d) and fallback
//     probes at t+5d (code: t+2d).
//   - Which bitvector re-places. Paper: "the freshest available". Code: the
//     freshest among all nodes probed in the round, accepting ones
//     included. We: the freshest among the rejecting nodes (Freshest);
//     of two stamped at one instant (long jobs submitted together), the
//     one published later.
//   - SSS updates. Paper: bit i says node i has a long task assigned, sent
//     with each long task (§3.3). Code: the central clears a bit the
//     instant the node's last long task ends; a node copies the central's
//     live vector when a long task arrives. We: cleared when the completion
//     notice reaches the central, d later; one snapshot per long job,
//     stamped at placement.
//   - When a long task is bound. Paper: Algorithm 1 pops the long
//     placeholder and runs its task. Code: late binding, the placeholder
//     asks the job for its next task, a 2d round trip (get_task). We: task
//     k is bound at placement and starts when it reaches the queue's head.
//   - LWL's queueing time. Paper: "the smallest expected queueing time".
//     Code: estimates of the assigned unfinished long tasks minus the
//     running one's elapsed time, completions known at once. We: an
//     expected free time per node, reset when the completion notice comes.
//   - How far the SRPT scan looks (Eagle). Paper: Algorithm 1 stops at the
//     first long placeholder and serves a long one at the head FIFO. Code:
//     the whole queue; a long task at the head is taken, one further back
//     competes under SRPT with its remaining work, and probes behind a long
//     task can be chosen (get_next_probe_acc_to_sbp_srpt). At the commit
//     tagged as the SoCC submission (f28a995) the scan never updated its
//     minimum and served the last admissible probe (fixed by f03c754); on
//     the Yahoo excerpt that version's short p90 is 29% higher. We:
//     Algorithm 1 exactly (GetProbeFromQueue).
//   - Starvation counters. Paper: T may not bypass P if T's estimate would
//     take P's counter above 5× P's estimate (§4.3, §5). Code: the same
//     test; counters charged after a successful getTask, by short tasks
//     only. We: charged when the choice is made.
//   - Stale probes. Paper: a probe stays until its job has no task left.
//     Code: serving a probe of a job with nothing left costs the node a 2d
//     no-op getTask. We: dropped at once, from the schedulers' exact counts.
//   - Network delay d = 0.5 ms (§5). Code: paid by a probe (d), getTask
//     (2d, short and long) and re-placement; not by stealing or completion
//     notices. We: a probe, a rejection, a long task, a completion notice
//     (d each), getTask (2d, short only) and stolen probes (2d).
//   - Simultaneous submissions. Code: a repeated submit time gets +0.01 s
//     per repeat. We: kept; jobs ordered stably by Submit.
//   - Counters. Their stats_file and Stats line up as
//     STATS_SH_PROBES_QUEUED_BEHIND_BIG ↔ ProbesBehindLong,
//     STATS_SHORT_TASKS_WAITED_FOR_BIG ↔ ShortAfterLong,
//     STATS_REASSIGNED_PROBES (Eagle) and STATS_TOTAL_STOLEN_PROBES (Hawk)
//     ↔ Rescheduled, STATS_TOTAL_STOLEN_S_FROM_B_PROBES ↔ StolenByShort;
//     their STATS_FALLBACKS_TO_SP counts jobs where Fallback counts probes.
//   - Ties and seeds. Paper: 5 runs averaged (§5). Code: events at equal
//     times ordered by comparing the event objects (type name, then memory
//     address), so a seed does not fix a run. We: FIFO at equal times; a
//     seed fixes the run bit for bit.
//
// With Sampling, Thieves and truncation matched (AuthorsCode and
// TruncateSeconds; `specsim probe -preset yahoo -model authors`) the two
// simulators agree within a few percent on the Yahoo excerpt, except for
// some p99 values; docs/probe-vs-authors.md has the table and how to
// regenerate it.
package probe
