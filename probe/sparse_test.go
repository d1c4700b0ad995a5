package probe

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Issue 17: cost follows the work, not the number of nodes.

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
// Callers are not parallel tests, but TotalAlloc counts the whole process,
// so an allocation by another goroutine (the runtime's, the race
// detector's) can land inside the window: f runs
// five times and the least count is taken, which such a stray allocation
// does not raise unless it recurs in every run.
func allocated(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestPlaceProbesHugeCluster is issue 17's reproducer: 3 probes among 2³¹
// nodes took 8 GiB (an array of 2³¹ stamps). Now the bytes allocated are
// those of a sample of 3, the same as among 1 000 nodes.
func TestPlaceProbesHugeCluster(t *testing.T) {
	for _, count := range []int{1000, 1 << 31} {
		var got []int
		var err error
		bytes := allocated(func() { got, err = PlaceProbes(nil, 0, count, 3, rngFrom(1), nil) })
		if err != nil || len(got) != 3 {
			t.Fatalf("count %d: %v, %v", count, got, err)
		}
		for k, v := range got {
			if v < 0 || v >= count || slices.Contains(got[:k], v) {
				t.Fatalf("count %d: %v not 3 distinct nodes in range", count, got)
			}
		}
		if bytes > 4<<10 {
			t.Errorf("count %d: PlaceProbes allocated %d bytes for 3 probes", count, bytes)
		}
	}
	// The last node can be drawn, and a probe per node of a range at the
	// top of the index space is placed without touching the others.
	got, err := PlaceProbes(nil, MaxProbes-4, 4, 4, rngFrom(2), nil)
	slices.Sort(got)
	if err != nil || !slices.Equal(got, []int{MaxProbes - 4, MaxProbes - 3, MaxProbes - 2, MaxProbes - 1}) {
		t.Fatalf("top range: %v, %v", got, err)
	}
}

// permIndex numbers the ordered k-samples of [0, n) lexicographically by
// the mixed radix n, n−1, …: each value counts the unused values below it.
// It is written from the definition, independently of the sampler.
func permIndex(sample []int, n int) int {
	idx := 0
	for k, v := range sample {
		below := v
		for _, u := range sample[:k] {
			if u < v {
				below--
			}
		}
		idx = idx*(n-k) + below
	}
	return idx
}

// TestPlaceProbesExactDistribution: over all ordered samples — 5·4 = 20
// for 2 of 5 nodes (the rejection sampler with its hash set), 5·4·3 = 60
// for 3 of 5 (the partial shuffle), 64·63 = 4032 for 2 of 64 (many
// collisions in a small table) — every one is equally likely: a uniformly
// random subset in uniformly random order, PlaceProbes' documented
// distribution, checked by Pearson's χ² against the uniform reference.
func TestPlaceProbesExactDistribution(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, k, trials int }{{5, 2, 40000}, {5, 3, 60000}, {64, 2, 200000}} {
		outcomes := 1
		for i := 0; i < c.k; i++ {
			outcomes *= c.n - i
		}
		counts := make([]int, outcomes)
		rng := rngFrom(uint64(c.n*100 + c.k))
		var ws Workspace
		var dst []int
		for i := 0; i < c.trials; i++ {
			dst, _ = PlaceProbes(dst, 0, c.n, c.k, rng, &ws)
			counts[permIndex(dst, c.n)]++
		}
		chiSquareUniform(t, counts, "ordered samples")
	}
}

