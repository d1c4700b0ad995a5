package competitive

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

type actionKey struct {
	job   int
	stage Stage
	kind  ActionKind
	task  int
}

func aggregate(actions []Action) map[actionKey]int {
	out := map[actionKey]int{}
	for _, a := range actions {
		out[actionKey{a.Job, a.Stage, a.Kind, a.Task}] += a.Copies
	}
	return out
}

// refSEW runs Algorithm 1 machine by machine as the pseudo-code does, with
// the deterministic choices of a nil rng (lowest unscheduled ordinal;
// clones cyclic over the unfinished tasks numbered job by job, running
// tasks first). It also returns, per phase, how many tasks each job
// launched and how many machines cloned: those counts do not depend on the
// random choices.
func refSEW(jobs []Job, machines int, lambda float64) (map[actionKey]int, [2][]int, [2]int) {
	out := map[actionKey]int{}
	var launched [2][]int
	var cloned [2]int
	groups := [2]int{(machines + 1) / 2, machines / 2}
	for _, z := range []Stage{MapStage, ReduceStage} {
		idle := groups[z]
		for j := range jobs {
			if jobs[j].Map.unfinished() > 0 == (z == MapStage) {
				idle -= jobs[j].copies()
			}
		}
		var xi []int
		for j := range jobs {
			if jobs[j].phase(z).Unscheduled > 0 {
				xi = append(xi, j)
			}
		}
		sort.SliceStable(xi, func(a, b int) bool {
			return taskByTask(jobs[xi[a]], lambda, false) < taskByTask(jobs[xi[b]], lambda, false)
		})
		next := make([]int, len(jobs))
		clones := 0
		for m := 0; m < idle; m++ {
			if len(xi) > 0 {
				j := xi[0]
				if z == ReduceStage && jobs[j].Map.unfinished() > 0 {
					break // the first job of Ξ₂ is still mapping: the machine waits
				}
				out[actionKey{j, z, Launch, next[j]}]++
				next[j]++
				if next[j] == jobs[j].phase(z).Unscheduled {
					xi = xi[1:]
				}
				continue
			}
			clones++
		}
		var targets []actionKey
		for j := range jobs {
			if !jobs[j].active() || (jobs[j].Map.unfinished() > 0) != (z == MapStage) {
				continue
			}
			for t := range jobs[j].phase(z).Running {
				targets = append(targets, actionKey{j, z, Clone, t})
			}
			for t := 0; t < next[j]; t++ {
				targets = append(targets, actionKey{j, z, Launch, t})
			}
		}
		if len(targets) > 0 {
			for c := 0; c < clones; c++ {
				out[targets[c%len(targets)]]++
			}
			cloned[z] = clones
		}
		launched[z] = next
	}
	return out, launched, cloned
}

// sewInput draws a snapshot and a cluster whose groups hold its copies.
func sewInput(t *rapid.T) ([]Job, int, float64) {
	jobs := someJobs(t, 0, 10)
	if rapid.Bool().Draw(t, "busy") {
		jobs = genJobs(t, 0, 10, 8, 3)
	}
	var used [2]int
	for j := range jobs {
		used[jobs[j].stage()] += jobs[j].copies()
	}
	machines := max(2, 2*max(used[0], used[1])+rapid.IntRange(0, 25).Draw(t, "spare"))
	return jobs, machines, rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
}

func testSEWMatchesReference(t *rapid.T) {
	jobs, machines, lambda := sewInput(t)
	before := cloneJobs(jobs)
	got, err := SEW(nil, jobs, machines, lambda, nil, nil)
	if err != nil {
		t.Fatalf("SEW: %v", err)
	}
	mustNotChange(t, before, jobs)
	want, _, _ := refSEW(jobs, machines, lambda)
	if diff := cmp.Diff(want, aggregate(got)); diff != "" {
		t.Fatalf("SEW vs the machine-by-machine Algorithm 1 (-want +got):\n%s", diff)
	}
}

func TestSEWMatchesReference(t *testing.T) { t.Parallel(); rapid.Check(t, testSEWMatchesReference) }

