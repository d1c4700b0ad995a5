package dagkernel

import "math"

// The range Alpha clamps α to (dag.MinAlpha, dag.MaxAlpha, whose doc
// comment gives their source: the thesis's §5.2 ratios, made symmetric
// about 1).
const (
	MinAlpha = 0.05
	MaxAlpha = 20
)

// Ratio is output/input, the intermediate-to-input data ratio (thesis
// §5.2; dag.Ratio), and false when no input is recorded (input = 0) or the
// fields are not finite and ≥ 0 (input > 0). A ratio past float64's range is
// +Inf (Alpha clamps it to MaxAlpha). O(1).
func Ratio(input, output float64) (float64, bool) {
	if !(input > 0 && input <= math.MaxFloat64 && output >= 0 && output <= math.MaxFloat64) {
		return 0, false
	}
	return output / input, true
}

// Alpha is a job's weight for Algorithm 3 (thesis §4.1, §5.2;
// dag.EstimateAlpha, whose doc comment gives the formula, the reading of
// the thesis and the special cases): the ratio r of the completed tasks
// (doneOutput/doneInput), else of the recurring history, then
//
//	α = min(max(max(0, doneOutput − read)/remainingInput + r, MinAlpha), MaxAlpha)^dampening,
//
// and 1 when the ratio is unknown or remainingInput = 0. O(1).
//
// Precondition (what the caller has validated): every field finite and
// ≥ 0, dampening in [0, 1].
func Alpha(doneInput, doneOutput, remainingInput, read, recurringInput, recurringOutput, dampening float64) float64 {
	ratio, ok := Ratio(doneInput, doneOutput)
	if !ok {
		ratio, ok = Ratio(recurringInput, recurringOutput)
	}
	if !ok || remainingInput == 0 {
		return 1
	}
	// backlog/RemainingInput + r, not (backlog + r·RemainingInput) /
	// RemainingInput: the sum and the product can overflow where α does not.
	// Each term is a quotient or a ratio of finite non-negative values, so
	// the sum is never NaN; a term past float64's range is +Inf and gives
	// MaxAlpha, as the exact value would.
	backlog := max(0, doneOutput-read)
	raw := backlog/remainingInput + ratio
	raw = min(max(raw, MinAlpha), MaxAlpha)
	return math.Pow(raw, dampening)
}
