package competitive

import "testing"

// TestSEWMaxActionsLaunchesAndClones: a group may launch exactly
// MaxActions tasks and must still count its clones. One job with
// MaxActions unscheduled map tasks on a map group of 2·MaxActions + 1 idle
// machines (M = 4·MaxActions + 2): by SEW's lines 4–10 the group launches
// min(idle, Σu) = MaxActions tasks and the remaining MaxActions + 1
// machines clone, more than MaxActions copies, so SEW rejects the slot.
// sewWork's counts are checked first, so that a wrong count stops the test
// before SEW would materialise 2³⁰ launches.
func TestSEWMaxActionsLaunchesAndClones(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Map: Phase{Tasks: MaxActions, Mean: 1, Unscheduled: MaxActions}}}
	for _, c := range []struct{ idle, clones int }{{2 * MaxActions, MaxActions}, {2*MaxActions + 1, MaxActions + 1}} {
		launches, clones, named := sewWork(jobs, MapStage, c.idle, 0)
		if launches != MaxActions || clones != c.clones || named != 0 {
			t.Fatalf("sewWork, %d idle: %d launches, %d clones, job %d; want %d, %d, job 0", c.idle, launches, clones, named, MaxActions, c.clones)
		}
	}
	_, err := SEW(nil, jobs, 4*MaxActions+2, 0, nil, nil)
	wantInputError(t, err, "competitive.SEW", 0, "Map.Unscheduled")
}
