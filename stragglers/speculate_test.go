package stragglers

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
)

// TestSpeculateThesisExample replays job A of the thesis's worked example
// (Table 2.1, Figure 2.3): four tasks with t_init = 8, 3, 3, 3 and
// t_new = 2, and 5 slots from Hopper, which are its virtual size
// (2/β)·4 = 5 for β = 1.6. The speculation level is 2/β = 1.25: 4 distinct
// tasks and 1 copy. At time 0 all four tasks launch and the copy slot waits
// for a straggler; once A1 has run long enough to be detected (t = 0.5),
// every task has t_rem > t_new (7.5 and 2.5 > 2) and the copy goes to the
// largest, A1. Job B, given the sixth slot: T = 6, level 1.25, 0.8 distinct
// and 0.2 copies, apportioned to one launch.
func TestSpeculateThesisExample(t *testing.T) {
	t.Parallel()
	p := Speculation{Rule: ThesisRule, NewCopy: 2, Beta: 1.6, MinElapsed: 0.5}
	a := make([]Task, 4)
	got, err := Speculate(nil, a, 5, p, nil)
	want := []Action{{Task: 0, Kind: Launch}, {Task: 1, Kind: Launch}, {Task: 2, Kind: Launch}, {Task: 3, Kind: Launch}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("time 0: %v, %v; want %v", got, err, want)
	}
	for i, init := range []float64{8, 3, 3, 3} {
		a[i] = Task{State: Running, Copies: 1, Elapsed: 0.5, Remaining: init - 0.5}
	}
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		p := p
		p.Rule, p.Threshold = rule, DefaultMantriThreshold
		got, err = Speculate(nil, a, 5, p, nil)
		if want := []Action{{Task: 0, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
			t.Errorf("%v, time 0.5: %v, %v; want %v", rule, got, err, want)
		}
	}
	b := make([]Task, 6)
	got, err = Speculate(nil, b, 1, p, nil)
	if want := []Action{{Task: 0, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("job B: %v, %v; want %v", got, err, want)
	}
	// Before detection nothing is a straggler: the fifth slot stays free
	// for the copy (nothing else to run).
	for i := range a {
		a[i].Elapsed = 0.1
	}
	if got, _ := Speculate(nil, a, 5, p, nil); len(got) != 0 {
		t.Errorf("before detection: %v, want none", got)
	}
}

// TestSpeculateSplit checks eq. 3.2's split of the allocation by hand. A
// job with one running straggler (t_rem = 10 > t_new = 1) and ten
// unscheduled tasks:
//   - β = 1.5, 4 slots: (2/β)·11 ≥ 4, level 4/3, D = 3 distinct tasks and
//     B = 1 copy: with one task running, 2 launches and 1 copy — not 3
//     launches.
//   - β = 1.6, 3 slots: level 1.25, D = 2.4, B = 0.6; largest remainder
//     gives B the unit (0.6 > 0.4): D = 2, B = 1, so 1 launch and 1 copy —
//     flooring would give D = 2, B = 0 and 2 launches.
func TestSpeculateSplit(t *testing.T) {
	t.Parallel()
	tasks := make([]Task, 11)
	tasks[0] = Task{State: Running, Copies: 1, Elapsed: 1, Remaining: 10}
	for _, tc := range []struct {
		beta  float64
		slots int
	}{{1.5, 4}, {1.6, 3}} {
		got, err := Speculate(nil, tasks, tc.slots, Speculation{Rule: ThesisRule, NewCopy: 1, Beta: tc.beta}, nil)
		launches := []Action{{Task: 1, Kind: Launch}, {Task: 2, Kind: Launch}}[:tc.slots-2]
		want := append(slices.Clone(launches), Action{Task: 0, Kind: Copy})
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("β = %v, %d slots: %v, %v; want %v", tc.beta, tc.slots, got, err, want)
		}
	}
	// A tie in the split: the straggler and two unscheduled tasks on 2
	// slots at β = 1.5 give level 4/3, D = 1.5 and B = 0.5; equal
	// remainders go to the distinct tasks (D = 2, B = 0), so the free slot
	// launches task 1 rather than copying the straggler.
	got, err := Speculate(nil, tasks[:3], 2, Speculation{Rule: ThesisRule, NewCopy: 1, Beta: 1.5}, nil)
	if want := []Action{{Task: 1, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("split tie: %v, %v; want %v", got, err, want)
	}
}

// TestSpeculateMantriThreshold checks Mantri's test by hand. β = 2,
// t_new = 2: a new copy is Pareto(x_m = 1, β = 2), P(t_new < y) = 1 − 1/y²
// for y ≥ 1. One copy running (c = 1) compares c/(c+1)·t_rem = t_rem/2:
// δ = 0.25 needs 1 − 4/t_rem² > 1/4, t_rem > 4/√3 ≈ 2.309; with c = 2 the
// bar is (3/2)·2/√3 = √3 ≈ 1.732 (more copies lower the bar, Mantri's
// (c+1)/c).
func TestSpeculateMantriThreshold(t *testing.T) {
	t.Parallel()
	p := Speculation{Rule: MantriRule, NewCopy: 2, Beta: 2, Threshold: DefaultMantriThreshold}
	for _, tc := range []struct {
		copies int
		rem    float64
		copy   bool
	}{
		{1, 2.30, false}, {1, 2.32, true}, {2, 1.73, false}, {2, 1.74, true}, {1, 100, true}, {3, 0.5, false},
	} {
		tasks := []Task{{State: Running, Copies: tc.copies, Remaining: tc.rem}}
		got, err := Speculate(nil, tasks, tc.copies+1, p, nil)
		if err != nil || (len(got) == 1) != tc.copy {
			t.Errorf("c = %d, t_rem = %v: %v, %v; want copy %v", tc.copies, tc.rem, got, err, tc.copy)
		}
	}
}

// tasksGen draws a job's tasks in every state.
func tasksGen(maxN int) *rapid.Generator[[]Task] {
	return rapid.Custom(func(t *rapid.T) []Task {
		n := rapid.IntRange(0, maxN).Draw(t, "n")
		kind := rapid.IntRange(0, 2).Draw(t, "kind")
		tasks := make([]Task, n)
		for i := range tasks {
			st := TaskState(rapid.IntRange(0, 2).Draw(t, "state"))
			task := Task{State: st}
			if st == Running {
				task.Copies = rapid.IntRange(1, 3).Draw(t, "copies")
			}
			// Times for every task: the policy must not act on those of a
			// task that is not running.
			if kind == 0 { // few values: ties in urgency
				task.Remaining = float64(rapid.IntRange(0, 6).Draw(t, "remaining"))
				task.Elapsed = float64(rapid.IntRange(0, 3).Draw(t, "elapsed"))
			} else {
				task.Remaining = rapid.Float64Range(0, 20).Draw(t, "remaining")
				task.Elapsed = rapid.Float64Range(0, 5).Draw(t, "elapsed")
			}
			tasks[i] = task
		}
		return tasks
	})
}

func policyGen() *rapid.Generator[Speculation] {
	return rapid.Custom(func(t *rapid.T) Speculation {
		return Speculation{
			Rule:       Rule(rapid.IntRange(0, 1).Draw(t, "rule")),
			NewCopy:    rapid.OneOf(rapid.Float64Range(0.1, 10), rapid.SampledFrom([]float64{1, 2, 3})).Draw(t, "new copy"),
			Beta:       rapid.OneOf(rapid.Float64Range(1.05, 2.5), rapid.SampledFrom([]float64{1.5, 2})).Draw(t, "beta"),
			Threshold:  rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, DefaultMantriThreshold, 1})).Draw(t, "threshold"),
			MinElapsed: rapid.SampledFrom([]float64{0, 0.5, 1, 2}).Draw(t, "min elapsed"),
		}
	})
}

