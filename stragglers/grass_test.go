package stragglers

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func grassFunc(p GRASSConfig) baselineFunc {
	return func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return GRASS(dst, tasks, slots, p, ws)
	}
}

// grassExample is the GRASS paper's running example (its NSDI'14 talk
// gives the table): nine tasks on two slots, at time 1. T1 runs with t_rem
// 5 and t_new 2, T2 has finished, T3…T8 wait with t_new 1, T9 with t_new
// 3. One slot is free.
func grassExample() []TaskStatus {
	tasks := make([]TaskStatus, 9)
	tasks[0] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: 1, Remaining: 5}, NewCopy: 2}
	tasks[1] = TaskStatus{Task: Task{State: Finished}, Duration: 1}
	for i := 2; i < 8; i++ {
		tasks[i] = TaskStatus{NewCopy: 1}
	}
	tasks[8] = TaskStatus{NewCopy: 3}
	return tasks
}

// TestGRASSExample: in the example RAS copies T1 — one copy for 5 against
// two for 2 saves slot-time, 1·5 > 2·2 — rather than launch T3, while GS
// launches T3, which finishes earliest (t_new 1 against the copy's 2): the
// two schedules of the paper's figure (accuracy 8/9 and 7/9 by the
// deadline 6). With 8 unfinished tasks on 2 slots (4 waves) the default
// switch (2 waves) keeps RAS.
func TestGRASSExample(t *testing.T) {
	t.Parallel()
	tasks := grassExample()
	got, err := GRASS(nil, tasks, 2, DefaultGRASS(), nil)
	if want := []Action{{Task: 0, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("RAS: got %v, %v; want %v", got, err, want)
	}
	gs := DefaultGRASS()
	gs.SwitchWaves = 4
	got, err = GRASS(nil, tasks, 2, gs, nil)
	if want := []Action{{Task: 2, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("GS: got %v, %v; want %v", got, err, want)
	}
	if !gs.Greedy(8, 2) || DefaultGRASS().Greedy(8, 2) || !DefaultGRASS().Greedy(4, 2) {
		t.Error("Greedy: the switch is not at unfinished ≤ SwitchWaves·slots")
	}
	// With T1 at t_rem 4 the copy saves nothing (1·4 = 2·2): RAS launches.
	tasks[0].Remaining = 4
	got, err = GRASS(nil, tasks, 2, DefaultGRASS(), nil)
	if want := []Action{{Task: 2, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("RAS, no saving: got %v, %v; want %v", got, err, want)
	}
	// GS with slots for everything: all waiting tasks launch, T1 is copied
	// (t_rem 4 > t_new 2); with 7 free slots, T9 (t_new 3) is the one left.
	got, err = GRASS(nil, tasks, 8, gs, nil)
	want := []Action{{Task: 2, Kind: Launch}, {Task: 3, Kind: Launch}, {Task: 4, Kind: Launch}, {Task: 5, Kind: Launch}, {Task: 6, Kind: Launch}, {Task: 7, Kind: Launch}, {Task: 0, Kind: Copy}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("GS, 7 free: got %v, %v; want %v", got, err, want)
	}
}

// grassReference re-states GRASS: the switch by waves; RAS by the products
// c·t_rem > (c+1)·t_new and their difference; GS by sorting every launch
// and worthwhile copy by (t_new, launch first, index).
func grassReference(tasks []TaskStatus, slots int, p GRASSConfig) expected {
	unscheduled, running, _, busy, _ := counts(tasks)
	free := max(0, slots-busy)
	judged := func(task TaskStatus) bool {
		return task.State == Running && task.Copies < p.MaxCopies && task.Elapsed >= p.MinElapsed
	}
	if float64(unscheduled+running) > p.SwitchWaves*float64(slots) { // RAS
		var want expected
		saving := func(i int) float64 {
			c := float64(tasks[i].Copies)
			return c*tasks[i].Remaining - (c+1)*tasks[i].NewCopy
		}
		want.before = preferLarger(saving)
		for i, task := range tasks {
			if judged(task) && saving(i) > 0 {
				want.eligible = append(want.eligible, i)
			}
		}
		want.copies = min(len(want.eligible), free)
		want.launches = min(unscheduled, free-want.copies)
		return want
	}
	type item struct {
		task   int
		isCopy bool
	}
	var items []item
	for i, task := range tasks {
		if task.State == Unscheduled {
			items = append(items, item{i, false})
		} else if judged(task) && task.Remaining > task.NewCopy {
			items = append(items, item{i, true})
		}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := cmp.Compare(tasks[a.task].NewCopy, tasks[b.task].NewCopy); c != 0 {
			return c
		}
		if a.isCopy != b.isCopy {
			return b2i(a.isCopy) - b2i(b.isCopy)
		}
		return a.task - b.task
	})
	want := expected{launchSet: []int{}, before: func(a, b int) bool { return true }}
	for _, it := range items[:min(free, len(items))] {
		if it.isCopy {
			want.eligible = append(want.eligible, it.task)
		} else {
			want.launchSet = append(want.launchSet, it.task)
		}
	}
	slices.Sort(want.launchSet)
	want.copies = len(want.eligible)
	return want
}

func grassConfigGen() *rapid.Generator[GRASSConfig] {
	return rapid.Custom(func(t *rapid.T) GRASSConfig {
		return GRASSConfig{
			SwitchWaves: rapid.SampledFrom([]float64{0, 0.5, 1, 2, 100}).Draw(t, "switch waves"),
			MaxCopies:   rapid.IntRange(1, 4).Draw(t, "max copies"),
			MinElapsed:  rapid.SampledFrom([]float64{0, 1, 2.5}).Draw(t, "min elapsed"),
		}
	})
}

func testGRASSRule(t *rapid.T) {
	tasks := statusGen(30).Draw(t, "tasks")
	slots := baselineSlots(t, tasks)
	p := grassConfigGen().Draw(t, "config")
	checkBaseline(t, grassFunc(p), tasks, slots, p.MaxCopies, grassReference(tasks, slots, p))
}

// TestGRASSRule: GRASS against its re-statement (RAS's test and saving,
// copies before launches; GS's earliest finish; the switch; MaxCopies),
// with the common invariants.
func TestGRASSRule(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testGRASSRule)
}

func testGRASSNoPanic(t *rapid.T) {
	tasks := statusGen(12).Draw(t, "tasks")
	corruptStatus(t, tasks)
	p := grassConfigGen().Draw(t, "config")
	switch rapid.IntRange(0, 4).Draw(t, "corrupt config") {
	case 0:
		p.SwitchWaves = badFloat(t, "SwitchWaves")
	case 1:
		p.MinElapsed = badFloat(t, "MinElapsed")
	case 2:
		p.MaxCopies = rapid.SampledFrom([]int{0, -1, math.MaxInt, 1<<53 + 1}).Draw(t, "MaxCopies")
	}
	checkNoPanic(t, "stragglers.GRASS", grassFunc(p), tasks, hostileSlots(t))
}

func TestGRASSNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testGRASSNoPanic)
}

