package volcano

import (
	"math"
	"slices"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/check"
)

// JobDemand is one job of a scheduling session as Decide sees it (thesis
// §3.1: a job is its T remaining tasks and the tail index β of its task
// durations).
type JobDemand struct {
	// Tasks is T, the job's remaining tasks: its pending and running pods,
	// speculative copies left out (a copy is a second slot for a task, not
	// a task).
	Tasks int
	// Beta is the Pareto tail index β of the job's task durations, > 1.
	Beta float64
}

// Decision is the outcome of Decide for one session (thesis §3.5,
// Algorithm 2 in integer form).
type Decision struct {
	// Targets holds each job's slots, in input order; they sum to the
	// session's slots when some job has tasks.
	Targets []int
	// Virtual holds each job's virtual size V = (2/β)·T (eq. 3.5; V = T for
	// β ≥ 2, where speculation does not pay).
	Virtual []float64
	// Floor is the ε-fair floor ⌊(1−ε)·S/N⌋ every job with tasks is
	// guaranteed, N the number of such jobs (§3.5).
	Floor int
	// Constrained reports ΣV ≥ S, Algorithm 1's capacity-constrained case
	// (Guideline 1, §3.4): the job order is then smallest virtual size
	// first.
	Constrained bool
}

// Decide computes the session's targets: each job's remaining tasks are
// rescaled to T·(V(β_i)/V(β_ref)) so that, under the single reference β that
// fairness.AllocateSlots takes, every job keeps its own virtual size (eq.
// 3.5), and fairness.AllocateSlots (§3.5) then shares slots among them with
// tolerance eps. With one β for every job (as in the thesis, §3.1) the
// rescaling is the identity and the result is fairness.AllocateSlots'
// exactly.
//
// Special cases: jobs with no tasks get target 0 and do not count in N;
// slots = 0 gives every job 0. dst must not be nil; a nil ws uses a
// temporary workspace. slots must be ≥ 0, betaRef > 1 and finite and every
// job's Beta too, every job's Tasks ≥ 0, eps in [0, 1]: otherwise a
// *specsched.InputError naming the job and field is returned and dst is
// left unspecified (the plug-in validates β first, so it never reaches
// this).
//
// Complexity: O(n) for n jobs; dst and ws are reused when large enough.
func Decide(dst *Decision, jobs []JobDemand, slots int, betaRef, eps float64, ws *Workspace) error {
	if dst == nil {
		return &specsched.InputError{Func: decideFunc, Index: -1, Field: "dst", Text: "nil", Reason: "must not be nil"}
	}
	if ws == nil {
		ws = &Workspace{}
	}
	if err := check.NonNegative(decideFunc, check.Scalar, "slots", float64(slots)); err != nil {
		return err
	}
	if !validBeta(betaRef) {
		return &specsched.InputError{Func: decideFunc, Index: -1, Field: "betaRef", Value: betaRef, Reason: "must be finite and > 1"}
	}
	if err := check.Unit(decideFunc, check.Scalar, "eps", eps); err != nil {
		return err
	}
	for i, job := range jobs {
		if job.Tasks < 0 {
			return &specsched.InputError{Func: decideFunc, Index: i, Field: "Tasks", Value: float64(job.Tasks), Reason: "must be ≥ 0"}
		}
		if !validBeta(job.Beta) {
			return &specsched.InputError{Func: decideFunc, Index: i, Field: "Beta", Value: job.Beta, Reason: "must be finite and > 1"}
		}
	}
	n := len(jobs)
	dst.Targets = slices.Grow(dst.Targets[:0], n)[:n]
	dst.Virtual = slices.Grow(dst.Virtual[:0], n)[:n]
	dst.Floor, dst.Constrained = 0, false
	ws.scaled = slices.Grow(ws.scaled[:0], n)[:n]
	unit, err := alloc.VirtualSize(1, betaRef)
	if err != nil {
		return err
	}
	active := 0
	var total float64
	for i, job := range jobs {
		v, err := alloc.VirtualSize(float64(job.Tasks), job.Beta)
		if err != nil {
			return err
		}
		dst.Virtual[i] = v
		ws.scaled[i] = v / unit
		total += v
		if job.Tasks > 0 {
			active++
		}
	}
	dst.Targets, err = fairness.AllocateSlots(dst.Targets, ws.scaled, slots, betaRef, eps, &ws.fair)
	if err != nil {
		return err
	}
	dst.Constrained = total >= float64(slots)
	if active > 0 {
		dst.Floor = int(math.Floor((1 - eps) * float64(slots) / float64(active)))
	}
	return nil
}

const decideFunc = "volcano.Decide"

// Workspace holds Decide's scratch memory; the zero value is ready to use.
// Reusing one makes steady-state sessions allocation-free (§3.5's
// computation runs once per session).
type Workspace struct {
	scaled []float64
	fair   fairness.Workspace
}
