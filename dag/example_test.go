package dag_test

import (
	"fmt"

	"github.com/specsched/specsched/dag"
)

// Three DAG jobs on 20 slots, task durations Pareto with β = 1.5. Job B has
// the fewest upstream tasks but a heavy shuffle to follow (T' = 6, α = 4),
// so MaxSRPT orders it with job C (max{T, T'} = 6), ahead of C by its
// larger α; job A (max 3) comes first. With 20 slots the first three jobs
// are in case 2: A and B get their targets (2/β)·T·√(α/α_min) = 8 and 32/3,
// and C, the job of least α, is served last with what remains.
func ExampleAllocate() {
	jobs := []dag.Job{
		{Remaining: 3, Downstream: 1, Alpha: 1},    // A
		{Remaining: 2, Downstream: 6, Alpha: 4},    // B
		{Remaining: 6, Downstream: 6, Alpha: 0.25}, // C
	}
	var ws dag.Workspace
	slots, err := dag.Allocate(nil, jobs, 20, 1.5, &ws)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f\n", slots)
	// Output:
	// [8.000 10.667 1.333]
}

// The integer form rounds the real shares by largest remainder: the slots
// add up to the cluster's 20 exactly.
func ExampleAllocateSlots() {
	jobs := []dag.Job{
		{Remaining: 3, Downstream: 1, Alpha: 1},
		{Remaining: 2, Downstream: 6, Alpha: 4},
		{Remaining: 6, Downstream: 6, Alpha: 0.25},
	}
	slots, err := dag.AllocateSlots(nil, jobs, 20, 1.5, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(slots)
	// Output:
	// [8 11 1]
}

// A multi-wave job: its completed map tasks read 100 GB and wrote 50 GB of
// intermediate data (ratio 1/2), 300 GB of input remain, and the reducers
// have read 20 GB. The reducers have 30 + 150 = 180 GB left against 300 GB of
// map input: α = 0.6 before dampening. A Spark-like job (d = 0.8) and a
// Hadoop-like one (d = 0.3) weigh it less; d = 0 ignores pipelining.
func ExampleEstimateAlpha() {
	var done dag.Ratio
	for range 10 {
		_ = done.Add(10, 5) // ten completed tasks: 10 GB in, 5 GB out each
	}
	p := dag.Progress{Done: done, RemainingInput: 300, Read: 20}
	for _, d := range []float64{1, dag.DampeningSpark, dag.DampeningHadoop, 0} {
		alpha, err := dag.EstimateAlpha(p, dag.Ratio{}, d)
		if err != nil {
			panic(err)
		}
		fmt.Printf("d = %.1f: α = %.3f\n", d, alpha)
	}
	// Output:
	// d = 1.0: α = 0.600
	// d = 0.8: α = 0.665
	// d = 0.3: α = 0.858
	// d = 0.0: α = 1.000
}
