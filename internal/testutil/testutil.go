// Package testutil holds what the property tests of several packages share:
// snapshot generators, an independent statement of Hopper's throughput model,
// and a KKT optimality certificate. Only tests import it.
package testutil

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// Snapshot is one input of a Hopper-style allocation.
type Snapshot struct {
	Remaining []float64
	Slots     float64
	Beta      float64
}

// Factor is the optimal speculation level 2/β of eq. 3.2 (1 for β ≥ 2).
func Factor(beta float64) float64 {
	if beta >= 2 {
		return 1
	}
	return 2 / beta
}

// SnapshotGen draws snapshots that reach every case of the algorithms: ties
// in small integer task counts, finished jobs (T = 0), continuous sizes,
// wide ranges; β on both sides of 2; slots below, at and above ΣV, or
// integral.
func SnapshotGen(maxJobs int) *rapid.Generator[Snapshot] {
	return rapid.Custom(func(t *rapid.T) Snapshot {
		n := rapid.IntRange(0, maxJobs).Draw(t, "n")
		kind := rapid.IntRange(0, 2).Draw(t, "kind")
		remaining := make([]float64, n)
		for i := range remaining {
			switch kind {
			case 0: // task counts with many ties and finished jobs
				remaining[i] = float64(rapid.IntRange(0, 12).Draw(t, "T"))
			case 1: // continuous remaining work
				remaining[i] = rapid.Float64Range(0, 1000).Draw(t, "T")
			default: // sparse and wide
				if rapid.Bool().Draw(t, "finished") {
					remaining[i] = 0
				} else {
					remaining[i] = float64(rapid.IntRange(1, 1_000_000).Draw(t, "T"))
				}
			}
		}
		beta := rapid.OneOf(rapid.Float64Range(1.01, 1.99), rapid.Float64Range(2, 6), rapid.Just(1.5)).Draw(t, "beta")
		var total float64
		for _, r := range remaining {
			total += Factor(beta) * r
		}
		var slots float64
		switch rapid.IntRange(0, 3).Draw(t, "slotsKind") {
		case 0:
			slots = rapid.Float64Range(0, 2.5).Draw(t, "slotsPerVirtualTotal") * total
		case 1:
			slots = total // the boundary between the two cases
		case 2:
			slots = float64(rapid.IntRange(0, 200).Draw(t, "slotsInt"))
		default:
			slots = rapid.Float64Range(0, 1e6).Draw(t, "slotsAny")
		}
		return Snapshot{Remaining: remaining, Slots: slots, Beta: beta}
	})
}

// VirtualTotal is the total virtual size ΣV_i = Σ Factor(β)·T_i, summed in
// index order: the scale the tests and benchmarks place S on.
func VirtualTotal(remaining []float64, beta float64) float64 {
	c := Factor(beta)
	var total float64
	for _, r := range remaining {
		total += c * r
	}
	return total
}

// Throughput is μ_i(S_i) computed from eq. 3.1 — min(S_i, T·k)·E[τ]/(k·E[min
// of k copies]) — with the level k of eq. 3.2 and the Pareto order statistic
// E[min of k Pareto(x_m, β)] = kβx_m/(kβ−1). It does not use the closed
// form of eq. 3.3, so it checks it. For β ≥ 2 it is min(S_i, T).
func Throughput(remaining, slots, beta float64) float64 {
	if remaining == 0 {
		return 0
	}
	if beta >= 2 {
		return min(slots, remaining)
	}
	k := 2 / beta
	if slots > k*remaining {
		k = slots / remaining
	}
	return min(slots, remaining*k) * (k*beta - 1) / (k * k * (beta - 1))
}

// Total is Σ Throughput.
func Total(remaining, slots []float64, beta float64) float64 {
	var sum float64
	for i, r := range remaining {
		sum += Throughput(r, slots[i], beta)
	}
	return sum
}

// Marginals returns the left and right derivatives of μ_i at S_i: the slope
// β²/(4(β−1)) below the virtual size, T²/((β−1)S²) above it; for β ≥ 2, 1
// below T and 0 above. The left derivative at S_i = 0 is +Inf (no slot can
// be taken away).
func Marginals(remaining, slots, beta float64) (left, right float64) {
	if remaining == 0 {
		return 0, 0
	}
	if beta >= 2 {
		left, right = 1, 1
		if slots > remaining {
			left = 0
		}
		if slots >= remaining {
			right = 0
		}
	} else {
		flat := beta * beta / (4 * (beta - 1))
		left, right = flat, flat
		if v := 2 / beta * remaining; slots > v {
			r := remaining / slots // the ratio first: T² underflows for tiny T
			left = r * r / (beta - 1)
			right = left
		}
	}
	if slots == 0 {
		left = math.Inf(1)
	}
	return left, right
}

