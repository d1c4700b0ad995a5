package probe

import (
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// falseAlarm is the false-alarm rate of each distribution test below: the
// probability that a correct sampler fails it at a given seed.
const falseAlarm = 1e-3

// chiSquare returns Pearson's statistic of observed counts against
// expected ones and the critical value at falseAlarm with len−1 degrees
// of freedom.
func chiSquare(observed []int, expected []float64) (stat, crit float64) {
	for i, o := range observed {
		d := float64(o) - expected[i]
		stat += d * d / expected[i]
	}
	return stat, distuv.ChiSquared{K: float64(len(observed) - 1)}.Quantile(1 - falseAlarm)
}

// TestPlaceProbesWithReplacementBinomial: with replacement, the number of a
// job's k probes that land on a given node of n is Binomial(k, 1/n), and
// every node is equally likely. n = 8, k = 12: Distinct gives each node 1
// or 2 probes (⌊12/8⌋ = 1, then 4 distinct), so the binomial's 0 and 3+
// bins, 20% and 18% of the mass, tell the two apart at once. χ² tests at
// false-alarm rate 1e-3 each (falseAlarm), 20 000 draws at a fixed seed.
func TestPlaceProbesWithReplacementBinomial(t *testing.T) {
	t.Parallel()
	const n, k, first = 8, 12, 5
	trials := 20000
	if testing.Short() {
		trials = 5000
	}
	rng := rngFrom(3)
	var ws Workspace
	var dst []int
	bins := make([]int, 5) // node 0's count: 0, 1, 2, 3, ≥ 4
	perNode := make([]int, n)
	repeats := 0
	for i := 0; i < trials; i++ {
		var err error
		if dst, err = PlaceProbesWith(dst, first, n, k, WithReplacement, rng, &ws); err != nil || len(dst) != k {
			t.Fatalf("PlaceProbesWith = %v, %v", dst, err)
		}
		counts := make([]int, n)
		for _, v := range dst {
			if v < first || v >= first+n {
				t.Fatalf("node %d outside [%d, %d)", v, first, first+n)
			}
			counts[v-first]++
			perNode[v-first]++
		}
		bins[min(counts[0], 4)]++
		if slices.Max(counts) > 1 {
			repeats++
		}
	}
	b := distuv.Binomial{N: k, P: 1.0 / n}
	expected := make([]float64, 5)
	for c := 0; c < 4; c++ {
		expected[c] = float64(trials) * b.Prob(float64(c))
	}
	expected[4] = float64(trials) * (1 - b.CDF(3))
	if stat, crit := chiSquare(bins, expected); stat > crit {
		t.Errorf("node 0's probe count: χ² = %.1f > %.1f; counts %v, Binomial(%d, 1/%d) expects %.0f", stat, crit, bins, k, n, expected)
	}
	uniform := make([]float64, n)
	for i := range uniform {
		uniform[i] = float64(trials*k) / n
	}
	if stat, crit := chiSquare(perNode, uniform); stat > crit {
		t.Errorf("probes per node: χ² = %.1f > %.1f; counts %v", stat, crit, perNode)
	}
	if repeats != trials { // 12 probes on 8 nodes always repeat
		t.Errorf("%d of %d draws repeat a node; want all", repeats, trials)
	}
	// Distinct stays distinct: 1 or 2 probes per node, never 0 or 3.
	for i := 0; i < 200; i++ {
		dst, _ = PlaceProbesWith(dst, first, n, k, Distinct, rng, &ws)
		counts := make([]int, n)
		for _, v := range dst {
			counts[v-first]++
		}
		if slices.Min(counts) != 1 || slices.Max(counts) != 2 {
			t.Fatalf("Distinct gave per-node counts %v; want 1 or 2 each", counts)
		}
	}
}

// TestPlaceProbesWithDraws: with replacement, probe i goes to first +
// rng.IntN(count), the i-th draw, and nothing else is drawn (the authors'
// simulator's random.randint per probe); Distinct is PlaceProbes draw for
// draw.
func TestPlaceProbesWithDraws(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 5; seed++ {
		for _, c := range []struct{ first, count, probes int }{{0, 1, 3}, {7, 10, 4}, {0, 1000, 25}, {3, 5, 40}} {
			got, err := PlaceProbesWith(nil, c.first, c.count, c.probes, WithReplacement, rngFrom(seed), nil)
			ref := rngFrom(seed)
			want := make([]int, c.probes)
			for i := range want {
				want[i] = c.first + ref.IntN(c.count)
			}
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("%+v seed %d: got %v, %v; want %v", c, seed, got, err, want)
			}
			dist, _ := PlaceProbesWith(nil, c.first, c.count, c.probes, Distinct, rngFrom(seed), nil)
			plain, _ := PlaceProbes(nil, c.first, c.count, c.probes, rngFrom(seed), nil)
			if !slices.Equal(dist, plain) {
				t.Fatalf("%+v seed %d: Distinct %v, PlaceProbes %v", c, seed, dist, plain)
			}
		}
	}
}

