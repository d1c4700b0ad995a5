package overlap

import (
	"slices"
	"testing"
)

// TestOneLPSManyJobs: 1-LPS serves one map at a time, so n jobs of map 1
// and no shuffle, all arriving at 0 on a station of speed 1, complete at
// 1, 2, …, n: the responses, in some order, are exactly 1, …, n. With n =
// 40 the run has about n events, far below the engine's stall guard
// (64·n·(min(k, n)+2) + 1024; reset's doc: events are O(n·k)); a guard
// that shrank with k would stop it as a stall.
func TestOneLPSManyJobs(t *testing.T) {
	t.Parallel()
	const n = 40
	jobs := make([]Arrival, n)
	want := make([]float64, n)
	for i := range jobs {
		jobs[i] = Arrival{Map: 1}
		want[i] = float64(i + 1)
	}
	got, err := Simulate(nil, jobs, 1, Discipline{Algorithm: KLPS, K: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("1-LPS responses %v, want 1, …, %d", got, n)
	}
}
