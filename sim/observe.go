package sim

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Observed progress (Estimator Observed).
//
// The model. A copy's duration d is drawn exactly as under the other
// estimators (so a run's durations, and every run that does not judge
// stragglers, are the same under every estimator), but its progress is not
// linear in time: it runs at a nominal rate, the one that would finish it in
// n = min(d, x), x the phase's floor — the Pareto scale x_m of a phase with
// drawn durations, the least entry of Durations and CopyDurations of a phase
// with given ones: the shortest a copy of the phase can take — up to a point
// drawn over its nominal run, s = U·n, U on (0, 1) from the copy's keyed
// stream (drawSlowdown) — uniform, or Beta(α, β) as Speculation.Onset sets
// (onsetFraction) — having done the fraction U of its work;
// the rest, 1 − U, is spread evenly over the remaining d − s. Its progress
// score at age a is a/n before s and U + (1 − U)·(a − s)/(d − s) after,
// reaching 1 exactly at d; a copy with d = n never slows down. So all of a
// copy's excess over the phase's fastest run is a slowdown that begins
// part-way through its life, as the straggler literature observes: Mantri
// (Ananthanarayanan et al., OSDI 2010, §3) traces most outliers to
// contention for the machine's processor, memory, disk or network that
// arises while the task runs, not to its input, and LATE (Zaharia et al.,
// OSDI 2008, §4) names tasks whose rate changes part-way as the case its
// progress-rate heuristic misjudges. Where the slowdown starts is the
// library's choice: neither paper gives its distribution, and the uniform
// one, the default, assumes nothing; Speculation.Onset makes it a parameter,
// and README's table shows how much the results move with it. A slowdown that starts late is hard to see: the
// copy has done most of its work at the nominal rate, and its progress rate
// averaged since its start stays high.
//
// Reports. A copy reports its score at its start + k·h, k ≥ 1, h =
// Speculation.Heartbeat × t_new (DefaultHeartbeat), while it runs. Its
// remaining time, as estimated at report k at age x_k with score p_k, is
// LATE's time left (1 − p)/(p/x) (§4) with the rate measured at the report,
// as Hadoop's speculator measures it (LegacyTaskRuntimeEstimator: estimated
// run time (t_k − start)/p_k at the report's timestamp t_k); the estimate
// holds until the next report: the scheduler learns a copy's state only at
// its reports. Hadoop 0.21's LATE implementation divides the score by the
// time elapsed up to the decision instead, so that an estimate grows
// between reports; we take it at the report, so that estimates change only
// at reports (below): the two readings differ by at most one heartbeat. A copy that has not reported is assumed to need t_new
// (a new copy's expected run, what the rule compares t_rem with), so a
// task just copied is not judged again before its new copy reports; a task
// whose first copy has not reported has no estimate (t_rem = 0: never a
// straggler). t_rem is the least estimate over the task's live copies.
//
// Decisions. Estimates change only at reports, so a task can turn into a
// straggler between decisions only at a report that lifts the estimate of
// a copy that held it below the rule's level (t_new; for Mantri's rule
// one of its levels, between its cut-off and twice it, depending on the
// copies): such a report calls for a decision, as a task's reaching Detect
// × t_new does (the report events). The engine finds each copy's next such
// report from its profile when it starts and at each of its report events
// (nextRise, in O(1) reports visited by the profile's closed form) — the
// event's time is a function of the copy's progress up to it, so no
// decision depends on what a copy has not yet reported — and the estimates
// themselves are formed only in timeLeft, from the reports up to now.
// Every other instant leaves every estimate as it was, so the decisions
// taken there (a copy's end, an arrival) change nothing more than they do
// under the other estimators.

