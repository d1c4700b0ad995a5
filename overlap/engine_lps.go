package overlap

import (
	"math"
)

// lpsEngine simulates k-LPS (§5.1) event by event.
//
// The map station serves the k earliest jobs with map work left (the
// inService set, at most k jobs, each at speed/|inService|); the others wait
// in arrival order (waiting). At the shuffle station, a job whose map is done
// has all its remaining shuffle work available and is unlimited until it
// leaves; those jobs (shuffleOnly) all get the water-fill level θ, so they
// are kept in a heap keyed by the virtual time V(t) = ∫θ dt at which each
// would finish (its remaining work plus V at entry), and advancing them
// costs nothing per job. Waiting jobs have no available shuffle work and no
// map rate, so they get nothing. Only the in-service jobs are updated one by
// one: an event costs O(k log k + log n).
//
// V is a compensated sum, and the heap's keys are rebased (V subtracted
// from each, O(jobs in the heap)) when a job enters with shuffle work below
// rebaseRatio·V, so that no job's remaining work key − V loses more than
// 2^-33 of itself to the rounding of key = work + V.
type lpsEngine struct {
	engineCore
	k           int
	inService   []int32
	waiting     ringQueue
	shuffleOnly entryHeap // key: V at which the job finishes
	virtual     compSum   // V(t): shuffle work done per unlimited job since it was last 0
	theta       float64   // water-fill level: rate of each unlimited job
	limits      []limitEntry
}

func (e *lpsEngine) reset(in []Arrival, speed float64, k int, out []float64) {
	// Per interval of constant membership, each in-service job's available
	// work runs out at most once (θ only rises as jobs become limited), so
	// events are O(n·k); the stall guard is far above that.
	e.start(in, speed, out, 64*len(in)*(min(k, len(in))+2)+1024)
	e.k = k
	e.inService = e.inService[:0]
	e.waiting.reset()
	e.shuffleOnly = e.shuffleOnly[:0]
	e.virtual, e.theta = compSum{}, 0
}

// toShuffle moves a job whose map is done to the shuffle-only heap.
func (e *lpsEngine) toShuffle(s int32) {
	j := &e.tab.jobs[s]
	j.pX, j.p, j.g, j.q = xfloat{}, 0, 0, 0
	switch v := e.virtual.value(); {
	case e.shuffleOnly.len() == 0:
		e.virtual = compSum{} // rebase V while no job depends on it
	case j.avail < rebaseRatio*v:
		e.rebase(v)
	}
	e.shuffleOnly.push(rank(j.avail+e.virtual.value(), j.arrival, j.id), s)
}

// rebaseRatio: a job entering the shuffle-only heap with work below
// rebaseRatio·V triggers a rebase, so a key work + V keeps the work to
// 2^-53/rebaseRatio = 2^-33 of itself.
const rebaseRatio = 0x1p-20

// rebase subtracts v = V from every key of the shuffle-only heap and sets V
// to 0. Subtracting the same v keeps the keys' order (rounding is
// monotone) but may make two keys equal, whose ties then go by arrival and
// index, so the heap is rebuilt. O(jobs in the heap).
func (e *lpsEngine) rebase(v float64) {
	for i := range e.shuffleOnly {
		k := &e.shuffleOnly[i].Key
		*k = math.Max(*k-v, 0)
	}
	e.virtual = compSum{}
	e.shuffleOnly.init()
}

// admit sends the jobs due by now to the map station (in service if it has
// room and no job waits, else to the back of the waiting queue), or
// straight to the shuffle-only heap if they have no map work; then it fills
// the map station from the waiting queue.
func (e *lpsEngine) admit() {
	for e.due() {
		switch s := e.arrive(); {
		case s < 0: // both sizes zero: it left as it arrived
		case e.tab.jobs[s].x == 0:
			e.toShuffle(s)
		case len(e.inService) < e.k && e.waiting.len() == 0:
			e.inService = append(e.inService, s)
		default:
			e.waiting.push(s)
		}
	}
	for len(e.inService) < e.k && e.waiting.len() > 0 {
		e.inService = append(e.inService, e.waiting.pop())
	}
}

// allocate sets p for the in-service jobs and the water-fill shuffle rates.
func (e *lpsEngine) allocate() {
	pX, p := xfloat{}, 0.0
	if n := len(e.inService); n > 0 {
		pX = unitRate.div(xf(float64(n))) // speed 1 (see jobTable)
		p = pX.float()
	}
	unlimited := e.shuffleOnly.len()
	lim := e.limits[:0]
	for _, s := range e.inService {
		j := &e.tab.jobs[s]
		j.setMap(pX, p)
		j.q = 0
		switch {
		case j.y == 0:
		case j.avail > 0:
			unlimited++
		default:
			lim = append(lim, limitEntry{limit: j.g, id: int(s)})
		}
	}
	e.theta = waterFill(1, unlimited, lim)
	for _, l := range lim {
		e.tab.jobs[l.id].q = l.limit
	}
	for _, s := range e.inService {
		if j := &e.tab.jobs[s]; j.y > 0 && j.avail > 0 {
			j.q = e.theta
		}
	}
	e.limits = lim
}

