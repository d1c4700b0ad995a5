package dagkernel

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
)

// Job is the snapshot of one DAG job that Algorithm 3 needs.
type Job struct {
	// Remaining is T_i, the number of tasks remaining in the job's running
	// (upstream) phase. A job with Remaining = 0 has nothing to run and gets
	// no slots.
	Remaining float64

	// Downstream is T'_i, the communication work remaining in the
	// downstream phase that reads the running phase's output, in the same
	// units as Remaining (the thesis uses the data remaining to be read,
	// expressed in tasks). It only orders the jobs: by max{T_i, T'_i}.
	Downstream float64

	// Alpha is α_i > 0, the ratio of downstream to upstream work
	// (dag.EstimateAlpha). Use 1 for a job without a pipelined downstream
	// phase: with every α equal, Algorithm 3 is Algorithm 1.
	Alpha float64
}

// Workspace is the kernel's scratch memory. The zero value is ready; one
// call at a time may use it.
type Workspace struct {
	sel       selection.Workspace        // apportionment scratch (and its Shares)
	recs      []record                   // the active jobs, in index order
	scratch   selection.Scratch[record]  // the search's candidates
	hist      []selection.Bucket[prefix] // and its histogram
	keys      []float64                  // apportionment priorities: max{T, T'}
	alphaKeys []float64                  // and −α, the tie-break of Algorithm 3's order
}

// Prepared describes a recorded snapshot: the range of the active jobs'
// keys, which the search starts from, and the scaled problem it solves.
type Prepared struct {
	lo, hi uint64 // smallest and largest key of an active job
	sc     scale  // the scaled problem, for S > 0
	safe   bool   // every Ṽ_i was computed without intermediate rounding
}

// PrepareChecked is Prepare for jobs whose fields the caller has not yet
// tested (slots and β it has): in the same pass it finds the first job
// with T_i or T'_i not finite and ≥ 0 or α_i not finite and > 0, and
// returns its index (the snapshot then only partly recorded), or −1 with
// the snapshot recorded as Prepare records it. dag's validation names the
// job's field from that index. O(n).
//
// Its loop is Prepare's with the tests added, written twice on purpose:
// one loop with a flag for the tests, or a test pass before Prepare's,
// measured 15–20% and 3–5% slower on dag.Allocate at n = 10 000 (CPU
// time of interleaved runs), where this loop is the validation's cost.
func (ws *Workspace) PrepareChecked(jobs []Job, slots, beta float64) (Prepared, int) {
	sc := newScale(hopper.Factor(beta), slots)
	cs := sc.cs
	lo, hi := uint64(math.MaxUint64), uint64(0)
	loX, hiX := math.Inf(1), 0.0
	ws.recs = slices.Grow(ws.recs[:0], len(jobs))
	for i := range jobs {
		j := &jobs[i]
		// One comparison chain per field catches NaN, ±Inf and negatives.
		if !(j.Remaining >= 0 && j.Remaining <= math.MaxFloat64) {
			return Prepared{}, i
		}
		if !(j.Downstream >= 0 && j.Downstream <= math.MaxFloat64) {
			return Prepared{}, i
		}
		if !(j.Alpha > 0 && j.Alpha <= math.MaxFloat64) {
			return Prepared{}, i
		}
		if j.Remaining == 0 {
			continue
		}
		x := j.Remaining * math.Sqrt(j.Alpha)
		if x < loX {
			loX = x
		}
		if x > hiX {
			hiX = x
		}
		key := j.Remaining
		if j.Downstream > key {
			key = j.Downstream
		}
		k := math.Float64bits(key)
		lo, hi = min(lo, k), max(hi, k)
		ws.recs = append(ws.recs, record{key: key, alpha: j.Alpha, v: x * cs, idx: i})
	}
	return Prepared{lo: lo, hi: hi, sc: sc, safe: sc.fast && loX >= minNormal && hiX <= math.MaxFloat64}, -1
}