// onsetFraction is U, the fraction of its work copy num of task does before
// it slows down: the quantile of Speculation.Onset's Beta law (gonum's
// distuv.Beta) at the copy's keyed uniform draw, which itself is U under
// the zero (uniform) Onset. Kept inside (0, 1), as newProfile requires: a
// quantile rounded to 0 or 1 is moved to the nearest number inside.
func (e *engine) onsetFraction(task, num int32) float64 {
	u := keyedUniform(e.seed, drawSlowdown, int(task), int(num))
	o := e.cfg.Speculation.Onset
	if o == (Onset{}) {
		return u
	}
	u = distuv.Beta{Alpha: o.Alpha, Beta: o.Beta}.Quantile(u)
	return math.Min(math.Max(u, math.SmallestNonzeroFloat64), math.Nextafter(1, 0))
}

// profile is how copy c progresses under Observed (e.prof[c]).
type profile struct {
	beat    float64 // the interval between its reports
	nominal float64 // n: the duration at the nominal rate
	slow    float64 // s = U·n: the age at which it slows down
	done    float64 // U: its progress score at s
	dur     float64 // d: the age at which it ends (its end − start)

	// The copy's last report as lastEstimate last found it: its number k
	// ≥ 1, its estimate, and the times of reports k and k+1, between
	// which both hold (an empty interval: none found yet).
	k, left, from, upTo float64
}

// newProfile returns the profile of a copy of duration dur > 0 in a phase of
// floor > 0, its slowdown drawn at u ∈ (0, 1), reporting every beat > 0.
func newProfile(dur, floor, u, beat float64) profile {
	n := math.Min(dur, floor)
	return profile{beat: beat, nominal: n, slow: u * n, done: u, dur: dur, from: math.Inf(1), upTo: math.Inf(-1)}
}

// progress is the copy's progress score at age a ∈ [0, dur].
func (p *profile) progress(a float64) float64 {
	if a <= p.slow {
		return a / p.nominal
	}
	return math.Min(1, p.done+(1-p.done)*((a-p.slow)/(p.dur-p.slow)))
}

// lastReport is the number k ≥ 0 of reports a copy started at start has made
// by now ≥ start, reporting every beat (start + beat > start): the largest k
// with start + k·beat ≤ now (0 before its first report), at most
// maxReports.
func lastReport(start, beat, now float64) float64 {
	k, _ := countReports(start, beat, now)
	return k
}

// minBeat is the least interval between a copy's reports, 2^-960 (about
// 1.0e-289): a copy's reports, at ages x ≥ minBeat/2, then give estimates
// x·(1 − p)/max(p, 10⁻⁴) ≥ x·2^-53 that are 0 or normal numbers, computed
// to a relative precision, as windows' margins assume. With a subnormal
// heartbeat (a t_new or a Heartbeat near 1e-300 and below), the estimates
// would be rounded to absolute steps of 2^-1074 and could sit at a level
// over billions of reports, which nextRise would then visit one by one (a
// job of subnormal durations hung the simulator so:
// TestObservedSubnormalJob).
const minBeat = 0x1p-960

// reportBeat is the interval between the reports of a copy started at now
// whose job reports every beat (Heartbeat × t_new): at least minBeat, and
// at least now's unit in the last place (a heartbeat below the clock's
// resolution is raised to it), so that every report falls at a later
// instant than the one before.
func reportBeat(beat, now float64) float64 {
	beat = math.Max(beat, minBeat)
	if !(now+beat > now) { // below the clock's resolution: one ulp
		beat = math.Nextafter(now, math.Inf(1)) - now
	}
	return beat
}

// maxReports is the most reports a copy makes, 2^20 (1 048 576): after
// it, the copy reports no more, and its estimate stays its last report's.
// A copy reaches it only by running over 2^20 heartbeats — 36 days at
// Hadoop's 3 s, over 10⁵ times its job's t_new at DefaultHeartbeat — and
// without a cap such a copy costs a run as many events as it makes
// reports: every report whose estimate lies in Mantri's band of levels
// may lift its task (nextRise), and where its progress score is within
// 10⁻¹² of 1 the estimates near a level are known only to their rounding
// (windows' margins), which nextRise visits one by one. A copy of 10¹²
// reporting every 0.04 made 2.5·10¹³ reports and hung the simulator
// (rapid seeds 8977034026890108713, 7622971129925165155 and
// 2759675049866454246 of TestConservationMagnitude; TestReportCap). With
// the cap, a copy's reports cost at most 2^20 visits and events.
const maxReports = 1 << 20

