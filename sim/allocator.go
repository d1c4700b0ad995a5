package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/specsched/specsched/dag"
	"github.com/specsched/specsched/internal/dagkernel"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/srewc"
	"github.com/specsched/specsched/internal/waterfill"
)

// An Allocator is the first half of a cluster scheduler: how the slots are
// shared among the active jobs. At every decision at which a slot is free,
// Simulate calls Allocate, hands the free slots to the jobs below their
// target in increasing key (ties by position: arrival order), each job
// filling its grant by the InJobRule, and then — unless the allocator is
// a ConservingAllocator that declines, as the demand-capped SRPTAllocator
// and FairAllocator do — offers the slots still free to every job in the
// same order (work conservation, thesis §3.3). No copy is preempted: a job
// above its target keeps its copies. An allocator may also order the jobs
// for a PoolRule's reserved pool (PoolKeyAllocator). The built-in
// allocators read the jobs through the Decision alone, as a caller's can.
//
// An Allocator may keep scratch memory between calls (the built-in ones
// do): a value serves one Simulate at a time.
type Allocator interface {
	// Allocate writes, for every active job k of d (len(target) =
	// len(key) = d.Active()), target[k], the slots the job should hold,
	// and key[k], its priority: lower first, a number ≥ 0 (not NaN;
	// Simulate returns a *specsched.InputError naming the job and the
	// field "key" otherwise). An error stops the run and Simulate returns
	// it.
	//
	// The built-in allocators' Allocate returns a *specsched.InputError,
	// and writes nothing, for a nil receiver (Field "receiver"), a nil or
	// zero Decision (Field "d"), or target or key of a length other than
	// d.Active() (Field "len(target)", "len(key)").
	Allocate(d *Decision, target []int, key []float64) error
}

// A ConservingAllocator is an Allocator that says whether Simulate offers
// it work conservation. Simulate calls WorkConserving once, when the run
// starts: false means the slots still free after the grants are not
// offered to the jobs (SRPTAllocator and FairAllocator, whose targets are
// capped at the jobs' demands, Decision.Demand, as SRPT and Fair of the
// thesis §2.1 are). An Allocator that is not a ConservingAllocator is work
// conserving.
type ConservingAllocator interface {
	Allocator
	WorkConserving() bool
}

// A PoolKeyAllocator is an Allocator with its own priority among the jobs
// for the slots of a PoolRule's reserved pool, lower first (ties by
// position: arrival order), which Decision.PoolKey returns; for any other
// allocator, PoolKey is the default, Decision.Remaining (fewest remaining
// tasks first). PoolKey is called only through Decision.PoolKey, with k in
// [0, d.Active()); it must start nothing, and should take O(1).
type PoolKeyAllocator interface {
	Allocator
	PoolKey(d *Decision, k int) float64
}

// remainingKeys sets key[k] to T_j of every active job
// (Decision.AppendRemaining; len(key) = d.Active()): the SRPT order of SRPT
// and the Hopper family, and the remaining tasks their allocations take.
func remainingKeys(d *Decision, key []float64) { d.AppendRemaining(key[:0]) }

// internalError wraps an error from stragglers' baseline functions, which
// the built-in baseline rules (LATE, GRASS, Dolly, Spark's, Hadoop's) call,
// as a user's plug-in would, on a snapshot built from a Decision: that
// function's validation is the only check the snapshot gets (the root
// package's "Where validation happens"). For an accepted input it cannot
// fail; if it does, the run stops and the error is reported as the fault
// of the built-in rule fn, not the caller's. (The built-in allocators call
// the algorithms' unchecked kernels on the engine's validated data and
// have no such path.)
func internalError(fn, what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: internal error: %s: %w", fn, what, err)
}

// SRPTAllocator serves the jobs with the fewest remaining tasks T_j first,
// each up to its demand (Decision.Demand), until the slots run out (thesis
// §2.1). Priority: increasing T_j. O(n log n) for n active jobs.
//
// With Conserving, the slots still free once every demand is met are
// offered to the jobs in the same order (Simulate's work conservation):
// the slots no job's tasks want, where IdleRule's copies run ("srpt-
// conserving" in NewAllocator). Without it (the zero value, "srpt"), they
// stay idle until the next decision.
type SRPTAllocator struct {
	// Conserving offers the slots left after the demands to the jobs.
	Conserving bool
	demand     []int
	sorter     positionSort
}

// WorkConserving implements ConservingAllocator: Conserving (false for a
// nil receiver): without it the targets are capped at the demands.
func (a *SRPTAllocator) WorkConserving() bool { return a != nil && a.Conserving }

