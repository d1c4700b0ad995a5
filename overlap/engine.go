package overlap

import (
	"errors"
	"math"
)

// unitRate is the whole station, 1 in the engines' units (see jobTable).
var unitRate = xf(1)

// errStall reports a simulation that stopped making progress; it is a bug
// guard and never expected.
var errStall = errors.New("overlap: simulation stalled (internal error)")

// A prioClass is one class of a priority policy (MaxSRPT and FIFO have one,
// SplitSRPT two) with the heaps that find its heads in O(1): mapH holds its
// jobs with map work left, availH those with available shuffle work and
// shufH (strict shuffle only) those with shuffle work left, each ordered by
// the class's key, then arrival, then index.
type prioClass struct {
	key                 orderKey
	mapH, availH, shufH indexHeap
	pcapX               xfloat  // the class's map capacity now, exactly (for the limits y·p/x)
	pcap, scap          float64 // the class's map (rounded) and shuffle capacity now
}

// prioEngine simulates the priority policies (MaxSRPT, MaxSRPTStrict,
// SplitSRPT, SplitSRPTStrict, FIFO) event by event.
//
// At any instant at most two jobs of a class are served (heads): its map
// job m and one other job at the shuffle station. Only served jobs change,
// so after an event only they are re-keyed in the heaps, and the next event
// is the first among their own events and the next arrival: O(log n) per
// event. The order of the heads cannot change between events, so no
// "priority change" event is ever due, because a served job can overtake
// in its class's order only a job that is not served, which changes no
// rate (a lower key is served first):
//   - MaxSRPT: the first job of the order loses key at rate s (its larger
//     remaining size is the one served at full speed, or it is limited with
//     y/x < 1 and its key is x(t), served at s), faster than any other job
//     can; the shuffle job a comes before m only if a has no map work left,
//     and then a gets all the shuffle speed; if m comes first and is
//     limited with y/x < 1, a gets (1−y/x)·s < s, m's key falls at s.
//   - SplitSRPT: in the map-heavy class only m's key x(t) changes; in the
//     shuffle-heavy class the key y(t) of a, when m comes first and is
//     limited, falls at most at the capacity left to a, which is at most
//     μ₁·s ≤ μ₂·s ≤ (y/x)·p_m, the rate at which m's key falls.
//   - FIFO: keys are arrival times and never change.
//
// Tests check this on random instances: the rates the engine uses agree
// with Rates on the full snapshot at every event and mid-interval.
type prioEngine struct {
	engineCore
	classes [2]prioClass
	nclass  int
	beta    indexHeap  // SplitSRPT: present jobs by imbalance
	betaID  int        // SplitSRPT: the job whose imbalance is β(t) when mu was computed (-1: none)
	mu      [2]xfloat  // SplitSRPT: μ₁ and μ₂ of that β(t)
	muF     [2]float64 // SplitSRPT: μ₁ and μ₂ rounded
	active  []int32    // jobs with a nonzero rate
	strict  bool
	split   bool
	shared  bool
}

func (e *prioEngine) reset(in []Arrival, speed float64, alg Algorithm, out []float64) {
	e.start(in, speed, out, 64*len(in)+1024)
	for c := range e.classes {
		e.classes[c].mapH.Reset()
		e.classes[c].availH.Reset()
		e.classes[c].shufH.Reset()
	}
	e.beta.Reset()
	e.betaID = -1
	e.active = e.active[:0]
	e.strict = alg == MaxSRPTStrict
	e.split = alg == SplitSRPT || alg == SplitSRPTStrict
	e.shared = alg == SplitSRPT
	e.nclass = 1
	switch alg {
	case MaxSRPT, MaxSRPTStrict:
		e.classes[0].key = keyMax
	case FIFO:
		e.classes[0].key = keyArrival
	default:
		e.nclass = 2
		e.classes[0].key, e.classes[1].key = keyMap, keyShuffle
	}
}

func (e *prioEngine) key(c *prioClass, j *simJob) float64 {
	switch c.key {
	case keyMax:
		return max(j.xr, j.yr())
	case keyMap:
		return j.xr
	case keyShuffle:
		return j.yr()
	default:
		return j.arrival
	}
}

