package selection

import "math"

// Branch-free building blocks for the algorithm packages' hot loops, where
// whether a record counts (a task is running, is eligible for a copy, lies
// below a cut) follows no pattern from one record to the next, so that an
// if would mispredict about half the time. Each compiles to a flag set
// from the comparison (SETcc) and integer arithmetic; the loops that call
// them read as plain lists and counts.

// Indicator is 1 for true and 0 for false, without a branch.
func Indicator(b bool) int {
	if b { // compiled as a SETcc, not a jump
		return 1
	}
	return 0
}

// AppendIfBoth appends i to the list at[:n] when a and b both hold: it
// writes i to at[n] whatever they are, and returns n + 1 if both hold, n
// if not, so that the list grows without a branch (both conditions are
// evaluated: they must be cheap and free of side effects). at must have
// room for it: n < len(at).
func AppendIfBoth(at []int, n, i int, a, b bool) int {
	at[n] = i
	return n + Indicator(a)&Indicator(b)
}

// AppendIfAll is AppendIfBoth for three conditions.
func AppendIfAll(at []int, n, i int, a, b, c bool) int {
	at[n] = i
	return n + Indicator(a)&Indicator(b)&Indicator(c)
}

// Smallest keeps the n entries of at whose keys are the smallest (keys[k]
// is at[k]'s), ties going to the earlier entry, and returns them in at's
// order and storage (at[:n]). keys are finite, with len(keys) = len(at)
// ≥ n ≥ 0; smallest and largest are the least and the greatest of them,
// which a caller that has just written the keys knows (SearchRange). keys
// is not modified. O(len(keys)): a radix selection of the n-th smallest
// key, then one pass.
func Smallest(ws *Workspace, at []int, keys []float64, n int, smallest, largest float64) []int {
	cut := SearchRange(ws, keys, smallest, largest, Count, func(incl Stats, _ float64, _ bool) bool {
		return incl.Count >= n
	})
	// One pass in at's order, taking every key below the cut and the first
	// `tied` at it. Whether a key is below follows no pattern, so the pass
	// computes it rather than branching on it; a key at the cut is rare
	// (for continuous keys) and branches.
	tied := n - cut.Before.Count // entries left for the group at the cut
	kept := 0
	for k, key := range keys {
		take := Indicator(key < cut.Value)
		if key == cut.Value && tied > 0 {
			take, tied = 1, tied-1
		}
		i := at[k]
		at[kept] = i // kept ≤ k: never ahead of the read
		kept += take
	}
	return at[:kept]
}

// A Span is the least and the greatest of non-negative float64s (never −0
// nor NaN), kept without a branch per value: the IEEE bits of such floats
// are ordered like the floats, so it keeps an integer minimum and maximum,
// which compile to conditional moves where float comparisons would branch
// on every new extreme. For a loop that writes keys and wants their range
// for SearchRange or Smallest at no extra pass. The zero value is the span
// of no value (it keeps the complement of the least bits).
type Span struct{ notLeast, most uint64 }

// With returns s having also seen x.
func (s Span) With(x float64) Span {
	b := math.Float64bits(x)
	return Span{notLeast: max(s.notLeast, ^b), most: max(s.most, b)}
}

// Least and Most are the least and the greatest value seen (NaN and 0
// for the span of no value).
func (s Span) Least() float64 { return math.Float64frombits(^s.notLeast) }

func (s Span) Most() float64 { return math.Float64frombits(s.most) }