// referenceSpeculate is the policy written out with a sort: eq. 3.2 and
// the largest-remainder split of two numbers by hand, eligibility by the
// Pareto CDF itself, the most urgent eligible tasks by sorting.
func referenceSpeculate(tasks []Task, slots int, p Speculation) (actions []Action, boundary bool) {
	var unscheduled, running, busy int
	type cand struct {
		idx     int
		urgency float64
	}
	var eligible []cand
	newCopy := distuv.Pareto{Xm: p.NewCopy * (p.Beta - 1) / p.Beta, Alpha: p.Beta}
	for i, t := range tasks {
		switch t.State {
		case Unscheduled:
			unscheduled++
		case Running:
			running++
			busy += t.Copies
			if t.Elapsed < p.MinElapsed {
				continue
			}
			c := float64(t.Copies)
			if p.Rule == ThesisRule && t.Remaining > p.NewCopy {
				eligible = append(eligible, cand{i, t.Remaining})
			}
			if p.Rule == MantriRule {
				y := c / (c + 1) * t.Remaining
				prob := newCopy.CDF(y)
				if math.Abs(prob-p.Threshold) < 1e-9 {
					boundary = true
				}
				if prob > p.Threshold {
					eligible = append(eligible, cand{i, y})
				}
			}
		}
	}
	free := slots - busy
	T := float64(unscheduled + running)
	if free <= 0 || T == 0 {
		return nil, boundary
	}
	S := float64(slots)
	level := S / T
	switch {
	case p.Beta >= 2:
		level = 1
	case 2/p.Beta*T >= S:
		level = 2 / p.Beta
	}
	d := min(T, S/level)
	dInt, bInt := int(math.Floor(d)), int(math.Floor(S-d))
	if dInt+bInt < slots { // one unit left: the larger fractional part, ties to d
		if d-math.Floor(d) >= (S-d)-math.Floor(S-d) {
			dInt++
		} else {
			bInt++
		}
	}
	launches := min(unscheduled, max(0, dInt-running), free)
	copies := min(len(eligible), max(0, bInt-(busy-running)), free-launches)
	left := free - launches - copies
	more := min(unscheduled-launches, left)
	launches += more
	copies += min(len(eligible)-copies, left-more)

	for i, t := range tasks {
		if t.State == Unscheduled && launches > 0 {
			actions = append(actions, Action{Task: i, Kind: Launch})
			launches--
		}
	}
	slices.SortStableFunc(eligible, func(a, b cand) int { return cmp.Compare(b.urgency, a.urgency) })
	chosen := eligible[:copies]
	slices.SortFunc(chosen, func(a, b cand) int { return cmp.Compare(a.idx, b.idx) })
	for _, c := range chosen {
		actions = append(actions, Action{Task: c.idx, Kind: Copy})
	}
	return actions, boundary
}

