package competitive

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// TestProgressRem: worked examples of the progress-rate estimate. Work 10,
// 2 done in 1 slot: rate 2, 8 left, 4 slots; 5 done in 4 slots: rate
// 1.25, 5 left, 4 slots; no progress: +Inf; done: 0.
func TestProgressRem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		work, progress float64
		elapsed        int
		want           float64
	}{{10, 2, 1, 4}, {10, 5, 4, 4}, {10, 0, 3, math.Inf(1)}, {10, 10, 3, 0}, {10, 12, 3, 0}, {3, 1, 2, 4}} {
		if got := progressRem(c.work, c.progress, c.elapsed); got != c.want {
			t.Errorf("progressRem(%v, %v, %d) = %v, want %v", c.work, c.progress, c.elapsed, got, c.want)
		}
	}
}

// TestMantriBar: at the bar, Pr(T_new < bar) is exactly δ (the normal CDF,
// computed independently of the quantile); without spread the bar is
// t_new; a threshold below ½ puts it below t_new.
func TestMantriBar(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ tNew, sd, delta float64 }{{10, 2, 0.25}, {4, 0.5, 0.1}, {100, 30, 0.6}} {
		bar := mantriBar(c.tNew, c.sd, c.delta)
		if p := distuv.UnitNormal.CDF((bar - c.tNew) / c.sd); math.Abs(p-c.delta) > 1e-9 {
			t.Errorf("tNew %v sd %v: Φ((bar − tNew)/sd) = %v, want %v", c.tNew, c.sd, p, c.delta)
		}
		if (bar < c.tNew) != (c.delta < 0.5) {
			t.Errorf("tNew %v sd %v δ %v: bar %v on the wrong side of t_new", c.tNew, c.sd, c.delta, bar)
		}
	}
	if bar := mantriBar(7, 0, MantriThreshold); bar != 7 {
		t.Errorf("sd 0: bar %v, want t_new 7", bar)
	}
	// Φ⁻¹(0.25) = −0.6744897501960817.
	if bar := mantriBar(10, 2, MantriThreshold); math.Abs(bar-(10-2*0.6744897501960817)) > 1e-12 {
		t.Errorf("bar %v, want 10 − 2·0.67449", bar)
	}
}

// drawViews draws running tasks with copies in [1, 3] and t_rem among a
// few values (ties, +Inf, 0).
func drawViews(t *rapid.T) []runView {
	n := rapid.IntRange(0, 6).Draw(t, "running")
	views := make([]runView, n)
	for i := range views {
		views[i] = runView{
			copies: rapid.IntRange(1, 3).Draw(t, "copies"),
			rem:    rapid.SampledFrom([]float64{0, 1, 3, 4.5, 9, 20, math.Inf(1)}).Draw(t, "rem"),
		}
	}
	return views
}

// testMantriActions checks mantriActions against Mantri's rule as
// specified, action by action: at most free copies, one each; launches of
// distinct unscheduled ordinals, all of them before any copy; copies only
// of distinct running tasks past the bar (the threshold); no free machine
// left while a task waits or a candidate goes uncopied (maximality); and
// no uncopied candidate with a larger c/(c+1)·t_rem than a copied one, or
// an equal one and a smaller index (the order).
func testMantriActions(t *rapid.T) {
	views := drawViews(t)
	u := rapid.IntRange(0, 4).Draw(t, "unscheduled")
	free := rapid.IntRange(0, 8).Draw(t, "free")
	bar := rapid.SampledFrom([]float64{0, 2, 4, 8.9, 10}).Draw(t, "bar")
	acts, _ := mantriActions(nil, nil, 3, ReduceStage, u, views, free, bar)
	launched, copied := map[int]bool{}, map[int]bool{}
	for _, a := range acts {
		if a.Job != 3 || a.Stage != ReduceStage || a.Copies != 1 {
			t.Fatalf("action %+v: want job 3, reduce, one copy", a)
		}
		switch a.Kind {
		case Launch:
			if a.Task < 0 || a.Task >= u || launched[a.Task] || len(copied) > 0 {
				t.Fatalf("launch %+v: out of range, twice or after a copy (%v)", a, acts)
			}
			launched[a.Task] = true
		case Clone:
			if a.Task < 0 || a.Task >= len(views) || copied[a.Task] {
				t.Fatalf("clone %+v: out of range or twice", a)
			}
			if v := views[a.Task]; !(float64(v.copies)/float64(v.copies+1)*v.rem > bar) {
				t.Fatalf("clone of task %d (c %d, t_rem %v) at or below the bar %v", a.Task, v.copies, v.rem, bar)
			}
			copied[a.Task] = true
		default:
			t.Fatalf("action %+v", a)
		}
	}
	if len(acts) > free {
		t.Fatalf("%d actions on %d free machines", len(acts), free)
	}
	key := func(i int) float64 { return float64(views[i].copies) / float64(views[i].copies+1) * views[i].rem }
	for i := range views {
		if copied[i] || !(key(i) > bar) {
			continue
		}
		if len(acts) < free {
			t.Fatalf("candidate %d uncopied with %d of %d machines used", i, len(acts), free)
		}
		for k := range copied {
			if key(i) > key(k) || (key(i) == key(k) && i < k) {
				t.Fatalf("candidate %d (key %v) passed over for %d (key %v)", i, key(i), k, key(k))
			}
		}
	}
	if len(launched) < u && len(acts) < free {
		t.Fatalf("%d of %d tasks launched with %d of %d machines used", len(launched), u, len(acts), free)
	}
}

