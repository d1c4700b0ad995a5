package overlap

import (
	"errors"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// example21 is the three-job example of §2.1: J1, J2, J3 with sizes (1, 2),
// (3, 1) and (2, 2), all present at time 0.
var example21 = []Arrival{{Time: 0, Map: 1, Shuffle: 2}, {Time: 0, Map: 3, Shuffle: 1}, {Time: 0, Map: 2, Shuffle: 2}}

// TestExample21 checks the simulator against the §2.1 example and against
// the same three jobs under each policy, every completion time derived by
// hand from the model (constraint (1)) below — not from the simulator.
func TestExample21(t *testing.T) {
	t.Parallel()
	cases := []struct {
		policy Discipline
		want   []float64 // response times = completion times (all arrive at 0)
	}{
		// FIFO: both stations in the order J1, J2, J3 — the paper's example.
		// [0,1]: map serves J1 at 1; J1 makes shuffle work at 2 per unit and
		// the shuffle station takes 1 of it, so J1's buffer grows at 1. t=1:
		// J1's map is done, 1 shuffle unit done, 1 left (all available).
		// [1,2]: shuffle finishes J1 at rate 1 → J1 completes at t = 2.
		// Map serves J2 from t=1 at 1, making shuffle work at 1/3 per unit;
		// at t=2 J2 has 1/3 available. [2,2.5]: shuffle serves J2 at 1,
		// the buffer falls at 1 − 1/3 = 2/3 → empty at t = 2.5 (J2 has 1.5
		// map and 0.5 shuffle done, as the paper says). [2.5,4]: J2's
		// shuffle runs at 1/3, finishing with its map at t = 1 + 3 = 4
		// (paper: J2 finishes at 4). J3's map runs [4,6]; its ratio is 1 so
		// its shuffle keeps pace at 1 and it completes at t = 6 (paper).
		{Discipline{Algorithm: FIFO}, []float64{2, 4, 6}},
		// MaxSRPT (keys max(x,y): J1 2, J2 3, J3 2; J1 before J3 by index).
		// [0,1]: J1 as above (map 1, shuffle 1). t=1: J1 has 1 shuffle left,
		// key 1; the map goes to J3 (key 2 < 3). [1,2]: shuffle finishes J1
		// (first in order, available) → J1 at t = 2; J3's map makes shuffle
		// work at 1 which waits. t=2: J3 has x=1, y=2 (1 available), key 2.
		// [2,3]: J3 gets map 1 and shuffle 1; its buffer stays at 1. t=3:
		// J3's map is done, 1 shuffle left; J2's map starts. [3,4]: shuffle
		// finishes J3 (key 1 < J2's 3) → J3 at t = 4; J2 makes 1/3 per
		// unit: 1/3 available at t=4. [4,4.5]: J2's shuffle at 1 drains the
		// buffer at 2/3 → empty at 4.5; then at 1/3 until its map ends at
		// t = 3 + 3 = 6 → J2 at 6.
		{Discipline{Algorithm: MaxSRPT}, []float64{2, 6, 4}},
		// MaxSRPTStrict: the same path — the shuffle job is always the first
		// job with shuffle work, and nothing else could use spare capacity
		// (it arises only while J2 or J1 is limited and no job has
		// available work).
		{Discipline{Algorithm: MaxSRPTStrict}, []float64{2, 6, 4}},
		// SplitSRPTStrict. β = min(2, 3, 1) = 1: μ₁ = μ₂ = 1/2. Map-heavy
		// class {J2 (3,1), J3 (2,2)} by x(t): J3 first; shuffle-heavy {J1}.
		// [0,2]: J3 gets map 1/2 and shuffle 1/2 (ratio 1: limit 1/2, kept
		// pace); J1 gets map 1/2, shuffle 1/2 (limit 2·1/2 = 1 > 1/2, its
		// buffer grows at 1/2). t=2: J1's map is done, 1 shuffle left; J3
		// has 1 and 1 left. [2,4]: J1 shuffles at 1/2 → done at 4; J3 goes
		// on at 1/2 → done at 4; the shuffle-heavy map share is idle.
		// t=4: only J2: β = 3, μ₁ = 1/4, μ₂ = 3/4; J2's map at 3/4 (shuffle
		// at (1/3)(3/4) = 1/4 = μ₁, keeping pace) takes 3/(3/4) = 4 → J2 at 8.
		{Discipline{Algorithm: SplitSRPTStrict}, []float64{4, 8, 4}},
		// SplitSRPT (shared capacity). [0,2] as above (no class has
		// capacity to spare: J3 uses its 1/2 shuffle, J1 its 1/2). t=2:
		// J1 has no map work, so its class's map share goes to J3: map 1,
		// shuffle 1/2 (limit 1, capped by its class's 1/2; J1 uses the
		// other 1/2). [2,3]: J3's map is done at 3 with 1/2 shuffle left
		// (available); J1 has 1/2 left. t=3: map-heavy order by x(t): J3
		// (x=0) before J2 (x=3): J3 shuffles at 1/2, J2 gets the whole map
		// station (1) and builds a buffer at 1/3. [3,4]: J1 and J3 both
		// finish at t = 4. t=4: β = 3; J2 alone: map 1, shuffle 1/4 of its
		// own plus the idle 3/4 → 1: its buffer (1/3) drains at 2/3 → empty
		// at 4.5; then shuffle at 1/3 until its map (2 left at t=4) ends at
		// t = 6 → J2 at 6.
		{Discipline{Algorithm: SplitSRPT}, []float64{4, 6, 4}},
		// k-LPS (k ≥ 3). [0,3]: map 1/3 each; shuffle limits (y/x)/3: J1
		// 2/3, J2 1/9, J3 1/3. Water-fill: 1/9 and 1/3 fit, J1 gets the
		// remaining 5/9 < 2/3, so J1's buffer grows at 1/9. t=3: J1's map is
		// done; J1 has 3·5/9 = 5/3 shuffle done, 1/3 left; J2 has x=2,
		// y=2/3; J3 has x=1, y=1. [3,3.8]: map 1/2 each for J2, J3; limits
		// J2 1/6, J3 1/2, J1 unlimited: 1/6 fits, level (5/6)/2 = 5/12 for
		// J1 and J3 (5/12 < 1/2: J3's buffer grows at 1/12). J1's 1/3 at
		// 5/12 → J1 completes at 3 + 4/5 = 3.8. Then J3 has x=0.6, 1/15
		// available; J2 x=1.6, y=8/15. [3.8,4]: J2 at its limit 1/6, J3
		// unlimited gets 5/6: its buffer drains at 5/6 − 1/2 = 1/3 → empty at
		// 3.8 + (1/15)/(1/3) = 4. [4,5]: both limited (1/6 + 1/2 ≤ 1); J3's
		// map (0.5 left at 1/2) ends at 5 → J3 at 5. [5,6]: J2 alone, map 1,
		// 1 left → J2 at 6.
		{Discipline{Algorithm: KLPS}, []float64{3.8, 6, 5}},
		// 1-LPS is FIFO at the map; the shuffle station is PS over the
		// jobs with shuffle work: [0,1]: J1 (map 1, limit 2) alone → 1.
		// t=1: J1 has 1 left (available); J2's map at 1, limit 1/3: level
		// 1 − 1/3 = 2/3 for J1 → J1 done at 1 + 3/2 = 2.5. J2 limited at 1/3
		// until its map ends at 4 → J2 at 4; J3 [4,6] → 6.
		{Discipline{Algorithm: KLPS, K: 1}, []float64{2.5, 4, 6}},
	}
	for _, c := range cases {
		got, err := Simulate(nil, example21, 1, c.policy, nil)
		if err != nil {
			t.Fatalf("%v: %v", c.policy, err)
		}
		for i := range got {
			if !near(got[i], c.want[i], 10) {
				t.Errorf("%v: J%d completes at %v, want %v (all: %v)", c.policy, i+1, got[i], c.want[i], got)
			}
		}
	}
}

// TestExample21Buffer checks the intermediate state the paper states for
// FIFO: the shuffle buffer drains at t = 2.5, when J2 has done 1.5 units of
// map work and 0.5 of shuffle work.
func TestExample21Buffer(t *testing.T) {
	t.Parallel()
	var ws Workspace
	e := &ws.prio
	out := make([]float64, 3)
	e.reset(example21, 1, FIFO, out)
	if err := e.run(2.5); err != nil {
		t.Fatal(err)
	}
	for _, v := range e.snapshot(nil) {
		if v.id != 1 {
			continue
		}
		if !near(v.job.RemainingMap, 1.5, 1) || !near(v.job.RemainingShuffle, 0.5, 1) || v.avail != 0 {
			t.Errorf("J2 at t=2.5: %+v avail %v; want 1.5 map and 0.5 shuffle left, none available", v.job, v.avail)
		}
		if !near(v.rate.Shuffle, 1.0/3, 1) {
			t.Errorf("J2's shuffle rate after 2.5 = %v, want 1/3", v.rate.Shuffle)
		}
	}
}

// pathChecker observes a simulation and checks, interval by interval, what
// the fluid model requires, from its own bookkeeping of the work done (the
// integral of the rates), independent of the engine's state.
type pathChecker struct {
	t        *rapid.T
	policy   Discipline
	speed    float64
	jobs     []Arrival
	mapDone  []float64 // ∫ map rate, per job
	shufDone []float64 // ∫ shuffle rate, per job
	lastEnd  []float64 // end of the last interval the job was present in
	seen     []bool
	ws       Workspace
	rates    []Rate
}

func newPathChecker(t *rapid.T, jobs []Arrival, speed float64, p Discipline) *pathChecker {
	n := len(jobs)
	return &pathChecker{t: t, policy: p, speed: speed, jobs: jobs,
		mapDone: make([]float64, n), shufDone: make([]float64, n), lastEnd: make([]float64, n), seen: make([]bool, n)}
}

func (c *pathChecker) interval(now, tau float64, view []simView) {
	t := c.t
	// Rates breaks ties by snapshot index; the engine by input index.
	sort.Slice(view, func(a, b int) bool { return view[a].id < view[b].id })
	snap := make([]Job, len(view))
	anyMap := false
	sumMap := 0.0
	for k, v := range view {
		a := c.jobs[v.id]
		// The engine's state equals sizes minus the integrated rates.
		if !near(v.job.RemainingMap, a.Map-c.mapDone[v.id], a.Map) || !near(v.job.RemainingShuffle, a.Shuffle-c.shufDone[v.id], a.Shuffle) {
			t.Fatalf("t=%v job %d: engine state (%v, %v), integrated rates give (%v, %v)", now, v.id,
				v.job.RemainingMap, v.job.RemainingShuffle, a.Map-c.mapDone[v.id], a.Shuffle-c.shufDone[v.id])
		}
		// Its available shuffle work, in the caller's units, is what its
		// remaining sizes leave by constraint (1).
		if !near(v.avail, v.job.Available(), a.Shuffle) {
			t.Fatalf("t=%v job %d: available %v, its remaining sizes %+v leave %v", now, v.id, v.avail, v.job, v.job.Available())
		}
		if v.job.Arrival != a.Time || now < a.Time {
			t.Fatalf("t=%v job %d present before its arrival %v", now, v.id, a.Time)
		}
		snap[k] = v.job
		anyMap = anyMap || v.job.RemainingMap > 0
		sumMap += v.rate.Map
	}
	// Map station never idle while map work exists (all but the strict split).
	if c.policy.Algorithm != SplitSRPTStrict && anyMap && !near(sumMap, c.speed, c.speed) {
		t.Fatalf("t=%v: map station serves %v < speed %v with map work present", now, sumMap, c.speed)
	}
	// The engine's rates are those of Rates on the snapshot, at the start of
	// the interval and halfway through it (so no priority change is missed),
	// both in the engine's units: there its keys are what it ranks by, which
	// the products by the speed could round into ties or apart.
	eng := make([]Job, len(view))
	for k, v := range view {
		eng[k] = v.eng.job
	}
	c.compare(now, view, eng, 0)
	if tau > 0 {
		mid := make([]Job, len(eng))
		for k, v := range view {
			mid[k] = v.eng.job
			mid[k].RemainingMap = math.Max(v.eng.job.RemainingMap-v.eng.rate.Map*tau/2, 0)
			mid[k].RemainingShuffle = math.Max(v.eng.job.RemainingShuffle-v.eng.rate.Shuffle*tau/2, 0)
		}
		c.compare(now+tau/2, view, mid, tau/2)
	}
	for _, v := range view {
		c.mapDone[v.id] += v.rate.Map * tau
		c.shufDone[v.id] += v.rate.Shuffle * tau
		c.lastEnd[v.id] = now + tau
		c.seen[v.id] = true
		a := c.jobs[v.id]
		// Constraint (1) along the path: shuffle fraction ≤ map fraction.
		if a.Map > 0 && a.Shuffle > 0 && c.shufDone[v.id]/a.Shuffle > c.mapDone[v.id]/a.Map+relTol {
			t.Fatalf("t=%v job %d: shuffle done %v/%v ahead of map done %v/%v: violates (1)", now+tau, v.id,
				c.shufDone[v.id], a.Shuffle, c.mapDone[v.id], a.Map)
		}
	}
}

// compare checks the engine's rates against Rates on snap, in the engine's
// units (speed 1), unless some job sits within the tolerance band of "no
// available work" (where the two may legitimately classify it differently)
// or two keys are within rounding of each other at a mid-interval point.
func (c *pathChecker) compare(at float64, view []simView, snap []Job, dt float64) {
	for k, v := range view {
		a := snap[k].Available()
		raw := snap[k].RemainingShuffle
		if snap[k].Map > 0 {
			raw -= snap[k].Shuffle * (snap[k].RemainingMap / snap[k].Map)
		}
		r := v.eng.rate
		if (a == 0) != (v.eng.avail+r.Map*snap[k].Shuffle/math.Max(snap[k].Map, 1e-300)*dt-r.Shuffle*dt <= 0) && math.Abs(raw) < 4*availTol*snap[k].Shuffle {
			return // ambiguous band of (1)
		}
	}
	var err error
	c.rates, err = Rates(c.rates, snap, 1, c.policy, &c.ws)
	if err != nil {
		c.t.Fatalf("t=%v: Rates on the engine's snapshot: %v", at, err)
	}
	for k, v := range view {
		if !near(c.rates[k].Map, v.eng.rate.Map, 1) || !near(c.rates[k].Shuffle, v.eng.rate.Shuffle, 1) {
			if dt > 0 && keysTied(snap, c.policy) {
				return
			}
			c.t.Fatalf("t=%v (%v): job %d %+v: engine rate %+v, Rates gives %+v (the engine's units: speed %v)\nsnapshot %+v\nengine %+v\nRates %+v",
				at, c.policy, v.id, snap[k], v.eng.rate, c.rates[k], c.speed, snap, view, c.rates)
		}
	}
}

// keysTied reports two jobs of snap whose policy keys are within 1e-9.
func keysTied(snap []Job, p Discipline) bool {
	key := func(j Job) float64 {
		switch p.Algorithm {
		case MaxSRPT, MaxSRPTStrict:
			return math.Max(j.RemainingMap, j.RemainingShuffle)
		case SplitSRPT, SplitSRPTStrict:
			if j.Map >= j.Shuffle {
				return j.RemainingMap
			}
			return j.RemainingShuffle
		}
		return j.Arrival
	}
	for a := range snap {
		for b := a + 1; b < len(snap); b++ {
			if math.Abs(key(snap[a])-key(snap[b])) < 1e-9 && key(snap[a]) != key(snap[b]) {
				return true
			}
		}
	}
	return false
}

// finish checks each job's total service and departure time.
func (c *pathChecker) finish(resp []float64) {
	t := c.t
	for i, a := range c.jobs {
		if !near(c.mapDone[i], a.Map, a.Map) || !near(c.shufDone[i], a.Shuffle, a.Shuffle) {
			t.Fatalf("job %d (%+v) left after map %v and shuffle %v of service", i, a, c.mapDone[i], c.shufDone[i])
		}
		want := 0.0
		if c.seen[i] {
			want = c.lastEnd[i] - a.Time
		}
		if !near(resp[i], want, c.lastEnd[i]) {
			t.Fatalf("job %d: response time %v, but it was present until %v (arrived %v)", i, resp[i], c.lastEnd[i], a.Time)
		}
	}
}

// testSimulatePath runs every policy on random instances under the path
// checker: engine state = sizes − ∫rates; engine rates = Rates(snapshot)
// at each event and mid-interval; the map station works whenever it can
// (all policies but SplitSRPTStrict); (1) holds along the path; every job
// receives exactly its map and shuffle sizes of service (total work done
// equals work arrived) and leaves when, and only when, both are done.
func testSimulatePath(t *rapid.T) {
	jobs := genArrivals(t, 9)
	speed := rapid.OneOf(rapid.Just(1.0), rapid.Float64Range(0.5, 2)).Draw(t, "speed")
	p := genPolicy(t)
	c := newPathChecker(t, jobs, speed, p)
	var ws Workspace
	resp := make([]float64, len(jobs))
	if err := simulate(resp, jobs, speed, p, &ws, c); err != nil {
		t.Fatalf("simulate: %v", err)
	}
	c.finish(resp)
}

func TestSimulatePath(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulatePath)
}