// countReports is lastReport, and the number of steps its walk took from the
// quotient ⌊(now − start)/beat⌋ to k. With beat at least start's unit in the
// last place (the engine makes it so: reportBeat raises a heartbeat below
// the clock's resolution to it) and k ≤ maxReports, the report times start +
// k·beat are rounded by less than two beats and the quotient by less than
// one, so the walk takes O(1) steps; a smaller beat costs one step per
// report number rounded away.
func countReports(start, beat, now float64) (k float64, steps int) {
	k = math.Floor((now - start) / beat)
	if !(k > 0) {
		k = 0 // and the report at start + beat may still be due by rounding
	}
	if k >= maxReports {
		return maxReports, 0 // the copy's last report
	}
	for k > 0 && start+k*beat > now {
		k--
		steps++
	}
	for start+(k+1)*beat <= now {
		k++
		steps++
	}
	return k, steps
}

// reports is the number of reports copy c has made by now.
func (e *engine) reports(c int32) float64 {
	return lastReport(e.cs[c].start, e.prof[c].beat, e.now)
}

// lastEstimate is the number k of reports copy c has made by now and its
// estimate at the last of them, timeLeft(c, k): both change only at the
// copy's reports, so they are kept in its profile with the times of
// reports k and k+1 and reused between them. Those times are
// countReports' own expressions, start + k·beat ≤ now < start +
// (k+1)·beat, which the report times increase with k, so they determine
// the k countReports returns. O(1); the decisions of the rules scan every
// running task, at every event of their jobs, and read the estimates
// through here.
func (e *engine) lastEstimate(c int32) (k, left float64) {
	pr := &e.prof[c]
	if pr.from <= e.now && e.now < pr.upTo {
		return pr.k, pr.left
	}
	k = e.reports(c)
	left = e.timeLeft(c, k)
	if k > 0 && k < maxReports/2 {
		start := e.cs[c].start
		pr.k, pr.left = k, left
		pr.from, pr.upTo = start+k*pr.beat, start+(k+1)*pr.beat
	}
	return k, left
}

// timeLeft is copy c's remaining time as estimated at its report k ≥ 1 —
// LATE's (1 − p)/(p/x) for the score p it reports at age x — or, for k = 0
// (no report yet), t_new.
func (e *engine) timeLeft(c int32, k float64) float64 {
	cp := &e.cs[c]
	if k == 0 {
		return e.js[e.ps[e.ts[cp.task].phase].job].tnew
	}
	x := (cp.start + k*e.prof[c].beat) - cp.start
	// Hadoop's estimator divides by at least 10⁻⁴ (a copy that has made no
	// progress, which only a heartbeat below the clock's resolution at its
	// start can show).
	p := e.prof[c].progress(x)
	return x * (1 - p) / math.Max(p, 1e-4)
}

// observedEstimate returns, under Observed, the estimated t_rem of a running
// task at now — the least of its live copies' estimates at their last
// reports — and the time θ before which it may be judged a straggler
// against level: +∞ if t_rem > level (until a report changes an estimate),
// −∞ if not (until one of its copies' estimates rises above the level at a
// report). No estimate (0, −∞) until its first copy has reported.
func (e *engine) observedEstimate(task int32, level float64) (rem, theta float64) {
	rem, ok := e.observedRem(task)
	if ok && beyond(rem, level) {
		return rem, math.Inf(1)
	}
	return rem, math.Inf(-1)
}

// observedRem is observedEstimate's t_rem, and false when the task's first
// copy has not reported (t_rem = 0).
func (e *engine) observedRem(task int32) (rem float64, ok bool) {
	ts := &e.ts[task]
	if k, _ := e.lastEstimate(ts.head); k == 0 {
		return 0, false
	}
	rem = math.Inf(1)
	for c := ts.head; c != none; c = e.cs[c].next {
		e.steps++
		cp := &e.cs[c]
		if cp.alive {
			_, left := e.lastEstimate(c)
			rem = math.Min(rem, left)
		}
	}
	if !(rem >= 0) {
		rem = 0
	}
	return rem, true
}

