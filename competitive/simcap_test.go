package competitive

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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

// TestSimulateSigmaEdges: Simulate's service law X = Δ·B, B ~ Beta, has a
// variance only when σ² < Δ − 1, and needs shape parameters that are
// finite and > 0. At σ² = Δ − 1 (σ = 1, Δ = 2: a two-point law, no Beta)
// the error states the σ² < Δ − 1 rule. Where σ² < Δ − 1 holds in float64
// (checked here) but the shapes round to 0 (σ = 1.5524045547142946, Δ =
// 3.409959901497688: μ(1−μ)/v − 1 rounds to 0), to < 0 (σ ≈ 0.0393, Δ ≈
// 1.00154) or overflow (σ = 1e-170: v underflows to 0), Simulate still
// rejects σ, saying no Beta law is usable, rather than draw from Beta(0, 0)
// or Beta(+Inf, +Inf). Pairs found by searching σ just below √(Δ − 1).
func TestSimulateSigmaEdges(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1, MapWork: 1}}
	for _, c := range []struct {
		sigma, peak float64
		reason      string
	}{
		{1, 2, "sigma² < peak − 1"},
		{1.5524045547142946, 3.409959901497688, "no usable Beta law"},
		{0.039306471812269525, 1.0015449987263287, "no usable Beta law"},
		{1e-170, 2, "no usable Beta law"},
	} {
		if c.reason != "sigma² < peak − 1" && !(c.sigma*c.sigma < c.peak-1) {
			t.Fatalf("σ = %v, Δ = %v: σ² < Δ − 1 fails; the case tests nothing", c.sigma, c.peak)
		}
		_, _, err := simulate(jobs, Config{Machines: 2, Algorithm: AlgorithmFair, Sigma: c.sigma, Peak: c.peak, MaxSlots: 100}, rand.New(rand.NewPCG(1, 1)))
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "Sigma" || !strings.Contains(ie.Reason, c.reason) {
			t.Errorf("σ = %v, Δ = %v: err = %v, want an InputError on Sigma saying %q", c.sigma, c.peak, err, c.reason)
		}
	}
}

// TestSimulateEmptyPhaseWork: the work of a phase without tasks is any
// finite value ≥ 0 and plays no part in the run, not even in the default
// slot cap. A job of one map task of work 1 at speed 0.99 takes 2 slots
// (0.99 + 0.99 ≥ 1) whatever its task-less reduce phase's work — here
// MaxFloat64, which divided by the speed overflows: a cap that counted it
// would be 0·(+Inf) = NaN and reject the job.
func TestSimulateEmptyPhaseWork(t *testing.T) {
	t.Parallel()
	for _, w := range []float64{0, 1, math.MaxFloat64} {
		flow, stats, err := simulate([]SimJob{{MapTasks: 1, MapWork: 1, ReduceWork: w}}, Config{Machines: 1, Algorithm: AlgorithmFair, Speed: 0.99}, nil)
		if err != nil || !slices.Equal(flow, []int{2}) || stats.Slots != 2 {
			t.Errorf("reduce work %v without reduce tasks: flow %v, last slot %d, err %v; want [2], 2", w, flow, stats.Slots, err)
		}
	}
}
