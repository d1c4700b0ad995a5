package competitive

import (
	"errors"
	"slices"
	"testing"

	"github.com/specsched/specsched"
)

// TestSimulateDefaultCapIsGenerous: MaxSlots = 0 means a cap that a
// feasible run never reaches. One machine at speed 1/128 serves 1000 map
// tasks of work 1 one at a time: 128 000 slots. The default cap,
// 64 + 64·tasks·⌈work/min(δ, 1)⌉ = 8 192 064, holds it; a cap that
// divided instead of multiplying anywhere in that product would not.
func TestSimulateDefaultCapIsGenerous(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1000, MapWork: 1}}
	flow, stats, err := simulate(jobs, Config{Machines: 1, Algorithm: AlgorithmFair, Speed: 1.0 / 128}, nil)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if flow[0] != 128000 || stats.Slots != 128000 {
		t.Errorf("flow %v, last slot %d; want 128000 (1000 tasks × 128 slots)", flow, stats.Slots)
	}
}

// TestSimulateUpFrontWork: a phase whose one task needs more slots than
// MaxSlots at δΔ per slot is rejected before simulating, naming the job and
// the phase's work — also the reduce phase of a job without map tasks —
// and a task that fits (work 1000 at δ = 100, Δ = 4: 2.5 slots) is not.
func TestSimulateUpFrontWork(t *testing.T) {
	t.Parallel()
	var ie *specsched.InputError
	_, _, err := simulate([]SimJob{{ReduceTasks: 1, ReduceWork: 1e15}}, Config{Machines: 1, Algorithm: AlgorithmFair, MaxSlots: 10}, nil)
	if !errors.As(err, &ie) || ie.Index != 0 || ie.Field != "ReduceWork" {
		t.Errorf("reduce work 1e15 with MaxSlots 10: err = %v, want an InputError on job 0 ReduceWork", err)
	}
	cfg := Config{Machines: 1, Algorithm: AlgorithmFair, Speed: 100, Peak: 4, MaxSlots: 20}
	if _, _, err := simulate([]SimJob{{MapTasks: 1, MapWork: 1000}}, cfg, nil); err != nil {
		t.Errorf("work 1000 at δ = 100 with MaxSlots 20: %v", err)
	}
}

// TestSimulateArrivalsOutOfOrder: jobs may be listed in any order of
// arrival. Three jobs of one map task of work 1 arriving at the ends of
// slots 5, 0 and 2 on two idle machines each run in the slot after their
// arrival: flow time 1 each, the last in slot 6.
func TestSimulateArrivalsOutOfOrder(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{Arrival: 5, MapTasks: 1, MapWork: 1}, {Arrival: 0, MapTasks: 1, MapWork: 1}, {Arrival: 2, MapTasks: 1, MapWork: 1}}
	for _, p := range []Algorithm{AlgorithmFair, AlgorithmSEW} {
		flow, stats, err := simulate(jobs, Config{Machines: 2, Algorithm: p}, nil)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if !slices.Equal(flow, []int{1, 1, 1}) || stats.Slots != 6 {
			t.Errorf("%v: flow %v, last slot %d; want [1 1 1], 6", p, flow, stats.Slots)
		}
	}
}

// TestSimulateStatsCounts: Stats counts copies, worked by hand. SEW on
// M = 8 (a map group of 4), deterministic service 1 per slot; job A has one
// map task of work 1, job B two of work 2 (Υ: A first). Slot 1: the three
// tasks launch and the idle fourth machine clones the first target, A's
// task (its copy joins the launch: 4 copies launched). Slot 2: A is done;
// B's two tasks run one copy each and the two idle machines clone one each
// (two Clone actions), and both finish. So 4 launched, 2 cloned, 8 busy
// machine-slots over 2 active slots, 3 tasks finished.
func TestSimulateStatsCounts(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1, MapWork: 1}, {MapTasks: 2, MapWork: 2}}
	_, stats, err := simulate(jobs, Config{Machines: 8, Algorithm: AlgorithmSEW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Slots: 2, ActiveSlots: 2, BusyMachineSlots: 8, Launched: 4, Cloned: 2, TasksFinished: 3}
	if stats != want {
		t.Errorf("stats %+v, want %+v", stats, want)
	}
}

// TestSimulatePreemptionCounts: preemption, worked by hand. Three machines;
// job A (3 map tasks of work 10) runs alone in slot 1 (3 copies launched);
// B and C (one task of work 1 each) arrive at its end, and Fair (and
// SREW+C with β = 1) gives each job one machine in slot 2: A's two other
// copies are preempted (two actions), B and C launch and finish (flow 1).
// From slot 3 A holds all three machines again and relaunches its two
// checkpointed tasks (7 launched in all); its first task finishes at the
// end of slot 10, the idle machine clones one of the other two in slot 11,
// and both finish then (flow 11). Busy machine-slots: 3 in each of 11 slots.
func TestSimulatePreemptionCounts(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 3, MapWork: 10}, {Arrival: 1, MapTasks: 1, MapWork: 1}, {Arrival: 1, MapTasks: 1, MapWork: 1}}
	want := Stats{Slots: 11, ActiveSlots: 11, BusyMachineSlots: 33, Launched: 7, Cloned: 1, Preempted: 2, TasksFinished: 5}
	for _, p := range []Algorithm{AlgorithmFair, AlgorithmSREWC} {
		flow, stats, err := simulate(jobs, Config{Machines: 3, Algorithm: p, Beta: 1}, nil)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if !slices.Equal(flow, []int{11, 1, 1}) || stats != want {
			t.Errorf("%v: flow %v, stats %+v; want [11 1 1], %+v", p, flow, stats, want)
		}
	}
}
