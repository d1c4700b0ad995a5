package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
)

// A Group is a class of jobs with one straggler behaviour (thesis §6.4.2: "we
// base our groups on simple higher-level organizational semantics"): the
// Pareto tail index of its task durations and its share of the jobs.
type Group struct {
	Beta   float64 // > 1
	Weight float64 // > 0, relative
}

// A SynthConfig describes a synthetic workload: Poisson job arrivals at a
// target utilisation, a heavy-tailed number of tasks per job, Pareto task
// durations with a tail index per job group, and chains of phases.
type SynthConfig struct {
	Jobs  int     // number of jobs ≥ 0
	Slots int     // cluster size the load refers to, ≥ 1
	Load  float64 // offered utilisation ρ ∈ (0, 10]: task work over Slots × arrival span

	// MeanTask > 0 is the mean task duration (the time unit of the
	// workload): copies are Pareto(x_m, β) truncated at MaxSlowdown·x_m,
	// x_m chosen to give this mean (ParetoScale). MaxSlowdown ≥ 1 bounds
	// how much longer than the shortest copy a copy can run; +Inf (or 0)
	// leaves the tail untruncated.
	MeanTask    float64
	MaxSlowdown float64

	Groups []Group // at least one

	// TaskShape > 0 and MaxTasks ≥ 1 give the first phase's tasks:
	// ⌊X⌋ capped at MaxTasks, X ~ Pareto(1, TaskShape) — a power law
	// (thesis §6.2: "the power law in distribution of job sizes").
	TaskShape float64
	MaxTasks  int

	// PhaseWeights[k] is the relative weight of jobs with k+1 phases (at
	// least one positive entry; nil means single-phase jobs). Phase p+1 has
	// ⌈r·T_p⌉ tasks, r uniform on [MinRatio, 1] (0 < MinRatio ≤ 1), and may
	// start once SlowStart ∈ (0, 1] of phase p's tasks have finished.
	PhaseWeights []float64
	MinRatio     float64
	SlowStart    float64
}

// DefaultWorkload returns the workload `specsim` runs with no arguments:
// jobs jobs on slots slots at offered load load, in units of the mean task
// duration. Its parameters are the library's choice, made to resemble the
// Facebook and Bing traces the thesis describes (§6.1, §6.2, §6.4.2) without
// favouring a policy:
//
//   - Tasks per job: ⌊Pareto(1, 1.1)⌋ capped at 2000 — most jobs have a few
//     tasks, a few have thousands, and the large jobs carry most of the work
//     (a power law, §6.2).
//   - Three straggler groups of equal weight with β = 1.1, 1.4 and 1.8:
//     heavy tails throughout (production traces suggest β < 2, §3.3;
//     §6.4.2 compares against a homogeneous β = 1.2). Durations are
//     truncated at 15 times the shortest (MaxSlowdown), 8 to 10 times the
//     median task: stragglers "running up to 8× slower" (§1).
//   - Phases: 60% of jobs have one phase, 30% two and 10% three; a
//     downstream phase has a uniform fraction in [0.1, 1] of its upstream
//     phase's tasks (reduce phases are smaller), and starts once 80% of the
//     upstream tasks have finished (pipelining, §4.1).
//   - Poisson arrivals at the given load (0.8 in the CLI's default).
func DefaultWorkload(jobs, slots int, load float64) SynthConfig {
	return SynthConfig{
		Jobs:         jobs,
		Slots:        slots,
		Load:         load,
		MeanTask:     1,
		MaxSlowdown:  15,
		Groups:       []Group{{Beta: 1.1, Weight: 1}, {Beta: 1.4, Weight: 1}, {Beta: 1.8, Weight: 1}},
		TaskShape:    1.1,
		MaxTasks:     2000,
		PhaseWeights: []float64{0.6, 0.3, 0.1},
		MinRatio:     0.1,
		SlowStart:    0.8,
	}
}

// MaxSynthJobs bounds SynthConfig.Jobs.
const MaxSynthJobs = 1 << 24

