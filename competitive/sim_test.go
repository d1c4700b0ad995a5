package competitive

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// checkStats checks a run's conservation figures.
func checkStats(t *rapid.T, jobs []SimJob, machines int, s Stats) {
	tasks := 0
	for _, j := range jobs {
		tasks += j.MapTasks + j.ReduceTasks
	}
	if s.TasksFinished != tasks {
		t.Fatalf("%d tasks finished, want %d", s.TasksFinished, tasks)
	}
	if s.BusyMachineSlots > machines*s.ActiveSlots || s.ActiveSlots > s.Slots {
		t.Fatalf("stats %+v exceed M = %d", s, machines)
	}
	if s.Launched < tasks {
		t.Fatalf("%d copies launched for %d tasks", s.Launched, tasks)
	}
}

func TestSimulateWorked(t *testing.T) {
	t.Parallel()
	det := func(cfg Config, jobs ...SimJob) []int {
		t.Helper()
		flow, _, err := simulate(jobs, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		return flow
	}
	cases := []struct {
		name string
		cfg  Config
		jobs []SimJob
		want []int
	}{
		// 4 machines on 2 maps of 3 slots (2 copies each), then one
		// reduce of 2 slots (4 copies): 3 + 2.
		{"one job", Config{Machines: 4, Algorithm: AlgorithmFair}, []SimJob{{MapTasks: 2, ReduceTasks: 1, MapWork: 3, ReduceWork: 2}}, []int{5}},
		// Fair on 2 machines: one each; A ends at 2, B's clone adds
		// nothing with deterministic service: 4.
		{"fair", Config{Machines: 2, Algorithm: AlgorithmFair}, []SimJob{{MapTasks: 1, MapWork: 2}, {MapTasks: 1, MapWork: 4}}, []int{2, 4}},
		// Fair is β = 1 whatever Config.Beta says.
		{"fair ignores beta", Config{Machines: 2, Algorithm: AlgorithmFair, Beta: 0.5}, []SimJob{{MapTasks: 1, MapWork: 2}, {MapTasks: 1, MapWork: 4}}, []int{2, 4}},
		// SREW+C(0.5) with N = 2: βN = 1, the smaller job takes both.
		{"srewc", Config{Machines: 2, Algorithm: AlgorithmSREWC, Beta: 0.5}, []SimJob{{MapTasks: 1, MapWork: 2}, {MapTasks: 1, MapWork: 4}}, []int{2, 6}},
		// Online, M = 1, β = 0.5: A (work 5) runs slots 1–2; B (work 1,
		// arrives at the end of slot 2) preempts it in slot 3 (Υ_B = 1 <
		// Υ_A = 5), A resumes from its checkpoint (2 of 5 done) in 4–6.
		{"preempt", Config{Machines: 1, Algorithm: AlgorithmSREWC, Beta: 0.5}, []SimJob{{MapTasks: 1, MapWork: 5}, {Arrival: 2, MapTasks: 1, MapWork: 1}}, []int{6, 1}},
		// The same without preemption: A keeps the machine to slot 5, B
		// runs in slot 6: flowtime 6 − 2.
		{"no preempt", Config{Machines: 1, Algorithm: AlgorithmSREWC, Beta: 0.5, Mode: NonPreemptive}, []SimJob{{MapTasks: 1, MapWork: 5}, {Arrival: 2, MapTasks: 1, MapWork: 1}}, []int{5, 4}},
		// Speed: 17 units at 1.7 per slot take 10 slots, not 11.
		{"speed", Config{Machines: 1, Algorithm: AlgorithmFair, Speed: 1.7}, []SimJob{{MapTasks: 1, MapWork: 17}}, []int{10}},
		// SEW, M = 2 (one machine per group): job 1 (w = 2) maps in slot
		// 1 and reduces in slot 2; job 0 (w = 4) maps in slots 2–3 and
		// reduces in 4–5.
		{"sew", Config{Machines: 2, Algorithm: AlgorithmSEW}, []SimJob{{MapTasks: 1, ReduceTasks: 1, MapWork: 2, ReduceWork: 2}, {MapTasks: 1, ReduceTasks: 1, MapWork: 1, ReduceWork: 1}}, []int{5, 2}},
		// A job without tasks, and a late arrival after an idle gap.
		{"idle", Config{Machines: 3, Algorithm: AlgorithmFair}, []SimJob{{Arrival: 4}, {Arrival: 10, ReduceTasks: 1, ReduceWork: 2}}, []int{0, 2}},
	}
	for _, c := range cases {
		if got := det(c.cfg, c.jobs...); !slices.Equal(got, c.want) {
			t.Errorf("%s: flowtimes %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCheckpointing compares eq. 6 with eq. 5 on the same service draws:
// two copies of one task launched together progress by max(X₁, X₂) per
// slot with checkpointing, and by their own X each without; Σ max ≥
// max Σ, so checkpointing never finishes later, and sometimes earlier.
func TestCheckpointing(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1, MapWork: 10}}
	earlier := 0
	for seed := uint64(1); seed <= 200; seed++ {
		var flow [2]int
		for i, mode := range []Mode{Preemptive, NonPreemptive} {
			f, _, err := simulate(jobs, Config{Machines: 2, Algorithm: AlgorithmFair, Mode: mode, Sigma: 0.9, Peak: 3}, rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatal(err)
			}
			flow[i] = f[0]
		}
		if flow[0] > flow[1] {
			t.Fatalf("seed %d: checkpointing finished at %d, independent copies at %d", seed, flow[0], flow[1])
		}
		if flow[0] < flow[1] {
			earlier++
		}
	}
	if earlier == 0 {
		t.Fatalf("checkpointing never helped in 200 runs")
	}
}

// onlineJobs draws an online instance with integer works.
func onlineJobs(t *rapid.T, maxJobs int) []SimJob {
	return drawSimJobs(t, SimJob{Arrival: 15, MapTasks: 5, ReduceTasks: 3, MapWork: 5, ReduceWork: 6}, maxJobs)
}

// drawSimJobs draws 1 to maxJobs jobs whose fields lie in [0, the field of
// hi] (arrival and task counts) and [1, the field of hi] (integer works).
func drawSimJobs(t *rapid.T, hi SimJob, maxJobs int) []SimJob {
	n := rapid.IntRange(1, maxJobs).Draw(t, "n")
	jobs := make([]SimJob, n)
	for j := range jobs {
		jobs[j] = SimJob{
			Arrival:     rapid.IntRange(0, hi.Arrival).Draw(t, "arrival"),
			MapTasks:    rapid.IntRange(0, hi.MapTasks).Draw(t, "maps"),
			ReduceTasks: rapid.IntRange(0, hi.ReduceTasks).Draw(t, "reduces"),
			MapWork:     float64(rapid.IntRange(1, int(hi.MapWork)).Draw(t, "mapwork")),
			ReduceWork:  float64(rapid.IntRange(1, int(hi.ReduceWork)).Draw(t, "reducework")),
		}
	}
	return jobs
}

// fluidSRPT is the total flowtime of preemptive SRPT on one machine of the
// given capacity per unit time, jobs of work w_j released at a_j: the
// optimum of that relaxation, and a lower bound for any slotted schedule
// delivering at most that much work per slot (spread each slot's work
// uniformly over it: every job completes no later).
func fluidSRPT(jobs []SimJob, capacity float64) float64 {
	type item struct{ arrival, left float64 }
	var pending []item
	for _, j := range jobs {
		if w := work(j); w > 0 {
			pending = append(pending, item{float64(j.Arrival), w})
		}
	}
	sort.SliceStable(pending, func(a, b int) bool { return pending[a].arrival < pending[b].arrival })
	var queue []item
	now, total := 0.0, 0.0
	for len(pending) > 0 || len(queue) > 0 {
		if len(queue) == 0 {
			now = max(now, pending[0].arrival)
		}
		for len(pending) > 0 && pending[0].arrival <= now {
			queue = append(queue, pending[0])
			pending = pending[1:]
		}
		sort.SliceStable(queue, func(a, b int) bool { return queue[a].left < queue[b].left })
		finish := now + queue[0].left/capacity
		if len(pending) > 0 && pending[0].arrival < finish {
			queue[0].left -= (pending[0].arrival - now) * capacity
			now = pending[0].arrival
			continue
		}
		now = finish
		total += now - queue[0].arrival
		queue = queue[1:]
	}
	return total
}

// onlineLowerBound bounds any schedule on M machines whose service per
// slot is at most peak: every job needs its critical path at rate ≤ peak,
// and the cluster delivers at most M·peak per slot.
func onlineLowerBound(jobs []SimJob, machines int, peak float64) float64 {
	chains := 0.0
	for _, j := range jobs {
		chains += chain(j) / peak
	}
	return max(chains, fluidSRPT(jobs, float64(machines)*peak))
}

func testSimulate(t *rapid.T) {
	jobs := onlineJobs(t, 8)
	policy := rapid.SampledFrom([]Algorithm{AlgorithmSEW, AlgorithmSREWC, AlgorithmFair}).Draw(t, "policy")
	cfg := Config{
		Machines:  rapid.IntRange(2, 12).Draw(t, "machines"),
		Algorithm: policy,
		Beta:      rapid.SampledFrom([]float64{0.1, 0.5, 0.7, 1}).Draw(t, "beta"),
		Lambda:    rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda"),
		Mode:      rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode"),
		Speed:     rapid.SampledFrom([]float64{1, 1.5, 2.2}).Draw(t, "speed"),
	}
	if rapid.Bool().Draw(t, "random") {
		cfg.Sigma, cfg.Peak = 0.5, 2
	}
	seed := rapid.Uint64().Draw(t, "seed")
	before := slices.Clone(jobs)
	flow, stats, err := simulate(jobs, cfg, rand.New(rand.NewPCG(seed, 3)))
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if !slices.Equal(before, jobs) {
		t.Fatalf("jobs modified")
	}
	checkStats(t, jobs, cfg.Machines, stats)
	peak := max(cfg.Peak, 1)
	total := 0
	for j, f := range flow {
		if lb := chain(jobs[j]) / (cfg.Speed * peak); float64(f) < lb-1e-9 {
			t.Fatalf("job %d: flowtime %d below its critical path at full speed %v", j, f, lb)
		}
		total += f
	}
	if lb := onlineLowerBound(jobs, cfg.Machines, cfg.Speed*peak); float64(total) < lb-1e-9 {
		t.Fatalf("total flowtime %d below the lower bound %v", total, lb)
	}
	if policy != AlgorithmSEW && cfg.Mode == Preemptive && stats.BusyMachineSlots != cfg.Machines*stats.ActiveSlots {
		t.Fatalf("preemptive %v left machines idle: %d busy machine-slots in %d active slots of %d machines", policy, stats.BusyMachineSlots, stats.ActiveSlots, cfg.Machines)
	}
	if (policy == AlgorithmSEW || cfg.Mode == NonPreemptive) && stats.Preempted != 0 {
		t.Fatalf("%v %v preempted %d copies", policy, cfg.Mode, stats.Preempted)
	}
	again, stats2, _ := simulate(jobs, cfg, rand.New(rand.NewPCG(seed, 3)))
	if !slices.Equal(flow, again) || stats != stats2 {
		t.Fatalf("same seed, different run: %v %+v vs %v %+v", flow, stats, again, stats2)
	}
}

func TestSimulate(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulate) }

// simulate is Simulate with its result unpacked: the flowtimes and the
// counters, or nil and zero counters with the error.
func simulate(jobs []SimJob, cfg Config, rng *rand.Rand) ([]int, Stats, error) {
	r, err := Simulate(jobs, cfg, rng)
	if err != nil {
		if r != nil {
			return nil, Stats{}, fmt.Errorf("a result %+v beside the error %w", r, err)
		}
		return nil, Stats{}, err
	}
	return r.Flowtime, r.Stats, nil
}

// isInvariantError reports whether err is an *InvariantError.
func isInvariantError(err error) bool {
	var ie *InvariantError
	return errors.As(err, &ie)
}

// testTheorem4: SREW+C(β) with λ = 0, preemption and speed 1 + 2β + ε on
// random online instances, β < min{M/N, 1/2}: its total flowtime is at
// most SREWCRatio × a lower bound on OPT (so, a fortiori, × OPT).
func testTheorem4(t *rapid.T) {
	jobs := onlineJobs(t, 8)
	machines := rapid.IntRange(1, 12).Draw(t, "machines")
	limit := min(0.5, float64(machines)/float64(len(jobs)))
	beta := limit * rapid.Float64Range(0.05, 0.99).Draw(t, "betafraction")
	eps := rapid.SampledFrom([]float64{0.05, 0.5, 1}).Draw(t, "eps")
	speed, err := SREWCSpeed(beta, eps)
	if err != nil {
		t.Fatalf("SREWCSpeed: %v", err)
	}
	cfg := Config{Machines: machines, Algorithm: AlgorithmSREWC, Beta: beta, Speed: speed}
	if rapid.Bool().Draw(t, "random") {
		cfg.Sigma, cfg.Peak = 0.5, 2
	}
	flow, _, err := simulate(jobs, cfg, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)))
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	total := 0
	for _, f := range flow {
		total += f
	}
	peak := max(cfg.Peak, 1)
	ratio, err := SREWCRatio(machines, beta, eps, peak)
	if err != nil {
		t.Fatalf("SREWCRatio: %v", err)
	}
	if lb := onlineLowerBound(jobs, machines, peak); float64(total) > ratio*lb+1e-9 {
		t.Fatalf("Theorem 4: total flowtime %d > %v × lower bound %v", total, ratio, lb)
	}
}

