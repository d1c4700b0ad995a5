package stragglers

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/selection"
)

// baselineFunc is the common signature of the baseline rules, with their
// configuration bound.
type baselineFunc func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error)

// statusGen draws a job's tasks in every state, with every field set (the
// rules must ignore the fields they do not read): few distinct values
// (ties) or continuous ones, elapsed times of 0 among them.
func statusGen(maxN int) *rapid.Generator[[]TaskStatus] {
	return rapid.Custom(func(t *rapid.T) []TaskStatus {
		n := rapid.IntRange(0, maxN).Draw(t, "n")
		few := rapid.Bool().Draw(t, "few values")
		tasks := make([]TaskStatus, n)
		for i := range tasks {
			st := TaskState(rapid.IntRange(0, 2).Draw(t, "state"))
			task := TaskStatus{Task: Task{State: st}}
			if st == Running {
				task.Copies = rapid.IntRange(1, 3).Draw(t, "copies")
			}
			if few {
				task.Remaining = float64(rapid.IntRange(0, 6).Draw(t, "remaining"))
				task.Elapsed = float64(rapid.IntRange(0, 4).Draw(t, "elapsed"))
				task.Progress = float64(rapid.IntRange(0, 4).Draw(t, "progress")) / 4
				task.Duration = float64(rapid.IntRange(0, 5).Draw(t, "duration"))
				task.NewCopy = float64(rapid.IntRange(1, 3).Draw(t, "new copy"))
			} else {
				task.Remaining = rapid.Float64Range(0, 20).Draw(t, "remaining")
				task.Elapsed = rapid.Float64Range(0, 5).Draw(t, "elapsed")
				task.Progress = rapid.Float64Range(0, 1).Draw(t, "progress")
				task.Duration = rapid.Float64Range(0, 8).Draw(t, "duration")
				task.NewCopy = rapid.Float64Range(0.1, 6).Draw(t, "new copy")
			}
			tasks[i] = task
		}
		return tasks
	})
}

// baselineSlots draws the job's slots: usually its busy slots plus a few.
func baselineSlots(t *rapid.T, tasks []TaskStatus) int {
	busy := 0
	for _, task := range tasks {
		busy += task.Copies
	}
	return rapid.OneOf(rapid.IntRange(0, 40), rapid.IntRange(busy, busy+len(tasks)+3)).Draw(t, "slots")
}

// expected is a rule re-stated: the number of launches (of the first
// unscheduled tasks in index order, unless launchSet is given), the tasks
// the rule lets be copied with their order (before(a, b): a is preferred),
// and how many copies it grants.
type expected struct {
	launches  int
	launchSet []int // GS only: the launched tasks, when chosen by rank
	eligible  []int
	before    func(a, b int) bool
	copies    int
	boundary  bool // a rounding tie decides eligibility: skip the exact check
}

// checkBaseline runs a rule and checks what every rule guarantees — no
// more actions than free slots, launches of unscheduled tasks and copies of
// running ones below maxCopies, each task once, launches first and index
// order, inputs unmodified, determinism, dst reuse — and, against want, the
// rule itself: the launched tasks, and that the copies are exactly the
// want.copies best eligible tasks.
func checkBaseline(t *rapid.T, f baselineFunc, tasks []TaskStatus, slots, maxCopies int, want expected) []Action {
	orig := slices.Clone(tasks)
	var ws Workspace
	dst := make([]Action, rapid.IntRange(0, 6).Draw(t, "cap"))
	got, err := f(dst, tasks, slots, &ws)
	if err != nil {
		t.Fatalf("error %v", err)
	}
	if d := gocmp.Diff(orig, tasks); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	again, _ := f(nil, tasks, slots, &ws)
	if !slices.Equal(again, got) {
		t.Fatalf("not deterministic: %v then %v", got, again)
	}
	busy := 0
	for _, task := range tasks {
		busy += task.Copies
	}
	if len(got) > max(0, slots-busy) {
		t.Fatalf("%d actions for %d free slots", len(got), max(0, slots-busy))
	}
	seen := map[int]bool{}
	var launched, copied []int
	for k, a := range got {
		if a.Task < 0 || a.Task >= len(tasks) || seen[a.Task] {
			t.Fatalf("action %v: bad or repeated task", a)
		}
		seen[a.Task] = true
		task := tasks[a.Task]
		switch a.Kind {
		case Launch:
			if task.State != Unscheduled || len(copied) > 0 {
				t.Fatalf("launch %v of a %v task, or after a copy", a, task.State)
			}
			launched = append(launched, a.Task)
		case Copy:
			if task.State != Running || task.Copies >= maxCopies {
				t.Fatalf("copy %v of a %v task with %d copies (max %d)", a, task.State, task.Copies, maxCopies)
			}
			copied = append(copied, a.Task)
		default:
			t.Fatalf("action %d: %v", k, a)
		}
	}
	if !slices.IsSorted(launched) || !slices.IsSorted(copied) {
		t.Fatalf("not in index order: %v", got)
	}
	wantLaunched := want.launchSet
	if wantLaunched == nil {
		wantLaunched = []int{}
		for i, task := range tasks {
			if task.State == Unscheduled && len(wantLaunched) < want.launches {
				wantLaunched = append(wantLaunched, i)
			}
		}
	}
	if want.boundary {
		return got
	}
	if !slices.Equal(launched, wantLaunched) && !(len(launched) == 0 && len(wantLaunched) == 0) {
		t.Fatalf("launched %v, want %v", launched, wantLaunched)
	}
	if len(copied) != want.copies {
		t.Fatalf("%d copies %v, want %d (eligible %v)", len(copied), copied, want.copies, want.eligible)
	}
	for _, i := range copied {
		if !slices.Contains(want.eligible, i) {
			t.Fatalf("copy of task %d, not eligible (%v)", i, want.eligible)
		}
	}
	// Exchange: every copied task is preferred to every eligible one left.
	for _, i := range copied {
		for _, j := range want.eligible {
			if !slices.Contains(copied, j) && !want.before(i, j) {
				t.Fatalf("task %d copied before %d, which the rule prefers", i, j)
			}
		}
	}
	return got
}