// slotsAndPolicy draws the job's slots — usually its busy slots plus up to
// n more, so that there is something to decide — and a policy whose t_new
// is sometimes one of the tasks' remaining times (ties with the rule).
func slotsAndPolicy(t *rapid.T, tasks []Task) (int, Speculation) {
	busy := 0
	for _, task := range tasks {
		busy += task.Copies
	}
	slots := rapid.OneOf(
		rapid.IntRange(0, 120),
		rapid.IntRange(busy, busy+3*len(tasks)+3),
	).Draw(t, "slots")
	p := policyGen().Draw(t, "policy")
	if len(tasks) > 0 && rapid.Bool().Draw(t, "t_new from a task") {
		if r := tasks[rapid.IntRange(0, len(tasks)-1).Draw(t, "task")].Remaining; r > 0 {
			p.NewCopy = r
		}
	}
	return slots, p
}

func testSpeculateMatchesReference(t *rapid.T) {
	tasks := tasksGen(80).Draw(t, "tasks")
	slots, p := slotsAndPolicy(t, tasks)
	orig := slices.Clone(tasks)
	got, err := Speculate(nil, tasks, slots, p, nil)
	if err != nil {
		t.Fatalf("Speculate: %v", err)
	}
	if d := gocmp.Diff(orig, tasks); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	want, boundary := referenceSpeculate(tasks, slots, p)
	if !boundary && !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

func TestSpeculateMatchesReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateMatchesReference)
}