func TestTheorem4(t *testing.T) { t.Parallel(); rapid.Check(t, testTheorem4) }

func TestFluidSRPT(t *testing.T) {
	t.Parallel()
	// Capacity 1: A (work 4, at 0), B (work 1, at 1): A runs to 1, B
	// preempts and ends at 2 (flow 1), A ends at 5 (flow 5).
	if got := fluidSRPT([]SimJob{{MapTasks: 1, MapWork: 4}, {Arrival: 1, MapTasks: 1, MapWork: 1}}, 1); got != 6 {
		t.Fatalf("fluidSRPT = %v, want 6", got)
	}
}

// testSimulateNoPanic: Simulate, with any algorithm, mode and baseline, on
// any input (bad values, and work over speed that underflows) returns a
// result or an InputError, never a panic or another error; a Baseline's
// String is defined for every value.
func testSimulateNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 4).Draw(t, "n")
	jobs := make([]SimJob, n)
	for j := range jobs {
		jobs[j] = SimJob{
			Arrival:     anyInt(t, "arrival", 0, 3),
			MapTasks:    anyInt(t, "maps", 0, 2),
			ReduceTasks: anyInt(t, "reduces", 0, 1),
			MapWork:     anyFloat(t, "mapwork", 1, 2.5, 5e-324),
			ReduceWork:  anyFloat(t, "reducework", 0, 3),
		}
	}
	cfg := Config{
		Machines:  anyInt(t, "machines", 1, 2, 5),
		Algorithm: Algorithm(rapid.IntRange(0, 3).Draw(t, "policy")),
		Baseline:  Baseline(rapid.IntRange(0, 4).Draw(t, "baseline")),
		Beta:      anyFloat(t, "beta", 0.5, 1),
		Lambda:    anyFloat(t, "lambda", 0, 1),
		Mode:      Mode(rapid.IntRange(0, 2).Draw(t, "mode")),
		Speed:     anyFloat(t, "speed", 0, 1, 2, 1e300),
		Sigma:     anyFloat(t, "sigma", 0, 0.5, 1e-170),
		Peak:      anyFloat(t, "peak", 0, 2, 1.25),
		MaxSlots:  rapid.IntRange(0, 400).Draw(t, "maxslots"),
	}
	if cfg.MaxSlots == 0 {
		cfg.MaxSlots = 400 // bound the run
	}
	_ = Baseline(rapid.Uint8().Draw(t, "name")).String()
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(5, 5))
	}
	r, err := Simulate(jobs, cfg, rng)
	if err != nil {
		if !isInputError(err, "competitive.Simulate") || r != nil {
			t.Fatalf("err %v, result %v", err, r)
		}
		return
	}
	for j, f := range r.Flowtime {
		if f < 0 {
			t.Fatalf("job %d: flowtime %d", j, f)
		}
	}
}

func TestSimulateNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulateNoPanic) }

func FuzzSimulate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSimulateNoPanic)) }

// benchJobs is a 1 000-job online workload: arrivals over 500 slots, up to
// 40 map tasks of 1–10 slots and 10 reduce tasks of 1–20 slots each.
func benchJobs(n int) []SimJob {
	rng := rand.New(rand.NewPCG(1, 1))
	jobs := make([]SimJob, n)
	for j := range jobs {
		jobs[j] = SimJob{
			Arrival:     rng.IntN(500),
			MapTasks:    1 + rng.IntN(40),
			ReduceTasks: 1 + rng.IntN(10),
			MapWork:     float64(1 + rng.IntN(10)),
			ReduceWork:  float64(1 + rng.IntN(20)),
		}
	}
	return jobs
}

func benchmarkSimulate(b *testing.B, cfg Config) {
	jobs := benchJobs(1000)
	var dst []int
	slots := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Simulate(jobs, cfg, rand.New(rand.NewPCG(1, uint64(i))))
		if err != nil {
			b.Fatal(err)
		}
		dst = r.Flowtime
		slots += r.Stats.Slots
	}
	b.StopTimer()
	b.ReportMetric(float64(slots)/b.Elapsed().Seconds(), "slots/s")
	if slots == 0 || slices.Max(dst) == 0 {
		b.Fatal("nothing simulated")
	}
}

