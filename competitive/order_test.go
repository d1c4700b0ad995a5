package competitive

import (
	"slices"
	"testing"
)

// TestSortByLoadTiesByIndex: jobs of equal load are served in index order
// (SEW's and SREW+C's tie-break), also when most loads tie and the sort
// takes its pattern-defeating paths (n = 100).
func TestSortByLoadTiesByIndex(t *testing.T) {
	t.Parallel()
	for _, n := range []int{5, 100} {
		load := make([]float64, n)
		order := make([]int, n)
		for i := range load {
			load[i] = float64(i % 3) // loads 0, 1, 2, 0, 1, 2, …
			order[i] = n - 1 - i     // start from reversed indices
		}
		sortByLoad(order, load)
		want := make([]int, 0, n)
		for l := range 3 {
			for i := range n {
				if i%3 == l {
					want = append(want, i)
				}
			}
		}
		if !slices.Equal(order, want) {
			t.Errorf("n = %d: order %v, want %v", n, order, want)
		}
	}
}
