package sim

import (
	"fmt"
	"strings"
)

// A Policy is a cluster scheduler: how the slots are shared among the jobs
// (the allocation) and how each job uses its share (in-job speculation).
type Policy uint8

const (
	// Fair shares the slots max-min fairly among the active jobs, each
	// capped at what it can run; no speculation (thesis §2.1).
	Fair Policy = iota
	// SRPT serves the jobs with the fewest remaining tasks first, each up
	// to what it can run; no speculation (thesis §2.1).
	SRPT
	// Hopper allocates by Algorithm 1 (alloc.AllocateSlots, one β for the
	// cluster) and each job fills its slots by stragglers.Speculate.
	Hopper
	// HopperEps allocates by Algorithm 2, ε-fair (fairness.AllocateSlots,
	// ε = Config.Eps), with in-job speculation as Hopper.
	HopperEps
	// HopperDAG allocates by Algorithm 3 (dag.AllocateSlots), with in-job
	// speculation as Hopper. A job's T_i is the unfinished tasks of its
	// current phase (the first with a task still to run), T'_i those of the
	// next phase, and α_i comes from dag.EstimateAlpha in task units (the
	// thesis's α_i = T'_i/T_i, §4.1), dampened by Config.Dampening.
	HopperDAG
	// HopperHetero allocates by the K-class water-filling of Algorithm 4
	// (stragglers.AllocateSlots, each job's own β), with in-job speculation
	// as Hopper.
	HopperHetero
	// SREWC is SREW+C(β) of Xu et al. without preemption, as evaluated in
	// their §5: shares g_j(t) from competitive.Machines, copies spread over
	// a job's tasks by competitive.Plan.
	SREWC
	// SRPTBestEffort is SRPT with best-effort speculation (thesis §2.2):
	// a copy of a straggler counts as a task of its job and gets a slot only
	// when slots are handed out.
	SRPTBestEffort
	// FairBestEffort is Fair with best-effort speculation.
	FairBestEffort
	// SRPTBudgeted is SRPT with budgeted speculation (thesis §2.2): tasks
	// run on the slots outside a reserved pool of Config.Budget slots,
	// which runs only speculative copies.
	SRPTBudgeted
	// FairBudgeted is Fair with budgeted speculation.
	FairBudgeted

	numPolicies
)

var policyNames = [numPolicies]string{
	Fair:           "fair",
	SRPT:           "srpt",
	Hopper:         "hopper",
	HopperEps:      "hopper-eps",
	HopperDAG:      "hopper-dag",
	HopperHetero:   "hopper-hetero",
	SREWC:          "srewc",
	SRPTBestEffort: "srpt-besteffort",
	FairBestEffort: "fair-besteffort",
	SRPTBudgeted:   "srpt-budgeted",
	FairBudgeted:   "fair-budgeted",
}

// String returns the policy's name, as ParsePolicy accepts it.
func (p Policy) String() string {
	if p < numPolicies {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// ParsePolicy returns the policy named s (case-insensitive): "fair", "srpt",
// "hopper", "hopper-eps", "hopper-dag", "hopper-hetero", "srewc",
// "srpt-besteffort", "fair-besteffort", "srpt-budgeted", "fair-budgeted".
func ParsePolicy(s string) (Policy, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for p, n := range policyNames {
		if n == name {
			return Policy(p), nil
		}
	}
	return 0, fmt.Errorf("sim: unknown policy %q (want one of %s)", s, strings.Join(policyNames[:], ", "))
}

// Policies returns every policy, in the order of the constants.
func Policies() []Policy {
	ps := make([]Policy, numPolicies)
	for i := range ps {
		ps[i] = Policy(i)
	}
	return ps
}

// allocator is how a policy shares the slots among jobs.
type allocator uint8

const (
	allocSRPT allocator = iota
	allocFair
	allocHopper
	allocEps
	allocDAG
	allocHetero
	allocSREWC
)

// injob is how a job uses the slots it is granted.
type injob uint8

const (
	injobLaunch     injob = iota // launch unscheduled tasks only
	injobSpeculate               // stragglers.Speculate, repeated while it acts
	injobBestEffort              // copies of detected stragglers first, then launches
	injobPlan                    // competitive.Plan (SREW+C's even spread of copies)
)

func (p Policy) allocator() allocator {
	switch p {
	case Fair, FairBestEffort, FairBudgeted:
		return allocFair
	case Hopper:
		return allocHopper
	case HopperEps:
		return allocEps
	case HopperDAG:
		return allocDAG
	case HopperHetero:
		return allocHetero
	case SREWC:
		return allocSREWC
	}
	return allocSRPT
}

func (p Policy) injob() injob {
	switch p {
	case Hopper, HopperEps, HopperDAG, HopperHetero:
		return injobSpeculate
	case SRPTBestEffort, FairBestEffort:
		return injobBestEffort
	case SREWC:
		return injobPlan
	}
	return injobLaunch
}

func (p Policy) budgeted() bool { return p == SRPTBudgeted || p == FairBudgeted }