func BenchmarkSimulate(b *testing.B) {
	const m = 1000
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"SREWC/preemptive/random", Config{Machines: m, Algorithm: AlgorithmSREWC, Beta: 0.7, Lambda: 1, Sigma: 0.5, Peak: 2}},
		{"SREWC/non-preemptive/random", Config{Machines: m, Algorithm: AlgorithmSREWC, Beta: 0.7, Lambda: 1, Mode: NonPreemptive, Sigma: 0.5, Peak: 2}},
		{"SREWC/preemptive/deterministic", Config{Machines: m, Algorithm: AlgorithmSREWC, Beta: 0.7, Lambda: 1}},
		{"Fair/preemptive/random", Config{Machines: m, Algorithm: AlgorithmFair, Sigma: 0.5, Peak: 2}},
		{"SEW/random", Config{Machines: m, Algorithm: AlgorithmSEW, Lambda: 1, Sigma: 0.5, Peak: 2}},
	} {
		b.Run(c.name, func(b *testing.B) { benchmarkSimulate(b, c.cfg) })
	}
}

// TestServiceMoments checks the service law against §2's model: mean 1,
// standard deviation σ, never above the peak Δ (and δ times that with
// speed δ), with a fixed seed.
func TestServiceMoments(t *testing.T) {
	t.Parallel()
	const draws = 200000
	for _, c := range []struct{ sigma, peak, speed float64 }{{0.5, 2, 1}, {0.3, 1.2, 1}, {1, 4, 1.5}, {0, 1, 2}} {
		s := newSim(nil, Config{Sigma: c.sigma, Peak: c.peak, Speed: c.speed}, 0, rand.New(rand.NewPCG(4, 4)))
		sum, sq := 0.0, 0.0
		for i := 0; i < draws; i++ {
			x := s.draw() / c.speed
			if x < 0 || x > c.peak {
				t.Fatalf("σ = %v, Δ = %v: service %v outside [0, Δ]", c.sigma, c.peak, x)
			}
			sum += x
			sq += x * x
		}
		mean := sum / draws
		sd := math.Sqrt(sq/draws - mean*mean)
		// The sample mean's standard error is σ/√draws ≈ 0.002 at most.
		if math.Abs(mean-1) > 5*c.sigma/math.Sqrt(draws) || math.Abs(sd-c.sigma) > 0.01 {
			t.Errorf("σ = %v, Δ = %v: service mean %v, SD %v; want 1 and %v", c.sigma, c.peak, mean, sd, c.sigma)
		}
	}
}

