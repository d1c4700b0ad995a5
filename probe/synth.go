package probe

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/specsched/specsched/internal/check"
	"gonum.org/v1/gonum/stat/distuv"
)

// SynthConfig describes a synthetic workload with the shape of Eagle's
// Table 1: a small fraction of long jobs that carry most of the
// task-seconds.
type SynthConfig struct {
	Jobs             int     // number of jobs
	LongFraction     float64 // fraction of jobs that are long, in (0, 1) (Table 1, "% Long jobs")
	LongWorkFraction float64 // fraction of task-seconds in long jobs, in (0, 1) (Table 1, "% Task-Seconds long jobs")
	ShortTasks       float64 // mean tasks per short job, in [1, 1e6]
	LongTasks        float64 // mean tasks per long job, in [1, 1e6]
	ShortTaskMean    float64 // mean task duration of short jobs, seconds, > 0
	// Spread is the relative spread of task durations within a job: a
	// task's duration is uniform on m·[1−Spread, 1+Spread] around the job's
	// mean m. In [0, 1).
	Spread float64
	// Nodes and Load set the arrival rate: jobs arrive as a Poisson process
	// whose offered work is Load·Nodes task-seconds per second.
	Nodes int
	Load  float64 // > 0
}

// GoogleLike returns the configuration of a Google-like workload (Eagle
// Table 1: 10% long jobs carrying 83% of the task-seconds) of jobs jobs on
// nodes nodes at offered load load. The task counts (8 per short job, 60
// per long job on average) and the 20 s short task mean are this library's
// choice; with them long tasks are about 5.9 times longer than short ones.
func GoogleLike(jobs, nodes int, load float64) SynthConfig {
	return SynthConfig{
		Jobs: jobs, LongFraction: 0.10, LongWorkFraction: 0.83,
		ShortTasks: 8, LongTasks: 60, ShortTaskMean: 20, Spread: 0.5,
		Nodes: nodes, Load: load,
	}
}

// LongTaskMean returns the mean task duration of long jobs that gives the
// configured fraction of task-seconds in long jobs: with p = LongFraction,
// f = LongWorkFraction, mean task counts n_S, n_L and short task mean m_S,
//
//	f = p·n_L·m_L / (p·n_L·m_L + (1−p)·n_S·m_S)
//	⇒ m_L = f·(1−p)·n_S·m_S / ((1−f)·p·n_L).
func (c SynthConfig) LongTaskMean() float64 {
	p, f := c.LongFraction, c.LongWorkFraction
	return f * (1 - p) * c.ShortTasks * c.ShortTaskMean / ((1 - f) * p * c.LongTasks)
}

// Threshold returns the long/short cutoff for Classify that separates the
// two classes of the workload: the midpoint between the largest possible
// short job mean, m_S·(1+Spread), and the smallest possible long one,
// m_L·(1−Spread).
func (c SynthConfig) Threshold() float64 {
	return (c.ShortTaskMean*(1+c.Spread) + c.LongTaskMean()*(1-c.Spread)) / 2
}

