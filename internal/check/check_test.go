package check_test

import (
	"errors"
	"math"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
)

// TestScalarChecks: each check accepts exactly its documented range, on
// both sides of every bound, and its error names the function, index,
// field and value given.
func TestScalarChecks(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	type checkFn func(fn string, index int, field string, v float64) error
	count := func(fn string, index int, field string, v float64) error {
		return check.Count(fn, index, field, int(v))
	}
	cases := []struct {
		name   string
		check  checkFn
		accept []float64
		reject []float64
	}{
		{"Finite", check.Finite, []float64{0, negZero, -math.MaxFloat64, math.MaxFloat64, 5e-324, -1}, []float64{nan, inf, -inf}},
		{"NonNegative", check.NonNegative, []float64{0, negZero, 5e-324, 1, math.MaxFloat64}, []float64{-5e-324, -1, nan, inf, -inf}},
		{"Positive", check.Positive, []float64{5e-324, 1, math.MaxFloat64}, []float64{0, negZero, -1, nan, inf, -inf}},
		{"Unit", check.Unit, []float64{0, negZero, 5e-324, 0.5, math.Nextafter(1, 0), 1}, []float64{-5e-324, math.Nextafter(1, 2), 2, nan, inf, -inf}},
		{"Count", count, []float64{0, 1, 1 << 53}, []float64{-1, -(1 << 53)}},
		{"TailIndex", check.TailIndex, []float64{math.Nextafter(1, 2), 1.5, 2, math.MaxFloat64}, []float64{1, 0.5, 0, negZero, -2, nan, inf, -inf}},
	}
	for _, c := range cases {
		for _, v := range c.accept {
			if err := c.check("f", 3, "x", v); err != nil {
				t.Errorf("%s(%v) = %v, want nil", c.name, v, err)
			}
		}
		for _, v := range c.reject {
			err := c.check("f", 3, "x", v)
			var ie *specsched.InputError
			if !errors.As(err, &ie) || ie.Func != "f" || ie.Index != 3 || ie.Field != "x" || ie.Reason == "" ||
				!(ie.Value == v || math.IsNaN(v) && math.IsNaN(ie.Value)) {
				t.Errorf("%s(%v) = %#v, want an InputError f[3].x = %v", c.name, v, err, v)
			}
		}
	}
}

// TestScalarIndex: the index of an error about a scalar parameter is −1,
// the value the package documentation promises callers.
func TestScalarIndex(t *testing.T) {
	t.Parallel()
	var ie *specsched.InputError
	if err := check.Err("f", check.Scalar, "x", 1, "r"); check.Scalar != -1 || !errors.As(err, &ie) || ie.Index != -1 {
		t.Errorf("Scalar = %d, Err(…, Scalar, …) = %v; want index −1", check.Scalar, err)
	}
}

// TestErrTextItem: ErrText and ErrItem fill every field they are given and
// leave the others zero.
func TestErrTextItem(t *testing.T) {
	t.Parallel()
	var ie *specsched.InputError
	err := check.ErrText("f", 2, "policy", "eagle2", "unknown policy")
	want := specsched.InputError{Func: "f", Index: 2, Field: "policy", Text: "eagle2", Reason: "unknown policy"}
	if !errors.As(err, &ie) || *ie != want {
		t.Errorf("ErrText = %#v, want %#v", err, want)
	}
	err = check.ErrItem("f", "task", 3, "copies", -1, "r")
	want = specsched.InputError{Func: "f", Item: "task", Index: 3, Field: "copies", Value: -1, Reason: "r"}
	if !errors.As(err, &ie) || *ie != want {
		t.Errorf("ErrItem = %#v, want %#v", err, want)
	}
}

// TestLen: equal lengths pass; any other length is an error on len(field)
// whose value is the length found.
func TestLen(t *testing.T) {
	t.Parallel()
	if err := check.Len("f", "x", 4, 4); err != nil {
		t.Errorf("Len(4, 4) = %v", err)
	}
	for _, got := range []int{0, 3, 5} {
		var ie *specsched.InputError
		if err := check.Len("f", "x", got, 4); !errors.As(err, &ie) || ie.Field != "len(x)" || ie.Value != float64(got) || ie.Index != check.Scalar {
			t.Errorf("Len(%d, 4) = %v", got, err)
		}
	}
}

