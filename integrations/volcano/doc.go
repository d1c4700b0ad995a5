// Package volcano is a Volcano scheduler plug-in, "hopper", that runs the
// ε-fair speculation-aware allocation of specsched inside Volcano v1.10.0
// (volcano.sh/volcano/pkg/scheduler/framework).
//
// Thesis: Xiaoqi Ren, "Speculation-aware Resource Allocation for Cluster
// Schedulers", Master's thesis, California Institute of Technology, 2015
// (CaltechTHESIS 8664). Algorithm 1 (§3.1–3.4) gives jobs with the smallest
// virtual size V = (2/β)·T their full virtual size first when slots are short
// and shares slots in proportion to V otherwise; Algorithm 2 (§3.5) projects
// that onto the ε-fair allocations, where every active job keeps at least
// ⌊(1−ε)·S/N⌋ slots.
//
// Once per scheduling session, OnSessionOpen takes Volcano's snapshot of
// every job (a PodGroup, api.JobInfo) and computes an integer target per job
// with fairness.AllocateSlots. The session's callbacks then keep every job at
// its target: the allocate and reclaim actions ask AllocatableFn before
// placing each task, and it refuses a task whose job already holds its
// target; JobOrderFn picks the next job; JobStarvingFn names the jobs below
// target as the preemptors; PreemptableFn and ReclaimableFn never take a job
// below its target (so never below the ε-fair floor); an event handler keeps
// the per-job counts current as tasks are placed and evicted within the
// session. See Plugin for the mapping from pods to tasks, β and slots.
//
// The decision itself (targets, floor, order) is the pure function Decide,
// separate from the Volcano plumbing, so it can be checked against the
// library without a scheduler.
package volcano
