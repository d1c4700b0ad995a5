package alloc_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
)

// sharesGen draws real shares summing to an integer total, with exact ties
// among fractional parts (integer weights), and a priority half the time.
func sharesGen(t *rapid.T, maxN int) (shares []float64, total int, priority []float64) {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	total = rapid.IntRange(0, 4*n).Draw(t, "total")
	weights := make([]float64, n)
	var sum float64
	for i := range weights {
		if rapid.Bool().Draw(t, "integerWeight") {
			weights[i] = float64(rapid.IntRange(0, 4).Draw(t, "w"))
		} else {
			weights[i] = rapid.Float64Range(0, 4).Draw(t, "w")
		}
		sum += weights[i]
	}
	if sum == 0 {
		weights[0], sum = 1, 1
	}
	shares = make([]float64, n)
	for i, w := range weights {
		shares[i] = w / sum * float64(total)
	}
	if rapid.Bool().Draw(t, "withPriority") {
		priority = make([]float64, n)
		for i := range priority {
			priority[i] = float64(rapid.IntRange(0, 3).Draw(t, "priority"))
		}
	}
	return shares, total, priority
}

// sumOf returns Σxs.
func sumOf(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// testApportion: Σ = total exactly, every job within one slot of its share,
// integer shares kept exactly, ties in the given priority order — checked
// against a stable sort by (fraction desc, priority asc, index asc).
func testApportion(t *rapid.T) {
	shares, total, priority := sharesGen(t, 50)
	before, beforePrio := slices.Clone(shares), slices.Clone(priority)
	var ws alloc.Workspace
	got, err := alloc.Apportion(nil, shares, total, priority, &ws)
	if err != nil {
		t.Fatalf("Apportion(%v, %d): %v", shares, total, err)
	}
	if diff := cmp.Diff(before, shares); diff != "" || !slices.Equal(beforePrio, priority) {
		t.Fatalf("Apportion modified its input:\n%s", diff)
	}
	if s := sumOf(got); s != total {
		t.Fatalf("Σ = %d, want %d: %v from %v", s, total, got, shares)
	}
	for i, x := range got {
		if math.Abs(float64(x)-shares[i]) >= 1 {
			t.Fatalf("job %d: %d slots for share %g", i, x, shares[i])
		}
		if shares[i] == math.Trunc(shares[i]) && float64(x) != shares[i] {
			t.Fatalf("job %d: %d slots for integer share %g", i, x, shares[i])
		}
	}
	// Ties: whenever job i got the extra unit and job j did not, i must come
	// first in the (fraction desc, priority asc, index asc) order.
	frac := func(i int) float64 { return shares[i] - math.Floor(shares[i]) }
	prio := func(i int) float64 {
		if priority == nil {
			return 0
		}
		return priority[i]
	}
	for i := range got {
		for j := range got {
			up := func(k int) bool { return float64(got[k]) > math.Floor(shares[k]) }
			if up(i) || !up(j) {
				continue
			}
			// j got a unit, i did not: j must precede i.
			if frac(i) > frac(j) || (frac(i) == frac(j) && (prio(i) < prio(j) || (prio(i) == prio(j) && i < j))) {
				t.Fatalf("job %d (fraction %g, priority %g) got the extra unit before job %d (fraction %g, priority %g): %v",
					j, frac(j), prio(j), i, frac(i), prio(i), got)
			}
		}
	}
}

func TestApportion(t *testing.T) { t.Parallel(); rapid.Check(t, testApportion) }

// TestApportionMinimisesMaxDeviation enumerates, for small inputs, every
// non-negative integer vector summing to total and checks that none has a
// smaller largest deviation |x_i − share_i| than Apportion's.
func TestApportionMinimisesMaxDeviation(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		shares, total, _ := sharesGen(t, 4)
		if total > 8 {
			return
		}
		got, err := alloc.Apportion(nil, shares, total, nil, nil)
		if err != nil {
			t.Fatalf("Apportion: %v", err)
		}
		maxDev := func(xs []int) float64 {
			d := 0.0
			for i, x := range xs {
				d = max(d, math.Abs(float64(x)-shares[i]))
			}
			return d
		}
		ours := maxDev(got)
		var walk func(i, left int, xs []int)
		walk = func(i, left int, xs []int) {
			if i == len(xs)-1 {
				xs[i] = left
				if d := maxDev(xs); d < ours-1e-12 {
					t.Fatalf("%v deviates at most %g from %v, Apportion's %v deviates %g", xs, d, shares, got, ours)
				}
				return
			}
			for x := 0; x <= left; x++ {
				xs[i] = x
				walk(i+1, left-x, xs)
			}
		}
		walk(0, total, make([]int, len(shares)))
	})
}

