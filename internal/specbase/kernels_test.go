package specbase

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The kernels' own tests: Count against a plain tally, launchFirst by
// hand, and Dolly's worked example. The rules' other worked examples and
// their independent references are stragglers' tests, on the exported
// functions, which stragglers' TestKernelsMatch ties to these kernels on
// random valid input; they are not repeated here.

func testCount(t *rapid.T) {
	n := rapid.IntRange(0, 40).Draw(t, "n")
	tasks := make([]TaskStatus, n)
	var want Counts
	for i := range tasks {
		st := TaskState(rapid.IntRange(0, 2).Draw(t, "state"))
		tasks[i].State = st
		switch st {
		case Unscheduled:
			want.Unscheduled++
		case Running:
			c := rapid.IntRange(1, 4).Draw(t, "copies")
			tasks[i].Copies = c
			want.Running++
			want.Busy += c
			want.Extra += c - 1
		case Finished:
			want.Finished++
		}
	}
	if got := Count(tasks); got != want {
		t.Fatalf("Count = %+v, want %+v", got, want)
	}
}

// TestCount: Count tallies the states, ΣCopies and Σ(Copies − 1).
func TestCount(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCount)
}

// TestCountSaturates: Busy and Extra stop at 2^53 + 1, so that a sum of
// valid copy counts never wraps.
func TestCountSaturates(t *testing.T) {
	t.Parallel()
	const most = 1 << 53
	big := TaskStatus{Task: Task{State: Running, Copies: most}}
	c := Count([]TaskStatus{big, big, big})
	if c.Busy != most+1 || c.Extra != most+1 || c.Running != 3 {
		t.Errorf("Count = %+v, want Busy = Extra = 2^53+1, Running 3", c)
	}
}

// TestLaunchFirst: slots − Busy free slots launch min(Unscheduled, free)
// and leave the rest; none free: nothing to do.
func TestLaunchFirst(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c                     Counts
		slots, launches, left int
		ok                    bool
	}{
		{Counts{Unscheduled: 3, Busy: 2}, 7, 3, 2, true},
		{Counts{Unscheduled: 9, Busy: 2}, 7, 5, 0, true},
		{Counts{Unscheduled: 0, Busy: 2}, 3, 0, 1, true},
		{Counts{Unscheduled: 4, Busy: 5}, 5, 0, 0, false},
		{Counts{Unscheduled: 4, Busy: 6}, 5, 0, 0, false},
	} {
		launches, left, ok := launchFirst(tc.c, tc.slots)
		if launches != tc.launches || left != tc.left || ok != tc.ok {
			t.Errorf("launchFirst(%+v, %d) = %d, %d, %v; want %d, %d, %v", tc.c, tc.slots, launches, left, ok, tc.launches, tc.left, tc.ok)
		}
	}
}

func decide(t *testing.T, name string, got, want []Action) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %v, want %v", name, got, want)
	}
}

// TestDollyKernel: stragglers' TestDollyExample (four launches, then two
// clones of task 0 and one of task 1) and TestDollyClonesExample (10 tasks
// get 2 copies within the budget of 50; 100 tasks' 200 clones exceed it).
func TestDollyKernel(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{{}, {}, {Task: Task{State: Finished}}, {}, {}, {Task: Task{State: Running, Copies: 1, Remaining: 9}}}
	want := []Action{{Task: 0, Kind: Launch}, {Task: 1, Kind: Launch}, {Task: 3, Kind: Launch}, {Task: 4, Kind: Launch}, {Task: 0, Kind: Copy}, {Task: 0, Kind: Copy}, {Task: 1, Kind: Copy}}
	decide(t, "Dolly", Dolly(nil, tasks, Count(tasks), 8, 3), want)
	p := DollyConfig{Budget: 0.05, Utilization: 1, StraggleProb: 0.05, Epsilon: 0.05, MaxClones: 3}
	cluster := DollyCluster{Slots: 1000, Clones: 40, Utilization: 0.5}
	for _, tc := range []struct{ n, want int }{{1, 1}, {10, 2}, {100, 1}, {0, 1}} {
		if got := DollyClones(tc.n, cluster, p); got != tc.want {
			t.Errorf("DollyClones(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	if got := DollyCount(100, p); got != 3 {
		t.Errorf("DollyCount(100) = %d, want 3", got)
	}
}