// testSpeculateInvariants checks the policy's guarantees directly: no more
// actions than free slots; launches only of unscheduled tasks, copies only
// of running ones, each task at most once; under the thesis's rule no copy
// while t_rem ≤ t_new; no copy before MinElapsed; zero slots, no action;
// and no free slot left idle while an unscheduled task waits.
func testSpeculateInvariants(t *rapid.T) {
	tasks := tasksGen(200).Draw(t, "tasks")
	slots, p := slotsAndPolicy(t, tasks)
	var ws Workspace
	dst := make([]Action, rapid.IntRange(0, 10).Draw(t, "cap"))
	got, err := Speculate(dst, tasks, slots, p, &ws)
	if err != nil {
		t.Fatalf("Speculate: %v", err)
	}
	busy, unscheduled := 0, 0
	for _, task := range tasks {
		busy += task.Copies
		if task.State == Unscheduled {
			unscheduled++
		}
	}
	free := max(0, slots-busy)
	if len(got) > free {
		t.Fatalf("%d actions for %d free slots", len(got), free)
	}
	if slots == 0 && len(got) != 0 {
		t.Fatalf("zero slots: %v", got)
	}
	seen := map[int]bool{}
	launched := 0
	for _, a := range got {
		if a.Task < 0 || a.Task >= len(tasks) || seen[a.Task] {
			t.Fatalf("action %v: bad or repeated task", a)
		}
		seen[a.Task] = true
		task := tasks[a.Task]
		switch a.Kind {
		case Launch:
			launched++
			if task.State != Unscheduled {
				t.Fatalf("launch of %v task %d", task.State, a.Task)
			}
		case Copy:
			if task.State != Running {
				t.Fatalf("copy of %v task %d", task.State, a.Task)
			}
			if p.Rule == ThesisRule && task.Remaining <= p.NewCopy {
				t.Fatalf("copy of task %d with t_rem %v ≤ t_new %v", a.Task, task.Remaining, p.NewCopy)
			}
			if task.Elapsed < p.MinElapsed {
				t.Fatalf("copy of task %d after %v < %v", a.Task, task.Elapsed, p.MinElapsed)
			}
		default:
			t.Fatalf("action %v: unknown kind", a)
		}
	}
	if len(got) < free && launched < unscheduled {
		t.Fatalf("%d of %d free slots used while %d unscheduled tasks wait", len(got), free, unscheduled-launched)
	}
	again, _ := Speculate(nil, tasks, slots, p, nil)
	if !slices.Equal(again, got) {
		t.Fatalf("not deterministic: %v then %v", got, again)
	}
}

func TestSpeculateInvariants(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateInvariants)
}

// testSpeculateNoPanic injects hostile values: an *InputError with dst
// untouched, or actions that respect the free slots.
func testSpeculateNoPanic(t *rapid.T) {
	tasks := tasksGen(20).Draw(t, "tasks")
	for i := range tasks {
		switch rapid.IntRange(0, 6).Draw(t, "corrupt") {
		case 0:
			tasks[i].Remaining = badFloat(t, "Remaining")
		case 1:
			tasks[i].Elapsed = badFloat(t, "Elapsed")
		case 2:
			tasks[i].Copies = rapid.SampledFrom([]int{-1, 0, 1, math.MaxInt, alloc.MaxTotal + 1}).Draw(t, "copies")
		case 3:
			tasks[i].State = TaskState(rapid.IntRange(0, 255).Draw(t, "state"))
		}
	}
	p, slots := hostilePolicy(t)
	sentinel := []Action{{Task: 42, Kind: Copy}}
	got, err := Speculate(sentinel[:0:1], tasks, slots, p, nil)
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "stragglers.Speculate" {
			t.Fatalf("error %v is not a stragglers.Speculate *InputError", err)
		}
		if got != nil || sentinel[0] != (Action{Task: 42, Kind: Copy}) {
			t.Fatalf("on error: got %v, dst %v", got, sentinel)
		}
		return
	}
	if len(got) > slots {
		t.Fatalf("%d actions for %d slots", len(got), slots)
	}
}

