package selection

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// referenceUnits is ApportionBy's rule written unit by unit, for any
// total: starting from the floors, hand out (or take back) one unit at a
// time by its rank. The next unit of job i ranks by share − floor − extra
// (extra: units beyond the floor so far), compared exactly as (fewer extra,
// larger fractional part); ties by each key, smaller first, then index. A
// job with share 0 takes no unit; one with none left gives none back, and
// the lowest ranked held unit goes back first. O(|R|·n): for small R.
func referenceUnits(shares []float64, total int, keys ...[]float64) []int {
	n := len(shares)
	out := make([]int, n)
	floor := make([]int, n)
	frac := make([]float64, n)
	left := total
	for i, s := range shares {
		f := math.Floor(s)
		floor[i], frac[i] = int(f), s-f
		out[i] = floor[i]
		left -= out[i]
	}
	// rank < 0: job a's next unit ranks above job b's.
	rank := func(a, b int) int {
		if c := cmp.Compare(out[a]-floor[a], out[b]-floor[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(frac[b], frac[a]); c != 0 {
			return c
		}
		for _, key := range keys {
			if c := cmp.Compare(key[a], key[b]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	}
	for ; left > 0; left-- {
		best := -1
		for i, s := range shares {
			if s > 0 && (best < 0 || rank(i, best) < 0) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out[best]++
	}
	for ; left < 0; left++ {
		// The held unit of job i ranks as its next unit would with one
		// unit fewer: compare with out decremented.
		worst := -1
		for i := range shares {
			if out[i] == 0 {
				continue
			}
			if worst < 0 {
				worst = i
				continue
			}
			out[i]--
			out[worst]--
			lower := rank(i, worst) > 0
			out[i]++
			out[worst]++
			if lower {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		out[worst]--
	}
	return out
}

// CheckApportion serves the external tests (apportion_ext_test.go).
var CheckApportion = checkApportion

// quotas returns shares[i]·total/Σshares exactly (nil if every share is 0).
func quotas(shares []float64, total int) []*big.Rat {
	sum := new(big.Rat)
	for _, s := range shares {
		sum.Add(sum, new(big.Rat).SetFloat64(s))
	}
	if sum.Sign() == 0 {
		return nil
	}
	out := make([]*big.Rat, len(shares))
	for i, s := range shares {
		q := new(big.Rat).SetFloat64(s)
		q.Mul(q, new(big.Rat).SetInt64(int64(total)))
		out[i] = q.Quo(q, sum)
	}
	return out
}

// ratFloorFrac splits q ≥ 0 into its floor and fractional part.
func ratFloorFrac(q *big.Rat) (int, float64) {
	fl := new(big.Int).Quo(q.Num(), q.Denom())
	frac, _ := new(big.Rat).Sub(q, new(big.Rat).SetInt(fl)).Float64()
	return int(fl.Int64()), frac
}

// hamiltonTol is how close two exact fractional parts (or one to 0 or 1)
// must be for the float computation of the quotas to decide either way.
const hamiltonTol = 1e-9

// checkHamilton fails unless got is the largest-remainder rounding of the
// exact quotas shares[i]·total/Σshares up to near-ties: Σ = total; every
// job gets ⌊q⌋ or ⌊q⌋ + 1 (or ⌈q⌉ − 1 when q is within hamiltonTol of an
// integer from above … i.e. either neighbour of a near-integer q); a job
// with share 0 gets 0; and no job rounded down has a fractional part
// larger, by more than hamiltonTol, than one rounded up.
func checkHamilton(t *rapid.T, got []int, shares []float64, total int) {
	q := quotas(shares, total)
	if q == nil {
		for i, d := range got {
			if d != 0 {
				t.Fatalf("all shares 0: job %d gets %d", i, d)
			}
		}
		return
	}
	sum := 0
	up, down := -1.0, 2.0 // smallest fraction rounded up, largest rounded down
	for i, d := range got {
		sum += d
		fl, frac := ratFloorFrac(q[i])
		switch {
		case shares[i] == 0 && d != 0:
			t.Fatalf("job %d: share 0 gets %d", i, d)
		case d == fl:
			down = max(down, frac)
			if down == 2 {
				down = frac
			}
		case d == fl+1:
			up = min(up, frac)
			if up == -1 {
				up = frac
			}
		case d == fl-1 && frac < hamiltonTol: // q a hair above an integer
		case d == fl+2 && frac > 1-hamiltonTol: // q a hair below an integer
		default:
			qf, _ := q[i].Float64()
			t.Fatalf("job %d: %d for quota %v (share %v, total %d)", i, d, qf, shares[i], total)
		}
	}
	if sum != total {
		t.Fatalf("Σ = %d, want %d: %v for shares %v", sum, total, got, shares)
	}
	if up != -1 && down != 2 && down > up+hamiltonTol {
		t.Fatalf("%v for shares %v, total %d: a fraction %v rounded down, %v rounded up", got, shares, total, down, up)
	}
}

// drawAnyShares draws shares of every kind — zeros, integers, quarters,
// arbitrary — with exact ties, and a total anywhere from 0 to 3n past
// their sum.
func drawAnyShares(t *rapid.T, maxN int) ([]float64, int) {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	shares := make([]float64, n)
	for i := range shares {
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			shares[i] = 0
		case 1:
			shares[i] = float64(rapid.IntRange(0, 6).Draw(t, "integer"))
		case 2:
			shares[i] = float64(rapid.IntRange(0, 24).Draw(t, "quarters")) / 4
		default:
			shares[i] = rapid.Float64Range(0, 20).Draw(t, "share")
		}
	}
	var sum float64
	for _, s := range shares {
		sum += s
	}
	return shares, rapid.IntRange(0, int(sum)+3*n).Draw(t, "total")
}

// testApportionAnyTotal: for any total — shares summing far below or above
// it included — ApportionBy is the textbook rounding of the shares
// whenever the floors leave 0 ≤ R ≤ the non-zero fractional parts, and
// otherwise the largest-remainder rounding of the exact quotas
// (checkApportion).
func testApportionAnyTotal(t *rapid.T) {
	shares, total := drawAnyShares(t, 60)
	n := len(shares)
	first := make([]float64, n)
	second := make([]float64, n)
	for i := range first {
		first[i] = float64(rapid.IntRange(0, 2).Draw(t, "first"))
		second[i] = float64(rapid.IntRange(-1, 1).Draw(t, "second"))
	}
	orig := slices.Clone(shares)
	var ws Workspace
	got := make([]int, n)
	ApportionBy(&ws, got, shares, total, first, second)
	if !slices.Equal(shares, orig) {
		t.Fatal("shares modified")
	}
	checkApportion(t, got, shares, total, first, second)
}

// checkApportion fails unless got is ApportionBy's documented answer: the
// textbook largest remainder of the shares (referenceApportion) when the
// floors leave 0 ≤ R ≤ the number of non-zero fractional parts, otherwise
// that of the exact quotas (checkHamilton).
func checkApportion(t *rapid.T, got []int, shares []float64, total int, keys ...[]float64) {
	left, fractional := total, 0
	for _, s := range shares {
		left -= int(s)
		if s != math.Trunc(s) {
			fractional++
		}
	}
	if left < 0 || left > fractional {
		checkHamilton(t, got, shares, total)
		return
	}
	if want := referenceApportion(shares, total, keys...); !slices.Equal(got, want) {
		t.Fatalf("ApportionBy(%v, %d) = %v, textbook largest remainder %v", shares, total, got, want)
	}
}

func TestApportionAnyTotal(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionAnyTotal) }

// testRoundsIsUnitByUnit: rounds, the last resort of ApportionBy, hands
// out (or takes back) R units one per job a round, by rank — the rule
// referenceUnits follows one unit at a time — from any floors.
func testRoundsIsUnitByUnit(t *rapid.T) {
	shares, total := drawAnyShares(t, 40)
	n := len(shares)
	prio := make([]float64, n)
	for i := range prio {
		prio[i] = float64(rapid.IntRange(0, 2).Draw(t, "prio"))
	}
	var ws Workspace
	got := make([]int, n)
	ws.fracs = make([]float64, n)
	remaining := total
	for i, s := range shares {
		got[i] = int(s)
		remaining -= got[i]
		ws.fracs[i] = float64(got[i]) - s
		if s == 0 {
			ws.fracs[i] = excluded
		}
	}
	if remaining == 0 || !slices.ContainsFunc(shares, func(s float64) bool { return s > 0 }) {
		return // rounds needs units to move and a share to move them
	}
	rounds(&ws, got, shares, remaining, [][]float64{prio})
	if want := referenceUnits(shares, total, prio); !slices.Equal(got, want) {
		t.Fatalf("rounds(%v, total %d) = %v, unit by unit %v", shares, total, got, want)
	}
}

func TestRoundsIsUnitByUnit(t *testing.T) { t.Parallel(); rapid.Check(t, testRoundsIsUnitByUnit) }

// TestReferenceUnitsIsLargestRemainder: where the floors leave fewer units
// than there are fractional parts, the unit-by-unit rule is the textbook
// largest-remainder method of referenceApportion — the two references
// agree, so neither is checked only against itself.
func TestReferenceUnitsIsLargestRemainder(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		shares, total := drawShares(t, 100, 6)
		prio := make([]float64, len(shares))
		for i := range prio {
			prio[i] = float64(rapid.IntRange(0, 3).Draw(t, "p"))
		}
		if got, want := referenceUnits(shares, total, prio), referenceApportion(shares, total, prio); !slices.Equal(got, want) {
			t.Fatalf("unit by unit %v, largest remainder %v (shares %v)", got, want, shares)
		}
	})
}

// TestApportionTakesBack: the reproducers of issue 17 at the apportionment
// level — shares whose floors sum past total, and whose sum falls more
// than n units short — each checked against a hand count.
func TestApportionTakesBack(t *testing.T) {
	t.Parallel()
	third := float64(1<<53) / 3 // 3002399751580330.5: floors 3002399751580330
	cases := []struct {
		name   string
		shares []float64
		total  int
		prio   []float64
		want   []int
	}{
		// The class of AllocateSlots({1, 2, 5.3e-5}, 2^53, β = 3): 2·2^53/3
		// is an integer above 2^52, and the floors sum one past the total.
		// Σshares = 2^53 + ½, so the quotas are the shares less
		// 1.5/(2^53 + ½) of each: third − ½ + 5.6e-17, 2·third − 1 + 1.1e-16
		// and 1 − 1.7e-16, whose floors leave one unit, to job 2.
		{"floors above total", []float64{third, 2 * third, 1}, 1<<53 - 1, nil,
			[]int{3002399751580330, 6004799503160660, 1}},
		// One job, a unit over: it gives the unit back.
		{"one job over", []float64{1e9 + 1}, 1e9, nil, []int{1e9}},
		// One job, two units short: it takes both.
		{"one job short", []float64{2e9 - 2}, 2e9, nil, []int{2e9}},
		// 9e6 over with two jobs: 4.5e6 whole rounds each.
		{"many rounds over", []float64{1 << 52, 1<<52 + 9e6}, 1 << 53, nil, []int{1<<52 - 4.5e6, 1<<52 + 4.5e6}},
		// 7 short: the quotas 1.5·9/2 = 6.75 and 2.25 (share 0 takes
		// none); their floors leave one unit, to the larger fraction.
		{"many rounds short", []float64{1.5, 0, 0.5}, 9, nil, []int{7, 0, 2}},
		// Quotas 5/3 each: the two units left go to the smaller
		// priorities.
		{"take back by priority", []float64{2, 2, 2}, 5, []float64{1, 3, 2}, []int{2, 1, 2}},
		{"take back by index", []float64{2, 2, 2}, 4, nil, []int{2, 1, 1}},
		// Quotas 3.25/7.5, 1.5/7.5, 2.75/7.5: the one unit to job 0.
		{"rounds past a small job", []float64{3.25, 1.5, 2.75}, 1, nil, []int{1, 0, 0}},
		{"all shares zero", []float64{0, 0}, 3, nil, []int{0, 0}},
		// Total 0: every quota is 0, and the floors {1, 2} all go back.
		{"total 0", []float64{1.5, 2}, 0, nil, []int{0, 0}},
		// R = n = the number of fractions: the textbook rule, a unit each
		// (the quotas 0.27, 0.27, 2.45 would give [0 0 3]).
		{"a unit to every fraction", []float64{0.1, 0.1, 0.9}, 3, nil, []int{1, 1, 1}},
	}
	for _, c := range cases {
		var ws Workspace
		got := make([]int, len(c.shares))
		Apportion(&ws, got, c.shares, c.total, c.prio)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Apportion(%v, %d) = %v, want %v", c.name, c.shares, c.total, got, c.want)
		}
	}
}

// TestApportionLastResort: shares far from total (found by a search over
// random instances), whose quotas, rounded to float64, still leave R
// outside [0, positive shares] — one unit over, 44 over, 467 short — so
// that rounds settles them: Σ = total exactly, a zero share gets nothing,
// and up to 2^53 every job is within two units of its exact quota (beyond
// 2^53, where the last two totals lie, float64 is coarser than a unit).
func TestApportionLastResort(t *testing.T) {
	t.Parallel()
	cases := []struct {
		shares []float64
		total  int
	}{
		{[]float64{4.7896080123851945, 1.3976874914550403, 3}, 9007199254740950},
		{[]float64{1.5, 3.6525536776859315}, 1008603626479965784},
		{[]float64{0, 0.7621737605905075}, 4394289499243445203},
	}
	for _, c := range cases {
		var ws Workspace
		got := make([]int, len(c.shares))
		ApportionBy(&ws, got, c.shares, c.total)
		sum := 0
		for i, d := range got {
			sum += d
			q := quotas(c.shares, c.total)[i]
			off, _ := new(big.Rat).Sub(new(big.Rat).SetInt64(int64(d)), q).Float64()
			if (c.total <= 1<<53 && math.Abs(off) >= 2) || (c.shares[i] == 0 && d != 0) {
				t.Errorf("ApportionBy(%v, %d): job %d gets %d, %v from its quota", c.shares, c.total, i, d, off)
			}
		}
		if sum != c.total {
			t.Errorf("ApportionBy(%v, %d) = %v, Σ = %d", c.shares, c.total, got, sum)
		}
	}
}

// TestApportionSubnormalShares is the regression test of quotas formed
// from shares whose sum is subnormal (found by TestApportionAnyTotal):
// the ratio (Σshares − total)/Σshares overflowed to −Inf, and a lone share
// of 6.95e-310 with total 2 got 0 (Σ = 0, not 2), or with a zero share
// beside it, [1 1] (a unit to the share of 0). The one positive share
// takes the whole total.
func TestApportionSubnormalShares(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shares []float64
		total  int
		want   []int
	}{
		{[]float64{6.953355807835e-310}, 2, []int{2}},
		{[]float64{6.953355807835e-310, 0}, 2, []int{2, 0}},
		{[]float64{0, 5e-324, 0}, 7, []int{0, 7, 0}},
		{[]float64{1e-310, 3e-310}, 4, []int{1, 3}},
	} {
		var ws Workspace
		got := make([]int, len(c.shares))
		Apportion(&ws, got, c.shares, c.total, nil)
		if !slices.Equal(got, c.want) {
			t.Errorf("Apportion(%v, %d) = %v, want %v", c.shares, c.total, got, c.want)
		}
	}
}