// testSimulatePure: inputs unmodified, deterministic, dst reused.
func testSimulatePure(t *rapid.T) {
	jobs := genArrivals(t, 12)
	p := genPolicy(t)
	before := slices.Clone(jobs)
	var ws Workspace
	first, err := Simulate(nil, jobs, 1, p, &ws)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Fatalf("input modified (-before +after):\n%s", diff)
	}
	dst := make([]float64, len(jobs), len(jobs)+2)
	second, err := Simulate(dst, jobs, 1, p, &ws)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if len(jobs) > 0 && &second[0] != &dst[0] {
		t.Fatalf("dst not reused")
	}
	for i := range first {
		if math.Float64bits(first[i]) != math.Float64bits(second[i]) {
			t.Fatalf("not deterministic: job %d %v then %v", i, first[i], second[i])
		}
	}
}

func TestSimulatePure(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulatePure)
}

// testSimulateNoPanic: corrupted inputs give an *InputError (dst untouched)
// or finite, non-negative response times.
func testSimulateNoPanic(t *rapid.T) {
	jobs := genArrivals(t, 6)
	speed := 1.0
	p := genPolicy(t)
	switch rapid.IntRange(0, 4).Draw(t, "corrupt") {
	case 0:
		if len(jobs) > 0 {
			i := rapid.IntRange(0, len(jobs)-1).Draw(t, "victim")
			v := badFloat(t, "value")
			switch rapid.IntRange(0, 2).Draw(t, "field") {
			case 0:
				jobs[i].Time = v
			case 1:
				jobs[i].Map = v
			case 2:
				jobs[i].Shuffle = v
			}
		}
	case 1:
		speed = rapid.SampledFrom([]float64{0, -1, math.NaN(), math.Inf(1), 1e-300, 1e300}).Draw(t, "speed")
	case 2:
		p.Algorithm = Algorithm(rapid.IntRange(-3, 10).Draw(t, "badKind"))
		p.K = rapid.IntRange(-5, 5).Draw(t, "badK")
	case 3:
		if len(jobs) > 1 {
			jobs[0].Time = jobs[len(jobs)-1].Time + 1 // unsorted
		}
	}
	dst := []float64{42}
	got, err := Simulate(dst, jobs, speed, p, nil)
	if err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) || got != nil || dst[0] != 42 {
			t.Fatalf("error %v: want an *InputError, nil result, dst untouched (%v)", err, dst)
		}
		return
	}
	for i, r := range got {
		if !finite(r) || r < 0 {
			t.Fatalf("job %d: response time %v", i, r)
		}
	}
}

func TestSimulateNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulateNoPanic)
}

func FuzzSimulate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSimulateNoPanic)) }

// TestSimulateErrors: invalid inputs name the job and the field.
func TestSimulateErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		jobs  []Arrival
		speed float64
		field string
		index int
	}{
		{"unsorted", []Arrival{{Time: 2, Map: 1}, {Time: 1, Map: 1}}, 1, "Time", 1},
		{"nan time", []Arrival{{Time: math.NaN(), Map: 1}}, 1, "Time", 0},
		{"negative map", []Arrival{{Map: 1}, {Map: -1}}, 1, "Map", 1},
		{"inf shuffle", []Arrival{{Shuffle: math.Inf(1)}}, 1, "Shuffle", 0},
		{"zero speed", []Arrival{{Map: 1}}, 0, "speed", -1},
		{"overflowing work", []Arrival{{Map: 1e300}}, 1e-10, "total work", -1},
	}
	for _, c := range cases {
		_, err := Simulate(nil, c.jobs, c.speed, Discipline{}, nil)
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != c.field || in.Index != c.index {
			t.Errorf("%s: got %v, want an InputError on %q index %d", c.name, err, c.field, c.index)
		}
	}
	if _, err := Simulate(nil, nil, 1, Discipline{K: -1, Algorithm: KLPS}, nil); err == nil {
		t.Error("k = -1: want an error")
	}
}

