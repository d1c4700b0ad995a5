package stragglers

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func hadoopFunc(p HadoopConfig) baselineFunc {
	return func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return HadoopSpeculate(dst, tasks, slots, p, ws)
	}
}

// TestHadoopExample works DefaultSpeculator's scan by hand. Four finished
// maps of durations 2, 4, 6, 8 (t_new = mean 5) and three running with
// t_rem 4, 7, 9: the estimated ends of the last two are later than a new
// attempt's, and the one of largest value t_rem − t_new = 4 gets the one
// copy of this scan, even with slots for more. A queued task stops the
// scan (the job still needs containers); so does a cap reached: 10 tasks
// already speculating against max(10, ⌊0.01·n⌋, ⌊0.1·R⌋) = 10 (9 leave
// room for one more).
func TestHadoopExample(t *testing.T) {
	t.Parallel()
	var tasks []TaskStatus
	for _, d := range []float64{2, 4, 6, 8} {
		tasks = append(tasks, TaskStatus{Task: Task{State: Finished}, Duration: d})
	}
	for _, r := range []float64{4, 7, 9} {
		tasks = append(tasks, TaskStatus{Task: Task{State: Running, Copies: 1, Remaining: r}})
	}
	got, err := HadoopSpeculate(nil, tasks, 10, DefaultHadoop(), nil)
	if want := []Action{{Task: 6, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	queued := append(slices.Clone(tasks), TaskStatus{})
	got, err = HadoopSpeculate(nil, queued, 10, DefaultHadoop(), nil)
	if want := []Action{{Task: 7, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("queued: got %v, %v; want %v", got, err, want)
	}
	capped := slices.Clone(tasks)
	for range 9 {
		capped = append(capped, TaskStatus{Task: Task{State: Running, Copies: 2, Remaining: 1}})
	}
	got, err = HadoopSpeculate(nil, capped, 100, DefaultHadoop(), nil)
	if want := []Action{{Task: 6, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("9 speculating: got %v, %v; want %v", got, err, want)
	}
	capped = append(capped, TaskStatus{Task: Task{State: Running, Copies: 2, Remaining: 1}})
	if got, _ := HadoopSpeculate(nil, capped, 100, DefaultHadoop(), nil); len(got) != 0 {
		t.Errorf("capped: %v, want none", got)
	}
	// Below 5% finished: 1 of 21 tasks.
	few := []TaskStatus{{Task: Task{State: Finished}, Duration: 1}}
	for range 20 {
		few = append(few, TaskStatus{Task: Task{State: Running, Copies: 1, Remaining: 50}})
	}
	if got, _ := HadoopSpeculate(nil, few, 100, DefaultHadoop(), nil); len(got) != 0 {
		t.Errorf("1 of 21 finished: %v, want none", got)
	}
}

// hadoopReference re-states DefaultSpeculator's scan.
func hadoopReference(tasks []TaskStatus, slots int, p HadoopConfig) expected {
	unscheduled, running, finished, busy, _ := counts(tasks)
	free := max(0, slots-busy)
	want := expected{launches: min(unscheduled, free)}
	want.before = preferLarger(func(i int) float64 { return tasks[i].Remaining })
	n := len(tasks)
	if unscheduled > 0 || free == 0 || finished == 0 || finished < p.MinCompleted || float64(finished)/float64(n) < p.MinCompletedShare {
		return want
	}
	var sum float64
	already := 0
	for _, task := range tasks {
		if task.State == Finished {
			sum += task.Duration
		}
		if task.State == Running && task.Copies > 1 {
			already++
		}
	}
	mean := sum / float64(finished)
	limit := max(float64(p.MinAllowed), math.Floor(p.CapTotal*float64(n)), math.Floor(p.CapRunning*float64(running)))
	for i, task := range tasks {
		if task.State == Running && task.Copies == 1 && task.Remaining > mean {
			want.eligible = append(want.eligible, i)
		}
	}
	if float64(already) < limit {
		want.copies = min(1, len(want.eligible))
	}
	return want
}

func hadoopConfigGen() *rapid.Generator[HadoopConfig] {
	return rapid.Custom(func(t *rapid.T) HadoopConfig {
		return HadoopConfig{
			CapRunning:        rapid.SampledFrom([]float64{0, 0.1, 0.5, 1}).Draw(t, "cap running"),
			CapTotal:          rapid.SampledFrom([]float64{0, 0.01, 0.2}).Draw(t, "cap total"),
			MinAllowed:        rapid.IntRange(0, 3).Draw(t, "min allowed"),
			MinCompleted:      rapid.IntRange(0, 3).Draw(t, "min completed"),
			MinCompletedShare: rapid.SampledFrom([]float64{0, 0.05, 0.5}).Draw(t, "min completed share"),
		}
	})
}

func testHadoopRule(t *rapid.T) {
	tasks := statusGen(30).Draw(t, "tasks")
	slots := baselineSlots(t, tasks)
	p := hadoopConfigGen().Draw(t, "config")
	got := checkBaseline(t, hadoopFunc(p), tasks, slots, 2, hadoopReference(tasks, slots, p))
	copies := 0
	for _, a := range got {
		copies += b2i(a.Kind == Copy)
	}
	if copies > 1 {
		t.Fatalf("%d copies in one scan", copies)
	}
}

// TestHadoopRule: DefaultSpeculator's scan against its re-statement
// (containers needed, completion minimums, t_new the mean, the three
// caps, one copy a scan), with the common invariants.
func TestHadoopRule(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testHadoopRule)
}

func testHadoopNoPanic(t *rapid.T) {
	tasks := statusGen(12).Draw(t, "tasks")
	corruptStatus(t, tasks)
	p := hadoopConfigGen().Draw(t, "config")
	switch rapid.IntRange(0, 6).Draw(t, "corrupt config") {
	case 0:
		p.CapRunning = badFloat(t, "CapRunning")
	case 1:
		p.CapTotal = badFloat(t, "CapTotal")
	case 2:
		p.MinCompletedShare = badFloat(t, "MinCompletedShare")
	case 3:
		p.MinAllowed = rapid.SampledFrom([]int{-1, math.MinInt, math.MaxInt}).Draw(t, "MinAllowed")
	case 4:
		p.MinCompleted = rapid.SampledFrom([]int{-1, math.MinInt, math.MaxInt}).Draw(t, "MinCompleted")
	}
	checkNoPanic(t, "stragglers.HadoopSpeculate", hadoopFunc(p), tasks, hostileSlots(t))
}

func TestHadoopNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testHadoopNoPanic)
}

func FuzzHadoopSpeculate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testHadoopNoPanic)) }