// Prepare records the active jobs (T_i > 0) of jobs, in index order, for
// S = slots and β = beta, without checking them: every T_i and T'_i finite
// and ≥ 0, every α_i finite and > 0, slots finite and ≥ 0, β finite and
// > 1 (the simulator's validated state, or PrepareChecked's test). For
// S > 0 it computes each Ṽ_i as (T_i·√α_i)·c·2^k and reports the snapshot
// safe when every T_i·√α_i is a normal number and c·2^k is one: then no
// Ṽ_i was rounded before its own result, and Allocate need not recompute
// it (scale.go). O(n).
func (ws *Workspace) Prepare(jobs []Job, slots, beta float64) Prepared {
	sc := newScale(hopper.Factor(beta), slots)
	cs := sc.cs
	// Locals, not fields of a struct, so that the loop keeps them in
	// registers.
	lo, hi := uint64(math.MaxUint64), uint64(0) // the range of the keys
	loX, hiX := math.Inf(1), 0.0                // the least and largest T_i·√α_i
	ws.recs = slices.Grow(ws.recs[:0], len(jobs))
	for i := range jobs {
		j := &jobs[i]
		if j.Remaining == 0 {
			continue
		}
		// Plain comparisons, valid without NaN, are cheaper than min/max.
		x := j.Remaining * math.Sqrt(j.Alpha)
		if x < loX {
			loX = x
		}
		if x > hiX {
			hiX = x
		}
		key := j.Remaining // > 0 here, so never -0
		if j.Downstream > key {
			key = j.Downstream
		}
		k := math.Float64bits(key)
		lo, hi = min(lo, k), max(hi, k)
		ws.recs = append(ws.recs, record{key: key, alpha: j.Alpha, v: x * cs, idx: i})
	}
	return Prepared{lo: lo, hi: hi, sc: sc, safe: sc.fast && loX >= minNormal && hiX <= math.MaxFloat64}
}

// Slots is the integer form of Allocate (dag.AllocateSlots, whose doc
// comment gives the rounding's guarantees): the real shares for S =
// slots, apportioned by largest remainder with equal remainders in
// Algorithm 3's order — the smaller max{T_i, T'_i}, then the larger α_i,
// then the smaller index; all 0 when no job has work. On Allocate's
// precondition, with dst of len(jobs) ints and 0 ≤ slots ≤ 2^53. O(n).
func (ws *Workspace) Slots(dst []int, jobs []Job, slots int, p *Prepared) {
	n := len(jobs)
	shares := selection.Shares(&ws.sel, n)
	ws.Allocate(shares, jobs, float64(slots), p)
	// Equal remainders go in Algorithm 3's order: smaller max{T, T'} first,
	// then the larger α, then the smaller index.
	ws.keys = slices.Grow(ws.keys[:0], n)[:n]
	ws.alphaKeys = slices.Grow(ws.alphaKeys[:0], n)[:n]
	for i, j := range jobs {
		ws.keys[i] = max(j.Remaining, j.Downstream)
		ws.alphaKeys[i] = -j.Alpha
	}
	// With no job at work every share is 0 and the apportionment gives
	// nothing, so the result sums to 0.
	selection.ApportionBy(&ws.sel, dst, shares, slots, ws.keys, ws.alphaKeys)
}

