package probe

import (
	"math"
	"strconv"

	"github.com/specsched/specsched"
)

// finiteNonNeg returns an *InputError unless v is finite and ≥ 0.
func finiteNonNeg(fn string, index int, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return &specsched.InputError{Func: fn, Index: index, Field: field, Value: v, Reason: "must be finite and ≥ 0"}
	}
	return nil
}

// finitePos returns an *InputError unless v is finite and > 0.
func finitePos(fn string, index int, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return &specsched.InputError{Func: fn, Index: index, Field: field, Value: v, Reason: "must be finite and > 0"}
	}
	return nil
}

// inputErr builds an *InputError.
func inputErr(fn string, index int, field string, v float64, reason string) error {
	return &specsched.InputError{Func: fn, Index: index, Field: field, Value: v, Reason: reason}
}

func itoa(i int) string { return strconv.Itoa(i) }