// testStateVectorSparse: a vector of up to 2³¹ nodes with a few long nodes
// anywhere agrees with a map model, and ReplaceProbes maps its ranks to the
// clear nodes as a reference does: the rank-r clear node is r plus the
// number of set nodes at or below it.
func testStateVectorSparse(t *rapid.T) {
	n := rapid.OneOf(rapid.IntRange(1, 300), rapid.IntRange(1, MaxProbes)).Draw(t, "nodes")
	v, _ := NewStateVector(n, 0)
	model := map[int]bool{}
	for range rapid.IntRange(0, 30).Draw(t, "ops") {
		i := rapid.OneOf(rapid.IntRange(0, min(n-1, 200)), rapid.IntRange(max(0, n-200), n-1), rapid.IntRange(0, n-1)).Draw(t, "i")
		long := rapid.IntRange(0, 3).Draw(t, "clearOneIn4") != 0
		if !v.SetLong(i, long) {
			t.Fatalf("SetLong(%d) out of range of %d", i, n)
		}
		model[i] = long
	}
	set := []int{}
	for i, long := range model {
		if v.Long(i) != long {
			t.Fatalf("Long(%d) = %v; want %v", i, v.Long(i), long)
		}
		if long {
			set = append(set, i)
		}
	}
	slices.Sort(set)
	if v.CountLong() != len(set) || v.Long(n) || v.Long(-1) {
		t.Fatalf("CountLong = %d; want %d", v.CountLong(), len(set))
	}
	if c := v.Clone(nil); !cmp.Equal(c, v, cmp.AllowUnexported(StateVector{})) {
		t.Fatal("clone differs")
	}
	candidates := n - len(set)
	if candidates == 0 {
		return
	}
	probes := rapid.IntRange(1, min(candidates, 40)).Draw(t, "probes")
	seed := rapid.Uint64().Draw(t, "seed")
	got, err := ReplaceProbes(nil, v, probes, rngFrom(seed), nil)
	if err != nil {
		t.Fatalf("ReplaceProbes: %v", err)
	}
	ranks := sampleSpread(nil, candidates, probes, rngFrom(seed), new(Workspace))
	slices.Sort(ranks)
	want := make([]int, len(ranks))
	for k, r := range ranks {
		node := r
		for _, b := range set {
			if b <= node {
				node++
			}
		}
		want[k] = node
	}
	if !slices.Equal(got, want) {
		t.Fatalf("ReplaceProbes = %v; want %v (set %v)", got, want, set)
	}
}

func TestStateVectorSparse(t *testing.T) { t.Parallel(); rapid.Check(t, testStateVectorSparse) }

// TestStateVectorHugeCheap: a vector of 2³¹ nodes costs nothing until bits
// are set, and one bit at the top costs one word.
func TestStateVectorHugeCheap(t *testing.T) {
	var v *StateVector
	bytes := allocated(func() {
		v, _ = NewStateVector(MaxProbes, 0)
		v.SetLong(MaxProbes-1, true)
		v.SetLong(0, true)
		v = v.Clone(nil)
	})
	if bytes > 1<<10 || v.CountLong() != 2 || !v.Long(MaxProbes-1) {
		t.Fatalf("%d bytes, CountLong %d", bytes, v.CountLong())
	}
}

// tinyWorkload: two short jobs and a long one, a few tasks each.
func tinyWorkload() []Job {
	return []Job{
		{Submit: 0, Durations: []float64{1, 2}, EstTask: 1.5},
		{Submit: 0.5, Durations: []float64{40, 50, 45}, EstTask: 45},
		{Submit: 1, Durations: []float64{3}, EstTask: 3},
	}
}

// TestSimulateHugeCluster is issue 17's reproducer at the package level
// (specsim probe -nodes 2147483647 -jobs 2 ran out of memory): a tiny
// workload on 2³¹−1 nodes allocates within a small factor of what it
// allocates on 1 000 nodes, under every policy, and every task runs.
func TestSimulateHugeCluster(t *testing.T) {
	jobs := tinyWorkload()
	for _, p := range []Scheduler{Eagle, Hawk, Sparrow, Hopper} {
		var small, huge *Result
		var errSmall, errHuge error
		cfg := DefaultConfig(p, 1000, 10)
		cfg.RecordTasks = true
		smallBytes := allocated(func() { small, errSmall = Simulate(jobs, cfg, rngFrom(1)) })
		cfg.Nodes = math.MaxInt32
		hugeBytes := allocated(func() { huge, errHuge = Simulate(jobs, cfg, rngFrom(1)) })
		if errSmall != nil || errHuge != nil {
			t.Fatalf("%v: %v, %v", p, errSmall, errHuge)
		}
		checkConservation(t, jobs, small)
		checkConservation(t, jobs, huge)
		if hugeBytes > 2*smallBytes+64<<10 {
			t.Errorf("%v: %d bytes on 2³¹−1 nodes, %d on 1 000", p, hugeBytes, smallBytes)
		}
	}
}

