package overlap

import "math"

// A simJob is a job present in a simulation. Its state is the remaining map
// work xr and the available shuffle work avail; the remaining shuffle work
// is avail + ratio·xr, so constraint (1), y(t) ≥ (y/x)·x(t), holds by
// construction while avail ≥ 0, and a rate-limited job (avail = 0 served at
// exactly ratio·p) keeps avail exactly zero in floating point.
type simJob struct {
	id      int // input index; -1 for a free slot
	arrival float64
	x, y    float64
	ratio   float64 // y/x, or 0 when x = 0
	xr      float64 // remaining map work
	avail   float64 // available shuffle work
	p, q    float64 // current map and shuffle rates
	class   int8
}

// yr is the remaining shuffle work, at most y (the rounding of (y/x)·x
// would otherwise put a job that has not started a few ulps above y, and
// break its key ties with identical jobs).
func (j *simJob) yr() float64 {
	if j.xr == 0 {
		return math.Min(j.avail, j.y)
	}
	return math.Min(j.avail+j.ratio*j.xr, j.y)
}

// drift is d(avail)/dt at the current rates.
func (j *simJob) drift() float64 { return j.ratio*j.p - j.q }

// advance moves the job's state forward by tau at its current rates,
// setting to zero a decreasing quantity within snapTol of zero.
func (j *simJob) advance(tau float64) {
	if j.p > 0 {
		j.xr -= j.p * tau
		if j.xr <= snapTol*j.x {
			j.xr = 0
		}
	}
	if d := j.drift(); d != 0 {
		j.avail += d * tau
		if d < 0 && j.avail <= snapTol*j.y {
			j.avail = 0
		}
	}
}

// nextEvent returns the time until the job's next event at its current
// rates, and whether that event is its map completion (else its available
// shuffle work running out, which is its departure when xr = 0).
func (j *simJob) nextEvent() (tau float64, mapDone bool) {
	tau = math.Inf(1)
	if j.p > 0 {
		tau, mapDone = j.xr/j.p, true
	}
	if d := j.drift(); d < 0 && j.avail > 0 {
		if t := j.avail / -d; t < tau {
			tau, mapDone = t, false
		}
	}
	return tau, mapDone
}

func (j *simJob) done() bool { return j.xr == 0 && j.avail == 0 }

// A jobTable stores the jobs present in slots that are reused after a job
// leaves, so its size is the largest number of jobs present at once.
type jobTable struct {
	jobs []simJob
	free []int32
	live int
}

func (t *jobTable) reset() {
	t.jobs = t.jobs[:0]
	t.free = t.free[:0]
	t.live = 0
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
	*j = simJob{id: id, arrival: a.Time, x: a.Map, y: a.Shuffle, xr: a.Map}
	if a.Map > 0 {
		j.ratio = a.Shuffle / a.Map
	} else {
		j.avail = a.Shuffle
	}
	t.live++
	return s
}

func (t *jobTable) release(s int32) {
	t.jobs[s].id = -1
	t.free = append(t.free, s)
	t.live--
}

// A simView is one job present in a running simulation, as tests see it.
type simView struct {
	id    int
	job   Job
	rate  Rate
	avail float64
}

// simObserver watches a simulation (tests only): interval is called before
// the state advances by tau at the current rates, with every job present.
type simObserver interface {
	interval(now, tau float64, jobs []simView)
}
