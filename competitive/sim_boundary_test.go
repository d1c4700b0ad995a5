package competitive

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched"
)

// TestSimulateToleranceBoundary: a task finishes in the slot in which its
// service reaches p·(1 − 10⁻⁹), equality included (Simulate's doc). One
// machine at speed δ = p·(1 − 10⁻⁹) serves a single task of work p: after
// one slot the service is δ, exactly the bound, so the job's flowtime is 1
// slot — with shared progress (Preemptive) and a copy's own progress
// (NonPreemptive) alike.
func TestSimulateToleranceBoundary(t *testing.T) {
	t.Parallel()
	for _, p := range []float64{1, 3, 0.7, 1e6} {
		speed := p * (1 - 1e-9)
		for _, mode := range []Mode{Preemptive, NonPreemptive} {
			flow, stats, err := simulate([]SimJob{{MapTasks: 1, MapWork: p}}, Config{Machines: 1, Algorithm: AlgorithmFair, Mode: mode, Speed: speed}, nil)
			if err != nil || !slices.Equal(flow, []int{1}) || stats.Slots != 1 || stats.TasksFinished != 1 {
				t.Errorf("p = %v, δ = p·(1 − 1e-9), mode %v: flow %v, stats %+v, %v; want flow [1] in slot 1", p, mode, flow, stats, err)
			}
		}
	}
}

// TestSimulateUpFrontBoundary: Simulate rejects a task up front when
// p·(1 − 2·10⁻⁹)/(δΔ) ≥ MaxSlots − a_j (its doc), equality included: the
// task then needs service p·(1 − 10⁻⁹) > (MaxSlots − a_j)·δΔ, more than
// the slots it has can deliver. Each work below is the smallest float64
// at that equality (checked first): 10.00000002 at δ = 1 with 10 slots
// needs 10.00000001 > 10. One ulp below, the task is within the margin
// the doc leaves for rounding: simulated, it cannot finish either, and the
// run ends with the MaxSlots error. A task that fits exactly (work 10, 10
// slots) finishes in slot MaxSlots; and one that fits at an arrival of
// 2⁴⁰ − 1, where a_j + p·(1 − 2·10⁻⁹) rounds to MaxSlots = 2⁴⁰ in
// float64, is not rejected.
func TestSimulateUpFrontBoundary(t *testing.T) {
	t.Parallel()
	ok := SimJob{MapTasks: 1, MapWork: 1}
	cases := []struct {
		name    string
		jobs    []SimJob
		speed   float64
		max     int
		work    float64 // the work on the boundary, or 0
		index   int
		field   string
		flow    []int
		lastRun int
	}{
		{"map at equality", []SimJob{{MapTasks: 1, MapWork: 10.00000002}}, 1, 10, 10.00000002, 0, "MapWork", nil, 0},
		{"reduce at equality, a_j = 3", []SimJob{{Arrival: 3, ReduceTasks: 1, ReduceWork: 7.000000014}}, 1, 10, 7.000000014, 0, "ReduceWork", nil, 0},
		{"second job at equality, δ = 2", []SimJob{ok, {Arrival: 3, MapTasks: 2, MapWork: 14.000000028}}, 2, 10, 14.000000028, 1, "MapWork", nil, 0},
		{"one ulp below", []SimJob{{MapTasks: 1, MapWork: math.Nextafter(10.00000002, 0)}}, 1, 10, 0, -1, "MaxSlots", nil, 0},
		{"fits exactly", []SimJob{{MapTasks: 1, MapWork: 10}}, 1, 10, 0, 0, "", []int{10}, 10},
		{"fits at a_j = 2^40 − 1", []SimJob{{Arrival: 1<<40 - 1, MapTasks: 1, MapWork: 0.99995}}, 1, 1 << 40, 0, 0, "", []int{1}, 1 << 40},
	}
	for _, c := range cases {
		if c.work != 0 {
			a := c.jobs[len(c.jobs)-1].Arrival
			if below := math.Nextafter(c.work, 0); c.work/c.speed*(1-2e-9) != float64(c.max-a) || below/c.speed*(1-2e-9) >= float64(c.max-a) {
				t.Fatalf("%s: work %v is not the smallest at the boundary", c.name, c.work)
			}
		}
		flow, stats, err := simulate(c.jobs, Config{Machines: 2, Algorithm: AlgorithmFair, Speed: c.speed, MaxSlots: c.max}, nil)
		if c.field == "" {
			if err != nil || !slices.Equal(flow, c.flow) || stats.Slots != c.lastRun {
				t.Errorf("%s: flow %v, last slot %d, %v; want %v, %d", c.name, flow, stats.Slots, err, c.flow, c.lastRun)
			}
			continue
		}
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != c.index || ie.Field != c.field {
			t.Errorf("%s: err = %v; want an InputError on index %d, field %q", c.name, err, c.index, c.field)
		}
	}
}

// TestSimulateDefaultCap: with MaxSlots 0 the default cap grows with the
// work (64 slots per task-slot of work, on top of the last arrival), so a
// single task of 200 slots, far beyond the 64 the cap starts from,
// finishes: flowtime 200 on one machine at unit speed.
func TestSimulateDefaultCap(t *testing.T) {
	t.Parallel()
	flow, _, err := simulate([]SimJob{{MapTasks: 1, MapWork: 200}}, Config{Machines: 1, Algorithm: AlgorithmFair}, nil)
	if err != nil || len(flow) != 1 || flow[0] != 200 {
		t.Fatalf("flow %v, err %v; want [200]", flow, err)
	}
}
