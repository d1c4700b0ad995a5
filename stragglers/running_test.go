package stragglers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
)

// runningView is a job's tasks as SpeculateRunning takes them: the
// running ones in index order, where each came from, and how many wait.
func runningView(tasks []Task) (running []RunningTask, from []int, unscheduled int) {
	for i, t := range tasks {
		switch t.State {
		case Running:
			running = append(running, RunningTask{Copies: t.Copies, Elapsed: t.Elapsed, Remaining: t.Remaining})
			from = append(from, i)
		case Unscheduled:
			unscheduled++
		}
	}
	return running, from, unscheduled
}

// testSpeculateRunningMatchesSpeculate: SpeculateRunning makes
// Speculate's decision for the same job — Speculate, on the full
// snapshot with finished tasks interleaved, is the oracle, and it is
// itself checked against a sorting reference and the policy's invariants.
// Zero times are sometimes given as −0 to SpeculateRunning only (its pass
// compares IEEE bits); the input is never modified, a reused dst and ws
// change nothing.
func testSpeculateRunningMatchesSpeculate(t *rapid.T) {
	tasks := tasksGen(120).Draw(t, "tasks")
	slots, p := slotsAndPolicy(t, tasks)
	want, err := Speculate(nil, tasks, slots, p, nil)
	if err != nil {
		t.Fatalf("Speculate: %v", err)
	}
	running, from, unscheduled := runningView(tasks)
	negZero := rapid.Bool().Draw(t, "−0")
	for i := range running {
		if negZero && running[i].Remaining == 0 {
			running[i].Remaining = math.Copysign(0, -1)
		}
		if negZero && running[i].Elapsed == 0 {
			running[i].Elapsed = math.Copysign(0, -1)
		}
	}
	orig := slices.Clone(running)
	var ws Workspace
	dst := make([]int, rapid.IntRange(0, 10).Draw(t, "cap"))
	for round := range 2 { // the second reuses dst and ws
		launch, copies, err := SpeculateRunning(dst, running, unscheduled, slots, p, &ws)
		if err != nil {
			t.Fatalf("SpeculateRunning: %v", err)
		}
		if d := gocmp.Diff(orig, running); d != "" {
			t.Fatalf("input modified:\n%s", d)
		}
		var got []Action
		for i, task := range tasks {
			if task.State == Unscheduled && launch > 0 {
				got = append(got, Action{Task: i, Kind: Launch})
				launch--
			}
		}
		if launch > 0 {
			t.Fatalf("%d launches more than the %d unscheduled tasks", launch, unscheduled)
		}
		for _, k := range copies {
			if k < 0 || k >= len(from) {
				t.Fatalf("copy of running task %d of %d", k, len(from))
			}
			got = append(got, Action{Task: from[k], Kind: Copy})
		}
		if !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("round %d: SpeculateRunning gives %v\nSpeculate gives        %v", round, got, want)
		}
		dst = copies
	}
}

func TestSpeculateRunningMatchesSpeculate(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateRunningMatchesSpeculate)
}