// KKT checks the optimality certificate of the concave program
//
//	maximise Σ μ_i(S_i)  subject to  Σ S_i = capacity,  S_i ≥ floor_i,
//
// where μ_i is the throughput with tail index beta[i] and weight weight[i]
// (nil: weight 1, one β): there must be one multiplier λ such that every job
// strictly above its floor has λ between its weighted right and left
// derivatives, and every job at its floor has its right derivative ≤ λ. By
// concavity that certifies a global maximum. tol is relative to λ.
func KKT(remaining, slots []float64, beta []float64, weight []float64, floor []float64, tol float64) error {
	lo, hi := 0.0, math.Inf(1) // the interval λ must lie in
	var loJob, hiJob int
	for i, r := range remaining {
		w := 1.0
		if weight != nil {
			w = weight[i]
		}
		left, right := Marginals(r, slots[i], beta[i])
		left, right = w*left, w*right
		f := 0.0
		if floor != nil {
			f = floor[i]
		}
		if right > lo {
			lo, loJob = right, i
		}
		if slots[i] > f*(1+1e-12)+1e-12 && left < hi {
			hi, hiJob = left, i
		}
	}
	if lo > hi*(1+tol)+tol {
		return fmt.Errorf("no multiplier: job %d could use a slot at marginal %g, job %d gives one up at only %g", loJob, lo, hiJob, hi)
	}
	return nil
}

// Betas returns n copies of beta.
func Betas(n int, beta float64) []float64 {
	return slices.Repeat([]float64{beta}, n)
}

// HeavyTailed returns n remaining-task counts drawn as ⌈Pareto(1, 1.1)⌉,
// capped at 10⁵: most jobs are small, a few huge, the job-size shape of the
// Facebook and Bing traces of the Hopper thesis (§6.1). Benchmarks use it.
func HeavyTailed(rng *rand.Rand, n int) []float64 {
	d := distuv.Pareto{Xm: 1, Alpha: 1.1, Src: rng}
	out := make([]float64, n)
	for i := range out {
		out[i] = min(math.Ceil(d.Rand()), 1e5)
	}
	return out
}

// MaximizeOnSimplex maximises objective over the allocations
// S_i = floor + share_i·(total − n·floor), Σshare_i = 1, share_i ≥ 0 — every
// way of giving n jobs their floor and dividing the rest — with gonum's
// Nelder–Mead on the parametrisation share_i = |z_i|/Σ|z_j|, from a uniform
// start and three seeded random ones, each restarted where it stops while
// that improves. (A softmax parametrisation stalls: a job whose best share
// is 0 sends its z towards −∞, where the objective is flat in every
// direction that would bring it back, and the optimiser stopped short of
// Algorithm 2 on T = (12, 2, 1), β = 1.34375, ε = 0.6875.) It is the
// numerical second opinion the Theorem 1 and 2 tests compare closed forms
// with; it returns the best value found.
func MaximizeOnSimplex(objective func([]float64) float64, n int, floor, total float64, seed uint64) (float64, error) {
	alloc := func(z []float64) []float64 {
		out := make([]float64, len(z))
		var sum float64
		for i, x := range z {
			out[i] = math.Abs(x)
			sum += out[i]
		}
		for i := range out {
			share := 1 / float64(n)
			if sum > 0 {
				share = out[i] / sum
			}
			out[i] = floor + share*(total-float64(n)*floor)
		}
		return out
	}
	problem := optimize.Problem{Func: func(z []float64) float64 { return -objective(alloc(z)) }}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	best := math.Inf(-1)
	for start := range 4 {
		z := make([]float64, n)
		for i := range z {
			z[i] = 1
			if start > 0 {
				z[i] = rng.ExpFloat64()
			}
		}
		// Nelder–Mead can collapse its simplex early; restarting from where
		// it stopped, with a fresh simplex, gets it moving again.
		for range 4 {
			res, err := optimize.Minimize(problem, z, nil, &optimize.NelderMead{})
			if err != nil && res == nil {
				return 0, err
			}
			improved := -res.F > best*(1+1e-12)
			best = max(best, -res.F)
			if !improved {
				break
			}
			z = res.X
		}
	}
	return best, nil
}

// NoBetterOnSimplex compares got, the total throughput Total of an
// allocation of total slots that gives each of the jobs of remaining at
// least floor, with the best MaximizeOnSimplex finds over all such
// allocations (seeded by total). It reports an error if the optimiser finds
// more, beyond 1e-9 relative (the allocation is not optimal), or stops
// short of got by more than 0.1% (the search stalled, so the comparison
// would be vacuous).
func NoBetterOnSimplex(remaining []float64, beta, floor, total, got float64) error {
	n := len(remaining)
	found, err := MaximizeOnSimplex(func(s []float64) float64 { return Total(remaining, s, beta) }, n, floor, total, uint64(total))
	if err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	if found > got*(1+1e-9) {
		return fmt.Errorf("optimiser found throughput %.12g > the algorithm's %.12g", found, got)
	}
	if found < got*(1-1e-3) {
		return fmt.Errorf("optimiser stalled at %.12g, the algorithm has %.12g: the check is vacuous", found, got)
	}
	return nil
}

// Main is every package's TestMain: it lets a mutation run (.ci/mutate,
// many failing runs in a row) cap rapid's minimisation of each failure.
// SPECSCHED_RAPID_SHRINKTIME=1s sets -rapid.shrinktime when the flag is not
// given on the command line; unset, nothing changes.
func Main(m *testing.M) {
	flag.Parse()
	if d := os.Getenv("SPECSCHED_RAPID_SHRINKTIME"); d != "" {
		given := false
		flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.shrinktime" })
		if !given {
			if err := flag.Set("rapid.shrinktime", d); err != nil {
				fmt.Fprintf(os.Stderr, "SPECSCHED_RAPID_SHRINKTIME=%q: %v\n", d, err)
				os.Exit(2)
			}
		}
	}
	os.Exit(m.Run())
}
