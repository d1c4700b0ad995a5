package stragglers

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func lateFunc(p LATEConfig) baselineFunc {
	return func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return LATE(dst, tasks, slots, p, ws)
	}
}

// TestLATEExample works LATE's choice by hand for eight running tasks
// (progress score / elapsed): rates 0.1/2 = 0.05, 0.2/2 = 0.1, 0.3/1 = 0.3,
// 0.5/1 = 0.5, 0.6/1, 0.7/1, 0.8/1, 0.9/1. The 25th percentile of eight
// rates is the 2nd slowest (⌈0.25·8⌉ = 2), so tasks 0 and 1 are slow, with
// time left (1 − 0.1)/0.05 = 18 and (1 − 0.2)/0.1 = 8. With 30 slots, the
// cap ⌈0.1·30⌉ = 3 leaves room, and both are copied; with 10 slots the
// cap is 1 and the longest time to end, task 0, goes first — not task 1,
// which has made more progress but less than task 0 per unit time.
func TestLATEExample(t *testing.T) {
	t.Parallel()
	var tasks []TaskStatus
	for i, pr := range []float64{0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9} {
		elapsed := 1.0
		if i < 2 {
			elapsed = 2
		}
		tasks = append(tasks, TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: elapsed}, Progress: pr})
	}
	got, err := LATE(nil, tasks, 30, DefaultLATE(), nil)
	if want := []Action{{Task: 0, Kind: Copy}, {Task: 1, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("30 slots: got %v, %v; want %v", got, err, want)
	}
	got, err = LATE(nil, tasks, 10, DefaultLATE(), nil)
	if want := []Action{{Task: 0, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("10 slots: got %v, %v; want %v", got, err, want)
	}
	// An unscheduled task takes the free slot first.
	queued := append(slices.Clone(tasks), TaskStatus{})
	got, err = LATE(nil, queued, 9, DefaultLATE(), nil)
	if want := []Action{{Task: 8, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("queued: got %v, %v; want %v", got, err, want)
	}
	// Task 0 already speculated: it counts against the cap (1 of ⌈0.1·10⌉)
	// and is not copied again.
	tasks[0].Copies = 2
	if got, _ := LATE(nil, tasks, 10, DefaultLATE(), nil); len(got) != 0 {
		t.Errorf("cap reached: %v, want none", got)
	}
	got, err = LATE(nil, tasks, 20, DefaultLATE(), nil)
	if want := []Action{{Task: 1, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("20 slots: got %v, %v; want %v", got, err, want)
	}
}

// lateReference re-states LATE: a rated task is slow when fewer than
// ⌈SlowTaskThreshold·R⌉ rated tasks are strictly slower (the nearest-rank
// percentile written as a rank), ranked by (1 − progress)/rate.
func lateReference(tasks []TaskStatus, slots int, p LATEConfig) expected {
	unscheduled, _, _, busy, extra := counts(tasks)
	free := max(0, slots-busy)
	want := expected{launches: min(unscheduled, free)}
	rate := func(i int) float64 { return tasks[i].Progress / tasks[i].Elapsed }
	want.before = preferLarger(func(i int) float64 { return (1 - tasks[i].Progress) / rate(i) })
	var rated []int
	for i, task := range tasks {
		if task.State == Running && task.Elapsed > 0 && task.Elapsed >= p.MinElapsed {
			rated = append(rated, i)
		}
	}
	k := math.Ceil(p.SlowTaskThreshold * float64(len(rated)))
	for _, i := range rated {
		slower := 0
		for _, j := range rated {
			slower += b2i(rate(j) < rate(i))
		}
		if float64(slower) < k && tasks[i].Copies == 1 {
			want.eligible = append(want.eligible, i)
		}
	}
	capLeft := int(math.Ceil(p.SpeculativeCap*float64(slots))) - extra
	want.copies = max(0, min(len(want.eligible), free-want.launches, capLeft))
	return want
}

func lateConfigGen() *rapid.Generator[LATEConfig] {
	return rapid.Custom(func(t *rapid.T) LATEConfig {
		return LATEConfig{
			SpeculativeCap:    rapid.SampledFrom([]float64{0, 0.1, 0.25, 1}).Draw(t, "cap"),
			SlowTaskThreshold: rapid.SampledFrom([]float64{0, 0.25, 0.5, 1}).Draw(t, "slow task threshold"),
			MinElapsed:        rapid.SampledFrom([]float64{0, 1, 2.5}).Draw(t, "min elapsed"),
		}
	})
}

func testLATERule(t *rapid.T) {
	tasks := statusGen(30).Draw(t, "tasks")
	slots := baselineSlots(t, tasks)
	p := lateConfigGen().Draw(t, "config")
	checkBaseline(t, lateFunc(p), tasks, slots, 2, lateReference(tasks, slots, p))
}

// TestLATERule: LATE against its re-statement (launches first, the slow
// quartile by rank, the longest time left, the cap, one copy a task), with
// the common invariants.
func TestLATERule(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLATERule)
}

func testLATENoPanic(t *rapid.T) {
	tasks := statusGen(12).Draw(t, "tasks")
	corruptStatus(t, tasks)
	p := lateConfigGen().Draw(t, "config")
	switch rapid.IntRange(0, 4).Draw(t, "corrupt config") {
	case 0:
		p.SpeculativeCap = badFloat(t, "SpeculativeCap")
	case 1:
		p.SlowTaskThreshold = badFloat(t, "SlowTaskThreshold")
	case 2:
		p.MinElapsed = badFloat(t, "MinElapsed")
	}
	checkNoPanic(t, "stragglers.LATE", lateFunc(p), tasks, hostileSlots(t))
}

func TestLATENoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLATENoPanic)
}