// counts re-counts a job for the references.
func counts(tasks []TaskStatus) (unscheduled, running, finished, busy, extra int) {
	for _, task := range tasks {
		switch task.State {
		case Unscheduled:
			unscheduled++
		case Running:
			running++
			busy += task.Copies
			extra += task.Copies - 1
		default:
			finished++
		}
	}
	return
}

// preferLarger is the usual order of the references: larger key first,
// ties to the smaller index.
func preferLarger(key func(i int) float64) func(a, b int) bool {
	return func(a, b int) bool {
		if ka, kb := key(a), key(b); ka != kb {
			return ka > kb
		}
		return a < b
	}
}

// corruptStatus corrupts one field of a task with a value no rule
// accepts.
func corruptStatus(t *rapid.T, tasks []TaskStatus) {
	if len(tasks) == 0 {
		return
	}
	i := rapid.IntRange(0, len(tasks)-1).Draw(t, "corrupt task")
	switch rapid.IntRange(0, 7).Draw(t, "corrupt field") {
	case 0:
		tasks[i].Remaining = badFloat(t, "Remaining")
	case 1:
		tasks[i].Elapsed = badFloat(t, "Elapsed")
	case 2:
		tasks[i].Copies = rapid.SampledFrom([]int{-1, 0, 1, math.MaxInt}).Draw(t, "copies")
	case 3:
		tasks[i].State = TaskState(rapid.IntRange(0, 255).Draw(t, "state"))
	case 4:
		tasks[i].Progress = rapid.SampledFrom([]float64{-0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1)}).Draw(t, "progress")
	case 5:
		tasks[i].Duration = badFloat(t, "Duration")
	case 6:
		tasks[i].NewCopy = rapid.SampledFrom([]float64{0, -1, math.NaN(), math.Inf(1)}).Draw(t, "new copy")
	}
}

// checkNoPanic calls a rule on hostile input: an *InputError of fn with
// dst untouched, or actions within the slots.
func checkNoPanic(t *rapid.T, fn string, f baselineFunc, tasks []TaskStatus, slots int) {
	sentinel := []Action{{Task: 42, Kind: Copy}}
	got, err := f(sentinel[:0:1], tasks, slots, nil)
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != fn || ie.Field == "" {
			t.Fatalf("error %v is not a %s *InputError", err, fn)
		}
		if got != nil || sentinel[0] != (Action{Task: 42, Kind: Copy}) {
			t.Fatalf("on error: got %v, dst %v", got, sentinel)
		}
		return
	}
	if len(got) > max(slots, 0) {
		t.Fatalf("%d actions for %d slots", len(got), slots)
	}
}

// hostileSlots draws slots, sometimes out of range.
func hostileSlots(t *rapid.T) int {
	return rapid.OneOf(rapid.IntRange(0, 60), rapid.SampledFrom([]int{-1, math.MinInt, math.MaxInt, 1<<53 + 1})).Draw(t, "slots")
}