// Allocate is Algorithm 3 of the thesis (§4.1; dag.Allocate, whose doc
// comment gives the cases, the reading of the garbled parts, the special
// cases and the O(n) cost) on the snapshot ws has recorded (Prepare), writing every job's
// real-valued slots to dst.
//
// Precondition (what the caller has validated): jobs is the snapshot
// recorded with p, every T_i and T'_i finite and ≥ 0 and every α_i finite
// and > 0; slots finite and ≥ 0, the S p was prepared for; dst has
// len(jobs) elements and does not overlap jobs.
func (ws *Workspace) Allocate(dst []float64, jobs []Job, slots float64, p *Prepared) {
	clear(dst)
	if len(ws.recs) == 0 || slots == 0 {
		return
	}
	sc := &p.sc
	if !p.safe {
		// Each Ṽ_i without intermediate underflow or overflow: scale.go.
		for i := range ws.recs {
			r := &ws.recs[i]
			r.v = sc.virtual(jobs[r.idx].Remaining, r.alpha)
		}
	}
	cut := ws.search(sc, p.lo, p.hi)
	last := cut.at // J_m, the last job that gets slots
	if cut.incl.count < 2 {
		dst[last.idx] = slots // case 1
		return
	}
	if cut.incl.sumV/math.Sqrt(cut.incl.minAlpha) < sc.slots {
		// Cases 3 and 4: V_i/ΣV_j·S among the served jobs J_1…J_m.
		ws.proportional(dst, jobs, &last, slots)
		return
	}

	// Case 2 with k+1 = m: targets t_i = V_i/√α_min^(m), in the order that
	// serves J_m second to last and J_kmin last. Every served job other than
	// J_m and J_kmin fits (S exceeds the targets of J_1…J_{m-1}); J_m gets
	// what is left after them, up to its target, and J_kmin the rest.
	minAlpha := cut.incl.minAlpha
	tg := sc.targets(minAlpha)
	kmin := last       // the last served job of least weight
	var others float64 // Σ t_i over served jobs other than J_m
	for i := range ws.recs {
		r := &ws.recs[i]
		if r.idx == last.idx || !r.upTo(&last) {
			continue // J_m itself, or not served
		}
		t := tg.of(r, jobs)
		dst[r.idx] = t
		others += t
		if r.alpha == minAlpha && last.alpha != minAlpha &&
			(kmin.idx == last.idx || kmin.upTo(r)) {
			kmin = *r
		}
	}
	if kmin.idx == last.idx {
		dst[last.idx] = max(0, slots-others)
		return
	}
	left := max(0, slots-(others-dst[kmin.idx]))
	dst[last.idx] = min(tg.of(&last, jobs), left)
	dst[kmin.idx] = left - dst[last.idx]
}

// proportional writes S·V_i/ΣV_j to the served jobs (those up to last in
// the order), V_i ∝ T_i·√α_i. From the scaled Ṽ_i when every Ṽ_i and
// every Ṽ_i/ΣṼ is a normal number (then each is exact to a few ulps);
// otherwise with T_i·w_i = f_i·2^e_i kept as mantissa and exponent, scaled
// by the largest exponent before summing, and S·f_i/Σ applied before the
// exponent, so that no share is rounded to 0 or to a subnormal before the
// result is.
func (ws *Workspace) proportional(dst []float64, jobs []Job, last *record, slots float64) {
	var total float64
	minV := math.Inf(1)
	for i := range ws.recs {
		if r := &ws.recs[i]; r.upTo(last) {
			total += r.v
			if r.v < minV {
				minV = r.v
			}
		}
	}
	if minV >= minNormal && minV/total >= minNormal {
		for i := range ws.recs {
			if r := &ws.recs[i]; r.upTo(last) {
				dst[r.idx] = r.v / total * slots
			}
		}
		return
	}
	// The exponents apart: f_i ∈ [0.25, 1), e_i the sum of T_i's and w_i's.
	split := func(r *record) (float64, int) {
		ft, et := math.Frexp(jobs[r.idx].Remaining)
		fw, ew := math.Frexp(math.Sqrt(r.alpha))
		return ft * fw, et + ew
	}
	top := math.MinInt
	for i := range ws.recs {
		if r := &ws.recs[i]; r.upTo(last) {
			_, e := split(r)
			top = max(top, e)
		}
	}
	var sum float64 // Σ f_i·2^(e_i − top) ∈ [0.25, n)
	for i := range ws.recs {
		if r := &ws.recs[i]; r.upTo(last) {
			f, e := split(r)
			sum += math.Ldexp(f, e-top)
		}
	}
	fs, es := math.Frexp(slots)
	for i := range ws.recs {
		if r := &ws.recs[i]; r.upTo(last) {
			f, e := split(r)
			dst[r.idx] = math.Ldexp(f*fs/sum, e-top+es)
		}
	}
}
