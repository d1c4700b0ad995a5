package sim_test

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/sim"
)

// idleProbe is IdleRule, checking at each of its calls that a copy starts
// only when no active job has an unscheduled task it could launch now.
type idleProbe struct {
	sim.IdleRule
	t      interface{ Errorf(string, ...any) }
	copies int // copies the probe saw start
}

func (p *idleProbe) Use(d *sim.Decision, k, g int) error {
	before := d.SpeculativeCopies()
	if err := p.IdleRule.Use(d, k, g); err != nil {
		return err
	}
	started := d.SpeculativeCopies() - before
	if started == 0 {
		return nil
	}
	p.copies += started
	for j := range d.Active() {
		if n := d.Unscheduled(j); n > 0 {
			p.t.Errorf("t = %v: job %d started %d copies while job %d has %d unscheduled tasks it could launch", d.Now(), d.Job(k), started, d.Job(j), n)
		}
	}
	return nil
}

// singlePhase keeps every job's first phase: with one phase a job's
// demand is tasks it can launch now (IdleRule's doc: a slot a job's
// target holds for a task of a later phase may go to its copies).
func singlePhase(jobs []sim.Job) []sim.Job {
	for j := range jobs {
		jobs[j].Phases = jobs[j].Phases[:1]
	}
	return jobs
}

// TestIdleRuleLowestPriority: under srpt-conserving, IdleRule's copies
// run only on slots no unscheduled task wants — at every call that starts
// a copy, no active job has a task it could launch — under every
// estimator and both straggler rules; and under plain SRPT, which offers
// no slot beyond the demands, it starts none.
func TestIdleRuleLowestPriority(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		jobs := singlePhase(bigTaskJobs(t))
		cfg := sim.DefaultConfig(sim.SRPT, rapid.IntRange(1, 150).Draw(t, "slots"))
		cfg.Seed = rapid.Uint64().Draw(t, "seed")
		cfg.Speculation.Estimator = rapid.SampledFrom([]sim.Estimator{sim.Oracle, sim.Progress, sim.Observed}).Draw(t, "estimator")
		cfg.Speculation.Mantri = rapid.Bool().Draw(t, "mantri")
		cfg.Speculation.Detect = rapid.SampledFrom([]float64{0, 0.1, 0.5}).Draw(t, "detect")
		cfg.Allocator, _ = sim.NewAllocator("srpt-conserving")
		cfg.Rule = &idleProbe{t: t}
		if _, err := sim.Simulate(jobs, cfg); err != nil {
			t.Fatal(err)
		}
		cfg.Allocator, _ = sim.NewAllocator("srpt")
		cfg.Rule, _ = sim.NewRule("idle")
		res, err := sim.Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Copies != 0 {
			t.Fatalf("srpt+idle started %d copies; plain SRPT offers no slot beyond the demands", res.Stats.Copies)
		}
	})
}

// TestIdleRuleCopies: the property above is not vacuous — on the default
// workload (400 jobs, 50 slots, load 0.8) srpt-conserving+idle starts
// copies, the probe sees them all, and fewer than best effort's, whose
// copies also take slots ahead of other jobs' tasks.
func TestIdleRuleCopies(t *testing.T) {
	t.Parallel()
	jobs, err := sim.Synthesize(sim.DefaultWorkload(400, 50, 0.8), rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	jobs = singlePhase(jobs)
	cfg := sim.DefaultConfig(sim.SRPTBestEffort, 50)
	best, err := sim.Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Allocator, _ = sim.NewAllocator("srpt-conserving")
	probe := &idleProbe{t: t}
	cfg.Rule = probe
	idle, err := sim.Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if idle.Stats.Copies == 0 || probe.copies != idle.Stats.Copies || idle.Stats.Copies >= best.Stats.Copies {
		t.Fatalf("srpt-conserving+idle: %d copies (probe: %d), srpt-besteffort %d: want 0 < idle's = probe's < best effort's",
			idle.Stats.Copies, probe.copies, best.Stats.Copies)
	}
}
