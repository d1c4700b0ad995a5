package stragglers

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/specsched/specsched/alloc"
)

// Tests of the speculation baselines at their edges, each worked by hand
// or against an exact computation (math/big): the largest counts the
// inputs accept, the overflow paths, the ties the doc comments settle,
// and the rules' thresholds at equality. Each kills a mutant the rapid
// properties, which draw small counts and continuous values, missed
// (issue 13's mutation pass).

// TestBaselineDefaults: the defaults are the values the papers and the
// systems' configuration references give (cited at each Default*): LATE
// §4 (SpeculativeCap 10%, SlowTaskThreshold 25th percentile); Spark's
// spark.speculation.multiplier 1.5, quantile 0.75, minTaskRuntime 100 ms;
// Hadoop's MRJobConfig (caps 0.1 of the running and 0.01 of all tasks, at
// least 10; retry after 1 s and 15 s) and StartEndTimesBase (1 task, 5%);
// Dolly's 5% budget (its abstract) and our documented p = ε = 5%, 3
// copies, τ = 1; GRASS's documented two waves and the simulator's bound
// of 256 copies.
func TestBaselineDefaults(t *testing.T) {
	t.Parallel()
	if got, want := DefaultLATE(), (LATEConfig{SpeculativeCap: 0.1, SlowTaskThreshold: 0.25}); got != want {
		t.Errorf("DefaultLATE = %+v, want %+v", got, want)
	}
	if got, want := DefaultGRASS(), (GRASSConfig{SwitchWaves: 2, MaxCopies: 256}); got != want {
		t.Errorf("DefaultGRASS = %+v, want %+v", got, want)
	}
	if got, want := DefaultDolly(), (DollyConfig{Budget: 0.05, Utilization: 1, StraggleProb: 0.05, Epsilon: 0.05, MaxClones: 3}); got != want {
		t.Errorf("DefaultDolly = %+v, want %+v", got, want)
	}
	if got, want := DefaultSpark(), (SparkConfig{Multiplier: 1.5, Quantile: 0.75, MinRuntime: 0.1}); got != want {
		t.Errorf("DefaultSpark = %+v, want %+v", got, want)
	}
	if got, want := DefaultHadoop(), (HadoopConfig{CapRunning: 0.1, CapTotal: 0.01, MinAllowed: 10, MinCompleted: 1, MinCompletedShare: 0.05}); got != want {
		t.Errorf("DefaultHadoop = %+v, want %+v", got, want)
	}
	if HadoopRetryAfterNoSpeculate != 1 || HadoopRetryAfterSpeculate != 15 {
		t.Errorf("Hadoop's retry intervals %v and %v s, want 1 and 15", HadoopRetryAfterNoSpeculate, HadoopRetryAfterSpeculate)
	}
}