func TestHadoopErrors(t *testing.T) {
	t.Parallel()
	const fn = "stragglers.HadoopSpeculate"
	checkTaskErrors(t, fn, hadoopFunc(DefaultHadoop()))
	for _, tc := range []struct {
		field string
		p     HadoopConfig
	}{
		{"CapRunning", HadoopConfig{CapRunning: -0.1}},
		{"CapTotal", HadoopConfig{CapTotal: math.NaN()}},
		{"MinAllowed", HadoopConfig{MinAllowed: -1}},
		{"MinCompleted", HadoopConfig{MinCompleted: -1}},
		{"MinCompletedShare", HadoopConfig{MinCompletedShare: 2}},
	} {
		_, err := HadoopSpeculate(nil, nil, 1, tc.p, nil)
		wantError(t, tc.field, fn, err, -1, tc.field)
	}
}

func testHadoopStats(t *rapid.T) {
	p := hadoopConfigGen().Draw(t, "config")
	checkStatsForm(t, hadoopFunc(p), func(dst []Action, tasks []TaskStatus, stage StageStats, slots int) ([]Action, error) {
		return HadoopSpeculateStats(dst, tasks, stage, slots, p, nil)
	})
}

// TestHadoopStats: HadoopSpeculateStats on the unfinished tasks and the
// job's count and mean decides as HadoopSpeculate on the whole job.
func TestHadoopStats(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testHadoopStats)
}

func testHadoopStatsNoPanic(t *rapid.T) {
	p := hadoopConfigGen().Draw(t, "config")
	checkStatsNoPanic(t, "stragglers.HadoopSpeculateStats", func(dst []Action, tasks []TaskStatus, stage StageStats, slots int, ws *Workspace) ([]Action, error) {
		return HadoopSpeculateStats(dst, tasks, stage, slots, p, ws)
	})
}

func TestHadoopStatsNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testHadoopStatsNoPanic)
}

func FuzzHadoopSpeculateStats(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testHadoopStatsNoPanic)) }

func TestHadoopStatsErrors(t *testing.T) {
	t.Parallel()
	const fn = "stragglers.HadoopSpeculateStats"
	checkStageErrors(t, fn, "Mean", func(tasks []TaskStatus, stage StageStats) error {
		_, err := HadoopSpeculateStats(nil, tasks, stage, 4, DefaultHadoop(), nil)
		return err
	})
	checkTaskErrors(t, fn, func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return HadoopSpeculateStats(dst, tasks, StageStats{Tasks: len(tasks)}, slots, DefaultHadoop(), ws)
	})
	_, err := HadoopSpeculateStats(nil, nil, StageStats{}, 1, HadoopConfig{CapTotal: 2}, nil)
	wantError(t, "CapTotal", fn, err, -1, "CapTotal")
}

// TestHadoopStatsExample: TestHadoopExample's job given as its three
// running tasks (t_rem 4, 7, 9) and a summary of its four finished ones
// (durations 2, 4, 6, 8: mean 5), which the view does not hold: the task
// of t_rem 9, the view's third, gets the copy, as HadoopSpeculate gives
// task 6 of the whole job. A summary read from the view instead (no task
// finished there) would speculate nothing.
func TestHadoopStatsExample(t *testing.T) {
	t.Parallel()
	var view []TaskStatus
	for _, r := range []float64{4, 7, 9} {
		view = append(view, TaskStatus{Task: Task{State: Running, Copies: 1, Remaining: r}})
	}
	stage := StageStats{Tasks: 7, Finished: 4, Mean: 5}
	got, err := HadoopSpeculateStats(nil, view, stage, 10, DefaultHadoop(), nil)
	if want := []Action{{Task: 2, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}