// wantError checks that err is fn's InputError on field at index.
func wantError(t *testing.T, name, fn string, err error, index int, field string) {
	t.Helper()
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn || ie.Index != index || ie.Field != field {
		t.Errorf("%s: %v; want %s's InputError on %s at %d", name, err, fn, field, index)
	}
}

// taskErrorCases are the invalid tasks every baseline rejects, with the
// index and field named.
var taskErrorCases = []struct {
	name  string
	tasks []TaskStatus
	index int
	field string
}{
	{"State", []TaskStatus{{NewCopy: 1}, {Task: Task{State: 7}}}, 1, "State"},
	{"copies of finished", []TaskStatus{{Task: Task{State: Finished, Copies: 1}}}, 0, "Copies"},
	{"running without copy", []TaskStatus{{NewCopy: 1}, {Task: Task{State: Running}, NewCopy: 1}}, 1, "Copies"},
	{"Elapsed", []TaskStatus{{Task: Task{State: Running, Copies: 1, Elapsed: -1}, NewCopy: 1}}, 0, "Elapsed"},
	{"Remaining", []TaskStatus{{Task: Task{State: Running, Copies: 1, Remaining: math.NaN()}, NewCopy: 1}}, 0, "Remaining"},
	{"Progress", []TaskStatus{{NewCopy: 1}, {NewCopy: 1}, {Progress: 1.01, NewCopy: 1}}, 2, "Progress"},
	{"Duration", []TaskStatus{{Task: Task{State: Finished}, Duration: math.Inf(1)}}, 0, "Duration"},
	{"NewCopy", []TaskStatus{{Task: Task{State: Finished}, NewCopy: -1}}, 0, "NewCopy"},
}

// checkTaskErrors runs taskErrorCases and the slots and dst errors
// through a rule.
func checkTaskErrors(t *testing.T, fn string, f baselineFunc) {
	t.Helper()
	for _, tc := range taskErrorCases {
		_, err := f(nil, tc.tasks, 4, nil)
		wantError(t, tc.name, fn, err, tc.index, tc.field)
	}
	for _, slots := range []int{-1, 1<<53 + 1} {
		_, err := f(nil, nil, slots, nil)
		wantError(t, "slots", fn, err, -1, "slots")
	}
	tasks := []TaskStatus{{NewCopy: 1}, {NewCopy: 1}}
	_, err := f(overlay[Action](tasks, 0, 2), tasks, 4, nil)
	wantDstError(t, "dst over tasks", fn, err)
}

// checkAllocs: with a reused Workspace and dst, no allocation.
func checkAllocs(t *testing.T, name string, f baselineFunc, tasks []TaskStatus, slots int) {
	t.Helper()
	var ws Workspace
	acts, err := f(nil, tasks, slots, &ws)
	if err != nil || len(acts) == 0 {
		t.Fatalf("%s: %v, %v: the fixture exercises nothing", name, acts, err)
	}
	if n := testing.AllocsPerRun(10, func() { acts, _ = f(acts, tasks, slots, &ws) }); n != 0 {
		t.Errorf("%s allocates %v per call", name, n)
	}
}

// statusFixture is speculateFixture's job with the baselines' fields: a
// progress score consistent with the remaining time, the durations of the
// finished tasks, and t_new 3. Without queued, its unscheduled tasks are
// finished instead, so that the free slots go to copies.
func statusFixture(n int, queued bool) ([]TaskStatus, int) {
	tasks, slots, _ := speculateFixture(n, ThesisRule)
	out := make([]TaskStatus, n)
	for i, task := range tasks {
		if task.State == Unscheduled && !queued {
			task.State = Finished
		}
		out[i] = TaskStatus{Task: task, NewCopy: 3}
		switch task.State {
		case Running:
			out[i].Progress = task.Elapsed / (task.Elapsed + task.Remaining)
		case Finished:
			out[i].Duration = 1 + float64(i%7)
		}
	}
	return out, slots
}

// baselineRules are the rules with their defaults, for the allocation
// test and the benchmark.
func baselineRules() []struct {
	name string
	f    baselineFunc
} {
	return []struct {
		name string
		f    baselineFunc
	}{
		{"LATE", lateFunc(DefaultLATE())},
		{"GRASS", grassFunc(DefaultGRASS())},
		{"GRASS/RAS", grassFunc(GRASSConfig{MaxCopies: DefaultMaxCopies})},
		{"SparkSpeculate", sparkFunc(SparkConfig{Multiplier: 0.5, Quantile: 0.25})}, // the fixture's tasks run < 3
		{"HadoopSpeculate", hadoopFunc(DefaultHadoop())},
		{"Dolly/queued", func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
			return Dolly(dst, tasks, slots, 2, ws)
		}},
	}
}