// hostilePolicy draws a policy and slots, sometimes with a bad value.
func hostilePolicy(t *rapid.T) (Speculation, int) {
	p := policyGen().Draw(t, "policy")
	switch rapid.IntRange(0, 6).Draw(t, "corrupt policy") {
	case 0:
		p.NewCopy = badFloat(t, "NewCopy")
	case 1:
		p.Beta = badFloat(t, "Beta")
	case 2:
		p.Threshold = badFloat(t, "Threshold")
	case 3:
		p.MinElapsed = badFloat(t, "MinElapsed")
	case 4:
		p.Rule = Rule(rapid.IntRange(0, 255).Draw(t, "rule"))
	}
	slots := rapid.OneOf(rapid.IntRange(0, 100), rapid.SampledFrom([]int{-1, math.MaxInt, alloc.MaxTotal})).Draw(t, "slots")
	return p, slots
}

func TestSpeculateNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateNoPanic)
}

func FuzzSpeculate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSpeculateNoPanic)) }

func TestSpeculateErrors(t *testing.T) {
	t.Parallel()
	ok := Speculation{Rule: ThesisRule, NewCopy: 1, Beta: 1.5}
	task := []Task{{State: Running, Copies: 1, Remaining: 3}}
	for _, tc := range []struct {
		name  string
		tasks []Task
		slots int
		p     Speculation
		index int
		field string
	}{
		{"slots", task, -1, ok, -1, "slots"},
		{"NewCopy", task, 1, Speculation{NewCopy: 0, Beta: 1.5}, -1, "NewCopy"},
		{"Beta", task, 1, Speculation{NewCopy: 1, Beta: 1}, -1, "Beta"},
		{"Threshold", task, 1, Speculation{Rule: MantriRule, NewCopy: 1, Beta: 1.5, Threshold: 1.5}, -1, "Threshold"},
		{"MinElapsed", task, 1, Speculation{NewCopy: 1, Beta: 1.5, MinElapsed: -1}, -1, "MinElapsed"},
		{"Rule", task, 1, Speculation{Rule: 9, NewCopy: 1, Beta: 1.5}, -1, "Rule"},
		{"State", []Task{{}, {State: 7}}, 1, ok, 1, "State"},
		{"copies of finished", []Task{{State: Finished, Copies: 1}}, 1, ok, 0, "Copies"},
		{"running without copy", []Task{{State: Running}}, 1, ok, 0, "Copies"},
		{"Remaining", []Task{{State: Running, Copies: 1, Remaining: math.NaN()}}, 1, ok, 0, "Remaining"},
		{"Elapsed", []Task{{State: Running, Copies: 1, Elapsed: math.Inf(1)}}, 1, ok, 0, "Elapsed"},
	} {
		_, err := Speculate(nil, tc.tasks, tc.slots, tc.p, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, want index %d field %q", tc.name, err, tc.index, tc.field)
		}
	}
	for _, s := range []string{"thesis", "mantri"} {
		if r, err := ParseRule(s); err != nil || r.String() != s {
			t.Errorf("ParseRule(%q) = %v, %v", s, r, err)
		}
	}
	if _, err := ParseRule("late"); err == nil {
		t.Error(`ParseRule("late"): no error`)
	}
}

