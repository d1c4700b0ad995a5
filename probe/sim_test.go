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
			if ran > slices.Max(durations)*(1+tol) {
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
	p := Policy(rapid.IntRange(0, int(Hopper)).Draw(t, "policy"))
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
	s, err := simulate(jobs, cfg, rngFrom(seed))
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if d := cmp.Diff(before, jobs); d != "" {
		t.Fatalf("jobs modified:\n%s", d)
	}
	checkConservation(t, jobs, s.res)
	if s.maxOver > 1e-12 {
		t.Fatalf("a bypass counter exceeded its cap by %v", s.maxOver)
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
