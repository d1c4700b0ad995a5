package sim

import "github.com/specsched/specsched/stragglers"

// The stage statistics of Spark's and Hadoop's speculators (SparkRule,
// HadoopRule), kept incrementally. They read the run's tasks directly,
// as Decision's methods do, and so live outside the baseline files (whose
// rules read the run through the exported Decision methods only,
// TestBaselinesUsePublicDecision): Decision.AppendComputed, the public
// way, lists a phase's computed durations in O(s), and a rule that
// recomputed the median from it at every task computed spent O(s²) per
// phase — hours on a day of FB-2010, whose largest phases have 10⁵ tasks.

// stageKey names a phase of a job: its index in Simulate's jobs, and the
// phase's.
type stageKey struct{ job, phase int }

// stageStats caches, per phase of a job, the median and mean duration of
// its computed tasks (what Decision.AppendComputed lists), updated only
// when their number changes. The median comes from two heaps holding the
// durations seen so far (the lower half, negated, and the upper half),
// each duration pushed once: O(log s) per task computed, s the phase's
// tasks. The mean is the sum in task index order, as AppendComputed lists
// them (floating-point addition is not associative: a sum in another order
// could differ in its last bits); the sum over the longest prefix of
// computed tasks is kept, so an update sums only the tasks after the first
// that has not been computed: O(w) for w of them, a few waves of the
// job's slots, instead of O(s) for the phase — on a day of FB-2010 the
// difference between seconds and hours.
type stageStats struct {
	cache map[stageKey]stragglers.StageStats
	runs  map[stageKey]*stageRun // the phases whose tasks are not all computed
	added []uint64               // bit t: task t's duration is in its phase's heaps
}

// A stageRun is a phase's state in stageStats.
type stageRun struct {
	settled int32     // tasks below it (global index) are computed, their durations in sum
	sum     float64   // the sum of their durations, in index order
	lower   []float64 // min-heap of the negated smaller half, ⌊n/2⌋ of the n durations
	upper   []float64 // min-heap of the larger half, n − ⌊n/2⌋
}

// reset forgets every phase (a new run).
func (s *stageStats) reset() {
	clear(s.cache)
	clear(s.runs)
	clear(s.added)
}

// of returns the stage statistics of phase p of the active job at position
// k: its tasks, the computed ones and their median and mean durations (0
// with none computed), as selection.Median (stragglers.SparkSpeculate's)
// and a sum in index order over AppendComputed's list give them.
func (s *stageStats) of(d *Decision, k, p int) stragglers.StageStats {
	st := d.Phase(k, p)
	key := stageKey{d.Job(k), p}
	if got, ok := s.cache[key]; ok && got.Finished == st.Computed {
		return got
	}
	out := stragglers.StageStats{Tasks: st.Tasks}
	if ph := d.phase("sim.Decision.AppendComputed", k, p); ph != nil {
		out.Finished, out.Median, out.Mean = s.update(d.e, key, ph)
	}
	if s.cache == nil {
		s.cache = map[stageKey]stragglers.StageStats{}
	}
	s.cache[key] = out
	return out
}

// update brings the phase's heaps and prefix sum to now and returns the
// number of its computed tasks, their median and mean duration.
func (s *stageStats) update(e *engine, key stageKey, ph *phaseState) (n int, median, mean float64) {
	if s.runs == nil {
		s.runs = map[stageKey]*stageRun{}
	}
	r := s.runs[key]
	if r == nil {
		r = &stageRun{settled: ph.lo}
		s.runs[key] = r
	}
	if words := (len(e.ts) + 63) / 64; len(s.added) < words {
		s.added = append(s.added, make([]uint64, words-len(s.added))...)
	}
	sum, prefix := r.sum, true
	for t := r.settled; t < ph.lo+ph.next; t++ {
		ts := &e.ts[t]
		if ts.status != taskWaiting && ts.status != taskDone {
			prefix = false
			continue
		}
		x := ts.due // the winning copy's end − start
		if w, b := t/64, uint64(1)<<(t%64); s.added[w]&b == 0 {
			s.added[w] |= b
			r.push(x)
		}
		sum += x
		if prefix {
			r.sum, r.settled = sum, t+1
		}
	}
	n = len(r.lower) + len(r.upper)
	if n == 0 {
		return 0, 0, 0
	}
	median = r.upper[0] // the (n/2)-th smallest
	if n%2 == 0 {
		lo := -r.lower[0] // the (n/2 − 1)-th
		median = lo + (median-lo)/2
	}
	mean = sum / float64(n)
	if int32(n) == ph.n { // every task computed: the cache answers from now on
		delete(s.runs, key)
	}
	return n, median, mean
}

// push adds a duration to the halves, keeping ⌊n/2⌋ of the n in the lower
// one and every lower element ≤ every upper one. O(log n).
func (r *stageRun) push(x float64) {
	if len(r.lower) > 0 && x <= -r.lower[0] {
		r.lower = heapPush(r.lower, -x)
	} else {
		r.upper = heapPush(r.upper, x)
	}
	half := (len(r.lower) + len(r.upper)) / 2
	for len(r.lower) > half {
		var y float64
		r.lower, y = heapPop(r.lower)
		r.upper = heapPush(r.upper, -y)
	}
	for len(r.lower) < half {
		var y float64
		r.upper, y = heapPop(r.upper)
		r.lower = heapPush(r.lower, -y)
	}
}

// heapPush adds x to the binary min-heap h. O(log n).
func heapPush(h []float64, x float64) []float64 {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !(h[i] < h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
	return h
}

// heapPop removes and returns the least element of the non-empty binary
// min-heap h. O(log n).
func heapPop(h []float64) ([]float64, float64) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h) && h[l] < h[m] {
			m = l
		}
		if l+1 < len(h) && h[l+1] < h[m] {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return h, top
}