// TestBaselineSteadyStateAllocs: with a reused Workspace and a dst of
// enough capacity, every baseline allocates nothing (the documented
// contract), on a job that exercises its selection.
func TestBaselineSteadyStateAllocs(t *testing.T) {
	for _, r := range baselineRules() {
		tasks, slots := statusFixture(1000, strings.HasSuffix(r.name, "queued"))
		checkAllocs(t, r.name, r.f, tasks, slots)
	}
}

// statsView returns the job as a caller of the Stats forms holds it: its
// unfinished tasks (all its tasks, when keepFinished: the forms must not
// read the finished ones) with their indices in tasks, and the summary of
// the finished ones — the median by the package's median (checked against
// a sort by the rule tests), the mean by meanDuration.
func statsView(tasks []TaskStatus, keepFinished bool) (view []TaskStatus, at []int, stage StageStats) {
	var durations []float64
	for i, task := range tasks {
		if task.State == Finished {
			durations = append(durations, task.Duration)
		}
		if task.State != Finished || keepFinished {
			view = append(view, task)
			at = append(at, i)
		}
	}
	stage = StageStats{Tasks: len(tasks), Finished: len(durations)}
	if len(durations) > 0 {
		stage.Median = selection.Median(durations)
		stage.Mean = meanDuration(tasks, len(durations))
	}
	return view, at, stage
}

// checkStatsForm checks that a Stats form, given the view and summary of
// statsView, decides as the full form on the whole job.
func checkStatsForm(t *rapid.T, full baselineFunc, stats func(dst []Action, tasks []TaskStatus, stage StageStats, slots int) ([]Action, error)) {
	tasks := statusGen(30).Draw(t, "tasks")
	slots := baselineSlots(t, tasks)
	want, err := full(nil, tasks, slots, nil)
	if err != nil {
		t.Fatalf("full form: %v", err)
	}
	view, at, stage := statsView(tasks, rapid.Bool().Draw(t, "keep finished"))
	got, err := stats(nil, view, stage, slots)
	if err != nil {
		t.Fatalf("Stats form: %v", err)
	}
	for k := range got {
		got[k].Task = at[got[k].Task]
	}
	if !slices.Equal(got, want) && len(got)+len(want) > 0 {
		t.Fatalf("Stats form %v, full form %v", got, want)
	}
}

// checkStageErrors: the Stats forms reject a stage that does not count
// the tasks given or holds a bad statistic.
func checkStageErrors(t *testing.T, fn, stat string, stats func(tasks []TaskStatus, stage StageStats) error) {
	t.Helper()
	two := []TaskStatus{{}, {Task: Task{State: Running, Copies: 1}}}
	for _, tc := range []struct {
		field string
		stage StageStats
	}{
		{"stage.Finished", StageStats{Tasks: 5, Finished: -1}},
		{"stage.Tasks", StageStats{Tasks: 2, Finished: 1}},
		{"stage.Tasks", StageStats{Tasks: -1}},
		{"stage." + stat, StageStats{Tasks: 3, Finished: 1, Median: math.NaN(), Mean: math.NaN()}},
		{"stage." + stat, StageStats{Tasks: 3, Finished: 1, Median: -1, Mean: -1}},
	} {
		wantError(t, tc.field, fn, stats(two, tc.stage), -1, tc.field)
	}
	if err := stats(two, StageStats{Tasks: 2}); err != nil {
		t.Errorf("a stage of the two tasks given: %v", err)
	}
}

// checkStatsNoPanic calls a Stats form on hostile tasks and a hostile
// stage (counts out of range or inconsistent, bad statistics).
func checkStatsNoPanic(t *rapid.T, fn string, stats func(dst []Action, tasks []TaskStatus, stage StageStats, slots int, ws *Workspace) ([]Action, error)) {
	tasks := statusGen(12).Draw(t, "tasks")
	corruptStatus(t, tasks)
	stage := StageStats{
		Tasks:    rapid.SampledFrom([]int{-1, 0, 5, 20, math.MaxInt}).Draw(t, "stage tasks"),
		Finished: rapid.SampledFrom([]int{-1, 0, 3, 10, math.MaxInt}).Draw(t, "stage finished"),
		Median:   badFloat(t, "median"),
		Mean:     badFloat(t, "mean"),
	}
	f := func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return stats(dst, tasks, stage, slots, ws)
	}
	checkNoPanic(t, fn, f, tasks, hostileSlots(t))
}