// testSpeculateRunningNoPanic injects hostile values: an *InputError
// naming SpeculateRunning with dst untouched, or a decision within the
// free slots.
func testSpeculateRunningNoPanic(t *rapid.T) {
	tasks := tasksGen(20).Draw(t, "tasks")
	running, _, unscheduled := runningView(tasks)
	for i := range running {
		switch rapid.IntRange(0, 5).Draw(t, "corrupt") {
		case 0:
			running[i].Remaining = badFloat(t, "Remaining")
		case 1:
			running[i].Elapsed = badFloat(t, "Elapsed")
		case 2:
			running[i].Copies = rapid.SampledFrom([]int{-1, 0, 1, 1 << 31, 1<<31 + 1, math.MaxInt, alloc.MaxTotal, alloc.MaxTotal + 1}).Draw(t, "copies")
		}
	}
	if rapid.IntRange(0, 4).Draw(t, "corrupt unscheduled") == 0 {
		unscheduled = rapid.SampledFrom([]int{-1, math.MinInt, math.MaxInt, alloc.MaxTotal, alloc.MaxTotal - len(running) + 1}).Draw(t, "unscheduled")
	}
	p, slots := hostilePolicy(t)
	orig := slices.Clone(running)
	sentinel := []int{42}
	launch, copies, err := SpeculateRunning(sentinel[:0:1], running, unscheduled, slots, p, nil)
	if d := gocmp.Diff(orig, running, cmpopts.EquateNaNs()); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "stragglers.SpeculateRunning" {
			t.Fatalf("error %v is not a stragglers.SpeculateRunning *InputError", err)
		}
		if launch != 0 || copies != nil || sentinel[0] != 42 {
			t.Fatalf("on error: launch %d, copies %v, dst %v", launch, copies, sentinel)
		}
		return
	}
	busy := 0
	for _, r := range running {
		busy = min(busy+r.Copies, alloc.MaxTotal+1)
	}
	if launch < 0 || launch > unscheduled || launch+len(copies) > max(0, slots-busy) {
		t.Fatalf("launch %d, %d copies: %d unscheduled, %d slots, %d busy", launch, len(copies), unscheduled, slots, busy)
	}
	if !slices.IsSorted(copies) || len(slices.Compact(slices.Clone(copies))) != len(copies) {
		t.Fatalf("copies %v not increasing", copies)
	}
}

func TestSpeculateRunningNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateRunningNoPanic)
}

func FuzzSpeculateRunning(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSpeculateRunningNoPanic)) }

func TestSpeculateRunningErrors(t *testing.T) {
	t.Parallel()
	ok := Speculation{Rule: ThesisRule, NewCopy: 1, Beta: 1.5}
	one := []RunningTask{{Copies: 1}}
	for _, tc := range []struct {
		name        string
		running     []RunningTask
		unscheduled int
		slots       int
		p           Speculation
		index       int
		field       string
	}{
		{"slots", one, 0, -1, ok, check.Scalar, "slots"},
		{"unscheduled", one, -1, 1, ok, check.Scalar, "unscheduled"},
		{"too many tasks", one, alloc.MaxTotal, 1, ok, check.Scalar, "unscheduled"},
		{"Beta", one, 0, 1, Speculation{NewCopy: 1, Beta: 1}, check.Scalar, "Beta"},
		{"no copy", []RunningTask{{Copies: 1}, {Copies: 0}}, 0, 1, ok, 1, "Copies"},
		{"Copies", []RunningTask{{Copies: alloc.MaxTotal + 1}}, 0, 1, ok, 0, "Copies"},
		{"Elapsed", []RunningTask{{Copies: 1}, {Copies: 1}, {Copies: 1, Elapsed: -1}}, 0, 1, ok, 2, "Elapsed"},
		{"Remaining", []RunningTask{{Copies: 1, Remaining: math.Inf(1)}}, 0, 1, ok, 0, "Remaining"},
	} {
		_, _, err := SpeculateRunning(nil, tc.running, tc.unscheduled, tc.slots, tc.p, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, want index %d field %q", tc.name, err, tc.index, tc.field)
		}
	}
	// 2^31 + 1 copies are valid: the slow path sums them exactly.
	big := []RunningTask{{Copies: 1<<31 + 1}, {Copies: 1, Remaining: 9}}
	launch, copies, err := SpeculateRunning(nil, big, 1, 1<<31+4, ok, nil)
	if err != nil || launch != 1 || !slices.Equal(copies, []int{1}) {
		t.Errorf("2^31 + 1 copies: launch %d, copies %v, %v; want 1, [1]", launch, copies, err)
	}
}