// testSEWRandom: with random choices, every job launches as many tasks as
// the machine-by-machine algorithm says, on distinct unscheduled tasks,
// and the clones number what the idle machines left.
func testSEWRandom(t *rapid.T) {
	jobs, machines, lambda := sewInput(t)
	seed := rapid.Uint64().Draw(t, "seed")
	got, err := SEW(nil, jobs, machines, lambda, rand.New(rand.NewPCG(seed, 5)), nil)
	if err != nil {
		t.Fatalf("SEW: %v", err)
	}
	_, launched, cloned := refSEW(jobs, machines, lambda)
	var gotLaunched [2][]int
	var gotCloned [2]int
	gotLaunched[0], gotLaunched[1] = make([]int, len(jobs)), make([]int, len(jobs))
	seen := map[actionKey]bool{}
	for _, a := range got {
		k := actionKey{a.Job, a.Stage, a.Kind, a.Task}
		if seen[k] || a.Copies < 1 {
			t.Fatalf("duplicate or empty action %+v", a)
		}
		seen[k] = true
		p := jobs[a.Job].phase(a.Stage)
		switch a.Kind {
		case Launch:
			if a.Task >= p.Unscheduled {
				t.Fatalf("launch %+v beyond %d unscheduled tasks", a, p.Unscheduled)
			}
			gotLaunched[a.Stage][a.Job]++
			gotCloned[a.Stage] += a.Copies - 1
		case Clone:
			if a.Task >= len(p.Running) {
				t.Fatalf("clone %+v beyond %d running tasks", a, len(p.Running))
			}
			gotCloned[a.Stage] += a.Copies
		default:
			t.Fatalf("SEW preempted: %+v", a)
		}
		if a.Stage == ReduceStage && jobs[a.Job].Map.unfinished() > 0 {
			t.Fatalf("reduce action %+v before the job's maps finished", a)
		}
	}
	for z := range launched {
		if !slices.Equal(launched[z], gotLaunched[z]) || cloned[z] != gotCloned[z] {
			t.Fatalf("phase %v: launched %v and cloned %d, want %v and %d", Stage(z), gotLaunched[z], gotCloned[z], launched[z], cloned[z])
		}
	}
	again, _ := SEW(nil, jobs, machines, lambda, rand.New(rand.NewPCG(seed, 5)), nil)
	if !slices.Equal(got, again) {
		t.Fatalf("same seed, different plan")
	}
}

func TestSEWRandom(t *testing.T) { t.Parallel(); rapid.Check(t, testSEWRandom) }

func TestSEWWorked(t *testing.T) {
	t.Parallel()
	// M = 6: map and reduce groups of 3. Job 0 (Υ = 3·2 + 1·2 = 8) maps
	// 3 unscheduled tasks; job 1 (Υ = 1·1 + 2·1 = 3) maps 1 task; job 2
	// (Υ = 2·1 + 2·3 = 8, after job 0) is reducing with one task running.
	jobs := []Job{
		{Map: Phase{Tasks: 3, Mean: 2, Unscheduled: 3}, Reduce: Phase{Tasks: 1, Mean: 2, Unscheduled: 1}},
		{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}, Reduce: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}},
		{Map: Phase{Tasks: 2, Mean: 1}, Reduce: Phase{Tasks: 2, Mean: 3, Unscheduled: 1, Running: []int{1}}},
	}
	got, err := SEW(nil, jobs, 6, 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Map group: job 1 first, then two of job 0's three tasks. Reduce
	// group (2 idle): Ξ₂ = job 1 (Υ 3, still mapping), job 2: job 1 comes
	// first and is not ready, so the reduce machines wait (lines 12–13).
	want := []Action{
		{1, MapStage, Launch, 0, 1},
		{0, MapStage, Launch, 0, 1}, {0, MapStage, Launch, 1, 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("SEW (-want +got):\n%s", diff)
	}
}

func testSEWNoPanic(t *rapid.T) {
	jobs := genJobs(t, 0, 6, 5, 3)
	corrupt(t, jobs)
	machines := anyInt(t, "machines", 0, 1, 2, 7, 60)
	lambda := anyFloat(t, "lambda", 0, 1)
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(3, 4))
	}
	sentinel := []Action{{Job: -9}}
	dst := slices.Clone(sentinel)
	got, err := SEW(dst, jobs, machines, lambda, rng, nil)
	if err != nil {
		if !isInputError(err, "competitive.SEW") || got != nil || !slices.Equal(dst, sentinel) {
			t.Fatalf("err %v, result %v, dst %v", err, got, dst)
		}
		return
	}
	total := 0
	for _, a := range got {
		if a.Job < 0 || a.Job >= len(jobs) || a.Copies < 1 || a.Task < 0 || a.Kind == Preempt {
			t.Fatalf("action %+v out of range", a)
		}
		total += a.Copies
	}
	if total > machines {
		t.Fatalf("%d copies started on %d machines", total, machines)
	}
}

func TestSEWNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSEWNoPanic) }

func FuzzSEW(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSEWNoPanic)) }

// batchJobs draws a transient batch with integer works: when commonMap,
// every job has ≥ 1 map task of the same work (one map task per input
// block), the class on which Theorem 3's proof goes through.
func batchJobs(t *rapid.T, commonMap bool) []SimJob {
	n := rapid.IntRange(1, 6).Draw(t, "n")
	mapWork := float64(rapid.IntRange(1, 4).Draw(t, "mapwork"))
	jobs := make([]SimJob, n)
	for j := range jobs {
		job := SimJob{
			MapTasks:    rapid.IntRange(0, 5).Draw(t, "maps"),
			ReduceTasks: rapid.IntRange(0, 4).Draw(t, "reduces"),
			MapWork:     mapWork,
			ReduceWork:  float64(rapid.IntRange(1, 6).Draw(t, "reducework")),
		}
		if commonMap {
			job.MapTasks = max(1, job.MapTasks)
		} else {
			job.MapWork = float64(rapid.IntRange(1, 6).Draw(t, "mapwork_j"))
		}
		jobs[j] = job
	}
	return jobs
}

// sewOrder returns the jobs by (w_j, index): SEW's order when σ = 0, where
// Υ_j = w_j = m_j·p_j^m + r_j·p_j^r for every λ.
func sewOrder(jobs []SimJob) []int {
	order := make([]int, len(jobs))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return work(jobs[order[a]]) < work(jobs[order[b]]) })
	return order
}

func work(j SimJob) float64 {
	return float64(j.MapTasks)*j.MapWork + float64(j.ReduceTasks)*j.ReduceWork
}

// chain is a job's critical path E^m + E^r over the phases it has.
func chain(j SimJob) float64 {
	c := 0.0
	if j.MapTasks > 0 {
		c += j.MapWork
	}
	if j.ReduceTasks > 0 {
		c += j.ReduceWork
	}
	return c
}

// batchLowerBound is eq. 18 with Δ = 1, computed here by sorting.
func batchLowerBound(jobs []SimJob, machines int) float64 {
	chains, srpt := 0.0, 0.0
	for rank, j := range sewOrder(jobs) {
		chains += chain(jobs[j])
		srpt += float64(len(jobs)-rank) * work(jobs[j])
	}
	return max(chains, srpt/float64(machines))
}

// sewJobBound is the per-job bound the busy-period argument proves for SEW
// (Δ = 1, even M, groups of G = M/2, integer works; see SEW's doc):
// Ψ_i ≤ p_i^m + A_i^m/G for a job with maps, and a job with reduces
// finishes by max_{i ⪯ j, r_i > 0} Ψ_i + A_j^r/G + p_j^r.
func sewJobBound(jobs []SimJob, machines int) []float64 {
	g := float64(machines / 2)
	out := make([]float64, len(jobs))
	aMap, aReduce, waitMaps := 0.0, 0.0, 0.0
	for _, j := range sewOrder(jobs) {
		job := jobs[j]
		aMap += float64(job.MapTasks) * job.MapWork
		aReduce += float64(job.ReduceTasks) * job.ReduceWork
		psi := 0.0
		if job.MapTasks > 0 {
			psi = job.MapWork + aMap/g
		}
		out[j] = psi
		if job.ReduceTasks > 0 {
			waitMaps = max(waitMaps, psi)
			out[j] = waitMaps + aReduce/g + job.ReduceWork
		}
	}
	return out
}

func toSnapshot(jobs []SimJob, sigma float64) []Job {
	out := make([]Job, len(jobs))
	for j, job := range jobs {
		sd := func(p float64) float64 {
			if sigma == 0 {
				return 0
			}
			return sigma * math.Sqrt(p+0.5)
		}
		out[j] = Job{
			Map:    Phase{Tasks: job.MapTasks, Mean: job.MapWork, SD: sd(job.MapWork), Unscheduled: job.MapTasks},
			Reduce: Phase{Tasks: job.ReduceTasks, Mean: job.ReduceWork, SD: sd(job.ReduceWork), Unscheduled: job.ReduceTasks},
		}
	}
	return out
}

