//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/sim"
)

// The replay's workload: a slice of the SWIM Facebook 2009 day, read from
// ../shared/data/swim beside the repository (never copied into the module).
const (
	// swimFile is FB-2009, relative to this module's directory.
	swimFile = "../../../shared/data/swim/FB-2009_samples_24_times_1hr_0.tsv"
	// replayFirst and replayJobs pick the slice: jobs 2000–2059 of the day
	// (about 10 minutes of the trace after 8 h), a busy stretch with one
	// job of 1 139 map tasks.
	replayFirst, replayJobs = 2000, 60
	// replayMaxTasks caps a job's pods, to keep the replay small enough
	// for CI: the 1 139-task job runs 24.
	replayMaxTasks = 24
	// replayDurationScale compresses task durations (the SWIM rule's
	// means are 1 s to 3.2 s, Pareto-tailed up to 15×).
	replayDurationScale = 0.5
	// replayLoad sets the arrival compression: arrivals are scaled so that
	// the slice's work over its span is this share of the cluster.
	replayLoad = 0.9
	// Cluster: replayNodes KWOK nodes of replayCPUs one-CPU slots.
	replayNodes, replayCPUs = 4, 5
	// replayBeta is the β both sides assume for every job (the plug-in's
	// default, sim's Config.Beta); the jobs' own tails are drawn with the
	// SWIM rule's group β.
	replayBeta = 1.5
	// replayEps is ε for hopper and sim's HopperEps.
	replayEps = 0.1
)

// replayJob is one job of the replay as both the cluster and sim run it:
// its arrival and its tasks' durations, already compressed.
type replayJob struct {
	name      string
	arrival   time.Duration
	durations []time.Duration
}