// TestSamplePath replays the service draws of one task run as two copies
// from slot 1 (Fair on 2 machines): with checkpointing its progress grows
// by max(X₁, X₂) per slot (eq. 6–7); without, each copy by its own X and
// the task ends with its first copy (eq. 1, 5). The Beta law is rebuilt
// here from its moments: mean 1/Δ, variance σ²/Δ².
func TestSamplePath(t *testing.T) {
	t.Parallel()
	const work, sigma, peak = 10.0, 0.9, 3.0
	mu, v := 1/peak, sigma*sigma/(peak*peak)
	nu := mu*(1-mu)/v - 1
	for seed := uint64(1); seed <= 50; seed++ {
		rng := rand.New(rand.NewPCG(seed, 8))
		x := distuv.Beta{Alpha: mu * nu, Beta: (1 - mu) * nu, Src: rng}
		shared, own := [2]float64{}, [2]float64{}
		want := [2]int{}
		for slot := 1; want[0] == 0 || want[1] == 0; slot++ {
			x1, x2 := peak*x.Rand(), peak*x.Rand()
			shared[0] += max(x1, x2)
			own[0] += x1
			own[1] += x2
			if want[0] == 0 && shared[0] >= work {
				want[0] = slot
			}
			if want[1] == 0 && max(own[0], own[1]) >= work {
				want[1] = slot
			}
		}
		// The two runs need their own replay: with checkpointing the run
		// ends at want[0], and its draws are the first 2·want[0].
		for i, mode := range []Mode{Preemptive, NonPreemptive} {
			flow, _, err := simulate([]SimJob{{MapTasks: 1, MapWork: work}}, Config{Machines: 2, Algorithm: AlgorithmFair, Mode: mode, Sigma: sigma, Peak: peak}, rand.New(rand.NewPCG(seed, 8)))
			if err != nil {
				t.Fatal(err)
			}
			if flow[0] != want[i] {
				t.Fatalf("seed %d, %v: flowtime %d, the replayed sample path gives %d", seed, mode, flow[0], want[i])
			}
		}
	}
}

