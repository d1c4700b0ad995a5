package overlap

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// Corollary4Instance returns the batch instance of §4.1 on which MaxSRPT's
// approximation ratio 2α/(1+α) (Corollary 4) is tight: n/2 jobs of sizes
// (α−ε, 1) and n/2 jobs of sizes (1, α), all arriving at time 0.
//
// MaxSRPT serves the (α−ε, 1) jobs first (key α−ε < α), for a total response
// time T ~ n²α/2 − 3n²ε/8; the paper's alternative schedule serves each
// (1, α) job followed by an (α−ε, 1) job, T' ~ n²(1+α)/4, so T/T' tends to
// (2α − 3ε/2)/(1+α). Exactly, with m = n/2 (derived in the tests):
// T = (α−ε)m(m+1)/2 + (α−ε)m² + αm(m+1)/2 and T' = (1+α)m² + αm. The jobs are listed in the alternative's order —
// (1, α), (α−ε, 1), (1, α), … — so FIFO, which breaks the ties of a batch by
// index, runs it.
//
// Time: O(n). Special cases: n must be even and ≥ 2, α finite and > 1, and
// 0 < ε < α − 1 (the paper's condition, which keeps α−ε > 1) with α−ε, as
// a float64, strictly between 1 and α (an ε below half an ulp of α is
// refused: the two sizes would tie). For α near the float64 limit Simulate
// refuses the instance (its total work overflows the simulator's horizon).
func Corollary4Instance(n int, alpha, eps float64) ([]Arrival, error) {
	const fn = "overlap.Corollary4Instance"
	if n < 2 || n%2 != 0 {
		return nil, check.Err(fn, check.Scalar, "n", float64(n), "must be even and ≥ 2")
	}
	if !finite(alpha) || !(alpha > 1) {
		return nil, check.Err(fn, check.Scalar, "alpha", alpha, "must be finite and > 1")
	}
	if !(eps > 0 && eps < alpha-1) {
		return nil, check.Err(fn, check.Scalar, "eps", eps, "must be in (0, alpha−1)")
	}
	if a := alpha - eps; !(a > 1 && a < alpha) {
		// eps below half an ulp of alpha: the sizes α−ε and α would be
		// the same float, and MaxSRPT's order of the family lost.
		return nil, check.Err(fn, check.Scalar, "eps", eps, "too small for alpha: alpha−eps rounds to alpha (or to 1)")
	}
	jobs := make([]Arrival, n)
	for i := 0; i < n; i += 2 {
		jobs[i] = Arrival{Map: 1, Shuffle: alpha}
		jobs[i+1] = Arrival{Map: alpha - eps, Shuffle: 1}
	}
	return jobs, nil
}

// Corollary6Instance returns the batch instance of §4.2 on which SplitSRPT's
// approximation ratio 1 + 1/β (Corollary 6) is tight: n−1 jobs of sizes
// (β, 1) and one job of sizes (n−1, (n−1)β), all arriving at time 0.
//
// SplitSRPT (β(t) = β throughout) runs the big job beside the others, for a
// total response time T = (1+β)·n(n−1)/2 + (1+β)(n−1) ~ n²(1+β)/2; the
// paper's alternative runs the (β, 1) jobs one by one and then the big job,
// T' = β·n(n−1)/2 + 2β(n−1) ~ n²β/2, so T/T' tends to 1 + 1/β. The jobs are
// listed in the alternative's order, so FIFO runs it.
//
// Time: O(n). Special cases: n ≥ 2 and β finite and > 1 (at β = 1 all the
// jobs are in SplitSRPT's map-heavy class and the family is not tight).
func Corollary6Instance(n int, beta float64) ([]Arrival, error) {
	const fn = "overlap.Corollary6Instance"
	if n < 2 {
		return nil, check.Err(fn, check.Scalar, "n", float64(n), "must be ≥ 2")
	}
	if !finite(beta) || !(beta > 1) {
		return nil, check.Err(fn, check.Scalar, "beta", beta, "must be finite and > 1")
	}
	if !finite(float64(n-1) * beta) {
		return nil, check.Err(fn, check.Scalar, "beta", beta, "(n−1)·beta overflows")
	}
	jobs := make([]Arrival, n)
	for i := 0; i < n-1; i++ {
		jobs[i] = Arrival{Map: beta, Shuffle: 1}
	}
	jobs[n-1] = Arrival{Map: float64(n - 1), Shuffle: float64(n-1) * beta}
	return jobs, nil
}