// runningFixture is speculateFixture's job as SpeculateRunning takes it.
func runningFixture(n int, rule Rule) ([]RunningTask, int, int, Speculation) {
	tasks, slots, p := speculateFixture(n, rule)
	running, _, unscheduled := runningView(tasks)
	return running, unscheduled, slots, p
}

func BenchmarkSpeculateRunning(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		for _, rule := range []Rule{ThesisRule, MantriRule} {
			b.Run(fmt.Sprintf("rule=%v/n=%d", rule, n), func(b *testing.B) {
				running, unscheduled, slots, p := runningFixture(n, rule)
				var ws Workspace
				launch, dst, err := SpeculateRunning(nil, running, unscheduled, slots, p, &ws)
				if err != nil || launch+len(dst) == 0 {
					b.Fatalf("SpeculateRunning: %d, %v, %v", launch, dst, err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					_, dst, _ = SpeculateRunning(dst, running, unscheduled, slots, p, &ws)
				}
			})
		}
	}
}

// BenchmarkSpeculateRunningRatio interleaves SpeculateRunning on the
// fixture of benchmarkSpeculate (10 000 tasks, 5 000 of them running) and
// on a job whose 10 000 tasks all run, with the scan baseline over the
// 10 000 tasks, call by call.
func BenchmarkSpeculateRunningRatio(b *testing.B) {
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		for _, allRunning := range []bool{false, true} {
			b.Run(fmt.Sprintf("rule=%v/all-running=%v/n=10000", rule, allRunning), func(b *testing.B) {
				tasks, slots, p := speculateFixture(10000, rule)
				if allRunning {
					for i := range tasks {
						if tasks[i].State != Running {
							tasks[i] = Task{State: Running, Copies: 1, Elapsed: tasks[(i+1)%len(tasks)].Elapsed, Remaining: tasks[(i+7)%len(tasks)].Remaining + 1}
						}
					}
					slots = len(tasks) + 1000
				}
				running, _, unscheduled := runningView(tasks)
				var ws Workspace
				launch, dst, _ := SpeculateRunning(nil, running, unscheduled, slots, p, &ws)
				if launch+len(dst) == 0 {
					b.Fatal("no decision")
				}
				var algo, base time.Duration
				var sum float64
				var nRunning int
				b.ResetTimer()
				for range b.N {
					start := time.Now()
					_, dst, _ = SpeculateRunning(dst, running, unscheduled, slots, p, &ws)
					mid := time.Now()
					for i := range tasks {
						sum += tasks[i].Remaining
						nRunning += b2i(tasks[i].State == Running)
					}
					algo += mid.Sub(start)
					base += time.Since(mid)
				}
				if sum == 0 || nRunning == 0 {
					b.Fatal("nothing scanned")
				}
				b.ReportMetric(float64(algo)/float64(b.N), "speculate-ns/op")
				b.ReportMetric(float64(base)/float64(b.N), "scan-ns/op")
				b.ReportMetric(float64(algo)/float64(base), "ratio")
			})
		}
	}
}

// TestSpeculateRunningMantriUrgency: under MantriRule the most urgent task
// is the one with the larger c/(c+1)·t_rem, not the larger t_rem. NewCopy
// 2, β = 2, δ = 0: the cut-off is x_m = 1. Task 0 runs one copy with
// t_rem = 10 (urgency 5), task 1 three copies with t_rem = 8 (urgency 6);
// both qualify. With 5 slots and 4 busy, eq. 3.2 (β ≥ 2: level 1) gives
// D = 2 distinct tasks and B = 3 copies, 2 of them running: one copy,
// for task 1. (ThesisRule, ranking by t_rem, copies task 0.) With t_rem =
// 20 for task 0 (urgency 10) the factor alone would still pick task 1.
func TestSpeculateRunningMantriUrgency(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rule Rule
		rem0 float64
		want int
	}{{MantriRule, 10, 1}, {ThesisRule, 10, 0}, {MantriRule, 20, 0}} {
		p := Speculation{Rule: tc.rule, NewCopy: 2, Beta: 2}
		running := []RunningTask{{Copies: 1, Remaining: tc.rem0}, {Copies: 3, Remaining: 8}}
		launch, copies, err := SpeculateRunning(nil, running, 0, 5, p, nil)
		if err != nil || launch != 0 || !slices.Equal(copies, []int{tc.want}) {
			t.Errorf("%v, t_rem %v: %d, %v, %v; want 0, [%d]", tc.rule, tc.rem0, launch, copies, err, tc.want)
		}
		got, err := Speculate(nil, []Task{{State: Running, Copies: 1, Elapsed: 0, Remaining: tc.rem0}, {State: Running, Copies: 3, Elapsed: 0, Remaining: 8}}, 5, p, nil)
		if err != nil || !slices.Equal(got, []Action{{Task: tc.want, Kind: Copy}}) {
			t.Errorf("Speculate, %v, t_rem %v: %v, %v; want a copy of %d", tc.rule, tc.rem0, got, err, tc.want)
		}
	}
}

