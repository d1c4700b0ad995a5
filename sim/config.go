package sim

import (
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
)

// Defaults of the papers' evaluations.
const (
	// DefaultEps is ε of Hopper's ε-fairness: 10% of the fair share
	// (thesis §6.3, "we conservatively set ε to be 10%").
	DefaultEps = 0.1
	// DefaultSREWCBeta and DefaultLambda are SREW+C(β)'s β = 0.7 and λ = 1
	// (Xu et al. §5.1: "we shall choose β = 0.7 and λ = 1").
	DefaultSREWCBeta = 0.7
	DefaultLambda    = 1
	// DefaultBudgetFraction is the share of the slots budgeted speculation
	// reserves for copies when Config.Budget is left to DefaultConfig: the
	// thesis's Figure 2.2 reserves 2 of 6 slots; clusters reserve far less.
	// 10% is this library's choice, in the range of budgets of the
	// speculation systems the thesis cites (Dolly clones within a budget of
	// a few percent to 10% of the cluster).
	DefaultBudgetFraction = 0.1
	// DefaultDampening is the exponent applied to α by HopperDAG
	// (dag.EstimateAlpha): the thesis's Spark value (§6.2.1).
	DefaultDampening = 0.8
)

// MaxSREWCLambda is the largest Config.Lambda SREWCAllocator accepts: its
// remaining effective workloads Υ_j(t) = Σ unfinished·(E + λσ) stay finite
// for every accepted job (at most 2^28 tasks, whose moments are far below
// 1e100) only for a bounded λ. Xu et al. use λ = 1; 1e12 is this library's
// choice, far above any meaningful value.
const MaxSREWCLambda = 1e12

// MaxSlots is the largest cluster Simulate accepts.
const MaxSlots = 1 << 24

// Service says how the durations of a task's copies relate to each other.
type Service uint8

const (
	// CopyService: every copy draws its duration independently from the
	// task's distribution (thesis §3.1: i.i.d. copies).
	CopyService Service = iota
	// MachineService: a task has a fixed work — the duration of its first
	// copy under CopyService — and every copy, the first included, runs it
	// on a machine of random speed, taking work·Y with Y log-normal of mean
	// 1 and coefficient of variation Config.ServiceCV, independent across
	// copies. It is the continuous-time counterpart of the per-machine
	// service variability of Xu et al. §2 (machines deliver X_i(t) units of
	// work per slot, mean 1, variance σ²): copies of one task are correlated
	// through its work and differ only by their machines.
	MachineService
)

var serviceNames = []string{CopyService: "copy", MachineService: "machine"}

// String returns "copy" or "machine".
func (s Service) String() string { return enum.Name(s, serviceNames, "Service") }

// Config configures Simulate. DefaultConfig fills in the papers' settings.
type Config struct {
	// Slots is the number of slots S ≥ 1 of the cluster; each runs one copy
	// of one task at a time.
	Slots  int
	Policy Preset

	// Allocator and Rule, if not nil, replace Policy's allocator and in-job
	// rule (Preset.Allocator, Preset.Rule): any allocator combines with any
	// rule, built-in or the caller's own. Each value serves one Simulate at
	// a time (it may keep scratch memory); Policy then only labels the
	// Result.
	Allocator Allocator
	Rule      InJobRule

	// Beta is the Pareto tail index the homogeneous Hopper policies
	// (Hopper, HopperEps, HopperDAG) assume for every job (> 1; ≥ 2 means no
	// speculation). 0 means the task-weighted mean of the jobs' Beta.
	Beta float64

	// Eps is HopperEps's ε ∈ [0, 1], a fraction of the fair share
	// (EpsFairAllocator).
	Eps float64

	// SREWCBeta ∈ (0, 1] and Lambda ≥ 0 are SREW+C(β)'s β and λ
	// (SREWCAllocator; PlanRule uses λ). With SREWCAllocator, Lambda is at
	// most MaxSREWCLambda.
	SREWCBeta, Lambda float64

	// Budget is the number of slots budgeted speculation reserves for
	// copies, 0 ≤ Budget < Slots (BudgetedRule only).
	Budget int

	// Dampening ∈ [0, 1] is the exponent dag.EstimateAlpha applies to α
	// (DAGAllocator only).
	Dampening float64

	// Speculation configures the in-job speculation.
	Speculation Speculation

	// Service selects the copy-duration model; ServiceCV > 0 is the
	// coefficient of variation of a machine's slowdown under MachineService.
	Service   Service
	ServiceCV float64

	// Seed fixes every random draw of the run: the same jobs, Config and
	// Seed give the same Result, bit for bit.
	Seed uint64

	// Record makes Simulate return every copy it ran in Result.Copies.
	Record bool

	// Progress, if not nil, is called with the number of jobs completed
	// and the total after every job completion. It must not modify the jobs.
	Progress func(done, total int)

	debug debugFlags // tests only: switch the engine's shortcuts off
}

// debugFlags switch off the engine's shortcuts, which must not change any
// result: the tests compare runs with and without them.
type debugFlags struct {
	noFilter bool // always ask stragglers.Speculate, even when no task can be a straggler

	everyInstant bool // decide at the would-be end of every killed copy too

	// stretchAfter > 0 doubles the duration of every copy whose reports
	// up to this time all come before its slowdown (engine.stretch): the
	// information test's second sample path.
	stretchAfter float64

	// scratch, if not nil, is the reused memory the run starts from
	// instead of the pool's (TestScratchReuse plants it).
	scratch *scratch
}

