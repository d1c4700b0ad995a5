package competitive

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/specsched/specsched"
)

// TestSEWGroupCapacity: running copies are counted per machine group across
// jobs. With M = 4 each group has 2 machines; two jobs whose running copies
// (2 + 1) exceed a group are rejected, naming the second job, in either
// phase — the check compares each job's copies with what the jobs before it
// left of the group, not with the whole group.
func TestSEWGroupCapacity(t *testing.T) {
	t.Parallel()
	mapJobs := []Job{
		{Map: Phase{Tasks: 3, Mean: 1, Running: []int{2}, Unscheduled: 2}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
		{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
	}
	reduceJobs := []Job{
		{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 3, Mean: 1, Running: []int{2}, Unscheduled: 2}},
		{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1, Mean: 1, Running: []int{1}}},
	}
	for name, c := range map[string]struct {
		jobs  []Job
		field string
	}{"map": {mapJobs, "Map.Running"}, "reduce": {reduceJobs, "Reduce.Running"}} {
		_, err := SEW(nil, c.jobs, 4, 0, nil, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != 1 || ie.Field != c.field {
			t.Errorf("%s: 3 running copies in a group of 2: err = %v, want an InputError on job 1 %s", name, err, c.field)
		}
	}
}

// TestSEWLaunchesFillIdleMachines: a group launches on its idle machines
// only, M/2 minus the running copies. With M = 4, one reduce copy running
// and a second job with 5 unscheduled reduce tasks, one reduce machine is
// idle: exactly one reduce launch. The same for the map group.
func TestSEWLaunchesFillIdleMachines(t *testing.T) {
	t.Parallel()
	for name, jobs := range map[string][]Job{
		"reduce": {
			{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1, Mean: 1, Running: []int{1}}},
			{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 5, Mean: 1, Unscheduled: 5}},
		},
		"map": {
			{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
			{Map: Phase{Tasks: 5, Mean: 1, Unscheduled: 5}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
		},
	} {
		acts, err := SEW(nil, jobs, 4, 0, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		copies := 0
		for _, a := range acts {
			if a.Job != 1 || a.Kind != Launch {
				t.Errorf("%s: unexpected action %+v", name, a)
			}
			copies += a.Copies
		}
		if copies != 1 {
			t.Errorf("%s: %d copies launched on a group with 1 idle machine: %+v", name, copies, acts)
		}
	}
}

// TestSEWReduceIdleAtScale: the MaxActions bound applies to what a group
// can launch, its idle machines (M/2 minus its running copies), not to the
// group's size. With M = 2^32, 2^31 − 1 reduce copies running and 2^40
// reduce tasks waiting, one reduce machine is idle: one launch, no error,
// although the group (2^31 machines) and the waiting tasks exceed
// MaxActions.
func TestSEWReduceIdleAtScale(t *testing.T) {
	t.Parallel()
	const group = 1 << 31
	jobs := []Job{
		{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1, Mean: 1, Running: []int{group - 1}}},
		{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1 << 40, Mean: 1, Unscheduled: 1 << 40}},
	}
	acts, err := SEW(nil, jobs, 2*group, 0, nil, nil)
	if err != nil {
		t.Fatalf("SEW: %v", err)
	}
	if len(acts) != 1 || acts[0].Job != 1 || acts[0].Kind != Launch || acts[0].Stage != ReduceStage || acts[0].Copies != 1 {
		t.Fatalf("got %+v, want one reduce launch of job 1", acts)
	}
}

// TestSEWClonesCostFollowTargets: SEW's clones cost O(min(C, T)) memory
// (its doc): 2^20 idle map machines cloning the one running task allocate
// a few hundred bytes per call, not a pick per machine (8 MiB).
func TestSEWClonesCostFollowTargets(t *testing.T) {
	jobs := []Job{{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}}
	const machines = 1<<21 + 2 // map group 2^20 + 1, one machine busy
	rng := rand.New(rand.NewPCG(1, 2))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 4 {
		acts, err := SEW(nil, jobs, machines, 0, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(acts) != 1 || acts[0].Kind != Clone || acts[0].Copies != 1<<20 {
			t.Fatalf("got %+v, want one clone action of 2^20 copies", acts)
		}
	}
	runtime.ReadMemStats(&after)
	if b := (after.TotalAlloc - before.TotalAlloc) / 4; b > 1<<16 {
		t.Errorf("SEW allocated %d bytes per call for 2^20 clones of one target", b)
	}
}

// TestSEWMaxActionsNamesFirstCloneTarget: a machine group that would clone
// more than MaxActions copies names the first job, in index order, with a
// running task of the phase, else the job of the last launch; a group with nothing to clone (no running and
// no unscheduled task of its phase) clones nothing and is no error,
// however many machines are idle.
func TestSEWMaxActionsNamesFirstCloneTarget(t *testing.T) {
	t.Parallel()
	const machines = 1 << 40 // 2^39 per group
	two := []Job{
		{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
		{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
	}
	_, err := SEW(nil, two, machines, 0, nil, nil)
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Index != 0 {
		t.Errorf("2^39 − 2 clones of two jobs' running maps: err = %v, want an InputError naming job 0", err)
	}
	// No running map task: the clones' targets are the tasks just
	// launched, and the error names the job of the last launch.
	fresh := []Job{
		{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
		{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}},
	}
	if _, err := SEW(nil, fresh, machines, 0, nil, nil); !errors.As(err, &ie) || ie.Index != 1 {
		t.Errorf("2^39 − 4 clones of the tasks just launched: err = %v, want an InputError naming job 1", err)
	}
	// The job is in its reduce phase with the reduce group full: the map
	// group has no task to clone, the reduce group no idle machine.
	idle := []Job{{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1, Mean: 1, Running: []int{machines / 2}}}}
	if acts, err := SEW(nil, idle, machines, 0, nil, nil); err != nil || len(acts) != 0 {
		t.Errorf("nothing to clone on 2^39 idle map machines: got %v, %v; want no action and no error", acts, err)
	}
}
