package overlap

import "math"

// A simJob is a job present in a simulation. Its state is the remaining map
// work xr and the available shuffle work avail; the remaining shuffle work
// is avail + y·(xr/x), so constraint (1), y(t) ≥ (y/x)·x(t), holds by
// construction while avail ≥ 0. g is the rate at which its map rate p
// produces shuffle work, y·p/x (scaledRate: formed without leaving float64's
// range however far apart x and y are), so a rate-limited job (avail = 0
// served at exactly q = g) keeps avail exactly zero in floating point.
type simJob struct {
	id      int // input index; -1 for a free slot
	arrival float64
	x, y    float64
	ratio   float64 // y/x where it is a normal float ≤ 2^1000, else 0 (setMap's fast path)
	xr      float64 // remaining map work
	avail   float64 // available shuffle work
	yd      float64 // shuffle work done (for yr and avail at the map's end)
	p, q    float64 // current map and shuffle rates
	pX      xfloat  // p exactly (a SplitSRPT map rate μ₁·s may be below 2^-1074)
	g       float64 // y·p/x: shuffle work produced per unit time (+Inf if above MaxFloat64)
	class   int8
}

// yr is the remaining shuffle work. While the map runs it is y − yd, not
// avail + (y/x)·xr: that sum carries the rounding of every interval's
// produced work, so a job that has had no shuffle service would sit an ulp
// off y and break its key ties with jobs of equal key the other way than
// Rates, which reads the sizes from the snapshot (a job of map 1, shuffle
// 3 whose map ran while others were shuffled came out at 3 − ulp and
// overtook an earlier job of shuffle 3). It is at least avail, which the
// rounding of yd could otherwise cross when xr is tiny. After the map,
// avail is the remaining shuffle work (completeMap sets it to y − yd).
func (j *simJob) yr() float64 {
	if j.xr == 0 {
		return min(j.avail, j.y)
	}
	return max(j.y-j.yd, j.avail)
}

// completeMap ends the job's map: all of y has been produced, so the
// available shuffle work is y − yd, exactly y if none was served (a
// residue within snapTol of zero is a simultaneous departure's rounding).
func (j *simJob) completeMap() {
	j.xr = 0
	j.avail = j.y - j.yd
	if j.avail <= snapTol*j.y {
		j.avail = 0
	}
}

// drift is d(avail)/dt at the current rates (+Inf when g is).
func (j *simJob) drift() float64 { return j.g - j.q }

// advance moves the job's state forward by tau at its current rates,
// setting to zero a decreasing quantity within snapTol of zero.
func (j *simJob) advance(tau float64) {
	xr := j.xr
	if j.pX.m > 0 {
		j.xr -= j.mapWork(tau)
	}
	j.yd += j.q * tau
	switch d := j.drift(); {
	case d == 0:
	case d <= math.MaxFloat64:
		// |d|·tau is at most the shuffle work produced or done in tau
		// (tau ≤ xr/p when p > 0), so it is finite.
		j.avail += d * tau
		if d < 0 && j.avail <= snapTol*j.y {
			j.avail = 0
		}
	default:
		// g overflowed: y·(map work done)/x, with (xr − x(t))/x ≤ 1,
		// is the shuffle work produced.
		j.avail += j.y*((xr-j.xr)/j.x) - j.q*tau
	}
	if j.pX.m > 0 && j.xr <= snapTol*j.x {
		j.completeMap()
	}
}

// nextEvent returns the time until the job's next event at its current
// rates, and whether that event is its map completion (else its available
// shuffle work running out, which is its departure when xr = 0).
func (j *simJob) nextEvent() (tau float64, mapDone bool) {
	tau = math.Inf(1)
	if j.pX.m > 0 {
		tau, mapDone = j.mapTime(), true
	}
	if d := j.drift(); d < 0 && j.avail > 0 {
		if t := j.avail / -d; t < tau {
			tau, mapDone = t, false
		}
	}
	return tau, mapDone
}

// setMap sets the map rate to p = pX (exact; pf is its rounding) and the
// rate g = y·p/x at which it produces shuffle work.
func (j *simJob) setMap(pX xfloat, pf float64) {
	j.pX = pX
	j.p = pf
	j.g = 0
	switch {
	case j.y == 0 || pX.m == 0:
	case j.ratio > 0 && pf >= minNormal:
		// Both factors normal, ratio ≤ 2^1000 and pf ≤ 1: the product is
		// finite, and normal unless it underflows.
		if g := j.ratio * pf; g >= minNormal {
			j.g = g
			return
		}
		fallthrough
	default:
		j.g = scaledRate(j.y, j.x, pX, pf)
	}
}