// speculateFixture is a job of n tasks: 30% finished, 50% running with a
// Pareto(1, 1.5) remaining time, 20% unscheduled; slots for every running
// copy plus n/10 more.
func speculateFixture(n int, rule Rule) ([]Task, int, Speculation) {
	rng := rand.New(rand.NewPCG(1, 1))
	tasks := make([]Task, n)
	busy := 0
	for i := range tasks {
		switch r := rng.IntN(10); {
		case r < 3:
			tasks[i] = Task{State: Finished}
		case r < 8:
			d := distuv.Pareto{Xm: 1, Alpha: 1.5, Src: rng}
			tasks[i] = Task{State: Running, Copies: 1, Elapsed: rng.Float64() * 3, Remaining: d.Rand()}
			busy++
		default:
			tasks[i] = Task{State: Unscheduled}
		}
	}
	slots := busy + n/10 // room for launches and copies
	return tasks, slots, Speculation{Rule: rule, NewCopy: 3, Beta: 1.5, Threshold: DefaultMantriThreshold, MinElapsed: 0.5}
}

func benchmarkSpeculate(b *testing.B, n int, rule Rule) {
	tasks, slots, p := speculateFixture(n, rule)
	var ws Workspace
	dst, err := Speculate(nil, tasks, slots, p, &ws)
	if err != nil || len(dst) == 0 {
		b.Fatalf("Speculate: %d actions, %v", len(dst), err)
	}
	want := len(dst)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dst, _ = Speculate(dst, tasks, slots, p, &ws)
	}
	b.StopTimer()
	if len(dst) != want {
		b.Fatalf("%d actions, want %d", len(dst), want)
	}
}

func BenchmarkSpeculate(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		for _, rule := range []Rule{ThesisRule, MantriRule} {
			b.Run(fmt.Sprintf("rule=%v/n=%d", rule, n), func(b *testing.B) { benchmarkSpeculate(b, n, rule) })
		}
	}
}

// BenchmarkScanBaseline is the floor for any O(n) policy on the fixture of
// benchmarkSpeculate: one branch-free pass over the tasks that reads their
// state and remaining time. Speculate's figures are quoted as ratios to it.
func BenchmarkScanBaseline(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			tasks := make([]Task, n)
			for i := range tasks {
				tasks[i] = Task{State: TaskState(rng.IntN(3)), Remaining: rng.Float64()}
			}
			var sum float64
			var running int
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for i := range tasks {
					sum += tasks[i].Remaining
					running += b2i(tasks[i].State == Running)
				}
			}
			b.StopTimer()
			if sum == 0 || running == 0 {
				b.Fatal("nothing scanned")
			}
		})
	}
}

// BenchmarkSpeculateRatio interleaves Speculate and the scan baseline on
// the fixture of benchmarkSpeculate, call by call, and reports both times
// and their ratio: on a shared, noisy machine the ratio is stable where
// separate benchmarks drift.
func BenchmarkSpeculateRatio(b *testing.B) {
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		b.Run(fmt.Sprintf("rule=%v/n=10000", rule), func(b *testing.B) {
			tasks, slots, p := speculateFixture(10000, rule)
			var ws Workspace
			dst, _ := Speculate(nil, tasks, slots, p, &ws)
			var algo, base time.Duration
			var sum float64
			var running int
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				dst, _ = Speculate(dst, tasks, slots, p, &ws)
				mid := time.Now()
				for i := range tasks {
					sum += tasks[i].Remaining
					running += b2i(tasks[i].State == Running)
				}
				algo += mid.Sub(start)
				base += time.Since(mid)
			}
			if sum == 0 || running == 0 || len(dst) == 0 {
				b.Fatal("nothing computed")
			}
			b.ReportMetric(float64(algo)/float64(b.N), "speculate-ns/op")
			b.ReportMetric(float64(base)/float64(b.N), "scan-ns/op")
			b.ReportMetric(float64(algo)/float64(base), "ratio")
		})
	}
}

// testParseRuleRoundTrip: ParseRule accepts exactly the names String
// gives the two rules, and the String methods never panic.
func testParseRuleRoundTrip(t *rapid.T) {
	s := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"thesis", "mantri", "Thesis", "", "late"})).Draw(t, "name")
	r, err := ParseRule(s)
	if (err == nil) != (s == "thesis" || s == "mantri") {
		t.Fatalf("ParseRule(%q) = %v, %v", s, r, err)
	}
	if err == nil && r.String() != s {
		t.Fatalf("ParseRule(%q).String() = %q", s, r.String())
	}
	v := rapid.Uint8().Draw(t, "value")
	for _, str := range []string{Rule(v).String(), TaskState(v).String(), ActionKind(v).String()} {
		if str == "" {
			t.Fatalf("empty String() for %d", v)
		}
	}
}