// TestBaselineLargestCounts: every count the baselines document as lying
// in [0, 2^53] (or [1, 2^53]) is accepted at 2^53 and rejected just
// above it, and the saturated busy count still fills every slot: a task
// running 2^53 copies holds all of 2^53 slots, so a queued task waits.
func TestBaselineLargestCounts(t *testing.T) {
	t.Parallel()
	const most = alloc.MaxTotal
	dolly := DefaultDolly()
	ok := DollyCluster{Slots: 100, Utilization: 0.5}
	for _, tc := range []struct {
		name    string
		n       int
		cluster DollyCluster
		p       DollyConfig
	}{
		{"n", most, ok, dolly},
		{"cluster.Slots", 1, DollyCluster{Slots: most}, dolly},
		{"cluster.Clones", 1, DollyCluster{Slots: 100, Clones: most}, dolly},
		{"MaxClones", 10, ok, DollyConfig{Budget: 1, Utilization: 1, StraggleProb: 0.05, Epsilon: 0.05, MaxClones: most}},
	} {
		if _, err := DollyClones(tc.n, tc.cluster, tc.p); err != nil {
			t.Errorf("DollyClones, %s = 2^53: %v", tc.name, err)
		}
	}
	// 10 tasks: two copies each (TestDollyClonesExample), with MaxClones
	// 2^53 as with 3.
	if got, _ := DollyClones(10, ok, DollyConfig{Budget: 1, Utilization: 1, StraggleProb: 0.05, Epsilon: 0.05, MaxClones: most}); got != 2 {
		t.Errorf("DollyClones(10) with MaxClones 2^53: %d, want 2", got)
	}
	if _, err := Dolly(nil, []TaskStatus{{}}, 4, most, nil); err != nil {
		t.Errorf("Dolly, clones = 2^53: %v", err)
	}
	if _, err := Dolly(nil, []TaskStatus{{}}, 4, most+1, nil); err == nil {
		t.Errorf("Dolly, clones = 2^53 + 1: no error")
	}
	grass := DefaultGRASS()
	grass.MaxCopies = most
	if _, err := GRASS(nil, []TaskStatus{{NewCopy: 1}}, 4, grass, nil); err != nil {
		t.Errorf("GRASS, MaxCopies = 2^53: %v", err)
	}
	stage := StageStats{Tasks: most, Finished: most}
	if _, err := SparkSpeculateStats(nil, nil, stage, 4, DefaultSpark(), nil); err != nil {
		t.Errorf("SparkSpeculateStats, stage of 2^53 tasks all finished: %v", err)
	}
	if _, err := HadoopSpeculateStats(nil, nil, stage, 4, DefaultHadoop(), nil); err != nil {
		t.Errorf("HadoopSpeculateStats, stage of 2^53 tasks all finished: %v", err)
	}
	// stage.Tasks out of range, however stage.Finished makes the
	// difference Tasks − Finished (which wraps for math.MinInt − 1).
	for _, bad := range []StageStats{{Tasks: most + 1}, {Tasks: math.MinInt, Finished: 1}, {Tasks: math.MaxInt, Finished: 3}} {
		_, err := SparkSpeculateStats(nil, nil, bad, 4, DefaultSpark(), nil)
		wantError(t, "Spark stage.Tasks", "stragglers.SparkSpeculateStats", err, -1, "stage.Tasks")
		_, err = HadoopSpeculateStats(nil, nil, bad, 4, DefaultHadoop(), nil)
		wantError(t, "Hadoop stage.Tasks", "stragglers.HadoopSpeculateStats", err, -1, "stage.Tasks")
	}
	// 2^53 copies of one task fill 2^53 slots: nothing is free.
	full := []TaskStatus{{Task: Task{State: Running, Copies: most, Elapsed: 1, Remaining: 9}, Progress: 0.1, NewCopy: 1}, {NewCopy: 1}}
	for _, r := range baselineRules() {
		if got, err := r.f(nil, full, most, nil); err != nil || len(got) != 0 {
			t.Errorf("%s: %v, %v with every slot busy; want nothing", r.name, got, err)
		}
	}
}

