package stragglers

import (
	"errors"
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// TestDollyClonesExample works the admission by hand with the defaults
// (p = ε = 5%, at most 3 copies, β = 5%) on a cluster of 1000 slots:
//   - 1 task: 1 − 0.95 = 0.05 ≤ ε already, no clone;
//   - 10 tasks: 1 − 0.95^10 ≈ 0.40 > ε, 1 − (1 − 0.05²)^10 ≈ 0.025 ≤ ε:
//     2 copies, 10 clones, within the budget of 50 while at most 40 run;
//   - 100 tasks: 3 copies (1 − (1 − 0.05³)^100 ≈ 0.012), but 200 clones
//     exceed the budget: the large job runs uncloned.
func TestDollyClonesExample(t *testing.T) {
	t.Parallel()
	p := DefaultDolly()
	cluster := DollyCluster{Slots: 1000, Clones: 40, Utilization: 0.5}
	for _, tc := range []struct{ n, want int }{{1, 1}, {10, 2}, {100, 1}, {0, 1}} {
		if got, err := DollyClones(tc.n, cluster, p); err != nil || got != tc.want {
			t.Errorf("n = %d: %d, %v; want %d", tc.n, got, err, tc.want)
		}
	}
	if got := dollyCount(100, p); got != 3 {
		t.Errorf("dollyCount(100) = %d, want 3", got)
	}
	cluster.Clones = 41 // 41 + 10 > 50
	if got, _ := DollyClones(10, cluster, p); got != 1 {
		t.Errorf("budget full: %d, want 1", got)
	}
	cluster.Clones, cluster.Utilization, p.Utilization = 0, 0.9, 0.8
	if got, _ := DollyClones(10, cluster, p); got != 1 {
		t.Errorf("above τ: %d, want 1", got)
	}
}

// dollyCountReference is the least c with 1 − (1 − p^c)^n ≤ ε by
// math.Pow, and whether a c lies within a rounding of the bound.
func dollyCountReference(n int, p DollyConfig) (int, bool) {
	boundary := false
	for c := 1; c < p.MaxClones; c++ {
		risk := 1 - math.Pow(1-math.Pow(p.StraggleProb, float64(c)), float64(n))
		if math.Abs(risk-p.Epsilon) < 1e-9 {
			boundary = true
		}
		if risk <= p.Epsilon {
			return c, boundary
		}
	}
	return p.MaxClones, boundary
}

func dollyConfigGen() *rapid.Generator[DollyConfig] {
	return rapid.Custom(func(t *rapid.T) DollyConfig {
		return DollyConfig{
			Budget:       rapid.SampledFrom([]float64{0, 0.05, 0.2, 1}).Draw(t, "budget"),
			Utilization:  rapid.SampledFrom([]float64{0, 0.5, 1}).Draw(t, "tau"),
			StraggleProb: rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.05, 0.5, 1})).Draw(t, "p"),
			Epsilon:      rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.05, 1})).Draw(t, "epsilon"),
			MaxClones:    rapid.IntRange(1, 5).Draw(t, "max clones"),
		}
	})
}

func testDollyClones(t *rapid.T) {
	p := dollyConfigGen().Draw(t, "config")
	n := rapid.IntRange(0, 300).Draw(t, "n")
	cluster := DollyCluster{
		Slots:       rapid.IntRange(0, 2000).Draw(t, "slots"),
		Clones:      rapid.IntRange(0, 100).Draw(t, "clones"),
		Utilization: rapid.SampledFrom([]float64{0, 0.3, 0.5, 0.9, 1}).Draw(t, "utilization"),
	}
	got, err := DollyClones(n, cluster, p)
	if err != nil {
		t.Fatalf("error %v", err)
	}
	c, boundary := dollyCountReference(n, p)
	if n == 0 {
		c = 1
	}
	want := c
	if c == 1 || cluster.Utilization > p.Utilization || n*(c-1)+cluster.Clones > int(math.Floor(p.Budget*float64(cluster.Slots))) {
		want = 1
	}
	if got < 1 || got > p.MaxClones {
		t.Fatalf("%d copies, outside [1, %d]", got, p.MaxClones)
	}
	if got > 1 && n*(got-1)+cluster.Clones > int(math.Floor(p.Budget*float64(cluster.Slots))) {
		t.Fatalf("%d copies of %d tasks overflow the budget", got, n)
	}
	if !boundary && got != want {
		t.Fatalf("%d copies, want %d", got, want)
	}
}

// TestDollyClones: the admission against the straggling probability by
// math.Pow, the budget and τ re-stated in integers; never above MaxClones
// or the budget.
func TestDollyClones(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testDollyClones)
}

func testDollyClonesNoPanic(t *rapid.T) {
	p := dollyConfigGen().Draw(t, "config")
	switch rapid.IntRange(0, 6).Draw(t, "corrupt") {
	case 0:
		p.Budget = badFloat(t, "Budget")
	case 1:
		p.Epsilon = badFloat(t, "Epsilon")
	case 2:
		p.StraggleProb = badFloat(t, "StraggleProb")
	case 3:
		p.MaxClones = rapid.SampledFrom([]int{0, -1, math.MaxInt}).Draw(t, "MaxClones")
	case 4:
		p.Utilization = badFloat(t, "Utilization")
	}
	cluster := DollyCluster{Slots: hostileSlots(t), Clones: hostileSlots(t), Utilization: badFloat(t, "cluster utilization")}
	n := hostileSlots(t)
	got, err := DollyClones(n, cluster, p)
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "stragglers.DollyClones" || got != 0 {
			t.Fatalf("error %v (result %d) is not a stragglers.DollyClones *InputError", err, got)
		}
		return
	}
	if got < 1 || got > p.MaxClones {
		t.Fatalf("%d copies", got)
	}
}

func TestDollyClonesNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testDollyClonesNoPanic)
}

func FuzzDollyClones(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testDollyClonesNoPanic)) }

// TestDollyExample: four queued tasks, 3 copies each, 7 free slots: all
// four launch, then task 0 gets its two clones and task 1 one; a running
// task (index 5) gets none.
func TestDollyExample(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{{}, {}, {Task: Task{State: Finished}}, {}, {}, {Task: Task{State: Running, Copies: 1, Remaining: 9}}}
	got, err := Dolly(nil, tasks, 8, 3, nil)
	want := []Action{{Task: 0, Kind: Launch}, {Task: 1, Kind: Launch}, {Task: 3, Kind: Launch}, {Task: 4, Kind: Launch}, {Task: 0, Kind: Copy}, {Task: 0, Kind: Copy}, {Task: 1, Kind: Copy}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

func testDollyLaunch(t *rapid.T) {
	tasks := statusGen(30).Draw(t, "tasks")
	slots := baselineSlots(t, tasks)
	clones := rapid.IntRange(1, 4).Draw(t, "clones")
	orig := slices.Clone(tasks)
	var ws Workspace
	got, err := Dolly(make([]Action, 0, rapid.IntRange(0, 4).Draw(t, "cap")), tasks, slots, clones, &ws)
	if err != nil {
		t.Fatalf("error %v", err)
	}
	if d := gocmp.Diff(orig, tasks); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	unscheduled, _, _, busy, _ := counts(tasks)
	free := max(0, slots-busy)
	launches := min(unscheduled, free)
	clonesWanted := min(free-launches, launches*(clones-1))
	if len(got) != launches+clonesWanted {
		t.Fatalf("%d actions, want %d launches and %d clones", len(got), launches, clonesWanted)
	}
	var launched []int
	perTask := map[int]int{}
	for k, a := range got {
		switch {
		case k < launches:
			if a.Kind != Launch || tasks[a.Task].State != Unscheduled {
				t.Fatalf("action %d = %v: want a launch", k, a)
			}
			launched = append(launched, a.Task)
		case a.Kind != Copy || !slices.Contains(launched, a.Task):
			t.Fatalf("action %d = %v: want a clone of a launched task", k, a)
		default:
			perTask[a.Task]++
		}
	}
	for k, i := range launched {
		// The first launched tasks in index order, filled in order.
		want := min(clones-1, max(0, clonesWanted-k*(clones-1)))
		if perTask[i] != want {
			t.Fatalf("task %d: %d clones, want %d", i, perTask[i], want)
		}
	}
	wantLaunched := []int{}
	for i, task := range tasks {
		if task.State == Unscheduled && len(wantLaunched) < launches {
			wantLaunched = append(wantLaunched, i)
		}
	}
	if !slices.Equal(launched, wantLaunched) && launches > 0 {
		t.Fatalf("launched %v, want %v", launched, wantLaunched)
	}
}

// TestDollyLaunch: Dolly's launches against their re-statement — the
// first unscheduled tasks, originals before clones, clones − 1 clones each
// in index order while slots last, none for running tasks.
func TestDollyLaunch(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testDollyLaunch)
}

func testDollyNoPanic(t *rapid.T) {
	tasks := statusGen(12).Draw(t, "tasks")
	corruptStatus(t, tasks)
	clones := rapid.SampledFrom([]int{-1, 0, 1, 2, 3, math.MaxInt}).Draw(t, "clones")
	f := func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return Dolly(dst, tasks, slots, clones, ws)
	}
	checkNoPanic(t, "stragglers.Dolly", f, tasks, hostileSlots(t))
}

func TestDollyNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testDollyNoPanic)
}

func FuzzDolly(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testDollyNoPanic)) }

func TestDollyErrors(t *testing.T) {
	t.Parallel()
	checkTaskErrors(t, "stragglers.Dolly", func(dst []Action, tasks []TaskStatus, slots int, ws *Workspace) ([]Action, error) {
		return Dolly(dst, tasks, slots, 2, ws)
	})
	_, err := Dolly(nil, nil, 1, 0, nil)
	wantError(t, "clones", "stragglers.Dolly", err, -1, "clones")
	const fn = "stragglers.DollyClones"
	ok := DollyCluster{Slots: 10}
	for _, tc := range []struct {
		field   string
		n       int
		cluster DollyCluster
		p       DollyConfig
	}{
		{"Budget", 1, ok, DollyConfig{Budget: 2, MaxClones: 1}},
		{"Utilization", 1, ok, DollyConfig{Utilization: -1, MaxClones: 1}},
		{"StraggleProb", 1, ok, DollyConfig{StraggleProb: math.NaN(), MaxClones: 1}},
		{"Epsilon", 1, ok, DollyConfig{Epsilon: math.Inf(1), MaxClones: 1}},
		{"MaxClones", 1, ok, DollyConfig{}},
		{"n", -1, ok, DefaultDolly()},
		{"cluster.Slots", 1, DollyCluster{Slots: -1}, DefaultDolly()},
		{"cluster.Clones", 1, DollyCluster{Clones: -1}, DefaultDolly()},
		{"cluster.Utilization", 1, DollyCluster{Utilization: 1.5}, DefaultDolly()},
	} {
		_, err := DollyClones(tc.n, tc.cluster, tc.p)
		wantError(t, tc.field, fn, err, -1, tc.field)
	}
}
