package stragglers_test

import (
	"fmt"
	"math"

	"github.com/specsched/specsched/stragglers"
)

// Two jobs of 10 tasks each on 40 slots: one in a class whose task
// durations have a heavy tail (β = 1.2), one in a class with a lighter
// tail (β = 1.8). Both are past their virtual sizes, so Algorithm 4 splits
// the slots as ΣT/√(β−1): 10/√0.2 : 10/√0.8 = 2 : 1. The heavier-tailed
// job gets two thirds, more than the half its task count would give it,
// because extra copies cut more off its stragglers.
func ExampleTwoClasses() {
	remaining := []float64{10, 10}
	beta := []float64{1.2, 1.8}
	slots, err := stragglers.TwoClasses(nil, remaining, beta, 40, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("heavy tail %.2f, light tail %.2f (proportional to tasks: 20, 20)\n", slots[0], slots[1])
	// Output:
	// heavy tail 26.67, light tail 13.33 (proportional to tasks: 20, 20)
}

// Three straggler classes, and a job whose tasks never straggle (β ≥ 2:
// no speculation). With 12 slots the water level stops in the middle
// class: the heaviest-tailed job holds T/√((β−1)·a) at that class's slope
// a = β²/(4(β−1)) = 9/8, the middle class fills its virtual sizes smallest
// job first, and the lighter classes wait.
func ExampleAllocate() {
	remaining := []float64{4, 3, 6, 5, 2}
	beta := []float64{1.25, 1.5, 1.5, 1.8, 3}
	var ws stragglers.Workspace
	slots, err := stragglers.Allocate(nil, remaining, beta, 12, &ws)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f\n", slots)
	// Output:
	// [7.542 4.000 0.458 0.000 0.000]
}

// The integer form: the same allocation rounded by largest remainder, the
// slots summing to the cluster's 12.
func ExampleAllocateSlots() {
	remaining := []float64{4, 3, 6, 5, 2}
	beta := []float64{1.25, 1.5, 1.5, 1.8, 3}
	slots, err := stragglers.AllocateSlots(nil, remaining, beta, 12, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(slots)
	// Output:
	// [8 4 0 0 0]
}

// Fitting the tail of completed task durations. The maximum-likelihood fit
// is x̂_m = min x_i and β̂ = n / Σ ln(x_i/x̂_m); for the durations 1, e, e²
// and 1 that is x̂_m = 1 and β̂ = 4/(0 + 1 + 2 + 0) = 4/3. (How fast the fit
// converges on Pareto samples is what TestFitParetoConverges checks.)
func ExampleFitPareto() {
	xm, beta, err := stragglers.FitPareto([]float64{1, math.E, math.E * math.E, 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("x_m = %.3f, β = %.4f\n", xm, beta)
	// Output:
	// x_m = 1.000, β = 1.3333
}

// Refitting as tasks complete, in O(1) per task, with the same fit as
// FitPareto on everything added so far. Durations e, 1, e², 1 arrive in
// that order: after two, x̂_m = 1 (the new minimum rescales the first) and
// β̂ = 2/(1 + 0) = 2; after three, 3/(1 + 0 + 2) = 1; after four, 4/3.
func ExampleParetoFit() {
	var fit stragglers.ParetoFit
	for n, d := range []float64{math.E, 1, math.E * math.E, 1} {
		if err := fit.Add(d); err != nil {
			panic(err)
		}
		if n == 0 {
			continue // one duration: no fit yet
		}
		xm, beta, err := fit.Fit()
		if err != nil {
			panic(err)
		}
		fmt.Printf("after %d tasks: x_m = %.3f, β = %.4f\n", n+1, xm, beta)
	}
	// Output:
	// after 2 tasks: x_m = 1.000, β = 2.0000
	// after 3 tasks: x_m = 1.000, β = 1.0000
	// after 4 tasks: x_m = 1.000, β = 1.3333
}

// Job A of the thesis's worked example (Table 2.1, Figure 2.3): four tasks,
// t_init = 8, 3, 3, 3 and t_new = 2, on the 5 slots Hopper gives it. At
// time 0 the four tasks launch and the fifth slot is kept for a copy (the
// speculation level 2/β = 1.25 for β = 1.6 makes 4 tasks and 1 copy); once
// stragglers can be told (here after 0.5 time units) the copy goes to A1,
// whose remaining 7.5 is the largest above t_new.
func ExampleSpeculate() {
	policy := stragglers.Speculation{Rule: stragglers.ThesisRule, NewCopy: 2, Beta: 1.6, MinElapsed: 0.5}
	var ws stragglers.Workspace
	tasks := make([]stragglers.Task, 4) // all unscheduled
	actions, err := stragglers.Speculate(nil, tasks, 5, policy, &ws)
	if err != nil {
		panic(err)
	}
	fmt.Println("t = 0:  ", actions)
	for i, init := range []float64{8, 3, 3, 3} {
		tasks[i] = stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: 0.5, Remaining: init - 0.5}
	}
	actions, err = stragglers.Speculate(actions, tasks, 5, policy, &ws)
	if err != nil {
		panic(err)
	}
	fmt.Println("t = 0.5:", actions)
	// Output:
	// t = 0:   [{0 launch} {1 launch} {2 launch} {3 launch}]
	// t = 0.5: [{0 copy}]
}

// The same job as ExampleSpeculate, held the way a scheduler holds it: a
// queue of tasks not yet started, and the running ones. At time 0 the
// queue has four tasks and SpeculateRunning starts all four; at t = 0.5
// the four are running and the one free slot copies the first (t_rem 7.5,
// the largest above t_new = 2).
func ExampleSpeculateRunning() {
	policy := stragglers.Speculation{Rule: stragglers.ThesisRule, NewCopy: 2, Beta: 1.6, MinElapsed: 0.5}
	var ws stragglers.Workspace
	launch, copies, err := stragglers.SpeculateRunning(nil, nil, 4, 5, policy, &ws)
	if err != nil {
		panic(err)
	}
	fmt.Println("t = 0:   launch", launch, "copy", copies)
	var running []stragglers.RunningTask
	for _, init := range []float64{8, 3, 3, 3} {
		running = append(running, stragglers.RunningTask{Copies: 1, Elapsed: 0.5, Remaining: init - 0.5})
	}
	launch, copies, err = stragglers.SpeculateRunning(copies, running, 0, 5, policy, &ws)
	if err != nil {
		panic(err)
	}
	fmt.Println("t = 0.5: launch", launch, "copy", copies)
	// Output:
	// t = 0:   launch 4 copy []
	// t = 0.5: launch 0 copy [0]
}

// LATE on a job of four running tasks and one free slot, with progress
// scores 0.1, 0.5, 0.6, 0.9 after 2, 1, 1, 1 time units: rates 0.05,
// 0.5, 0.6, 0.9. The slowest quarter is task 0 alone, whose estimated
// time to end is (1 − 0.1)/0.05 = 18: it gets the speculative copy (the
// cap, ⌈10% of 5 slots⌉ = 1, allows one).
func ExampleLATE() {
	tasks := []stragglers.TaskStatus{
		{Task: stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: 2}, Progress: 0.1},
		{Task: stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: 1}, Progress: 0.5},
		{Task: stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: 1}, Progress: 0.6},
		{Task: stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: 1}, Progress: 0.9},
	}
	actions, err := stragglers.LATE(nil, tasks, 5, stragglers.DefaultLATE(), nil)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		fmt.Println(a.Kind, a.Task)
	}
	// Output:
	// copy 0
}

// Spark's default speculation on a stage of five tasks: four finished in
// 2, 3, 4 and 10 (median 3.5, so the threshold is 1.5 × 3.5 = 5.25, and
// 4 ≥ ⌊0.75·5⌋ tasks are done); the running one has run 6, longer than
// that, and gets a copy.
func ExampleSparkSpeculate() {
	var tasks []stragglers.TaskStatus
	for _, d := range []float64{2, 3, 4, 10} {
		tasks = append(tasks, stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Finished}, Duration: d})
	}
	tasks = append(tasks, stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: 6}})
	actions, err := stragglers.SparkSpeculate(nil, tasks, 2, stragglers.DefaultSpark(), nil)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		fmt.Println(a.Kind, a.Task)
	}
	// Output:
	// copy 4
}
