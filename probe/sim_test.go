package probe

import (
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// exampleSection41 builds Eagle §4.1's example: a long job whose four tasks
// LWL places one per node with durations 100, 100, 10, 10 (the queues),
// then a short job of four 10-unit tasks whose four probes land one per
// node.
func exampleSection41() ([]Job, Config) {
	jobs := []Job{
		{Submit: 0, Durations: []float64{100, 100, 10, 10}, EstTask: 55},
		{Submit: 0, Durations: []float64{10, 10, 10, 10}, EstTask: 10},
	}
	cfg := Config{
		Policy: Eagle, Nodes: 4, Threshold: 50, ProbeRatio: 1,
		StarvationFactor: StarvationFactor, NoSSS: true,
	}
	return jobs, cfg
}

// TestSection41Example: completion 110 without SBP, 30 with it (Eagle
// §4.1).
func TestSection41Example(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		noSBP bool
		want  float64
	}{{true, 110}, {false, 30}} {
		jobs, cfg := exampleSection41()
		cfg.NoSBP = c.noSBP
		cfg.RecordTasks = true
		r, err := Simulate(jobs, cfg, rngFrom(1))
		if err != nil {
			t.Fatal(err)
		}
		if r.Completion[1] != c.want || r.Completion[0] != 100 {
			t.Errorf("NoSBP=%v: completions %v; want [100 %v]", c.noSBP, r.Completion, c.want)
		}
		checkConservation(t, jobs, r)
	}
}

// checkConservation checks every task ran exactly once, no node ran two
// tasks at once, each run lasted its task's duration, and each job's
// completion is the latest end of its tasks minus its submission.
func checkConservation(t fataler, jobs []Job, r *Result) {
	t.Helper()
	const tol = 1e-9 // relative: sums of times along the event chain
	runs := make([][]int, len(jobs))
	for j := range jobs {
		runs[j] = make([]int, len(jobs[j].Durations))
	}
	latest := make([]float64, len(jobs))
	byNode := map[int][]Execution{}
	for _, e := range r.Executions {
		if e.Start < e.Queued || e.End < e.Start {
			t.Fatalf("execution %+v out of order", e)
		}
		// A task completes once: by exactly one execution that was not
		// killed. Its original copy runs its own duration; a speculative
		// copy one of its job's durations; a killed one no longer.
		durations := jobs[e.Job].Durations
		ran := e.End - e.Start
		switch {
		case e.Killed:
			// ran is a difference of clock readings, each within half an
			// ulp of the clock: allow that much on top of the duration.
			if ran > slices.Max(durations)*(1+tol)+e.End*0x1p-52 {
				t.Fatalf("killed %+v ran longer than any task", e)
			}
			byNode[e.Node] = append(byNode[e.Node], e)
			continue
		case e.Copy:
			if !slices.ContainsFunc(durations, func(d float64) bool { return math.Abs(ran-d) <= tol*max(1, e.End) }) {
				t.Fatalf("copy %+v ran %v, none of its job's durations", e, ran)
			}
		default:
			if d := durations[e.Task]; math.Abs(ran-d) > tol*max(1, e.End) {
				t.Fatalf("job %d task %d ran %v; duration %v", e.Job, e.Task, ran, d)
			}
		}
		runs[e.Job][e.Task]++
		if e.Start < e.Queued || e.Queued < jobs[e.Job].Submit {
			t.Fatalf("job %d task %d: submitted %v, queued %v, started %v", e.Job, e.Task, jobs[e.Job].Submit, e.Queued, e.Start)
		}
		latest[e.Job] = max(latest[e.Job], e.End)
		byNode[e.Node] = append(byNode[e.Node], e)
	}
	for j := range runs {
		for k, n := range runs[j] {
			if n != 1 {
				t.Fatalf("job %d task %d ran %d times", j, k, n)
			}
		}
		if want := latest[j] - jobs[j].Submit; math.Abs(r.Completion[j]-want) > tol*max(1, latest[j]) {
			t.Fatalf("job %d completion %v; want max end − submit = %v", j, r.Completion[j], want)
		}
	}
	for node, ex := range byNode {
		sort.Slice(ex, func(a, b int) bool { return ex[a].Start < ex[b].Start })
		for k := 1; k < len(ex); k++ {
			if ex[k].Start < ex[k-1].End {
				t.Fatalf("node %d overlaps: %+v and %+v", node, ex[k-1], ex[k])
			}
		}
	}
	if got := int64(len(r.Executions)); got != r.Stats.Tasks {
		t.Fatalf("Stats.Tasks = %d; executions %d", r.Stats.Tasks, got)
	}
}

