package dag

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
)

// TestEstimateAlphaOverflowRegression: (backlog + r·RemainingInput)
// overflowed where α does not. Done = (1e308 in, 1e308 out), nothing read,
// 1e308 input left: r = 1, backlog/RemainingInput = 1, α_raw = 2; the old
// form gave ∞/1e308 = ∞, clamped to MaxAlpha = 20.
func TestEstimateAlphaOverflowRegression(t *testing.T) {
	t.Parallel()
	p := Progress{Done: Ratio{Input: 1e308, Output: 1e308}, RemainingInput: 1e308}
	if got, err := EstimateAlpha(p, Ratio{}, 1); err != nil || got != 2 {
		t.Errorf("α = %v, %v; want 2", got, err)
	}
	// r = 1e300/1e-300 is past float64: Value reports no finite ratio (it
	// gave +Inf, true), and the weight is the ceiling.
	huge := Ratio{Input: 1e-300, Output: 1e300}
	if v, ok := huge.Value(); ok {
		t.Errorf("Value = %v, true; want false", v)
	}
	if got, err := EstimateAlpha(Progress{Done: huge, RemainingInput: 1, Read: 1e300}, Ratio{}, 1); err != nil || got != MaxAlpha {
		t.Errorf("huge ratio: α = %v, %v; want %v", got, err, MaxAlpha)
	}
	// Add names the field whose total overflows.
	r := Ratio{Input: 1, Output: math.MaxFloat64}
	var ie *specsched.InputError
	if err := r.Add(1, math.MaxFloat64); !errors.As(err, &ie) || ie.Field != "output" || r.Output != math.MaxFloat64 {
		t.Errorf("output overflow: %v, %+v", err, r)
	}
}

// bigAlphaRaw is α_raw of EstimateAlpha's doc comment in math/big, before
// the clamp, and whether the ratio is known with input left.
func bigAlphaRaw(p Progress, recurring Ratio) (*big.Float, bool) {
	r := p.Done
	if r.Input == 0 {
		r = recurring
	}
	if r.Input == 0 || p.RemainingInput == 0 {
		return nil, false
	}
	backlog := bigOf(0)
	if p.Done.Output > p.Read {
		backlog.Sub(bigOf(p.Done.Output), bigOf(p.Read))
	}
	ratio := bigQuo(bigOf(r.Output), bigOf(r.Input))
	raw := bigMul(ratio, bigOf(p.RemainingInput))
	raw.Add(raw, backlog)
	return bigQuo(raw, bigOf(p.RemainingInput)), true
}

// testEstimateAlphaMagnitudes: every field anywhere in float64's range
// (subnormals, MaxFloat64, ties): α is math.Pow(clamp(α_raw), d) with α_raw
// computed exactly, to a relative 1e-12.
func testEstimateAlphaMagnitudes(t *rapid.T) {
	m := testutil.Magnitude()
	p := Progress{
		Done:           Ratio{Input: m.Draw(t, "done.input"), Output: m.Draw(t, "done.output")},
		RemainingInput: m.Draw(t, "remaining input"),
		Read:           m.Draw(t, "read"),
	}
	prior := Ratio{Input: m.Draw(t, "recurring.input"), Output: m.Draw(t, "recurring.output")}
	d := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 1, DampeningSpark})).Draw(t, "d")
	got, err := EstimateAlpha(p, prior, d)
	if err != nil {
		t.Fatalf("EstimateAlpha: %v", err)
	}
	want := 1.0
	if raw, ok := bigAlphaRaw(p, prior); ok {
		clamped := MinAlpha
		switch {
		case raw.Cmp(bigOf(MaxAlpha)) >= 0:
			clamped = MaxAlpha
		case raw.Cmp(bigOf(MinAlpha)) > 0:
			clamped, _ = raw.Float64()
		}
		want = math.Pow(clamped, d)
	}
	if math.Abs(got-want) > 1e-12*want {
		t.Fatalf("α = %v, want %v", got, want)
	}
}

func TestEstimateAlphaMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testEstimateAlphaMagnitudes)
}

// testRatioMagnitudes: Value at every magnitude is Output/Input correctly
// rounded, or false exactly when Input is 0 or the quotient passes
// MaxFloat64 (checked in math/big).
func testRatioMagnitudes(t *rapid.T) {
	r := Ratio{Input: testutil.Magnitude().Draw(t, "input"), Output: testutil.Magnitude().Draw(t, "output")}
	v, ok := r.Value()
	if r.Input == 0 {
		if ok {
			t.Fatalf("Value = %v, true with no input", v)
		}
		return
	}
	want, _ := bigQuo(bigOf(r.Output), bigOf(r.Input)).Float64()
	if ok != !math.IsInf(want, 1) || (ok && v != want) {
		t.Fatalf("Value = %v, %v; want %v", v, ok, want)
	}
}

func TestRatioMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatioMagnitudes)
}

// TestRatioValueEdges: Value at the ends of its domain. Input and Output
// of MaxFloat64 are recorded totals like any other (ratio 1); an Output of
// MaxFloat64 over an Input of 1 is MaxFloat64 itself, the largest ratio
// that is reported; an Output of 0 is the ratio 0, known; and fields Add
// could not have produced — a negative or infinite one — are unknown.
func TestRatioValueEdges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    Ratio
		want float64
		ok   bool
	}{
		{Ratio{math.MaxFloat64, math.MaxFloat64}, 1, true},
		{Ratio{1, math.MaxFloat64}, math.MaxFloat64, true},
		{Ratio{0.5, math.MaxFloat64}, 0, false},
		{Ratio{2, 0}, 0, true},
		{Ratio{5e-324, 5e-324}, 1, true},
		{Ratio{0, 1}, 0, false},
		{Ratio{math.Inf(1), 1}, 0, false},
		{Ratio{1, math.Inf(1)}, 0, false},
		{Ratio{1, -1}, 0, false},
		{Ratio{-1, 1}, 0, false},
	} {
		if got, ok := tc.r.Value(); got != tc.want || ok != tc.ok {
			t.Errorf("%+v: Value = %v, %v; want %v, %v", tc.r, got, ok, tc.want, tc.ok)
		}
	}
}
