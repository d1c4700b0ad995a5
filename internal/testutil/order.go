package testutil

import (
	"cmp"
	"slices"
)

// SmallestFirst sorts the job indices in order (in place) into Hopper's
// Algorithm 1 order — increasing remaining[i], ties kept in the order
// given (a stable sort: by index when order is increasing) — and returns
// it. The references of alloc, fairness and internal/hopper share it.
func SmallestFirst(order []int, remaining []float64) []int {
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(remaining[a], remaining[b]) })
	return order
}