// drawWorkload draws a small random workload and a threshold separating
// short (estimate ≤ 5) from long (estimate ≥ 20) jobs.
func drawWorkload(t *rapid.T) ([]Job, float64) {
	n := rapid.IntRange(0, 25).Draw(t, "jobs")
	jobs := make([]Job, n)
	now := 0.0
	for j := range jobs {
		now += float64(rapid.IntRange(0, 8).Draw(t, "gap"))
		long := rapid.IntRange(0, 3).Draw(t, "longOneIn4") == 0
		tasks := rapid.IntRange(1, 6).Draw(t, "tasks")
		lo, hi := 1, 5
		if long {
			lo, hi = 20, 60
		}
		d := make([]float64, tasks)
		sum := 0.0
		for k := range d {
			d[k] = float64(rapid.IntRange(lo, hi).Draw(t, "duration"))
			sum += d[k]
		}
		jobs[j] = Job{Submit: now, Durations: d, EstTask: sum / float64(tasks)}
	}
	return jobs, 10
}

func cloneJobs(jobs []Job) []Job {
	out := make([]Job, len(jobs))
	for j := range jobs {
		out[j] = jobs[j]
		out[j].Durations = append([]float64(nil), jobs[j].Durations...)
	}
	return out
}

// drawConfig draws a policy and its switches on a small cluster.
func drawConfig(t *rapid.T, threshold float64) Config {
	p := Scheduler(rapid.IntRange(0, int(Hopper)).Draw(t, "policy"))
	cfg := DefaultConfig(p, rapid.IntRange(2, 12).Draw(t, "nodes"), threshold)
	cfg.ShortFraction = []float64{0, 0.2, 0.5}[rapid.IntRange(0, 2).Draw(t, "shortFraction")]
	if p == Hopper {
		cfg.Beta = rapid.SampledFrom([]float64{1.2, 1.5, 2.5}).Draw(t, "beta")
		cfg.Eps = rapid.SampledFrom([]float64{0, 0.1, 1}).Draw(t, "eps")
		cfg.NoSpeculation = rapid.IntRange(0, 3).Draw(t, "noSpeculationOneIn4") == 0
	}
	cfg.MinProbes = rapid.IntRange(0, 6).Draw(t, "minProbes")
	cfg.NetworkDelay = []float64{0, 0.5, 1}[rapid.IntRange(0, 2).Draw(t, "delay")]
	cfg.NoSSS = rapid.Bool().Draw(t, "noSSS")
	cfg.NoSBP = rapid.Bool().Draw(t, "noSBP")
	cfg.NoSRPT = rapid.Bool().Draw(t, "noSRPT")
	cfg.RecordTasks = true
	return cfg
}