// Allocate implements Allocator.
func (a *SRPTAllocator) Allocate(d *Decision, target []int, key []float64) error {
	if err := allocArgs("sim.SRPTAllocator.Allocate", a == nil, d, target, key); err != nil {
		return err
	}
	a.demand = grow(a.demand, len(target))
	for k := range a.demand {
		a.demand[k] = d.Demand(k)
	}
	remainingKeys(d, key)
	left := d.Capacity()
	for _, k := range a.sorter.all(key) {
		g := min(a.demand[k], left)
		target[k] = g
		left -= g
	}
	return nil
}

// FairAllocator shares the slots max-min fairly over the jobs' demands
// (Decision.Demand): every job gets min(demand, λ), λ the water level at
// which they sum to min(capacity, Σ demand), rounded by alloc.Apportion with
// ties in arrival order — Hadoop's Fair scheduler, capped at what each job
// can use, the leftover of small jobs going evenly to the others (thesis
// §2.1). Priority: arrival. In budgeted speculation's pool, the jobs with
// the fewest pool slots go first. O(n log n) for n active jobs.
type FairAllocator struct {
	demand, shares, sorted []float64
	sel                    selection.Workspace
}

// WorkConserving implements ConservingAllocator: false, the targets are
// capped at the demands.
func (*FairAllocator) WorkConserving() bool { return false }

// PoolKey implements PoolKeyAllocator: the slots the job holds in the pool
// (Decision.PoolHeld).
func (*FairAllocator) PoolKey(d *Decision, k int) float64 { return float64(d.PoolHeld(k)) }

// Allocate implements Allocator.
func (a *FairAllocator) Allocate(d *Decision, target []int, key []float64) error {
	if err := allocArgs("sim.FairAllocator.Allocate", a == nil, d, target, key); err != nil {
		return err
	}
	a.demand = grow(a.demand, len(target))
	for k := range a.demand {
		a.demand[k] = float64(d.Demand(k))
	}
	a.maxMinFair(target, a.demand, d.Capacity())
	for k := range key {
		key[k] = 0 // arrival order: the positions'
	}
	return nil
}

// maxMinFair writes to dst (len(demand) elements) the max-min fair integer
// allocation of capacity slots among demands (see FairAllocator): the
// water level, then alloc.Apportion's kernel, on demands that are task
// counts and a capacity of at most MaxSlots, whose shares sum to
// min(capacity, Σ demand) up to rounding.
func (a *FairAllocator) maxMinFair(dst []int, demand []float64, capacity int) {
	n := len(demand)
	var total float64
	for _, d := range demand {
		total += d
	}
	a.shares = grow(a.shares, n)
	shares := a.shares
	if total <= float64(capacity) {
		copy(shares, demand)
		selection.Apportion(&a.sel, dst, shares, int(total), nil)
		return
	}
	a.sorted = append(a.sorted[:0], demand...)
	sorted := a.sorted
	slices.Sort(sorted)
	left := float64(capacity)
	level := 0.0
	for i, d := range sorted {
		// The remaining n−i jobs each want at least d.
		if d*float64(n-i) >= left {
			level = left / float64(n-i)
			break
		}
		left -= d
	}
	for k, d := range demand {
		shares[k] = math.Min(d, level)
	}
	selection.Apportion(&a.sel, dst, shares, capacity, nil)
}

