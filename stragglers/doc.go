// Package stragglers implements Hopper's allocation for jobs whose task
// durations have different heavy tails, and the pieces a scheduler needs
// around it: fitting the tails, and deciding inside a job which tasks get
// the slots it was given (thesis §2.1, §4.2 Algorithm 4 and Theorem 3,
// §6.4.2; conference paper §7.2; for Mantri's rule, Xu et al. §5).
//
// Papers: Xiaoqi Ren, "Speculation-aware Resource Allocation for Cluster
// Schedulers", Master's thesis, California Institute of Technology, 2015
// (CaltechTHESIS 8664), "the thesis"; Xiaoqi Ren, Ganesh Ananthanarayanan,
// Adam Wierman, Minlan Yu, "Hopper: Decentralized Speculation-aware Cluster
// Scheduling at Scale", ACM SIGCOMM 2015, doi:10.1145/2829988.2787481, "the
// conference paper"; Huanle Xu, Wing Cheong Lau, Zhibo Yang, Gustavo de
// Veciana, Hanxu Hou, "Mitigating Service Variability in MapReduce Clusters
// via Task Cloning: A Competitive Analysis", IEEE Transactions on Parallel
// and Distributed Systems, 2017, doi:10.1109/TPDS.2017.2689767, "Xu et al.".
//
// # Allocation across classes of stragglers
//
// A job whose task durations are Pareto(x_m, β) with 1 < β < 2 earns
// throughput μ(S_i) of thesis eq. 3.3 from S_i slots: slope β²/(4(β−1)) up
// to its virtual size (2/β)·T_i, then T_i²/((β−1)·S_i²). A heavier tail
// (smaller β) has the steeper slope, so speculation pays more there.
// TwoClasses is Algorithm 4 as the thesis writes it for two classes;
// Allocate is its generalisation to any number of classes — every job may
// have its own β — as the water-filling maximiser of Σμ_i (Theorem 3 for
// K classes). Within a class both use Algorithm 1 (alloc.Allocate).
// AllocateSlots and TwoClassesSlots are the integer forms.
//
// # Fitting β
//
// FitPareto is the maximum-likelihood fit of (x_m, β) to completed task
// durations; ParetoFit is the same estimator fed one duration at a time, in
// O(1) per duration, for the continuous refitting of the conference paper.
//
// # Speculation inside a job
//
// Speculate turns a job's allocation into actions: which unscheduled tasks
// to launch and which running tasks get a speculative copy, by the
// thesis's rule (copy a task while its remaining time exceeds a new copy's)
// or Mantri's (copy while P(t_rem > (c+1)/c·t_new) exceeds a threshold),
// with the optimal speculation level of eq. 3.2 deciding how many of the
// slots go to copies. Speculate takes a snapshot of every task;
// SpeculateRunning makes the same decision from the running tasks and the
// length of the job's queue, the way a scheduler holds them, in
// O(running) — the form for the hot path.
//
// # Speculation baselines
//
// The rules the papers compare against, as decision functions of the same
// shape as Speculate (a job's tasks and slots in, actions out), on
// TaskStatus, a Task with the progress score, duration and per-task t_new
// those rules read: LATE (Zaharia et al., OSDI 2008, §4: longest
// estimated time to end among the slowest quartile of progress rates,
// capped at 10% of the slots); GRASS (Ananthanarayanan et al., NSDI 2014:
// resource-aware speculation, then greedy speculation near the job's end);
// Dolly (Ananthanarayanan et al., NSDI 2013: DollyClones admits a job's
// clones within a budget of the cluster, Dolly launches them with the
// originals); SparkSpeculate (spark.speculation: 1.5 × the median once
// 75% of the stage is done) and HadoopSpeculate (Hadoop MapReduce's
// DefaultSpeculator: estimated end against a new attempt's, with its
// caps), what clusters run by default; SparkSpeculateStats and
// HadoopSpeculateStats take the finished tasks as a StageStats summary,
// for a caller that keeps a running median or mean. Each documents where
// the source leaves a choice open and what we chose; intervals between
// decisions belong to the caller.
//
// # Contracts
//
// As everywhere in specsched: inputs are never modified; results go to a
// dst slice that is reused when large enough; scratch memory comes from a
// *Workspace whose zero value is ready and which makes steady-state calls
// allocation-free; invalid input returns a *specsched.InputError naming the
// job (or task, or sample) and field, never a panic; results are
// deterministic, with every tie broken as documented and finally by index.
package stragglers
