package stragglers

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func sparkFunc(p SparkConfig) baselineFunc {
	return func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return SparkSpeculate(dst, tasks, slots, p, ws)
	}
}

// TestSparkExample: a stage of 10 tasks, 8 finished with durations 1…8
// (median 4.5: the mean of 4 and 5, as Spark's MedianHeap), so ⌊0.75·10⌋ =
// 7 ≤ 8 have finished and the threshold is 1.5·4.5 = 6.75. Of the two
// running tasks, the one that has run 7 is speculatable, the one at 6.7
// is not. With 3 slots (2 busy) it gets the one free slot.
func TestSparkExample(t *testing.T) {
	t.Parallel()
	tasks := make([]TaskStatus, 10)
	for i := range 8 {
		tasks[i] = TaskStatus{Task: Task{State: Finished}, Duration: float64(i + 1)}
	}
	tasks[8] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 6.7}}
	tasks[9] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 7}}
	got, err := SparkSpeculate(nil, tasks, 3, DefaultSpark(), nil)
	if want := []Action{{Task: 9, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	// One finished task fewer (7 of 10 = ⌊7.5⌋): still enough; the median
	// of 1…7 is 4, the threshold 6: both are copied given the slots.
	tasks[7] = TaskStatus{Task: Task{State: Running, Copies: 2, Elapsed: 1}}
	got, err = SparkSpeculate(nil, tasks, 6, DefaultSpark(), nil)
	if want := []Action{{Task: 8, Kind: Copy}, {Task: 9, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("7 finished: got %v, %v; want %v", got, err, want)
	}
	// 6 finished: below the quantile, no speculation; a single-task stage
	// never speculates.
	tasks[6] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 100}}
	if got, _ := SparkSpeculate(nil, tasks, 20, DefaultSpark(), nil); len(got) != 0 {
		t.Errorf("6 finished: %v, want none", got)
	}
	one := []TaskStatus{{Task: Task{State: Running, Copies: 1, Elapsed: 100}}}
	if got, _ := SparkSpeculate(nil, one, 2, SparkConfig{Multiplier: 1.5}, nil); len(got) != 0 {
		t.Errorf("one task: %v, want none", got)
	}
}

// sparkReference re-states Spark's rule.
func sparkReference(tasks []TaskStatus, slots int, p SparkConfig) expected {
	unscheduled, _, finished, busy, _ := counts(tasks)
	free := max(0, slots-busy)
	want := expected{launches: min(unscheduled, free)}
	want.before = preferLarger(func(i int) float64 { return tasks[i].Elapsed })
	n := len(tasks)
	if n < 2 || float64(finished) < max(1, math.Floor(p.Quantile*float64(n))) {
		return want
	}
	var d []float64
	for _, task := range tasks {
		if task.State == Finished {
			d = append(d, task.Duration)
		}
	}
	slices.Sort(d)
	m := (d[(len(d)-1)/2] + d[len(d)/2]) / 2
	threshold := max(p.Multiplier*m, p.MinRuntime)
	for i, task := range tasks {
		if task.State == Running && task.Copies == 1 && task.Elapsed > threshold {
			want.eligible = append(want.eligible, i)
		}
	}
	want.copies = min(len(want.eligible), free-want.launches)
	return want
}

func sparkConfigGen() *rapid.Generator[SparkConfig] {
	return rapid.Custom(func(t *rapid.T) SparkConfig {
		return SparkConfig{
			Multiplier: rapid.SampledFrom([]float64{0, 1, 1.5, 2}).Draw(t, "multiplier"),
			Quantile:   rapid.SampledFrom([]float64{0, 0.25, 0.5, 0.75, 1}).Draw(t, "quantile"),
			MinRuntime: rapid.SampledFrom([]float64{0, 0.1, 2}).Draw(t, "min runtime"),
		}
	})
}

func testSparkRule(t *rapid.T) {
	tasks := statusGen(30).Draw(t, "tasks")
	slots := baselineSlots(t, tasks)
	p := sparkConfigGen().Draw(t, "config")
	checkBaseline(t, sparkFunc(p), tasks, slots, 2, sparkReference(tasks, slots, p))
}

// TestSparkRule: Spark's rule against its re-statement (quantile, median,
// threshold, one copy, launches first), with the common invariants.
func TestSparkRule(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSparkRule)
}

func testSparkNoPanic(t *rapid.T) {
	tasks := statusGen(12).Draw(t, "tasks")
	corruptStatus(t, tasks)
	p := sparkConfigGen().Draw(t, "config")
	switch rapid.IntRange(0, 4).Draw(t, "corrupt config") {
	case 0:
		p.Multiplier = badFloat(t, "Multiplier")
	case 1:
		p.Quantile = badFloat(t, "Quantile")
	case 2:
		p.MinRuntime = badFloat(t, "MinRuntime")
	}
	checkNoPanic(t, "stragglers.SparkSpeculate", sparkFunc(p), tasks, hostileSlots(t))
}

func TestSparkNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSparkNoPanic)
}

func FuzzSparkSpeculate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSparkNoPanic)) }

func TestSparkErrors(t *testing.T) {
	t.Parallel()
	const fn = "stragglers.SparkSpeculate"
	checkTaskErrors(t, fn, sparkFunc(DefaultSpark()))
	for _, tc := range []struct {
		field string
		p     SparkConfig
	}{
		{"Multiplier", SparkConfig{Multiplier: -1}},
		{"Multiplier", SparkConfig{Multiplier: math.Inf(1)}},
		{"Quantile", SparkConfig{Quantile: 1.5}},
		{"MinRuntime", SparkConfig{MinRuntime: math.NaN()}},
	} {
		_, err := SparkSpeculate(nil, nil, 1, tc.p, nil)
		wantError(t, tc.field, fn, err, -1, tc.field)
	}
}

func testSparkStats(t *rapid.T) {
	p := sparkConfigGen().Draw(t, "config")
	checkStatsForm(t, sparkFunc(p), func(dst []Action, tasks []TaskStatus, stage StageStats, slots int) ([]Action, error) {
		return SparkSpeculateStats(dst, tasks, stage, slots, p, nil)
	})
}

// TestSparkStats: SparkSpeculateStats on the unfinished tasks and the
// stage's count and median decides as SparkSpeculate on the whole stage.
func TestSparkStats(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSparkStats)
}

func testSparkStatsNoPanic(t *rapid.T) {
	p := sparkConfigGen().Draw(t, "config")
	checkStatsNoPanic(t, "stragglers.SparkSpeculateStats", func(dst []Action, tasks []TaskStatus, stage StageStats, slots int, ws *Workspace) ([]Action, error) {
		return SparkSpeculateStats(dst, tasks, stage, slots, p, ws)
	})
}

func TestSparkStatsNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSparkStatsNoPanic)
}

func FuzzSparkSpeculateStats(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSparkStatsNoPanic)) }

func TestSparkStatsErrors(t *testing.T) {
	t.Parallel()
	const fn = "stragglers.SparkSpeculateStats"
	checkStageErrors(t, fn, "Median", func(tasks []TaskStatus, stage StageStats) error {
		_, err := SparkSpeculateStats(nil, tasks, stage, 4, DefaultSpark(), nil)
		return err
	})
	checkTaskErrors(t, fn, func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return SparkSpeculateStats(dst, tasks, StageStats{Tasks: len(tasks)}, slots, DefaultSpark(), ws)
	})
	_, err := SparkSpeculateStats(nil, nil, StageStats{}, 1, SparkConfig{Quantile: 2}, nil)
	wantError(t, "Quantile", fn, err, -1, "Quantile")
}
