package sim_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specsched/specsched/sim"
)

// computedProbe is best effort that, at every call of Use, keeps what
// Decision.AppendComputed says of each phase of the job it is asked about.
type computedProbe struct {
	sim.BestEffortRule
	seen []computedSeen
}

type computedSeen struct {
	job, phase int
	now        float64
	got        []float64
}

func (r *computedProbe) Use(d *sim.Decision, k, g int) error {
	for p := range d.Phases(k) {
		r.seen = append(r.seen, computedSeen{job: d.Job(k), phase: p, now: d.Now(), got: d.AppendComputed(nil, k, p)})
	}
	return r.BestEffortRule.Use(d, k, g)
}

// TestAppendComputedByRecords: at every decision, AppendComputed gives, for
// a job's first phase, in task order, End − Start of the winning copy of
// each task whose winning copy has ended by then — recomputed from the
// run's copy records (Config.Record), not from the engine's own
// bookkeeping. (A later phase's task whose run is over may wait for its
// upstream phase holding its slot, so its record ends later than its run:
// the records cannot tell its run's length, and the test leaves it out.)
func TestAppendComputedByRecords(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		jobs, err := sim.Synthesize(sim.DefaultWorkload(60, 20, 0.9), rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		rule := &computedProbe{}
		cfg := sim.DefaultConfig(sim.SRPTBestEffort, 20)
		cfg.Seed, cfg.Record, cfg.Rule = seed, true, rule
		res, err := sim.Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		type key struct{ job, phase int }
		winners := map[key][]sim.CopyRecord{} // the winning copies, per phase
		for _, c := range res.Copies {
			if !c.Killed {
				winners[key{c.Job, c.Phase}] = append(winners[key{c.Job, c.Phase}], c)
			}
		}
		for _, w := range winners {
			slices.SortFunc(w, func(a, b sim.CopyRecord) int { return a.Task - b.Task })
		}
		checked := 0
		for _, s := range rule.seen {
			if s.phase > 0 {
				continue
			}
			var want []float64
			for _, c := range winners[key{s.job, s.phase}] {
				if c.End <= s.now {
					want = append(want, c.End-c.Start)
				}
			}
			if !slices.Equal(s.got, want) {
				t.Fatalf("seed %d: job %d phase %d at %v: AppendComputed %v, want %v from the records", seed, s.job, s.phase, s.now, s.got, want)
			}
			checked += len(want)
		}
		if checked == 0 {
			t.Fatalf("seed %d: no finished task seen at any decision", seed)
		}
	}
}