// testSimulateLayouts: the sparse layout of the nodes' state (used for
// clusters much larger than the work) gives exactly the results of the
// dense one (every node in an array), and a cluster of up to 2³¹ nodes
// keeps every conservation law.
func testSimulateLayouts(t *rapid.T) {
	jobs, thr := drawWorkload(t)
	cfg := drawConfig(t, thr)
	seed := rapid.Uint64().Draw(t, "seed")
	dense, err := simulate(jobs, cfg, rngFrom(seed))
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	sparse, err := simulate(jobs, cfg, rngFrom(seed), func(s *simulator) { s.sparse = true })
	if err != nil {
		t.Fatalf("Simulate sparse: %v", err)
	}
	if dense.slotOf != nil && len(jobs) > 0 {
		t.Fatalf("%d nodes for %d jobs: not dense", cfg.Nodes, len(jobs))
	}
	if d := cmp.Diff(dense.res, sparse.res); d != "" {
		t.Fatalf("sparse layout differs:\n%s", d)
	}
	cfg.Nodes = rapid.OneOf(rapid.IntRange(13, 1<<16), rapid.IntRange(MaxProbes-8, MaxProbes)).Draw(t, "hugeNodes")
	r, err := Simulate(jobs, cfg, rngFrom(seed))
	if err != nil {
		t.Fatalf("Simulate on %d nodes: %v", cfg.Nodes, err)
	}
	checkConservation(t, jobs, r)
}

func TestSimulateLayouts(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulateLayouts) }

// TestStateVectorLayouts: bits set word by word from node 0 keep the plain
// array (no index), one set past the stored words indexes them; either
// way a clone is equal and independent.
func TestStateVectorLayouts(t *testing.T) {
	t.Parallel()
	v, _ := NewStateVector(1000, 0)
	for _, i := range []int{3, 70, 64, 130, 5} {
		v.SetLong(i, true)
	}
	v.SetLong(900, false) // clearing an unstored word stores nothing
	if v.ix != nil || len(v.words) != 3 {
		t.Fatalf("prefix layout lost: ix %v, %d words", v.ix, len(v.words))
	}
	c := v.Clone(nil)
	v.SetLong(900, true) // word 14 after words 0–2
	v.SetLong(200, true) // word 3, between them
	if !slices.Equal(v.ix, []int{0, 1, 2, 3, 14}) || c.ix != nil || c.Long(900) {
		t.Fatalf("indexed layout: ix %v; clone ix %v, Long(900) %v", v.ix, c.ix, c.Long(900))
	}
	back := v.Clone(c) // reuses c
	if !cmp.Equal(back, v, cmp.AllowUnexported(StateVector{})) || &back.ix[0] == &v.ix[0] {
		t.Fatal("clone into an old vector differs or shares the index")
	}
	for _, i := range []int{3, 5, 64, 70, 130, 200, 900} {
		if !v.Long(i) || !back.Long(i) {
			t.Fatalf("node %d lost", i)
		}
	}
	if v.CountLong() != 7 || v.Long(899) || v.Long(901) || v.Long(300) {
		t.Fatalf("CountLong %d", v.CountLong())
	}
	free, _ := ReplaceProbes(nil, v, 993, rngFrom(1), nil) // every free node once
	if len(free) != 993 || slices.Contains(free, 900) || slices.Contains(free, 200) || free[992] != 999 {
		t.Fatalf("ReplaceProbes over both layouts: %d nodes, last %d", len(free), free[len(free)-1])
	}
}

// TestPlacementNoAllocs: with a reused dst and Workspace the samplers,
// Algorithm 1, LWL and HopperPick allocate nothing (the sparse sample's
// hash set and the dense sample's permutation are reused, not regrown).
func TestPlacementNoAllocs(t *testing.T) {
	rng := rngFrom(1)
	var ws Workspace
	dst := make([]int, 0, 64)
	v, _ := NewStateVector(MaxProbes, 0)
	for i := 0; i < 300; i += 3 {
		v.SetLong(i, true)
	}
	v.SetLong(MaxProbes-1, true)
	q := benchQueue(50)
	counters := make([]float64, 0, 50)
	work := []float64{3, 1, 2, 0}
	remaining, running := []float64{3, 1, 2}, []float64{1, 0, 1}
	queued := []int{2, 0}
	for name, f := range map[string]func(){
		"PlaceProbes sparse": func() { dst, _ = PlaceProbes(dst, 0, MaxProbes, 40, rng, &ws) },
		"PlaceProbes dense":  func() { dst, _ = PlaceProbes(dst, 5, 50, 40, rng, &ws) },
		"PlaceProbes spread": func() { dst, _ = PlaceProbes(dst, 0, 7, 40, rng, &ws) },
		"ReplaceProbes":      func() { dst, _ = ReplaceProbes(dst, v, 40, rng, &ws) },
		"GetProbeFromQueue":  func() { counters, _, _ = GetProbeFromQueue(counters, q) },
		"PlaceLWL":           func() { dst, _ = PlaceLWL(dst, work, 40, 1, &ws) },
		"HopperPick":         func() { _, _ = HopperPick(queued, remaining, running, 4, 1.5, 0.1, &ws) },
	} {
		f() // grow dst and ws
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
}

// TestHawkStealsFromHigherNode mirrors TestHawkStealsBehindRunningLong:
// the 100 s long task runs on node 1 and node 0, idle at t = 1, must find
// it — a victim index at or above the thief's is shifted past the thief.
func TestHawkStealsFromHigherNode(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Submit: 0, Durations: []float64{1}, EstTask: 50},      // long, node 0
		{Submit: 0.01, Durations: []float64{100}, EstTask: 50}, // long, node 1
		{Submit: 0.1, Durations: []float64{1}, EstTask: 1},
	}
	cfg := DefaultConfig(Hawk, 2, 10)
	cfg.ShortFraction, cfg.ProbeRatio = 0, 1
	for seed := uint64(1); seed <= 20; seed++ {
		r, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if r.Completion[2] > 5 {
			t.Fatalf("seed %d: short job took %v", seed, r.Completion[2])
		}
	}
}