func FuzzGRASS(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testGRASSNoPanic)) }

func TestGRASSErrors(t *testing.T) {
	t.Parallel()
	const fn = "stragglers.GRASS"
	checkTaskErrors(t, fn, grassFunc(DefaultGRASS()))
	_, err := GRASS(nil, []TaskStatus{{Task: Task{State: Finished}}, {}}, 1, DefaultGRASS(), nil)
	wantError(t, "t_new 0", fn, err, 1, "NewCopy")
	for _, tc := range []struct {
		field string
		p     GRASSConfig
	}{
		{"SwitchWaves", GRASSConfig{SwitchWaves: -1, MaxCopies: 2}},
		{"MaxCopies", GRASSConfig{MaxCopies: 0}},
		{"MinElapsed", GRASSConfig{MaxCopies: 2, MinElapsed: math.Inf(1)}},
	} {
		_, err := GRASS(nil, nil, 1, tc.p, nil)
		wantError(t, tc.field, fn, err, -1, tc.field)
	}
}

// TestGRASSOverflow: RAS (SwitchWaves 0) keeps its test and order where c·t_rem and
// (c+1)·t_new overflow: t_rem = MaxFloat64 with 3 copies against
// t_new = MaxFloat64/2 (3/4·t_rem > t_new: a saving) and t_new = 0.9·Max
// (3/4·t_rem < t_new: none).
func TestGRASSOverflow(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{
		{Task: Task{State: Running, Copies: 3, Remaining: math.MaxFloat64}, NewCopy: 0.9 * math.MaxFloat64},
		{Task: Task{State: Running, Copies: 3, Remaining: math.MaxFloat64}, NewCopy: math.MaxFloat64 / 2},
		{NewCopy: 1}, {NewCopy: 1}, {NewCopy: 1}, {NewCopy: 1},
	}
	ras := DefaultGRASS()
	ras.SwitchWaves = 0
	got, err := GRASS(nil, tasks, 8, ras, nil)
	if want := []Action{{Task: 2, Kind: Launch}, {Task: 1, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}
