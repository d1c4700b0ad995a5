package sim

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/stragglers"
)

// thetaTol is the relative margin by which the eligibility filter errs on the
// side of asking stragglers.Speculate: the filter's bound now < θ and
// Speculate's test t_rem > level are the same inequality rearranged, and can
// disagree in the last bits.
const thetaTol = 1e-9

// use lets the active job at position k start up to g more copies in the
// slots it is granted, by the in-job rule, and returns how many it started
// (with speculation off, every rule only launches tasks). The count is the
// engine's own (the slots held outside the pool), so a rule cannot start
// more than it was granted unnoticed.
func (e *engine) use(k, g int) (int, error) {
	if g <= 0 {
		return 0, nil
	}
	if e.cfg.Speculation.Off {
		return e.launchUpTo(e.active[k], g), nil
	}
	before := e.regBusy
	e.dec.grant = g
	err := e.rule.Use(&e.dec, k, g)
	e.dec.grant = 0
	used := e.regBusy - before
	if err == nil {
		err = e.err // a misuse of the Decision's methods
	}
	if err == nil && used > g {
		err = fmt.Errorf("%s: the in-job rule started %d copies in %d slots", e.fn, used, g)
	}
	return used, err
}

// canUse reports whether the active job at position k might use a slot now.
func (e *engine) canUse(k int) bool {
	js := &e.js[e.active[k]]
	if js.unsched > 0 {
		return true
	}
	if e.cfg.Speculation.Off || len(js.running) == 0 {
		return false
	}
	// A misuse of the Decision's methods in CanUse passes the job over,
	// and the engine returns it at once.
	return e.rule.CanUse(&e.dec, k) && e.err == nil
}

// beyond reports whether θ > at, up to thetaTol in favour of θ.
func beyond(theta, at float64) bool {
	return theta > at-thetaTol*math.Max(1, math.Abs(at))
}

// launchUpTo launches up to g unscheduled tasks of job j, upstream phases
// first and in index order within a phase, and returns how many.
func (e *engine) launchUpTo(j int32, g int) int {
	js := &e.js[j]
	used := 0
	for p := js.plo; p < js.phi && used < g && js.unsched > 0; p++ {
		ph := &e.ps[p]
		if !ph.runnable {
			break // later phases cannot be runnable either
		}
		for ph.next < ph.n && used < g {
			e.launch(p)
			used++
		}
	}
	return used
}

// appendRunning appends job j's running tasks to dst as
// stragglers.Speculate is shown them (t_rem estimated, 0 at MaxCopies) and
// tightens the job's eligibility bounds to the exact maximum of θ and the
// exact quiet time (Decision.AppendRunning). With slow, it also appends to
// pos each listed task's running position, and, under Observed with the
// straggler bookkeeping and the thesis's level, leaves out the tasks whose
// θ is not beyond now (Decision.AppendSlow): their estimates are at or
// below t_new and are not read.
func (e *engine) appendRunning(dst []stragglers.Task, pos []int, j int32, slow bool) ([]stragglers.Task, []int) {
	js := &e.js[j]
	filter := slow && e.observed && e.judges && !e.cfg.Speculation.Mantri
	thetaMax := math.Inf(-1)
	quiet := math.Inf(1)
	for i, t := range js.running {
		e.steps++
		ts := &e.ts[t]
		if filter && !beyond(ts.theta, e.now) {
			// θ = −∞ (under Observed θ is ±∞: observedEstimate,
			// updateTheta): its estimate was at or below t_new at its
			// last copy's start or rising report or the last scan, and
			// only a rising report, an event that recomputes θ, can lift
			// it. It counts neither for thetaMax (−∞) nor for quiet.
			continue
		}
		rem := 0.0 // at MaxCopies: never eligible
		switch {
		case ts.copies >= MaxCopies:
		case e.observed:
			// The reports since the bound was set may have lowered it.
			rem, ts.theta = e.observedEstimate(t, e.observedLevel(t))
		default:
			rem = e.remaining(t)
		}
		if at := math.Max(ts.phi, e.now); beyond(ts.theta, at) {
			quiet = math.Min(quiet, at)
		}
		dst = append(dst, stragglers.Task{
			State:     stragglers.Running,
			Copies:    int(ts.copies),
			Elapsed:   e.now - ts.start,
			Remaining: rem,
		})
		if slow {
			pos = append(pos, i)
		}
		thetaMax = math.Max(thetaMax, ts.theta)
	}
	js.thetaMax = thetaMax
	js.quiet = quiet
	return dst, pos
}

// remaining is the estimated t_rem of a running task: the smallest estimated
// remaining time over its live copies, η·(end − now), or, under Observed,
// the estimate from their reports (observedEstimate). Every rule's t_rem
// comes from here.
func (e *engine) remaining(task int32) float64 {
	if e.observed {
		rem, _ := e.observedRem(task)
		return rem
	}
	return e.remainingAt(task, e.now)
}

// updateTheta updates, after copy c of a task has started, the time θ up to
// which the task can be judged a straggler: with level the rule's threshold
// on t_rem (t_new for the thesis's rule, (c+1)/c times Mantri's cut-off for c
// copies), t_rem = min_c η_c·(end_c − now) > level ⇔ now < min_c (end_c −
// level/η_c) = θ. The thesis's level does not depend on the copies, so θ
// takes the new copy's term in O(1); Mantri's changes with them and θ is
// recomputed over the task's copies, O(MaxCopies). A task at MaxCopies is
// never judged (θ = −∞). Under Observed, θ is +∞ or −∞ as the task is
// eligible now or not (observedEstimate), O(c) for c copies: its estimates
// hold until a report, and the reports that can make it eligible are
// events that call updateTheta again.
func (e *engine) updateTheta(task, c int32) {
	ts := &e.ts[task]
	js := &e.js[e.ps[ts.phase].job]
	var theta float64
	switch {
	case ts.copies >= MaxCopies:
		theta = math.Inf(-1)
	case e.observed:
		_, theta = e.observedEstimate(task, e.observedLevel(task))
	case !e.cfg.Speculation.Mantri:
		theta = e.endOf(c) - js.tau/e.etaOf(c)
		if ts.copies > 1 {
			theta = math.Min(ts.theta, theta)
		}
	default:
		n := float64(ts.copies)
		level := js.mantriCut * (n + 1) / n
		theta = math.Inf(1)
		for c := ts.head; c != none; c = e.cs[c].next {
			e.steps++
			cp := &e.cs[c]
			if cp.alive {
				theta = math.Min(theta, e.endOf(c)-level/e.etaOf(c))
			}
		}
	}
	if math.IsNaN(theta) {
		theta = math.Inf(-1) // an infinite level: never a straggler
	}
	ts.theta = theta
	js.thetaMax = math.Max(js.thetaMax, theta)
	if at := math.Max(ts.phi, e.now); beyond(theta, at) {
		js.quiet = math.Min(js.quiet, at)
	}
	if e.indexed {
		e.reindex(task)
	}
}

// mantriCutoff is the δ-quantile of a new copy's duration, Pareto with tail β
// and mean t_new (x_m = t_new·(β−1)/β): Mantri's rule P(t_rem > (c+1)/c ·
// t_new) > δ holds when c/(c+1)·t_rem exceeds it (stragglers.Speculate's
// reading).
func mantriCutoff(tnew, beta, delta float64) float64 {
	return distuv.Pareto{Xm: tnew * (beta - 1) / beta, Alpha: beta}.Quantile(delta)
}
