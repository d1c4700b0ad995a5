package sim

import (
	"fmt"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
	"github.com/specsched/specsched/stragglers"
)

// An Estimator is how a job's scheduler estimates t_rem, the time a running
// task still needs, when it decides which tasks are stragglers.
type Estimator uint8

const (
	// Oracle knows t_rem exactly: the time until the task's earliest copy
	// finishes.
	Oracle Estimator = iota
	// Progress estimates each copy's remaining time from its progress
	// rate, as LATE and Mantri do, with a multiplicative error: a copy due
	// to finish in r is estimated to need r·η, η log-normal with median 1
	// and shape Speculation.EstimateError, drawn once per copy (a copy whose
	// rate is misjudged stays misjudged). t_rem is the smallest estimate
	// over the task's copies. EstimateError = 0 is Oracle.
	Progress
	// Observed sees only what a copy has reported: a copy runs at a
	// nominal rate and slows down part-way (see the package documentation,
	// "What the scheduler sees"), reports its progress score p every
	// Speculation.Heartbeat × t_new, and its remaining time is LATE's time
	// left (1 − p)/(p/x) computed at its last report, at age x (Hadoop's
	// speculator's rate, measured at the report), until the next report. A
	// copy that has not reported yet is assumed to need t_new; a task whose
	// first copy has not reported has no estimate (t_rem = 0) and is never
	// judged a straggler. t_rem is the least estimate over the task's
	// copies. EstimateError is not used: the error comes from the reports.
	Observed
)

var estimatorNames = []string{Oracle: "oracle", Progress: "progress", Observed: "observed"}

// String returns "oracle", "progress" or "observed".
func (e Estimator) String() string { return enum.Name(e, estimatorNames, "Estimator") }

// ParseEstimator returns the estimator named s ("oracle", "progress" or
// "observed").
func ParseEstimator(s string) (Estimator, error) {
	if e, ok := enum.Index[Estimator](s, estimatorNames); ok {
		return e, nil
	}
	return 0, fmt.Errorf("sim: unknown estimator %q (want \"oracle\", \"progress\" or \"observed\")", s)
}

// Defaults of the in-job speculation.
const (
	// DefaultEstimateError is the shape σ of the log-normal error of
	// progress-based estimates: a copy's remaining time is misjudged by a
	// factor e^{±0.3} ≈ ×1.35 or ÷1.35 at one standard deviation. This is
	// the library's choice; Mantri reports estimates within tens of percent.
	DefaultEstimateError = 0.3
	// DefaultDetect is how long a task must run, as a fraction of t_new,
	// before it can be judged a straggler (the thesis's "small amount of
	// time", §2.1).
	DefaultDetect = 0.1
	// DefaultHeartbeat is the interval between a copy's progress reports
	// under Observed when Speculation.Heartbeat is 0, as a fraction of its
	// job's t_new. It maps Hadoop's task progress report interval, 3 s (a
	// MapReduce task's reporter sends its status every 3000 ms), onto
	// tasks of 30 s on average (tens of seconds, as in the Facebook and
	// Bing traces the thesis describes): 3 s / 30 s = 0.1. DefaultWorkload's
	// unit is the mean task duration, so its copies report every 0.1 time
	// unit.
	DefaultHeartbeat = 0.1
)

// Speculation configures how a job chooses, within the slots it holds, which
// unscheduled tasks to launch and which running tasks to copy. The decision
// itself is stragglers.Speculate's (see Preset for who calls it how).
type Speculation struct {
	// Off disables copies: every policy only launches tasks. A policy with
	// speculation off is its own non-speculative base.
	Off bool

	// Mantri selects Mantri's rule, P(t_rem > (c+1)/c·t_new) > Threshold,
	// instead of the thesis's rule, t_rem > t_new.
	Mantri    bool
	Threshold float64 // Mantri's δ ∈ [0, 1]

	Estimator     Estimator
	EstimateError float64 // ≥ 0, the σ of Progress estimates

	// Detect ≥ 0 is how long a task must have run, as a fraction of its
	// job's t_new, before it may be judged a straggler. 0 judges a task as
	// soon as it starts, as the thesis's example does. Under Observed a
	// task must also have reported (both conditions hold).
	Detect float64

	// Heartbeat ∈ [0, 1e6] is the interval between a copy's progress
	// reports under Observed, as a fraction of its job's t_new (as Detect
	// is): a copy reports at its start + k·Heartbeat·t_new, k ≥ 1. 0 means
	// DefaultHeartbeat. Ignored by the other estimators. An interval below
	// 2^-960 (about 1.0e-289) is raised to it, and one below the clock's
	// resolution at the copy's start to one unit in its last place: finer
	// reports would give estimates that are subnormal numbers, rounded to
	// absolute rather than relative steps. A copy makes at most 2^20
	// reports (over 10⁵ times t_new at DefaultHeartbeat); its estimate then
	// stays its last report's.
	Heartbeat float64

	// Onset is the law of where a copy slows down under Observed. Ignored
	// by the other estimators.
	Onset Onset
}

