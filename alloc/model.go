package alloc

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// NoSpeculationBeta is the tail index at and above which the model assumes no
// speculation: level 1, virtual size T, throughput min(S_i, T).
const NoSpeculationBeta = 2

// speculationFactor returns the optimal speculation level 2/β of eq. 3.2, or
// 1 for β ≥ 2 (hopper.Factor), after validating β.
func speculationFactor(fn string, beta float64) (float64, error) {
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return 0, err
	}
	return hopper.Factor(beta), nil
}

// VirtualSize returns a job's virtual remaining size V = (2/β)·T (thesis
// eq. 3.5): its remaining tasks times the optimal speculation level. For
// β ≥ 2 it is T.
//
// Special cases: T = 0 gives 0. An error is returned for T < 0, NaN or ±Inf,
// for β ≤ 1, NaN or ±Inf, and when V overflows float64 (T above
// MaxFloat64·β/2 for β < 2). O(1).
func VirtualSize(remaining, beta float64) (float64, error) {
	const fn = "alloc.VirtualSize"
	factor, err := speculationFactor(fn, beta)
	if err != nil {
		return 0, err
	}
	if err := check.NonNegative(fn, check.Scalar, "remaining", remaining); err != nil {
		return 0, err
	}
	return finite(fn, "remaining", remaining, factor*remaining)
}

// finite returns result (−0, from a −0 input, as +0), or an InputError on
// field (whose value is given) when the result left float64's range: a
// product of accepted inputs that overflows is reported, never returned as
// +Inf.
func finite(fn, field string, value, result float64) (float64, error) {
	if math.IsInf(result, 1) {
		return 0, check.Err(fn, check.Scalar, field, value, "the result overflows float64")
	}
	return result + 0, nil
}

// SpeculationLevel returns the optimal average number of copies per task
// k(t) of thesis eq. 3.2 (eq. 3.4) for a job with T remaining tasks holding
// S_i slots: 2/β while the job is at or below its virtual size
// ((2/β)·T ≥ S_i), and S_i/T above it, where every slot is used.
//
// The two cases are max(2/β, S_i/T): the level is S_i/T exactly when that
// exceeds 2/β, which is decided on the quotient itself (no product (2/β)·T
// to overflow or round across the boundary).
//
// Special cases: β ≥ 2 gives 1 (no speculation). T = 0 gives 0 (no task to
// copy). An error is returned for a negative, NaN or infinite T or S_i, for
// β ≤ 1, NaN or ±Inf, and when S_i/T overflows float64 (S_i above
// MaxFloat64·T, e.g. T subnormal). O(1).
func SpeculationLevel(remaining, slots, beta float64) (float64, error) {
	const fn = "alloc.SpeculationLevel"
	if err := validJob(fn, remaining, slots, beta); err != nil {
		return 0, err
	}
	return finite(fn, "slots", slots, hopper.Level(remaining, slots, beta))
}

// validJob checks the arguments of a one-job function of the model: β,
// then T, then S_i.
func validJob(fn string, remaining, slots, beta float64) error {
	if _, err := speculationFactor(fn, beta); err != nil {
		return err
	}
	if err := check.NonNegative(fn, check.Scalar, "remaining", remaining); err != nil {
		return err
	}
	return check.NonNegative(fn, check.Scalar, "slots", slots)
}

// Throughput returns the service rate μ_i of a job with T remaining tasks
// holding S_i slots, thesis eq. 3.3 (with the first case's typesetting slip
// corrected, see the package documentation):
//
//	μ = β²/(4(β−1))·S_i                 if S_i ≤ (2/β)·T,
//	μ = β/(β−1)·T − T²/((β−1)·S_i)       otherwise.
//
// Both cases are one product of an accepted input and a factor ≥ 1
// (β²/(4(β−1)) ≥ 1, and (β − T/S_i)/(β−1) > β/(2(β−1)) > 1 in the second
// case), so the result is rounded once and underflows only where μ itself
// does.
//
// Special cases: β ≥ 2 gives min(S_i, T). T = 0 gives 0. An error is
// returned for a negative, NaN or infinite T or S_i, for β ≤ 1, NaN or
// ±Inf, and when μ overflows float64 (near MaxFloat64, or β close to 1,
// where the slope β²/(4(β−1)) is large). O(1).
func Throughput(remaining, slots, beta float64) (float64, error) {
	const fn = "alloc.Throughput"
	if err := validJob(fn, remaining, slots, beta); err != nil {
		return 0, err
	}
	return finite(fn, "slots", slots, throughput(remaining, slots, beta))
}

// throughput is eq. 3.3 for validated arguments.
func throughput(remaining, slots, beta float64) float64 {
	switch {
	case remaining == 0:
		return 0
	case beta >= NoSpeculationBeta:
		return min(slots, remaining)
	case 2/beta*remaining >= slots:
		return beta * beta / (4 * (beta - 1)) * slots
	default:
		// T/S_i < β/2, so the factor lies in (β/(2(β−1)), β/(β−1)):
		// finite and > 1.
		return remaining * ((beta - remaining/slots) / (beta - 1))
	}
}

// TotalThroughput returns Σ_i μ_i(S_i), the objective that Theorem 1 says
// Algorithm 1 maximises, for remaining task counts T_i and allocations S_i.
//
// An error names the first job with a negative, NaN or infinite T_i or S_i,
// or reports mismatched lengths or an invalid β; and it names the job whose
// μ_i, or at which the running sum, overflows float64. O(n).
func TotalThroughput(remaining, slots []float64, beta float64) (float64, error) {
	const fn = "alloc.TotalThroughput"
	if _, err := speculationFactor(fn, beta); err != nil {
		return 0, err
	}
	if err := check.Len(fn, "slots", len(slots), len(remaining)); err != nil {
		return 0, err
	}
	// Each value on its own: ΣT_i and ΣS_i play no part (they may overflow
	// where Σμ_i does not).
	for _, field := range []struct {
		name string
		xs   []float64
	}{{"remaining", remaining}, {"slots", slots}} {
		for i, x := range field.xs {
			if err := check.NonNegative(fn, i, field.name, x); err != nil {
				return 0, err
			}
		}
	}
	var total float64
	for i, t := range remaining {
		total += throughput(t, slots[i], beta)
		if math.IsInf(total, 1) {
			return 0, check.Err(fn, i, "slots", slots[i], "the throughput, or the sum over jobs, overflows float64")
		}
	}
	return total, nil
}
