package competitive

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// wantInputError fails unless err is an InputError of fn naming job and
// field.
func wantInputError(t *testing.T, err error, fn string, job int, field string) {
	t.Helper()
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn || ie.Index != job || ie.Field != field {
		t.Fatalf("err = %v, want an InputError of %s naming job %d, field %q", err, fn, job, field)
	}
}

// TestIssue17HugeCounts: the reproducers of issue 17. One job of 2^53
// unscheduled map tasks on a cluster of about 2^53 machines would launch
// about 2^53 tasks in one slot — a plan no memory holds (the r-subset's bit
// set alone panicked with "makeslice: len out of range"). Counts up to 2^53
// are valid, so the calls must answer or reject: they reject, naming the
// job, before touching dst.
func TestIssue17HugeCounts(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Map: Phase{Tasks: 1 << 53, Mean: 1, Unscheduled: 1 << 53}}}
	before := cloneJobs(jobs)
	rng := rand.New(rand.NewPCG(1, 2))
	dst := []Action{{Job: 7, Copies: 3}}
	want := append([]Action(nil), dst...)

	_, err := SREWC(dst, jobs, 1<<53-1, 1, 0, Preemptive, rng, nil)
	wantInputError(t, err, "competitive.SREWC", 0, "machines")
	_, err = Plan(dst, jobs, []int{1<<53 - 1}, 1<<53, 0, Preemptive, rng, nil)
	wantInputError(t, err, "competitive.Plan", 0, "machines")
	_, err = SEW(dst, jobs, 1<<53, 0, rng, nil)
	wantInputError(t, err, "competitive.SEW", 0, "Map.Unscheduled")
	if diff := cmp.Diff(want, dst); diff != "" {
		t.Errorf("dst written by a rejected call (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Errorf("jobs modified (-before +after):\n%s", diff)
	}
}

// TestMaxActionsBoundary: the bound is exact, and it counts what costs —
// tasks launched (min(g−o, u) per job) and copies preempted — not the
// copies a launch or clone puts on one task.
func TestMaxActionsBoundary(t *testing.T) {
	t.Parallel()
	one := func(p Phase) []Job { return []Job{{Map: p}} }
	const fn = "competitive.Plan"

	// Preempting MaxActions copies is accepted (k = o and a nil rng draw
	// nothing, so this runs in O(1)); one more copy is rejected.
	for _, rng := range []*rand.Rand{nil, rand.New(rand.NewPCG(3, 4))} {
		jobs := one(Phase{Tasks: 1, Mean: 1, Running: []int{MaxActions}})
		got, err := Plan(nil, jobs, []int{0}, MaxActions, 0, Preemptive, rng, nil)
		if want := []Action{{Job: 0, Stage: MapStage, Kind: Preempt, Task: 0, Copies: MaxActions}}; err != nil || !cmp.Equal(got, want) {
			t.Fatalf("preempt all MaxActions copies: %v, %v; want %v", got, err, want)
		}
		jobs = one(Phase{Tasks: 1, Mean: 1, Running: []int{MaxActions + 1}})
		_, err = Plan(nil, jobs, []int{0}, MaxActions+1, 0, Preemptive, rng, nil)
		wantInputError(t, err, fn, 0, "machines")
		// NonPreemptive keeps the copies: nothing to bound.
		if got, err := Plan(nil, jobs, []int{0}, MaxActions+1, 0, NonPreemptive, rng, nil); err != nil || len(got) != 0 {
			t.Fatalf("non-preemptive: %v, %v; want no actions", got, err)
		}
	}
	// Nil rng, two tasks: the first MaxActions copies go, task by task.
	jobs := one(Phase{Tasks: 2, Mean: 1, Running: []int{MaxActions - 1, 7}})
	got, err := Plan(nil, jobs, []int{6}, MaxActions+6, 0, Preemptive, nil, nil)
	want := []Action{{Kind: Preempt, Task: 0, Copies: MaxActions - 1}, {Kind: Preempt, Task: 1, Copies: 1}}
	if err != nil || !cmp.Equal(got, want) {
		t.Fatalf("nil-rng preemption: %v, %v; want %v", got, err, want)
	}
	_, err = Plan(nil, jobs, []int{5}, MaxActions+6, 0, Preemptive, nil, nil)
	wantInputError(t, err, fn, 0, "machines")

	// Launching on MaxActions+1 tasks is rejected (at the second job, where
	// the sum passes the bound); 2^53 copies on one task are one action.
	jobs = []Job{{Map: Phase{Tasks: 5, Mean: 1, Unscheduled: 5}}, {Map: Phase{Tasks: MaxActions, Mean: 1, Unscheduled: MaxActions}}}
	_, err = Plan(nil, jobs, []int{5, MaxActions - 4}, 1<<53, 0, Preemptive, nil, nil)
	wantInputError(t, err, fn, 1, "machines")
	got, err = Plan(nil, one(Phase{Tasks: 1, Mean: 1, Unscheduled: 1}), []int{1 << 53}, 1<<53, 0, Preemptive, rand.New(rand.NewPCG(1, 1)), nil)
	if want := []Action{{Kind: Launch, Copies: 1 << 53}}; err != nil || !cmp.Equal(got, want) {
		t.Fatalf("2^53 copies on one task: %v, %v; want %v", got, err, want)
	}
	got, err = Plan(nil, one(Phase{Tasks: 1, Mean: 1, Running: []int{1}}), []int{1 << 53}, 1<<53, 0, Preemptive, rand.New(rand.NewPCG(1, 1)), nil)
	if want := []Action{{Kind: Clone, Copies: 1<<53 - 1}}; err != nil || !cmp.Equal(got, want) {
		t.Fatalf("2^53 − 1 clones of one task: %v, %v; want %v", got, err, want)
	}

	// SEW: MaxActions idle map machines clone the one running task (a nil
	// rng spreads them in O(1)); one more idle machine is rejected, with a
	// rng too, before any draw.
	jobs = one(Phase{Tasks: 1, Mean: 1, Running: []int{1}})
	m := 2*(MaxActions+1) - 1 // map group MaxActions + 1, one machine busy
	got, err = SEW(nil, jobs, m, 0, nil, nil)
	if want := []Action{{Kind: Clone, Copies: MaxActions}}; err != nil || !cmp.Equal(got, want) {
		t.Fatalf("SEW, MaxActions clones: %v, %v; want %v", got, err, want)
	}
	for _, rng := range []*rand.Rand{nil, rand.New(rand.NewPCG(1, 1))} {
		_, err = SEW(nil, jobs, m+2, 0, rng, nil)
		wantInputError(t, err, "competitive.SEW", 0, "Map.Unscheduled")
	}
	// SEW launching MaxActions + 1 tasks: rejected, naming the last job
	// served; the reduce group is checked too.
	jobs = []Job{{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}, {Map: Phase{Tasks: 1 << 53, Mean: 2, Unscheduled: 1 << 53}}}
	_, err = SEW(nil, jobs, 2*(MaxActions+1), 0, nil, nil)
	wantInputError(t, err, "competitive.SEW", 1, "Map.Unscheduled")
	jobs = []Job{{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: 1 << 53, Mean: 1, Unscheduled: 1 << 53}}}
	_, err = SEW(nil, jobs, 2*(MaxActions+1), 0, nil, nil)
	wantInputError(t, err, "competitive.SEW", 0, "Reduce.Unscheduled")
	// A reduce group blocked by a job still mapping does nothing at any M.
	jobs = []Job{{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}, Reduce: Phase{Tasks: 1 << 53, Mean: 1, Unscheduled: 1 << 53}}}
	got, err = SEW(nil, jobs, 4, 0, nil, nil)
	if err != nil || len(got) != 1 || got[0].Kind != Clone {
		t.Fatalf("SEW, blocked reduce group: %v, %v; want one map clone", got, err)
	}
}

