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
// with fairness.AllocateSlots (a job the session's JobValid refuses, such as
// a gang short of its minMember, gets none). The session's callbacks then
// keep every job at its target while another waits below its own: the
// allocate and reclaim actions ask AllocatableFn before placing each task,
// and it refuses a task whose job already holds its target unless no job is
// left waiting (work conservation: slots no waiting job can use go to the
// others); JobOrderFn serves jobs below their target first; JobStarvingFn
// names the jobs below target as the preemptors; PreemptableFn and
// ReclaimableFn never take a job below its target (so never below the ε-fair
// floor); an event handler keeps the per-job counts current as tasks are
// placed and evicted within the session. See Plugin for the mapping from pods to tasks, β and slots.
//
// The decision itself (targets, floor, order) is the pure function Decide,
// separate from the Volcano plumbing, so it can be checked against the
// library without a scheduler.
//
// # Registration and configuration
//
// The package's init registers New under PluginName ("hopper") with
// framework.RegisterPluginBuilder: a scheduler binary that imports the
// package, even only for that side effect, can list "hopper" in a tier of
// its volcano-scheduler.conf. examples/volcano-scheduler.conf enables it
// after priority and gang, beside conformance, predicates and nodeorder.
// Its arguments are ArgEpsilon (ε, default DefaultEpsilon), ArgBeta (the
// default β, DefaultBeta) and ArgMinFitSamples (DefaultMinFitSamples);
// a missing one keeps its default, a bad one (out of range, NaN, ±Inf, not
// a number) too, with a log line.
//
// # Annotations and events
//
// AnnotationBeta on a PodGroup sets its job's β; a value that is not a
// finite number > 1 is logged and recorded as a Warning event with reason
// EventBadBeta on the PodGroup, once per session, and the job uses the
// fitted or default β. AnnotationSpeculative marks a pod as a speculative
// copy: placed within its job's target after the job's tasks, not counted
// in T.
//
// # Resources and slots
//
// The thesis's model has identical slots. A session's slot is the largest
// request of any pending or placed pod in each resource dimension (CPU,
// memory, every scalar resource such as GPUs); a ready node holds
// ⌊allocatable/slot⌋ slots in its tightest dimension, at most its pod
// count. Left out: requests smaller than the slot count as a whole slot
// (S is conservative for mixed shapes); capacity already used by pods that
// are not in Volcano's jobs; BestEffort pods without requests, which
// Volcano's backfill places outside the targets.
//
// # Which hooks, and why
//
// proportion enforces shares per queue (OverusedFn, and AllocatableFn
// comparing the candidate's queue with its deserved share); drf orders jobs
// by dominant share (JobOrderFn) and lets a job preempt only one with a
// larger share (PreemptableFn), capping nothing. Hopper's share is a cap per
// job, so it uses AllocatableFn, which Volcano asks
// with the task, hence the job, in hand before every placement by the
// allocate, preempt and reclaim actions, and an event handler that keeps
// each job's count current within the session. JobStarvingFn makes a job
// below target with pending pods a preemptor; PreemptableFn and
// ReclaimableFn keep every victim's job at or above its target.
//
// # Limits
//
// Targets are recomputed per session (Volcano's period, one second by
// default), not per event as in the thesis. Queues are not considered: the
// targets share the cluster among all the session's jobs. Gang's minMember
// is not considered: a job whose target is below it is not started while
// that lasts. β is fitted from the Succeeded pods still in the snapshot.
package volcano