// Onset is the law of U, the fraction of its work a copy does at its
// phase's nominal rate before it slows down under Observed (see Estimator
// Observed): U follows Beta(Alpha, Beta). The zero Onset is the uniform law,
// Beta(1, 1), which assumes nothing about where a slowdown starts (neither
// the thesis nor LATE nor Mantri gives it). Alpha < Beta puts the
// slowdowns early (mean Alpha/(Alpha + Beta)): a copy is slow for most of its
// life and its progress rate shows it early, as with a slow machine or a
// large input; Alpha > Beta puts them late, where a rate averaged since the
// copy's start hides them, as with contention that arrives while a copy
// runs. Non-zero parameters lie in [0.25, 10] each: there gonum's inverse
// of the regularised incomplete beta function is accurate, and at most
// 2·10⁻⁴ of the law (Beta(10, 0.25)) lies closer to 1 than the largest
// number below 1, where the draws are rounded; with Beta = 0.1 that share
// would be 3% (TestOnsetLaw, TestOnsetQuantile).
type Onset struct {
	Alpha, Beta float64
}

// Limits of Onset's parameters.
const (
	MinOnsetShape = 0.25
	MaxOnsetShape = 10
)

// DefaultSpeculation returns the speculation of the evaluation: the thesis's
// rule (t_rem > t_new) on progress-based estimates with a 0.3 log-normal
// error, judged after a tenth of t_new; Mantri's rule, if selected, with
// Mantri's default δ (stragglers.DefaultMantriThreshold).
func DefaultSpeculation() Speculation {
	return Speculation{
		Threshold:     stragglers.DefaultMantriThreshold,
		Estimator:     Progress,
		EstimateError: DefaultEstimateError,
		Detect:        DefaultDetect,
	}
}

func (s *Speculation) validate(fn string) error {
	if err := check.Unit(fn, check.Scalar, "Speculation.Threshold", s.Threshold); err != nil {
		return err
	}
	if s.Estimator > Observed {
		return check.Err(fn, check.Scalar, "Speculation.Estimator", float64(s.Estimator), "unknown estimator")
	}
	if !(s.EstimateError >= 0 && s.EstimateError <= 10) {
		return check.Err(fn, check.Scalar, "Speculation.EstimateError", s.EstimateError, "must lie in [0, 10]")
	}
	if !(s.Detect >= 0 && s.Detect <= 1e6) {
		return check.Err(fn, check.Scalar, "Speculation.Detect", s.Detect, "must lie in [0, 1e6]")
	}
	if !(s.Heartbeat >= 0 && s.Heartbeat <= 1e6) {
		return check.Err(fn, check.Scalar, "Speculation.Heartbeat", s.Heartbeat, "must lie in [0, 1e6]")
	}
	if s.Onset == (Onset{}) {
		return nil
	}
	if !(s.Onset.Alpha >= MinOnsetShape && s.Onset.Alpha <= MaxOnsetShape) {
		return check.Err(fn, check.Scalar, "Speculation.Onset.Alpha", s.Onset.Alpha, "must lie in [0.25, 10] (or both Onset parameters 0: uniform)")
	}
	if !(s.Onset.Beta >= MinOnsetShape && s.Onset.Beta <= MaxOnsetShape) {
		return check.Err(fn, check.Scalar, "Speculation.Onset.Beta", s.Onset.Beta, "must lie in [0.25, 10] (or both Onset parameters 0: uniform)")
	}
	return nil
}