// TestSimulateMemory: the simulators keep one slot per job present, so
// their tables never grow past the most jobs present at once, however many
// jobs have gone (here 20 000 jobs in bursts separated by idle periods).
func TestSimulateMemory(t *testing.T) {
	t.Parallel()
	var jobs []Arrival
	for burst := 0; burst < 2000; burst++ {
		for k := 0; k < 10; k++ {
			jobs = append(jobs, Arrival{Time: float64(burst) * 1000, Map: float64(k%3 + 1), Shuffle: float64(k%4 + 1)})
		}
	}
	for _, kind := range allAlgorithms {
		var ws Workspace
		resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: kind}, &ws)
		if err != nil {
			t.Fatal(err)
		}
		peak := peakPresent(jobs, resp)
		slots := len(ws.prio.tab.jobs)
		if kind == KLPS {
			slots = len(ws.lps.tab.jobs)
		}
		if peak != 10 || slots > peak {
			t.Errorf("%v: %d slots for at most %d jobs present at once (want 10)", kind, slots, peak)
		}
	}
}

// peakPresent is the most jobs present at once, from arrival and response
// times (departures before arrivals at equal times).
func peakPresent(jobs []Arrival, resp []float64) int {
	type ev struct {
		at    float64
		delta int
	}
	var evs []ev
	for i, a := range jobs {
		if resp[i] > 0 {
			evs = append(evs, ev{a.Time, 1}, ev{a.Time + resp[i], -1})
		}
	}
	sort.Slice(evs, func(a, b int) bool {
		if evs[a].at != evs[b].at {
			return evs[a].at < evs[b].at
		}
		return evs[a].delta < evs[b].delta
	})
	cur, peak := 0, 0
	for _, e := range evs {
		cur += e.delta
		peak = max(peak, cur)
	}
	return peak
}

