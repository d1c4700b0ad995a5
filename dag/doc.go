// Package dag implements Hopper's allocation for jobs whose tasks form a DAG
// of pipelined phases (thesis §4.1 Algorithm 3, §5.2 and §6.2.1; conference
// paper §6.3), and the estimation of the α weight that drives it.
//
// Papers: Xiaoqi Ren, "Speculation-aware Resource Allocation for Cluster
// Schedulers", Master's thesis, California Institute of Technology, 2015
// (CaltechTHESIS 8664), "the thesis"; Xiaoqi Ren, Ganesh Ananthanarayanan,
// Adam Wierman, Minlan Yu, "Hopper: Decentralized Speculation-aware Cluster
// Scheduling at Scale", ACM SIGCOMM 2015, doi:10.1145/2829988.2787481, "the
// conference paper".
//
// # The model
//
// A job i is described by a snapshot Job: T_i, the tasks remaining in its
// running (upstream) phase; T'_i, the communication work remaining in the
// downstream phase that reads the running phase's output as its tasks
// finish; and α_i, the ratio of the downstream work to the upstream work.
// Jobs are taken in increasing order of max{T_i, T'_i} (MaxSRPT), larger α
// first on ties, and each job's virtual size becomes V_i = (2/β)·T_i·√α_i.
// Algorithm 3 then follows the case analysis of the α-weighted throughput
// Σα_i·μ_i (μ_i from thesis eq. 3.3): Allocate gives the real-valued slots,
// AllocateSlots the integer ones.
//
// EstimateAlpha computes α from the data a job has produced and read (§5.2):
// the intermediate-to-input ratio is learned from the job's completed tasks
// (multi-wave jobs) or from earlier runs of a recurring job (Ratio), and a
// dampening value d ∈ [0, 1] (§6.2.1: 0.8 for Spark-like, 0.3 for
// Hadoop-like jobs) scales how much pipelining counts: α^d, so d = 0
// ignores it and gives Algorithm 1.
//
// # Contracts
//
// As everywhere in specsched: inputs are never modified; results go to a
// dst slice that is reused when large enough, and must then not overlap
// an input (an InputError on "dst" otherwise); scratch memory comes from a
// *Workspace whose zero value is ready and which makes steady-state calls
// allocation-free; invalid input returns a *specsched.InputError naming the
// job and field, never a panic; results are deterministic, with every tie
// broken as documented and finally by input index.
package dag