// HopperAllocator is Hopper's Algorithm 1 (alloc.AllocateSlots) on the
// jobs' remaining tasks T_j with one β for the cluster
// (Decision.ClusterBeta). Priority: increasing T_j. O(n) plus the
// algorithm's O(n) (alloc.AllocateSlots) for n active jobs, and the sort of
// the priority, O(n log n).
//
// The slots Algorithm 1 gives a job beyond what it can use now — the
// copies its stragglers will need, before any is detected — go to other
// jobs (work conservation) unless Reserve is set. The thesis §3.3 reads
// both ways: eq. 3.4's first case says "the optimal level of speculation
// should not be sacrificed even when the system is capacity constrained",
// its second that Hopper "should not leave slots unused". Reserve keeps
// them idle until the job can use them (a copy, or a task of a phase that
// becomes runnable); a slot lent out is held until its copy ends.
//
// It recomputes at every decision rather than keep the allocation with
// package online, whose events cost O(log n): the Allocator contract is
// every active job's integer target (alloc.AllocateSlots' largest
// remainders) at every decision, which online does not keep incrementally
// (one event can reorder every remainder; online's doc), and the engine's
// grant visits every job anyway. Measured (issue 14's experiment,
// onlineAllocator in online_test.go: an online.Hopper kept across
// decisions, its integer form from SnapshotSlots; the same targets up to
// the order of equal remainders, TestOnlineAllocator): on
// BenchmarkHopperMillion it is 1.42× slower, 6.22 s against 4.38 s
// (medians of 5 in one run, 2026-12-05, 2 cores, load 2–3; 1.35× in three
// rounds on 2026-12-06), since finding the changed jobs and SnapshotSlots
// are each O(n) per decision, as the recomputation is — and n is small:
// 122 active jobs at a decision on average (BenchmarkHopperMillionOnline's
// active/decision), where O(log n) has little to win over O(n). On that
// benchmark the allocation is about a third of the run (Algorithm 1's
// apportionment a quarter), the grants and the in-job rules' checks the
// rest; an engine taking Next's one-slot-at-a-time grants instead would
// change the policy's results.
type HopperAllocator struct {
	// Reserve: no work conservation (ConservingAllocator); the zero value
	// conserves work.
	Reserve bool
	sel     selection.Workspace
}

// WorkConserving implements ConservingAllocator: !Reserve (true for a nil
// receiver, whose Allocate fails anyway).
func (a *HopperAllocator) WorkConserving() bool { return a == nil || !a.Reserve }

// Allocate implements Allocator.
func (a *HopperAllocator) Allocate(d *Decision, target []int, key []float64) error {
	// The same steps as EpsFairAllocator.Allocate, on purpose: a shared
	// helper would need the algorithm as a closure for two calls.
	if err := allocArgs("sim.HopperAllocator.Allocate", a == nil, d, target, key); err != nil {
		return err
	}
	remainingKeys(d, key)
	// The kernel of alloc.AllocateSlots on what the engine validated: task
	// counts, Config.Slots ≤ MaxSlots and a β > 1.
	hopper.AllocateSlots(target, key, d.Capacity(), hopper.Summarize(key, d.ClusterBeta()), &a.sel)
	return nil
}

// EpsFairAllocator is Hopper's Algorithm 2, ε-fair (fairness.AllocateSlots,
// ε = Config.Eps of the fair share), on the jobs' remaining tasks with one
// β for the cluster. Priority: increasing T_j.
type EpsFairAllocator struct {
	sel selection.Workspace
}

// Allocate implements Allocator.
func (a *EpsFairAllocator) Allocate(d *Decision, target []int, key []float64) error {
	// As HopperAllocator.Allocate, with Algorithm 2 (see there).
	if err := allocArgs("sim.EpsFairAllocator.Allocate", a == nil, d, target, key); err != nil {
		return err
	}
	remainingKeys(d, key)
	// fairness.AllocateSlots's kernel; Config.Eps ∈ [0, 1] is validated
	// too, and Σ c·T_i of task counts is finite.
	hopper.FairSlots(target, key, d.Capacity(), d.Config().Eps, hopper.Summarize(key, d.ClusterBeta()), &a.sel)
	return nil
}

// HeteroAllocator is the K-class water-filling of Algorithm 4
// (stragglers.AllocateSlots) on the jobs' remaining tasks, each with its
// own β (Job.Beta). Priority: increasing T_j.
type HeteroAllocator struct {
	betas []float64
	ws    waterfill.Workspace
}

// Allocate implements Allocator.
func (a *HeteroAllocator) Allocate(d *Decision, target []int, key []float64) error {
	if err := allocArgs("sim.HeteroAllocator.Allocate", a == nil, d, target, key); err != nil {
		return err
	}
	remainingKeys(d, key)
	a.betas = grow(a.betas, len(key))
	for k := range a.betas {
		a.betas[k] = d.Beta(k)
	}
	// stragglers.AllocateSlots's kernel on what the engine validated: task
	// counts (their sums far below waterfill.MaxSum), every job's β > 1
	// and finite, Config.Slots ≤ MaxSlots.
	a.ws.Prepare(key, a.betas)
	a.ws.Slots(target, key, d.Capacity())
	return nil
}

// DAGAllocator is Hopper's Algorithm 3 (dag.AllocateSlots) with one β for
// the cluster: for each job, T_i is the unfinished tasks of its current
// phase (the earliest with a task whose run is not over), T'_i those of the
// next phase, and α_i comes from dag.EstimateAlpha with the job's structure
// as the recurring ratio (downstream tasks per upstream task) and its
// progress in tasks (thesis §4.1: α_i = T'_i/T_i), dampened by
// Config.Dampening. Priority: increasing max{T_i, T'_i} (MaxSRPT). O(n + P)
// for n active jobs of P phases, plus the algorithm's.
type DAGAllocator struct {
	jobs []dag.Job
	ws   dagkernel.Workspace
}

