package sim

// A Decision is a run's state at one of its decisions, as an Allocator and
// an InJobRule see it: the active jobs — arrived and not yet complete — in
// arrival order (ties by input index), the k-th at position k = 0 …
// Active()−1. It is valid only during the call it is handed to, and must not
// be kept.
//
// Every method takes O(1) unless it says otherwise. Positions out of range
// panic, as an index out of range does.
type Decision struct {
	e *engine
	// grant is the slots the rule being called may still fill with Launch
	// and Copy (0 outside InJobRule.Use).
	grant int
}

// Now is the time of the decision.
func (d *Decision) Now() float64 { return d.e.now }

// Capacity is the number of slots the allocator shares: Config.Slots, less
// the reserved pool of budgeted speculation (BudgetedRule).
func (d *Decision) Capacity() int { return d.e.regCap }

// Active is the number of active jobs.
func (d *Decision) Active() int { return len(d.e.active) }

// Job is the index in Simulate's jobs of the active job at position k.
func (d *Decision) Job(k int) int { return int(d.e.active[k]) }

// Beta is the Pareto tail index β of the active job at position k
// (Job.Beta).
func (d *Decision) Beta(k int) float64 { return d.e.jobs[d.e.active[k]].Beta }

// ClusterBeta is the β the homogeneous Hopper allocators assume for every
// job: Config.Beta, or the jobs' β weighted by their tasks.
func (d *Decision) ClusterBeta() float64 { return d.e.betaC }

// Remaining is T_j of the active job at position k: its tasks whose run is
// not over, over all its phases.
func (d *Decision) Remaining(k int) int { return int(d.e.js[d.e.active[k]].unfinished) }

// Held is the number of slots the active job at position k holds outside
// budgeted speculation's pool.
func (d *Decision) Held(k int) int { return d.e.held(d.e.active[k]) }

// Unscheduled is the number of unscheduled tasks of the active job at
// position k in its runnable phases: the tasks Launch can start now.
func (d *Decision) Unscheduled(k int) int { return int(d.e.js[d.e.active[k]].unsched) }

// Demand is the number of slots the active job at position k could use
// now: those it holds, plus one per unscheduled runnable task, plus, under
// best-effort speculation (BestEffortRule), one per detected straggler (its
// copy counts as a task; O(R·c) for its R running tasks of c copies each).
// It is what the SRPT and Fair allocators cap each job at.
func (d *Decision) Demand(k int) int {
	e := d.e
	j := e.active[k]
	n := e.held(j) + int(e.js[j].unsched)
	if e.requester != nil {
		r, err := e.requester.requests(e, j)
		if err != nil && e.err == nil {
			e.err = err // reported by the engine once the call returns
		}
		n += r
	}
	return n
}

// Running is the number of running tasks of the active job at position k:
// tasks with at least one live copy whose run is not over.
func (d *Decision) Running(k int) int { return len(d.e.js[d.e.active[k]].running) }

// RunningTask describes running task i ∈ [0, Running(k)) of the active job
// at position k: its live copies, how long since its first copy started,
// and its remaining time t_rem as the job's scheduler estimates it
// (Speculation.Estimator; O(c) for c copies). The order of the running
// tasks is fixed by the run and changes as tasks finish.
func (d *Decision) RunningTask(k, i int) (copies int, elapsed, remaining float64) {
	e := d.e
	t := e.js[e.active[k]].running[i]
	ts := &e.ts[t]
	return int(ts.copies), e.now - ts.start, e.remaining(t)
}

// Launch starts the first copies of up to n of the job's unscheduled
// runnable tasks (upstream phase first, in index order), within the slots
// the rule may still fill, and returns how many it started. Only an
// InJobRule's Use may call it.
func (d *Decision) Launch(k, n int) int {
	used := d.e.launchUpTo(d.e.active[k], min(n, d.grant))
	d.grant -= used
	return used
}

// Copy starts another copy of running task i of the active job at position
// k, and reports whether it did: not when the rule has no slot left to
// fill or the task already runs MaxCopies copies. Only an InJobRule's Use
// may call it.
func (d *Decision) Copy(k, i int) bool {
	e := d.e
	t := e.js[e.active[k]].running[i]
	if d.grant <= 0 || e.ts[t].copies >= MaxCopies {
		return false
	}
	e.startCopy(t, false)
	d.grant--
	return true
}
