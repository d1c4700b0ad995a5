package probe

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
)

// A Class says whether a job is scheduled as a short or as a long job.
type Class uint8

const (
	// Short jobs are latency sensitive and scheduled by the distributed
	// schedulers with probes.
	Short Class = iota
	// Long jobs consume the bulk of the resources and are placed by the
	// centralized scheduler (LWL) in the general partition.
	Long
)

var classNames = []string{Short: "short", Long: "long"}

// String returns "short" or "long".
func (c Class) String() string { return enum.Name(c, classNames, "Class") }

// Classify classifies a job from its estimated mean task duration: "A job is
// classified as long (short) if the average execution time for its tasks
// falls above (below) a given threshold" (Eagle §2). The estimate is the
// average execution time of the job's tasks, from earlier runs of the
// recurring job.
//
// The paper leaves a job exactly at the threshold unclassified; Classify
// calls it short (long means strictly above), so that a threshold of 0
// makes every job of positive duration long and a threshold of +Inf makes
// every job short.
//
// Complexity: O(1).
//
// Special cases: estTask = 0 is short. An error is returned for an estTask
// that is NaN, ±Inf or negative, and for a threshold that is NaN or negative
// (+Inf is allowed).
func Classify(estTask, threshold float64) (Class, error) {
	const fn = "probe.Classify"
	if err := check.NonNegative(fn, check.Scalar, "estTask", estTask); err != nil {
		return Short, err
	}
	if math.IsNaN(threshold) || threshold < 0 {
		return Short, check.Err(fn, check.Scalar, "threshold", threshold, "must be ≥ 0 (+Inf allowed)")
	}
	return classify(estTask, threshold), nil
}

// classify is Classify on validated input (estTask finite and ≥ 0,
// threshold ≥ 0 or +Inf): long means strictly above the threshold. The
// simulator calls it on the estimates and threshold Simulate validated.
// O(1).
func classify(estTask, threshold float64) Class {
	if estTask > threshold {
		return Long
	}
	return Short
}