// Allocate implements Allocator.
func (a *DAGAllocator) Allocate(d *Decision, target []int, key []float64) error {
	const fn = "sim.DAGAllocator.Allocate"
	if err := allocArgs(fn, a == nil, d, target, key); err != nil {
		return err
	}
	dampening := d.Config().Dampening
	a.jobs = grow(a.jobs, len(key))
	jobs := a.jobs
	for k := range jobs {
		phases := d.Phases(k)
		cur := 0
		up := d.Phase(k, cur)
		for cur < phases-1 && up.Computed == up.Tasks {
			cur++
			up = d.Phase(k, cur)
		}
		t := float64(up.Tasks - up.Computed)
		var down float64
		alpha := 1.0
		if cur+1 < phases && t > 0 {
			dn := d.Phase(k, cur+1)
			down = float64(dn.Tasks - dn.Computed)
			// dag.EstimateAlpha's kernel: every field a task count or the
			// ratio of two (finite, ≥ 0), Config.Dampening ∈ [0, 1].
			ratio := float64(dn.Tasks) / float64(up.Tasks)
			alpha = dagkernel.Alpha(float64(up.Computed), ratio*float64(up.Computed), t, float64(dn.Computed),
				float64(up.Tasks), float64(dn.Tasks), dampening)
		}
		jobs[k] = dag.Job{Remaining: t, Downstream: down, Alpha: alpha}
		key[k] = math.Max(t, down)
	}
	// dag.AllocateSlots's kernel: counts, α ∈ [MinAlpha^d, MaxAlpha^d] ⊂
	// (0, 20], a β > 1 and Config.Slots ≤ MaxSlots.
	p := a.ws.Prepare(jobs, float64(d.Capacity()), d.ClusterBeta())
	a.ws.Slots(target, jobs, d.Capacity(), &p)
	return nil
}

// SREWCAllocator is SREW+C(β)'s share g_j(t) (competitive.Machines, β =
// Config.SREWCBeta) from each job's remaining effective workload Υ_j(t) =
// Σ over its phases of the unfinished tasks times (E + λσ) (Xu et al. eq.
// 25 over a chain of any length, λ = Config.Lambda; E and σ the mean and
// standard deviation of the phase's first copies' durations, computed once
// per run). The shares are Machines' kernel on the Υ_j(t) themselves; a
// caller's allocator gets the same from Machines by handing it each job as
// one phase of one task whose mean is Υ_j(t), which Machines ranks by
// exactly that value. Priority: increasing Υ_j(t). O(n + P) for n active
// jobs of P phases, plus Machines' O(n) (and O(tasks) at the run's first
// call, for the moments). Besides
// the errors of every built-in Allocate (see Allocator), it returns an
// InputError for Config.SREWCBeta outside (0, 1] or Config.Lambda above
// MaxSREWCLambda, which Config.Validate reports unless the SREWCAllocator
// is called by the caller's own allocator.
type SREWCAllocator struct {
	ws srewc.Workspace
}

// Allocate implements Allocator.
func (a *SREWCAllocator) Allocate(d *Decision, target []int, key []float64) error {
	const fn = "sim.SREWCAllocator.Allocate"
	if err := allocArgs(fn, a == nil, d, target, key); err != nil {
		return err
	}
	cfg := d.Config()
	if err := cfg.srewc(fn); err != nil {
		// Config.Validate's check, for an SREWCAllocator called by the
		// caller's allocator.
		return err
	}
	for k := range key {
		var upsilon float64
		for p := range d.Phases(k) {
			ph := d.Phase(k, p)
			mean, sd := d.PhaseMoments(k, p)
			upsilon += float64(ph.Tasks-ph.Computed) * (mean + cfg.Lambda*sd)
		}
		key[k] = upsilon
	}
	// competitive.Machines' kernel on the loads Υ_j(t): finite and ≥ 0
	// (MaxSREWCLambda), with Config.Slots ≤ MaxSlots and SREWCBeta ∈ (0, 1]
	// checked above.
	active, r := srewc.Summarize(key)
	srewc.Machines(&a.ws, target, key, active, r, d.Capacity(), cfg.SREWCBeta)
	return nil
}
