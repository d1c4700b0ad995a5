package testutil

import (
	"errors"
	"math"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// RealNoPanic is the hostile-input property of a real-valued allocation
// function of dag or stragglers, whose caller has drawn the jobs: it draws
// the slots (in [0, 1000], or NaN, +Inf, −1 or MaxFloat64), calls call with
// a dst of capacity 2 holding 42 and 43, and requires either an
// *InputError of fn with a nil result and dst untouched, or finite,
// non-negative slots summing to at most S up to the relative tolerance tol.
func RealNoPanic(t *rapid.T, fn string, tol float64, call func(dst []float64, slots float64) ([]float64, error)) {
	slots := rapid.OneOf(rapid.Float64Range(0, 1e3), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), -1, math.MaxFloat64})).Draw(t, "slots")
	sentinel := []float64{42, 43}
	got, err := call(sentinel[:0:2], slots)
	if err != nil {
		checkInputError(t, fn, err)
		if got != nil || sentinel[0] != 42 || sentinel[1] != 43 {
			t.Fatalf("on error: got %v, dst %v", got, sentinel)
		}
		return
	}
	var sum float64
	for i, x := range got {
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("job %d: %v", i, x)
		}
		sum += x
	}
	if sum > slots*(1+tol)+tol {
		t.Fatalf("ΣS_i = %v > S = %v", sum, slots)
	}
}

// IntNoPanic is RealNoPanic for the integer forms: the slots are drawn in
// [0, 1000], or −1, MaxInt or MaxExact + 1 (alloc.MaxTotal + 1); dst has capacity 1 and
// holds 42; a result must be non-negative and sum to at most S.
func IntNoPanic(t *rapid.T, fn string, call func(dst []int, slots int) ([]int, error)) {
	slots := rapid.OneOf(rapid.IntRange(0, 1000), rapid.SampledFrom([]int{-1, math.MaxInt, MaxExact + 1})).Draw(t, "slots")
	sentinel := []int{42}
	got, err := call(sentinel[:0:1], slots)
	if err != nil {
		checkInputError(t, fn, err)
		if got != nil || sentinel[0] != 42 {
			t.Fatalf("on error: got %v, dst %v", got, sentinel)
		}
		return
	}
	sum := 0
	for i, x := range got {
		if x < 0 {
			t.Fatalf("job %d: %d", i, x)
		}
		sum += x
	}
	if sum > slots {
		t.Fatalf("Σ = %d > %d", sum, slots)
	}
}

func checkInputError(t *rapid.T, fn string, err error) {
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn {
		t.Fatalf("error %v is not a %s *InputError", err, fn)
	}
}