// TestSnapshot checks what the policies see: per phase the task count, the
// mean p (eq. 3) and the SD σ·√(p + ½) (§2.1), unfinished tasks split
// into running (with their copies) and unscheduled, reduce tasks hidden
// behind the maps.
func TestSnapshot(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 3, ReduceTasks: 2, MapWork: 2, ReduceWork: 4.5}, {ReduceTasks: 1, ReduceWork: 1}}
	s := newSim(jobs, Config{Machines: 4, Sigma: 0.5, Peak: 2}, 6, rand.New(rand.NewPCG(1, 1)))
	s.active = []int{0, 1}
	s.snapshot()
	s.tasks[1].copies = 2 // the second map task of job 0 runs twice
	s.snapshot()
	want := []Job{
		{
			Map:    Phase{Tasks: 3, Mean: 2, SD: 0.5 * math.Sqrt(2.5), Unscheduled: 2, Running: []int{2}},
			Reduce: Phase{Tasks: 2, Mean: 4.5, SD: 0.5 * math.Sqrt(5), Unscheduled: 2},
		},
		{Map: Phase{SD: 0.5 * math.Sqrt(0.5)}, Reduce: Phase{Tasks: 1, Mean: 1, SD: 0.5 * math.Sqrt(1.5), Unscheduled: 1}},
	}
	if diff := cmp.Diff(want, s.snap, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("snapshot (-want +got):\n%s", diff)
	}
}

