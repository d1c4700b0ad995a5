package competitive

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
)

// LowerBound returns the lower bound of eq. (18) of Xu et al. (§3.1,
// Theorem 1) on the expected total flowtime Σ_j E[Φ_j] that any scheduler,
// with or without cloning, achieves on a batch of jobs all arriving at time
// 0 on M = machines machines whose service per slot is at most Δ = peak:
//
//	max{ Σ_j (E_j^m + E_j^r)/Δ,  Σ_j (N+1−j)·w_(j)/M },
//
// where w_(1) ≤ … ≤ w_(N) are the jobs' expected works w_j = m_j·E_j^m +
// r_j·E_j^r in increasing order (the order that minimises the sum, eq. 17).
// The first term holds because a task is served at rate at most Δ (eq. 8);
// the second is SRPT on one machine of capacity M (Theorem 1). A phase
// without tasks contributes nothing to a job's E_j^m + E_j^r: the chain of
// eq. 8 runs only through the phases that exist.
//
// Only Tasks and Mean of each phase are read (the bound is on expected
// work); λ and SD play no part.
//
// Complexity: O(n log n) for n jobs (a sort of the works). Allocation-free
// with a reused ws.
//
// Special cases: no jobs, or jobs without tasks, give 0. An error is
// returned for machines < 1 or > 2⁵³, peak < 1, NaN or ±Inf (the service
// has mean 1, so its peak is ≥ 1), an invalid job (see EffectiveWorkload)
// and a bound that overflows float64.
func LowerBound(jobs []Job, machines int, peak float64, ws *Workspace) (float64, error) {
	const fn = "competitive.LowerBound"
	if machines < 1 || machines > maxCount {
		return 0, check.Err(fn, check.Scalar, "machines", float64(machines), "must lie in [1, 2^53]")
	}
	if err := checkPeak(fn, "peak", peak); err != nil {
		return 0, err
	}
	if err := checkJobs(fn, jobs, 0, false); err != nil {
		return 0, err
	}
	ws = orNew(ws)
	works := floats(ws.load, len(jobs))
	ws.load = works
	var chain, srpt hugeSum
	for j := range jobs {
		job := &jobs[j]
		works[j] = job.total(0)
		if job.Map.Tasks > 0 {
			chain.add(1, job.Map.Mean)
		}
		if job.Reduce.Tasks > 0 {
			chain.add(1, job.Reduce.Mean)
		}
	}
	slices.Sort(works)
	n := len(works)
	for j, w := range works {
		srpt.add(float64(n-j), w) // (N+1−j)·w_(j) with 1-based j
	}
	bound := max(chain.over(peak), srpt.over(float64(machines)))
	if math.IsInf(bound, 0) {
		return 0, check.Err(fn, check.Scalar, "lower bound", bound, "overflows float64")
	}
	return bound, nil
}