// TestNonNegativesSum: the sum in index order; the first bad element named
// (even after an overflow: invalid values are reported first), and
// otherwise an overflow named at the element where the running sum reaches
// +Inf.
func TestNonNegativesSum(t *testing.T) {
	t.Parallel()
	if sum, err := check.NonNegatives("f", "x", []float64{1, 2, 0.5}); err != nil || sum != 3.5 {
		t.Errorf("NonNegatives({1, 2, 0.5}) = %v, %v", sum, err)
	}
	if sum, err := check.NonNegatives("f", "x", nil); err != nil || sum != 0 {
		t.Errorf("NonNegatives(nil) = %v, %v", sum, err)
	}
	cases := []struct {
		xs    []float64
		index int
		value float64
	}{
		{[]float64{1, -1, math.MaxFloat64, math.MaxFloat64}, 1, -1},
		{[]float64{math.MaxFloat64, 1, math.MaxFloat64, -1}, 3, -1}, // a bad value before an overflow
		{[]float64{0, math.MaxFloat64, math.MaxFloat64, 7}, 2, math.MaxFloat64},
		{[]float64{math.MaxFloat64, math.MaxFloat64, math.NaN()}, 2, math.NaN()},
	}
	for _, c := range cases {
		sum, err := check.NonNegatives("f", "x", c.xs)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != c.index || ie.Field != "x" || sum != 0 ||
			!(ie.Value == c.value || math.IsNaN(c.value) && math.IsNaN(ie.Value)) {
			t.Errorf("NonNegatives(%v) = %v, %v; want an error at %d", c.xs, sum, err, c.index)
		}
	}
}

// TestWithItem: WithItem sets Item on an InputError and passes any other
// error, nil included, through unchanged.
func TestWithItem(t *testing.T) {
	t.Parallel()
	var ie *specsched.InputError
	if err := check.WithItem("task", check.Err("f", 1, "Copies", 0, "r")); !errors.As(err, &ie) || ie.Item != "task" || ie.Index != 1 {
		t.Errorf("WithItem on an InputError = %#v, want Item task", err)
	}
	if err := check.WithItem("task", nil); err != nil {
		t.Errorf("WithItem(nil) = %v", err)
	}
	other := errors.New("other")
	if err := check.WithItem("task", other); err != other {
		t.Errorf("WithItem(other) = %v, want it unchanged", err)
	}
}

// TestTotal: an integer total is accepted in [0, 2^53] and otherwise named
// as a scalar field.
func TestTotal(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, check.MaxTotal} {
		if err := check.Total("f", "slots", n); err != nil {
			t.Errorf("Total(%d) = %v, want nil", n, err)
		}
	}
	for _, n := range []int{-1, check.MaxTotal + 1} {
		var ie *specsched.InputError
		if err := check.Total("f", "slots", n); !errors.As(err, &ie) || ie.Field != "slots" || ie.Index != check.Scalar || ie.Value != float64(n) {
			t.Errorf("Total(%d) = %v, want an InputError on slots", n, err)
		}
	}
}

// TestScaledSumOverflow: the running sum Σ c·x_i in index order is named at
// the element where it reaches +Inf — with c = 1.5, half of MaxFloat64
// twice overflows at the second — and is nil when it stays finite (c = 1:
// exactly MaxFloat64, then +1 rounds back to it).
func TestScaledSumOverflow(t *testing.T) {
	t.Parallel()
	xs := []float64{math.MaxFloat64 / 2, math.MaxFloat64 / 2, 1}
	var ie *specsched.InputError
	if err := check.ScaledSumOverflow("f", "x", xs, 1.5, "r"); !errors.As(err, &ie) || ie.Index != 1 || ie.Field != "x" || ie.Value != xs[1] || ie.Reason != "r" {
		t.Errorf("c = 1.5: %v, want an InputError at x[1]", err)
	}
	if err := check.ScaledSumOverflow("f", "x", xs, 1, "r"); err != nil {
		t.Errorf("c = 1: %v, want nil (the sum is MaxFloat64)", err)
	}
}