// testReplaceProbesWith: with replacement, the re-placed probes are the
// free nodes of ranks rng.IntN(free) (k draws), sorted, each rank mapped to
// the free node of that rank, so equal ranks give the same node — the
// reference is a plain list of the free nodes; Distinct is ReplaceProbes.
func testReplaceProbesWith(t *rapid.T) {
	n := rapid.IntRange(0, 300).Draw(t, "nodes")
	v, _ := NewStateVector(n, 0)
	var freeNodes []int
	for i := 0; i < n; i++ {
		if rapid.IntRange(0, 2).Draw(t, "longOneIn3") == 0 {
			v.SetLong(i, true)
		} else {
			freeNodes = append(freeNodes, i)
		}
	}
	probes := rapid.IntRange(0, 200).Draw(t, "probes")
	seed := rapid.Uint64().Draw(t, "seed")
	got, err := ReplaceProbesWith(nil, v, probes, WithReplacement, rngFrom(seed), nil)
	if err != nil {
		t.Fatalf("ReplaceProbesWith: %v", err)
	}
	var want []int
	if len(freeNodes) > 0 {
		ref := rngFrom(seed)
		for i := 0; i < probes; i++ {
			want = append(want, freeNodes[ref.IntN(len(freeNodes))])
		}
		slices.Sort(want)
	}
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("got %v; want %v", got, want)
	}
	dist, _ := ReplaceProbesWith(nil, v, probes, Distinct, rngFrom(seed), nil)
	plain, _ := ReplaceProbes(nil, v, probes, rngFrom(seed), nil)
	if !slices.Equal(dist, plain) {
		t.Fatalf("Distinct %v, ReplaceProbes %v", dist, plain)
	}
}

func TestReplaceProbesWith(t *testing.T) { t.Parallel(); rapid.Check(t, testReplaceProbesWith) }
func FuzzReplaceProbesWith(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testReplaceProbesWith)) }

// testPlaceWithNoPanic: any arguments, an unknown sampling included, give
// nodes in range or an InputError with dst untouched.
func testPlaceWithNoPanic(t *rapid.T) {
	first := rapid.IntRange(-3, MaxProbes+3).Draw(t, "first")
	count := rapid.IntRange(-3, 300).Draw(t, "count")
	probes := rapid.IntRange(-3, 300).Draw(t, "probes")
	sampling := Sampling(rapid.IntRange(0, 3).Draw(t, "sampling"))
	rng := drawRNG(t, "seed")
	if rapid.IntRange(0, 9).Draw(t, "nilRNGOneIn10") == 0 {
		rng = nil
	}
	dst := []int{-9, -9}
	got, err := PlaceProbesWith(dst, first, count, probes, sampling, rng, nil)
	if err != nil {
		if !isInputError(err) || got != nil || dst[0] != -9 {
			t.Fatalf("error %v, got %v, dst %v", err, got, dst)
		}
	} else if len(got) != probes {
		t.Fatalf("%d nodes; want %d", len(got), probes)
	}
	for _, v := range got {
		if v < first || v >= first+count {
			t.Fatalf("node %d outside [%d, %d)", v, first, first+count)
		}
	}
	vec, _ := NewStateVector(rapid.IntRange(0, 200).Draw(t, "nodes"), 0)
	for i := 0; i < vec.Len(); i += 3 {
		vec.SetLong(i, true)
	}
	got, err = ReplaceProbesWith(nil, vec, probes, sampling, rng, nil)
	if err != nil && !isInputError(err) {
		t.Fatalf("error %T", err)
	}
	for _, v := range got {
		if vec.Long(v) || v < 0 || v >= vec.Len() {
			t.Fatalf("node %d not free", v)
		}
	}
}

func TestPlaceWithNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testPlaceWithNoPanic) }
func FuzzPlaceProbesWith(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(testPlaceWithNoPanic)) }