// testSimulate: conservation, the starvation cap, untouched input and
// determinism on random workloads under every policy.
func testSimulate(t *rapid.T) {
	jobs, thr := drawWorkload(t)
	cfg := drawConfig(t, thr)
	seed := rapid.Uint64().Draw(t, "seed")
	before := cloneJobs(jobs)
	s, err := simulate(jobs, cfg, rngFrom(seed), func(s *simulator) { s.verifyPicks = true })
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if s.mismatches != 0 {
		t.Fatalf("%d worker decisions differ from HopperPick on the same view", s.mismatches)
	}
	if d := cmp.Diff(before, jobs); d != "" {
		t.Fatalf("jobs modified:\n%s", d)
	}
	checkConservation(t, jobs, s.res)
	if s.maxOver > 1e-12 {
		t.Fatalf("a bypass counter exceeded its cap by %v", s.maxOver)
	}
	if cfg.Policy == Hopper {
		checkCopiesLate(t, jobs, s.res)
		// At most two copies of a task run: every copy started ends with
		// exactly one of the pair killed.
		if st := s.res.Stats; st.Killed != st.Copies {
			t.Fatalf("%d copies but %d killed", st.Copies, st.Killed)
		}
	}
	if cfg.Policy == Eagle {
		checkSnapshots(t, jobs, cfg, s)
	}
	again, _ := Simulate(jobs, cfg, rngFrom(seed))
	if d := cmp.Diff(s.res, again); d != "" {
		t.Fatalf("not deterministic:\n%s", d)
	}
	// With SSS and a short partition to fall back on, no short probe is ever
	// queued behind a long task (Eagle §3, Table 2). Without a short
	// partition, probes rejected twice have nowhere safe to go.
	if short, _ := ShortPartition(cfg.Nodes, cfg.ShortFraction); cfg.Policy == Eagle && !cfg.NoSSS && short > 0 {
		st := s.res.Stats
		if st.ProbesBehindLong != 0 || st.ShortAfterLong != 0 {
			t.Fatalf("Eagle with SSS: %d probes behind long, %d short tasks after long; want 0", st.ProbesBehindLong, st.ShortAfterLong)
		}
		checkNeverBehindLong(t, jobs, s.res)
	}
}

func TestSimulate(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulate) }

// checkNeverBehindLong checks, from the executions alone, that no short
// task ran on a node after waiting there behind a long task: no long task
// on the same node ran inside [queued, start) of the short task.
func checkNeverBehindLong(t fataler, jobs []Job, r *Result) {
	t.Helper()
	byNode := map[int][]Execution{}
	for _, e := range r.Executions {
		byNode[e.Node] = append(byNode[e.Node], e)
	}
	for node, ex := range byNode {
		for _, sh := range ex {
			if r.Class[sh.Job] != Short {
				continue
			}
			for _, lg := range ex {
				if r.Class[lg.Job] == Long && lg.End > sh.Queued && lg.Start < sh.Start {
					t.Fatalf("node %d: short job %d task %d (queued %v, start %v) waited behind long job %d task %d [%v, %v)",
						node, sh.Job, sh.Task, sh.Queued, sh.Start, lg.Job, lg.Task, lg.Start, lg.End)
				}
			}
		}
	}
}

// heavyWorkload is a Google-like workload at high load on 200 nodes.
func heavyWorkload(t testing.TB) ([]Job, float64) {
	jobs := 3000
	if testing.Short() {
		jobs = 1500
	}
	c := GoogleLike(jobs, 200, 0.9)
	w, err := Synthesize(c, rngFrom(5))
	if err != nil {
		t.Fatal(err)
	}
	return w, c.Threshold()
}

// TestHeadOfLineBlocking: on the same heavy workload Eagle's first two
// Table 2 counters are exactly 0 while Hawk's and Eagle-without-SSS's are
// not; Eagle re-schedules probes, Hawk steals them.
func TestHeadOfLineBlocking(t *testing.T) {
	t.Parallel()
	jobs, thr := heavyWorkload(t)
	run := func(cfg Config) Stats {
		cfg.RecordTasks = true
		r, err := Simulate(jobs, cfg, rngFrom(9))
		if err != nil {
			t.Fatal(err)
		}
		checkConservation(t, jobs, r)
		return r.Stats
	}
	eagle := run(DefaultConfig(Eagle, 200, thr))
	if eagle.ProbesBehindLong != 0 || eagle.ShortAfterLong != 0 || eagle.Rescheduled == 0 {
		t.Errorf("Eagle: %+v; want 0 behind long, 0 after long, some re-scheduled", eagle)
	}
	hawk := run(DefaultConfig(Hawk, 200, thr))
	if hawk.ProbesBehindLong == 0 || hawk.ShortAfterLong == 0 || hawk.Rescheduled == 0 {
		t.Errorf("Hawk: %+v; want probes behind long tasks, blocked tasks and steals", hawk)
	}
	noSSS := DefaultConfig(Eagle, 200, thr)
	noSSS.NoSSS = true
	if st := run(noSSS); st.ProbesBehindLong == 0 || st.ShortAfterLong == 0 || st.Rescheduled != 0 {
		t.Errorf("Eagle without SSS: %+v; want head-of-line blocking and no re-scheduling", st)
	}
}

