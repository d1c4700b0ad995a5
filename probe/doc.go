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
//     Sharing and the placement of a short job's probes.
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
package probe
