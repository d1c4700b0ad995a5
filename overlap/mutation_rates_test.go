package overlap

import (
	"testing"
)

// Tests that pin behaviour of the allocation and rate files which the
// mutation run of issue 11 found unchecked. Each expected value is worked
// out by hand from the documented rule, not copied from the code.

// TestAvailableDocumentedCases checks Job.Available where its documented
// rules meet:
//   - a job whose map is done (x(t) = 0, x > 0) has all of y(t) available,
//     even an amount below availTol·y (the tolerance applies only to the
//     fraction y(t)/y − x(t)/x of a job still mapping);
//   - a fraction of exactly availTol is "at most availTol·y_i", so 0: with
//     x = y = 1, x(t) = 2^-60 and y(t) = 1e-9 + 2^-60 (both exact, and
//     y(t) − x(t) = 1e-9 exactly) the amount is 1e-9·y, returned as 0.
func TestAvailableDocumentedCases(t *testing.T) {
	t.Parallel()
	const x = 0x1p-60
	yr := availTol + x
	if yr-x != availTol {
		t.Fatalf("test setup: %v − %v = %v, want exactly %v", yr, x, yr-x, availTol)
	}
	cases := []struct {
		job  Job
		want float64
	}{
		{Job{Map: 2, Shuffle: 4, RemainingMap: 0, RemainingShuffle: 1e-12}, 1e-12}, // map done: all of y(t)
		{Job{Map: 1, Shuffle: 1, RemainingMap: x, RemainingShuffle: yr}, 0},        // fraction = availTol: none
		{Job{Map: 1, Shuffle: 1, RemainingMap: x, RemainingShuffle: 2 * availTol}, 2*availTol - x},
	}
	for _, c := range cases {
		if got := c.job.Available(); got != c.want {
			t.Errorf("%+v.Available() = %v, want %v", c.job, got, c.want)
		}
	}
}
