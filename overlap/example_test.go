package overlap_test

import (
	"fmt"

	"github.com/specsched/specsched/overlap"
)

// The three jobs of §2.1, both stations serving them in the order J1, J2,
// J3 (FIFO): J1 (1, 2) finishes at 2, J2 (3, 1) at 4 — its shuffle buffer
// runs dry at 2.5, after which its shuffle is held to 1/3, the rate its map
// makes shuffle work — and J3 (2, 2) at 6. MaxSRPT serves J3 before J2.
func ExampleSimulate() {
	jobs := []overlap.Arrival{
		{Time: 0, Map: 1, Shuffle: 2},
		{Time: 0, Map: 3, Shuffle: 1},
		{Time: 0, Map: 2, Shuffle: 2},
	}
	var ws overlap.Workspace
	for _, kind := range []overlap.Algorithm{overlap.FIFO, overlap.MaxSRPT} {
		resp, err := overlap.Simulate(nil, jobs, 1, overlap.Discipline{Algorithm: kind}, &ws)
		if err != nil {
			panic(err)
		}
		fmt.Println(kind, resp)
	}
	lb, _ := overlap.LowerBound(jobs, 1, &ws)
	fmt.Println("lower bound on the total:", lb)
	// Output:
	// fifo [2 4 6]
	// maxsrpt [2 6 4]
	// lower bound on the total: 10
}

// MaxSRPT's rates for a snapshot of three jobs. Job 0 (sizes 4, 2; left 2
// and 1) has no shuffle work available, so its shuffle is held to
// (2/4)·1 = 0.5; job 1 has only shuffle work left. In the order of
// max(x(t), y(t)) — 2, 3, 4 — job 0 gets the map station, and the
// work-conserving shuffle station gives job 1 what job 0 cannot use; the
// strict Algorithm 1 leaves it idle.
func ExampleRates() {
	jobs := []overlap.Job{
		{Arrival: 0, Map: 4, Shuffle: 2, RemainingMap: 2, RemainingShuffle: 1},
		{Arrival: 1, Map: 0, Shuffle: 3, RemainingMap: 0, RemainingShuffle: 3},
		{Arrival: 2, Map: 4, Shuffle: 1, RemainingMap: 4, RemainingShuffle: 1},
	}
	for _, kind := range []overlap.Algorithm{overlap.MaxSRPT, overlap.MaxSRPTStrict} {
		rates, err := overlap.Rates(nil, jobs, 1, overlap.Discipline{Algorithm: kind}, nil)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-14s %+v\n", kind, rates)
	}
	// Output:
	// maxsrpt        [{Map:1 Shuffle:0.5} {Map:0 Shuffle:0.5} {Map:0 Shuffle:0}]
	// maxsrpt-strict [{Map:1 Shuffle:0.5} {Map:0 Shuffle:0} {Map:0 Shuffle:0}]
}

// Corollary 6's tight family: SplitSRPT against the paper's alternative
// schedule (FIFO on the listed order) for β = 2; the ratio of total response
// times approaches 1 + 1/β = 1.5 as n grows.
func ExampleCorollary6Instance() {
	for _, n := range []int{10, 100, 1000} {
		jobs, _ := overlap.Corollary6Instance(n, 2)
		split, _ := overlap.Simulate(nil, jobs, 1, overlap.Discipline{Algorithm: overlap.SplitSRPT}, nil)
		alt, _ := overlap.Simulate(nil, jobs, 1, overlap.Discipline{Algorithm: overlap.FIFO}, nil)
		fmt.Printf("n=%d ratio %.4f\n", n, sum(split)/sum(alt))
	}
	// Output:
	// n=10 ratio 1.2857
	// n=100 ratio 1.4712
	// n=1000 ratio 1.4970
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
