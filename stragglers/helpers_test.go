package stragglers

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/optimize"
	"pgregory.net/rapid"
)

// tol is the relative tolerance between allocations computed by different
// formulas or summation orders (n·2⁻⁵³ ≈ 1e-13 for the sizes drawn here,
// amplified by 1/√(β−1) for β near 1).
const tol = 1e-9

func approx(a, b, scale float64) bool {
	return math.Abs(a-b) <= tol*max(1, scale, math.Abs(a), math.Abs(b))
}

func sameAllocation(got, want []float64, scale float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !approx(got[i], want[i], scale) {
			return false
		}
	}
	return true
}

// throughput is eq. 3.3 written out independently of the code under test
// (with alloc's β ≥ 2 extension μ = min(S, T)), with its left and right
// derivatives in S.
func throughput(T, S, beta float64) (mu, left, right float64) {
	switch {
	case T == 0:
		return 0, 0, 0
	case beta >= 2:
		switch {
		case S < T:
			return S, 1, 1
		case S == T:
			return T, 1, 0
		default:
			return T, 0, 0
		}
	case S <= 2/beta*T:
		a := beta * beta / (4 * (beta - 1))
		return a * S, a, a // C¹: at S = (2/β)T the other branch's slope is a too
	default:
		r := T / S // T²/S² as (T/S)²: T² underflows for tiny T
		d := r * r / (beta - 1)
		return beta/(beta-1)*T - T*r/(beta-1), d, d
	}
}

func totalThroughput(remaining, beta, slots []float64) float64 {
	var sum float64
	for i := range remaining {
		mu, _, _ := throughput(remaining[i], slots[i], beta[i])
		sum += mu
	}
	return sum
}

// kktGap checks the KKT conditions of max Σμ_i(S_i) s.t. ΣS_i = S, S_i ≥ 0
// for a concave separable objective: some λ lies between every job's right
// derivative and the left derivative of every job that holds slots. An
// allocation is computed to an absolute precision of a few ulps of S, so
// the check asks it of the exact optimum's δ-neighbourhood, δ = slack·S:
// with derivatives non-increasing, an exact KKT point within δ of the
// allocation implies max_i μ_i'⁺(S_i + δ) ≤ min_{S_i > δ} μ_i'⁻(S_i − δ).
// It returns the difference, which must be ≤ 0 up to relative rounding,
// and the λ bound.
func kktGap(remaining, beta, slots []float64) (gap, lambda float64) {
	var total float64
	for _, x := range slots {
		total += x
	}
	delta := slack * total
	lo, hi := 0.0, math.Inf(1)
	for i := range remaining {
		_, _, right := throughput(remaining[i], slots[i]+delta, beta[i])
		lo = max(lo, right)
		if slots[i] > delta {
			_, left, _ := throughput(remaining[i], slots[i]-delta, beta[i])
			hi = min(hi, left)
		}
	}
	return lo - hi, hi
}

// kktTol is the relative tolerance on the KKT gap: the derivatives come
// from shares accurate to about 1e-15 relative, squared; 1e-9 leaves room
// and is far below any error a wrong allocation makes.
const kktTol = 1e-9

// slack is the absolute precision, relative to S, that kktGap grants each
// job's share: ~100 ulps, room for S − (what earlier classes hold), which
// loses the digits of a share much smaller than S.
const slack = 1e-14

