package sim

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/minheap"
)

// The straggler index: which running tasks of a job stragglers.Speculate
// would find eligible now, and the most urgent of them, without visiting
// the job's other running tasks.
//
// A job of thousands of tasks runs thousands at once on a large cluster
// (FB-2010's largest day-job has 256 798 tasks on 12 000 slots), and the
// rules that judge stragglers decide for it at every event that frees one
// of its slots. Shown all its running tasks each time (AppendRunning and
// Speculate, O(R) per decision for R running tasks), a day of FB-2010
// costs Θ(events × R): hours. The index makes a decision cost what it
// hands out.
//
// Eligibility. A running task is eligible at now — Speculate's test on the
// view AppendRunning builds — when it has run Detect × t_new (now − start
// ≥ MinElapsed, in floating point) and its urgency passes the rule's bar:
// t_rem > t_new (the thesis's rule) or c/(c+1)·t_rem > Mantri's cut-off
// (t_rem > 2·cut-off for one copy), t_rem = min over its live copies of
// η·(end − now) (Oracle: η = 1), and never at MaxCopies copies. Both
// halves are monotone in time, exactly, in floating point:
//
//   - now − start is nondecreasing in now and nonincreasing in start
//     (rounding is monotone), and tasks start in time order, so the tasks
//     that have run MinElapsed are a prefix of the job's tasks in launch
//     order: a queue (pend), popped as now passes each one's mark;
//   - t_rem is nonincreasing in now between two changes of the task's
//     copies (each term η·(end − now) is, and so is their minimum), so a
//     task eligible at now stays eligible up to an exit time X — the first
//     float at which the test fails, found by a search over the floats
//     (exitTime) — and not after, until a copy starts (updateTheta, which
//     recomputes it).
//
// So the eligible tasks are exactly the members of exit, a min-heap by X
// from which the tasks with X ≤ now are popped before each use: O(log E)
// per task entering or leaving, E the eligible tasks.
//
// Urgency. Speculate copies the most urgent eligible tasks (t_rem, or
// c/(c+1)·t_rem), ties to the earlier running position. urg holds every
// eligible task under the urgency it had when last computed (its stamp):
// an upper bound of its urgency now, since urgency only falls between
// changes of the copies. The n most urgent come off its top lazily: a top
// entry computed at now is the true maximum (every other entry's key
// bounds its urgency), one computed earlier is recomputed and sifted
// down. A decision visits O((n + r) log E) entries, r the entries whose
// urgency fell since they were last computed past the n-th largest.
//
// Under the Observed estimator t_rem changes at reports, up or down, and
// the index is off: the Decision's views scan the running tasks (O(R·c)).
type stragglerIndex struct {
	pend []int32 // tasks started, in launch order; pend[head:] have not run MinElapsed yet (or have ended)
	head int
	exit minheap.Indexed[struct{}] // the eligible tasks by exit time X, index and ID their running position
	urg  minheap.Indexed[float64]  // the same tasks by −(urgency when stamped), ID their running position; value: the stamp
	pick []int                     // scratch: the positions drawn off urg
}

// indexOf returns job j's index, made on first use, or nil if the run
// keeps none.
func (e *engine) indexOf(j int32) *stragglerIndex {
	if !e.indexed {
		return nil
	}
	js := &e.js[j]
	if js.ix == nil {
		js.ix = e.newIndex()
	}
	return js.ix
}

// specBar is the level Speculate's eligibility test compares a running
// task's t_rem with, for a task of job j running c copies: t_new, or
// Mantri's 2·cut-off for one copy (Speculate scales the cut-off, not the
// estimate), and the level urgency c/(c+1)·t_rem is compared with for more.
func (e *engine) specBar(j int32, c int32) (level float64, scaled bool) {
	js := &e.js[j]
	if !e.cfg.Speculation.Mantri {
		return js.tnew, false
	}
	if c == 1 {
		return 2 * js.specCut, false
	}
	return js.specCut, true
}

// copyFactor is c/(c+1), Mantri's factor for a task running c copies:
// internal/hopper's, the one stragglers' and competitive's rules use.
func copyFactor(c int32) float64 { return hopper.CopyFactor(int(c)) }

// urgency is how urgently a running task of c copies with t_rem = rem
// needs another, as Speculate orders the eligible tasks: t_rem, or
// c/(c+1)·t_rem under Mantri's rule.
func (e *engine) urgency(rem float64, c int32) float64 {
	if e.cfg.Speculation.Mantri {
		return rem * copyFactor(c)
	}
	return rem
}

// passes reports whether a running task of job j with c live copies and
// t_rem = rem passes Speculate's test on t_rem (not its age).
func (e *engine) passes(j int32, c int32, rem float64) bool {
	if c >= MaxCopies {
		return false // shown with t_rem = 0
	}
	level, scaled := e.specBar(j, c)
	if scaled {
		rem *= copyFactor(c)
	}
	return rem > level
}

