package online_test

import (
	"errors"
	"math"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/online"
)

// TestConstructorErrors: NewFair and NewClasses reject what the snapshot
// functions reject — slots negative, NaN or ±Inf; β ≤ 1, NaN or ±Inf; ε
// outside [0, 1] or NaN — with an InputError naming the field, and accept
// the edges (0 slots, ε 0 and 1, β just above 1).
func TestConstructorErrors(t *testing.T) {
	t.Parallel()
	field := func(err error) string {
		var ie *specsched.InputError
		if !errors.As(err, &ie) {
			return ""
		}
		return ie.Field
	}
	bads := []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, bad := range bads {
		if _, err := online.NewFair(bad, 1.5, 0.5); field(err) != "slots" {
			t.Errorf("NewFair(slots %v): %v, want an InputError on slots", bad, err)
		}
		if _, err := online.NewFair(1, 1.5, bad); field(err) != "eps" {
			t.Errorf("NewFair(eps %v): %v, want an InputError on eps", bad, err)
		}
		if _, err := online.NewClasses(bad); field(err) != "slots" {
			t.Errorf("NewClasses(%v): %v, want an InputError on slots", bad, err)
		}
	}
	for _, bad := range append(bads, 1, 0.5) {
		if _, err := online.NewFair(1, bad, 0.5); field(err) != "beta" {
			t.Errorf("NewFair(beta %v): %v, want an InputError on beta", bad, err)
		}
	}
	if _, err := online.NewFair(1, 1.5, 1.5); field(err) != "eps" {
		t.Errorf("NewFair(eps 1.5): %v, want an InputError on eps", err)
	}
	for _, eps := range []float64{0, 1} {
		if _, err := online.NewFair(0, math.Nextafter(1, 2), eps); err != nil {
			t.Errorf("NewFair(0, 1+ulp, %v): %v", eps, err)
		}
	}
	if _, err := online.NewClasses(0); err != nil {
		t.Errorf("NewClasses(0): %v", err)
	}
}

// TestClassesBadBeta: Add and Update reject a β ≤ 1, NaN or ±Inf with an
// InputError on beta naming the job, and change nothing.
func TestClassesBadBeta(t *testing.T) {
	t.Parallel()
	c, err := online.NewClasses(10)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.Add(3, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []float64{1, 0.5, -2, math.NaN(), math.Inf(1), math.Inf(-1)} {
		var ie *specsched.InputError
		if _, err := c.Add(1, bad); !errors.As(err, &ie) || ie.Field != "beta" || ie.Index != 1 {
			t.Errorf("Add(1, %v): %v, want an InputError on beta of job 1", bad, err)
		}
		if err := c.Update(id, 1, bad); !errors.As(err, &ie) || ie.Field != "beta" || ie.Index != id {
			t.Errorf("Update(%d, 1, %v): %v, want an InputError on beta of job %d", id, bad, err, id)
		}
		if got, _ := c.Target(id); c.Len() != 1 || got != 10 {
			t.Errorf("after the rejected β %v: %d jobs, Target %v; want 1 job, 10 (3 tasks, β 1.5: V = 4 < 10, alone it takes every slot)", bad, c.Len(), got)
		}
	}
}

// TestSumBounds: a count that makes the sums overflow is rejected, by Add
// and Update, and changes nothing — Fair's bound is Σ c·T (fairness.Allocate
// rejects an overflowing ΣV), Classes' ΣT and ΣT/√(β−1) ≤ MaxFloat64/2
// (stragglers.Allocate's) — and the same count is accepted where the sums
// stay in bounds.
func TestSumBounds(t *testing.T) {
	t.Parallel()
	f, err := online.NewFair(10, 1.5, 0.5) // c = 4/3: c·MaxFloat64 overflows
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(math.MaxFloat64); err == nil {
		t.Errorf("Fair.Add(MaxFloat64) with c = 4/3: accepted")
	}
	a, err := f.Add(1e307)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(1.3e308); err == nil {
		t.Errorf("Fair.Add(1.3e308) beside 1e307: accepted (c·ΣT = 1.87e308 overflows)")
	}
	if err := f.Update(a, 1.4e308); err == nil {
		t.Errorf("Fair.Update to 1.4e308 (c·T = 1.87e308 overflows): accepted")
	}
	if err := f.Update(a, 1e308); err != nil {
		t.Errorf("Fair.Update to 1e308 (c·T = 1.33e308): %v", err)
	}
	c, err := online.NewClasses(10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Add(8e307, 3) // ΣT = 8e307 ≤ 8.99e307
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Add(1e307, 3); err == nil {
		t.Errorf("Classes.Add: ΣT = 9e307 > MaxFloat64/2 accepted")
	}
	if _, err := c.Add(7e307, 1.25); err == nil { // w = 7e307/√0.25 = 1.4e308
		t.Errorf("Classes.Add: Σw = 1.4e308 > MaxFloat64/2 accepted")
	}
	if err := c.Update(b, 9e307, 3); err == nil {
		t.Errorf("Classes.Update: ΣT = 9e307 accepted")
	}
	if err := c.Update(b, 4e307, 1.25); err != nil { // w = 8e307
		t.Errorf("Classes.Update(4e307, β 1.25): %v", err)
	}
	if c.Len() != 1 || f.Len() != 1 {
		t.Errorf("rejected Adds kept a job: %d, %d", c.Len(), f.Len())
	}
}
