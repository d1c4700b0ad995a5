// Package alloc implements Hopper's speculation-aware allocation for jobs of
// one phase (§3.1–3.4 of the thesis, and the centralized scheduler of the
// conference paper), and the shared pieces every other algorithm package
// builds on: the throughput model and integer apportionment.
//
// Papers: Xiaoqi Ren, "Speculation-aware Resource Allocation for Cluster
// Schedulers", Master's thesis, California Institute of Technology, 2015
// (CaltechTHESIS 8664), "the thesis"; Xiaoqi Ren, Ganesh Ananthanarayanan,
// Adam Wierman, Minlan Yu, "Hopper: Decentralized Speculation-aware Cluster
// Scheduling at Scale", ACM SIGCOMM 2015, doi:10.1145/2829988.2787481.
//
// # The model
//
// A job with T remaining tasks whose durations are Pareto(x_m, β) with
// 1 < β < 2 wants speculation level 2/β copies per task (eq. 3.2), so its
// virtual size — the slots it can use well — is V = (2/β)·T (eq. 3.5). Given
// S_i slots its throughput (eq. 3.3) is
//
//	μ(S_i) = β²/(4(β−1))·S_i                   if S_i ≤ V,
//	μ(S_i) = β/(β−1)·T − T²/((β−1)·S_i)         if S_i > V,
//
// a concave, continuously differentiable function: linear with slope
// β²/(4(β−1)) up to V, then flattening with slope T²/((β−1)S_i²). (The
// thesis prints the first case as β²/(4(β−1))·T_i(t); that is a typesetting
// slip — the proof of Theorem 1, eq. 3.7, and continuity at S_i = V both give
// S_i.)
//
// β ≥ 2 is an extension the thesis does not cover: with tails that light,
// speculation does not pay, so the model here uses level 1, V = T and
// μ = min(S_i, T). The allocation of Algorithm 1 is continuous in β at 2
// (V = (2/β)T = T there); the throughput model is not, since eq. 3.3 would
// keep rewarding slots beyond T. β ≤ 1 (infinite mean), NaN and ±Inf are
// errors.
//
// # Algorithm 1
//
// Allocate gives every job S_i slots. When the cluster is capacity
// constrained (ΣV ≥ S) the jobs with the smallest remaining work get their
// full virtual size, in order, until slots run out (Guideline 1); otherwise
// slots are shared in proportion to the virtual sizes (Guideline 2).
// Theorem 1: this maximises the total throughput Σμ_i. AllocateSlots is the
// integer form, rounded by Apportion.
//
// # Contracts
//
// As everywhere in specsched: inputs are never modified; results go to a
// dst slice that is reused when large enough; scratch memory comes from a
// *Workspace that makes steady-state calls allocation-free; invalid input
// returns a *specsched.InputError naming the job and field, never a panic;
// results are deterministic, with ties broken by input index.
package alloc
