package overlap

import "github.com/specsched/specsched/internal/check"

// Simulate runs the overlapping tandem queue (§2.1) under policy, with both
// stations of speed speed, on the jobs arriving as listed, and returns each
// job's response time (departure minus arrival) in dst[i] for jobs[i].
//
// The simulation is exact for the fluid model: between two events every
// rate is constant, and the events (an arrival, a map completion, a job's
// available shuffle work reaching zero, a departure) are found in closed
// form; rates are those of Rates for the jobs present. Priority changes
// need no events of their own: under every policy here a served job can
// only overtake, in its class's order, jobs that are not served, which
// changes no rate (see the engine's comment; tests check it).
//
// jobs must be sorted by arrival time; jobs arriving at the same time are
// admitted in index order, which is also the order of their ties. The
// state is the jobs present, kept in reused slots, so memory is O(jobs
// present at once) beyond the input and dst. Time: O(log n) per event for
// the priority policies (at most two jobs of a class are served at once;
// heaps give the next ones), O(k log k + log n) per event for k-LPS (the
// jobs in map service are updated one by one; jobs whose map is done share
// the shuffle station through one virtual clock; when a job enters that
// set with shuffle work below 2^-20 of the clock, the clock is rebased, at
// O(jobs in the set), so that the job's work is not rounded away). A run
// has about 2.4 events per job on the §5.3 workload.
//
// Time is kept relative to the latest arrival, with compensated sums of the
// event intervals (and k-LPS's virtual clock is rebased before it would
// absorb a job's work), so a job far smaller than the ulp of its arrival
// time still gets its own response time: arrival 1e-150 and map work 1e-300
// give 1e-300. The rates are formed as in Rates, without intermediate
// overflow, so jobs whose sizes are 1e600 apart run exactly.
//
// Special cases: no jobs gives an empty result; a job with both sizes zero
// has response time 0; a job with Map = 0 only shuffles (all of its work is
// available at once); a job with Shuffle = 0 leaves when its map is done.
// speed must be in (0, 1e300]; a positive size must be at least
// speed·2^-1022 (its service time alone is then a normal float64, and every
// interval the simulator forms is positive); and the arrival times plus the
// total work divided by speed must stay below 1e300 (so every time the
// simulator forms is finite); under SplitSRPT and SplitSRPTStrict a job's
// imbalance max(Map/Shuffle, Shuffle/Map), both positive, must be at most
// 2^1000 ≈ 1.07e301 (so that its share μ₁ = 1/(1+β) is a normal float64;
// field "shuffle"). Inputs outside these bounds are an
// *specsched.InputError naming the job and field. dst must not overlap jobs
// (an *specsched.InputError with Field "dst"; nothing is written).
func Simulate(dst []float64, jobs []Arrival, speed float64, policy Discipline, ws *Workspace) ([]float64, error) {
	const fn = "overlap.Simulate"
	// The same checks open Rates, inline: one shared call cost Rates 4% at n = 10.
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	if err := validateSpeed(fn, speed, false); err != nil {
		return nil, err
	}
	if err := policy.validate(fn); err != nil {
		return nil, err
	}
	if err := validateArrivals(fn, jobs, speed); err != nil {
		return nil, err
	}
	if policy.Algorithm == SplitSRPT || policy.Algorithm == SplitSRPTStrict {
		if err := validateImbalance(fn, jobs); err != nil {
			return nil, err
		}
	}
	if ws == nil {
		ws = new(Workspace)
	}
	n := len(jobs)
	out := dst
	if cap(out) < n {
		out = make([]float64, n)
	}
	out = out[:n]
	if err := simulate(out, jobs, speed, policy, ws, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// simulate runs the engine of policy to the end, with an optional observer
// (tests).
func simulate(out []float64, jobs []Arrival, speed float64, policy Discipline, ws *Workspace, obs simObserver) error {
	_, err := simulateUntil(out, jobs, speed, policy, ws, obs, inf)
	return err
}

// simulateUntil runs the engine of policy until every job has left or until
// time until, and returns its table of the jobs then present.
func simulateUntil(out []float64, jobs []Arrival, speed float64, policy Discipline, ws *Workspace, obs simObserver, until float64) (*jobTable, error) {
	if policy.Algorithm == KLPS {
		e := &ws.lps
		e.reset(jobs, speed, policy.k(), out)
		e.obs = obs
		defer e.detach()
		return &e.tab, e.run(until)
	}
	e := &ws.prio
	e.reset(jobs, speed, policy.Algorithm, out)
	e.obs = obs
	defer e.detach()
	return &e.tab, e.run(until)
}
