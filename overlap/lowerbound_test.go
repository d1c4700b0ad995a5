package overlap

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// TestLowerBoundExample21: the §2.1 jobs at time 0, by hand. SRPT on the map
// sizes 1, 3, 2 completes at 1, 3, 6 (total 10); on the shuffle sizes 2, 1,
// 2 at 1, 3, 5 (total 9). One busy period: the bound is max(10, 9) = 10,
// below every policy's total (FIFO and MaxSRPT: 12, TestExample21).
func TestLowerBoundExample21(t *testing.T) {
	t.Parallel()
	lb, err := LowerBound(example21, 1, nil)
	if err != nil || !near(lb, 10, 10) {
		t.Errorf("LowerBound(§2.1) = %v, %v; want 10", lb, err)
	}
	// Speed 2 halves every time.
	if lb, _ := LowerBound(example21, 2, nil); !near(lb, 5, 5) {
		t.Errorf("LowerBound(§2.1, speed 2) = %v, want 5", lb)
	}
	// Two busy periods: a job (1, 3) at 0 and a job (3, 1) at 10 do not
	// interact: bound max(1, 3) + max(3, 1) = 6, not max(1+3, 3+1) = 4.
	two := []Arrival{{Time: 0, Map: 1, Shuffle: 3}, {Time: 10, Map: 3, Shuffle: 1}}
	if lb, _ := LowerBound(two, 1, nil); !near(lb, 6, 6) {
		t.Errorf("LowerBound(two periods) = %v, want 6", lb)
	}
	// A job arriving exactly when both queues empty starts a new period.
	edge := []Arrival{{Time: 0, Map: 1, Shuffle: 3}, {Time: 3, Map: 3, Shuffle: 1}}
	if lb, _ := LowerBound(edge, 1, nil); !near(lb, 6, 6) {
		t.Errorf("LowerBound(touching periods) = %v, want 6", lb)
	}
}

// refLowerBound recomputes the bound with the test's SRPT reference and an
// O(n²) period split: job i starts a new period when every earlier job has
// left both queues by r_i — by r_i + slack (slack > 0 splits periods that
// touch within rounding; slack < 0 merges them).
func refLowerBound(jobs []Arrival, speed, slack float64) float64 {
	n := len(jobs)
	arr, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, a := range jobs {
		arr[i], x[i], y[i] = a.Time, a.Map, a.Shuffle
	}
	ca, cb := refSRPT(arr, x, speed), refSRPT(arr, y, speed)
	bound, sa, sb := 0.0, 0.0, 0.0
	for i := range jobs {
		fresh := true
		for j := 0; j < i; j++ {
			if ca[j] > arr[i]+slack || cb[j] > arr[i]+slack {
				fresh = false
			}
		}
		if fresh {
			bound += math.Max(sa, sb)
			sa, sb = 0, 0
		}
		sa += ca[i] - arr[i]
		sb += cb[i] - arr[i]
	}
	return bound + math.Max(sa, sb)
}

func testLowerBoundReference(t *rapid.T) {
	jobs := genArrivals(t, 15)
	speed := rapid.Float64Range(0.25, 3).Draw(t, "speed")
	before := slices.Clone(jobs)
	got, err := LowerBound(jobs, speed, nil)
	if err != nil {
		t.Fatalf("LowerBound: %v", err)
	}
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Fatalf("input modified:\n%s", diff)
	}
	// A job arriving within rounding of the instant both queues empty may
	// open a new period or not (the two SRPT computations round
	// differently); a finer split only raises the bound, so the answer lies
	// between the merged and the split readings.
	lo, hi := refLowerBound(jobs, speed, -1e-9), refLowerBound(jobs, speed, 1e-9)
	if got < lo-relTol*math.Max(1, lo) || got > hi+relTol*math.Max(1, hi) {
		t.Fatalf("LowerBound = %v, reference between %v and %v", got, lo, hi)
	}
}

func TestLowerBoundReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLowerBoundReference)
}

func testLowerBoundNoPanic(t *rapid.T) {
	jobs := genArrivals(t, 6)
	speed := rapid.OneOf(rapid.Just(1.0), rapid.SampledFrom([]float64{0, -1, math.NaN(), math.Inf(1), 1e-300})).Draw(t, "speed")
	if len(jobs) > 0 && rapid.Bool().Draw(t, "corrupt") {
		i := rapid.IntRange(0, len(jobs)-1).Draw(t, "victim")
		jobs[i].Map = badFloat(t, "value")
	}
	lb, err := LowerBound(jobs, speed, nil)
	if err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) {
			t.Fatalf("error %v is not an *InputError", err)
		}
		return
	}
	if !finite(lb) || lb < 0 {
		t.Fatalf("LowerBound = %v", lb)
	}
}

func FuzzLowerBound(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testLowerBoundNoPanic)) }

func TestLowerBoundNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLowerBoundNoPanic)
}
