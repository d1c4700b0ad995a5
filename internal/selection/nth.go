package selection

import (
	"cmp"
	"math/bits"
	"slices"
)

// NthElement reorders xs so that xs[k] holds the element a sort by cmp
// would put there, with no element after it ordered before it by cmp and
// none before it after it (0 ≤ k < len(xs)). cmp must be a strict weak
// order. Quickselect with a median-of-three pivot and a three-way
// partition (ties, which the rules' keys have many of, cost nothing);
// should it take more than 2·log2(n) rounds it sorts what is left, so the
// cost is O(n) expected and O(n log n) at worst.
func NthElement[T any](xs []T, k int, cmp func(a, b T) int) {
	lo, hi := 0, len(xs)
	rounds := 2 * bits.Len(uint(len(xs)))
	// The pivot is the median of three pseudo-random elements: a fixed
	// xorshift sequence, so that results (and costs) are deterministic,
	// and structured inputs — sorted, reversed, organ pipes, which defeat
	// fixed positions — cost no more than random ones.
	state := uint64(len(xs))*0x9E3779B97F4A7C15 | 1
	next := func() uint64 {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return state
	}
	for hi-lo > 12 {
		if rounds == 0 {
			slices.SortFunc(xs[lo:hi], cmp)
			return
		}
		rounds--
		span := uint64(hi - lo)
		a, b, c := lo+int(next()%span), lo+int(next()%span), lo+int(next()%span)
		pivot := medianOfThree(xs[a], xs[b], xs[c], cmp)
		lt, i, gt := lo, lo, hi // [lo, lt) < pivot, [lt, i) = pivot, [gt, hi) > pivot
		for i < gt {
			switch c := cmp(xs[i], pivot); {
			case c < 0:
				xs[lt], xs[i] = xs[i], xs[lt]
				lt++
				i++
			case c > 0:
				gt--
				xs[i], xs[gt] = xs[gt], xs[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return // xs[k] equals the pivot, in its final place
		}
	}
	slices.SortFunc(xs[lo:hi], cmp)
}

// medianOfThree returns the median of a, b, c under cmp.
func medianOfThree[T any](a, b, c T, cmp func(a, b T) int) T {
	if cmp(b, a) < 0 {
		a, b = b, a
	}
	if cmp(c, b) < 0 {
		b = c
		if cmp(b, a) < 0 {
			b = a
		}
	}
	return b
}

// Median returns the median of xs (len ≥ 1, no NaN): the middle value, or
// for an even count the mean of the two middle values, (lo+hi)/2 computed
// as lo + (hi−lo)/2 so that it cannot overflow. xs is reordered. O(n)
// expected (NthElement), O(n log n) at worst. Spark's speculation threshold
// reads it (stragglers.SparkSpeculate, and the slot simulator's stage
// statistics).
func Median(xs []float64) float64 {
	n := len(xs)
	NthOrdered(xs, n/2)
	hi := xs[n/2]
	if n%2 == 1 {
		return hi
	}
	lo := slices.Max(xs[:n/2]) // the (n/2 − 1)-th: the largest below
	return lo + (hi-lo)/2
}

// NthOrdered is NthElement for an ordered type under its own <, without
// a comparison function: the same quickselect (the same pivots, so the
// same result) at a fraction of the cost, each comparison inlined instead
// of called. xs must hold no NaN (under which < is no strict weak order).
// O(n) expected, O(n log n) at worst. LATE's percentile of progress rates
// (stragglers.LATE, the slot simulator's LATERule at every decision) and
// Median use it.
func NthOrdered[T cmp.Ordered](xs []T, k int) {
	lo, hi := 0, len(xs)
	rounds := 2 * bits.Len(uint(len(xs)))
	state := uint64(len(xs))*0x9E3779B97F4A7C15 | 1
	for hi-lo > 12 {
		if rounds == 0 {
			slices.Sort(xs[lo:hi])
			return
		}
		rounds--
		span := uint64(hi - lo)
		var pick [3]T
		for j := range pick {
			state ^= state << 13
			state ^= state >> 7
			state ^= state << 17
			pick[j] = xs[lo+int(state%span)]
		}
		pivot := medianOfThree(pick[0], pick[1], pick[2], cmp.Compare[T])
		lt, i, gt := lo, lo, hi // [lo, lt) < pivot, [lt, i) = pivot, [gt, hi) > pivot
		for i < gt {
			switch x := xs[i]; {
			case x < pivot:
				xs[lt], xs[i] = x, xs[lt]
				lt++
				i++
			case pivot < x:
				gt--
				xs[i], xs[gt] = xs[gt], x
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return // xs[k] equals the pivot, in its final place
		}
	}
	slices.Sort(xs[lo:hi])
}
