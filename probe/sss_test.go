package probe

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// testStateVectorModel checks StateVector against a []bool model.
func testStateVectorModel(t *rapid.T) {
	n := rapid.IntRange(0, 200).Draw(t, "nodes")
	v, err := NewStateVector(n, 1.5)
	if err != nil {
		t.Fatalf("NewStateVector: %v", err)
	}
	model := make([]bool, n)
	t.Repeat(map[string]func(*rapid.T){
		"set": func(t *rapid.T) {
			i := rapid.IntRange(-2, n+2).Draw(t, "i")
			long := rapid.Bool().Draw(t, "long")
			ok := v.SetLong(i, long)
			if ok != (i >= 0 && i < n) {
				t.Fatalf("SetLong(%d) = %v", i, ok)
			}
			if ok {
				model[i] = long
			}
		},
		"clone": func(t *rapid.T) {
			c := v.Clone(nil)
			c.SetLong(0, !c.Long(0)) // must not affect v
			v = v.Clone(new(StateVector))
		},
		"": func(t *rapid.T) {
			count := 0
			for i, b := range model {
				if v.Long(i) != b {
					t.Fatalf("Long(%d) = %v; want %v", i, v.Long(i), b)
				}
				if b {
					count++
				}
			}
			if v.CountLong() != count || v.Len() != n || v.Long(-1) || v.Long(n) {
				t.Fatalf("CountLong %d want %d, Len %d want %d", v.CountLong(), count, v.Len(), n)
			}
		},
	})
}

func TestStateVectorModel(t *testing.T) { t.Parallel(); rapid.Check(t, testStateVectorModel) }

func TestStateVectorEdges(t *testing.T) {
	t.Parallel()
	var nilVec *StateVector
	if nilVec.Len() != 0 || nilVec.Long(0) || nilVec.SetLong(0, true) || nilVec.CountLong() != 0 {
		t.Fatal("nil vector not empty")
	}
	if c := nilVec.Clone(nil); c.Len() != 0 {
		t.Fatal("clone of nil not empty")
	}
	for _, n := range []int{-1, MaxProbes + 1} {
		if _, err := NewStateVector(n, 0); !isInputError(err) {
			t.Errorf("NewStateVector(%d): %v", n, err)
		}
	}
	if _, err := NewStateVector(3, math.NaN()); !isInputError(err) {
		t.Errorf("NaN time: %v", err)
	}
}

func TestFreshest(t *testing.T) {
	t.Parallel()
	mk := func(time float64) *StateVector { v, _ := NewStateVector(1, time); return v }
	cases := []struct {
		vs   []*StateVector
		want int
	}{
		{nil, -1},
		{[]*StateVector{nil, mk(math.NaN())}, -1},
		{[]*StateVector{mk(1), mk(3), mk(2)}, 1},
		{[]*StateVector{mk(3), nil, mk(3)}, 0}, // tie: first
		{[]*StateVector{mk(math.NaN()), mk(-1)}, 1},
		{[]*StateVector{mk(math.Inf(-1)), mk(math.Inf(1))}, 1},
	}
	for i, c := range cases {
		if got := Freshest(c.vs); got != c.want {
			t.Errorf("case %d: Freshest = %d; want %d", i, got, c.want)
		}
	}
}

// testPlaceProbes: probes land in range, on distinct nodes when they fit
// and evenly spread when they do not; same seed, same nodes.
func testPlaceProbes(t *rapid.T) {
	first := rapid.IntRange(0, 50).Draw(t, "first")
	count := rapid.IntRange(1, 60).Draw(t, "count")
	probes := rapid.IntRange(0, 150).Draw(t, "probes")
	seed := rapid.Uint64().Draw(t, "seed")
	var ws Workspace
	got, err := PlaceProbes(nil, first, count, probes, rngFrom(seed), &ws)
	if err != nil {
		t.Fatalf("PlaceProbes: %v", err)
	}
	if len(got) != probes {
		t.Fatalf("len = %d; want %d", len(got), probes)
	}
	per := make(map[int]int)
	for _, v := range got {
		if v < first || v >= first+count {
			t.Fatalf("node %d outside [%d, %d)", v, first, first+count)
		}
		per[v]++
	}
	lo, hi := probes/count, (probes+count-1)/count
	for v := first; v < first+count; v++ {
		if per[v] < lo || per[v] > hi {
			t.Fatalf("node %d has %d probes; want %d..%d", v, per[v], lo, hi)
		}
	}
	again, _ := PlaceProbes(nil, first, count, probes, rngFrom(seed), nil)
	if d := cmp.Diff(got, again, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("not deterministic:\n%s", d)
	}
}

func TestPlaceProbes(t *testing.T) { t.Parallel(); rapid.Check(t, testPlaceProbes) }

// chiSquareUniform fails unless counts look uniform: Pearson's statistic
// against the χ² quantile at 1 − 1e-6 (a false alarm once in a million).
func chiSquareUniform(t *testing.T, counts []int, name string) {
	t.Helper()
	total := 0
	for _, c := range counts {
		total += c
	}
	want := float64(total) / float64(len(counts))
	stat := 0.0
	for _, c := range counts {
		d := float64(c) - want
		stat += d * d / want
	}
	crit := distuv.ChiSquared{K: float64(len(counts) - 1)}.Quantile(1 - 1e-6)
	if stat > crit {
		t.Errorf("%s: χ² = %.1f > %.1f: not uniform (counts %v)", name, stat, crit, counts)
	}
}