// loadReplay reads the slice of FB-2009 and derives its jobs with the
// library's SWIM rule (sim.SwimJobs, sim.SwimFB2009: one map task per 64 MiB
// block, mean duration bytes/20 MiB/s but ≥ 1 s, a Pareto tail by straggler
// group), keeping the map phase only (the cluster has no phase barrier),
// at most replayMaxTasks tasks a job, durations drawn once here (seeded) so
// that the cluster and sim run the same ones.
func loadReplay(t *testing.T, slots int) []replayJob {
	t.Helper()
	f, err := os.Open(swimFile)
	if err != nil {
		abs, _ := filepath.Abs(swimFile)
		t.Fatalf("the replay reads the SWIM Facebook workloads from ../shared/data/swim beside the repository (%s); it is absent here: %v", abs, err)
	}
	defer f.Close()
	recs, err := sim.ParseSwim(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < replayFirst+replayJobs {
		t.Fatalf("%s has %d jobs, the replay takes %d–%d", swimFile, len(recs), replayFirst, replayFirst+replayJobs-1)
	}
	recs = recs[replayFirst : replayFirst+replayJobs]
	jobs, err := sim.SwimJobs(recs, sim.SwimFB2009(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	out := make([]replayJob, len(jobs))
	var work float64
	for j, job := range jobs {
		phase := job.Phases[0]
		pareto := distuv.Pareto{Xm: phase.Scale, Alpha: job.Beta, Src: rng}
		tasks := min(phase.Tasks, replayMaxTasks)
		out[j].name = fmt.Sprintf("j%02d", j)
		for range tasks {
			d := pareto.Rand()
			if phase.Cap > 0 {
				d = math.Min(d, phase.Cap)
			}
			d *= replayDurationScale
			// Whole milliseconds: the pod annotation carries them as such.
			dur := time.Duration(math.Round(d*1e3)) * time.Millisecond
			out[j].durations = append(out[j].durations, dur)
			work += dur.Seconds()
		}
	}
	span := recs[len(recs)-1].Submit - recs[0].Submit
	compress := work / (float64(slots) * replayLoad) / span
	for j := range out {
		at := (recs[j].Submit - recs[0].Submit) * compress
		out[j].arrival = time.Duration(math.Round(at*1e3)) * time.Millisecond
	}
	return out
}

// replayStats is mean and p90 of the jobs' completion times, in seconds.
type replayStats struct{ mean, p90 float64 }

func statsOf(completions []float64) replayStats {
	sorted := slices.Clone(completions)
	slices.Sort(sorted)
	return replayStats{mean: stat.Mean(sorted, nil), p90: stat.Quantile(0.9, stat.Empirical, sorted, nil)}
}

// simulate runs the replay's jobs in sim on slots slots under policy, with
// speculation off (the cluster runs no copies: nothing asks for them) and β
// replayBeta, and returns every job's completion time.
func simulate(t *testing.T, jobs []replayJob, slots int, policy sim.Preset) []float64 {
	t.Helper()
	simJobs := make([]sim.Job, len(jobs))
	for j, job := range jobs {
		durations := make([]float64, len(job.durations))
		for i, d := range job.durations {
			durations[i] = d.Seconds()
		}
		simJobs[j] = sim.Job{
			Arrival: job.arrival.Seconds(),
			Beta:    replayBeta,
			Phases:  []sim.Phase{{Tasks: len(durations), Scale: slices.Min(durations), Durations: durations}},
		}
	}
	cfg := sim.DefaultConfig(policy, slots)
	cfg.Eps = replayEps
	cfg.Beta = replayBeta
	cfg.Speculation.Off = true
	cfg.Seed = 1
	res, err := sim.Simulate(simJobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(res.Jobs))
	for j, r := range res.Jobs {
		out[j] = r.Completion
	}
	return out
}

// replayOnCluster submits the jobs at their arrival times to a fresh stack
// running conf (pods that run for their duration, then succeed, through
// podStagesComplete) and returns every job's completion time: from the
// moment the test submitted it to the last of its pods seen Succeeded by
// the informer.
func replayOnCluster(t *testing.T, jobs []replayJob, conf string) []float64 {
	t.Helper()
	s := newStack(t, stackOptions{podStages: podStagesComplete})
	s.addNodes("node", replayNodes, replayCPUs)
	w := s.watchPods()
	s.startScheduler(conf, sessionPeriod)

	total := 0
	submitted := make([]time.Time, len(jobs))
	start := time.Now()
	for j, job := range jobs {
		time.Sleep(time.Until(start.Add(job.arrival)))
		submitted[j] = time.Now()
		s.createPodGroup(job.name, 1, nil)
		for i, d := range job.durations {
			p := podSpec{group: job.name, name: fmt.Sprintf("%s-t%d", job.name, i), duration: d}
			if err := s.createPod(context.Background(), p); err != nil {
				t.Fatalf("create pod %s: %v", p.name, err)
			}
		}
		total += len(job.durations)
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		done := 0
		for _, r := range w.records() {
			if !r.finished.IsZero() {
				done++
			}
		}
		if done == total {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d pods finished after 5 minutes", done, total)
		}
		time.Sleep(200 * time.Millisecond)
	}
	index := make(map[string]int, len(jobs))
	for j, job := range jobs {
		index[job.name] = j
	}
	last := make([]time.Time, len(jobs))
	for _, r := range w.records() {
		j := index[r.group]
		if r.finished.After(last[j]) {
			last[j] = r.finished
		}
	}
	out := make([]float64, len(jobs))
	for j := range jobs {
		out[j] = last[j].Sub(submitted[j]).Seconds()
	}
	return out
}

// TestReplay replays the SWIM slice on the cluster once with hopper and once
// with Volcano's defaults (proportion + drf + gang), and runs sim on the same
// jobs with HopperEps and Fair. It checks that every job completes and no
// job completes faster than its longest task; the means and p90s are
// logged side by side (docs/volcano-e2e.md holds a run's table). With
// SPECSCHED_E2E_REPLAY_OUT set, the table is also written to that file.
func TestReplay(t *testing.T) {
	slots := replayNodes * replayCPUs
	jobs := loadReplay(t, slots)
	pods := 0
	for _, job := range jobs {
		pods += len(job.durations)
	}
	type row struct {
		name        string
		completions []float64
	}
	rows := []row{
		{"sim HopperEps (ε 0.1, β 1.5)", simulate(t, jobs, slots, sim.HopperEps)},
		{"sim Fair", simulate(t, jobs, slots, sim.Fair)},
	}
	// One stack at a time: each subtest stops its processes when it ends.
	for _, run := range []struct{ name, label, conf string }{
		{"hopper", "Volcano + hopper (ε 0.1, β 1.5)", hopperConf(replayEps, replayBeta)},
		{"default", "Volcano default (gang, drf, proportion)", defaultConf},
	} {
		var completions []float64
		if !t.Run(run.name, func(t *testing.T) { completions = replayOnCluster(t, jobs, run.conf) }) {
			t.FailNow()
		}
		rows = append(rows, row{run.label, completions})
	}

	for _, r := range rows[2:] {
		for j, c := range r.completions {
			longest := slices.Max(jobs[j].durations).Seconds()
			if c < longest-0.05 {
				t.Errorf("%s: job %s completed in %.2f s, shorter than its longest task (%.2f s)", r.name, jobs[j].name, c, longest)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "SWIM FB-2009 jobs %d–%d: %d jobs, %d pods, %d slots, session period %v\n\n",
		replayFirst, replayFirst+replayJobs-1, len(jobs), pods, slots, sessionPeriod)
	fmt.Fprintf(&b, "| run | mean completion (s) | p90 completion (s) |\n| --- | ---: | ---: |\n")
	for _, r := range rows {
		st := statsOf(r.completions)
		fmt.Fprintf(&b, "| %s | %.2f | %.2f |\n", r.name, st.mean, st.p90)
	}
	t.Log("\n" + b.String())
	if out := os.Getenv("SPECSCHED_E2E_REPLAY_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}
