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
type lpsEngine struct {
	tab         jobTable
	k           int
	speed       float64
	inService   []int32
	waiting     ringQueue
	shuffleOnly entryHeap // key: V at which the job finishes
	virtual     float64   // V(t): shuffle work done per unlimited job since it was last 0
	theta       float64   // water-fill level: rate of each unlimited job
	limits      []limitEntry
	now         float64
	next        int
	in          []Arrival
	out         []float64
	events      int
	maxEvents   int
	obs         simObserver
	view        []simView
}

func (e *lpsEngine) reset(in []Arrival, speed float64, k int, out []float64) {
	e.tab.reset()
	e.k = k
	e.speed = speed
	e.inService = e.inService[:0]
	e.waiting.reset()
	e.shuffleOnly = e.shuffleOnly[:0]
	e.virtual, e.theta = 0, 0
	e.now = math.Inf(-1)
	if len(in) > 0 {
		e.now = in[0].Time
	}
	e.next = 0
	e.in = in
	e.out = out
	e.events = 0
	// Per interval of constant membership, each in-service job's available
	// work runs out at most once (θ only rises as jobs become limited), so
	// events are O(n·k); the guard is far above that.
	e.maxEvents = 64*len(in)*(min(k, len(in))+2) + 1024
}

func (e *lpsEngine) depart(s int32) {
	j := &e.tab.jobs[s]
	e.out[j.id] = math.Max(e.now-j.arrival, 0)
	e.tab.release(s)
}

// toShuffle moves a job whose map is done to the shuffle-only heap.
func (e *lpsEngine) toShuffle(s int32) {
	j := &e.tab.jobs[s]
	j.p, j.q = 0, 0
	if e.shuffleOnly.len() == 0 {
		e.virtual = 0 // rebase V while no job depends on it
	}
	e.shuffleOnly.push(entry{key: j.avail + e.virtual, arrival: j.arrival, id: j.id, slot: s})
}

func (e *lpsEngine) admit() {
	for e.next < len(e.in) && e.in[e.next].Time <= e.now {
		a := &e.in[e.next]
		id := e.next
		e.next++
		if a.Map == 0 && a.Shuffle == 0 {
			e.out[id] = 0
			continue
		}
		s := e.tab.add(id, a)
		switch {
		case a.Map == 0:
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
	p := 0.0
	if n := len(e.inService); n > 0 {
		p = e.speed / float64(n)
	}
	unlimited := e.shuffleOnly.len()
	lim := e.limits[:0]
	for _, s := range e.inService {
		j := &e.tab.jobs[s]
		j.p, j.q = p, 0
		switch {
		case j.y == 0:
		case j.avail > 0:
			unlimited++
		default:
			lim = append(lim, limitEntry{limit: j.ratio * p, id: int(s)})
		}
	}
	e.theta = waterFill(e.speed, unlimited, lim)
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
// earlier (then the state is advanced exactly to until).
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
			if t := math.Max(e.shuffleOnly[0].key-e.virtual, 0) / e.theta; t < tau {
				tau, trig, shuffleDone = t, -1, true
			}
		}
		arrival := false
		if e.next < len(e.in) {
			if t := math.Max(e.in[e.next].Time-e.now, 0); t <= tau {
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
		if e.now+tau > until {
			if d := until - e.now; d > 0 {
				e.step(d, until, -1, false, false)
				e.admit()
				e.allocate()
			}
			return nil
		}
		at := e.now + tau
		if arrival {
			at = e.in[e.next].Time
		}
		e.step(tau, at, trig, mapDone, shuffleDone)
		e.admit()
		e.allocate()
	}
}

// step advances the state by tau, to time at: the in-service job at index
// trig (if ≥ 0) reaches its event exactly, and so does the first
// shuffle-only job if shuffleDone. Then departures are recorded and finished
// maps leave service.
func (e *lpsEngine) step(tau, at float64, trig int, mapDone, shuffleDone bool) {
	if e.obs != nil {
		e.view = e.snapshot(e.view[:0])
		e.obs.interval(e.now, tau, e.view)
	}
	e.virtual += e.theta * tau
	for _, s := range e.inService {
		e.tab.jobs[s].advance(tau)
	}
	if trig >= 0 {
		if j := &e.tab.jobs[e.inService[trig]]; mapDone {
			j.xr = 0
		} else {
			j.avail = 0
		}
	}
	e.now = at
	if shuffleDone {
		e.depart(e.shuffleOnly.pop().slot)
	}
	for e.shuffleOnly.len() > 0 {
		top := &e.shuffleOnly[0]
		if top.key-e.virtual > snapTol*e.tab.jobs[top.slot].y {
			break
		}
		e.depart(e.shuffleOnly.pop().slot)
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
	for _, en := range e.shuffleOnly {
		onHeap[en.slot] = math.Min(math.Max(en.key-e.virtual, 0), e.tab.jobs[en.slot].y)
	}
	for i := range e.tab.jobs {
		j := &e.tab.jobs[i]
		if j.id < 0 {
			continue
		}
		v := simView{id: j.id, avail: j.avail, rate: Rate{Map: j.p, Shuffle: j.q},
			job: Job{Arrival: j.arrival, Map: j.x, Shuffle: j.y, RemainingMap: j.xr, RemainingShuffle: j.yr()}}
		if rem, ok := onHeap[int32(i)]; ok {
			v.avail, v.job.RemainingShuffle = rem, rem
			v.rate = Rate{Shuffle: e.theta}
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