// TestSimulateZeroSizes: zero-size phases are handled without division.
func TestSimulateZeroSizes(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 0, Shuffle: 0}, {Time: 0, Map: 0, Shuffle: 2}, {Time: 0, Map: 3, Shuffle: 0}, {Time: 10, Map: 0, Shuffle: 0}}
	for _, kind := range allAlgorithms {
		got, err := Simulate(nil, jobs, 2, Discipline{Algorithm: kind}, nil)
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		// Speed 2: the shuffle-only job needs 1, the map-only job 1.5 —
		// they use different stations, so (except for SplitSRPTStrict's
		// shares: β = ∞, μ₁ = 0, μ₂ = 1, still all of each station) both
		// finish in their stand-alone time.
		want := []float64{0, 1, 1.5, 0}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: (-want +got)\n%s", kind, diff)
		}
	}
}

// TestKLPSQueueOrder: a regression found by TestSimulatePath. With k = 1, a
// job arriving just as the map station frees up must queue behind the job
// already waiting. J0 (1, 0) is served on [0, 1] while J1 (1, 1) waits; at
// t = 1 J1 starts (its shuffle keeps pace at 1) and J2 (1, 1), arriving
// then, waits: J1 completes at 2 and J2 at 3. Responses 1, 2, 2.
func TestKLPSQueueOrder(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 1}, {Time: 0, Map: 1, Shuffle: 1}, {Time: 1, Map: 1, Shuffle: 1}}
	got, err := Simulate(nil, jobs, 1, Discipline{Algorithm: KLPS, K: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{1, 2, 2}, got); diff != "" {
		t.Errorf("1-LPS (-want +got):\n%s", diff)
	}
}

