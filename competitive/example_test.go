package competitive_test

import (
	"fmt"

	"github.com/specsched/specsched/competitive"
)

// Four jobs on a 10-machine cluster. Their remaining effective workloads
// (λ = 0: unfinished tasks × mean task time) are 4, 2, 8 and 2; jobs 1 and
// 3 tie, and job 1, the smaller index, ranks first.
func ExampleMachines() {
	jobs := []competitive.Job{
		{Map: competitive.Phase{Tasks: 4, Mean: 1, Unscheduled: 4}},
		{Map: competitive.Phase{Tasks: 2, Mean: 1, Unscheduled: 2}},
		{Map: competitive.Phase{Tasks: 8, Mean: 1, Unscheduled: 8}},
		{Map: competitive.Phase{Tasks: 2, Mean: 1, Unscheduled: 2}},
	}
	var ws competitive.Workspace // reuse across slots: no allocations
	for _, beta := range []float64{0.5, 1} {
		shares, err := competitive.Shares(nil, jobs, 10, beta, 0, &ws)
		if err != nil {
			panic(err)
		}
		machines, err := competitive.Machines(nil, jobs, 10, beta, 0, &ws)
		if err != nil {
			panic(err)
		}
		fmt.Printf("β = %v: g = %v, machines %v\n", beta, shares, machines)
	}
	// Output:
	// β = 0.5: g = [0 5 0 5], machines [0 5 0 5]
	// β = 1: g = [2.5 2.5 2.5 2.5], machines [2 3 2 3]
}

// One slot of SREW+C(0.5) on 8 machines. Υ(t) is 12, 3 and 2: βN = 1.5, so
// job 2 gets M/1.5 = 5.33 and job 1 the other 2.67, rounded to 5 and 3.
// Job 0 runs 6 copies of its map tasks and is preempted; job 2's g − o = 4
// new copies all go to its one unscheduled reduce task (Algorithm 2 clones
// running tasks only when nothing is unscheduled).
func ExampleSREWC() {
	jobs := []competitive.Job{
		{Map: competitive.Phase{Tasks: 6, Mean: 2, Unscheduled: 3, Running: []int{2, 2, 2}}},
		{Map: competitive.Phase{Tasks: 3, Mean: 1, Unscheduled: 3}},
		{Map: competitive.Phase{Tasks: 1, Mean: 2}, Reduce: competitive.Phase{Tasks: 2, Mean: 1, Running: []int{1}, Unscheduled: 1}},
	}
	machines, _ := competitive.Machines(nil, jobs, 8, 0.5, 0, nil)
	fmt.Println("g:", machines)
	// A nil rng makes the random choices deterministic.
	actions, err := competitive.SREWC(nil, jobs, 8, 0.5, 0, competitive.Preemptive, nil, nil)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		fmt.Printf("job %d %v: %v task %d ×%d\n", a.Job, a.Stage, a.Kind, a.Task, a.Copies)
	}
	// Output:
	// g: [0 3 5]
	// job 0 map: preempt task 0 ×2
	// job 0 map: preempt task 1 ×2
	// job 0 map: preempt task 2 ×2
	// job 1 map: launch task 0 ×1
	// job 1 map: launch task 1 ×1
	// job 1 map: launch task 2 ×1
	// job 2 reduce: launch task 0 ×4
}

// SEW on a three-job batch on 4 machines (map and reduce groups of 2),
// with deterministic service (Δ = 1): its first slot, the whole run, and
// Theorem 3's guarantee against the lower bound of eq. 18. Jobs go by work:
// job 1 (3), job 2 (6), job 0 (14). Job 1 maps in slots 1–2 and reduces in
// 3; job 2 maps in 1–2 and 3–4 and reduces in 5–6; job 0 maps in 3–4, 5–6
// and 7–8 (its last task cloned on the idle map machine) and reduces in
// 9–11. The bound is max{Σ critical paths 5+3+4, (3·3+2·6+14)/4}.
func ExampleSEW() {
	batch := []competitive.SimJob{
		{MapTasks: 4, ReduceTasks: 2, MapWork: 2, ReduceWork: 3}, // work 14
		{MapTasks: 1, ReduceTasks: 1, MapWork: 2, ReduceWork: 1}, // work 3
		{MapTasks: 2, ReduceTasks: 1, MapWork: 2, ReduceWork: 2}, // work 6
	}
	jobs := make([]competitive.Job, len(batch))
	for j, b := range batch {
		jobs[j] = competitive.Job{
			Map:    competitive.Phase{Tasks: b.MapTasks, Mean: b.MapWork, Unscheduled: b.MapTasks},
			Reduce: competitive.Phase{Tasks: b.ReduceTasks, Mean: b.ReduceWork, Unscheduled: b.ReduceTasks},
		}
	}
	first, err := competitive.SEW(nil, jobs, 4, 0, nil, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("slot 1:", first)

	run, err := competitive.Simulate(batch, competitive.Config{Machines: 4, Algorithm: competitive.AlgorithmSEW}, nil)
	if err != nil {
		panic(err)
	}
	total := 0
	for _, f := range run.Flowtime {
		total += f
	}
	lb, _ := competitive.LowerBound(jobs, 4, 1, nil)
	ratio, _ := competitive.SEWRatio(1)
	fmt.Printf("flowtimes %v, total %d ≤ %v × %v\n", run.Flowtime, total, ratio, lb)
	// Output:
	// slot 1: [{1 map launch 0 1} {2 map launch 0 1}]
	// flowtimes [11 3 6], total 20 ≤ 3 × 12
}

// SEW, SREW+C(0.5) and Fair on two single-task jobs — A with 2 units of
// work, B with 4 — on 2 machines with deterministic service (one unit per
// machine per slot, so a clone never finishes a task sooner). Worked by
// hand:
//   - SEW: one machine per group; the map group runs A (smaller Υ) in
//     slots 1–2, then B in 3–6; the reduce machine idles throughout: A
//     ends at 2, B at 6, 6 of 12 machine-slots busy.
//   - SREW+C(0.5): N = 2, βN = 1, so the smaller job takes both machines,
//     one copy running and one clone: A in slots 1–2, then B alone in 3–6
//     with a clone that adds nothing: 2 and 6, every machine busy.
//   - Fair: one machine each; A ends at 2, B has done 2 of 4 and then runs
//     with a clone in slots 3–4: 2 and 4, 8 of 8 machine-slots busy.
//
// SREW+C's bet on cloning pays only when service varies (Theorem 4 is for
// that model); with deterministic service Fair is better here.
func ExampleSimulate() {
	jobs := []competitive.SimJob{{MapTasks: 1, MapWork: 2}, {MapTasks: 1, MapWork: 4}}
	for _, policy := range []competitive.Algorithm{competitive.AlgorithmSEW, competitive.AlgorithmSREWC, competitive.AlgorithmFair} {
		cfg := competitive.Config{Machines: 2, Algorithm: policy, Beta: 0.5}
		run, err := competitive.Simulate(jobs, cfg, nil)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-6v flowtimes %v, %d of %d machine-slots busy\n", policy, run.Flowtime, run.Stats.BusyMachineSlots, 2*run.Stats.ActiveSlots)
	}
	// Output:
	// SEW    flowtimes [2 6], 6 of 12 machine-slots busy
	// SREW+C flowtimes [2 6], 12 of 12 machine-slots busy
	// Fair   flowtimes [2 4], 8 of 8 machine-slots busy
}