// observedLevel is the level task's t_rem must exceed under the rule:
// t_new, or Mantri's cut-off scaled by (c+1)/c for its c live copies.
func (e *engine) observedLevel(task int32) float64 {
	ts := &e.ts[task]
	js := &e.js[e.ps[ts.phase].job]
	if !e.cfg.Speculation.Mantri {
		return js.tau
	}
	n := float64(ts.copies)
	return js.mantriCut * (n + 1) / n
}

// reportLevels are the least and the largest level a task of job j may be
// judged against: t_new for the thesis's rule; for Mantri's, its cut-off
// times (c+1)/c, between the cut-off and twice it; widened by thetaTol
// against rounding.
func (e *engine) reportLevels(j int32) (lo, hi float64) {
	js := &e.js[j]
	lo, hi = js.tau, js.tau
	if e.cfg.Speculation.Mantri {
		lo, hi = js.mantriCut, 2*js.mantriCut
	}
	return lo * (1 - thetaTol), hi * (1 + thetaTol)
}

// nextRise returns the first report k ≥ from of copy c, before its end, at
// which its estimate may lift its task above the rule's level — its
// estimate exceeds lo, and its previous one did not exceed hi (or it had
// none: k = 1) — and its time, or false if there is none. Every report at
// which a task turns into a straggler is one (see the package
// documentation): with one level (lo = hi), those at which the copy's
// estimate rises above it. Reports after maxReports are not made (as
// lastReport counts them). It skips the reports the profile rules out (see
// windows), so it visits O(1) reports — a few at each end of the windows,
// and, for Mantri's band of levels, those whose estimate lies in the band —
// plus, for a heartbeat finer than windows' margins against rounding, the
// reports within them: those whose estimate is within 2^-46·x/p of a level
// at age x and score p, or whose age is within 10⁻⁸ of the level's 10⁻⁴;
// at most maxReports in all (TestRiseCostBounded). It also returns the
// number of reports it visited, passes of its loop, each O(1): the run's
// work (pushRise).
func (e *engine) nextRise(c int32, from, lo, hi float64) (k, at float64, ok bool, visits int) {
	cp := &e.cs[c]
	pr := &e.prof[c]
	above := windows(pr, lo, true)  // reports whose estimate may exceed lo
	inner := windows(pr, hi, false) // reports whose estimate surely exceeds hi
	for k = math.Max(from, 1); ; {
		visits++
		k = above.next(k)
		if k > maxReports {
			return 0, 0, false, visits
		}
		if inner.has(k - 1) {
			// The previous report is surely above hi, and so is every
			// report up to the end of its range: no rise up to one past it.
			k = inner.end(k-1) + 2
			continue
		}
		at = cp.start + k*pr.beat
		if !(at < cp.end) {
			return 0, 0, false, visits
		}
		if e.timeLeft(c, k) > lo && (k == 1 || e.timeLeft(c, k-1) <= hi) {
			return k, at, true, visits
		}
		k++
	}
}

// reportRanges are up to two ranges [lo[i], hi[i]] of report numbers,
// integers, the second starting no earlier than the first (an empty one
// has lo > hi); has and end need them disjoint.
type reportRanges struct{ lo, hi [2]float64 }

// next is the least report number ≥ k in a range, or +∞.
func (r *reportRanges) next(k float64) float64 {
	for i := range 2 {
		if r.lo[i] <= r.hi[i] && k <= r.hi[i] {
			return math.Max(k, r.lo[i])
		}
	}
	return math.Inf(1)
}

// has reports whether a range holds k.
func (r *reportRanges) has(k float64) bool {
	return r.lo[0] <= k && k <= r.hi[0] || r.lo[1] <= k && k <= r.hi[1]
}

