// Package check holds the input validation shared by the algorithm
// packages. Every helper returns a *specsched.InputError (or nil) so that
// exported functions validate at their boundary and never panic.
package check

import (
	"fmt"
	"math"

	"github.com/specsched/specsched"
)

// Scalar is the Index of an InputError about a scalar parameter.
const Scalar = -1

// Err builds an InputError.
func Err(fn string, index int, field string, value float64, reason string) error {
	return &specsched.InputError{Func: fn, Index: index, Field: field, Value: value, Reason: reason}
}

// ErrText builds an InputError whose offending value is not a number: a
// name that is unknown, "nil" for a missing argument.
func ErrText(fn string, index int, field, text, reason string) error {
	return &specsched.InputError{Func: fn, Index: index, Field: field, Text: text, Reason: reason}
}

// ErrItem builds an InputError whose Index counts item ("task", "sample",
// …) rather than jobs.
func ErrItem(fn, item string, index int, field string, value float64, reason string) error {
	return &specsched.InputError{Func: fn, Item: item, Index: index, Field: field, Value: value, Reason: reason}
}

// WithItem returns err with Item set to item when err is an InputError
// (the error of an index that counts tasks or samples, not jobs), and err
// as it is otherwise (nil included).
func WithItem(item string, err error) error {
	if ie, ok := err.(*specsched.InputError); ok {
		ie.Item = item
	}
	return err
}

// Finite reports an error unless v is a finite number.
func Finite(fn string, index int, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Err(fn, index, field, v, "must be a finite number")
	}
	return nil
}

// NonNegative reports an error unless v is finite and ≥ 0.
func NonNegative(fn string, index int, field string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 1) {
		return Err(fn, index, field, v, "must be finite and ≥ 0")
	}
	return nil
}

// Positive reports an error unless v is finite and > 0.
func Positive(fn string, index int, field string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return Err(fn, index, field, v, "must be finite and > 0")
	}
	return nil
}

// TailIndex reports an error unless beta, a Pareto tail index, is a
// finite number > 1 (Hopper's model needs a finite mean).
func TailIndex(fn string, index int, field string, beta float64) error {
	if !(beta > 1) || math.IsInf(beta, 1) {
		return Err(fn, index, field, beta, "must be a finite number > 1")
	}
	return nil
}

// Unit reports an error unless v lies in [0, 1].
func Unit(fn string, index int, field string, v float64) error {
	if !(v >= 0 && v <= 1) {
		return Err(fn, index, field, v, "must lie in [0, 1]")
	}
	return nil
}

// Count reports an error unless the integer n is ≥ 0.
func Count(fn string, index int, field string, n int) error {
	if n < 0 {
		return Err(fn, index, field, float64(n), "must be ≥ 0")
	}
	return nil
}

// MaxTotal is the largest integer total (of slots, of an apportionment)
// the library accepts: 2⁵³, the largest integer up to which every integer
// is a float64 (alloc.MaxTotal).
const MaxTotal = 1 << 53

// Total reports an error unless the scalar integer n, a number of slots
// or an apportionment's total, lies in [0, MaxTotal].
func Total(fn, field string, n int) error {
	if n < 0 || n > MaxTotal {
		return Err(fn, Scalar, field, float64(n), "must lie in [0, 2^53]")
	}
	return nil
}

// NonNegatives validates every element of xs with NonNegative and returns
// their sum, or an error naming the first bad element. A sum that overflows
// to +Inf is reported at the element where it did.
func NonNegatives(fn, field string, xs []float64) (float64, error) {
	var sum float64
	for i, x := range xs {
		// One comparison chain catches NaN (all comparisons false), -Inf,
		// negatives and +Inf.
		if !(x >= 0 && x <= math.MaxFloat64) {
			return 0, NonNegative(fn, i, field, x)
		}
		sum += x
	}
	if math.IsInf(sum, 1) {
		// The same running sum (1·x = x): it names the element.
		return 0, ScaledSumOverflow(fn, field, xs, 1, "the sum over jobs overflows float64")
	}
	return sum, nil
}

// ScaledSumOverflow names, with reason, the element of xs (all finite and
// ≥ 0) at which the running sum Σ c·x_i, in index order, reaches +Inf; it
// returns nil when that sum stays finite — where c·Σx_i, rounded
// otherwise, may overflow while the sum an algorithm forms does not. O(n).
func ScaledSumOverflow(fn, field string, xs []float64, c float64, reason string) error {
	var sum float64
	for i, x := range xs {
		sum += c * x
		if math.IsInf(sum, 1) {
			return Err(fn, i, field, x, reason)
		}
	}
	return nil
}

// Len reports an error unless got == want; the index is the length found.
func Len(fn, field string, got, want int) error {
	if got != want {
		return Err(fn, Scalar, "len("+field+")", float64(got), fmt.Sprintf("must equal the number of jobs, %d", want))
	}
	return nil
}