// oldEnough reports whether a task started at start has run job j's
// MinElapsed at now, as Speculate tests it.
func (e *engine) oldEnough(j int32, start float64) bool {
	return e.now-start >= e.js[j].minElapsed
}

// remainingAt is the estimated t_rem of a running task at time at ≥ now
// (Oracle, Progress): remaining's value had the decision been taken then,
// its copies unchanged. O(c) for c copies.
func (e *engine) remainingAt(task int32, at float64) float64 {
	best := math.Inf(1)
	for c := e.ts[task].head; c != none; c = e.cs[c].next {
		e.steps++
		cp := &e.cs[c]
		if cp.alive {
			best = math.Min(best, e.etaOf(c)*(e.endOf(c)-at))
		}
	}
	if !(best >= 0) {
		return 0
	}
	return best
}

// exitTime is X for a running task that has run MinElapsed: the first
// float t ≥ now at which Speculate's test on t_rem fails, its copies
// unchanged (now itself if it fails now). The test holds on [now, X) and
// fails from X on (t_rem is nonincreasing in t), and fails at the earliest
// end of its copies (t_rem = 0 there, below every level > 0), so X lies in
// [now, that end]. X is found by a search over the floats' bit patterns
// (ordered as the floats, all ≥ 0): from the closed-form guess θ = min
// over copies of end − level/η, by steps doubling away from it until the
// test changes, then by bisection: O(c·log d) for c copies and d the
// floats between θ and X (a few: the guess errs by rounding only).
func (e *engine) exitTime(task int32) float64 {
	ts := &e.ts[task]
	j := e.ps[ts.phase].job
	test := func(t float64) bool { return e.passes(j, ts.copies, e.remainingAt(task, t)) }
	lo := e.now
	if !test(lo) {
		return lo
	}
	hi := math.Inf(1)
	guess := math.Inf(1)
	level, scaled := e.specBar(j, ts.copies)
	if scaled {
		level /= copyFactor(ts.copies)
	}
	for c := ts.head; c != none; c = e.cs[c].next {
		if cp := &e.cs[c]; cp.alive {
			hi = math.Min(hi, e.endOf(c))
			guess = math.Min(guess, e.endOf(c)-level/e.etaOf(c))
		}
	}
	if test(hi) {
		return hi // unreachable (t_rem = 0 at hi); the task ends at hi
	}
	// lo passes, hi fails: narrow [lo, hi] around the guess.
	bl, bh := math.Float64bits(lo), math.Float64bits(hi)
	if g := math.Float64bits(guess); guess > lo && guess < hi {
		if test(guess) {
			bl = g
			for step := uint64(1); ; step *= 2 {
				if bh-bl <= step {
					break
				}
				if !test(math.Float64frombits(bl + step)) {
					bh = bl + step
					break
				}
				bl += step
			}
		} else {
			bh = g
			for step := uint64(1); ; step *= 2 {
				if bh-bl <= step {
					break
				}
				if test(math.Float64frombits(bh - step)) {
					bl = bh - step
					break
				}
				bh -= step
			}
		}
	}
	for bh-bl > 1 {
		mid := bl + (bh-bl)/2
		if test(math.Float64frombits(mid)) {
			bl = mid
		} else {
			bh = mid
		}
	}
	return math.Float64frombits(bh)
}

// sync brings job j's index to now: the tasks that have run MinElapsed
// since join it (if eligible), the tasks whose exit time has come leave
// it. Amortised O(log E) per task joining or leaving.
func (e *engine) sync(j int32, ix *stragglerIndex) {
	for ix.head < len(ix.pend) {
		t := ix.pend[ix.head]
		ts := &e.ts[t]
		if ts.status == taskRunning {
			if !e.oldEnough(j, ts.start) {
				break
			}
			if ix.exit.Get(int(ts.runPos)) == nil {
				e.enter(ix, t)
			}
		}
		ix.head++
	}
	if ix.head > 32 && 2*ix.head > len(ix.pend) { // keep pend O(its live part)
		ix.pend = ix.pend[:copy(ix.pend, ix.pend[ix.head:])]
		ix.head = 0
	}
	for ix.exit.Len() > 0 && ix.exit.Min().Key <= e.now {
		pos := ix.exit.Min().Index
		ix.exit.Remove(pos)
		ix.urg.Remove(pos)
	}
}

// enter adds running task t, old enough to be judged, to the index if it
// is eligible now, its urgency stamped now.
func (e *engine) enter(ix *stragglerIndex, t int32) {
	x := e.exitTime(t)
	if !(x > e.now) {
		return
	}
	ts := &e.ts[t]
	pos := int(ts.runPos)
	ix.exit.Push(minheap.Rank{Key: x, ID: pos}, pos, struct{}{})
	u := e.urgency(e.remainingAt(t, e.now), ts.copies)
	ix.urg.Push(minheap.Rank{Key: -u, ID: pos}, pos, e.now)
}