// run simulates until every job has left, or until time until if that is
// earlier (then the state is advanced exactly to until). Its loop has
// prioEngine.run's skeleton, kept apart for speed (see there).
func (e *lpsEngine) run(until float64) error {
	e.admit()
	e.allocate()
	for {
		e.events++
		if e.events > e.maxEvents {
			return errStall
		}
		tau, trig, mapDone := math.Inf(1), -1, false
		for i, s := range e.inService {
			if t, md := e.tab.jobs[s].nextEvent(); t < tau {
				tau, trig, mapDone = t, i, md
			}
		}
		shuffleDone := false
		if e.shuffleOnly.len() > 0 && e.theta > 0 {
			// Key − V ≥ 0 here, so the max is a no-op kept for safety: step
			// sends every job whose key is within snapTol·y of V on, a key
			// pushed since is work + V rounded (≥ V, rounding is monotone),
			// and rebase clamps the keys at 0 with V = 0 (issue-12 mutation
			// pass: removing it is an equivalent mutant).
			if t := max(e.shuffleOnly[0].Key-e.virtual.value(), 0) / e.theta; t < tau {
				tau, trig, shuffleDone = t, -1, true
			}
		}
		// The rest repeats prioEngine.run on purpose: a loop shared by both engines cost 8% CPU (see there).
		arrival := false
		if e.next < len(e.in) {
			if t := e.clk.until(e.in[e.next].Time); t <= tau {
				if t < tau {
					trig, shuffleDone = -1, false
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
				e.step(d, false, -1, false, false)
				e.clk.anchor(until)
				e.admit()
				e.allocate()
			}
			return nil
		}
		e.step(tau, arrival, trig, mapDone, shuffleDone)
		e.admit()
		e.allocate()
	}
}

// step advances the state by tau, to the next arrival's time if arrival:
// the in-service job at index trig (if ≥ 0) reaches its event exactly, and
// so does the first shuffle-only job if shuffleDone. Then departures are
// recorded and finished maps leave service.
func (e *lpsEngine) step(tau float64, arrival bool, trig int, mapDone, shuffleDone bool) {
	if e.obs != nil {
		e.view = e.snapshot(e.view[:0])
		e.obs.interval(e.clk.now(), tau, e.view)
	}
	e.virtual.add(e.theta * tau)
	for _, s := range e.inService {
		e.tab.jobs[s].advance(tau)
	}
	if trig >= 0 {
		if j := &e.tab.jobs[e.inService[trig]]; mapDone {
			j.completeMap()
		} else {
			j.avail = 0
		}
	}
	if arrival {
		e.clk.anchor(e.in[e.next].Time)
	} else {
		e.clk.advance(tau)
	}
	if shuffleDone {
		e.depart(e.shuffleOnly.pop().Value)
	}
	for e.shuffleOnly.len() > 0 {
		top := &e.shuffleOnly[0]
		if top.Key-e.virtual.value() > snapTol*e.tab.jobs[top.Value].y {
			break
		}
		e.depart(e.shuffleOnly.pop().Value)
	}
	kept := e.inService[:0]
	for _, s := range e.inService {
		j := &e.tab.jobs[s]
		switch {
		case j.xr > 0:
			kept = append(kept, s)
		case j.avail > 0:
			e.toShuffle(s)
		default:
			e.depart(s)
		}
	}
	e.inService = kept
}

// snapshot appends the jobs present with their rates.
func (e *lpsEngine) snapshot(dst []simView) []simView {
	onHeap := make(map[int32]float64, len(e.shuffleOnly))
	v := e.virtual.value()
	for _, en := range e.shuffleOnly {
		onHeap[en.Value] = math.Min(math.Max(en.Key-v, 0), e.tab.jobs[en.Value].y)
	}
	for i := range e.tab.jobs {
		j := &e.tab.jobs[i]
		if j.id < 0 {
			continue
		}
		v := j.view(e.tab.unit)
		if rem, ok := onHeap[int32(i)]; ok {
			v.avail, v.job.RemainingShuffle = rem*e.tab.unit, rem*e.tab.unit
			v.rate = Rate{Shuffle: e.theta * e.tab.unit}
			v.eng.avail, v.eng.job.RemainingShuffle = rem, rem
			v.eng.rate = Rate{Shuffle: e.theta}
		}
		dst = append(dst, v)
	}
	return dst
}

// A ringQueue is a FIFO queue of slots in a circular buffer.
type ringQueue struct {
	buf        []int32
	head, size int
}

func (q *ringQueue) reset()   { q.head, q.size = 0, 0 }
func (q *ringQueue) len() int { return q.size }

func (q *ringQueue) push(s int32) {
	if q.size == len(q.buf) {
		grown := make([]int32, 2*len(q.buf)+16)
		for i := 0; i < q.size; i++ {
			grown[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = grown, 0
	}
	q.buf[(q.head+q.size)%len(q.buf)] = s
	q.size++
}

func (q *ringQueue) pop() int32 {
	s := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return s
}