// hawkBlocked is the scenario of TestHawkShortPartitionNeverSteals: nodes 0
// and 1 (general) run 100 s long tasks; node 2 (the short partition) runs
// two of the short job's three 1 s tasks and goes idle at about t = 4 while
// the job's other probes wait behind the long tasks.
func hawkBlocked() ([]Job, Config) {
	jobs := []Job{
		{Submit: 0, Durations: []float64{100, 100}, EstTask: 100},
		{Submit: 2, Durations: []float64{1, 1, 1}, EstTask: 1},
	}
	cfg := DefaultConfig(Hawk, 3, 10)
	cfg.ShortFraction = 0.34 // ShortPartition(3, 0.34) = 1: node 2
	return jobs, cfg
}

// TestThievesOption: under GeneralThieves the idle short-partition node
// never steals (no probe stolen, the short job waits for the long tasks,
// about 100 s); under AllThieves it steals the blocked probes from a
// general node (both victims hold a batch, so one of the 10 attempts
// succeeds), every steal is by the short node, and the job finishes within
// a few seconds.
func TestThievesOption(t *testing.T) {
	t.Parallel()
	jobs, cfg := hawkBlocked()
	for seed := uint64(1); seed <= 20; seed++ {
		cfg.Thieves = GeneralThieves
		r, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if st := r.Stats; st.StolenByShort != 0 || st.Rescheduled != 0 || st.ShortAfterLong == 0 || r.Completion[1] < 98 {
			t.Fatalf("general, seed %d: %+v, short job %v s; want no steal and a wait behind the long tasks", seed, st, r.Completion[1])
		}
		cfg.Thieves = AllThieves
		if r, err = Simulate(jobs, cfg, rngFrom(seed)); err != nil {
			t.Fatal(err)
		}
		if st := r.Stats; st.StolenByShort == 0 || st.StolenByShort != st.Rescheduled || r.Completion[1] > 5 {
			t.Fatalf("all, seed %d: %+v, short job %v s; want steals by node 2 and the job done within 5 s", seed, st, r.Completion[1])
		}
	}
}

// testThievesProperty: on random small workloads, no probe is ever stolen
// by a short-partition node under GeneralThieves, and the stolen-by-short
// count is a part of Rescheduled under AllThieves; without a short
// partition, or under another policy than Hawk, Thieves changes nothing,
// bit for bit.
func testThievesProperty(t *rapid.T) {
	nodes := rapid.IntRange(2, 12).Draw(t, "nodes")
	jobs := make([]Job, rapid.IntRange(1, 12).Draw(t, "jobs"))
	for j := range jobs {
		d := make([]float64, rapid.IntRange(1, 6).Draw(t, "tasks"))
		for k := range d {
			d[k] = quarters(t, 40, "duration")
		}
		jobs[j] = Job{Submit: quarters(t, 30, "submit"), Durations: d, EstTask: quarters(t, 40, "est")}
	}
	policy := rapid.SampledFrom([]Scheduler{Eagle, Hawk, Sparrow}).Draw(t, "policy")
	cfg := DefaultConfig(policy, nodes, 10)
	if policy != Sparrow {
		cfg.ShortFraction = rapid.SampledFrom([]float64{0, 0.2, 0.5}).Draw(t, "shortFraction")
	}
	cfg.Sampling = Sampling(rapid.IntRange(0, 1).Draw(t, "sampling"))
	seed := rapid.Uint64().Draw(t, "seed")
	run := func(th Thieves) (*Result, error) {
		c := cfg
		c.Thieves = th
		return Simulate(jobs, c, rngFrom(seed))
	}
	general, err := run(GeneralThieves)
	if ie, ok := err.(*specsched.InputError); ok && ie.Field == "ShortFraction" {
		return // the short partition leaves no general node for a long job
	}
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	all, err := run(AllThieves)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if general.Stats.StolenByShort != 0 {
		t.Fatalf("general thieves: %d probes stolen by short-partition nodes", general.Stats.StolenByShort)
	}
	if all.Stats.StolenByShort > all.Stats.Rescheduled || (policy != Hawk && all.Stats.StolenByShort != 0) {
		t.Fatalf("all thieves: %+v", all.Stats)
	}
	if short, _ := ShortPartition(nodes, cfg.ShortFraction); policy != Hawk || short == 0 {
		if !slices.Equal(general.Completion, all.Completion) || general.Stats != all.Stats {
			t.Fatalf("%v with %d short nodes: Thieves changed the run: %v %+v, %v %+v", policy, short,
				general.Completion, general.Stats, all.Completion, all.Stats)
		}
	}
}

