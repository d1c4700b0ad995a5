package probe

import "testing"

// TestSimulateFreshestFirst: the freshest rejecting vector reaches the
// scheduler first and a staler one last, so re-placing by "the vector
// received last" would use the staler. Worked by hand, four general nodes,
// every job long but C (cut-off 10 s); the central scheduler places long
// tasks by least work left, ties to the smaller index:
//   - at 0, A (est 100, runs 1 s) goes to node 0, B (est 100, runs 1.5 s)
//     to node 1, E (est 100, runs 100 s) to node 2 with snapshot {0, 1, 2},
//     G (est 100, runs 100 s) to node 3 with {0, 1, 2, 3};
//   - A and B end, clearing nodes 0 and 1 in the central vector; at 2, D
//     (est 100, runs 100 s) goes to node 0 with {0, 2, 3}, published last;
//   - at 3, short job C (four 1 s tasks) probes all four nodes, in node
//     order: node 0 rejects first with {0, 2, 3}, node 1 accepts, node 2
//     rejects with {0, 1, 2}, node 3 last with {0, 1, 2, 3}.
//
// By the freshest, {0, 2, 3}, the three rejected probes are re-placed on
// node 1, and none falls back; by the vector received last, {0, 1, 2, 3},
// no node is free and all three would fall back.
func TestSimulateFreshestFirst(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Durations: []float64{1}, EstTask: 100},
		{Durations: []float64{1.5}, EstTask: 100},
		{Durations: []float64{100}, EstTask: 100},
		{Durations: []float64{100}, EstTask: 100},
		{Submit: 2, Durations: []float64{100}, EstTask: 100},
		{Submit: 3, Durations: []float64{1, 1, 1, 1}, EstTask: 1},
	}
	cfg := DefaultConfig(Eagle, 4, 10)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	for seed := uint64(1); seed <= 4; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if st := res.Stats; st.Rescheduled != 3 || st.Fallback != 0 {
			t.Errorf("seed %d: stats %+v; want 3 rescheduled by the freshest vector, none fallen back", seed, st)
		}
	}
}
