package competitive

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched"
)

// aliasJobs is a snapshot for the aliasing tests: two active jobs, one
// running, on a cluster of 8 machines.
func aliasJobs() []Job {
	return []Job{
		{Map: Phase{Tasks: 3, Mean: 2, Unscheduled: 2, Running: make([]int, 1, 16)}},
		{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}, Reduce: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}},
	}
}

// over returns a slice of n elements of type T laid over the memory of
// s (which must hold at least n·sizeof(T) bytes): an aliased dst.
func over[T, S any](s []S, n int) []T {
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(s))), n)
}

// TestDstAliasing: every function with a dst rejects a dst that shares
// memory with an input it reads while writing (check.Disjoint, Field
// "dst"), before writing anything: the input — and so the dst laid over
// it — is unchanged.
func TestDstAliasing(t *testing.T) {
	t.Parallel()
	jobs := aliasJobs()
	jobs[0].Map.Running[0] = 1
	allot := make([]int, 2, 16)
	allot[0], allot[1] = 4, 3
	calls := map[string]func() error{
		"Shares": func() error {
			_, err := Shares(over[float64](jobs, 2), jobs, 8, 0.5, 0, nil)
			return err
		},
		"Machines": func() error {
			_, err := Machines(over[int](jobs, 2), jobs, 8, 0.5, 0, nil)
			return err
		},
		"Machines running": func() error {
			_, err := Machines(jobs[0].Map.Running[:0], jobs, 8, 0.5, 0, nil)
			return err
		},
		"Shares running": func() error {
			_, err := Shares(over[float64](jobs[0].Map.Running[:16], 2), jobs, 8, 0.5, 0, nil)
			return err
		},
		"SEWBound running": func() error {
			_, err := SEWBound(over[float64](jobs[0].Map.Running[:16], 2), jobs, 8, 0, nil)
			return err
		},
		"Plan jobs": func() error {
			_, err := Plan(over[Action](jobs, 3)[:0], jobs, allot, 8, 0, Preemptive, nil, nil)
			return err
		},
		"Plan machines": func() error {
			_, err := Plan(over[Action](allot[:16], 2)[:0], jobs, allot, 8, 0, Preemptive, nil, nil)
			return err
		},
		"Plan running": func() error {
			_, err := Plan(over[Action](jobs[0].Map.Running[:16], 2)[:0], jobs, allot, 8, 0, Preemptive, nil, nil)
			return err
		},
		"SREWC jobs": func() error {
			_, err := SREWC(over[Action](jobs, 3)[:0], jobs, 8, 0.5, 0, NonPreemptive, nil, nil)
			return err
		},
		"SREWC running": func() error {
			_, err := SREWC(over[Action](jobs[0].Map.Running[:16], 4)[:1], jobs, 8, 0.5, 0, NonPreemptive, nil, nil)
			return err
		},
		"SEW jobs": func() error {
			_, err := SEW(over[Action](jobs, 3), jobs, 8, 0, nil, nil)
			return err
		},
		"SEW running": func() error {
			_, err := SEW(over[Action](jobs[0].Map.Running[:16], 4)[:0], jobs, 8, 0, nil, nil)
			return err
		},
		"SEWBound": func() error {
			_, err := SEWBound(over[float64](jobs, 2), jobs, 8, 0, nil)
			return err
		},
	}
	for name, call := range calls {
		jobsBefore, allotBefore := cloneJobs(jobs), slices.Clone(allot[:16])
		err := call()
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "dst" {
			t.Errorf("%s with an aliased dst: err = %v, want an InputError on dst", name, err)
		}
		if diff := cmp.Diff(jobsBefore, jobs); diff != "" {
			t.Errorf("%s: jobs modified (-before +after):\n%s", name, diff)
		}
		if !slices.Equal(allotBefore, allot[:16]) {
			t.Errorf("%s: machines modified", name)
		}
	}

	// A dst too small to be reused is never written, so it may overlap;
	// Running's spare capacity is not Running.
	if _, err := Machines(over[int](jobs, 1), jobs, 8, 0.5, 0, nil); err != nil {
		t.Errorf("Machines, dst of capacity 1 < 2 jobs: %v", err)
	}
	want, _ := Machines(nil, aliasJobs(), 8, 0.5, 0, nil)
	backing := jobs[0].Map.Running[:16]
	got, err := Machines(backing[1:1], jobs, 8, 0.5, 0, nil)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Machines over Running's spare memory: %v, %v; want %v", got, err, want)
	}
	if _, err := Plan(make([]Action, 0, 4), jobs, allot, 8, 0, Preemptive, nil, nil); err != nil {
		t.Errorf("Plan with a separate dst: %v", err)
	}
	// Adjacent is not overlapping: a dst that ends where Running begins,
	// or begins where it ends, in one backing array.
	mem := make([]int, 8)
	adjacent := []Job{{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 1, Running: mem[2:3]}}, {Reduce: Phase{Tasks: 1, Mean: 1, Running: mem[5:6]}}}
	mem[2], mem[5] = 1, 1
	for _, d := range [][]int{mem[0:0:2], mem[3:3:5], mem[6:6:8]} {
		if _, err := Machines(d, adjacent, 4, 1, 0, nil); err != nil {
			t.Errorf("Machines, dst adjacent to Running: %v", err)
		}
	}
	for _, d := range [][]int{mem[1:1:3], mem[4:4:6]} {
		if _, err := Machines(d, adjacent, 4, 1, 0, nil); err == nil {
			t.Errorf("Machines, dst overlapping Running by one element: accepted")
		}
	}
}