func TestParseRuleRoundTrip(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testParseRuleRoundTrip)
}

func FuzzParseRule(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testParseRuleRoundTrip)) }

// TestCopyFactorTable: the table holds exactly what the division gives.
func TestCopyFactorTable(t *testing.T) {
	t.Parallel()
	for c := range 20 {
		x := float64(c)
		if got, want := copyFactor(c), x/(x+1); got != want {
			t.Errorf("copyFactor(%d) = %v, want %v", c, got, want)
		}
	}
}

// TestSpeculateTiesAtTheCut: five eligible tasks (ThesisRule, t_new = 1)
// with t_rem 5, 3, 3, 3, 2 and two free slots. Eq. 3.2: T = 5, S = 7 >
// (2/1.5)·5, so the level is 7/5, D = 5 and B = 2: two copies, for the
// most urgent task and the first of the three tied at 3 — exactly two.
func TestSpeculateTiesAtTheCut(t *testing.T) {
	t.Parallel()
	p := Speculation{NewCopy: 1, Beta: 1.5}
	rems := []float64{5, 3, 3, 3, 2}
	tasks := make([]Task, len(rems))
	running := make([]RunningTask, len(rems))
	for i, r := range rems {
		tasks[i] = Task{State: Running, Copies: 1, Elapsed: 0, Remaining: r}
		running[i] = RunningTask{1, 0, r}
	}
	got, err := Speculate(nil, tasks, 7, p, nil)
	if want := []Action{{Task: 0, Kind: Copy}, {Task: 1, Kind: Copy}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Speculate: %v, %v; want %v", got, err, want)
	}
	launch, copies, err := SpeculateRunning(nil, running, 0, 7, p, nil)
	if err != nil || launch != 0 || !slices.Equal(copies, []int{0, 1}) {
		t.Errorf("SpeculateRunning: %d, %v, %v; want 0, [0 1]", launch, copies, err)
	}
}

// TestSpeculateLaunchesInQueueOrder: three queued tasks and two free
// slots launch exactly the first two.
func TestSpeculateLaunchesInQueueOrder(t *testing.T) {
	t.Parallel()
	p := Speculation{NewCopy: 1, Beta: 1.5}
	got, err := Speculate(nil, []Task{{State: Finished, Copies: 0, Elapsed: 0, Remaining: 0}, {}, {}, {}}, 2, p, nil)
	if want := []Action{{Task: 1, Kind: Launch}, {Task: 2, Kind: Launch}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Speculate: %v, %v; want %v", got, err, want)
	}
}

// TestSpeculateSteadyStateAllocs: with a reused Workspace and a dst of
// enough capacity, Speculate and SpeculateRunning allocate nothing (the
// documented contract, and the benchmarks' 0 allocs/op).
func TestSpeculateSteadyStateAllocs(t *testing.T) {
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		tasks, slots, p := speculateFixture(1000, rule)
		var ws Workspace
		actions, err := Speculate(nil, tasks, slots, p, &ws)
		if err != nil || len(actions) == 0 {
			t.Fatalf("Speculate: %v, %v", actions, err)
		}
		if n := testing.AllocsPerRun(10, func() { actions, _ = Speculate(actions, tasks, slots, p, &ws) }); n != 0 {
			t.Errorf("%v: Speculate allocates %v per call", rule, n)
		}
		running, unscheduled, slots, p := runningFixture(1000, rule)
		var wsR Workspace
		_, copies, err := SpeculateRunning(nil, running, unscheduled, slots, p, &wsR)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(10, func() { _, copies, _ = SpeculateRunning(copies, running, unscheduled, slots, p, &wsR) }); n != 0 {
			t.Errorf("%v: SpeculateRunning allocates %v per call", rule, n)
		}
	}
}