// sync puts slot s in the heaps of its class that it belongs to, with its
// current key. O(log n).
func (e *prioEngine) sync(s int32) {
	j := &e.tab.jobs[s]
	c := &e.classes[j.class]
	k := e.key(c, j)
	c.mapH.set(j.xr > 0, k, j.arrival, j.id, s)
	c.availH.set(j.avail > 0, k, j.arrival, j.id, s)
	if e.strict {
		c.shufH.set(j.yr() > 0, k, j.arrival, j.id, s)
	}
}

// admit puts the jobs due by now in their class's heaps (which grow their
// position tables to a new slot on demand).
func (e *prioEngine) admit() {
	for e.due() {
		s := e.arrive()
		if s < 0 {
			continue
		}
		j := &e.tab.jobs[s]
		if e.split {
			j.class = int8(splitClass(j.x, j.y))
			// Keyed (exponent, mantissa) of the imbalance, the mantissa in
			// the arrival field: equal imbalances give equal μ, so which of
			// them is on top does not matter.
			exp, mant := imbalanceKey(j.x, j.y)
			e.beta.Push(rank(exp, mant, j.id), int(s), struct{}{})
		}
		e.sync(s)
	}
}

// settle records the departures among the jobs just served and re-keys the
// others.
func (e *prioEngine) settle() {
	for _, s := range e.active {
		j := &e.tab.jobs[s]
		if !j.done() {
			e.sync(s)
			continue
		}
		c := &e.classes[j.class]
		c.mapH.set(false, 0, 0, 0, s)
		c.availH.set(false, 0, 0, 0, s)
		c.shufH.set(false, 0, 0, 0, s)
		if e.split {
			e.beta.Remove(int(s))
		}
		e.depart(s)
	}
}

// serve gives slot s the shuffle rate q (its map rate is set, or zero); a
// job is served in one role at most.
func (e *prioEngine) serve(s int32, q float64) {
	j := &e.tab.jobs[s]
	if j.pX.m > 0 || q > 0 {
		e.active = append(e.active, s)
	}
	j.q = q
}

// allocate sets the rates of the jobs present (see Rates).
func (e *prioEngine) allocate() {
	for _, s := range e.active {
		if j := &e.tab.jobs[s]; j.id >= 0 {
			j.pX, j.p, j.g, j.q = xfloat{}, 0, 0, 0
		}
	}
	e.active = e.active[:0]
	if e.tab.live == 0 {
		return
	}
	var m [2]int32
	for c := 0; c < e.nclass; c++ {
		m[c] = -1
		if h := &e.classes[c].mapH; h.Len() > 0 {
			m[c] = int32(h.Min().Index)
		}
	}
	if !e.split {
		c := &e.classes[0]
		c.pcapX, c.pcap, c.scap = unitRate, 1, 1
	} else {
		// splitCapacities at speed 1, with μ kept while the job that
		// sets β(t) stays: μ depends only on its sizes.
		if top := e.beta.Min(); top.ID != e.betaID {
			b := &e.tab.jobs[top.Index]
			e.betaID = top.ID
			e.mu[0], e.mu[1] = splitShares(hiLo(b.x, b.y))
			e.muF = [2]float64{e.mu[0].float(), e.mu[1].float()}
		}
		c0, c1 := &e.classes[0], &e.classes[1]
		c0.pcapX, c0.pcap, c0.scap = e.mu[1], e.muF[1], e.muF[0]
		c1.pcapX, c1.pcap, c1.scap = e.mu[0], e.muF[0], e.muF[1]
		if e.shared && m[0] < 0 {
			c1.pcapX, c1.pcap = unitRate, 1
		}
		if e.shared && m[1] < 0 {
			c0.pcapX, c0.pcap = unitRate, 1
		}
	}
	for c := 0; c < e.nclass; c++ {
		if m[c] >= 0 {
			e.tab.jobs[m[c]].setMap(e.classes[c].pcapX, e.classes[c].pcap)
		}
	}
	var qm, qo [2]float64
	var other [2]int32
	for c := 0; c < e.nclass; c++ {
		qm[c], qo[c], other[c] = e.shuffle(c, m[c], e.classes[c].scap)
	}
	if e.shared {
		// As in splitRates: own capacity plus what the other class left,
		// at most s.
		s0, s1 := e.classes[0].scap, e.classes[1].scap
		used0, used1 := qm[0]+qo[0], qm[1]+qo[1]
		qm[0], qo[0], other[0] = e.shuffle(0, m[0], min(1, s0+(s1-used1)))
		qm[1], qo[1], other[1] = e.shuffle(1, m[1], min(1, s1+(s0-used0)))
	}
	for c := 0; c < e.nclass; c++ {
		if m[c] >= 0 {
			e.serve(m[c], qm[c])
		}
		if other[c] >= 0 {
			e.serve(other[c], qo[c])
		}
	}
}

