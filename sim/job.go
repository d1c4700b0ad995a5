package sim

import (
	"math"
	"strconv"

	"github.com/specsched/specsched/internal/check"
)

// MaxTasks is the largest number of tasks, over all jobs and phases, that
// Simulate accepts (task and copy indices are 32-bit).
const MaxTasks = 1 << 28

// MaxTime bounds arrival times and durations, so that every sum of times the
// simulator forms stays exact to well below a microsecond of a day-long run
// and can never overflow.
const MaxTime = 1e12

// MinTimeRatio bounds the dynamic range of one job's times: every duration
// a copy of its tasks can take — Phase.Scale (the least Pareto duration),
// every entry of Durations and CopyDurations — must be at least
// MinTimeRatio × Arrival. The simulator's clock is one float64, whose ulp at
// time a is at most 2^-52·a: a job served on its arrival then runs every
// copy with a relative error of at most 2^-12 (exact for durations that are
// multiples of the ulp, such as whole microseconds of a trace in
// microseconds), where a duration far below the arrival's scale — 1e-12
// at 1e12 — would be lost in the clock's last bits and the job complete in
// no time. A job that waits is resolved to the same ulps of the later
// clock, small beside its wait. No copy ever takes zero time: one whose
// duration the clock cannot resolve (MachineService can draw one) ends one
// ulp after it starts.
const MinTimeRatio = 0x1p-40

// A Job is one job of a workload: when it arrives, the straggler group it
// belongs to, the Pareto tail index of its task durations and its phases.
//
// The phases form a chain (thesis §4.1): phase p+1 reads the output of phase
// p. A task of phase p+1 may start once Phases[p+1].Start of phase p's tasks
// have finished (pipelining, Hadoop's "slow start"), and it cannot complete
// before every task of phase p has completed: a copy that runs out before
// that holds its slot and waits. A job completes when its last phase does.
type Job struct {
	// Arrival is when the job is submitted, ≥ 0.
	Arrival float64

	// Group is the job's straggler group (thesis §6.4.2: jobs of one group
	// share a tail index), ≥ 0. The simulator only reports it.
	Group int

	// Beta is the Pareto tail index β > 1 of the job's task durations:
	// the shape with which copies of tasks without explicit durations are
	// drawn, and what the job's scheduler knows about its stragglers (the
	// heterogeneous Hopper allocation and the in-job speculation level of
	// eq. 3.2 use it).
	Beta float64

	// NewCopy is t_new, the expected duration of a new copy of one of the
	// job's tasks, which the in-job speculation rule compares with t_rem.
	// 0 means the mean duration of a copy, over the job's tasks.
	NewCopy float64

	Phases []Phase
}

// A Phase is a set of parallel tasks of a job, and how long their copies run.
//
// Every copy of a task draws its duration independently:
//
//   - Durations nil: from Pareto(Scale, Job.Beta) (thesis §3.1), through
//     gonum's distuv.
//   - Durations set: the task's first copy takes Durations[i]; further
//     copies take CopyDurations[i] if CopyDurations is set (the t_new of
//     Table 2.1), and otherwise the duration of a task of the phase chosen
//     uniformly at random (Xu et al. §5: "we set the service time of this
//     copy to be the same as that of a task which is randomly chosen from
//     all the tasks in the same job").
//
// Under Config.Service = MachineService a task's work is what its first
// copy would take, and each copy runs it on a machine of random speed
// instead (see Service).
type Phase struct {
	Tasks int // ≥ 1

	// Start is the fraction of the upstream phase's tasks that must have
	// finished before this phase's tasks may start, in (0, 1]; 0 means 1
	// (a barrier). Ignored for the first phase.
	Start float64

	// Scale is x_m > 0 of the Pareto(x_m, β) durations; used when
	// Durations is nil.
	Scale float64

	// Cap, if > 0, truncates the Pareto durations at Cap ≥ Scale: a copy
	// takes the quantile u·F(Cap) of Pareto(x_m, β) for u uniform, i.e. the
	// Pareto law conditioned on being ≤ Cap (stragglers are slow, not
	// endless: "running up to 8× slower", thesis §1). 0 means no cap.
	Cap float64

	Durations     []float64 // nil, or Tasks durations > 0
	CopyDurations []float64 // nil, or Tasks durations > 0; needs Durations
}

// ParetoScale returns the Pareto scale x_m that gives task durations of the
// given mean with tail index β > 1, truncated at ratio·x_m (ratio ≥ 1; +Inf
// for no truncation):
//
//	mean = x_m · β/(β−1) · (1 − ratio^{1−β}) / (1 − ratio^{−β}),
//
// the mean of Pareto(x_m, β) conditioned on being ≤ ratio·x_m, which is
// β·x_m/(β−1) without truncation. ratio = 1 gives x_m = mean.
func ParetoScale(mean, beta, ratio float64) float64 {
	return mean / truncatedParetoFactor(beta, ratio)
}

// truncatedParetoFactor is E[X]/x_m for X ~ Pareto(x_m, β) conditioned on X ≤
// ratio·x_m.
func truncatedParetoFactor(beta, ratio float64) float64 {
	if ratio <= 1 {
		return 1
	}
	if math.IsInf(ratio, 1) {
		return beta / (beta - 1)
	}
	return beta / (beta - 1) * -math.Expm1((1-beta)*math.Log(ratio)) / -math.Expm1(-beta*math.Log(ratio))
}