// TestPlaceProbesUniform: every node and every ordered position is equally
// likely, for the sparse (rejection) and the dense (shuffle) sampler.
func TestPlaceProbesUniform(t *testing.T) {
	t.Parallel()
	trials := 20000
	if testing.Short() {
		trials = 5000
	}
	for _, probes := range []int{3, 9, 13} { // 13 > 10: one full round + 3
		rng := rngFrom(uint64(probes))
		var ws Workspace
		counts := make([]int, 10)
		firstPos := make([]int, 10)
		var dst []int
		for i := 0; i < trials; i++ {
			dst, _ = PlaceProbes(dst, 0, 10, probes, rng, &ws)
			for _, v := range dst {
				counts[v]++
			}
			firstPos[dst[len(dst)-1]]++
		}
		chiSquareUniform(t, counts, "nodes")
		chiSquareUniform(t, firstPos, "last position")
	}
}

// testReplaceProbes: re-placed probes only go to nodes free of long tasks,
// distinct when they fit, sorted, and none when no node is free.
func testReplaceProbes(t *rapid.T) {
	n := rapid.IntRange(0, 200).Draw(t, "nodes")
	v, _ := NewStateVector(n, 0)
	var freeNodes []int
	for i := 0; i < n; i++ {
		if rapid.IntRange(0, 3).Draw(t, "longOneIn4") == 0 || rapid.Bool().Draw(t, "long") {
			v.SetLong(i, true)
		} else {
			freeNodes = append(freeNodes, i)
		}
	}
	before := v.Clone(nil)
	probes := rapid.IntRange(0, 250).Draw(t, "probes")
	got, err := ReplaceProbes(nil, v, probes, drawRNG(t, "seed"), nil)
	if err != nil {
		t.Fatalf("ReplaceProbes: %v", err)
	}
	if d := cmp.Diff(before, v, cmp.AllowUnexported(StateVector{}), cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("vector modified:\n%s", d)
	}
	if len(freeNodes) == 0 || probes == 0 {
		if len(got) != 0 {
			t.Fatalf("got %v with %d free nodes and %d probes", got, len(freeNodes), probes)
		}
		return
	}
	if len(got) != probes || !slices.IsSorted(got) {
		t.Fatalf("got %v; want %d sorted nodes", got, probes)
	}
	per := make(map[int]int)
	for _, node := range got {
		if _, ok := slices.BinarySearch(freeNodes, node); !ok {
			t.Fatalf("node %d holds a long task", node)
		}
		per[node]++
	}
	lo, hi := probes/len(freeNodes), (probes+len(freeNodes)-1)/len(freeNodes)
	for _, node := range freeNodes {
		if per[node] < lo || per[node] > hi {
			t.Fatalf("node %d has %d probes; want %d..%d", node, per[node], lo, hi)
		}
	}
}

func TestReplaceProbes(t *testing.T) { t.Parallel(); rapid.Check(t, testReplaceProbes) }

func TestReplaceProbesUniform(t *testing.T) {
	t.Parallel()
	v, _ := NewStateVector(130, 0) // spans three words
	var freeNodes []int
	for i := 0; i < 130; i++ {
		if i%3 == 0 || (i > 60 && i < 70) {
			v.SetLong(i, true)
		} else {
			freeNodes = append(freeNodes, i)
		}
	}
	idx := make(map[int]int)
	for k, node := range freeNodes {
		idx[node] = k
	}
	counts := make([]int, len(freeNodes))
	rng := rngFrom(7)
	var ws Workspace
	var dst []int
	trials := 4000
	if testing.Short() {
		trials = 1000
	}
	for i := 0; i < trials; i++ {
		dst, _ = ReplaceProbes(dst, v, 20, rng, &ws)
		for _, node := range dst {
			counts[idx[node]]++
		}
	}
	chiSquareUniform(t, counts, "free nodes")
}

func testPlacementNoPanic(t *rapid.T) {
	first := rapid.IntRange(-3, MaxProbes+3).Draw(t, "first")
	count := rapid.IntRange(-3, 300).Draw(t, "count")
	probes := rapid.IntRange(-3, 300).Draw(t, "probes")
	var rng = drawRNG(t, "seed")
	if rapid.IntRange(0, 9).Draw(t, "nilRNGOneIn10") == 0 {
		rng = nil
	}
	dst := []int{-9, -9}
	got, err := PlaceProbes(dst, first, count, probes, rng, nil)
	if err != nil {
		if !isInputError(err) || got != nil || dst[0] != -9 {
			t.Fatalf("error %v, got %v, dst %v", err, got, dst)
		}
	} else {
		for _, v := range got {
			if v < first || v >= first+count {
				t.Fatalf("node %d outside [%d, %d)", v, first, first+count)
			}
		}
	}
	vec, verr := NewStateVector(rapid.IntRange(-3, 200).Draw(t, "nodes"), anyFloat(t, "time"))
	if verr != nil && !isInputError(verr) {
		t.Fatalf("NewStateVector error %T", verr)
	}
	for i := 0; i < vec.Len(); i += 3 {
		vec.SetLong(i, true)
	}
	got, err = ReplaceProbes(nil, vec, probes, rng, nil)
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %T", err)
		}
		return
	}
	for _, v := range got {
		if vec.Long(v) || v < 0 || v >= vec.Len() {
			t.Fatalf("node %d not free", v)
		}
	}
	_ = Freshest([]*StateVector{vec, nil})
}

func TestPlacementNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testPlacementNoPanic) }
func FuzzPlaceProbes(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testPlacementNoPanic)) }
func FuzzReplaceProbes(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testPlacementNoPanic)) }

func FuzzStateVector(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testStateVectorModel)) }
func FuzzFreshest(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testPlacementNoPanic)) }