// testLWLState: the simulator's incremental LWL chooses what PlaceLWL
// chooses on the work left max(freeAt − now, 0), through any sequence of
// placements and completion updates at non-decreasing times.
func testLWLState(t *rapid.T) {
	n := rapid.IntRange(1, 12).Draw(t, "nodes")
	s := newLWLState(n)
	now := 0.0
	steps := rapid.IntRange(1, 40).Draw(t, "steps")
	for k := 0; k < steps; k++ {
		now += quarters(t, 3, "advance")
		if rapid.Bool().Draw(t, "place") {
			est := quarters(t, 5, "est")
			work := make([]float64, n)
			for i := range work {
				work[i] = s.workLeft(i, now)
			}
			want, err := PlaceLWL(nil, work, 1, est, nil)
			if err != nil {
				t.Fatalf("PlaceLWL: %v", err)
			}
			if got := s.place(now, est); got != want[0] {
				t.Fatalf("place at %v = %d; PlaceLWL on %v = %d", now, got, work, want[0])
			}
		} else {
			if len(s.freeAt) == 0 {
				return
			}
			i := rapid.IntRange(0, len(s.freeAt)-1).Draw(t, "node") // a node that had work
			s.set(i, now+quarters(t, 5, "left"), now)
		}
	}
}

func TestLWLState(t *testing.T) { t.Parallel(); rapid.Check(t, testLWLState) }

func TestSimulateMisestimation(t *testing.T) {
	t.Parallel()
	jobs, thr := heavyWorkload(t)
	jobs = jobs[:500]
	for _, r := range [][2]float64{{0.3, 1}, {1, 1.9}} {
		cfg := DefaultConfig(Eagle, 200, thr)
		cfg.MisestimateMin, cfg.MisestimateMax = r[0], r[1]
		cfg.RecordTasks = true
		res, err := Simulate(jobs, cfg, rngFrom(2))
		if err != nil {
			t.Fatal(err)
		}
		checkConservation(t, jobs, res)
		if res.Stats.ProbesBehindLong != 0 {
			t.Errorf("mis-estimated %v: %d probes behind long", r, res.Stats.ProbesBehindLong)
		}
	}
}

// testSimulateNoPanic: bad configurations and jobs give an InputError,
// never a panic.
func testSimulateNoPanic(t *rapid.T) {
	jobs, thr := drawWorkload(t)
	cfg := drawConfig(t, thr)
	switch rapid.IntRange(0, 12).Draw(t, "break") {
	case 0:
		cfg.Nodes = rapid.IntRange(-2, 0).Draw(t, "nodes")
	case 1:
		cfg.ShortFraction = anyFloat(t, "shortFraction")
	case 2:
		cfg.Threshold = anyFloat(t, "threshold")
	case 3:
		cfg.NetworkDelay = anyFloat(t, "delay")
	case 4:
		cfg.ProbeRatio = anyFloat(t, "ratio")
	case 5:
		cfg.StarvationFactor = anyFloat(t, "starvation")
	case 6:
		cfg.MisestimateMin, cfg.MisestimateMax = anyFloat(t, "misMin"), anyFloat(t, "misMax")
	case 7:
		cfg.Beta, cfg.Eps = anyFloat(t, "beta"), anyFloat(t, "eps")
	case 8:
		cfg.Policy = Scheduler(rapid.IntRange(0, 9).Draw(t, "policy"))
	case 9:
		if len(jobs) > 0 {
			jobs[0].Durations[0] = anyFloat(t, "duration")
			jobs[len(jobs)-1].Submit = anyFloat(t, "submit")
		}
	case 10:
		if len(jobs) > 0 {
			jobs[0].Durations = nil
			jobs[0].EstTask = anyFloat(t, "est")
		}
	case 11:
		cfg.MinProbes = rapid.IntRange(-3, 3).Draw(t, "minProbes")
		cfg.StealAttempts = rapid.IntRange(-3, 3).Draw(t, "steals")
	}
	r, err := Simulate(jobs, cfg, rngFrom(1))
	if err != nil {
		if !isInputError(err) || r != nil {
			t.Fatalf("error %T %v", err, err)
		}
		return
	}
	for j, c := range r.Completion {
		if math.IsNaN(c) || c < 0 || math.IsInf(c, 0) {
			t.Fatalf("job %d completion %v", j, c)
		}
	}
	_ = r.Summarize()
}

func TestSimulateNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulateNoPanic) }
func FuzzSimulate(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testSimulateNoPanic)) }

// checkCopiesLate: a speculative copy starts only once the task's first
// copy has run at least the job's estimate (the LATE-like rule of the
// Hopper scheduler) — from the executions alone.
func checkCopiesLate(t fataler, jobs []Job, r *Result) {
	t.Helper()
	const tol = 1e-9
	first := map[[2]int]float64{}
	for _, e := range r.Executions {
		if !e.Copy {
			first[[2]int{e.Job, e.Task}] = e.Start
		}
	}
	for _, e := range r.Executions {
		if !e.Copy {
			continue
		}
		orig, ok := first[[2]int{e.Job, e.Task}]
		if !ok || e.Start-orig < jobs[e.Job].EstTask-tol*max(1, e.Start) {
			t.Fatalf("copy %+v started %v after its original (estimate %v)", e, e.Start-orig, jobs[e.Job].EstTask)
		}
	}
}

// checkSnapshots: every state vector the central scheduler sent is the
// state at its time: node i's bit is set exactly when some long task placed
// on i by then (job submitted at or before Time) had not yet been reported
// finished (End + NetworkDelay after Time). Nodes where a placement or a
// report happens exactly at Time are skipped (same-time order).
func checkSnapshots(t fataler, jobs []Job, cfg Config, s *simulator) {
	t.Helper()
	for _, v := range s.snapshots {
		for i := 0; i < cfg.Nodes; i++ {
			want, tie := false, false
			for _, e := range s.res.Executions {
				if e.Node != i || s.res.Class[e.Job] != Long {
					continue
				}
				done := e.End + cfg.NetworkDelay
				tie = tie || done == v.Time || jobs[e.Job].Submit == v.Time
				want = want || (jobs[e.Job].Submit <= v.Time && v.Time < done)
			}
			if !tie && v.Long(i) != want {
				t.Fatalf("vector at %v: node %d bit %v; want %v", v.Time, i, v.Long(i), want)
			}
		}
	}
}

// TestHawkStealsBehindRunningLong: node 0 runs a 100 s long task, node 1 a
// 1 s one; a 1-task short job's single probe lands on either node. Wherever
// it lands, the job finishes within a few seconds: on node 1 it runs at
// t = 1, on node 0 node 1 steals it when it goes idle at t = 1 — the probe
// is behind the *running* long task.
func TestHawkStealsBehindRunningLong(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Submit: 0, Durations: []float64{100, 1}, EstTask: 50},
		{Submit: 0.1, Durations: []float64{1}, EstTask: 1},
	}
	cfg := DefaultConfig(Hawk, 2, 10)
	cfg.ShortFraction, cfg.ProbeRatio = 0, 1
	stolen := 0
	for seed := uint64(1); seed <= 20; seed++ {
		r, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if r.Completion[1] > 5 {
			t.Fatalf("seed %d: short job took %v", seed, r.Completion[1])
		}
		stolen += int(r.Stats.Rescheduled)
	}
	if stolen == 0 {
		t.Fatal("no probe was ever stolen")
	}
}

// TestEagleFreshestVector: long tasks hold nodes 0 (from t = 0) and 1
// (from t = 1), so node 0 keeps the vector {0} of time 0 and node 1 the
// vector {0, 1} of time 1. A short job's 20 probes cover all four nodes;
// those rejected by nodes 0 and 1 are re-placed with the freshest vector,
// on nodes 2 and 3 only — none is rejected again.
func TestEagleFreshestVector(t *testing.T) {
	t.Parallel()
	short := make([]float64, 10)
	for k := range short {
		short[k] = 50
	}
	jobs := []Job{
		{Submit: 0, Durations: []float64{1000}, EstTask: 1000},
		{Submit: 1, Durations: []float64{1000}, EstTask: 1000},
		{Submit: 2, Durations: short, EstTask: 50},
	}
	cfg := DefaultConfig(Eagle, 4, 100)
	cfg.ShortFraction = 0.25
	for seed := uint64(1); seed <= 10; seed++ {
		r, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if r.Stats.Rescheduled == 0 || r.Stats.Fallback != 0 {
			t.Fatalf("seed %d: %+v; want re-placements and no fallback", seed, r.Stats)
		}
	}
}

