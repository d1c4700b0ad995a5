package testutil

import (
	"math"
	"math/big"

	"github.com/specsched/specsched/internal/hopper"
)

// References for Hopper's ε-fair allocation, Algorithm 2 of the thesis
// (§3.5): one in float64 by a sort, one in exact rational arithmetic with
// its checker. fairness's tests check the exported functions with them and
// internal/hopper's tests the kernel, each package on its own.

// activeOrder returns the indices of the active jobs (T_i > 0) in
// Algorithm 2's order: fewer remaining tasks first, then index.
func activeOrder(remaining []float64) []int {
	var order []int
	for i, r := range remaining {
		if r > 0 {
			order = append(order, i)
		}
	}
	return SmallestFirst(order, remaining)
}

// FairReference is Algorithm 2 as the thesis states it (§3.5), on the
// active jobs (T_i > 0) sorted by T_i, with the minimal m₂ found by
// scanning m = 0, 1, … and testing the full condition
// T_{m+1}·(S − m·f)/Σ_{i>m}T_i ≥ max{f, V_{m+1}}.
func FairReference(remaining []float64, slots, beta, eps float64) []float64 {
	c := Factor(beta)
	out := make([]float64, len(remaining))
	order := activeOrder(remaining)
	n := len(order)
	if n == 0 {
		return out
	}
	T := func(k int) float64 { return remaining[order[k]] } // k is 0-based
	f := (1 - eps) * slots / float64(n)
	m1 := 0
	for m1 < n && c*T(m1) <= f {
		m1++
	}
	var aboveV float64
	for k := m1; k < n; k++ {
		aboveV += c * T(k)
	}
	// A tie within rounding of the case boundary goes to case 1, the
	// library's documented rule (hopper.CaseTolerance): there both cases
	// agree in exact arithmetic, but a literal case 2 one ulp past it can
	// pick m₂ = 1 with f = 0 and starve a job.
	if slots <= (aboveV+float64(m1)*f)*(1+hopper.CaseTolerance) {
		left := slots - float64(n)*f
		for k := range n {
			out[order[k]] = f
		}
		for k := m1; k < n; k++ {
			add := min(c*T(k)-f, left)
			out[order[k]] += add
			left -= add
		}
		return out
	}
	for m := 0; m < n; m++ {
		var rest float64
		for k := m; k < n; k++ {
			rest += T(k)
		}
		if T(m)/rest*(slots-float64(m)*f) >= max(f, c*T(m)) {
			for k := range n {
				if k < m {
					out[order[k]] = f
				} else {
					out[order[k]] = T(k) / rest * (slots - float64(m)*f)
				}
			}
			return out
		}
	}
	panic("no m₂: the thesis says m₁ always qualifies")
}

// FairRelTol is the relative accuracy asked of every share against the exact
// allocation: the float64 algorithm rounds O(n) times, about 1e-15 each.
const FairRelTol = 1e-9

// FairTinyTol is the absolute slack per share for the last bits of a subnormal
// result: the floor (1−ε)S/N and a proportional share each round once or
// twice in units of 2^−1074.
const FairTinyTol = 16 * math.SmallestNonzeroFloat64

// FairExactResult is Algorithm 2 computed in exact rational arithmetic.
type FairExactResult struct {
	Shares []*big.Rat
	Floor  *big.Rat
	// loose marks, in case 1, the jobs in the group at which the top-ups
	// run out and in the group after it: a prefix sum that the float64
	// algorithm rounds across S moves the cut between them, so their
	// shares are accurate only to rounding relative to S, not to their own
	// size.
	Loose []bool
}

func Rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// FairExact is Algorithm 2 as the thesis states it (§3.5), on the
// active jobs sorted by T_i (ties by index), in big.Rat: m₁, the case
// split at S = Σ_{i>m₁}V_i + m₁·f (a tie is case 1; the library's rounded
// split may differ within hopper.CaseTolerance, where the cases agree to
// that tolerance), case 1's smallest-first top-ups, and in case 2 the smallest m with
// T_{m+1}·(S − m·f)/Σ_{i>m}T_i ≥ max{f, V_{m+1}} found by scanning. c is
// the float64 speculation factor the library works with.
func FairExact(remaining []float64, slots, beta, eps float64) FairExactResult {
	n := len(remaining)
	res := FairExactResult{Shares: make([]*big.Rat, n), Loose: make([]bool, n), Floor: new(big.Rat)}
	for i := range res.Shares {
		res.Shares[i] = new(big.Rat)
	}
	order := activeOrder(remaining)
	N := len(order)
	if N == 0 {
		return res
	}
	c := Rat(Factor(beta))
	S := Rat(slots)
	T := func(k int) *big.Rat { return Rat(remaining[order[k]]) }
	V := func(k int) *big.Rat { return new(big.Rat).Mul(c, T(k)) }
	f := new(big.Rat).Sub(Rat(1), Rat(eps))
	f.Mul(f, S).Quo(f, big.NewRat(int64(N), 1))
	res.Floor = f

	m1, aboveV := 0, new(big.Rat)
	for k := range N {
		if V(k).Cmp(f) <= 0 {
			m1++
		} else {
			aboveV.Add(aboveV, V(k))
		}
	}
	bound := new(big.Rat).Mul(big.NewRat(int64(m1), 1), f)
	if S.Cmp(bound.Add(bound, aboveV)) <= 0 {
		left := new(big.Rat).Sub(S, new(big.Rat).Mul(big.NewRat(int64(N), 1), f))
		cutT := math.Inf(1) // T of the first job whose top-up V − f takes what is left
		for k := range N {
			top := new(big.Rat).Sub(V(k), f)
			if top.Sign() <= 0 {
				top.SetInt64(0)
			} else if top.Cmp(left) >= 0 {
				top.Set(left)
				cutT = min(cutT, remaining[order[k]])
			}
			res.Shares[order[k]].Add(f, top)
			left.Sub(left, top)
		}
		after := math.Inf(1) // the next larger T
		for _, i := range order {
			if remaining[i] > cutT {
				after = min(after, remaining[i])
			}
		}
		for _, i := range order {
			res.Loose[i] = remaining[i] == cutT || remaining[i] == after
		}
		return res
	}
	for m := range N {
		rest := new(big.Rat)
		for k := m; k < N; k++ {
			rest.Add(rest, T(k))
		}
		share := new(big.Rat).Sub(S, new(big.Rat).Mul(big.NewRat(int64(m), 1), f))
		first := new(big.Rat).Mul(T(m), share)
		first.Quo(first, rest)
		if first.Cmp(f) >= 0 && first.Cmp(V(m)) >= 0 {
			for k := range N {
				if k < m {
					res.Shares[order[k]].Set(f)
				} else {
					res.Shares[order[k]].Mul(T(k), share).Quo(res.Shares[order[k]], rest)
				}
			}
			return res
		}
	}
	panic("no m₂: the thesis says m₁ always qualifies")
}

// RatFloat is x rounded to the nearest float64 (±Inf beyond its range).
func RatFloat(x *big.Rat) float64 {
	f, _ := x.Float64()
	return f
}

// RatSum is the exact sum of xs.
func RatSum(xs []float64) *big.Rat {
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, Rat(x))
	}
	return sum
}

// ExceedsMax reports whether x is beyond float64's largest value.
func ExceedsMax(x *big.Rat) bool { return x.Cmp(Rat(math.MaxFloat64)) > 0 }

// CheckFairExact checks a real-valued allocation got of (remaining,
// slots, beta, eps) against FairExact: each share within FairRelTol of the
// exact one (loose case-1 jobs: within FairRelTol·S), every active job at or
// above the floor, finished jobs 0, ΣS_i = S.
func CheckFairExact(t Fataler, got, remaining []float64, slots, beta, eps float64) {
	want := FairExact(remaining, slots, beta, eps)
	floor := RatFloat(want.Floor)
	active := false
	for i, x := range got {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			t.Fatalf("job %d gets %g", i, x)
		}
		if remaining[i] == 0 {
			if x != 0 || math.Signbit(x) {
				t.Fatalf("finished job %d gets %g", i, x)
			}
			continue
		}
		active = true
		if x < floor*(1-FairRelTol)-FairTinyTol {
			t.Fatalf("Theorem 2: job %d gets %g, below the floor (1−ε)S/N = %g", i, x, floor)
		}
		w := RatFloat(want.Shares[i])
		tol := FairRelTol*w + FairTinyTol
		if want.Loose[i] {
			tol += FairRelTol * slots
		}
		if math.Abs(x-w) > tol {
			t.Fatalf("job %d gets %g, exact Algorithm 2 gives %g (remaining %v, S %g, β %g, ε %g; allocation %v)", i, x, w, remaining, slots, beta, eps, got)
		}
	}
	wantSum := 0.0
	if active {
		wantSum = slots
	}
	// Exactly: a float64 sum may round past MaxFloat64.
	diff := new(big.Rat).Sub(RatSum(got), Rat(wantSum))
	if RatFloat(diff.Abs(diff)) > FairRelTol*wantSum+float64(len(got))*FairTinyTol {
		t.Fatalf("ΣS_i = %s, want S = %g", RatSum(got).FloatString(3), wantSum)
	}
}

// Fataler is what CheckFairExact needs of a *testing.T or *rapid.T.
type Fataler interface {
	Fatalf(format string, args ...any)
}
