package dag

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/dagkernel"
)

// The range EstimateAlpha clamps α to. The thesis (§5.2) observes
// intermediate-to-input data ratios from 0.05 to 18 in the Facebook and
// Bing traces; the range is that, made symmetric about 1 (1/20 to 20). The
// floor keeps a job whose downstream phase has nothing left to read from
// getting weight 0 — Algorithm 3 would then never serve it, and every job
// before it in the order would be given targets that grow without bound as
// α → 0 — and the ceiling keeps a nearly finished upstream phase with a
// read backlog from an unbounded weight.
const (
	MinAlpha = dagkernel.MinAlpha
	MaxAlpha = dagkernel.MaxAlpha
)

// Spark-like and Hadoop-like dampening values (thesis §6.2.1): in Spark the
// in-memory map phases are fast and the intermediate communication is the
// bottleneck; Hadoop jobs spend most of their time in the map phase.
const (
	DampeningSpark  = 0.8
	DampeningHadoop = 0.3
)

// Ratio accumulates the intermediate-to-input data ratio of completed
// upstream tasks: the input data they read and the intermediate data they
// produced (thesis §5.2). Keep one per job, fed by the job's completed
// tasks, for multi-wave jobs; keep one per recurring job, fed by its earlier
// runs, as the prior for a new run. The zero value holds no tasks.
type Ratio struct {
	Input  float64 // input data read by the tasks recorded so far
	Output float64 // intermediate data they produced
}

// Add records one completed task that read input and produced output (in
// any unit of data, the same for both). O(1).
//
// An error, with r unchanged, is returned for a negative, NaN or infinite
// input or output, and when a total would overflow float64.
func (r *Ratio) Add(input, output float64) error {
	const fn = "dag.Ratio.Add"
	if err := check.NonNegative(fn, check.Scalar, "input", input); err != nil {
		return err
	}
	if err := check.NonNegative(fn, check.Scalar, "output", output); err != nil {
		return err
	}
	in, out := r.Input+input, r.Output+output
	if math.IsInf(in, 1) {
		return check.Err(fn, check.Scalar, "input", input, "the total overflows float64")
	}
	if math.IsInf(out, 1) {
		return check.Err(fn, check.Scalar, "output", output, "the total overflows float64")
	}
	r.Input, r.Output = in, out
	return nil
}

// Value returns the ratio Output/Input, and false when no input has been
// recorded (Input = 0), when the ratio is unknown, and when the ratio is
// too large for a float64 (Output/Input > math.MaxFloat64, an Input far
// below the Output). A ratio below the smallest float64 is rounded, to 0
// at the end. Fields that Add would not have produced (negative, NaN,
// ±Inf) also give false. O(1).
func (r Ratio) Value() (float64, bool) {
	v, ok := dagkernel.Ratio(r.Input, r.Output) // +Inf past float64's range
	if math.IsInf(v, 1) {
		return 0, false
	}
	return v, ok
}

// Progress is what EstimateAlpha needs to know about a job's running
// (upstream) phase and the downstream phase that reads its output.
type Progress struct {
	// Done holds the input read and the intermediate data produced by the
	// running phase's completed tasks.
	Done Ratio

	// RemainingInput is the input data of the running phase's tasks that
	// have not completed.
	RemainingInput float64

	// Read is the intermediate data the downstream phase has read so far.
	Read float64
}

// EstimateAlpha returns a job's weight α for Algorithm 3 (thesis §4.1, §5.2;
// conference paper §6.3): the intermediate data remaining to be read by the
// downstream phase over the work remaining in the upstream phase, measured
// by the input the upstream tasks have still to process:
//
//	r     = Done.Output / Done.Input    (the job's completed tasks; multi-wave jobs)
//	      = recurring.Output / recurring.Input   if no task has completed
//	α_raw = (Done.Output − Read + r·RemainingInput) / RemainingInput
//	      = (Done.Output − Read)/RemainingInput + r,
//
// where Done.Output − Read is the produced data not yet read (0 if Read
// exceeds it) and r·RemainingInput the data the remaining tasks will
// produce. α_raw is clamped to [MinAlpha, MaxAlpha] and then dampened:
//
//	α = α_raw^d.
//
// The thesis gives the dampening value d ∈ [0, 1] (§6.2.1: high for
// shuffle-intensive jobs, 0.8 for Spark, low for map-intensive ones, 0.3 for
// Hadoop) but not how it is applied. A power interpolates geometrically
// between "ignore pipelining" and the raw weight: d = 0 gives α = 1 for
// every job, so Algorithm 3 becomes Algorithm 1; d = 1 gives α_raw; and in
// between |log α| = d·|log α_raw| grows with d, treating a ratio and its
// inverse alike, as a ratio should be. Algorithm 3 uses √α, so d scales the
// exponent of the weighting: targets grow like α_raw^(d/2).
//
// The thesis measures the upstream work two ways: §4.1 by "the number of
// remaining upstream tasks" (α_i = T'_i/T_i, next-phase work per task of
// the current phase), §5.2 by "the data remaining to be produced". The
// second, taken literally, is r·RemainingInput, which makes α = 1 + backlog
// over future output: at least 1 and blind to r, the quantity §5.2 goes on
// to learn. The first is used here, with input data standing for tasks;
// pass task counts in Done.Input and RemainingInput to measure it in tasks
// exactly (r is then intermediate data per task).
//
// Special cases: with no completed task and no recurring history (both
// Input 0) the ratio is unknown and α = 1 (Algorithm 1's weight). Every
// finite non-negative field is accepted, from subnormals to
// math.MaxFloat64: α_raw is formed as backlog/RemainingInput + r, whose
// terms cannot overflow where α_raw does not, and a ratio r past float64's
// range gives MaxAlpha. With
// RemainingInput = 0 the running phase has nothing left to run; α = 1, and
// Algorithm 3 gives the job no slots anyway (its T_i is 0). An error is
// returned for a negative, NaN or infinite field and for d outside [0, 1]
// or NaN. O(1).
func EstimateAlpha(p Progress, recurring Ratio, dampening float64) (float64, error) {
	const fn = "dag.EstimateAlpha"
	for _, f := range []struct {
		name  string
		value float64
	}{
		{"done.input", p.Done.Input},
		{"done.output", p.Done.Output},
		{"remaining input", p.RemainingInput},
		{"read", p.Read},
		{"recurring.input", recurring.Input},
		{"recurring.output", recurring.Output},
	} {
		if err := check.NonNegative(fn, check.Scalar, f.name, f.value); err != nil {
			return 0, err
		}
	}
	if err := check.Unit(fn, check.Scalar, "dampening", dampening); err != nil {
		return 0, err
	}
	return dagkernel.Alpha(p.Done.Input, p.Done.Output, p.RemainingInput, p.Read, recurring.Input, recurring.Output, dampening), nil
}