// TestEagleSRPT: on one node, a 10-task job of 10 s tasks queues its probes
// first; a 1-task job of 1 s arrives at t = 1. SRPT serves the short job as
// soon as the first long task ends; FIFO makes it wait for all ten.
func TestEagleSRPT(t *testing.T) {
	t.Parallel()
	ten := []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
	jobs := []Job{
		{Submit: 0, Durations: ten, EstTask: 10},
		{Submit: 1, Durations: []float64{1}, EstTask: 1},
	}
	cfg := DefaultConfig(Eagle, 1, 100)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	r, err := Simulate(jobs, cfg, rngFrom(1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Completion[1] > 15 {
		t.Errorf("SRPT: short job took %v; want about 10 (one long task, then it)", r.Completion[1])
	}
	cfg.NoSRPT = true
	if r, _ = Simulate(jobs, cfg, rngFrom(1)); r.Completion[1] < 90 {
		t.Errorf("FIFO: short job took %v; want after all ten long tasks", r.Completion[1])
	}
}

// TestEagleStarvationCap: a 10-task job of 10 s tasks, then a stream of
// 1 s jobs arriving every 1.2 s. With the cap at 5 task estimates the big
// job's probes let at most 50 s of work overtake each of them; with the
// cap lifted SRPT serves the stream first and the big job finishes later.
func TestEagleStarvationCap(t *testing.T) {
	t.Parallel()
	ten := []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
	jobs := []Job{{Submit: 0, Durations: ten, EstTask: 10}}
	for k := 0; k < 150; k++ {
		jobs = append(jobs, Job{Submit: 1 + 1.2*float64(k), Durations: []float64{1}, EstTask: 1})
	}
	cfg := DefaultConfig(Eagle, 1, 100)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	capped, err := simulate(jobs, cfg, rngFrom(1))
	if err != nil {
		t.Fatal(err)
	}
	if capped.maxOver > 0 {
		t.Fatalf("a counter exceeded its cap by %v", capped.maxOver)
	}
	cfg.StarvationFactor = MaxFactor
	uncapped, _ := simulate(jobs, cfg, rngFrom(1))
	if c, u := capped.res.Completion[0], uncapped.res.Completion[0]; !(c < u) {
		t.Errorf("big job: %v with the cap, %v without; want earlier with it", c, u)
	}
}

// TestHopperSpeculates: on the heavy workload decentralized Hopper launches
// speculative copies for β < 2 and none for β ≥ 2 or with speculation off.
func TestHopperSpeculates(t *testing.T) {
	t.Parallel()
	jobs, thr := heavyWorkload(t)
	jobs = jobs[:800]
	for _, c := range []struct {
		beta   float64
		off    bool
		copies bool
	}{{1.5, false, true}, {2.5, false, false}, {1.5, true, false}} {
		cfg := DefaultConfig(Hopper, 200, thr)
		cfg.Beta, cfg.NoSpeculation, cfg.RecordTasks = c.beta, c.off, true
		s, err := simulate(jobs, cfg, rngFrom(4), func(s *simulator) { s.verifyPicks = true })
		if err != nil {
			t.Fatal(err)
		}
		if s.mismatches != 0 {
			t.Fatalf("%d worker decisions differ from HopperPick", s.mismatches)
		}
		r := s.res
		checkConservation(t, jobs, r)
		if (r.Stats.Copies > 0) != c.copies || r.Stats.Killed != r.Stats.Copies {
			t.Errorf("β = %v, off = %v: %d copies, %d killed", c.beta, c.off, r.Stats.Copies, r.Stats.Killed)
		}
	}
}
