package sim

import (
	"math"

	"github.com/specsched/specsched/internal/specbase"
	"github.com/specsched/specsched/stragglers"
)

// DollyRule is Dolly (Ananthanarayanan et al., "Effective Straggler
// Mitigation: Attack of the Clones", NSDI 2013) as an in-job rule:
// proactive cloning of small jobs within a cloning budget, with the
// settings stragglers.DefaultDolly documents (a budget of 5% of the
// cluster's slots, p = ε = 5%, at most 3 copies of a task).
//
// Admission. The first time the rule sees a job (at its first decision
// after arriving, when it asks for slots), stragglers.DollyClones decides
// how many copies c of each of its tasks it runs, from the job's tasks
// over all its phases and the cluster then: Config.Slots, the clones
// running (Decision.SpeculativeCopies) and the utilization
// (Decision.Busy / Slots). A job is cloned all or nothing, and only if its
// clones fit in the budget with those running: small jobs.
//
// Launch. The job's tasks are launched with their clones
// (stragglers.Dolly): of the g slots it is handed, its unscheduled tasks
// take the first, in order, and the rest give the tasks launched by this
// call up to c − 1 clones each. The clones count as the job's tasks in its
// demand (RequestRule: Decision.Demand adds c − 1 per unscheduled task), so
// that SRPT and Fair hand them slots. A clone starts only while the
// cluster runs fewer than ⌊Budget·Slots⌋ clones, so the budget holds at
// every instant, not only at admission. Dolly never copies a running task
// (no speculation: "avoiding waiting and speculation altogether").
//
// Not modelled: Dolly's delay assignment (a downstream task waits a
// little for the earliest upstream clone's output instead of reading from
// a straggling one, §4 of the Dolly paper): the simulator has no data
// transfer, and a task's run ends with its first copy.
//
// It reads task counts and the cluster's slots only, never an estimate:
// the same under every Estimator. O(g) per call, plus O(phases) at a
// job's admission; O(jobs) memory for the clone counts.
type DollyRule struct {
	baseline
	clones []int32 // by job index: the copies per task DollyClones gave, 0 until admitted
}

// dollyBudget is the most clones the cluster runs at once under DollyRule
// on slots slots: ⌊Budget·slots⌋.
func dollyBudget(slots int) int {
	return int(math.Floor(stragglers.DefaultDolly().Budget * float64(slots)))
}

// Bookkeeping implements BookkeepingRule: none. Simulate calls it when a
// run starts: it forgets the previous run's admissions.
func (r *DollyRule) Bookkeeping() Bookkeeping {
	if r != nil {
		r.clones = r.clones[:0]
	}
	return Bookkeeping{}
}

// CanUse implements InJobRule: clones start only with their originals, so
// a job with no unscheduled task cannot use a slot.
func (*DollyRule) CanUse(*Decision, int) bool { return false }

// admit returns the copies per task of the active job at position k
// (in range), deciding them at the job's first sight (stragglers.DollyClones's
// kernel, on the cluster's validated figures).
func (r *DollyRule) admit(d *Decision, k int) int {
	j := d.Job(k)
	for len(r.clones) <= j {
		r.clones = append(r.clones, 0)
	}
	if c := r.clones[j]; c > 0 {
		return int(c)
	}
	n := 0
	for p := range d.Phases(k) {
		n += d.Phase(k, p).Tasks
	}
	slots := d.Config().Slots
	cluster := stragglers.DollyCluster{
		Slots:       slots,
		Clones:      d.SpeculativeCopies(),
		Utilization: math.Min(1, float64(d.Busy())/float64(slots)),
	}
	c := specbase.DollyClones(n, cluster, stragglers.DefaultDolly())
	r.clones[j] = int32(c)
	return c
}

// Requests implements RequestRule: c − 1 clones per unscheduled task of
// the active job at position k, at most the clones the budget leaves. It
// returns a *specsched.InputError for a nil receiver.
func (r *DollyRule) Requests(d *Decision, k int) (int, error) {
	const fn = "sim.DollyRule.Requests"
	if r == nil {
		return 0, nilRule(fn)
	}
	if !inRange(d, k) {
		return 0, nil
	}
	c := r.admit(d, k)
	left := max(0, dollyBudget(d.Config().Slots)-d.SpeculativeCopies())
	return int(min(int64(d.Unscheduled(k))*int64(c-1), int64(left))), nil
}

// Use implements InJobRule (errors as LaunchRule.Use's, and for a nil
// receiver).
func (r *DollyRule) Use(d *Decision, k, g int) error {
	const fn = "sim.DollyRule.Use"
	g, err := ruleArgs(fn, r == nil, d, k, g)
	if err != nil || g == 0 {
		return err
	}
	c := r.admit(d, k)
	u := min(d.Unscheduled(k), g)
	if c == 1 || u == g {
		d.Launch(k, g)
		return nil
	}
	// The view: only the tasks this call launches (Dolly reads the busy
	// slots from the view, here none: the g slots are all free).
	r.view, r.run = r.view[:0], r.run[:0]
	r.addUnscheduled(u, 0)
	r.acts = specbase.Dolly(r.acts, r.view, specbase.Count(r.view), g, c)
	budget := dollyBudget(d.Config().Slots)
	return r.apply(fn, d, k, func() bool { return d.SpeculativeCopies() < budget })
}