func TestThievesProperty(t *testing.T) { t.Parallel(); rapid.Check(t, testThievesProperty) }

// TestThievesStealMore: on a loaded cluster with a small short partition
// (a seeded Google-like workload at load 0.9 on 100 nodes, 5 of them
// short), letting every idle node steal adds steals by short-partition
// nodes and shortens the short jobs' median, as in the authors' simulator
// (issue 18: on the Yahoo excerpt short-only nodes took 53% of the stolen
// probes, and Hawk's short p50 was 2.8× lower than with general thieves).
func TestThievesStealMore(t *testing.T) {
	t.Parallel()
	c := GoogleLike(400, 100, 0.9)
	jobs, err := Synthesize(c, rngFrom(11))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig(Hawk, 100, c.Threshold())
	cfg.ShortFraction = 0.05
	general, err := Simulate(jobs, cfg, rngFrom(1))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Thieves = AllThieves
	all, err := Simulate(jobs, cfg, rngFrom(1))
	if err != nil {
		t.Fatal(err)
	}
	if general.Stats.StolenByShort != 0 || all.Stats.StolenByShort == 0 || all.Stats.Rescheduled <= general.Stats.Rescheduled {
		t.Fatalf("stolen (by short nodes): general %d (%d), all %d (%d)", general.Stats.Rescheduled, general.Stats.StolenByShort,
			all.Stats.Rescheduled, all.Stats.StolenByShort)
	}
	if g, a := general.Summarize().Short.P50, all.Summarize().Short.P50; !(a < g) {
		t.Errorf("short p50: all thieves %v, general %v; want shorter", a, g)
	}
}

// TestSimulateSamplingFirstWave: Sampling reaches the first placement.
// Sparrow, one job of 3 tasks on 5 nodes, 6 probes: with replacement the
// probes go to PlaceProbesWith's nodes for the same seed (the run's first
// draws), every probe arrives at d, and each node with a probe asks for a
// task once; tasks are handed out in index order, so task k starts at 2d
// on the k-th distinct node of that list (6 draws on 5 nodes always
// repeat one). With Distinct every node has a probe.
func TestSimulateSamplingFirstWave(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{10, 10, 10}, EstTask: 10}}
	for _, sampling := range []Sampling{Distinct, WithReplacement} {
		for seed := uint64(1); seed <= 30; seed++ {
			cfg := DefaultConfig(Sparrow, 5, 100)
			cfg.Sampling, cfg.RecordTasks = sampling, true
			r, err := Simulate(jobs, cfg, rngFrom(seed))
			if err != nil {
				t.Fatal(err)
			}
			targets, _ := PlaceProbesWith(nil, 0, 5, 6, sampling, rngFrom(seed), nil)
			var order []int // distinct nodes in order of first probe
			for _, v := range targets {
				if !slices.Contains(order, v) {
					order = append(order, v)
				}
			}
			d := cfg.NetworkDelay
			for _, e := range r.Executions {
				if e.Start == 2*d && (e.Task >= len(order) || e.Node != order[e.Task]) {
					t.Fatalf("%v seed %d: task %d on node %d at 2d; targets %v", sampling, seed, e.Task, e.Node, targets)
				}
			}
			if sampling == Distinct && len(order) != 5 {
				t.Fatalf("distinct: targets %v miss a node", targets)
			}
		}
	}
}

