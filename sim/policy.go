package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/specsched/specsched/internal/enum"
)

// A Preset is a named cluster scheduler, a policy: an Allocator, how the slots are
// shared among the jobs, and an InJobRule, how each job uses its share
// (Parts names them; Config.Allocator and Config.Rule replace either). Any
// allocator combines with any rule. The presets:
//
//	Preset           allocator (NewAllocator)         rule (NewRule)
//	Fair             fair (FairAllocator)             launch (LaunchRule)
//	SRPT             srpt (SRPTAllocator)             launch
//	Hopper           hopper (HopperAllocator)         speculate (SpeculateRule)
//	HopperEps        hopper-eps (EpsFairAllocator)    speculate
//	HopperDAG        hopper-dag (DAGAllocator)        speculate
//	HopperHetero     hopper-hetero (HeteroAllocator)  speculate
//	SREWC            srewc (SREWCAllocator)           plan (PlanRule)
//	SRPTBestEffort   srpt                             besteffort (BestEffortRule)
//	FairBestEffort   fair                             besteffort
//	SRPTBudgeted     srpt                             budgeted (BudgetedRule)
//	FairBudgeted     fair                             budgeted
type Preset uint8

const (
	// Fair shares the slots max-min fairly among the active jobs, each
	// capped at what it can run; no speculation (thesis §2.1).
	Fair Preset = iota
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
func (p Preset) String() string {
	return enum.Name(p, policyNames[:], "Preset")
}

// ParsePolicy returns the policy named s (case-insensitive): "fair", "srpt",
// "hopper", "hopper-eps", "hopper-dag", "hopper-hetero", "srewc",
// "srpt-besteffort", "fair-besteffort", "srpt-budgeted", "fair-budgeted".
func ParsePolicy(s string) (Preset, error) {
	if p, ok := enum.Index[Preset](strings.ToLower(strings.TrimSpace(s)), policyNames[:]); ok {
		return p, nil
	}
	return 0, fmt.Errorf("sim: unknown policy %q (want one of %s)", s, strings.Join(policyNames[:], ", "))
}

// Policies returns every policy, in the order of the constants.
func Policies() []Preset {
	ps := make([]Preset, numPolicies)
	for i := range ps {
		ps[i] = Preset(i)
	}
	return ps
}

// Every preset is an allocator and an in-job rule, by name (NewAllocator,
// NewRule).
var presets = [numPolicies][2]string{
	Fair:           {"fair", "launch"},
	SRPT:           {"srpt", "launch"},
	Hopper:         {"hopper", "speculate"},
	HopperEps:      {"hopper-eps", "speculate"},
	HopperDAG:      {"hopper-dag", "speculate"},
	HopperHetero:   {"hopper-hetero", "speculate"},
	SREWC:          {"srewc", "plan"},
	SRPTBestEffort: {"srpt", "besteffort"},
	FairBestEffort: {"fair", "besteffort"},
	SRPTBudgeted:   {"srpt", "budgeted"},
	FairBudgeted:   {"fair", "budgeted"},
}

// Parts returns the names of the policy's allocator and in-job rule, as
// NewAllocator and NewRule accept them: "hopper" and "speculate" for
// Hopper. An unknown policy has neither ("", "").
func (p Preset) Parts() (allocator, rule string) {
	if p < numPolicies {
		return presets[p][0], presets[p][1]
	}
	return "", ""
}

// Allocator returns a new value of the policy's allocator (nil for an
// unknown policy).
func (p Preset) Allocator() Allocator {
	a, _ := p.Parts()
	return newAllocator[a]()
}

// Rule returns a new value of the policy's in-job rule (nil for an
// unknown policy).
func (p Preset) Rule() InJobRule {
	_, r := p.Parts()
	return newRule[r]()
}

// The built-in allocators and in-job rules by name, in the order
// AllocatorNames and RuleNames list them.
var (
	allocatorNames = []string{"srpt", "srpt-conserving", "fair", "hopper", "hopper-eps", "hopper-dag", "hopper-hetero", "srewc", "hopper-reserve"}
	newAllocator   = map[string]func() Allocator{
		"":                func() Allocator { return nil },
		"srpt":            func() Allocator { return &SRPTAllocator{} },
		"srpt-conserving": func() Allocator { return &SRPTAllocator{Conserving: true} },
		"fair":            func() Allocator { return &FairAllocator{} },
		"hopper":          func() Allocator { return &HopperAllocator{} },
		"hopper-eps":      func() Allocator { return &EpsFairAllocator{} },
		"hopper-dag":      func() Allocator { return &DAGAllocator{} },
		"hopper-hetero":   func() Allocator { return &HeteroAllocator{} },
		"srewc":           func() Allocator { return &SREWCAllocator{} },
		"hopper-reserve":  func() Allocator { return &HopperAllocator{Reserve: true} },
	}
	ruleNames = []string{"launch", "speculate", "besteffort", "idle", "budgeted", "plan", "late", "grass", "dolly", "spark", "hadoop"}
	newRule   = map[string]func() InJobRule{
		"":           func() InJobRule { return nil },
		"launch":     func() InJobRule { return LaunchRule{} },
		"speculate":  func() InJobRule { return &SpeculateRule{} },
		"besteffort": func() InJobRule { return &BestEffortRule{} },
		"idle":       func() InJobRule { return &IdleRule{} },
		"budgeted":   func() InJobRule { return &BudgetedRule{} },
		"plan":       func() InJobRule { return &PlanRule{} },
		"late":       func() InJobRule { return &LATERule{} },
		"grass":      func() InJobRule { return &GRASSRule{} },
		"dolly":      func() InJobRule { return &DollyRule{} },
		"spark":      func() InJobRule { return &SparkRule{} },
		"hadoop":     func() InJobRule { return &HadoopRule{} },
	}
)

// AllocatorNames returns the names of the built-in allocators: "srpt"
// (SRPTAllocator), "srpt-conserving" (SRPTAllocator with Conserving: the
// slots left after the demands offered to the jobs), "fair" (FairAllocator), "hopper" (HopperAllocator,
// Algorithm 1), "hopper-eps" (EpsFairAllocator, Algorithm 2), "hopper-dag"
// (DAGAllocator, Algorithm 3), "hopper-hetero" (HeteroAllocator, Algorithm
// 4), "srewc" (SREWCAllocator), "hopper-reserve" (HopperAllocator with
// Reserve: Algorithm 1 keeping a job's slots for its copies).
func AllocatorNames() []string { return slices.Clone(allocatorNames) }

// RuleNames returns the names of the built-in in-job rules: "launch"
// (LaunchRule), "speculate" (SpeculateRule, Hopper's), "besteffort"
// (BestEffortRule), "idle" (IdleRule: best effort at the lowest priority),
// "budgeted" (BudgetedRule), "plan" (PlanRule, SREW+C's),
// and the speculation baselines "late" (LATERule), "grass" (GRASSRule),
// "dolly" (DollyRule), "spark" (SparkRule), "hadoop" (HadoopRule). The
// baselines are no Preset (Policies, and specsim's "all", list the
// thesis's policies); name them with an allocator, e.g. "hopper+grass".
func RuleNames() []string { return slices.Clone(ruleNames) }

// NewAllocator returns a new value of the built-in allocator named s
// (case-insensitive; see AllocatorNames).
func NewAllocator(s string) (Allocator, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if f, ok := newAllocator[name]; ok && name != "" {
		return f(), nil
	}
	return nil, fmt.Errorf("sim: unknown allocator %q (want one of %s)", s, strings.Join(allocatorNames, ", "))
}

// NewRule returns a new value of the built-in in-job rule named s
// (case-insensitive; see RuleNames).
func NewRule(s string) (InJobRule, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if f, ok := newRule[name]; ok && name != "" {
		return f(), nil
	}
	return nil, fmt.Errorf("sim: unknown in-job rule %q (want one of %s)", s, strings.Join(ruleNames, ", "))
}

// budgeted reports whether the policy is a budgeted preset.
func (p Preset) budgeted() bool { return p == SRPTBudgeted || p == FairBudgeted }
