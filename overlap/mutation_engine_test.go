package overlap

import (
	"math/big"
	"testing"
)

// Tests of the simulators' engines that the issue-12 mutation pass found
// unchecked: each states the paper's rule it checks and works its inputs out
// independently (math/big), not from the engine's output.

// capacityObserver checks, interval by interval, SplitSRPT's capacities:
// within each class the map rates and the shuffle rates sum to at most the
// whole station, exactly 1 in the engine's units (Algorithm 2 gives a class
// its share μ·s and, shared, what the other class leaves, "at most s").
// Across the two classes the sum may exceed 1 by an ulp: μ₁·s and μ₂·s are
// rounded separately, in Rates as in the engine (splitRates' comment).
type capacityObserver struct {
	t         *testing.T
	intervals int
}

func (c *capacityObserver) interval(now, tau float64, view []simView) {
	c.intervals++
	var sumMap, sumShuf [2]float64
	for _, v := range view {
		k := splitClass(v.eng.job.Map, v.eng.job.Shuffle)
		sumMap[k] += v.eng.rate.Map
		sumShuf[k] += v.eng.rate.Shuffle
	}
	for k := range sumMap {
		if sumMap[k] > 1 || sumShuf[k] > 1 {
			c.t.Errorf("t=%v: class %d's map rates sum to %v and its shuffle rates to %v, above the station (1): %+v", now, k, sumMap[k], sumShuf[k], view)
		}
	}
}

// roundedShares returns μ₁ = lo/(lo+hi) and μ₂ = hi/(lo+hi) as a
// float64 computation forms them: the sum lo+hi rounded, then each quotient
// computed exactly (math/big) and rounded once.
func roundedShares(x, y float64) (mu1, mu2 float64) {
	hi, lo := max(x, y), min(x, y)
	const prec = 400
	sum := big.NewFloat(hi + lo).SetPrec(prec)
	m1, _ := new(big.Float).SetPrec(prec).Quo(big.NewFloat(lo).SetPrec(prec), sum).Float64()
	m2, _ := new(big.Float).SetPrec(prec).Quo(big.NewFloat(hi).SetPrec(prec), sum).Float64()
	return m1, m2
}

// TestSplitSRPTSharedCapacity: SplitSRPT's shared shuffle capacity (each
// class's own plus what the other left) is at most the station, s. The
// first job of each case sets β(t) (the least imbalance), so the shares are
// its μ₁ = lo/(lo+hi) and μ₂ = hi/(lo+hi), rounded separately: for these
// sizes the two roundings (math/big, the sum lo+hi rounded first as in
// float64) add up to 1 + 2⁻⁵². Then a class whose own shuffle capacity is
// free to take all of it — the shuffle-heavy job alone, served up to its
// limit (y/x)·s > s; the map-heavy job, once the shuffle-heavy job of
// map 0.1, shuffle 1 has left, with shuffle work made available while that
// job held class 1's share — is kept at s only by the cap. It kills the
// mutants without that cap (either class).
func TestSplitSRPTSharedCapacity(t *testing.T) {
	t.Parallel()
	for _, jobs := range [][]Arrival{
		{{Map: 2.632548593291528, Shuffle: 1.9435462348631884}, {Map: 0.1, Shuffle: 1}}, // map-heavy: class 0
		{{Map: 1.0625008551689095, Shuffle: 3.0554555042515057}},                        // shuffle-heavy: class 1
	} {
		job := jobs[0]
		mu1, mu2 := roundedShares(job.Map, job.Shuffle)
		if mu1+mu2 <= 1 {
			t.Fatalf("test setup: %+v: rounded μ₁ %v + μ₂ %v = %v, want above 1", job, mu1, mu2, mu1+mu2)
		}
		obs := &capacityObserver{t: t}
		var ws Workspace
		out := make([]float64, len(jobs))
		if err := simulate(out, jobs, 1, Discipline{Algorithm: SplitSRPT}, &ws, obs); err != nil {
			t.Fatalf("%+v: %v", job, err)
		}
		if obs.intervals == 0 {
			t.Fatalf("%+v: no interval observed", job)
		}
	}
}

// TestWaterFillTieOrder: three jobs of the same limit l = 1.7 share
// capacity 5.1. Processor sharing gives each min(l, θ) = l, but in float64
// l·3 ≤ 5.1 while l·2 > 5.1 − l (5.1 − 1.7 rounds to 3.3999999999999995,
// checked below), so the first job filled gets l exactly and the two others
// the level θ = (5.1 − l)/2, an ulp below. Which job is first is the
// package's tie rule (doc.go: ties go to the lower index): id 0, whatever
// order the entries are listed in. Kills compareLimit's tie mutants (ids
// compared the other way; ties left to the sort, which keeps the listing
// order).
func TestWaterFillTieOrder(t *testing.T) {
	t.Parallel()
	l, c := 1.7, 5.1 // variables: constant arithmetic would be exact
	if !(l*3 <= c && l*2 > c-l) {
		t.Fatalf("test setup: want l·3 = %v ≤ %v and l·2 = %v > %v − l = %v", l*3, c, l*2, c, c-l)
	}
	theta := (c - l) / 2
	for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		lim := make([]limitEntry, len(order))
		for k, id := range order {
			lim[k] = limitEntry{limit: l, id: id}
		}
		if got := waterFill(c, 0, lim); got != theta {
			t.Errorf("listed %v: θ = %v, want %v", order, got, theta)
		}
		rate := map[int]float64{}
		for _, e := range lim {
			rate[e.id] = e.limit
		}
		if rate[0] != l || rate[1] != theta || rate[2] != theta {
			t.Errorf("listed %v: rates %v, want id 0 at its limit %v and ids 1, 2 at θ = %v", order, rate, l, theta)
		}
	}
}
