package waterfill

import (
	"math/big"
	"testing"
)

// TestFillLevelAtClassEnd: Fill's case where S is at most what the classes
// before the cut hold at λ = a_g, reached only when that amount rounds up
// to S (issue-12 mutation pass: no test executed it). Two jobs, T = (2, 1)
// ·2^−1074 with β = (1.5, 1.75): both below 2^−900, so the weights are
// scaled by 2^900 and the amount at λ = a(1.75) is formed in the scaled
// units and scaled back to a subnormal. Worked exactly (math/big): job 1
// alone, past its virtual size, absorbs T₁/√((β₁−1)·a(β₂)) = (8√6/7)·2^−1074
// ≈ 2.799·2^−1074 before its marginal falls to a(β₂) = 49/48, less than S =
// 3·2^−1074; job 2, whose marginal is a(β₂) up to its virtual size
// (2/β₂)·T₂ ≈ 1.14·2^−1074, takes the rest, ≈ 0.2·2^−1074. Rounded once, the
// shares are 3·2^−1074 and 0.
func TestFillLevelAtClassEnd(t *testing.T) {
	t.Parallel()
	remaining := []float64{2 * 0x1p-1074, 0x1p-1074}
	beta := []float64{1.5, 1.75}
	slots := 3 * 0x1p-1074
	const prec = 300
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	sqrt := func(x *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Sqrt(x) }
	// a(β₂) = β₂²/(4(β₂−1)); job 1 at λ = a(β₂): T₁/√((β₁−1)·a(β₂)).
	b2m1 := new(big.Float).SetPrec(prec).Sub(bf(beta[1]), bf(1))
	a := new(big.Float).SetPrec(prec).Mul(bf(beta[1]), bf(beta[1]))
	a.Quo(a, new(big.Float).SetPrec(prec).Mul(bf(4), b2m1))
	b1m1 := new(big.Float).SetPrec(prec).Sub(bf(beta[0]), bf(1))
	s1 := new(big.Float).SetPrec(prec).Quo(bf(remaining[0]), sqrt(new(big.Float).SetPrec(prec).Mul(b1m1, a)))
	s2 := new(big.Float).SetPrec(prec).Sub(bf(slots), s1)
	virtual2 := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Mul(bf(2), bf(remaining[1])), bf(beta[1]))
	if s2.Sign() <= 0 || s2.Cmp(virtual2) >= 0 {
		t.Fatalf("test setup: job 2's share %v, want in (0, its virtual size %v)", s2, virtual2)
	}
	w1, _ := s1.Float64()
	w2, _ := s2.Float64()
	if w1 != slots || w2 != 0 {
		t.Fatalf("test setup: exact shares round to %v, %v; want S and 0", w1, w2)
	}
	var ws Workspace
	ws.Prepare(remaining, beta)
	got := make([]float64, 2)
	if !ws.Fill(got, remaining, slots) {
		t.Fatal("Fill reports no work")
	}
	if got[0] != w1 || got[1] != w2 {
		t.Fatalf("Fill = %v, want %v, %v", got, w1, w2)
	}
}