// testSEWWork: sewWork, the O(n) count SEW checks against MaxActions,
// agrees with the plan SEW then makes: the Launch actions of each phase,
// and the copies added beyond one per launch.
func testSEWWork(t *rapid.T) {
	jobs, machines, lambda := sewInput(t)
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	}
	got, err := SEW(nil, jobs, machines, lambda, rng, nil)
	if err != nil {
		t.Fatalf("SEW: %v", err)
	}
	var launches, copies [2]int
	for _, a := range got {
		launches[a.Stage] += b2i(a.Kind == Launch)
		copies[a.Stage] += a.Copies
	}
	var used [2]int
	for j := range jobs {
		used[jobs[j].stage()] += jobs[j].copies()
	}
	for z, group := range [2]int{(machines + 1) / 2, machines / 2} {
		l, c, _ := sewWork(jobs, Stage(z), group-used[z], lambda)
		if l != launches[z] || c != copies[z]-launches[z] {
			t.Fatalf("phase %v: sewWork = %d launches, %d clones; SEW made %d and %d", Stage(z), l, c, launches[z], copies[z]-launches[z])
		}
	}
}

func TestSEWWork(t *testing.T) { t.Parallel(); rapid.Check(t, testSEWWork) }

// TestCostFollowsWork: at fixed work — 3 tasks launched, 3 copies
// preempted at random, 3 tasks launched by SEW — memory and allocations
// do not grow with the cluster, from 2^10 machines to 2^53: none with a
// reused dst and workspace, and the same bytes with fresh ones. (Not
// parallel: the byte count reads the process's allocation statistics.)
func TestCostFollowsWork(t *testing.T) {
	calls := func(m int) map[string]func(dst []Action, ws *Workspace) ([]Action, error) {
		rng := rand.New(rand.NewPCG(9, 9))
		launch := []Job{{Map: Phase{Tasks: m, Mean: 1, Unscheduled: m}}}
		busy := []Job{{Map: Phase{Tasks: m, Mean: 1, Unscheduled: m - 1, Running: []int{m - 3}}}}
		half := m / 2
		preempt := []Job{{Map: Phase{Tasks: 2, Mean: 1, Running: []int{half, m - half}}}}
		sew := []Job{{Map: Phase{Tasks: 4, Mean: 1, Unscheduled: 3, Running: []int{(m+1)/2 - 3}}}}
		return map[string]func([]Action, *Workspace) ([]Action, error){
			"Plan launch": func(dst []Action, ws *Workspace) ([]Action, error) {
				return Plan(dst, launch, []int{3}, m, 0, Preemptive, rng, ws)
			},
			"SREWC launch": func(dst []Action, ws *Workspace) ([]Action, error) {
				return SREWC(dst, busy, m, 1, 0, Preemptive, rng, ws)
			},
			"Plan preempt": func(dst []Action, ws *Workspace) ([]Action, error) {
				return Plan(dst, preempt, []int{m - 3}, m, 0, Preemptive, rng, ws)
			},
			"SEW launch": func(dst []Action, ws *Workspace) ([]Action, error) {
				return SEW(dst, sew, m, 0, rng, ws)
			},
		}
	}
	bytes := func(call func([]Action, *Workspace) ([]Action, error)) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			if _, err := call(nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 10
	}
	base := map[string]uint64{}
	for _, m := range []int{1 << 10, 1 << 20, 1 << 40, 1 << 53} {
		for name, call := range calls(m) {
			got, err := call(nil, nil)
			if err != nil {
				t.Fatalf("%s, M = %d: %v", name, m, err)
			}
			copies := 0
			for _, a := range got {
				copies += a.Copies
			}
			if copies != 3 || len(got) > 3 || (len(got) < 3 && name != "Plan preempt") {
				t.Fatalf("%s, M = %d: %v, want 3 copies changed, on 3 tasks unless preempted", name, m, got)
			}
			var ws Workspace
			dst, _ := call(nil, &ws)
			if a := testing.AllocsPerRun(5, func() { dst, _ = call(dst, &ws) }); a != 0 {
				t.Errorf("%s, M = %d: %v allocs/op with a reused dst and workspace", name, m, a)
			}
			b := bytes(call)
			if m == 1<<10 {
				base[name] = b
			} else if b > base[name]+64 {
				t.Errorf("%s: %d bytes/op at M = %d, %d at M = 2^10: memory grows with the cluster", name, b, m, base[name])
			}
		}
	}
}

