package probe

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestClassifyEdges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		est, thr float64
		want     Class
	}{
		{0, 0, Short}, // at the threshold: short
		{1, 1, Short}, // at the threshold: short
		{math.Nextafter(1, 2), 1, Long},
		{1e9, math.Inf(1), Short}, // +Inf threshold: all short
		{1e-300, 0, Long},
	}
	for _, c := range cases {
		got, err := Classify(c.est, c.thr)
		if err != nil || got != c.want {
			t.Errorf("Classify(%v, %v) = %v, %v; want %v", c.est, c.thr, got, err, c.want)
		}
	}
	if Short.String() != "short" || Long.String() != "long" || Class(7).String() != "Class(7)" {
		t.Errorf("String: %q %q %q", Short, Long, Class(7))
	}
}

// testClassify: a job is long exactly when its estimate exceeds the
// threshold, and classification is monotone in the estimate.
func testClassify(t *rapid.T) {
	thr := rapid.Float64Range(0, 1e6).Draw(t, "threshold")
	a := rapid.Float64Range(0, 2e6).Draw(t, "estA")
	b := rapid.Float64Range(0, 2e6).Draw(t, "estB")
	ca, err := Classify(a, thr)
	if err != nil {
		t.Fatalf("Classify(%v, %v): %v", a, thr, err)
	}
	cb, _ := Classify(b, thr)
	if (ca == Long) != (a > thr) {
		t.Fatalf("Classify(%v, %v) = %v; want long iff est > threshold", a, thr, ca)
	}
	if a <= b && ca == Long && cb != Long {
		t.Fatalf("not monotone: %v→%v but %v→%v", a, ca, b, cb)
	}
}

func TestClassify(t *testing.T) { t.Parallel(); rapid.Check(t, testClassify) }

func testClassifyNoPanic(t *rapid.T) {
	est := anyFloat(t, "est")
	thr := anyFloat(t, "threshold")
	c, err := Classify(est, thr)
	estOK := !math.IsNaN(est) && !math.IsInf(est, 0) && est >= 0
	thrOK := !math.IsNaN(thr) && thr >= 0
	if (err == nil) != (estOK && thrOK) {
		t.Fatalf("Classify(%v, %v) error = %v; want error iff invalid", est, thr, err)
	}
	if err != nil && !isInputError(err) {
		t.Fatalf("error %T is not an InputError", err)
	}
	if err == nil && c != Short && c != Long {
		t.Fatalf("class %v", c)
	}
}

func TestClassifyNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testClassifyNoPanic) }
func FuzzClassify(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testClassifyNoPanic)) }