// TestConservationChecks feeds the simulator's bookkeeping actions that no
// correct policy emits and expects each to be reported.
func TestConservationChecks(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 2, ReduceTasks: 1, MapWork: 1, ReduceWork: 1}}
	fresh := func(policy Algorithm) *sim {
		s := newSim(jobs, Config{Machines: 2, Algorithm: policy, Speed: 1, Peak: 1}, 3, nil)
		s.active = []int{0}
		s.snapshot()
		return s
	}
	cases := []struct {
		name    string
		policy  Algorithm
		actions []Action
	}{
		{"launch twice", AlgorithmSREWC, []Action{{0, MapStage, Launch, 0, 1}, {0, MapStage, Launch, 0, 1}}},
		{"reduce before maps", AlgorithmSREWC, []Action{{0, ReduceStage, Launch, 0, 1}}},
		{"clone an unscheduled task", AlgorithmSREWC, []Action{{0, MapStage, Clone, 0, 1}}},
		{"unknown task", AlgorithmSREWC, []Action{{0, MapStage, Launch, 5, 1}}},
		{"unknown job", AlgorithmSREWC, []Action{{3, MapStage, Launch, 0, 1}}},
		{"too many copies", AlgorithmSREWC, []Action{{0, MapStage, Launch, 0, 2}, {0, MapStage, Launch, 1, 1}}},
		{"SEW group over-used", AlgorithmSEW, []Action{{0, MapStage, Launch, 0, 1}, {0, MapStage, Launch, 1, 1}}},
	}
	for _, c := range cases {
		s := fresh(c.policy)
		var err error
		for _, a := range c.actions {
			if err = s.apply(a); err != nil {
				break
			}
		}
		if err == nil {
			err = s.checkCapacity()
		}
		if !isInvariantError(err) || !strings.Contains(err.Error(), "conservation") {
			t.Errorf("%s: err = %v, want a conservation violation", c.name, err)
		}
	}
	// A reduce launch for a job still mapping is refused by its own check,
	// not by a later one: with two jobs, job 0's reduce ordinal 1 would
	// address the list of unscheduled tasks past job 0's one map task — at
	// job 1's first unscheduled reduce task, of the right phase.
	two := newSim([]SimJob{
		{MapTasks: 1, ReduceTasks: 3, MapWork: 1, ReduceWork: 1},
		{MapTasks: 0, ReduceTasks: 2, MapWork: 1, ReduceWork: 1},
	}, Config{Machines: 2, Algorithm: AlgorithmSREWC, Speed: 1, Peak: 1}, 6, nil)
	two.active = []int{0, 1}
	two.snapshot()
	if err := two.apply(Action{0, ReduceStage, Launch, 1, 1}); !isInvariantError(err) || !strings.Contains(err.Error(), "before the maps finished") {
		t.Errorf("reduce launch of a mapping job beside a reducing one: err = %v, want the reduce-before-maps violation", err)
	}
	// A task cannot finish twice, nor without a copy.
	s := fresh(AlgorithmSREWC)
	if err := s.apply(Action{0, MapStage, Launch, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.finish(0); err != nil {
		t.Fatal(err)
	}
	if err := s.finish(0); err == nil {
		t.Errorf("a task finished twice without an error")
	}
	if err := s.finish(1); err == nil {
		t.Errorf("a task with no copy finished without an error")
	}
}
