package competitive

import (
	"errors"
	"testing"

	"github.com/specsched/specsched"
)

// TestSEWRunningEntries: SEW's deep check of Running (entries ≥ 1, their
// sum at most 2^53) holds for each phase and over all of a phase's
// entries, not only the last two: Running = {2^52, 2^51, 2^51 + 1} sums
// past 2^53 although every pair does not; a reduce task with 0 copies is
// rejected like a map task's.
func TestSEWRunningEntries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		job   Job
		field string
	}{
		{"map sum past 2^53", Job{Map: Phase{Tasks: 3, Mean: 1, Running: []int{1 << 52, 1 << 51, 1<<51 + 1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}, "Map.Running"},
		{"reduce entry 0", Job{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1, Mean: 1, Running: []int{0}}}, "Reduce.Running"},
		{"map entry 0", Job{Map: Phase{Tasks: 1, Mean: 1, Running: []int{0}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}, "Map.Running"},
	}
	for _, c := range cases {
		_, err := SEW(nil, []Job{c.job}, 1<<53, 0, nil, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != 0 || ie.Field != c.field {
			t.Errorf("%s: err = %v, want an InputError on job 0 %s", c.name, err, c.field)
		}
	}
}