// SEWBound writes to dst, for every job, the flowtime bound of Theorem 2
// of Xu et al. (§3.3, eq. 23) for SEW:
//
//	Φ_j ≤ E_j^m + E_j^r + λσ_j^m + λσ_j^r + 2·A_j/M,   A_j = Σ_{i: Υ_i ≤ Υ_j} Υ_i (eq. 20),
//
// which Theorem 2 says holds with probability at least SEWConfidence(λ).
// Ties count in full (Υ_i ≤ Υ_j, whatever the order SEW breaks them in), as
// in eq. 20. A phase without tasks contributes no E + λσ term. The proof
// takes map and reduce groups of M/2 machines each, so the bound is the
// paper's for even M; with odd M SEW's reduce group has only ⌊M/2⌋
// machines. See SEW for the condition under which the proof's busy-period
// argument holds.
//
// Complexity: O(n log n) for n jobs (a sort by Υ_j). Allocation-free with
// a dst of capacity n and a reused ws.
//
// Special cases: no jobs gives an empty result; a job without tasks gets
// 0. An error, with dst untouched, is returned for machines < 1 or > 2⁵³,
// λ < 0, NaN or ±Inf, an invalid job (see EffectiveWorkload), a bound
// that overflows float64, and a dst that overlaps jobs or a job's Running.
func SEWBound(dst []float64, jobs []Job, machines int, lambda float64, ws *Workspace) ([]float64, error) {
	const fn = "competitive.SEWBound"
	if machines < 1 || machines > maxCount {
		return nil, check.Err(fn, check.Scalar, "machines", float64(machines), "must lie in [1, 2^53]")
	}
	if err := checkJobs(fn, jobs, lambda, false); err != nil {
		return nil, err
	}
	if err := disjointJobs(fn, dst, len(jobs), jobs); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	n := len(jobs)
	load := floats(ws.load, n)
	ws.load = load
	ws.order = ints(ws.order, n)
	for j := range jobs {
		load[j] = jobs[j].total(lambda)
		ws.order[j] = j
	}
	sortByLoad(ws.order, load)
	// The bounds go to ws.shares first: dst stays untouched if one
	// overflows. A_j may pass MaxFloat64 while 2·A_j/M does not.
	bounds := floats(ws.shares, n)
	ws.shares = bounds
	m := float64(machines)
	var prefix hugeSum
	for k := 0; k < n; {
		// A tie group shares A_j: the sum through its last member.
		e := k
		for e < n && load[ws.order[e]] == load[ws.order[k]] {
			prefix.add(1, load[ws.order[e]])
			e++
		}
		for _, j := range ws.order[k:e] {
			b := 0.0
			if job := &jobs[j]; job.Map.Tasks+job.Reduce.Tasks > 0 {
				if job.Map.Tasks > 0 {
					b += job.Map.perTask(lambda)
				}
				if job.Reduce.Tasks > 0 {
					b += job.Reduce.perTask(lambda)
				}
				b += 2 * prefix.over(m)
			}
			if math.IsInf(b, 0) {
				return nil, check.Err(fn, j, "effective workload", load[j], "its bound overflows float64")
			}
			bounds[j] = b
		}
		k = e
	}
	dst = slices.Grow(dst[:0], n)[:n]
	copy(dst, bounds)
	return dst, nil
}

// hugeSum accumulates non-negative finite terms k·x whose sum may pass
// MaxFloat64 although the quotient the bounds need does not: plain
// float64 sums, rounded as a loop of += would, until a term or the sum
// would overflow; from then on the sum is kept scaled by 2⁻⁶⁴, where the
// terms lost to underflow are below 2⁻¹⁰⁷⁴ against a sum above 2⁹⁶⁰.
type hugeSum struct {
	v      float64
	scaled bool
}

// hugeScale is the scale of a hugeSum past MaxFloat64.
const hugeScale = 0x1p-64

// add adds k·x (k ≥ 1 an exact count, x ≥ 0 finite).
func (s *hugeSum) add(k, x float64) {
	if !s.scaled {
		if t := s.v + k*x; t <= math.MaxFloat64 {
			s.v = t
			return
		}
		s.v, s.scaled = s.v*hugeScale, true
	}
	s.v += k * (x * hugeScale)
}

// over returns the sum divided by d ≥ 1: +Inf only when the quotient
// overflows.
func (s *hugeSum) over(d float64) float64 {
	if s.scaled {
		return s.v / d / hugeScale
	}
	return s.v / d
}

// SEWConfidence returns the probability λ⁸/(1+λ²)⁴ with which Theorem 2
// of Xu et al. guarantees SEW's per-job bound (SEWBound). It is the
// product of four one-sided Chebyshev (Cantelli) bounds λ²/(1+λ²): the map
// and reduce busy periods (Lemmas 1–2) and the map and reduce work totals.
// It is computed as (λ²/(1+λ²))⁴ = (1 + λ⁻²)⁻⁴, which neither overflows nor
// loses precision for large λ.
//
// Complexity: O(1).
//
// Special cases: λ = 0 gives 0, λ = 1 gives 1/16, and the probability
// tends to 1 as λ → ∞ (+Inf is rejected). An error is returned for λ < 0,
// NaN or ±Inf.
func SEWConfidence(lambda float64) (float64, error) {
	const fn = "competitive.SEWConfidence"
	if err := checkLambda(fn, lambda); err != nil {
		return 0, err
	}
	if lambda == 0 {
		return 0, nil
	}
	p := 1 / (1 + 1/(lambda*lambda))
	p *= p
	return p * p, nil
}

