package competitive

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// testSREWCFitsCluster: one slot of SREW+C(β) on a snapshot that fits the
// cluster (Σ_j o_j(t) ≤ M, down to a full cluster) never leaves more
// copies running than machines: the copies after the slot are counted here
// from the snapshot's Running entries and the actions (Launch and Clone
// add, Preempt removes), not from the package's bookkeeping. In Preemptive
// mode every machine is busy after the slot while a job is active (Σ g_j =
// M, each job ends with g_j, Algorithm 2 line 7); a Preempt never stops
// more copies than its task runs.
func testSREWCFitsCluster(t *rapid.T) {
	jobs := genJobs(t, 0, 30, 8, 5)
	used, active := 0, false
	for j := range jobs {
		for _, p := range []Phase{jobs[j].Map, jobs[j].Reduce} {
			for _, c := range p.Running {
				used += c
			}
			if p.Unscheduled > 0 || len(p.Running) > 0 {
				active = true
			}
		}
	}
	cluster := used + rapid.SampledFrom([]int{0, 0, 1, 2, 7, 40}).Draw(t, "spare")
	mode := rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode")
	lambda := rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 5))
	actions, err := SREWC(nil, jobs, cluster, drawBeta(t), lambda, mode, rng, nil)
	if err != nil {
		t.Fatalf("SREWC: %v", err)
	}
	after := used
	for _, a := range actions {
		switch a.Kind {
		case Launch, Clone:
			after += a.Copies
		case Preempt:
			p := jobs[a.Job].phase(a.Stage)
			if a.Task < 0 || a.Task >= len(p.Running) || a.Copies > p.Running[a.Task] {
				t.Fatalf("preempt %+v of running %v", a, p.Running)
			}
			after -= a.Copies
		}
	}
	if after > cluster {
		t.Fatalf("%d copies running after the slot on %d machines (%d before)", after, cluster, used)
	}
	if mode == Preemptive && active && after != cluster {
		t.Fatalf("preemptive slot leaves %d of %d machines busy", after, cluster)
	}
}

func TestSREWCFitsCluster(t *testing.T) { t.Parallel(); rapid.Check(t, testSREWCFitsCluster) }

// testSimulateCrowded runs Simulate on crowded clusters — many jobs of
// many tasks arriving together on few machines, M = 1 included — for every
// algorithm and mode: the engine's own conservation checks (an
// *InvariantError) must not fire, and its counters must satisfy, checked
// here, Σ_t busy machines ≤ M · active slots and every task finished.
func testSimulateCrowded(t *rapid.T) {
	jobs := drawSimJobs(t, SimJob{Arrival: 3, MapTasks: 30, ReduceTasks: 10, MapWork: 4, ReduceWork: 4}, 25)
	policy := rapid.SampledFrom([]Algorithm{AlgorithmSEW, AlgorithmSREWC, AlgorithmFair}).Draw(t, "policy")
	lo := 1
	if policy == AlgorithmSEW {
		lo = 2
	}
	cfg := Config{
		Machines:  rapid.IntRange(lo, 9).Draw(t, "machines"),
		Algorithm: policy,
		Beta:      drawBeta(t),
		Lambda:    rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda"),
		Mode:      rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode"),
	}
	if rapid.Bool().Draw(t, "random") {
		cfg.Sigma, cfg.Peak = 0.9, 3
	}
	_, stats, err := simulate(jobs, cfg, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 9)))
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	checkStats(t, jobs, cfg.Machines, stats)
}

func TestSimulateCrowded(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulateCrowded) }