// TestPseudocode1LosesSlots documents why integer forms use Apportion: the
// thesis's Pseudocode 1 floors each proportional share and idles slots.
func TestPseudocode1LosesSlots(t *testing.T) {
	t.Parallel()
	remaining := []float64{1, 1, 1}
	real, _ := alloc.Allocate(nil, remaining, 10, 1.5, nil) // abundant: 10/3 each
	floors := 0
	for _, x := range real {
		floors += int(math.Floor(x))
	}
	ints, _ := alloc.AllocateSlots(nil, remaining, 10, 1.5, nil)
	if floors != 9 || sumOf(ints) != 10 || !slices.Equal(ints, []int{4, 3, 3}) {
		t.Errorf("floors use %d of 10 slots; AllocateSlots gives %v", floors, ints)
	}
}

func TestApportionErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		shares   []float64
		total    int
		priority []float64
		index    int
		field    string
	}{
		{"negative total", []float64{1}, -1, nil, -1, "total"},
		{"huge total", []float64{1}, alloc.MaxTotal + 1, nil, -1, "total"},
		{"NaN share", []float64{1, math.NaN()}, 1, nil, 1, "shares"},
		{"negative share", []float64{-0.5, 1.5}, 1, nil, 0, "shares"},
		{"infinite share", []float64{math.Inf(1)}, 1, nil, 0, "shares"},
		{"shares do not sum to total", []float64{1, 1}, 3, nil, -1, "sum(shares)"},
		{"priority length", []float64{1, 1}, 2, []float64{1}, -1, "len(priority)"},
		{"NaN priority", []float64{1, 1}, 2, []float64{0, math.NaN()}, 1, "priority"},
	}
	for _, tc := range cases {
		dst := []int{9, 9}
		got, err := alloc.Apportion(dst, tc.shares, tc.total, tc.priority, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != tc.field || got != nil || !slices.Equal(dst, []int{9, 9}) {
			t.Errorf("%s: got %v, %v (dst %v); want an InputError for job %d field %q", tc.name, got, err, dst, tc.index, tc.field)
		}
	}
}

// testApportionNoPanic: arbitrary shares, totals and priorities, including
// NaN and ±Inf, give an InputError or a valid apportionment.
func testApportionNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 8).Draw(t, "n")
	anyFloat := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 0.5, 1}))
	shares := rapid.SliceOfN(anyFloat, n, n).Draw(t, "shares")
	var priority []float64
	if rapid.Bool().Draw(t, "withPriority") {
		m := rapid.IntRange(0, n+1).Draw(t, "priorityLen")
		priority = rapid.SliceOfN(anyFloat, m, m).Draw(t, "priority")
	}
	total := rapid.IntRange(-3, 20).Draw(t, "total")
	if rapid.Bool().Draw(t, "consistentTotal") {
		var sum float64
		for _, s := range shares {
			sum += s
		}
		if sum >= 0 && sum < 1e6 {
			total = int(math.Round(sum))
		}
	}
	got, err := alloc.Apportion(nil, shares, total, priority, nil)
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || got != nil {
			t.Fatalf("got %v, %v", got, err)
		}
		return
	}
	if sumOf(got) != total {
		t.Fatalf("Σ = %d, want %d", sumOf(got), total)
	}
	for i, x := range got {
		if math.Abs(float64(x)-shares[i]) >= 1 {
			t.Fatalf("job %d: %d for share %g", i, x, shares[i])
		}
	}
}

func TestApportionNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionNoPanic) }

func FuzzApportion(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testApportionNoPanic)) }

// TestMaxTotalIsCheck: the exported bound is the one every package checks
// integer totals against (check.Total).
func TestMaxTotalIsCheck(t *testing.T) {
	if alloc.MaxTotal != check.MaxTotal {
		t.Fatalf("alloc.MaxTotal = %d, check.MaxTotal = %d", alloc.MaxTotal, check.MaxTotal)
	}
}