// TestTraceSettings: the presets carry the paper's numbers — Eagle §5
// ("The size of the small partition is 17, 9 and 2 percent of the nodes,
// for the Google, Cloudera and Yahoo traces"), Table 1 (jobs, % long
// jobs, % task-seconds of long jobs), Table 2 (Google 15K, Yahoo 4K,
// Cloudera 15K nodes at the highest load) — and the authors' README
// cut-offs; the short partition is the short jobs' share of task-seconds,
// as §5 says.
func TestTraceSettings(t *testing.T) {
	t.Parallel()
	want := []TraceSetting{
		{"yahoo", 90.5811, 0.02, 4000, 24262, 0.0941, 0.98},
		{"cloudera", 272.7830, 0.09, 15000, 21030, 0.0502, 0.91},
		{"google", 1129.532, 0.17, 15000, 506460, 0.10, 0.83},
	}
	got := TraceSettings()
	if !slices.Equal(got, want) {
		t.Fatalf("TraceSettings() = %+v; want %+v", got, want)
	}
	got[0].Nodes = 1 // a copy: the package's table is unchanged
	for _, w := range want {
		ts, err := LookupTraceSetting(w.Name)
		if err != nil || ts != w {
			t.Errorf("LookupTraceSetting(%q) = %+v, %v", w.Name, ts, err)
		}
		if math.Abs(ts.ShortFraction-(1-ts.LongTaskSeconds)) > 1e-12 {
			t.Errorf("%s: short partition %v is not 1 − %v", w.Name, ts.ShortFraction, ts.LongTaskSeconds)
		}
		for _, p := range []Scheduler{Eagle, Hawk, Sparrow, Hopper} {
			c := ts.Config(p)
			base := DefaultConfig(p, w.Nodes, w.Threshold)
			wantFraction := 0.0
			if p == Eagle || p == Hawk {
				wantFraction = w.ShortFraction
			}
			base.ShortFraction = wantFraction
			if c != base {
				t.Errorf("%s.Config(%v) = %+v; want %+v", w.Name, p, c, base)
			}
		}
	}
	_, err := LookupTraceSetting("facebook")
	inputErr(t, err, "probe.LookupTraceSetting", -1, "name")
}

// TestAuthorsCode: the authors' choices, and nothing else changed.
func TestAuthorsCode(t *testing.T) {
	t.Parallel()
	c := DefaultConfig(Hawk, 4000, 90.5811)
	a := AuthorsCode(c)
	if a.Sampling != WithReplacement || a.Thieves != AllThieves {
		t.Fatalf("AuthorsCode: %v, %v", a.Sampling, a.Thieves)
	}
	a.Sampling, a.Thieves = Distinct, GeneralThieves
	if a != c {
		t.Fatalf("AuthorsCode changed more: %+v", a)
	}
}

// testTruncateSeconds: every duration and estimate becomes the whole
// number of seconds below it, as Python's int(float(x)) gives for x ≥ 0;
// submission times are kept and the input is unchanged.
func testTruncateSeconds(t *rapid.T) {
	jobs := make([]Job, rapid.IntRange(0, 5).Draw(t, "jobs"))
	for j := range jobs {
		d := make([]float64, rapid.IntRange(0, 5).Draw(t, "tasks"))
		for k := range d {
			d[k] = anyFloat(t, "duration")
		}
		jobs[j] = Job{Submit: anyFloat(t, "submit"), Durations: d, EstTask: anyFloat(t, "est")}
	}
	before := make([]Job, len(jobs))
	for j, job := range jobs {
		before[j] = Job{Submit: job.Submit, Durations: slices.Clone(job.Durations), EstTask: job.EstTask}
	}
	got := TruncateSeconds(jobs)
	if len(got) != len(jobs) {
		t.Fatalf("%d jobs; want %d", len(got), len(jobs))
	}
	for j := range jobs {
		if !sameFloat(jobs[j].Submit, before[j].Submit) || !sameFloat(jobs[j].EstTask, before[j].EstTask) ||
			!slices.EqualFunc(jobs[j].Durations, before[j].Durations, sameFloat) {
			t.Fatalf("job %d modified", j)
		}
		if !sameFloat(got[j].Submit, jobs[j].Submit) || !sameTrunc(jobs[j].EstTask, got[j].EstTask) ||
			len(got[j].Durations) != len(jobs[j].Durations) {
			t.Fatalf("job %d: %+v from %+v", j, got[j], jobs[j])
		}
		for k, x := range jobs[j].Durations {
			if !sameTrunc(x, got[j].Durations[k]) {
				t.Fatalf("job %d task %d: %v from %v", j, k, got[j].Durations[k], x)
			}
		}
	}
}

// sameFloat is == with NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// sameTrunc reports whether y is x truncated toward zero: an integer with
// |y| ≤ |x| < |y| + 1 and the sign of x (NaN and ±Inf kept).
func sameTrunc(x, y float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return sameFloat(x, y)
	}
	return y == math.Floor(y) && math.Abs(y) <= math.Abs(x) && math.Abs(x)-math.Abs(y) < 1 && (y == 0 || math.Signbit(x) == math.Signbit(y))
}

func TestTruncateSeconds(t *testing.T) { t.Parallel(); rapid.Check(t, testTruncateSeconds) }
func FuzzTruncateSeconds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testTruncateSeconds)) }