// mapWork returns the map work done in tau at the map rate.
func (j *simJob) mapWork(tau float64) float64 {
	if j.p >= minNormal {
		return j.p * tau
	}
	return j.pX.mul(xf(tau)).float()
}

// mapTime returns the time until the map completes at the map rate.
func (j *simJob) mapTime() float64 {
	if j.p >= minNormal {
		return j.xr / j.p
	}
	return xf(j.xr).div(j.pX).float()
}

func (j *simJob) done() bool { return j.xr == 0 && j.avail == 0 }

// A jobTable stores the jobs present in slots that are reused after a job
// leaves, so its size is the largest number of jobs present at once.
//
// Sizes are stored in units of the station speed (x/speed: the time to
// serve them at full speed) and the engines run at speed 1, so every rate
// is a fraction of the station in [0, 1]: a rate is then never rounded to a
// subnormal merely because the speed is small (speed 5e-324 with sizes
// 1.5e-323 and 2e-323 would give a shuffle limit (y/x)·p of 4/3 of the
// smallest subnormal, rounded to 1, and a job finishing at 3 instead of 4).
type jobTable struct {
	jobs []simJob
	free []int32
	live int
	unit float64 // the station speed: sizes are divided by it, rates multiplied
}

func (t *jobTable) reset(speed float64) {
	t.jobs = t.jobs[:0]
	t.free = t.free[:0]
	t.live = 0
	t.unit = speed
}

// add stores the job id arriving with sizes a and returns its slot.
func (t *jobTable) add(id int, a *Arrival) int32 {
	var s int32
	if n := len(t.free); n > 0 {
		s = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		t.jobs = append(t.jobs, simJob{})
		s = int32(len(t.jobs) - 1)
	}
	j := &t.jobs[s]
	x, y := a.Map/t.unit, a.Shuffle/t.unit
	*j = simJob{id: id, arrival: a.Time, x: x, y: y, xr: x}
	if x == 0 {
		j.avail = y
	} else if r := y / x; r >= minNormal && r <= maxRatio {
		j.ratio = r
	}
	t.live++
	return s
}

func (t *jobTable) release(s int32) {
	t.jobs[s].id = -1
	t.free = append(t.free, s)
	t.live--
}

// view returns the job as tests see it: in the caller's units (sizes and
// rates times unit) and in the engine's own.
func (j *simJob) view(unit float64) simView {
	eng := simState{avail: j.avail, rate: Rate{Map: j.p, Shuffle: j.q},
		job: Job{Arrival: j.arrival, Map: j.x, Shuffle: j.y, RemainingMap: j.xr, RemainingShuffle: j.yr()}}
	return simView{id: j.id, eng: eng, avail: j.avail * unit, rate: Rate{Map: j.p * unit, Shuffle: j.q * unit},
		job: Job{Arrival: j.arrival, Map: j.x * unit, Shuffle: j.y * unit, RemainingMap: j.xr * unit, RemainingShuffle: j.yr() * unit}}
}

// A simView is one job present in a running simulation, as tests see it.
type simView struct {
	id    int
	job   Job
	rate  Rate
	avail float64
	// eng is the same in the engine's units (sizes over the speed, rates
	// as fractions of the station): the state the engine ranks, before the
	// rounding of the products by the speed, which can turn an ulp between
	// two keys into a tie or a tie into an ulp.
	eng simState
}

// A simState is a job's state and rates, in one system of units.
type simState struct {
	job   Job
	rate  Rate
	avail float64
}

// simObserver watches a simulation (tests only): interval is called before
// the state advances by tau at the current rates, with every job present.
type simObserver interface {
	interval(now, tau float64, jobs []simView)
}

// A compSum is a sum of non-negative terms with Neumaier's compensation:
// value is the exactly rounded sum up to O(n·ulp²), so a term far below the
// ulp of the running sum is not lost.
type compSum struct{ s, c float64 }

func (k *compSum) add(v float64) {
	t := k.s + v
	if k.s >= v {
		k.c += (k.s - t) + v
	} else {
		k.c += (v - t) + k.s
	}
	k.s = t
}