// Synthesize generates the jobs of c, in submission order. Jobs arrive as a
// Poisson process (exponential inter-arrival times, the first at time 0 plus
// one gap) of rate Load·Nodes / E[task-seconds per job]; a job is long with
// probability LongFraction (Bernoulli); it has 1 + Poisson(mean−1) tasks;
// its task durations are uniform on m·[1−Spread, 1+Spread] with m =
// ShortTaskMean or LongTaskMean(); its estimate EstTask is the mean of its
// durations ("computed as the average execution time across all the tasks",
// Eagle §2). All draws use gonum's distuv with rng as the source.
//
// Special cases: an error is returned for Jobs < 0, fractions outside (0,
// 1), task means outside [1, 1e6], a ShortTaskMean or Load that is not finite and > 0,
// Spread outside [0, 1), Nodes < 1, and for parameters whose classes
// overlap (LongTaskMean()·(1−Spread) ≤ ShortTaskMean·(1+Spread)), where
// Threshold could not separate them; for a nil rng; when a task
// duration would exceed MaxTime (Simulate's bound); and, as an error on
// Load naming the job in its message, when an arrival drawn would exceed
// MaxTime (a Load too low for the task means: the mean gap between
// arrivals is E[task-seconds per job]/(Load·Nodes)).
func Synthesize(c SynthConfig, rng *rand.Rand) ([]Job, error) {
	const fn = "probe.Synthesize"
	if err := c.validate(fn); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	longMean := c.LongTaskMean()
	p := c.LongFraction
	work := p*c.LongTasks*longMean + (1-p)*c.ShortTasks*c.ShortTaskMean
	gap := distuv.Exponential{Rate: c.Load * float64(c.Nodes) / work, Src: rng}
	isLong := distuv.Bernoulli{P: p, Src: rng}
	extraShort := distuv.Poisson{Lambda: c.ShortTasks - 1, Src: rng}
	extraLong := distuv.Poisson{Lambda: c.LongTasks - 1, Src: rng}
	jobs := make([]Job, c.Jobs)
	now := 0.0
	for i := range jobs {
		now += gap.Rand()
		if !(now <= MaxTime) {
			return nil, check.Err(fn, -1, "Load", c.Load, fmt.Sprintf(
				"too low: job %d would arrive at %.3g, past MaxTime (%g), what Simulate accepts (or lower the task means)", i, now, MaxTime))
		}
		mean, extra := c.ShortTaskMean, extraShort
		if isLong.Rand() == 1 {
			mean, extra = longMean, extraLong
		}
		n := 1
		if extra.Lambda > 0 {
			n += int(extra.Rand())
		}
		dur := distuv.Uniform{Min: mean * (1 - c.Spread), Max: mean * (1 + c.Spread), Src: rng}
		durations := make([]float64, n)
		sum := 0.0
		for k := range durations {
			durations[k] = dur.Rand()
			sum += durations[k]
		}
		jobs[i] = Job{Submit: now, Durations: durations, EstTask: sum / float64(n)}
	}
	return jobs, nil
}

// validate checks c's fields (see Synthesize), the classes' separation and
// the task durations' bound.
func (c SynthConfig) validate(fn string) error {
	if c.Jobs < 0 || c.Jobs > MaxProbes {
		return check.Err(fn, check.Scalar, "Jobs", float64(c.Jobs), "must lie in [0, 2^31]")
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"LongFraction", c.LongFraction}, {"LongWorkFraction", c.LongWorkFraction}} {
		if !(f.v > 0 && f.v < 1) {
			return check.Err(fn, check.Scalar, f.name, f.v, "must lie in (0, 1)")
		}
	}
	if !(c.ShortTasks >= 1 && c.ShortTasks <= 1e6) {
		return check.Err(fn, check.Scalar, "ShortTasks", c.ShortTasks, "must lie in [1, 1e6]")
	}
	if !(c.LongTasks >= 1 && c.LongTasks <= 1e6) {
		return check.Err(fn, check.Scalar, "LongTasks", c.LongTasks, "must lie in [1, 1e6]")
	}
	if err := check.Positive(fn, check.Scalar, "ShortTaskMean", c.ShortTaskMean); err != nil {
		return err
	}
	if !(c.Spread >= 0 && c.Spread < 1) {
		return check.Err(fn, check.Scalar, "Spread", c.Spread, "must lie in [0, 1)")
	}
	if c.Nodes < 1 || c.Nodes > MaxProbes {
		return check.Err(fn, check.Scalar, "Nodes", float64(c.Nodes), "must lie in [1, 2^31]")
	}
	if err := check.Positive(fn, check.Scalar, "Load", c.Load); err != nil {
		return err
	}
	longMean := c.LongTaskMean()
	if !(longMean*(1-c.Spread) > c.ShortTaskMean*(1+c.Spread)) || math.IsInf(longMean, 0) {
		return check.Err(fn, check.Scalar, "LongTaskMean", longMean, "classes overlap: need LongTaskMean·(1−Spread) > ShortTaskMean·(1+Spread)")
	}
	if longMean*(1+c.Spread) > MaxTime {
		return check.Err(fn, check.Scalar, "LongTaskMean", longMean, "task durations would exceed MaxTime, what Simulate accepts")
	}
	return nil
}