// TestGRASSGreedyTie: GS gives a slot to the smallest t_new, a launch
// before a copy on a tie (the launch wastes no slot-time), whatever the
// indices: a running task 0 (t_rem 5, t_new 2) and an unscheduled task 1
// (t_new 2) with one free slot launch task 1.
func TestGRASSGreedyTie(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{
		{Task: Task{State: Running, Copies: 1, Elapsed: 1, Remaining: 5}, NewCopy: 2},
		{NewCopy: 2},
	}
	got, err := GRASS(nil, tasks, 2, DefaultGRASS(), nil) // 2 unfinished ≤ 2·2: GS
	if want := []Action{{Task: 1, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

// TestGRASSOverflowOrder: RAS ranks copies by their saving c·t_rem −
// (c+1)·t_new even where the products overflow float64; the saving is
// computed here exactly (math/big). In the first fixture task 0 (3
// copies, t_rem 0.5·Max, t_new 0.32·Max) saves 0.22·Max, task 1 (2 copies,
// t_rem 0.6·Max, t_new 0.3·Max) 0.3·Max: the one free slot copies task 1.
// In the second, task 0 (7 copies, t_rem 0.35·Max, t_new 0.2·Max) saves
// 0.85·Max and task 1 (2 copies, t_rem 0.6·Max, t_new 0.25·Max) 0.45·Max,
// while c/(c+1)·t_rem − t_new, the saving without its factor c+1, would
// rank task 1 first (0.15 against 0.106): the free slot copies task 0.
// And at equality, c·t_rem = (c+1)·t_new exactly (3 copies, t_rem 2^1023,
// t_new 3·2^1021), the copy saves nothing: none.
func TestGRASSOverflowOrder(t *testing.T) {
	t.Parallel()
	const m = math.MaxFloat64
	ras := DefaultGRASS()
	ras.SwitchWaves = 0
	for _, c := range []struct {
		tasks []TaskStatus
		slots int // one more than the running copies: one free slot
		best  int
	}{
		{[]TaskStatus{
			{Task: Task{State: Running, Copies: 3, Remaining: 0.5 * m}, NewCopy: 0.32 * m},
			{Task: Task{State: Running, Copies: 2, Remaining: 0.6 * m}, NewCopy: 0.3 * m},
		}, 6, 1},
		{[]TaskStatus{
			{Task: Task{State: Running, Copies: 7, Remaining: 0.35 * m}, NewCopy: 0.2 * m},
			{Task: Task{State: Running, Copies: 2, Remaining: 0.6 * m}, NewCopy: 0.25 * m},
		}, 10, 0},
	} {
		best, bestSaving := -1, new(big.Float)
		for i, task := range c.tasks {
			n := big.NewFloat(float64(task.Copies))
			s := new(big.Float).Mul(n, big.NewFloat(task.Remaining))
			s.Sub(s, new(big.Float).Mul(new(big.Float).Add(n, big.NewFloat(1)), big.NewFloat(task.NewCopy)))
			if s.Sign() > 0 && (best < 0 || s.Cmp(bestSaving) > 0) {
				best, bestSaving = i, s
			}
		}
		if best != c.best {
			t.Fatalf("the fixture: exact best %d, want %d", best, c.best)
		}
		got, err := GRASS(nil, c.tasks, c.slots, ras, nil)
		if want := []Action{{Task: best, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
			t.Errorf("%v: got %v, %v; want %v", c.tasks, got, err, want)
		}
	}
	even := []TaskStatus{{Task: Task{State: Running, Copies: 3, Remaining: 0x1p1023}, NewCopy: 3 * 0x1p1021}}
	if got, err := GRASS(nil, even, 4, ras, nil); err != nil || len(got) != 0 {
		t.Errorf("c·t_rem = (c+1)·t_new: %v, %v; want no copy", got, err)
	}
}

// TestHadoopScanCases works DefaultSpeculator's scan by hand on small jobs
// (finished tasks F(d), running ones R(t_rem) with one copy unless
// marked), each against the rule: copy the running task of largest t_rem
// among those with t_rem > t_new, the finished tasks' mean duration
// (strictly: an attempt that ends with a new one's is not worth it), ties
// to the smaller index, once one task and 5% have finished, within the
// cap max(MinAllowed, ⌊CapTotal·n⌋, ⌊CapRunning·R⌋) on the tasks already
// speculating, and only with a free slot.
func TestHadoopScanCases(t *testing.T) {
	t.Parallel()
	f := func(d float64) TaskStatus { return TaskStatus{Task: Task{State: Finished}, Duration: d} }
	r := func(rem float64) TaskStatus { return TaskStatus{Task: Task{State: Running, Copies: 1, Remaining: rem}} }
	r2 := func(rem float64) TaskStatus { return TaskStatus{Task: Task{State: Running, Copies: 2, Remaining: rem}} }
	// A running task's Duration is not read (only finished tasks ran one).
	rd := func(rem, d float64) TaskStatus { s := r(rem); s.Duration = d; return s }
	def := DefaultHadoop()
	share := func(capTotal, capRunning float64) HadoopConfig {
		return HadoopConfig{CapTotal: capTotal, CapRunning: capRunning, MinCompleted: 1, MinCompletedShare: 0.05}
	}
	runningOnes := func(n int) []TaskStatus {
		var out []TaskStatus
		for range n {
			out = append(out, r(1))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		tasks []TaskStatus
		slots int
		p     HadoopConfig
		want  int // the task copied, or -1
	}{
		{"t_rem below the mean", []TaskStatus{f(4), r(3)}, 4, def, -1},
		{"t_rem at the mean", []TaskStatus{f(4), r(4)}, 4, def, -1},
		{"t_rem above the mean", []TaskStatus{f(4), r(5)}, 4, def, 1},
		{"mean of two, last smaller", []TaskStatus{f(10), f(2), r(5)}, 4, def, -1},
		{"mean of two, last larger", []TaskStatus{f(2), f(10), r(7)}, 4, def, 2},
		{"a running task's Duration", []TaskStatus{f(2), rd(5, 100)}, 4, def, 1},
		{"largest t_rem first", []TaskStatus{r(9), r(6), f(1)}, 4, def, 0},
		{"largest t_rem later", []TaskStatus{r(6), r(9), f(1)}, 4, def, 1},
		{"tie to the smaller index", []TaskStatus{r(6), r(6), f(1)}, 4, def, 0},
		{"no free slot", []TaskStatus{f(1), r(5)}, 1, def, -1},
		{"one of 20 finished (5%)", append([]TaskStatus{f(1), r(5)}, runningOnes(18)...), 40, def, 1},
		{"one of 21 finished (< 5%)", append([]TaskStatus{f(1), r(5)}, runningOnes(19)...), 40, def, -1},
		{"no task finished", []TaskStatus{r(5), r(1)}, 4, HadoopConfig{}, -1},
		{"cap ⌊0.5·4⌋ = 2 over all tasks, 1 speculating", []TaskStatus{f(1), r2(1), r(5), r(1)}, 8, share(0.5, 0), 2},
		{"cap ⌊0.5·4⌋ = 2 over running tasks, 1 speculating", []TaskStatus{r(1), r2(1), r(5), r(1), f(1)}, 8, share(0, 0.5), 2},
		{"cap ⌊0.3·5⌋ = 1 over all tasks, 1 speculating", []TaskStatus{f(1), r2(1), r(5), r(1), r(1)}, 8, share(0.3, 0), -1},
	} {
		got, err := HadoopSpeculate(nil, tc.tasks, tc.slots, tc.p, nil)
		want := []Action{}
		if tc.want >= 0 {
			want = []Action{{Task: tc.want, Kind: Copy}}
		}
		if err != nil || !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, want)
		}
	}
}

// TestHadoopStatsNoneFinished: with both completion minimums 0 (and room
// under the cap), the Stats
// form still waits for one finished task (HadoopSpeculate's doc: Hadoop
// would take the empty mean, 0, as t_new and copy every running task).
func TestHadoopStatsNoneFinished(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{{Task: Task{State: Running, Copies: 1, Remaining: 5}}}
	got, err := HadoopSpeculateStats(nil, tasks, StageStats{Tasks: 1}, 4, HadoopConfig{MinAllowed: 10}, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("no task finished: %v, %v; want nothing", got, err)
	}
}

// TestHadoopMeanOverflow: the finished tasks' mean where their sum
// overflows float64, against the exact mean (math/big): durations Max,
// Max, 0 (mean 2/3·Max) and Max, Max (mean Max); a running task is copied
// exactly when its t_rem exceeds it.
func TestHadoopMeanOverflow(t *testing.T) {
	t.Parallel()
	const m = math.MaxFloat64
	for _, tc := range []struct {
		durations []float64
		rem       float64
	}{
		{[]float64{m, m, 0}, 0.9 * m},
		{[]float64{m, m, 0}, 0.6 * m},
		{[]float64{m, m}, m},
		{[]float64{0, m, m}, 0.7 * m},
	} {
		var tasks []TaskStatus
		sum := new(big.Float)
		for _, d := range tc.durations {
			tasks = append(tasks, TaskStatus{Task: Task{State: Finished}, Duration: d})
			sum.Add(sum, big.NewFloat(d))
		}
		mean := sum.Quo(sum, big.NewFloat(float64(len(tc.durations))))
		tasks = append(tasks, TaskStatus{Task: Task{State: Running, Copies: 1, Remaining: tc.rem}})
		got, err := HadoopSpeculate(nil, tasks, len(tasks)+1, DefaultHadoop(), nil)
		want := []Action{}
		if big.NewFloat(tc.rem).Cmp(mean) > 0 {
			want = []Action{{Task: len(tasks) - 1, Kind: Copy}}
		}
		if err != nil || !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("durations %v, t_rem %g: %v, %v; want %v", tc.durations, tc.rem, got, err, want)
		}
	}
}

// TestLATETimeLeft: among the slow tasks, LATE copies the one of longest
// estimated time left (1 − progress)/rate, not of lowest progress or rate:
// task 0 (progress 0.8 after 8: rate 0.1, 2 left) and task 1 (progress 0.1
// after 0.5: rate 0.2, 4.5 left), both below the 100th percentile, one
// slot: task 1.
func TestLATETimeLeft(t *testing.T) {
	t.Parallel()
	tasks := []TaskStatus{
		{Task: Task{State: Running, Copies: 1, Elapsed: 8}, Progress: 0.8},
		{Task: Task{State: Running, Copies: 1, Elapsed: 0.5}, Progress: 0.1},
	}
	p := LATEConfig{SpeculativeCap: 1, SlowTaskThreshold: 1}
	got, err := LATE(nil, tasks, 3, p, nil)
	if want := []Action{{Task: 1, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

// TestLATEManyRated: the slow-task threshold over more rated tasks than
// the selection sorts outright (12), against a sort: n = 13…60 running
// tasks of elapsed times (i·m mod n) + 1 (a permutation of 1…n, or with
// ties when m and n share a factor), progress 0.5 each, a threshold of
// 25% and room for every copy: exactly the tasks of rate at most the
// ⌈n/4⌉-th smallest, ties included, are copied.
func TestLATEManyRated(t *testing.T) {
	t.Parallel()
	for n := 13; n <= 60; n++ {
		for _, mult := range []int{7, 11, 13} {
			tasks := make([]TaskStatus, n)
			rates := make([]float64, n)
			for i := range tasks {
				tasks[i] = TaskStatus{Task: Task{State: Running, Copies: 1, Elapsed: float64(i*mult%n + 1)}, Progress: 0.5}
				rates[i] = tasks[i].Progress / tasks[i].Elapsed
			}
			got, err := LATE(nil, tasks, 2*n, LATEConfig{SpeculativeCap: 1, SlowTaskThreshold: 0.25}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sorted := slices.Clone(rates)
			slices.Sort(sorted)
			q := sorted[(n+3)/4-1]
			var want []Action
			for i := range tasks {
				if rates[i] <= q {
					want = append(want, Action{Task: i, Kind: Copy})
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("n %d, multiplier %d: copies %v, want %v", n, mult, got, want)
			}
		}
	}
}

// TestDollyClonesEdges works the admission by hand on cases at its edges:
//   - 2 tasks on 40 slots: 1 − 0.95² ≈ 0.098 > ε, 1 − (1 − 0.05²)² ≈
//     0.005 ≤ ε, so 2 copies; their 2 clones fill the budget ⌊0.05·40⌋ = 2
//     exactly (Clones + n·(c − 1) ≤ β·Slots): admitted;
//   - 100 tasks on 1000 slots, no clone running: 3 copies
//     (TestDollyClonesExample), 200 clones > the budget of 50: uncloned;
//   - a job of no task with p = 1 (every copy straggles): no task to
//     clone, 1 copy, not MaxClones.
func TestDollyClonesEdges(t *testing.T) {
	t.Parallel()
	if got, err := DollyClones(2, DollyCluster{Slots: 40}, DefaultDolly()); err != nil || got != 2 {
		t.Errorf("2 tasks, budget 2: %d, %v; want 2", got, err)
	}
	if got, err := DollyClones(100, DollyCluster{Slots: 1000}, DefaultDolly()); err != nil || got != 1 {
		t.Errorf("100 tasks, budget 50: %d, %v; want 1", got, err)
	}
	p := DefaultDolly()
	p.StraggleProb = 1
	if got, err := DollyClones(0, DollyCluster{Slots: 1000}, p); err != nil || got != 1 {
		t.Errorf("no task, p = 1: %d, %v; want 1", got, err)
	}
}