// testSEWDeterministic: with Δ = 1 every job meets the busy-period bound,
// and on the common-map-work class the total meets Theorem 3: ≤ 3 × eq. 18.
func testSEWDeterministic(t *rapid.T) {
	common := rapid.Bool().Draw(t, "common")
	jobs := batchJobs(t, common)
	machines := 2 * rapid.IntRange(1, 6).Draw(t, "half")
	mode := rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode")
	lambda := rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
	before := slices.Clone(jobs)
	flow, stats, err := simulate(jobs, Config{Machines: machines, Algorithm: AlgorithmSEW, Lambda: lambda, Mode: mode}, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if !slices.Equal(before, jobs) {
		t.Fatalf("jobs modified")
	}
	checkStats(t, jobs, machines, stats)
	bound := sewJobBound(jobs, machines)
	total := 0
	for j, f := range flow {
		if float64(f) > bound[j]+1e-9 {
			t.Fatalf("job %d: flowtime %d > busy-period bound %v (jobs %+v, M = %d)", j, f, bound[j], jobs, machines)
		}
		if float64(f) < chain(jobs[j]) {
			t.Fatalf("job %d: flowtime %d below its critical path %v", j, f, chain(jobs[j]))
		}
		total += f
	}
	lb := batchLowerBound(jobs, machines)
	got, err := LowerBound(toSnapshot(jobs, 0), machines, 1, nil)
	if err != nil || !closeTo(got, lb, relTol) {
		t.Fatalf("LowerBound = %v, %v; want %v", got, err, lb)
	}
	if float64(total) < lb-1e-9 {
		t.Fatalf("total flowtime %d below the lower bound %v", total, lb)
	}
	ratio, _ := SEWRatio(1)
	if common && float64(total) > ratio*lb+1e-9 {
		t.Fatalf("Theorem 3: total flowtime %d > %v × lower bound %v (jobs %+v, M = %d)", total, ratio, lb, jobs, machines)
	}
}

func TestSEWDeterministic(t *testing.T) { t.Parallel(); rapid.Check(t, testSEWDeterministic) }

// TestSEWTheorem3Counterexample records where the paper's proof of
// Theorems 2–3 breaks (Lemma 2: the reduce group need not be busy with jobs
// of effective workload ≤ Υ_j once job j's maps are done). Job 0 has one
// long map task (100 slots) and one short reduce; nine jobs of the same
// expected work (101) have one 1-slot map task and 100 one-slot reduce
// tasks. SEW serves job 0 first in the reduce group too and waits for its
// map, so the nine small-map jobs, ready at slot 2, idle until slot 101.
func TestSEWTheorem3Counterexample(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1, ReduceTasks: 1, MapWork: 100, ReduceWork: 1}}
	for i := 0; i < 9; i++ {
		jobs = append(jobs, SimJob{MapTasks: 1, ReduceTasks: 100, MapWork: 1, ReduceWork: 1})
	}
	const machines = 100
	flow, _, err := simulate(jobs, Config{Machines: machines, Algorithm: AlgorithmSEW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range flow {
		total += f
	}
	lb := batchLowerBound(jobs, machines)
	// Job 0 finishes at 101; then 900 reduce tasks on 50 machines, jobs in
	// index order: job k (1…9) finishes at 101 + ⌈(100k − 49)/50⌉… in all
	// 101 + Σ_k (101 + 2k) = 101 + 909 + 90 = 1100.
	if total != 1100 {
		t.Fatalf("total flowtime %d, want 1100 (flowtimes %v)", total, flow)
	}
	if float64(total) <= 3*lb {
		t.Fatalf("expected the counterexample to exceed 3 × LB = %v, got %d", 3*lb, total)
	}
	bound := sewJobBound(jobs, machines)
	for j, f := range flow {
		if float64(f) > bound[j]+1e-9 {
			t.Fatalf("job %d: flowtime %d > the corrected bound %v", j, f, bound[j])
		}
	}
}

// TestSEWTheorem2 checks Theorem 2's probability with random service and
// fixed seeds: every job's flowtime is within SEWBound with frequency at
// least λ⁸/(1+λ²)⁴, less three standard errors.
func TestSEWTheorem2(t *testing.T) {
	t.Parallel()
	runs := 300
	if testing.Short() {
		runs = 100
	}
	const machines, sigma, peak = 4, 0.5, 2.0
	jobs := []SimJob{
		{MapTasks: 2, ReduceTasks: 1, MapWork: 3, ReduceWork: 2},
		{MapTasks: 4, ReduceTasks: 2, MapWork: 3, ReduceWork: 4},
		{MapTasks: 1, ReduceTasks: 1, MapWork: 3, ReduceWork: 1},
		{MapTasks: 6, ReduceTasks: 3, MapWork: 3, ReduceWork: 3},
	}
	for _, lambda := range []float64{1, 2, 3} {
		bound, err := SEWBound(nil, toSnapshot(jobs, sigma), machines, lambda, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := SEWConfidence(lambda)
		met := make([]int, len(jobs))
		for seed := 1; seed <= runs; seed++ {
			flow, _, err := simulate(jobs, Config{Machines: machines, Algorithm: AlgorithmSEW, Lambda: lambda, Sigma: sigma, Peak: peak}, rand.New(rand.NewPCG(uint64(seed), 11)))
			if err != nil {
				t.Fatal(err)
			}
			for j, f := range flow {
				if float64(f) <= bound[j] {
					met[j]++
				}
			}
		}
		for j := range jobs {
			freq := float64(met[j]) / float64(runs)
			if freq < p-3*math.Sqrt(p*(1-p)/float64(runs)) {
				t.Errorf("λ = %v, job %d: bound %v met in %v of runs, Theorem 2 says ≥ %v", lambda, j, bound[j], freq, p)
			}
		}
	}
}

// TestSEWGroupsAcrossJobs: the machine groups are shared by all jobs.
// Worked by hand with M = 4 (map group 2, reduce group 2), λ = 0, no rng:
//   - running reduce copies 1 and 2 in two jobs exceed the reduce group
//     (the second job's 2 > 2 − 1), which is an error naming job 1, while
//     1 and 1 fill it exactly;
//   - a job reducing with 1 running copy and 4 unscheduled reduce tasks
//     leaves 2 − 1 = 1 idle reduce machine: one launch, of ordinal 0, and
//     no map work to do;
//   - the MaxActions bound applies to the idle machines, not the group.
func TestSEWGroupsAcrossJobs(t *testing.T) {
	t.Parallel()
	reducing := func(unscheduled int, running ...int) Job {
		return Job{Map: Phase{Tasks: 1, Mean: 1}, Reduce: Phase{Tasks: unscheduled + len(running) + 1, Mean: 1, Unscheduled: unscheduled, Running: running}}
	}
	_, err := SEW(nil, []Job{reducing(0, 1), reducing(0, 2)}, 4, 0, nil, nil)
	var ie *specsched.InputError
	if !isInputError(err, "competitive.SEW") || !errors.As(err, &ie) || ie.Index != 1 || ie.Field != "Reduce.Running" {
		t.Errorf("copies 1 + 2 in a reduce group of 2: err = %v, want an InputError for job 1's reduce.running", err)
	}
	if got, err := SEW(nil, []Job{reducing(0, 1), reducing(0, 1)}, 4, 0, nil, nil); err != nil || len(got) != 0 {
		t.Errorf("copies 1 + 1 in a reduce group of 2: %v, %v; want no action and no error", got, err)
	}
	got, err := SEW(nil, []Job{reducing(4, 1)}, 4, 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Action{{0, ReduceStage, Launch, 0, 1}}; !slices.Equal(got, want) {
		t.Errorf("one idle reduce machine: %v, want %v", got, want)
	}
	// The map group likewise: 1 running map copy leaves 2 − 1 = 1 idle map
	// machine, one launch of ordinal 0; the job's reduce tasks wait for its
	// maps (lines 12–13), so the reduce group does nothing.
	mapping := Job{Map: Phase{Tasks: 6, Mean: 1, Unscheduled: 4, Running: []int{1}}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}
	got, err = SEW(nil, []Job{mapping}, 4, 0, nil, nil)
	if want := []Action{{0, MapStage, Launch, 0, 1}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("one idle map machine: %v, %v; want %v", got, err, want)
	}
	// MaxActions counts the idle machines only: M = 2^31 + 2 gives a reduce
	// group of 2^30 + 1, one copy runs, so the 2^30 = MaxActions idle
	// machines all clone the one unfinished reduce task — allowed.
	got, err = SEW(nil, []Job{reducing(0, 1)}, 1<<31+2, 0, nil, nil)
	if want := []Action{{0, ReduceStage, Clone, 0, MaxActions}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("MaxActions idle reduce machines: %v, %v; want %v", got, err, want)
	}
}
