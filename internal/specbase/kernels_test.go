package specbase

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The kernels' own tests: Count against a plain tally, launchFirst by
// hand, and the papers' worked examples (worked by hand in stragglers'
// tests, which also check each kernel against an independent reference
// and the exported functions: TestKernelsMatch) made directly on the
// kernels.

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

// TestGRASSKernel: the GRASS paper's example (stragglers'
// TestGRASSExample): RAS copies T1 (1·5 > 2·2), GS launches T3 (t_new 1
// against the copy's 2); with T1 at t_rem 4 the copy saves nothing.
func TestGRASSKernel(t *testing.T) {
	t.Parallel()
	tasks := make([]TaskStatus, 9)
	tasks[0] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 1, Remaining: 5}, NewCopy: 2}
	tasks[1] = TaskStatus{Task: Task{State: Finished}, Duration: 1}
	for i := 2; i < 8; i++ {
		tasks[i] = TaskStatus{NewCopy: 1}
	}
	tasks[8] = TaskStatus{NewCopy: 3}
	ras := GRASSConfig{SwitchWaves: 2, MaxCopies: 256}
	var ws Workspace
	decide(t, "RAS", GRASS(nil, tasks, Count(tasks), 2, ras, &ws), []Action{{Task: 0, Kind: Copy}})
	gs := ras
	gs.SwitchWaves = 4
	decide(t, "GS", GRASS(nil, tasks, Count(tasks), 2, gs, &ws), []Action{{Task: 2, Kind: Launch}})
	tasks[0].Remaining = 4
	decide(t, "RAS, no saving", GRASS(nil, tasks, Count(tasks), 2, ras, &ws), []Action{{Task: 2, Kind: Launch}})
}

// TestLATEKernel: stragglers' TestLATEExample: rates 0.05, 0.1, 0.3, …;
// the ⌈0.25·8⌉ = 2 slowest are tasks 0 and 1, time left 18 and 8; the cap
// ⌈0.1·10⌉ = 1 copies the longest first.
func TestLATEKernel(t *testing.T) {
	t.Parallel()
	var tasks []TaskStatus
	for i, pr := range []float64{0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9} {
		elapsed := 1.0
		if i < 2 {
			elapsed = 2
		}
		tasks = append(tasks, TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: elapsed}, Progress: pr})
	}
	p := LATEConfig{SpeculativeCap: 0.1, SlowTaskThreshold: 0.25}
	var ws Workspace
	decide(t, "30 slots", LATE(nil, tasks, Count(tasks), 30, p, &ws), []Action{{Task: 0, Kind: Copy}, {Task: 1, Kind: Copy}})
	decide(t, "10 slots", LATE(nil, tasks, Count(tasks), 10, p, &ws), []Action{{Task: 0, Kind: Copy}})
	tasks[0].Copies = 2
	decide(t, "cap reached", LATE(nil, tasks, Count(tasks), 10, p, &ws), []Action{})
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

// TestSparkKernel: stragglers' TestSparkExample: 8 of 10 finished with
// durations 1…8, median 4.5, threshold 1.5·4.5 = 6.75: the task at 7 is
// copied, the one at 6.7 is not.
func TestSparkKernel(t *testing.T) {
	t.Parallel()
	tasks := make([]TaskStatus, 10)
	for i := range 8 {
		tasks[i] = TaskStatus{Task: Task{State: Finished}, Duration: float64(i + 1)}
	}
	tasks[8] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 6.7}}
	tasks[9] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 7}}
	p := SparkConfig{Multiplier: 1.5, Quantile: 0.75, MinRuntime: 0.1}
	var ws Workspace
	c := Count(tasks)
	stage := SparkStage(tasks, c, p, &ws)
	if stage != (StageStats{Tasks: 10, Finished: 8, Median: 4.5}) {
		t.Errorf("SparkStage = %+v, want 10 tasks, 8 finished, median 4.5", stage)
	}
	decide(t, "Spark", Spark(nil, tasks, c, stage, 3, p, &ws), []Action{{Task: 9, Kind: Copy}})
}

// TestHadoopKernel: stragglers' TestHadoopExample: durations 2, 4, 6, 8
// (mean 5), running t_rem 4, 7, 9: the largest, task 6, is copied; with a
// task queued, it is launched instead.
func TestHadoopKernel(t *testing.T) {
	t.Parallel()
	var tasks []TaskStatus
	for _, d := range []float64{2, 4, 6, 8} {
		tasks = append(tasks, TaskStatus{Task: Task{State: Finished}, Duration: d})
	}
	for _, r := range []float64{4, 7, 9} {
		tasks = append(tasks, TaskStatus{Task: Task{State: Running, Copies: 1, Remaining: r}})
	}
	p := HadoopConfig{CapRunning: 0.1, CapTotal: 0.01, MinAllowed: 10, MinCompleted: 1, MinCompletedShare: 0.05}
	c := Count(tasks)
	stage := HadoopStage(tasks, c, p)
	if stage != (StageStats{Tasks: 7, Finished: 4, Mean: 5}) {
		t.Errorf("HadoopStage = %+v, want 7 tasks, 4 finished, mean 5", stage)
	}
	decide(t, "Hadoop", Hadoop(nil, tasks, c, stage, 10, p), []Action{{Task: 6, Kind: Copy}})
	queued := append(slices.Clone(tasks), TaskStatus{})
	c = Count(queued)
	decide(t, "queued", Hadoop(nil, queued, c, HadoopStage(queued, c, p), 10, p), []Action{{Task: 7, Kind: Launch}})
}
