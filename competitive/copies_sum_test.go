package competitive

import (
	"errors"
	"testing"

	"github.com/specsched/specsched"
)

// TestPlanCopiesSumBound: Plan and SREWC reject a phase whose running
// copies sum past 2^53 at the entry that crosses it (Field "Map.Running",
// Value 1, the third entry of 2^52, 2^52, 1), before any other check. The
// cluster check would also reject it, on the whole job's copies (Field
// "running"); this names the entry, as the deep check promises.
func TestPlanCopiesSumBound(t *testing.T) {
	t.Parallel()
	const half = 1 << 52
	jobs := []Job{{Map: Phase{Tasks: 3, Mean: 1, Running: []int{half, half, 1}}}}
	_, perr := Plan(nil, jobs, []int{maxCount}, maxCount, 0, NonPreemptive, nil, nil)
	_, serr := SREWC(nil, jobs, maxCount, 1, 0, NonPreemptive, nil, nil)
	for name, err := range map[string]error{"Plan": perr, "SREWC": serr} {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != 0 || ie.Field != "Map.Running" || ie.Value != 1 {
			t.Errorf("%s: err = %v; want an InputError on job 0's Map.Running entry 1 (the sum passes 2^53 there)", name, err)
		}
	}
}
