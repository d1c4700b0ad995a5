package overlap

import (
	"errors"
	"math"
	"testing"

	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// TestInstancesShape checks the families' sizes and order (the alternative
// schedule's order, so that FIFO runs it) and their errors.
func TestInstancesShape(t *testing.T) {
	t.Parallel()
	jobs, err := Corollary4Instance(4, 3, 0.5)
	want := []Arrival{{Map: 1, Shuffle: 3}, {Map: 2.5, Shuffle: 1}, {Map: 1, Shuffle: 3}, {Map: 2.5, Shuffle: 1}}
	if err != nil || len(jobs) != 4 {
		t.Fatalf("Corollary4Instance: %v, %v", jobs, err)
	}
	for i := range want {
		if jobs[i] != want[i] {
			t.Errorf("Corollary4Instance(4, 3, 0.5)[%d] = %+v, want %+v", i, jobs[i], want[i])
		}
	}
	jobs, err = Corollary6Instance(3, 2)
	want = []Arrival{{Map: 2, Shuffle: 1}, {Map: 2, Shuffle: 1}, {Map: 2, Shuffle: 4}}
	if err != nil || len(jobs) != 3 {
		t.Fatalf("Corollary6Instance: %v, %v", jobs, err)
	}
	for i := range want {
		if jobs[i] != want[i] {
			t.Errorf("Corollary6Instance(3, 2)[%d] = %+v, want %+v", i, jobs[i], want[i])
		}
	}
	// Theorem 2, k = 2 (n = 8 … 26): 4 type-1, 2 type-2, then 9 arrivals.
	jobs, branch, err := Theorem2Instance(26, Discipline{Algorithm: MaxSRPT}, nil)
	if err != nil || len(jobs) != 4+2+9 || branch != 2 {
		t.Fatalf("Theorem2Instance(26): %d jobs, branch %d, %v", len(jobs), branch, err)
	}
	for i, a := range jobs {
		var w Arrival
		switch {
		case i < 4:
			w = Arrival{Map: 1, Shuffle: 0.5}
		case i < 6:
			w = Arrival{Map: 2, Shuffle: 3}
		default: // branch 2: type-2 jobs at 2k² + j·3k/2 = 8 + 3j
			w = Arrival{Time: 8 + 3*float64(i-6), Map: 2, Shuffle: 3}
		}
		if a != w {
			t.Errorf("Theorem2Instance(26)[%d] = %+v, want %+v", i, a, w)
		}
	}
	errs := []error{}
	_, err = Corollary4Instance(3, 2, 0.5)
	errs = append(errs, err)
	_, err = Corollary4Instance(4, 1, 0.5)
	errs = append(errs, err)
	_, err = Corollary4Instance(4, 2, 1)
	errs = append(errs, err)
	_, err = Corollary6Instance(1, 2)
	errs = append(errs, err)
	_, err = Corollary6Instance(4, 1)
	errs = append(errs, err)
	_, _, err = Theorem2Instance(0, Discipline{}, nil)
	errs = append(errs, err)
	_, _, err = Theorem2Instance(8, Discipline{Algorithm: 42}, nil)
	errs = append(errs, err)
	for i, err := range errs {
		var in *specsched.InputError
		if !errors.As(err, &in) {
			t.Errorf("case %d: got %v, want an InputError", i, err)
		}
	}
}

func testCorollary4InstanceNoPanic(t *rapid.T) {
	n := rapid.IntRange(-4, 64).Draw(t, "n")
	alpha := rapid.OneOf(rapid.Float64(), rapid.Float64Range(1, 5), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1)})).Draw(t, "alpha")
	eps := rapid.OneOf(rapid.Float64(), rapid.Float64Range(0, 1), rapid.Just(math.NaN())).Draw(t, "eps")
	jobs, err := Corollary4Instance(n, alpha, eps)
	if err != nil {
		return
	}
	for _, a := range jobs {
		if !finite(a.Map) || !finite(a.Shuffle) || a.Map <= 1 && a.Shuffle <= 1 {
			t.Fatalf("job %+v", a)
		}
	}
	// Simulate runs it, or refuses an instance whose total work overflows
	// its horizon (α near the float64 limit).
	if _, err := Simulate(nil, jobs, 1, Discipline{Algorithm: MaxSRPT}, nil); err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != "total work" {
			t.Fatalf("Simulate on the instance: %v", err)
		}
	}
}

func TestCorollary4InstanceNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCorollary4InstanceNoPanic)
}

func FuzzCorollary4Instance(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testCorollary4InstanceNoPanic)) }

func testCorollary6InstanceNoPanic(t *rapid.T) {
	n := rapid.IntRange(-4, 64).Draw(t, "n")
	beta := rapid.OneOf(rapid.Float64(), rapid.Float64Range(1, 5), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.MaxFloat64})).Draw(t, "beta")
	jobs, err := Corollary6Instance(n, beta)
	if err != nil {
		return
	}
	for _, a := range jobs {
		if !finite(a.Map) || !finite(a.Shuffle) {
			t.Fatalf("job %+v", a)
		}
	}
}

func TestCorollary6InstanceNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCorollary6InstanceNoPanic)
}

func FuzzCorollary6Instance(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testCorollary6InstanceNoPanic)) }

func testTheorem2InstanceNoPanic(t *rapid.T) {
	n := rapid.OneOf(rapid.IntRange(-10, 300), rapid.SampledFrom([]int{1e9 + 1, math.MinInt})).Draw(t, "n")
	p := Discipline{Algorithm: Algorithm(rapid.IntRange(-1, 7).Draw(t, "kind")), K: rapid.IntRange(-1, 3).Draw(t, "k")}
	jobs, branch, err := Theorem2Instance(n, p, nil)
	if err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) {
			t.Fatalf("error %v is not an *InputError", err)
		}
		return
	}
	if branch != 1 && branch != 2 {
		t.Fatalf("branch %d", branch)
	}
	if _, err := Simulate(nil, jobs, 1, p, nil); err != nil {
		t.Fatalf("Simulate on the instance: %v", err)
	}
}

func TestTheorem2InstanceNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTheorem2InstanceNoPanic)
}

func FuzzTheorem2Instance(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testTheorem2InstanceNoPanic)) }