// TestSpeculateRunningEarlierCopies: the pass's check for tasks it cannot
// judge looks at every task's copies, not only the last one's. Under
// MantriRule (t_new 2, β = 2, δ = 0: cut-off 1) task 0 runs three copies
// with t_rem = 1.5: (3/4)·1.5 = 1.125 > 1 qualifies it, though the
// single-copy bar t_rem > 2 would not; task 1, last, runs one copy. And a
// task without a copy is rejected wherever it stands.
func TestSpeculateRunningEarlierCopies(t *testing.T) {
	t.Parallel()
	p := Speculation{Rule: MantriRule, NewCopy: 2, Beta: 2}
	launch, copies, err := SpeculateRunning(nil, []RunningTask{{3, 0, 1.5}, {1, 0, 0.1}}, 0, 5, p, nil)
	if err != nil || launch != 0 || !slices.Equal(copies, []int{0}) {
		t.Errorf("three copies first: %d, %v, %v; want 0, [0]", launch, copies, err)
	}
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		p.Rule = rule
		_, _, err := SpeculateRunning(nil, []RunningTask{{0, 0, 1}, {1, 0, 1}}, 0, 5, p, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != 0 || ie.Field != "Copies" {
			t.Errorf("%v, no copy first: %v; want task 0's copies", rule, err)
		}
	}
}

// TestSpeculateRunningSubnormalSingleCopy: a task running one copy is
// judged by t_rem > 2·cut-off, exactly, also on the exact pass that a
// task with more copies forces, where (1/2)·t_rem would round. t_new =
// 4·2^−1074, β = 2, δ = 0: cut-off x_m = 2·2^−1074. Task 0 (one copy,
// t_rem = 5·2^−1074) qualifies, 5 > 4; halved it would round to 2·2^−1074
// (ties to even) and not exceed the cut-off. Task 1 runs two copies.
func TestSpeculateRunningSubnormalSingleCopy(t *testing.T) {
	t.Parallel()
	const tiny = 0x1p-1074
	p := Speculation{Rule: MantriRule, NewCopy: 4 * tiny, Beta: 2}
	launch, copies, err := SpeculateRunning(nil, []RunningTask{{1, 0, 5 * tiny}, {2, 0, 0}}, 0, 4, p, nil)
	if err != nil || launch != 0 || !slices.Equal(copies, []int{0}) {
		t.Errorf("SpeculateRunning: %d, %v, %v; want 0, [0]", launch, copies, err)
	}
	got, err := Speculate(nil, []Task{{State: Running, Copies: 1, Elapsed: 0, Remaining: 5 * tiny}, {State: Running, Copies: 2, Elapsed: 0, Remaining: 0}}, 4, p, nil)
	if err != nil || !slices.Equal(got, []Action{{Task: 0, Kind: Copy}}) {
		t.Errorf("Speculate: %v, %v; want a copy of 0", got, err)
	}
}