func (k *compSum) value() float64 { return k.s + k.c }

// A clock is a simulator's time, kept relative to an anchor so that work
// far below the ulp of the absolute time is not absorbed: base, an arrival
// time (exact, as given), plus the time elapsed since then, a compensated
// sum of the event intervals. A job's response time is (base − r) +
// elapsed: a job that arrived at base and did positive work has a positive
// response time whatever the magnitude of base (arrival 1e-150, work
// 1e-300 gives 1e-300, not 1e-150 + 1e-300 − 1e-150 = 0).
type clock struct {
	base    float64
	elapsed compSum
}

// anchor sets the time to t.
func (c *clock) anchor(t float64) { c.base, c.elapsed = t, compSum{} }

func (c *clock) advance(tau float64) { c.elapsed.add(tau) }

// now is the absolute time (rounded).
func (c *clock) now() float64 { return c.base + c.elapsed.value() }

// reached reports whether time t ≤ now.
func (c *clock) reached(t float64) bool { return t-c.base <= c.elapsed.value() }

// until returns the time from now until t (0 if t has passed; +Inf for
// t = +Inf). For an arrival not yet reached the clamp is never taken:
// reached(t) false is (t−base) > elapsed, and the rounded difference of
// a > b is > 0. It matters only for a horizon the clock has met, where
// the last step's rounding can leave the difference an ulp below 0
// (simulateUntil with a finite until: the instances' horizon).
func (c *clock) until(t float64) float64 { return max((t-c.base)-c.elapsed.value(), 0) }

// since returns now − r for a time r ≤ base.
func (c *clock) since(r float64) float64 { return max((c.base-r)+c.elapsed.value(), 0) }

// An engineCore is what the two engines (prioEngine, lpsEngine) share
// around their own event loops: the input in arrival order and the next
// job to admit from it, the clock, the table of the jobs present, the
// response times written, the event count with its stall guard, and the
// test observer.
//
// The engines' hot paths (keys, yr, the clock) take the builtin min and
// max, not math.Min and math.Max: those are assembly calls on amd64, 8% of
// a 10⁶-job MaxSRPT run's CPU. They differ only where an operand is NaN
// (math.Max(+Inf, NaN) is +Inf), and no state, key or time of a valid
// run is NaN; ±0 are ordered alike.
type engineCore struct {
	tab       jobTable
	clk       clock
	next      int // next arrival to admit
	in        []Arrival
	out       []float64
	events    int
	maxEvents int // the stall guard: a run of more events is an errStall
	obs       simObserver
	view      []simView
}

// start empties the core for a run over in at speed speed, writing the
// response times to out, with at most maxEvents events.
func (c *engineCore) start(in []Arrival, speed float64, out []float64, maxEvents int) {
	c.tab.reset(speed)
	c.clk.anchor(0)
	if len(in) > 0 {
		c.clk.anchor(in[0].Time)
	}
	c.next = 0
	c.in = in
	c.out = out
	c.events = 0
	c.maxEvents = maxEvents
}

// detach drops the run's references to the caller's memory.
func (c *engineCore) detach() { c.obs, c.in, c.out = nil, nil, nil }

// due reports whether the next job of the input has arrived by now. O(1).
func (c *engineCore) due() bool {
	return c.next < len(c.in) && c.clk.reached(c.in[c.next].Time)
}

// arrive admits the next job of the input, which is due, and returns its
// slot in the table, or -1 if it has both sizes zero: such a job leaves as
// it arrives, with response time 0, and is not stored. A job arriving after
// the clock's anchor moves the anchor to its arrival time (the rounding of
// base + elapsed). O(1) amortized.
func (c *engineCore) arrive() int32 {
	a := &c.in[c.next]
	if a.Time > c.clk.base {
		c.clk.anchor(a.Time)
	}
	id := c.next
	c.next++
	if a.Map == 0 && a.Shuffle == 0 {
		c.out[id] = 0
		return -1
	}
	return c.tab.add(id, a)
}

// depart records the response time of the job in slot s, which leaves now,
// and frees the slot.
func (c *engineCore) depart(s int32) {
	j := &c.tab.jobs[s]
	c.out[j.id] = c.clk.since(j.arrival)
	c.tab.release(s)
}