// end is the last report number of the range holding k (has(k)).
func (r *reportRanges) end(k float64) float64 {
	if r.lo[0] <= k && k <= r.hi[0] {
		return r.hi[0]
	}
	return r.hi[1]
}

// windows returns the reports of a copy of profile pr at which its
// estimated remaining time may exceed level ≥ 0 (outer), or surely does
// (not outer). timeLeft's estimate at age x with score p, E = x·(1 −
// p)/max(p, 10⁻⁴), is at most F = x·(1 − p)/p and at most 10⁴·x, and
// where the floor binds (p < 10⁻⁴) more than 0.9999·10⁴·x; so E exceeds
// level only where F does and x > 10⁻⁴·level, and surely where F does and
// x > level/(0.9999·10⁴) (a heartbeat below 10⁻⁴ of the level makes early
// reports under the floor, whose estimates rise). F is n − x before the
// slowdown (above level for x < n − level) and, after it, above level
// between the roots of a quadratic (roots).
//
// Against rounding, each bound moves by two reports (a report's age is
// within two heartbeats of k·h; see countReports), outward or inward, and
// 1 − p in F by σ = ±2^-46: p is computed to within 6 units of roundoff
// (ε) of itself, so E to within 9ε·E + 6ε·x ≤ 15ε·x/max(p, 10⁻⁴), which
// is what σ > 15ε adds to the numerator. (Where the level touches F's
// maximum, the roots lose half their digits; the reports there are not
// covered.)
func windows(pr *profile, level float64, outer bool) reportRanges {
	beat := pr.beat
	// first and last are the first and the last report with age ≥ x, ≤ x;
	// level/least the age E must pass.
	first := func(x float64) float64 { return math.Floor(x/beat) - 2 }
	last := func(x float64) float64 { return math.Ceil(x/beat) + 2 }
	sigma, least := 0x1p-46, 1e4
	if !outer {
		first = func(x float64) float64 { return math.Ceil(x/beat) + 2 }
		last = func(x float64) float64 { return math.Floor(x/beat) - 2 }
		sigma, least = -0x1p-46, 0.9999e4
	}
	least *= 1 + sigma
	var r reportRanges
	r.lo[0], r.hi[0] = first(level/least), last(math.Min(pr.slow, pr.nominal*(1+sigma)-level))
	r.lo[1], r.hi[1] = math.Inf(1), math.Inf(-1)
	if x1, x2, ok := pr.roots(level, sigma); ok {
		r.lo[1], r.hi[1] = first(math.Max(math.Max(x1, pr.slow), level/least)), last(x2)
	}
	return r
}

// roots returns the ages x1 ≤ x2 between which x·(1 + σ − p)/p exceeds
// level ≥ 0 after the slowdown (F for σ = 0; windows), or false if it
// exceeds it nowhere (or the copy never slows down, d = s). With p(x) = B +
// ρx (ρ = (1 − U)/(d − s), B = U − ρs ≥ 0 since ρ ≤ 1/n), it does exactly
// where the concave quadratic −ρx² + (1 + σ − B − ρ·level)x − level·B is
// positive: between its roots, both ≥ 0 if any (their product level·B/ρ ≥
// 0; their sum (1 + σ − B − ρ·level)/ρ is positive).
func (pr *profile) roots(level, sigma float64) (x1, x2 float64, ok bool) {
	if !(pr.dur > pr.slow) {
		return 0, 0, false
	}
	rho := (1 - pr.done) / (pr.dur - pr.slow)
	b := pr.done - rho*pr.slow
	a := 1 + sigma - b - rho*level
	disc := a*a - 4*rho*level*b
	if !(disc >= 0 && a > 0) {
		return 0, 0, false
	}
	q := math.Sqrt(disc)
	// The lesser root as 2·level·B/(a + q): (a − q)/(2ρ) would lose its
	// digits when 4ρ·level·B ≪ a².
	return 2 * level * b / (a + q), (a + q) / (2 * rho), true
}