// Synthesize generates the jobs of c, in arrival order, with rng as the only
// source of randomness (gonum's distuv throughout).
//
// Arrivals: Jobs inter-arrival gaps are drawn exponential (a Poisson
// process) and then scaled by one common factor so that the workload's
// expected task work, Σ tasks × MeanTask, over the span from time 0 to the
// last arrival is Load × Slots: the offered utilisation is Load on average
// over the run, whatever the realised job sizes. (With a single job the span
// is its one gap.) Each job draws its group (distuv.Categorical on the
// weights), its first phase's tasks (see TaskShape), its number of phases
// and the sizes of its downstream phases. Task durations are not drawn
// here: every copy draws its own in Simulate, Pareto(x_m, β) with x_m =
// MeanTask·(β−1)/β.
//
// Complexity: O(Jobs). Special cases: Jobs = 0 gives no jobs. An error is
// returned for Jobs outside [0, 2^24], Slots < 1, Load outside (0, 10],
// MeanTask outside (0, 1e6], MaxSlowdown neither 0, +Inf nor in [1, 1e6], no
// group, a group with β ≤ 1 or a weight ≤ 0
// (or NaN, ±Inf), TaskShape outside (0, 100], MaxTasks outside [1, 2^20],
// PhaseWeights with a negative, NaN or infinite entry, none positive or more
// than 16 entries, MinRatio or SlowStart outside (0, 1], and a nil rng. A
// Load too low for the workload is an error on Load: before drawing when
// Jobs·MeanTask/(Load·Slots), the shortest span the arrivals can have,
// exceeds MaxTime; after drawing when the workload drawn is one Simulate
// would reject (see Job: arrivals beyond MaxTime, or a Scale below
// MinTimeRatio × an arrival), the message naming the job.
func Synthesize(c SynthConfig, rng *rand.Rand) ([]Job, error) {
	const fn = "sim.Synthesize"
	if err := c.validate(fn); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	if c.Jobs == 0 {
		return []Job{}, nil
	}
	weights := make([]float64, len(c.Groups))
	for i, g := range c.Groups {
		weights[i] = g.Weight
	}
	group := distuv.NewCategorical(weights, rng)
	scales := make([]float64, len(c.Groups))
	caps := make([]float64, len(c.Groups))
	for i, g := range c.Groups {
		ratio := c.MaxSlowdown
		if ratio == 0 {
			ratio = math.Inf(1)
		}
		scales[i] = ParetoScale(c.MeanTask, g.Beta, ratio)
		if !math.IsInf(ratio, 1) {
			caps[i] = ratio * scales[i]
		}
	}
	phaseWeights := c.PhaseWeights
	if len(phaseWeights) == 0 {
		phaseWeights = []float64{1}
	}
	phases := distuv.NewCategorical(phaseWeights, rng)
	size := distuv.Pareto{Xm: 1, Alpha: c.TaskShape, Src: rng}
	ratio := distuv.Uniform{Min: c.MinRatio, Max: 1, Src: rng}
	gap := distuv.Exponential{Rate: 1, Src: rng}

	jobs := make([]Job, c.Jobs)
	var tasks float64
	var t float64
	for j := range jobs {
		t += gap.Rand()
		g := int(group.Rand())
		beta := c.Groups[g].Beta
		n := int(math.Min(math.Floor(size.Rand()), float64(c.MaxTasks)))
		np := int(phases.Rand()) + 1
		ph := make([]Phase, np)
		for p := range ph {
			if p > 0 {
				n = int(math.Ceil(ratio.Rand() * float64(n)))
			}
			ph[p] = Phase{Tasks: n, Start: c.SlowStart, Scale: scales[g], Cap: caps[g]}
			tasks += float64(n)
		}
		jobs[j] = Job{Arrival: t, Group: g, Beta: beta, Phases: ph}
	}
	// Scale the arrivals: Σ tasks·MeanTask = Load·Slots·span.
	span := tasks * c.MeanTask / (c.Load * float64(c.Slots))
	scale := span / t
	for j := range jobs {
		jobs[j].Arrival *= scale
	}
	// A Load too low for the jobs drawn can put the last arrivals beyond
	// MaxTime or a Scale below MinTimeRatio × an arrival (Scale/arrival ≥
	// Scale/span does not depend on MeanTask): such a workload is one
	// Simulate would reject, and the error names Load, the parameter to
	// change, and the job where it showed.
	if _, err := validateJobs(fn, jobs); err != nil {
		return nil, loadTooLow(fn, c.Load, err)
	}
	return jobs, nil
}