// shuffle splits shuffle capacity scap of class c whose map job is m (which
// gets the class's map capacity): qm for m, qo for the job other.
func (e *prioEngine) shuffle(c int, m int32, scap float64) (qm, qo float64, other int32) {
	cl := &e.classes[c]
	limit := func(s int32) float64 {
		j := &e.tab.jobs[s]
		if j.avail > 0 {
			return math.Inf(1)
		}
		if s != m {
			return 0
		}
		return j.g
	}
	if e.strict {
		if cl.shufH.Len() == 0 {
			return 0, 0, -1
		}
		s := int32(cl.shufH.Min().Index)
		q := min(scap, limit(s))
		if s == m {
			return q, 0, -1
		}
		return 0, q, s
	}
	a := cl.availH.MinExcept(int(m))
	mIn := m >= 0 && e.tab.jobs[m].yr() > 0
	mLimit := 0.0
	if mIn {
		mLimit = limit(m)
	}
	mFirst := a == nil || (m >= 0 && cl.mapH.Get(int(m)).Less(&a.Rank))
	qm, qo = shuffleShare(scap, mIn, mLimit, a != nil, mFirst)
	other = -1
	if a != nil {
		other = int32(a.Index)
	}
	return qm, qo, other
}

// run simulates until every job has left, or until time until if that is
// earlier (then the state is advanced exactly to until).
//
// lpsEngine.run has the same skeleton. One loop shared through an interface
// (admit, allocate, first event, advance) gave bit-identical results but
// cost about 8% more CPU per simulation, so each engine keeps its own loop.
func (e *prioEngine) run(until float64) error {
	e.admit()
	e.allocate()
	for {
		e.events++
		if e.events > e.maxEvents {
			return errStall
		}
		tau, trig, mapDone := math.Inf(1), int32(-1), false
		for _, s := range e.active {
			if t, md := e.tab.jobs[s].nextEvent(); t < tau {
				tau, trig, mapDone = t, s, md
			}
		}
		// The rest repeats lpsEngine.run on purpose: a loop shared by both engines cost 8% CPU (above).
		arrival := false
		if e.next < len(e.in) {
			if t := e.clk.until(e.in[e.next].Time); t <= tau {
				if t < tau {
					trig = -1
				}
				tau, arrival = t, true
			}
		}
		if math.IsInf(tau, 1) {
			if e.tab.live == 0 {
				return nil
			}
			return errStall
		}
		if d := e.clk.until(until); tau > d {
			if d > 0 {
				e.step(d, -1, false)
				e.clk.anchor(until)
				e.settle()
				e.allocate()
			}
			return nil
		}
		e.step(tau, trig, mapDone)
		if arrival {
			e.clk.anchor(e.in[e.next].Time)
		} else {
			e.clk.advance(tau)
		}
		e.settle()
		e.admit()
		e.allocate()
	}
}

// step advances the served jobs by tau; the job trig (if ≥ 0) reaches its
// event exactly.
func (e *prioEngine) step(tau float64, trig int32, mapDone bool) {
	if e.obs != nil {
		e.view = e.snapshot(e.view[:0])
		e.obs.interval(e.clk.now(), tau, e.view)
	}
	for _, s := range e.active {
		e.tab.jobs[s].advance(tau)
	}
	if trig >= 0 {
		if mapDone {
			e.tab.jobs[trig].completeMap()
		} else {
			e.tab.jobs[trig].avail = 0
		}
	}
}

// snapshot appends the jobs present, in slot order, with their rates.
func (e *prioEngine) snapshot(dst []simView) []simView {
	for i := range e.tab.jobs {
		j := &e.tab.jobs[i]
		if j.id < 0 {
			continue
		}
		dst = append(dst, j.view(e.tab.unit))
	}
	return dst
}