func FuzzLATE(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testLATENoPanic)) }

func TestLATEErrors(t *testing.T) {
	t.Parallel()
	const fn = "stragglers.LATE"
	checkTaskErrors(t, fn, lateFunc(DefaultLATE()))
	for _, tc := range []struct {
		field string
		p     LATEConfig
	}{
		{"SpeculativeCap", LATEConfig{SpeculativeCap: 1.1}},
		{"SlowTaskThreshold", LATEConfig{SlowTaskThreshold: math.NaN()}},
		{"MinElapsed", LATEConfig{MinElapsed: -1}},
	} {
		_, err := LATE(nil, nil, 1, tc.p, nil)
		wantError(t, tc.field, fn, err, -1, tc.field)
	}
}

// TestLATEExtremes: times at float64's edges give no NaN time left — a
// task with no progress has +Inf and goes first, a rate that overflows
// gives 0 — and a huge elapsed time with a tiny progress still ranks.
func TestLATEExtremes(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{
		{Task: Task{State: Running, Copies: 1, Elapsed: 5e-324}, Progress: 0.5},             // rate +Inf: time left 0
		{Task: Task{State: Running, Copies: 1, Elapsed: math.MaxFloat64}, Progress: 1e-300}, // rate 0: +Inf
		{Task: Task{State: Running, Copies: 1, Elapsed: 1}},                                 // no progress: +Inf
		{Task: Task{State: Running, Copies: 1, Elapsed: 1}, Progress: 1},
	}
	got, err := LATE(nil, tasks, 100, LATEConfig{SpeculativeCap: 1, SlowTaskThreshold: 1}, nil)
	if want := []Action{{Task: 0, Kind: Copy}, {Task: 1, Kind: Copy}, {Task: 2, Kind: Copy}, {Task: 3, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("all slow: got %v, %v; want %v", got, err, want)
	}
	got, err = LATE(nil, tasks, 5, LATEConfig{SpeculativeCap: 0.2, SlowTaskThreshold: 1}, nil)
	if want := []Action{{Task: 1, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("one copy: got %v, %v; want %v (the first of the two with +Inf time left)", got, err, want)
	}
}

// TestLATEJudgesAtMinElapsed: a task that has run exactly MinElapsed is
// rated (LATEConfig: "how long a task must have run", at least that long).
// Two running tasks, MinElapsed 2: task 0 has run 2 with progress 0.1
// (rate 0.05), task 1 has run 4 with progress 0.9 (rate 0.225). Both are
// rated; with SlowTaskThreshold 0.5 the slow one is ⌈0.5·2⌉ = 1st slowest,
// task 0, which the one free slot copies. Were task 0 not yet judged, the
// only rated task, task 1, would be the slowest and be copied instead.
func TestLATEJudgesAtMinElapsed(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{
		{Task: Task{State: Running, Copies: 1, Elapsed: 2}, Progress: 0.1},
		{Task: Task{State: Running, Copies: 1, Elapsed: 4}, Progress: 0.9},
	}
	p := LATEConfig{SpeculativeCap: 1, SlowTaskThreshold: 0.5, MinElapsed: 2}
	got, err := LATE(nil, tasks, 3, p, nil)
	if want := []Action{{Task: 0, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}