// loadTooLow is the error on Load of a drawn workload that validateJobs
// rejected with err (an InputError naming a job).
func loadTooLow(fn string, load float64, err error) error {
	reason := "too low: the arrivals leave the range Simulate accepts"
	if ie, ok := err.(*specsched.InputError); ok {
		reason += fmt.Sprintf(" (job %d: %s = %.3g: %s)", ie.Index, ie.Field, ie.Value, ie.Reason)
	}
	return check.Err(fn, check.Scalar, "Load", load, reason)
}

func (c *SynthConfig) validate(fn string) error {
	if c.Jobs < 0 || c.Jobs > MaxSynthJobs {
		return check.Err(fn, check.Scalar, "Jobs", float64(c.Jobs), "must lie in [0, 2^24]")
	}
	if c.Slots < 1 || c.Slots > MaxSlots {
		return check.Err(fn, check.Scalar, "Slots", float64(c.Slots), "must lie in [1, 2^24]")
	}
	if !(c.Load > 0 && c.Load <= 10) {
		return check.Err(fn, check.Scalar, "Load", c.Load, "must lie in (0, 10]")
	}
	if !(c.MeanTask > 0 && c.MeanTask <= 1e6) {
		return check.Err(fn, check.Scalar, "MeanTask", c.MeanTask, "must lie in (0, 1e6]")
	}
	// Every job has a task, so the arrivals span at least
	// Jobs·MeanTask/(Load·Slots) (see Synthesize): a Load that puts that
	// beyond MaxTime gives no workload Simulate accepts, whatever the draw.
	if c.Jobs > 0 && !(float64(c.Jobs)*c.MeanTask/(c.Load*float64(c.Slots)) <= MaxTime) {
		return check.Err(fn, check.Scalar, "Load", c.Load,
			fmt.Sprintf("too low: the arrivals would span more than %g (MaxTime) at Jobs·MeanTask/(Load·Slots) = %.3g",
				MaxTime, float64(c.Jobs)*c.MeanTask/(c.Load*float64(c.Slots))))
	}
	if c.MaxSlowdown != 0 && !math.IsInf(c.MaxSlowdown, 1) && !(c.MaxSlowdown >= 1 && c.MaxSlowdown <= 1e6) {
		return check.Err(fn, check.Scalar, "MaxSlowdown", c.MaxSlowdown, "must be 0 or +Inf (no cap), or lie in [1, 1e6]")
	}
	if len(c.Groups) == 0 {
		return check.Err(fn, check.Scalar, "len(Groups)", 0, "must be ≥ 1: at least one group")
	}
	for i, g := range c.Groups {
		if !(g.Beta > 1 && g.Beta <= 1e6) {
			return check.ErrItem(fn, "group", i, "Groups.Beta", g.Beta, "must lie in (1, 1e6]")
		}
		if !(g.Weight > 0 && g.Weight <= math.MaxFloat64) {
			return check.ErrItem(fn, "group", i, "Groups.Weight", g.Weight, "must be finite and > 0")
		}
	}
	if !(c.TaskShape > 0 && c.TaskShape <= 100) {
		return check.Err(fn, check.Scalar, "TaskShape", c.TaskShape, "must lie in (0, 100]")
	}
	if c.MaxTasks < 1 || c.MaxTasks > 1<<20 {
		return check.Err(fn, check.Scalar, "MaxTasks", float64(c.MaxTasks), "must lie in [1, 2^20]")
	}
	if len(c.PhaseWeights) > 16 {
		return check.Err(fn, check.Scalar, "len(PhaseWeights)", float64(len(c.PhaseWeights)), "at most 16 phases")
	}
	var positive bool
	for i, w := range c.PhaseWeights {
		if !(w >= 0 && w <= math.MaxFloat64) {
			return check.ErrItem(fn, "phase", i, "PhaseWeights", w, "must be finite and ≥ 0")
		}
		positive = positive || w > 0
	}
	if len(c.PhaseWeights) > 0 && !positive {
		return check.Err(fn, check.Scalar, "PhaseWeights", 0, "at least one must be > 0")
	}
	if len(c.PhaseWeights) > 1 {
		if !(c.MinRatio > 0 && c.MinRatio <= 1) {
			return check.Err(fn, check.Scalar, "MinRatio", c.MinRatio, "must lie in (0, 1]")
		}
		if !(c.SlowStart > 0 && c.SlowStart <= 1) {
			return check.Err(fn, check.Scalar, "SlowStart", c.SlowStart, "must lie in (0, 1]")
		}
	}
	return nil
}