// TestSimultaneousEvents: events due at the same instant (up to rounding)
// are handled together, so the number of events is the number of distinct
// event times. Identical jobs under k-LPS finish their maps at the same
// instant (one event), then their shuffles (one more; and the loop's
// closing check: 3), whatever rounding 0.3/(speed/n) leaves.
func TestSimultaneousEvents(t *testing.T) {
	t.Parallel()
	for _, speed := range []float64{0.7, 1, 1.3, 0.1} {
		for n := 2; n <= 7; n++ {
			jobs := make([]Arrival, n)
			for i := range jobs {
				jobs[i] = Arrival{Map: 0.3, Shuffle: 0.1 * float64(n)}
			}
			var ws Workspace
			if _, err := Simulate(nil, jobs, speed, Discipline{Algorithm: KLPS}, &ws); err != nil {
				t.Fatal(err)
			}
			// Map rate speed/n each; shuffle limit (n/3)·speed/n = speed/3
			// each, n·speed/3 ≥ speed for n ≥ 3: all maps end together at
			// 0.3n/speed and the shuffles then share the station equally.
			want := 3
			if n < 3 {
				want = 2 // shuffles keep pace with the maps and end with them
			}
			if ws.lps.events > want {
				t.Errorf("speed %v, %d identical jobs: %d events, want %d", speed, n, ws.lps.events, want)
			}
		}
	}
	// MaxSRPT, J0 = (3c, c) and J1 = (0, 2c) at time 0, speed 1: J1 (key
	// 2c < 3c) takes the shuffle station until 2c while J0's map builds
	// (1/3)·2c of available shuffle work; then J0 shuffles at 1 against 1/3
	// made per unit, so its buffer runs out after (2c/3)/(2/3) = c, at 3c,
	// exactly when its map (c left) ends: two event times (and the loop's
	// closing check: 3 events), whatever the rounding of 1/3.
	for _, c := range []float64{0.1, 0.3, 0.7, 1.1, 3.3, 1e-3, 7, 13} {
		var ws Workspace
		resp, err := Simulate(nil, []Arrival{{Map: 3 * c, Shuffle: c}, {Shuffle: 2 * c}}, 1, Discipline{Algorithm: MaxSRPT}, &ws)
		if err != nil {
			t.Fatal(err)
		}
		if ws.prio.events > 3 || !near(resp[0], 3*c, c) || !near(resp[1], 2*c, c) {
			t.Errorf("c = %v: responses %v in %d events, want [3c 2c] in 3", c, resp, ws.prio.events)
		}
	}
}
