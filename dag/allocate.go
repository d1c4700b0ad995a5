package dag

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
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
	// (EstimateAlpha). Use 1 for a job without a pipelined downstream
	// phase: with every α equal, Algorithm 3 is Algorithm 1.
	Alpha float64
}

// Allocate computes Hopper's allocation for DAG jobs, Algorithm 3 of the
// thesis (§4.1), writing every job's real-valued slots to dst.
//
// Jobs with T_i > 0 are ordered by max{T_i, T'_i} ascending (MaxSRPT), ties
// by α_i descending, then by input index; J_1, …, J_n is that order.
// V_i = (2/β)·T_i·√α_i is the virtual size, α_min^(k) = min{α_1, …, α_k},
// and t_i^(k) = V_i/√α_min^(k) = (2/β)·T_i·√(α_i/α_min^(k)) is the
// speculation target of job i when the first k jobs run. With S slots:
//
//  1. S ≤ t_1^(2): S_1 = S, every other job 0.
//  2. Σ_{i≤k} t_i^(k+1) < S ≤ Σ_{i≤k+1} t_i^(k+1) for some k < n: jobs
//     1, …, k+1 get t_i^(k+1) in the order 1, …, k_min−1, k_min+1, …, k+1,
//     k_min until the slots run out; later jobs get 0.
//  3. Σ_{i≤k+1} t_i^(k+1) < S ≤ Σ_{i≤k+1} t_i^(k+2) for some k < n−1: jobs
//     1, …, k+1 share S in proportion to V_i; later jobs get 0.
//  4. S > Σ_{i≤n} t_i^(n): every job gets V_i/ΣV_j·S.
//
// The boundaries chain: case 1 ends where case 2 with k = 1 begins, case
// 2 with k ends where case 3 with k begins, case 3 with k ends where case 2
// with k+1 begins, and case 2 with k = n−1 ends where case 4 begins; so
// exactly one case applies to every S ≥ 0. Let m be the smallest number of
// jobs with S ≤ Σ_{i≤m} V_i/√α_min^(m+1) (m = n if there is none): the
// first m jobs get slots, and the case is 2 (with k+1 = m) when m ≥ 2 and
// S ≤ Σ_{i≤m} t_i^(m), and otherwise the proportional share among the first
// m jobs (case 1 for m = 1, case 3 for 1 < m < n, case 4 for m = n).
//
// Reading of the garbled parts of the thesis. The paper defines J_kmin as
// the job of least weight "in the first k jobs" but lists k+1 separately in
// case 2's order. Here k_min is the job of least weight among the k+1 jobs
// of case 2, and among several with that weight the last in the order. The
// derivation: maximising the α-weighted throughput Σα_i·μ_i over the k+1
// running jobs (μ_i of eq. 3.3, slope β²/(4(β−1)) up to (2/β)·T_i, then
// T_i²/((β−1)·S_i²)) has a Lagrange multiplier λ = α_min^(k+1)·β²/(4(β−1))
// throughout case 2: a job of weight α_i > α_min sits where its marginal
// α_i·T_i²/((β−1)·S_i²) equals λ, at S_i = t_i^(k+1), while a job of the
// least weight is on its linear part, where any S_i ∈ [0, (2/β)·T_i] is
// optimal — it is the one that absorbs the remainder, so it is served last.
// If k_min were restricted to the first k jobs, a new job k+1 of strictly
// least weight would be filled before an earlier, heavier one, against the
// same multiplier; and with all α equal, only "the last job of least weight
// among k+1" makes case 2 the fill of Algorithm 1 (job k+1 partial).
//
// Consequences, tested: with every α equal and T'_i ≤ T_i this is exactly
// Algorithm 1 (alloc.Allocate), up to floating-point summation order. Case
// 4 maximises Σα_i·μ_i over all allocations (KKT: every job is past its
// virtual size with marginal α_i·T_i²/((β−1)·S_i²) equal across jobs, and
// that marginal is at most α_min·β²/(4(β−1)) exactly when S ≥ Σ t_i^(n)).
// Each S_i is continuous and non-decreasing in S within every case, and
// across every boundary when α is non-increasing along the order (in
// particular within a group of equal max{T, T'}, which the tie rule orders
// that way). It is not continuous across the start of case 2 when job k+1
// is heavier than an earlier job: at that boundary the literal order hands
// the earlier light job's slots to job k+1 (the throughput-optimal choice
// among the k+1 jobs, which the MaxSRPT order withheld from job k+1 before
// it was admitted). Example: T = (1, 1), T' = (0, 2), α = (1, 4), β = 1.5:
// case 1 gives job 1 all of S ≤ 4/3; just above 4/3, case 2 serves job 2
// first and job 1 drops to 0 until S exceeds 8/3.
//
// Complexity: O(n) time. The number of served jobs m is the first prefix of
// the order at which a monotone predicate holds; a radix selection over
// max{T, T'} (then α, then the index) finds it without sorting, and two
// passes in index order write the slots. With a dst of capacity n and a
// reused ws, Allocate allocates nothing.
//
// Magnitudes: every finite T_i, T'_i and S ≥ 0 and every finite α_i > 0 is
// accepted, from subnormals to math.MaxFloat64. The cut-off is found on the
// instance rescaled by a power of two that puts S in [1, 2), where neither
// a sum that overflows nor a size that underflows can change a comparison;
// the slots are computed in the caller's units, every share to a few ulps
// (a share far below S, or of a subnormal T_i, included) unless it is
// itself subnormal. Sums such as ΣT_i or ΣV_i may exceed float64: they are
// never formed where that could change the answer.
//
// Special cases: no jobs gives an empty result. Jobs with T_i = 0 get 0 and
// do not take part in the order (their α does not count in α_min). If every
// T_i is 0, or S = 0, every job gets 0; otherwise ΣS_i = S up to rounding.
// β ≥ 2 means no speculation: V_i = T_i·√α_i. An error, with dst untouched,
// is returned for β ≤ 1, NaN or ±Inf; for S < 0, NaN or ±Inf; for a T_i or
// T'_i that is negative, NaN or ±Inf, or an α_i that is not a finite number
// > 0, naming the job; and when dst would be reused (its capacity holds
// len(jobs)) and overlaps jobs: dst must not overlap jobs.
func Allocate(dst []float64, jobs []Job, slots, beta float64, ws *Workspace) ([]float64, error) {
	const fn = "dag.Allocate"
	// Validation, then the kernel: the shape stragglers.Allocate shares on
	// purpose (each package validates its own inputs and names itself).
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	p, err := ws.prepare(fn, jobs, slots, beta)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(jobs))[:len(jobs)]
	ws.allocate(dst, jobs, slots, &p)
	return dst, nil
}