// TestHawkShortPartitionNeverSteals: only general-partition nodes steal
// (Eagle §6.1). Nodes 0 and 1 (general) run 100 s long tasks; node 2 (the
// short partition) runs short tasks and then goes idle while short probes
// wait behind the long tasks. Nobody may steal them: the general nodes
// are busy and node 2 is not a thief.
func TestHawkShortPartitionNeverSteals(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Submit: 0, Durations: []float64{100, 100}, EstTask: 100},
		{Submit: 2, Durations: []float64{1, 1, 1}, EstTask: 1},
	}
	cfg := DefaultConfig(Hawk, 3, 10)
	cfg.ShortFraction = 0.34 // ShortPartition(3, 0.34) = 1: node 2
	for seed := uint64(1); seed <= 20; seed++ {
		r, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if r.Stats.Rescheduled != 0 || r.Stats.ShortAfterLong == 0 {
			t.Fatalf("seed %d: %+v; want no steal and short tasks run after the long ones", seed, r.Stats)
		}
	}
}

// TestSimulateLostAtLongDone: an estimate kept at placement (1e-5 s at t ≈
// 0) is lost when the central scheduler books the node's remaining work at
// t = 10¹², when the first of two long tasks on the only node ends.
func TestSimulateLostAtLongDone(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Eagle, 1, 1e-6)
	cfg.ShortFraction, cfg.NetworkDelay = 0, 0
	_, err := Simulate([]Job{{Durations: []float64{MaxTime, 1}, EstTask: 1e-5}}, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", 0, "EstTask")
}

// refSample is the sampler before issue 17, written from its definition:
// for 2k ≤ n, draw rng.IntN(n) and redraw values already drawn; otherwise
// shuffle 0..n−1 for k steps (partial Fisher–Yates). The hash set must not
// change a single draw, so the simulator's results stay those of before.
func refSample(n, k int, rng *rand.Rand) []int {
	out := []int{}
	if 2*k <= n {
		seen := map[int]bool{}
		for len(out) < k {
			if v := rng.IntN(n); !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		return out
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return append(out, perm[:k]...)
}

func TestSampleDrawSequence(t *testing.T) {
	t.Parallel()
	var ws Workspace
	for n := 1; n <= 12; n++ {
		for k := 0; k <= n; k++ {
			for seed := uint64(1); seed <= 4; seed++ {
				rng, refRNG := rngFrom(seed), rngFrom(seed)
				got, err := PlaceProbes(nil, 0, n, k, rng, &ws)
				want := refSample(n, k, refRNG)
				if k == n { // one round in node order, no draw (sampleSpread)
					want, refRNG = refSample(n, n, rngFrom(0)), rngFrom(seed)
					slices.Sort(want)
				}
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("PlaceProbes(n=%d, k=%d, seed %d) = %v, %v; the sampler's definition gives %v", n, k, seed, got, err, want)
				}
				// Not a draw more or less: the simulator's next draws are
				// unchanged too.
				if rng.Uint64() != refRNG.Uint64() {
					t.Fatalf("n=%d, k=%d, seed %d: the generator was advanced differently", n, k, seed)
				}
			}
		}
	}
}