// DefaultConfig returns the configuration of policy p on a cluster of
// slots slots with the papers' settings: ε = 10% (DefaultEps), SREW+C's β =
// 0.7 and λ = 1, a budget of 10% of the slots (at least 1 when slots ≥ 2),
// the Spark dampening 0.8 for α, the thesis's speculation rule with
// progress-based estimates (DefaultSpeculation), and copies drawn
// independently. Beta is 0: the jobs' own tail indices decide.
func DefaultConfig(p Preset, slots int) Config {
	budget := int(math.Round(DefaultBudgetFraction * float64(slots)))
	if budget < 1 && slots >= 2 {
		budget = 1
	}
	return Config{
		Slots:       slots,
		Policy:      p,
		Eps:         DefaultEps,
		SREWCBeta:   DefaultSREWCBeta,
		Lambda:      DefaultLambda,
		Budget:      budget,
		Dampening:   DefaultDampening,
		Speculation: DefaultSpeculation(),
		ServiceCV:   0.5,
	}
}

// Validate returns the error Simulate would return for cfg, whatever the
// jobs (see Simulate), or nil: a *specsched.InputError naming the field.
// O(1).
func (cfg Config) Validate() error { return cfg.validate("sim.Simulate") }

// parts returns the run's allocator and in-job rule: cfg's, or new values of
// Policy's.
func (cfg *Config) parts() (Allocator, InJobRule) {
	a, r := cfg.Allocator, cfg.Rule
	if a == nil {
		a = cfg.Policy.Allocator()
	}
	if r == nil {
		r = cfg.Policy.Rule()
	}
	return a, r
}

// validate checks cfg at Simulate's boundary.
func (cfg *Config) validate(fn string) error {
	if cfg.Slots < 1 || cfg.Slots > MaxSlots {
		return check.Err(fn, check.Scalar, "Slots", float64(cfg.Slots), "must lie in [1, 2^24]")
	}
	if cfg.Policy >= numPolicies {
		return check.Err(fn, check.Scalar, "Policy", float64(cfg.Policy), "unknown policy")
	}
	if cfg.Beta != 0 && !(cfg.Beta > 1 && cfg.Beta <= math.MaxFloat64) {
		return check.Err(fn, check.Scalar, "Beta", cfg.Beta, "must be 0 (the jobs' own) or a finite number > 1")
	}
	if err := check.Unit(fn, check.Scalar, "Eps", cfg.Eps); err != nil {
		return err
	}
	a, r := cfg.parts()
	if err := check.NonNegative(fn, check.Scalar, "Lambda", cfg.Lambda); err != nil {
		return err
	}
	if _, ok := a.(*SREWCAllocator); ok {
		if err := cfg.srewc(fn); err != nil {
			return err
		}
	}
	if _, ok := r.(PoolRule); ok && (cfg.Budget < 0 || cfg.Budget >= cfg.Slots) {
		return check.Err(fn, check.Scalar, "Budget", float64(cfg.Budget), "must lie in [0, Slots)")
	}
	if err := check.Unit(fn, check.Scalar, "Dampening", cfg.Dampening); err != nil {
		return err
	}
	if cfg.Service > MachineService {
		return check.Err(fn, check.Scalar, "Service", float64(cfg.Service), "unknown service model")
	}
	if cfg.Service == MachineService && !(cfg.ServiceCV > 0 && cfg.ServiceCV <= 100) {
		return check.Err(fn, check.Scalar, "ServiceCV", cfg.ServiceCV, "must lie in (0, 100]")
	}
	return cfg.Speculation.validate(fn)
}

// srewc checks the parameters of SREWCAllocator: SREWCBeta ∈ (0, 1],
// Lambda ≤ MaxSREWCLambda.
func (cfg *Config) srewc(fn string) error {
	if !(cfg.SREWCBeta > 0 && cfg.SREWCBeta <= 1) {
		return check.Err(fn, check.Scalar, "SREWCBeta", cfg.SREWCBeta, "must lie in (0, 1]")
	}
	if !(cfg.Lambda <= MaxSREWCLambda) {
		return check.Err(fn, check.Scalar, "Lambda", cfg.Lambda, "must be at most MaxSREWCLambda = 1e12 for SREWCAllocator")
	}
	return nil
}

// clusterBeta returns the β the homogeneous Hopper policies assume: Beta,
// or the jobs' β weighted by their tasks. The weighted sum overflows for
// tail indices near MaxFloat64; the mean is then taken as Σ (n_j/N)·β_j,
// whose terms cannot overflow, and kept within the jobs' least and largest β
// (where the exact mean lies) against the rounding of the sum.
func clusterBeta(cfg *Config, jobs []Job) float64 {
	if cfg.Beta != 0 {
		return cfg.Beta
	}
	var sum, weight float64
	least, most := math.Inf(1), math.Inf(-1)
	for j := range jobs {
		n := float64(jobTasks(&jobs[j]))
		sum += n * jobs[j].Beta
		weight += n
		least, most = math.Min(least, jobs[j].Beta), math.Max(most, jobs[j].Beta)
	}
	if weight == 0 {
		return alloc.NoSpeculationBeta
	}
	if !math.IsInf(sum, 1) {
		return sum / weight
	}
	var mean float64
	for j := range jobs {
		mean += float64(jobTasks(&jobs[j])) / weight * jobs[j].Beta
	}
	return math.Min(math.Max(mean, least), most)
}

// jobTasks is the number of tasks of a job, over its phases.
func jobTasks(job *Job) int {
	n := 0
	for _, ph := range job.Phases {
		n += ph.Tasks
	}
	return n
}