// TestSpeculateMinElapsedNegativeZero: MinElapsed = −0 is 0 (it passes
// the check ≥ 0), so a task that has run for 0 may be copied: the pass,
// comparing IEEE bits, must not read −0 as larger than every time.
func TestSpeculateMinElapsedNegativeZero(t *testing.T) {
	t.Parallel()
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		p := Speculation{Rule: rule, NewCopy: 1, Beta: 1.5, MinElapsed: math.Copysign(0, -1)}
		launch, copies, err := SpeculateRunning(nil, []RunningTask{{1, 0, 5}}, 0, 2, p, nil)
		if err != nil || launch != 0 || !slices.Equal(copies, []int{0}) {
			t.Errorf("%v: SpeculateRunning %d, %v, %v; want 0, [0]", rule, launch, copies, err)
		}
		got, err := Speculate(nil, []Task{{State: Running, Copies: 1, Elapsed: 0, Remaining: 5}}, 2, p, nil)
		if err != nil || !slices.Equal(got, []Action{{Task: 0, Kind: Copy}}) {
			t.Errorf("%v: Speculate %v, %v; want a copy of 0", rule, got, err)
		}
	}
}

// TestSpeculateRunningMaxCount: the documented bounds at 2^53, accepted at
// the bound and rejected one past it — slots, a task's copies, and the
// running plus queued tasks. At the bound, a job of 2^53 tasks, one
// running, with 2^53 slots launches a queued task into every free slot.
func TestSpeculateRunningMaxCount(t *testing.T) {
	t.Parallel()
	p := Speculation{NewCopy: 1, Beta: 1.5}
	one := []RunningTask{{Copies: 1}}
	launch, copies, err := SpeculateRunning(nil, one, alloc.MaxTotal-1, alloc.MaxTotal, p, nil)
	if err != nil || launch != alloc.MaxTotal-1 || len(copies) != 0 {
		t.Errorf("2^53 tasks, 2^53 slots: %d, %v, %v; want 2^53 − 1 launches", launch, copies, err)
	}
	launch, copies, err = SpeculateRunning(nil, nil, alloc.MaxTotal, 3, p, nil)
	if err != nil || launch != 3 || len(copies) != 0 {
		t.Errorf("2^53 queued, 3 slots: %d, %v, %v; want 3 launches", launch, copies, err)
	}
	launch, copies, err = SpeculateRunning(nil, []RunningTask{{alloc.MaxTotal, 0, 5}}, 1, alloc.MaxTotal, p, nil)
	if err != nil || launch != 0 || len(copies) != 0 {
		t.Errorf("2^53 copies: %d, %v, %v; want nothing (no free slot)", launch, copies, err)
	}
	launch, copies, err = SpeculateRunning(nil, []RunningTask{{alloc.MaxTotal - 1, 0, 5}}, 1, alloc.MaxTotal, p, nil)
	if err != nil || launch != 1 || len(copies) != 0 {
		t.Errorf("2^53 − 1 copies: %d, %v, %v; want the queued task launched", launch, copies, err)
	}
	for _, tc := range []struct {
		name               string
		running            []RunningTask
		unscheduled, slots int
		index              int
		field              string
	}{
		{"slots", one, 0, alloc.MaxTotal + 1, check.Scalar, "slots"},
		{"queued", nil, alloc.MaxTotal + 1, 1, check.Scalar, "unscheduled"},
		{"queued and running", one, alloc.MaxTotal, 1, check.Scalar, "unscheduled"},
		{"Copies", []RunningTask{{1, 0, 0}, {alloc.MaxTotal + 1, 0, 0}}, 0, 1, 1, "Copies"},
	} {
		_, _, err := SpeculateRunning(nil, tc.running, tc.unscheduled, tc.slots, p, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field {
			t.Errorf("%s: got %v, want index %d field %q", tc.name, err, tc.index, tc.field)
		}
	}
}