// TestOverMax: Plan's count of the slot's work, at the bound and one past
// it, summed over jobs: launches are min(k, u) per job granted k copies,
// preemptions −k in Preemptive mode only; the first job past the bound is
// named. (The plans themselves would hold 2^30 actions: the count is
// checked on its own.)
func TestOverMax(t *testing.T) {
	t.Parallel()
	unscheduled := func(u int) Job { return Job{Map: Phase{Tasks: u, Mean: 1, Unscheduled: u}} }
	running := func(c int) Job { return Job{Map: Phase{Tasks: 1, Mean: 1, Running: []int{c}}} }
	for _, tc := range []struct {
		name  string
		jobs  []Job
		grant []int
		mode  Mode
		want  int
	}{
		{"launch = MaxActions", []Job{unscheduled(MaxActions - 3), unscheduled(5)}, []int{MaxActions, 3}, Preemptive, -1},
		{"launch = MaxActions+1", []Job{unscheduled(MaxActions - 3), unscheduled(5)}, []int{MaxActions, 4}, Preemptive, 1},
		{"launch counts min(k, u)", []Job{unscheduled(2), unscheduled(MaxActions - 2)}, []int{1 << 53, MaxActions}, Preemptive, -1},
		{"launch past the bound in job 0", []Job{unscheduled(MaxActions + 1), unscheduled(1)}, []int{MaxActions + 1, 1}, NonPreemptive, 0},
		{"preempt = MaxActions", []Job{running(1 << 29), running(1 << 29)}, []int{-(1 << 29), -(1 << 29)}, Preemptive, -1},
		{"preempt = MaxActions+1", []Job{running(1 << 29), running(1<<29 + 1)}, []int{-(1 << 29), -(1<<29 + 1)}, Preemptive, 1},
		{"no preemption when non-preemptive", []Job{running(1 << 53)}, []int{-(1 << 53)}, NonPreemptive, -1},
		{"launches and preemptions apart", []Job{unscheduled(MaxActions), running(MaxActions)}, []int{MaxActions, -MaxActions}, Preemptive, -1},
		{"clones are not launches", []Job{running(1)}, []int{1 << 53}, Preemptive, -1},
	} {
		ws := Workspace{grant: tc.grant}
		if got := ws.overMax(tc.jobs, tc.mode); got != tc.want {
			t.Errorf("%s: overMax = %d, want %d", tc.name, got, tc.want)
		}
	}
}