// TestTruncateSecondsExample: the authors' parser on a line of YH1_sub's
// shape: mean 0.93 → 0 (a short job), 90.9 → 90 (short at the Yahoo cut-off
// 90.5811, long before truncation).
func TestTruncateSecondsExample(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Submit: 7.527, Durations: []float64{0.93, 6.44153634315}, EstTask: 90.9}}
	got := TruncateSeconds(jobs)
	want := Job{Submit: 7.527, Durations: []float64{0, 6}, EstTask: 90}
	if got[0].Submit != want.Submit || got[0].EstTask != want.EstTask || !slices.Equal(got[0].Durations, want.Durations) {
		t.Fatalf("TruncateSeconds = %+v; want %+v", got[0], want)
	}
	if classify(jobs[0].EstTask, 90.5811) != Long || classify(got[0].EstTask, 90.5811) != Short {
		t.Fatal("classes")
	}
}

// TestOptionErrors: unknown option values are InputErrors naming the
// field; names parse back.
func TestOptionErrors(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{1}, EstTask: 1}}
	cfg := DefaultConfig(Hawk, 4, 1)
	cfg.Sampling = WithReplacement + 1
	_, err := Simulate(jobs, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", -1, "Sampling")
	cfg = DefaultConfig(Hawk, 4, 1)
	cfg.Thieves = AllThieves + 1
	_, err = Simulate(jobs, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", -1, "Thieves")
	_, err = PlaceProbesWith(nil, 0, 4, 2, 7, rngFrom(1), nil)
	inputErr(t, err, "probe.PlaceProbesWith", -1, "sampling")
	_, err = PlaceProbesWith(nil, 0, 4, 2, Distinct, nil, nil)
	inputErr(t, err, "probe.PlaceProbesWith", -1, "rng")
	_, err = ReplaceProbesWith(nil, nil, 2, 7, rngFrom(1), nil)
	inputErr(t, err, "probe.ReplaceProbesWith", -1, "sampling")
	_, err = ReplaceProbesWith(nil, nil, -1, Distinct, rngFrom(1), nil)
	inputErr(t, err, "probe.ReplaceProbesWith", -1, "probes")
	for _, c := range []struct {
		err         error
		fn, field   string
		text, error string
	}{
		{second(ParseSampling("random")), "probe.ParseSampling", "sampling", "random", `probe.ParseSampling: sampling = "random": unknown sampling`},
		{second(ParseThieves("short")), "probe.ParseThieves", "thieves", "short", `probe.ParseThieves: thieves = "short": unknown thieves`},
	} {
		inputErr(t, c.err, c.fn, -1, c.field)
		if ie := c.err.(*specsched.InputError); ie.Text != c.text || ie.Error() != c.error {
			t.Errorf("%v; want %q", c.err, c.error)
		}
	}
	for _, s := range []Sampling{Distinct, WithReplacement} {
		if back, err := ParseSampling(s.String()); err != nil || back != s {
			t.Errorf("ParseSampling(%q) = %v, %v", s, back, err)
		}
	}
	for _, th := range []Thieves{GeneralThieves, AllThieves} {
		if back, err := ParseThieves(th.String()); err != nil || back != th {
			t.Errorf("ParseThieves(%q) = %v, %v", th, back, err)
		}
	}
	if Sampling(9).String() != "Sampling(9)" || Thieves(9).String() != "Thieves(9)" {
		t.Error("unnamed values")
	}
}

// second returns its second argument.
func second[T any](_ T, err error) error { return err }

// testParseOptions: any name parses to a value whose String is that name,
// or gives an InputError; the same for the trace settings.
func testParseOptions(t *rapid.T) {
	name := rapid.OneOf(rapid.SampledFrom([]string{"distinct", "replacement", "general", "all", "yahoo", "cloudera", "google", ""}),
		rapid.String()).Draw(t, "name")
	if s, err := ParseSampling(name); err == nil && s.String() != name || err != nil && !isInputError(err) {
		t.Fatalf("ParseSampling(%q) = %v, %v", name, s, err)
	}
	if th, err := ParseThieves(name); err == nil && th.String() != name || err != nil && !isInputError(err) {
		t.Fatalf("ParseThieves(%q) = %v, %v", name, th, err)
	}
	if ts, err := LookupTraceSetting(name); err == nil && ts.Name != name || err != nil && !isInputError(err) {
		t.Fatalf("LookupTraceSetting(%q) = %+v, %v", name, ts, err)
	}
}

func TestParseOptions(t *testing.T) { t.Parallel(); rapid.Check(t, testParseOptions) }
func FuzzParseOptions(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testParseOptions)) }