// validateJobs checks a workload at Simulate's boundary and returns its total
// number of tasks.
func validateJobs(fn string, jobs []Job) (int, error) {
	total := 0
	for j := range jobs {
		job := &jobs[j]
		if !(job.Arrival >= 0 && job.Arrival <= MaxTime) {
			return 0, check.Err(fn, j, "Arrival", job.Arrival, "must lie in [0, 1e12]")
		}
		if job.Group < 0 {
			return 0, check.Err(fn, j, "Group", float64(job.Group), "must be ≥ 0")
		}
		if !(job.Beta > 1 && job.Beta <= math.MaxFloat64) {
			return 0, check.Err(fn, j, "Beta", job.Beta, "must be a finite number > 1")
		}
		if !(job.NewCopy >= 0 && job.NewCopy <= MaxTime) {
			return 0, check.Err(fn, j, "NewCopy", job.NewCopy, "must lie in [0, 1e12]")
		}
		if len(job.Phases) == 0 {
			return 0, check.Err(fn, j, "len(Phases)", 0, "a job has at least one phase")
		}
		floor := job.Arrival * MinTimeRatio
		for p := range job.Phases {
			ph := &job.Phases[p]
			if ph.Tasks < 1 || ph.Tasks > MaxTasks {
				return 0, check.Err(fn, j, phaseField(p, "Tasks"), float64(ph.Tasks), "every phase has between 1 and 2^28 tasks")
			}
			if !(ph.Start >= 0 && ph.Start <= 1) {
				return 0, check.Err(fn, j, phaseField(p, "Start"), ph.Start, "must lie in [0, 1]")
			}
			if ph.Durations == nil {
				if ph.CopyDurations != nil {
					return 0, check.Err(fn, j, phaseField(p, "CopyDurations"), float64(len(ph.CopyDurations)), "need Durations")
				}
				if !(ph.Scale > 0 && ph.Scale <= MaxTime) {
					return 0, check.Err(fn, j, phaseField(p, "Scale"), ph.Scale, "must lie in (0, 1e12] when Durations is nil")
				}
				if ph.Scale < floor {
					return 0, check.Err(fn, j, phaseField(p, "Scale"), ph.Scale, tooShort)
				}
				if ph.Cap != 0 && !(ph.Cap >= ph.Scale && ph.Cap <= MaxTime) {
					return 0, check.Err(fn, j, phaseField(p, "Cap"), ph.Cap, "must be 0 or lie in [Scale, 1e12]")
				}
			} else {
				if err := checkDurations(fn, j, phaseField(p, "Durations"), ph.Durations, ph.Tasks, floor); err != nil {
					return 0, err
				}
				if ph.CopyDurations != nil {
					if err := checkDurations(fn, j, phaseField(p, "CopyDurations"), ph.CopyDurations, ph.Tasks, floor); err != nil {
						return 0, err
					}
				}
			}
			total += ph.Tasks
			if total > MaxTasks {
				return 0, check.Err(fn, j, "Phases", float64(total), "more than 2^28 tasks in all")
			}
		}
	}
	return total, nil
}

// phaseField names field f of phase p of a job, as a caller writes it
// ("Phases[1].Scale"); it runs only to report an error.
func phaseField(p int, f string) string { return "Phases[" + strconv.Itoa(p) + "]." + f }

// tooShort is the reason of a duration below MinTimeRatio × the job's arrival.
const tooShort = "must be at least 2^-40 × the job's arrival (MinTimeRatio: the clock's resolution there)"

// checkDurations checks one phase's Durations or CopyDurations: tasks
// entries in (0, MaxTime], none below floor (MinTimeRatio × the arrival).
func checkDurations(fn string, j int, field string, d []float64, tasks int, floor float64) error {
	if len(d) != tasks {
		return check.Err(fn, j, "len("+field+")", float64(len(d)), "must equal the phase's Tasks")
	}
	for _, x := range d {
		if !(x > 0 && x <= MaxTime) {
			return check.Err(fn, j, field, x, "every duration must lie in (0, 1e12]")
		}
		if x < floor {
			return check.Err(fn, j, field, x, tooShort)
		}
	}
	return nil
}

// ThesisExampleBeta is the Pareto tail index given to the two jobs of the
// thesis's worked example (ThesisExample). The thesis does not state one;
// Hopper's Algorithm 1 gives job A the five slots of Figure 2.3 (its virtual
// size (2/β)·4 rounded) for β in about (1.45, 1.78], and 1.5 is the value the
// README's alloc example uses.
const ThesisExampleBeta = 1.5

// ThesisExample returns the worked example of the thesis (§2, Table 2.1,
// Figures 2.1–2.3), to be run on 6 slots: job A with tasks of t_init = 8, 3,
// 3, 3 and job B with t_init = 6, 6, 3, 3, 1, 1, both arriving at time 0;
// every speculative copy takes the task's t_new (2, or 1 for B5 and B6).
//
// t_new. Table 2.1 gives t_new per task, and the thesis's rule copies a
// task when t_rem > t_new. stragglers.Speculate takes one t_new per job, so
// each job gets NewCopy = 2: for every task with t_new = 2 that is the
// task's own, and B5 and B6 (t_new = 1) never qualify under either value,
// since t_rem ≤ t_init = 1 for them.
func ThesisExample() []Job {
	return []Job{
		{Beta: ThesisExampleBeta, NewCopy: 2, Phases: []Phase{{
			Tasks: 4, Durations: []float64{8, 3, 3, 3}, CopyDurations: []float64{2, 2, 2, 2},
		}}},
		{Beta: ThesisExampleBeta, NewCopy: 2, Phases: []Phase{{
			Tasks: 6, Durations: []float64{6, 6, 3, 3, 1, 1}, CopyDurations: []float64{2, 2, 2, 2, 1, 1},
		}}},
	}
}
