package testutil

import (
	"cmp"
	"math"
	"slices"
)

// LargestRemainder is the textbook largest-remainder (Hamilton) rounding of
// shares to the integer total, written with a sort as a reference for the
// kernels' integer forms: every job gets ⌊shares[i]⌋ and the R units left
// go, one each, to the largest fractional parts, ties to the smaller key
// of each keys slice in turn, then to the smaller index. ok is false when
// the textbook rule does not apply (R < 0, or more units than non-zero
// fractional parts). O(n log n).
func LargestRemainder(shares []float64, total int, keys ...[]float64) (dst []int, ok bool) {
	dst = make([]int, len(shares))
	frac := make([]float64, len(shares))
	left, positive := total, 0
	for i, s := range shares {
		f := math.Floor(s)
		dst[i] = int(f)
		frac[i] = s - f
		left -= dst[i]
		if frac[i] > 0 {
			positive++
		}
	}
	if left < 0 || left > positive {
		return nil, false
	}
	order := make([]int, len(shares))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(frac[b], frac[a]); c != 0 {
			return c
		}
		for _, k := range keys {
			if c := cmp.Compare(k[a], k[b]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	for _, i := range order[:left] {
		dst[i]++
	}
	return dst, true
}
