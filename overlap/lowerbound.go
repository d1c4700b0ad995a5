package overlap

import "math"

var inf = math.Inf(1)

// LowerBound returns the lower bound of §5.1 on the total response time of
// any policy for the jobs, with both stations of speed speed.
//
// Two single-server queues of speed speed are run with SRPT, A on the map
// sizes and B on the shuffle sizes, with the jobs' arrival times. SRPT
// minimises total response time on one server (Schrage 1968), and the map
// (shuffle) work of any tandem-queue schedule is a feasible one-server
// schedule of A (B); so within every joint busy period — a maximal interval
// in which A or B is busy — the jobs arriving in it have, under any policy,
// a total response time of at least the larger of their totals in A and in
// B. The bound is the sum, over joint busy periods, of that larger total. A
// job arriving exactly when both queues empty starts a new period (the
// periods then share no work, and the finer split gives a larger bound).
//
// Time: O(n log n). jobs must be sorted by arrival time, as for Simulate.
//
// Special cases: no jobs gives 0; jobs with both sizes zero add 0; a job
// with one size zero counts only in the other queue. The input bounds are
// Simulate's (speed in (0, 1e300], positive sizes ≥ speed·2^-1022, times
// plus total work / speed below 1e300), and time is kept relative to the
// latest arrival as there, so a job far smaller than the ulp of its arrival
// time still counts.
func LowerBound(jobs []Arrival, speed float64, ws *Workspace) (float64, error) {
	const fn = "overlap.LowerBound"
	if err := validateSpeed(fn, speed, false); err != nil {
		return 0, err
	}
	if err := validateArrivals(fn, jobs, speed); err != nil {
		return 0, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	n := len(jobs)
	for k := range ws.resp {
		if cap(ws.resp[k]) < n {
			ws.resp[k] = make([]float64, n)
		}
		ws.resp[k] = ws.resp[k][:n]
	}
	respA, respB := ws.resp[0], ws.resp[1]
	ws.srpt.run(respA, jobs, false, speed)
	ws.srpt.run(respB, jobs, true, speed)
	total, sumA, sumB := 0.0, 0.0, 0.0
	// Both queues are next empty at endR + endD (kept apart, and compared
	// through differences, so that a response time below the ulp of the
	// arrival times still keeps the jobs of its period together).
	endR, endD := 0.0, math.Inf(-1)
	for i := range jobs {
		r := jobs[i].Time
		if r-endR >= endD {
			total += math.Max(sumA, sumB)
			sumA, sumB = 0, 0
		}
		sumA += respA[i]
		sumB += respB[i]
		if d := math.Max(respA[i], respB[i]); (r-endR)+d > endD {
			endR, endD = r, d
		}
	}
	return total + math.Max(sumA, sumB), nil
}

// srptQueue simulates one single-server SRPT queue.
type srptQueue struct {
	heap entryHeap // key: remaining work
}

// run writes the SRPT response time of each job, with sizes the jobs'
// shuffle sizes if shuffle, else their map sizes. Ties in remaining work go
// to the earlier arrival, then the lower index. O(n log n).
//
// The clock is kept relative to the last arrival (see clock), so a job far
// smaller than the ulp of its arrival time still has a positive response
// time.
func (q *srptQueue) run(resp []float64, jobs []Arrival, shuffle bool, speed float64) {
	q.heap = q.heap[:0]
	var clk clock
	if len(jobs) > 0 {
		clk.anchor(jobs[0].Time)
	}
	next := 0
	for next < len(jobs) || q.heap.len() > 0 {
		if q.heap.len() == 0 && !clk.reached(jobs[next].Time) {
			clk.anchor(jobs[next].Time)
		}
		for next < len(jobs) && clk.reached(jobs[next].Time) {
			a := &jobs[next]
			if a.Time > clk.base {
				clk.anchor(a.Time) // the rounding of base + elapsed
			}
			size := a.Map
			if shuffle {
				size = a.Shuffle
			}
			if size == 0 {
				resp[next] = 0
			} else {
				// In units of the speed (service time), as the simulators
				// keep sizes: a subnormal speed then rounds nothing.
				q.heap.push(rank(size/speed, a.Time, next), 0)
			}
			next++
		}
		if q.heap.len() == 0 {
			continue
		}
		top := &q.heap[0]
		finish := top.Key
		if next < len(jobs) {
			if dt := clk.until(jobs[next].Time); dt < finish {
				// Serve the head until the next arrival; it stays the least.
				top.Key = math.Max(top.Key-dt, 0)
				clk.anchor(jobs[next].Time)
				continue
			}
		}
		clk.advance(finish)
		done := q.heap.pop()
		resp[done.ID] = clk.since(done.Next)
	}
}