// AllocateSlots is the integer form of Algorithm 3 (see Allocate): the
// real-valued allocation for S = slots, rounded by alloc's apportionment
// (largest remainder), with equal remainders going in Algorithm 3's own
// order: the smaller max{T_i, T'_i}, then the larger α_i, then the smaller
// index. The result sums
// to exactly slots whenever some job has work (to 0 otherwise), and every
// job is within one slot of its real-valued share: a job the real-valued
// algorithm gives nothing gets nothing. (Near 2^53 the real-valued shares
// are themselves rounded by up to (n+4)·2^−53·slots in all, a few units,
// and their floors may sum past slots; the apportionment then takes the
// excess back by rank — the lowest-ranked units first, whichever job holds
// them — so a job is within one slot of its share plus that rounding.)
//
// Complexity: O(n) time; allocation-free with a dst of capacity n and a
// reused ws. Errors are those of Allocate, with slots < 0 or
// > alloc.MaxTotal (2^53) rejected; dst must not overlap jobs.
func AllocateSlots(dst []int, jobs []Job, slots int, beta float64, ws *Workspace) ([]int, error) {
	const fn = "dag.AllocateSlots"
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	p, err := ws.prepare(fn, jobs, float64(slots), beta)
	if err != nil {
		return nil, err
	}
	n := len(jobs)
	shares := selection.Shares(&ws.sel, n)
	ws.allocate(shares, jobs, float64(slots), &p)
	// Equal remainders go in Algorithm 3's order: smaller max{T, T'} first,
	// then the larger α, then the smaller index.
	ws.keys = slices.Grow(ws.keys[:0], n)[:n]
	ws.alphaKeys = slices.Grow(ws.alphaKeys[:0], n)[:n]
	for i, j := range jobs {
		ws.keys[i] = max(j.Remaining, j.Downstream)
		ws.alphaKeys[i] = -j.Alpha
	}
	dst = slices.Grow(dst[:0], n)[:n]
	// With no job at work every share is 0 and the apportionment gives
	// nothing, so the result sums to 0.
	selection.ApportionBy(&ws.sel, dst, shares, slots, ws.keys, ws.alphaKeys)
	return dst, nil
}

// prepared describes a validated snapshot: the range of the active jobs'
// keys, which the search starts from, and the scaled problem it solves.
type prepared struct {
	lo, hi uint64 // smallest and largest key of an active job
	sc     scale  // the scaled problem, for S > 0
	safe   bool   // every Ṽ_i was computed without intermediate rounding
}

// prepare validates the arguments of Algorithm 3 and, in the same pass,
// records the active jobs (T_i > 0) in ws.recs, in index order. For S > 0
// it computes each Ṽ_i as (T_i·√α_i)·c·2^k and reports the snapshot safe
// when every T_i·√α_i is a normal number and c·2^k is one: then no Ṽ_i
// was rounded before its own result, and allocate need not recompute it
// (scale.go).
func (ws *Workspace) prepare(fn string, jobs []Job, slots, beta float64) (prepared, error) {
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return prepared{}, err
	}
	c := hopper.Factor(beta)
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return prepared{}, err
	}
	sc := newScale(c, slots)
	cs := sc.cs
	// Locals, not fields of a struct, so that the loop keeps them in
	// registers.
	lo, hi := uint64(math.MaxUint64), uint64(0) // the range of the keys
	loX, hiX := math.Inf(1), 0.0                // the least and largest T_i·√α_i
	ws.recs = slices.Grow(ws.recs[:0], len(jobs))
	for i := range jobs {
		j := &jobs[i]
		// One comparison chain per field catches NaN, ±Inf and negatives.
		if !(j.Remaining >= 0 && j.Remaining <= math.MaxFloat64) {
			return prepared{}, check.NonNegative(fn, i, "Remaining", j.Remaining)
		}
		if !(j.Downstream >= 0 && j.Downstream <= math.MaxFloat64) {
			return prepared{}, check.NonNegative(fn, i, "Downstream", j.Downstream)
		}
		if !(j.Alpha > 0 && j.Alpha <= math.MaxFloat64) {
			return prepared{}, check.Positive(fn, i, "Alpha", j.Alpha)
		}
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
	p := prepared{lo: lo, hi: hi, sc: sc}
	p.safe = sc.fast && loX >= minNormal && hiX <= math.MaxFloat64
	return p, nil
}

// allocate is Algorithm 3 on a prepared snapshot; dst has one element per
// job.
func (ws *Workspace) allocate(dst []float64, jobs []Job, slots float64, p *prepared) {
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
