package testutil

import (
	"math"
	"math/big"
)

// A reference for Hopper's Algorithm 1 (thesis §3.4) in exact arithmetic,
// with its checker: alloc's tests check the exported functions with it and
// internal/hopper's tests the kernel, each package on its own.

// ExactAllocate is Algorithm 1 in exact arithmetic (the thesis's sort-based
// statement, §3.4): the exact share of every job, rounded once to float64.
// c is the package's speculation factor 2/β as a float64 (so V_i = c·T_i
// exactly as the algorithm defines it).
func ExactAllocate(remaining []float64, slots, beta float64) []float64 {
	const prec = 2200 // sums of values from 2^-1074 to 2^1024 stay exact
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	c := f(Factor(beta))
	total := f(0)
	for _, r := range remaining {
		total.Add(total, f(r))
	}
	out := make([]float64, len(remaining))
	if total.Sign() == 0 || slots == 0 {
		return out
	}
	S := f(slots)
	virtualTotal := new(big.Float).SetPrec(prec).Mul(c, total)
	if virtualTotal.Cmp(S) < 0 {
		for i, r := range remaining {
			share := new(big.Float).SetPrec(prec).Mul(f(r), S)
			out[i], _ = share.Quo(share, total).Float64()
		}
		return out
	}
	left := f(slots)
	for _, i := range SmallestFirst(indices(len(remaining)), remaining) {
		v := new(big.Float).SetPrec(prec).Mul(c, f(remaining[i]))
		if v.Cmp(left) > 0 {
			v.Set(left)
		}
		out[i], _ = v.Float64()
		left.Sub(left, v)
	}
	return out
}

// CheckAllocateExact checks a real-valued allocation got of (remaining,
// slots, beta) against ExactAllocate: finite shares ≥ +0, every share to
// within 1e-9 relative (and a few subnormal units) of the exact one, except
// the job at the cut-off, which gets what is left of S — exact up to the
// rounding of the partial sums, n·2^-52·S; and no share in the normal
// range lost.
func CheckAllocateExact(t Fataler, got, remaining []float64, slots, beta float64) {
	want := ExactAllocate(remaining, slots, beta)
	slack := float64(len(remaining)) * 0x1p-52 * slots
	for i, x := range got {
		if !(x >= 0) || math.IsInf(x, 0) || math.Signbit(x) {
			t.Fatalf("Allocate(%v, %v, %v): job %d gets %v", remaining, slots, beta, i, x)
		}
		d := math.Abs(x - want[i])
		if d > 1e-9*want[i]+4*math.SmallestNonzeroFloat64 && d > slack {
			t.Fatalf("Allocate(%v, %v, %v): job %d gets %v, exact %v", remaining, slots, beta, i, x, want[i])
		}
		// A share in the normal range is never lost (in the subnormal range
		// V_i = c·T_i itself rounds by up to half a unit).
		if remaining[i] > 0 && want[i] > max(slack, 0x1p-1022) && x == 0 {
			t.Fatalf("Allocate(%v, %v, %v): job %d lost its share %v", remaining, slots, beta, i, want[i])
		}
	}
}

// indices returns 0, 1, …, n−1.
func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