// maximise solves max Σμ_i(S_i) s.t. ΣS_i = S numerically with gonum's BFGS
// on the softmax parametrisation S_i = S·e^{z_i}/Σe^{z_j}, the best of a
// few starts.
func maximise(remaining, beta []float64, slots float64, seed uint64) float64 {
	n := len(remaining)
	share := func(z []float64) []float64 {
		m := slices.Max(z)
		s := make([]float64, n)
		var sum float64
		for i, zi := range z {
			s[i] = math.Exp(zi - m)
			sum += s[i]
		}
		for i := range s {
			s[i] *= slots / sum
		}
		return s
	}
	value := func(z []float64) float64 { return -totalThroughput(remaining, beta, share(z)) }
	grad := func(g, z []float64) {
		s := share(z)
		d := make([]float64, n)
		var mean float64
		for i := range s {
			_, d[i], _ = throughput(remaining[i], s[i], beta[i])
			mean += d[i] * s[i] / slots
		}
		for i := range g {
			g[i] = -s[i] * (d[i] - mean)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	best := math.Inf(-1)
	for start := range 5 {
		z := make([]float64, n)
		for i := range z {
			switch start {
			case 0:
			case 1:
				z[i] = math.Log(remaining[i] + 1e-9)
			default:
				z[i] = 2 * rng.NormFloat64()
			}
		}
		res, err := optimize.Minimize(optimize.Problem{Func: value, Grad: grad}, z,
			&optimize.Settings{GradientThreshold: 1e-12, MajorIterations: 3000}, &optimize.BFGS{})
		if err != nil && res == nil {
			continue
		}
		best = max(best, -res.F)
	}
	return best
}

// snapshot draws remaining task counts and per-job β: K classes drawn from
// a pool (ties), per-job β, some β ≥ 2, finished jobs.
type snapshot struct {
	remaining, beta []float64
}

func snapshotGen(minN, maxN int) *rapid.Generator[snapshot] {
	return rapid.Custom(func(t *rapid.T) snapshot {
		n := rapid.IntRange(minN, maxN).Draw(t, "n")
		kind := rapid.IntRange(0, 3).Draw(t, "kind")
		k := rapid.IntRange(1, 4).Draw(t, "classes")
		pool := make([]float64, k)
		for c := range pool {
			pool[c] = rapid.OneOf(rapid.Float64Range(1.05, 1.95), rapid.SampledFrom([]float64{1.2, 1.5, 2, 2.5})).Draw(t, "class beta")
		}
		s := snapshot{remaining: make([]float64, n), beta: make([]float64, n)}
		for i := range n {
			switch kind {
			case 0, 1: // classes with integer task counts
				s.remaining[i] = float64(rapid.IntRange(0, 40).Draw(t, "T"))
				s.beta[i] = pool[rapid.IntRange(0, k-1).Draw(t, "class")]
			case 2: // a β per job
				s.remaining[i] = rapid.Float64Range(0, 100).Draw(t, "T")
				s.beta[i] = rapid.Float64Range(1.01, 2.5).Draw(t, "beta")
			default: // few values: ties everywhere
				s.remaining[i] = float64(rapid.IntRange(0, 3).Draw(t, "T"))
				s.beta[i] = []float64{1.3, 1.6, 2}[rapid.IntRange(0, 2).Draw(t, "beta")]
			}
		}
		return s
	})
}

// slotsFor draws S across every regime: up to twice the total virtual
// size, small integers, and — half the time — on or a hair beside one of
// the water-filling's breakpoints, where a case ends.
func slotsFor(t *rapid.T, s snapshot) float64 {
	var scale float64
	for i, T := range s.remaining {
		scale += 2 * T / math.Sqrt(min(s.beta[i], 2)-1)
	}
	if points := breakpoints(s); len(points) > 0 && rapid.Bool().Draw(t, "at a breakpoint") {
		x := rapid.SampledFrom(points).Draw(t, "breakpoint")
		return x * rapid.SampledFrom([]float64{1, 1 - 1e-7, 1 + 1e-7}).Draw(t, "side")
	}
	return rapid.OneOf(rapid.Float64Range(0, scale+1), rapid.SampledFrom([]float64{0, 1, 2, 5, 10})).Draw(t, "slots")
}

// breakpoints lists, from a sort of the classes by β (an independent
// derivation of the water-filling's structure), the values of S at which
// each class starts to receive slots, fills its virtual sizes, and stops
// growing alone: W_{<g}/√a_g, W_{<g}/√a_g + ΣV_g and W_{≤g}/√a_{g+1}, with
// W the sum of T/√(β−1) and a(β) = β²/(4(β−1)) (1 for β ≥ 2).
func breakpoints(s snapshot) []float64 {
	type class struct{ key, w, v float64 }
	byKey := map[float64]*class{}
	var keys []float64
	for i, T := range s.remaining {
		k := min(s.beta[i], 2)
		c, ok := byKey[k]
		if !ok {
			c = &class{key: k}
			byKey[k] = c
			keys = append(keys, k)
		}
		if k < 2 {
			c.w += T / math.Sqrt(k-1)
			c.v += 2 / k * T
		} else {
			c.v += T
		}
	}
	slices.Sort(keys)
	a := func(k float64) float64 {
		if k >= 2 {
			return 1
		}
		return k * k / (4 * (k - 1))
	}
	var points []float64
	var w float64
	for i, k := range keys {
		start := w / math.Sqrt(a(k))
		points = append(points, start, start+byKey[k].v)
		w += byKey[k].w
		if i+1 < len(keys) {
			points = append(points, w/math.Sqrt(a(keys[i+1])))
		}
	}
	return slices.DeleteFunc(points, func(x float64) bool { return !(x > 0) })
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
