package sim

import (
	"math"

	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// LATERule is LATE (Zaharia et al., "Improving MapReduce Performance in
// Heterogeneous Environments", OSDI 2008, §4) as an in-job rule, by
// stragglers.LATE with the paper's parameters (stragglers.DefaultLATE):
// of the g slots the job is handed, its unscheduled tasks take the first
// (Hadoop's order, which LATE keeps: §2.1, §4), and the slots left copy
// the running tasks of its slowest quarter by progress rate that are not
// yet speculated, longest estimated time left first, while the cluster
// runs fewer than SpeculativeCap = 10% of its slots in speculative copies.
//
// A task's progress rate and time left come from Decision.Reported: under
// Observed its last report (LATE's ProgressScore over the age at which it
// was measured); under Oracle and Progress, the score that makes the time
// left t_rem (see Reported). A task is judged once it has run
// Speculation.Detect × t_new and, under Observed, has reported.
//
// The cap. The paper's SpeculativeCap is cluster-wide: "a cap on the
// number of speculative tasks that can be running at once", 10% of the
// available task slots (§4). The rule enforces it over the cluster: a copy
// starts only while fewer than 0.1·Config.Slots speculative copies run
// (Decision.SpeculativeCopies), so at most ⌈0.1·Slots⌉ run at any instant
// (rounded up, as stragglers.LATE's per-job cap: a cluster of fewer than 10
// slots may still run one); stragglers.LATE is called with its per-job cap
// off and the slots it may fill cut to the copies the cluster's cap leaves.
// The paper's SlowNodeThreshold (no copy on a slow node) is not modelled:
// the simulator's slots are interchangeable.
//
// Cost: O(g) for a job whose unscheduled tasks take its g slots; otherwise
// O(R·c) for its R running tasks of c copies plus stragglers.LATE's O(R +
// k log k) for k copies.
type LATERule struct{ baseline }

// LATECap is the share of the cluster's slots that LATERule's speculative
// copies may hold at once: the LATE paper's SpeculativeCap (§4).
const LATECap = 0.1

// lateClusterCap is the most speculative copies LATERule runs at once on a
// cluster of slots slots: ⌈LATECap·slots⌉.
func lateClusterCap(slots int) int { return int(math.Ceil(LATECap * float64(slots))) }

// Bookkeeping implements BookkeepingRule: decisions at the instants a task
// has run Speculation.Detect × t_new and, under Observed, at the reports
// that lift its estimate above t_new (LATE itself decides whenever a slot
// is free, at every TaskTracker heartbeat).
func (*LATERule) Bookkeeping() Bookkeeping { return Bookkeeping{Stragglers: true} }

// CanUse implements InJobRule: the job has a running task and the cluster
// runs fewer than its cap of speculative copies (a cap reached stays so
// for the rest of the decision: no copy ends within one). False for a nil
// or zero Decision and for k outside [0, d.Active()), recording nothing.
func (*LATERule) CanUse(d *Decision, k int) bool {
	return inRange(d, k) && d.Running(k) > 0 && d.SpeculativeCopies() < lateClusterCap(d.Config().Slots)
}

// Requests implements RequestRule: the copies LATE would start now of the
// job's running tasks, at most the cluster's cap less the speculative
// copies running (what Decision.Demand adds, so that SRPT and Fair hand
// LATE's copies slots, as best-effort speculation's). O(R·c) plus
// stragglers.LATE's cost. It returns a *specsched.InputError for a nil
// receiver.
func (r *LATERule) Requests(d *Decision, k int) (int, error) {
	const fn = "sim.LATERule.Requests"
	if r == nil {
		return 0, nilRule(fn)
	}
	r.decide(d, k, lateClusterCap(d.Config().Slots)-d.SpeculativeCopies())
	return len(r.acts), nil
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *LATERule) Use(d *Decision, k, g int) error {
	const fn = "sim.LATERule.Use"
	free, err := launchFirst(fn, r == nil, d, k, g)
	if err != nil {
		return err
	}
	r.decide(d, k, min(free, lateClusterCap(d.Config().Slots)-d.SpeculativeCopies()))
	return r.apply(fn, d, k, nil)
}

// decide sets r.acts to the copies stragglers.LATE starts of the running
// tasks of the active job at position k (in range) with up to limit free
// slots, by its kernel (the view is valid by construction).
func (r *LATERule) decide(d *Decision, k, limit int) {
	r.acts = r.acts[:0]
	if limit <= 0 || !inRange(d, k) || d.Running(k) == 0 {
		return
	}
	minElapsed := d.Config().Speculation.Detect * d.NewCopy(k)
	busy := r.viewPhase(d, k, -1, func(i int) stragglers.TaskStatus {
		s := stragglers.TaskStatus{Task: stragglers.Task{State: stragglers.Running, Copies: d.Copies(k, i)}}
		if judgeable(d.Elapsed(k, i), minElapsed) {
			s.Progress, s.Elapsed = d.Reported(k, i)
		}
		return s
	})
	p := stragglers.DefaultLATE()
	p.SpeculativeCap = 1 // the cluster's cap instead, by the slots
	r.acts = specbase.LATE(r.acts, r.view, specbase.Count(r.view), busy+limit, p, &r.ws)
}