func TestMantriActions(t *testing.T) { t.Parallel(); rapid.Check(t, testMantriActions) }

// TestMantriActionsExample: three running tasks, one copy each, t_rem 30,
// 9 and 25 against a bar of 8: keys 15, 4.5, 12.5; with one task waiting
// and three free machines, the task is launched and the two free machines
// left copy tasks 0 and 2, in that order.
func TestMantriActionsExample(t *testing.T) {
	t.Parallel()
	views := []runView{{1, 30}, {1, 9}, {1, 25}}
	got, _ := mantriActions(nil, nil, 0, MapStage, 1, views, 3, 8)
	want := []Action{{Kind: Launch, Task: 0, Copies: 1}, {Kind: Clone, Task: 0, Copies: 1}, {Kind: Clone, Task: 2, Copies: 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	// Ties go to the smaller index: four tasks of key 4.5 (t_rem 9 on one
	// copy, and 6 on three: 3/4·6) and two free machines.
	tied := []runView{{1, 9}, {3, 6}, {1, 9}, {1, 9}}
	got, _ = mantriActions(nil, nil, 0, MapStage, 0, tied, 2, 1)
	if want := []Action{{Kind: Clone, Task: 0, Copies: 1}, {Kind: Clone, Task: 1, Copies: 1}}; !slices.Equal(got, want) {
		t.Fatalf("ties: got %+v, want %+v", got, want)
	}
	// The same with 50 tied tasks (beyond the few a sort orders by
	// insertion) and a larger key among them: task 37 first, then 0–8.
	many := make([]runView, 50)
	for i := range many {
		many[i] = runView{1, 9}
	}
	many[37].rem = 11
	got, _ = mantriActions(nil, nil, 0, MapStage, 0, many, 10, 1)
	want = []Action{{Kind: Clone, Task: 37, Copies: 1}}
	for i := range 9 {
		want = append(want, Action{Kind: Clone, Task: i, Copies: 1})
	}
	if !slices.Equal(got, want) {
		t.Fatalf("50 ties: got %+v, want %+v", got, want)
	}
	// Two copies of task 0 already: key 2/3·30 = 20, still first.
	views[0].copies = 2
	got, _ = mantriActions(nil, nil, 0, MapStage, 0, views, 1, 8)
	if want := []Action{{Kind: Clone, Task: 0, Copies: 1}}; !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// testDollyActions checks dollyActions against its closed form: launches
// min(free, u) tasks, ordinals 0.., with min(free, launches·clones) copies
// in all, non-increasing along the tasks, each between 1 and clones.
func testDollyActions(t *rapid.T) {
	u := rapid.IntRange(0, 6).Draw(t, "unscheduled")
	free := rapid.IntRange(0, 20).Draw(t, "free")
	clones := rapid.IntRange(1, 4).Draw(t, "clones")
	acts := dollyActions(nil, 2, MapStage, u, free, clones)
	if want := min(free, u); len(acts) != want {
		t.Fatalf("%d launches, want %d", len(acts), want)
	}
	total := 0
	for i, a := range acts {
		if a.Kind != Launch || a.Task != i || a.Job != 2 || a.Copies < 1 || a.Copies > clones {
			t.Fatalf("action %d: %+v", i, a)
		}
		if i > 0 && a.Copies > acts[i-1].Copies {
			t.Fatalf("copies increase along the tasks: %+v", acts)
		}
		total += a.Copies
	}
	if want := min(free, len(acts)*clones); total != want {
		t.Fatalf("%d copies, want %d (%+v)", total, want, acts)
	}
}

func TestDollyActions(t *testing.T) { t.Parallel(); rapid.Check(t, testDollyActions) }

// TestGRASSActions: worked examples on stragglers.GRASS's rules, mapped to
// this package's actions (running tasks by index, unscheduled by ordinal).
func TestGRASSActions(t *testing.T) {
	t.Parallel()
	// RAS (8 unfinished tasks > 2 waves of 3 slots): running task 0 (t_rem
	// 5, one copy, t_new 2: 1·5 > 2·2) is worth a copy, task 1 (t_rem 3:
	// 3 < 4) is not; the one free slot copies task 0, before any launch.
	views := []runView{{1, 5}, {1, 3}}
	ws := new(specbase.Workspace)
	got, _, _ := grassActions(nil, nil, nil, ws, 1, MapStage, 6, views, 3, 2)
	if want := []Action{{Job: 1, Kind: Clone, Task: 0, Copies: 1}}; !slices.Equal(got, want) {
		t.Fatalf("RAS: got %+v, want %+v", got, want)
	}
	// GS (3 unfinished ≤ 2 waves of 4 slots): the launch first (t_new 2,
	// a launch wins the tie), then copies of the tasks with t_rem > t_new:
	// task 1 (t_rem 3) but not task 0 once it is at t_rem 1.5; +Inf is
	// capped, not an error.
	views = []runView{{1, 1.5}, {1, 3}}
	got, _, _ = grassActions(nil, nil, nil, ws, 0, ReduceStage, 1, views, 4, 2)
	want := []Action{{Stage: ReduceStage, Kind: Launch, Task: 0, Copies: 1}, {Stage: ReduceStage, Kind: Clone, Task: 1, Copies: 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("GS: got %+v, want %+v", got, want)
	}
	views = []runView{{1, math.Inf(1)}}
	got, _, _ = grassActions(nil, nil, nil, ws, 0, MapStage, 0, views, 2, 2)
	if !slices.Equal(got, []Action{{Kind: Clone, Task: 0, Copies: 1}}) {
		t.Fatalf("t_rem +Inf: got %+v; want a copy", got)
	}
}

// testFairFill checks fairFill against the Fair Scheduler's rule applied
// one machine at a time: each idle machine to the job holding the fewest
// among those that want more, ties to the smaller index.
func testFairFill(t *rapid.T) {
	n := rapid.IntRange(0, 6).Draw(t, "n")
	hold, want := make([]int, n), make([]int, n)
	for k := range hold {
		hold[k] = rapid.IntRange(0, 6).Draw(t, "hold")
		want[k] = rapid.IntRange(0, 6).Draw(t, "want")
	}
	idle := rapid.IntRange(0, 30).Draw(t, "idle")
	got := fairFill(nil, hold, want, idle)
	brute := make([]int, n)
	for range idle {
		best := -1
		for k := range hold {
			if brute[k] < want[k] && (best < 0 || hold[k]+brute[k] < hold[best]+brute[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		brute[best]++
	}
	if !slices.Equal(got, brute) {
		t.Fatalf("hold %v want %v idle %d: fairFill %v, one at a time %v", hold, want, idle, got, brute)
	}
}

func TestFairFill(t *testing.T) { t.Parallel(); rapid.Check(t, testFairFill) }

// TestBaselinesDeterministic: with deterministic service (σ = 0) a
// copy's progress rate is exact, t_rem < t_new always, and neither Mantri
// nor GRASS copies; Dolly does not clone a 3-task job on 2 machines (its
// 3 clones pass the 5% budget) nor a 1-task job (p = ε = 5%: one copy
// straggles with probability ε). Worked by hand on M = 2: job A (3 tasks
// of work 2) and job B (1 task of work 1), both arriving at 0. Slot 1:
// one machine each (max-min); B ends (flow 1). Slot 2: A's second task on
// the free machine. Its first ends then, its second at slot 3, where the
// third starts, ending at slot 4: flow 4.
func TestBaselinesDeterministic(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 3, MapWork: 2}, {MapTasks: 1, MapWork: 1}}
	for _, b := range []Baseline{BaselineMantri, BaselineDolly, BaselineGRASS} {
		flow, stats, err := simulate(jobs, Config{Machines: 2, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: b}, nil)
		if err != nil {
			t.Fatalf("%v: %v", b, err)
		}
		if !slices.Equal(flow, []int{4, 1}) || stats.Cloned != 0 || stats.Launched != 4 || stats.BusyMachineSlots != 7 {
			t.Errorf("%v: flow %v, stats %+v; want flow [4 1], 4 launched, none cloned, 7 busy machine-slots", b, flow, stats)
		}
	}
}

// TestBaselinesOneTask: one task of work 4 on two machines with
// deterministic service: its progress rate is exact, t_rem = 4 − t after
// t slots, never above t_new = 4, and neither Mantri nor GRASS copies it
// although a machine idles: flow 4, one copy, 4 busy machine-slots. At
// speed 2 the same task takes 2 slots.
func TestBaselinesOneTask(t *testing.T) {
	t.Parallel()
	for _, b := range []Baseline{BaselineMantri, BaselineGRASS} {
		for _, speed := range []float64{1, 2} {
			flow, stats, err := simulate([]SimJob{{MapTasks: 1, MapWork: 4}}, Config{Machines: 2, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: b, Speed: speed}, nil)
			if want := int(4 / speed); err != nil || flow[0] != want || stats.Launched != 1 || stats.Cloned != 0 || stats.BusyMachineSlots != want {
				t.Errorf("%v at speed %v: flow %v, stats %+v, err %v; want flow %d, one copy", b, speed, flow, stats, err, want)
			}
		}
	}
}

// TestDollyBudget: Dolly's clones per task, worked from its formula (p = ε
// = 5%): a 2-task job needs 2 copies (1 − 0.95² = 9.75% > 5%, 1 −
// (1 − 0.05²)² = 0.5% ≤ 5%), i.e. 2 clones, within the budget of 5% of 40
// machines = 2. Jobs A and B (2 tasks of work 3) arrive at 0: A is
// cloned (4 copies launched), B is not (2 + 2 > 2). C, the same, arrives
// at 3, once A has finished and released its clones: cloned. D, arriving
// at 3 as well but listed after C, is not (C holds the budget).
func TestDollyBudget(t *testing.T) {
	t.Parallel()
	job := SimJob{MapTasks: 2, MapWork: 3}
	late := job
	late.Arrival = 3
	flow, stats, err := simulate([]SimJob{job, job, late, late}, Config{Machines: 40, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: BaselineDolly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Launched != 4+2+4+2 || !slices.Equal(flow, []int{3, 3, 3, 3}) {
		t.Fatalf("launched %d copies, flow %v; want 12 and [3 3 3 3]", stats.Launched, flow)
	}
	// A job releases its own reservation only: B (1 task, not cloned: one
	// copy straggles with probability ε) ends at slot 1 while A holds its
	// 2 clones, and E (2 tasks) arriving at 1 finds the budget still full.
	small := SimJob{MapTasks: 1, MapWork: 1}
	e := job
	e.Arrival = 1
	if _, stats, err := simulate([]SimJob{job, small, e}, Config{Machines: 40, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: BaselineDolly}, nil); err != nil || stats.Launched != 4+1+2 {
		t.Fatalf("A, B, E: %d copies launched (%v), want 7", stats.Launched, err)
	}
	// On 100 machines (budget 5) both A and B are cloned.
	if _, stats, _ := simulate([]SimJob{job, job}, Config{Machines: 100, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: BaselineDolly}, nil); stats.Launched != 8 {
		t.Fatalf("100 machines: %d copies launched, want 8", stats.Launched)
	}
}

// testBaselineRuns runs each baseline on random instances with random
// service and checks, slot by slot (testHookSlot), what the cluster holds
// against the rules' own limits, counted from the simulator's copies: no
// more copies than machines, no copy of a finished task, and under Dolly
// no more clones (copies beyond a task's first) than 5% of the machines
// and no task launched with more than its 3 copies. Each clone of the
// slot is checked against its rule's threshold, t_rem recomputed from the
// copies as the least elapsed·(p − progress)/progress: under Mantri
// c/(c+1)·t_rem > p/δ + σ√(p + ½)/√δ · Φ⁻¹(0.25), under GRASS t_rem > p/δ
// (RAS's c·t_rem > (c+1)·t_new and GS's t_rem > t_new both imply it).
// And no machine idles while a task waits (the Fair scheduler is
// work-conserving).
// The run must end without error with every job's flowtime at least its
// longest task's work over δΔ slots.
func testBaselineRuns(t *rapid.T) {
	jobs := drawSimJobs(t, SimJob{Arrival: 12, MapTasks: 6, ReduceTasks: 3, MapWork: 6, ReduceWork: 4}, 8)
	b := Baseline(rapid.IntRange(1, 3).Draw(t, "baseline"))
	cfg := Config{Machines: rapid.IntRange(1, 60).Draw(t, "machines"), Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: b,
		Sigma: rapid.SampledFrom([]float64{0, 0.5, 1.5}).Draw(t, "sigma"), Peak: 4, Lambda: 1,
		Speed: rapid.SampledFrom([]float64{0.5, 1, 2}).Draw(t, "speed")}
	var bad string
	testHookSlot = func(s *sim) {
		// Work conservation: a task left waiting means no machine idles.
		launched := map[int]int{}
		for _, a := range s.actions {
			if a.Kind == Launch {
				launched[a.Job]++
			}
		}
		for k := range s.snap {
			if p := s.snap[k].phase(s.snap[k].stage()); p.Unscheduled > launched[k] && s.busy[MapStage]+s.busy[ReduceStage] < s.cfg.Machines {
				bad = "a task waits while a machine idles"
			}
		}
		for _, a := range s.actions {
			if a.Kind == Launch && b == BaselineDolly && a.Copies > stragglers.DefaultDolly().MaxClones {
				bad = "a Dolly launch with more copies than its clones"
			}
			if a.Kind != Clone {
				continue
			}
			id := s.runIDs[s.runOff[a.Job]+a.Task]
			work, rem, c := s.tasks[id].work, math.Inf(1), 0
			for _, cp := range s.copies {
				if cp.task == id && cp.start < s.now {
					c++
					rem = min(rem, max(0, float64(s.now-cp.start)*(work-cp.progress)/cp.progress))
				}
			}
			tNew := work / cfg.Speed
			switch b {
			case BaselineMantri:
				// Mantri's rule as §5 states it, Pr(t_rem > (c+1)/c·T_new) > δ,
				// for the law of max(0, T_new) with T_new normal: its CDF at
				// x = c/(c+1)·t_rem (not the code's quantile rearrangement).
				x, sd := float64(c)/float64(c+1)*rem, cfg.Sigma*math.Sqrt(work+0.5)/math.Sqrt(cfg.Speed)
				var p float64
				switch {
				case x <= 0:
				case sd == 0:
					if x > tNew {
						p = 1
					}
				default:
					p = distuv.Normal{Mu: tNew, Sigma: sd}.CDF(x)
				}
				if !(p > MantriThreshold) {
					bad = "a Mantri clone with Pr(t_rem > (c+1)/c·T_new) ≤ δ"
				}
			case BaselineGRASS:
				if !(rem > tNew) {
					bad = "a GRASS clone of a task with t_rem ≤ t_new"
				}
			default:
				bad = "a Dolly clone of a running task"
			}
		}
		perTask := map[int32]int{}
		for _, c := range s.copies {
			if s.tasks[c.task].done {
				bad = "a copy of a finished task"
			}
			perTask[c.task]++
		}
		if len(s.copies) > s.cfg.Machines {
			bad = "more copies than machines"
		}
		clones := len(s.copies) - len(perTask)
		if b == BaselineDolly && float64(clones) > stragglers.DefaultDolly().Budget*float64(s.cfg.Machines) {
			bad = "Dolly's clones over budget"
		}
	}
	defer func() { testHookSlot = nil }()
	r, err := Simulate(jobs, cfg, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 9)))
	if err != nil {
		t.Fatalf("%v: %v", b, err)
	}
	if bad != "" {
		t.Fatalf("%v: %s", b, bad)
	}
	for j, job := range jobs {
		longest := 0.0
		if job.MapTasks > 0 {
			longest = job.MapWork
		}
		if job.ReduceTasks > 0 {
			longest = max(longest, job.ReduceWork)
		}
		if float64(r.Flowtime[j]) < longest/(cfg.Peak*cfg.Speed)-1e-9 {
			t.Fatalf("job %d: flowtime %d below its longest task %v at peak %v, speed %v", j, r.Flowtime[j], longest, cfg.Peak, cfg.Speed)
		}
	}
}

// TestBaselineRuns is not parallel: it sets the package's slot hook.
func TestBaselineRuns(t *testing.T) { rapid.Check(t, testBaselineRuns) }

// TestBaselineConfig: a baseline runs only on the Fair scheduler without
// preemption, and an unknown one is refused, naming the field.
func TestBaselineConfig(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1, MapWork: 1}}
	for _, cfg := range []Config{
		{Machines: 2, Algorithm: AlgorithmFair, Mode: Preemptive, Baseline: BaselineMantri},
		{Machines: 2, Algorithm: AlgorithmSREWC, Beta: 0.5, Mode: NonPreemptive, Baseline: BaselineGRASS},
		{Machines: 2, Algorithm: AlgorithmSEW, Mode: NonPreemptive, Baseline: BaselineDolly},
		{Machines: 2, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: BaselineGRASS + 1},
	} {
		r, err := Simulate(jobs, cfg, nil)
		if !isInputError(err, "competitive.Simulate") || r != nil {
			t.Errorf("%+v: result %v, err %v; want an InputError", cfg, r, err)
		}
	}
	if got := []string{BaselineNone.String(), BaselineMantri.String(), BaselineDolly.String(), BaselineGRASS.String(), Baseline(9).String()}; !slices.Equal(got, []string{"none", "Mantri", "Dolly", "GRASS", "Baseline(9)"}) {
		t.Errorf("String: %q", got)
	}
}

// TestMantriBarNonNegative: where the normal law of T_new puts δ or more
// of its mass below 0 (t_new < 0.674·sd at δ = 0.25), the bar is 0, the
// law of max(0, T_new), so a task whose copies are at their end (t_rem =
// 0) is never a candidate, while one with time left is.
func TestMantriBarNonNegative(t *testing.T) {
	t.Parallel()
	// 0.27 − √0.77·0.67449 = −0.3219: the normal's quartile is negative.
	if bar := mantriBar(0.27, math.Sqrt(0.77), MantriThreshold); bar != 0 {
		t.Fatalf("bar %v, want 0", bar)
	}
	views := []runView{{copies: 1, rem: 0}, {copies: 3, rem: 0}, {copies: 1, rem: 1e-300}}
	got, _ := mantriActions(nil, nil, 0, MapStage, 0, views, 5, mantriBar(0.27, math.Sqrt(0.77), MantriThreshold))
	want := []Action{{Job: 0, Stage: MapStage, Kind: Clone, Task: 2, Copies: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("actions %v, want only the copy of task 2 (t_rem > 0): %v", got, want)
	}
}

// TestSimulateBaselineUnderflow: a task's mean work over the speed that
// underflows (5e-324 of work at speed 1e300) is a valid input, and every
// baseline simulates it: the job of one map task ends in its first slot.
func TestSimulateBaselineUnderflow(t *testing.T) {
	t.Parallel()
	for _, b := range []Baseline{BaselineMantri, BaselineDolly, BaselineGRASS} {
		for _, sigma := range []float64{0, 0.5} {
			r, err := Simulate([]SimJob{{MapTasks: 2, MapWork: 5e-324}}, Config{Machines: 2, Algorithm: AlgorithmFair, Mode: NonPreemptive, Baseline: b, Speed: 1e300, Sigma: sigma, Peak: 2}, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Errorf("%v σ %v: %v", b, sigma, err)
				continue
			}
			if r.Flowtime[0] != 1 {
				t.Errorf("%v σ %v: flowtime %v, want 1", b, sigma, r.Flowtime[0])
			}
		}
	}
}