// Theorem2Instance returns the adversarial instance of Theorem 2's proof
// (appendix) built against policy, on which any online policy's total
// response time is Ω(n^{1/3}) times that of a better schedule, and the
// branch of the proof (1 or 2) that policy falls in.
//
// With k = ⌊n^{1/3}⌋, k² type-1 jobs of sizes (1, 1/2) (indices 0 … k²−1)
// and k type-2 jobs of sizes (k, 3k/2) arrive at time 0. The policy is run
// at speed 1 until t = k² (an online policy's decisions until then cannot
// depend on later arrivals). Branch 1: it has done at least k²/5 map work on
// type-2 jobs; then k³+1 type-1 jobs arrive at t = k² + j, j = 0 … k³, and
// the policy's total response time exceeds (k²/5 + 1)·k³ while finishing the
// type-1 jobs first costs less than (k²+k)k² + (k+1)k³ + k·3k²/2. Branch 2:
// less; then k³+1 type-2 jobs arrive at t = 2k² + j·3k/2, the policy's total
// exceeds (2k/15 + 1)·3k⁴/2, and serving the type-2 jobs first costs less
// than (k²+k)·2k² + 3k⁴/2. Either way the ratio is Ω(k) = Ω(n^{1/3}).
//
// The instance has k² + k + k³ + 1 jobs (about n). Time: one simulation of
// the k² + k initial jobs up to t = k².
//
// Special cases: n must be in [1, 10⁹] (k ≤ 1000) and policy valid.
func Theorem2Instance(n int, policy Discipline, ws *Workspace) (jobs []Arrival, branch int, err error) {
	const fn = "overlap.Theorem2Instance"
	k, err := theorem2K(fn, n)
	if err != nil {
		return nil, 0, err
	}
	if err := policy.validate(fn); err != nil {
		return nil, 0, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	kf := float64(k)
	batch := make([]Arrival, 0, k*k+k+k*k*k+1)
	for i := 0; i < k*k; i++ {
		batch = append(batch, Arrival{Map: 1, Shuffle: 0.5})
	}
	for i := 0; i < k; i++ {
		batch = append(batch, Arrival{Map: kf, Shuffle: 1.5 * kf})
	}
	horizon := kf * kf
	tab, err := simulateUntil(make([]float64, len(batch)), batch, 1, policy, ws, nil, horizon)
	if err != nil {
		return nil, 0, err
	}
	type2Left := leftFrom(tab, k*k) // type-2 map work left at t = k²
	jobs = batch
	if kf*kf-type2Left >= kf*kf/5 {
		for j := 0; j <= k*k*k; j++ {
			jobs = append(jobs, Arrival{Time: horizon + float64(j), Map: 1, Shuffle: 0.5})
		}
		return jobs, 1, nil
	}
	for j := 0; j <= k*k*k; j++ {
		jobs = append(jobs, Arrival{Time: 2*horizon + float64(j)*1.5*kf, Map: kf, Shuffle: 1.5 * kf})
	}
	return jobs, 2, nil
}

// theorem2K returns Theorem2Instance's k = ⌊n^{1/3}⌋ for n in [1, 10⁹],
// or function fn's error for n outside. O(1). The truncated math.Cbrt is
// exact there: it is exact at every cube m³ ≤ 10⁹ and just below it at
// m³ − 1 (TestTheorem2K checks each, and every n ≤ 10⁵), and between two
// cubes n^{1/3} lies at least 1/(3(m+1)²) ≥ 3·10⁻⁷ from an integer, far
// beyond Cbrt's error of an ulp or so.
func theorem2K(fn string, n int) (int, error) {
	if n < 1 || n > 1e9 {
		return 0, check.Err(fn, check.Scalar, "n", float64(n), "must be in [1, 1e9]")
	}
	return int(math.Cbrt(float64(n))), nil
}

// leftFrom returns the map work left of the jobs present with index ≥ from.
func leftFrom(tab *jobTable, from int) float64 {
	left := 0.0
	for i := range tab.jobs {
		if j := &tab.jobs[i]; j.id >= from {
			left += j.xr * tab.unit
		}
	}
	return left
}