// SEWRatio returns Δ + 2, SEW's competitive ratio for the expected total
// flowtime (Theorem 3 of Xu et al., §3.3) with λ = 0 on machines whose
// service per slot peaks at Δ = peak: Σ_j E[Φ_j] ≤ (Δ+2)·OPT. With Δ = 1
// (no machine variability) it is 3, a deterministic bound against
// LowerBound. See SEW for the instances on which the proof holds.
//
// Complexity: O(1).
//
// Special cases: an error is returned for peak < 1, NaN or ±Inf.
func SEWRatio(peak float64) (float64, error) {
	if err := checkPeak("competitive.SEWRatio", "peak", peak); err != nil {
		return 0, err
	}
	return peak + 2, nil
}

// SREWCSpeed returns the speed 1 + 2β + ε under which Theorem 4 of Xu et
// al. (§4.2) makes SREW+C(β) O(1/(βε))-competitive for the total flowtime.
//
// Complexity: O(1).
//
// Special cases: errors as for SREWCRatio (β in (0, 1/2], ε > 0 finite).
func SREWCSpeed(beta, eps float64) (float64, error) {
	if err := checkTheorem4("competitive.SREWCSpeed", beta, eps); err != nil {
		return 0, err
	}
	return 1 + 2*beta + eps, nil
}

// SREWCRatio returns the constant of Theorem 4 of Xu et al. (§4.3,
// eq. 48): with speed δ = 1 + 2β + ε, λ = 0, preemption and checkpointing,
// SREW+C(β)'s total flowtime is at most
//
//	2·(M + δ + M·Δ)/(β·ε) · OPT
//
// on M = machines machines whose service peaks at Δ = peak.
//
// Domain. The theorem assumes β < min{M/N, 1/2} for N jobs. Its last step
// needs δ(1−β) − 1 ≥ ε/2, and δ(1−β) − 1 = β(1−2β) + ε(1−β), which is
// ≥ ε/2 exactly when β ≤ 1/2; so β = 1/2 is allowed here. β < M/N (every
// served job gets at least one machine) depends on the instance and is the
// caller's to check.
//
// Complexity: O(1).
//
// Special cases: an error is returned for machines < 1 or > 2⁵³, β outside
// (0, 1/2] or NaN, ε ≤ 0, NaN or ±Inf, peak < 1, NaN or ±Inf, and a
// constant that overflows float64 (β·ε tiny).
func SREWCRatio(machines int, beta, eps, peak float64) (float64, error) {
	const fn = "competitive.SREWCRatio"
	if machines < 1 || machines > maxCount {
		return 0, check.Err(fn, check.Scalar, "machines", float64(machines), "must lie in [1, 2^53]")
	}
	if err := checkTheorem4(fn, beta, eps); err != nil {
		return 0, err
	}
	if err := checkPeak(fn, "peak", peak); err != nil {
		return 0, err
	}
	m := float64(machines)
	delta := 1 + 2*beta + eps
	c := 2 * (m + delta + m*peak) / (beta * eps)
	if math.IsInf(c, 0) {
		// The numerator or β·ε may have left float64's range on its own:
		// the same constant as (2/β)·((M + 1 + 2β)/ε + 1 + M·(Δ/ε)), whose
		// terms are ≥ 1 and each at most c/4 (β ≤ 1/2), so it overflows
		// only when c does.
		c = 2 / beta * ((m+1+2*beta)/eps + 1 + m*(peak/eps))
	}
	if math.IsInf(c, 0) {
		return 0, check.Err(fn, check.Scalar, "ratio", c, "overflows float64 (β·ε too small for M and peak)")
	}
	return c, nil
}

func checkTheorem4(fn string, beta, eps float64) error {
	if !(beta > 0 && beta <= 0.5) {
		return check.Err(fn, check.Scalar, "beta", beta, "must lie in (0, 1/2] (Theorem 4)")
	}
	return check.Positive(fn, check.Scalar, "eps", eps)
}

func checkPeak(fn, field string, peak float64) error {
	if !(peak >= 1) || math.IsInf(peak, 1) {
		return check.Err(fn, check.Scalar, field, peak, "must be finite and ≥ 1")
	}
	return nil
}
