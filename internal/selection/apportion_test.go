package selection

import (
	"cmp"
	"math"
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

// testApportionAnyTotal: for any total — the floors' sum far below or
// above it included — ApportionBy hands out the units in the rank order
// referenceUnits follows one at a time, and sums to total whenever some
// share is positive.
// ReferenceUnits serves the external tests (apportion_ext_test.go).
var ReferenceUnits = referenceUnits

func testApportionAnyTotal(t *rapid.T) {
	n := rapid.IntRange(1, 60).Draw(t, "n")
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
	total := rapid.IntRange(0, int(sum)+3*n).Draw(t, "total")
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
	want := referenceUnits(shares, total, first, second)
	if !slices.Equal(got, want) {
		t.Fatalf("ApportionBy(%v, total %d) = %v, unit by unit %v (keys %v %v)", shares, total, got, want, first, second)
	}
	if sum > 0 {
		s := 0
		for _, d := range got {
			s += d
		}
		if s != total {
			t.Fatalf("Σ = %d, want %d", s, total)
		}
	}
	if !slices.Equal(shares, orig) {
		t.Fatal("shares modified")
	}
}

func TestApportionAnyTotal(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionAnyTotal) }

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
		// is an integer above 2^52, and the floors sum one past the total;
		// the units ranking lowest are those of the integer shares (frac
		// 0), and of those the larger index gives its unit back.
		{"floors above total", []float64{third, 2 * third, 1}, 1<<53 - 1, nil,
			[]int{3002399751580330, 6004799503160661, 0}},
		// One job, a unit over: it gives the unit back.
		{"one job over", []float64{1e9 + 1}, 1e9, nil, []int{1e9}},
		// One job, two units short: it takes both.
		{"one job short", []float64{2e9 - 2}, 2e9, nil, []int{2e9}},
		// 9e6 over with two jobs: 4.5e6 whole rounds each.
		{"many rounds over", []float64{1 << 52, 1<<52 + 9e6}, 1 << 53, nil, []int{1<<52 - 4.5e6, 1<<52 + 4.5e6}},
		// 8 short over jobs 1.5 and 0.5 (share 0 takes none): 4 rounds
		// each.
		{"many rounds short", []float64{1.5, 0, 0.5}, 9, nil, []int{5, 0, 4}},
		// A tie on the fraction in a partial round of taking back: the
		// larger priority gives its unit back first.
		{"take back by priority", []float64{2, 2, 2}, 5, []float64{1, 3, 2}, []int{2, 1, 2}},
		{"take back by index", []float64{2, 2, 2}, 4, nil, []int{2, 1, 1}},
		// Floors {3, 1, 2} and 5 over: one whole round from all three, a
		// second from jobs 0 and 2 (job 1 has nothing left); the one unit
		// kept is the highest ranked, job 0's 3.25.
		{"rounds past a small job", []float64{3.25, 1.5, 2.75}, 1, nil, []int{1, 0, 0}},
		{"all shares zero", []float64{0, 0}, 3, nil, []int{0, 0}},
		{"negative total", []float64{0, 0}, -1, nil, []int{0, 0}},
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