// reindex updates the index after a copy of running task t started (from
// updateTheta): its exit time and urgency change; a task that has run
// MinElapsed joins (again) if it is eligible now. O(c·log d + log E).
func (e *engine) reindex(t int32) {
	ts := &e.ts[t]
	j := e.ps[ts.phase].job
	ix := e.indexOf(j)
	if ix == nil {
		return
	}
	if ts.made == 1 {
		ix.pend = append(ix.pend, t) // its first copy: it joins once old enough
	}
	if !e.oldEnough(j, ts.start) {
		return
	}
	pos := int(ts.runPos)
	ix.exit.Remove(pos)
	ix.urg.Remove(pos)
	e.enter(ix, t)
}

// unindex takes running task t, whose run is over, out of the index, and
// moves the entries of the task that takes its running position (the
// job's last, moved from position from to t's).
func (e *engine) unindex(js *jobState, t, moved int32, from int32) {
	ix := js.ix
	if ix == nil {
		return
	}
	pos := int(e.ts[t].runPos)
	ix.exit.Remove(pos)
	ix.urg.Remove(pos)
	if moved == t {
		return
	}
	if x := ix.exit.Get(int(from)); x != nil {
		key := x.Key
		u := ix.urg.Get(int(from))
		neg, stamp := u.Key, u.Value
		ix.exit.Remove(int(from))
		ix.urg.Remove(int(from))
		ix.exit.Push(minheap.Rank{Key: key, ID: pos}, pos, struct{}{})
		ix.urg.Push(minheap.Rank{Key: neg, ID: pos}, pos, stamp)
	}
}

// eligibleCount is the number of running tasks of job j Speculate would
// find eligible now: the index's members, or a scan of the running tasks
// without an index (O(R·c)).
func (e *engine) eligibleCount(j int32) int {
	if ix := e.indexOf(j); ix != nil {
		e.sync(j, ix)
		return ix.exit.Len()
	}
	n := 0
	for _, t := range e.js[j].running {
		e.steps++
		if ts := &e.ts[t]; e.oldEnough(j, ts.start) && e.passes(j, ts.copies, e.remaining(t)) {
			n++
		}
	}
	return n
}

// appendUrgent appends to dst the running positions of the min(n, E)
// most urgent eligible tasks of job j (urgency descending, ties to the
// earlier position), in increasing position order. With the index,
// O((n + r)·(c + log E)) (see stragglerIndex); without, a scan, O(R·c +
// E log E).
func (e *engine) appendUrgent(dst []int, j int32, n int) []int {
	if n <= 0 {
		return dst
	}
	start := len(dst)
	ix := e.indexOf(j)
	if ix == nil {
		return e.scanUrgent(dst, j, n)
	}
	e.sync(j, ix)
	running := e.js[j].running
	ix.pick = ix.pick[:0]
	for len(ix.pick) < n && ix.urg.Len() > 0 {
		top := ix.urg.Min()
		e.steps++
		if top.Value == e.now {
			pos := top.Index
			ix.pick = append(ix.pick, pos)
			ix.urg.Remove(pos)
			continue
		}
		t := running[top.Index]
		top.Key = -e.urgency(e.remainingAt(t, e.now), e.ts[t].copies)
		top.Value = e.now
		ix.urg.Fix(top.Index)
	}
	for _, pos := range ix.pick {
		t := running[pos]
		ix.urg.Push(minheap.Rank{Key: -e.urgency(e.remainingAt(t, e.now), e.ts[t].copies), ID: pos}, pos, e.now)
		dst = append(dst, pos)
	}
	slices.Sort(dst[start:])
	return dst
}

// An urgentCand is an eligible running task in scanUrgent: its urgency
// and its position in the job's running list.
type urgentCand struct {
	u   float64
	pos int
}

// scanUrgent is appendUrgent without an index: every running task
// visited; the candidates in e.urgent, reused.
func (e *engine) scanUrgent(dst []int, j int32, n int) []int {
	start := len(dst)
	cands := e.urgent[:0]
	// Under Observed, a task's θ is −∞ when its estimate was at or below
	// the rule's level at its last copy's start or rising report, the only
	// instants it can rise above it (updateTheta): such a task is not
	// eligible, and its copies' estimates are not read. The job's filter
	// (mayHaveStraggler) rests on the same bound; debugFlags.noFilter
	// turns both off.
	skip := e.observed && !e.cfg.debug.noFilter
	for pos, t := range e.js[j].running {
		e.steps++
		ts := &e.ts[t]
		if !e.oldEnough(j, ts.start) || skip && !beyond(ts.theta, e.now) {
			continue
		}
		if rem := e.remaining(t); e.passes(j, ts.copies, rem) {
			cands = append(cands, urgentCand{e.urgency(rem, ts.copies), pos})
		}
	}
	if len(cands) > n {
		slices.SortFunc(cands, func(a, b urgentCand) int {
			if a.u != b.u {
				return cmpFloat(b.u, a.u)
			}
			return a.pos - b.pos
		})
		cands = cands[:n]
	}
	e.urgent = cands[:0] // kept for the next scan
	for _, c := range cands {
		dst = append(dst, c.pos)
	}
	slices.Sort(dst[start:])
	return dst
}
