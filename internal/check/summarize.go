package check

import "math"

// InfBits are the IEEE bits of +Inf: a float64 is finite and ≥ +0 exactly
// when its bits are smaller, and among such values the order of the bits
// is the order of the values.
const InfBits = 0x7FF0000000000000

// Summary is what one validating pass learns of non-negative values.
type Summary struct {
	Total       float64 // Σ
	Least, Most float64 // min and max (0 and 0 for no values)
}

// Summarize validates xs like NonNegatives — every value finite and ≥ 0,
// the error naming the first bad element, or the element at which the sum
// overflows — and returns their sum, minimum and maximum, in one pass.
// It accepts and rejects exactly the slices NonNegatives does: the sum
// overflows when the running sum in index order does (the contract of
// NonNegatives), and then the error names the element where it did.
//
// The pass works on the IEEE bits, so the checks and the min/max are
// integer compares with one branch that valid input never takes; -0, whose
// sign bit fails the check, goes to the slow path and is accepted as 0. Two
// accumulators halve the floating-point add chain (the sum is still
// deterministic). Their sum rounds differently from the running sum, so
// where the two could disagree on overflow — a pairwise sum of at least
// MaxFloat64/2 — Summarize takes the running sum of NonNegatives instead.
// Below that bound both are within n·2⁻⁵³ of the exact sum, far from
// MaxFloat64 for any slice that fits in memory (n < 2⁵⁰). Hopper's
// allocations validate their snapshots with it.
func Summarize(fn, field string, xs []float64) (Summary, error) {
	least, most := uint64(InfBits), uint64(0)
	var even, odd float64
	i := 0
	for ; i+1 < len(xs); i += 2 {
		a, b := math.Float64bits(xs[i]), math.Float64bits(xs[i+1])
		if a >= InfBits || b >= InfBits {
			x, y := xs[i]+0, xs[i+1]+0 // -0 + 0 == +0
			a, b = math.Float64bits(x), math.Float64bits(y)
			if a >= InfBits || b >= InfBits {
				_, err := NonNegatives(fn, field, xs)
				return Summary{}, err
			}
			least = min(least, a, b)
			most = max(most, a, b)
			even, odd = even+x, odd+y
			continue
		}
		least = min(least, a, b)
		most = max(most, a, b)
		even += xs[i]
		odd += xs[i+1]
	}
	if i < len(xs) {
		x := xs[i] + 0
		a := math.Float64bits(x)
		if a >= InfBits {
			_, err := NonNegatives(fn, field, xs)
			return Summary{}, err
		}
		least = min(least, a)
		most = max(most, a)
		even += x
	}
	s := Summary{Total: even + odd}
	if len(xs) > 0 {
		s.Least, s.Most = math.Float64frombits(least), math.Float64frombits(most)
	}
	if !(s.Total < math.MaxFloat64/2) {
		// Near overflow: the running sum decides, and names the element
		// where it overflows.
		sum, err := NonNegatives(fn, field, xs)
		if err != nil {
			return Summary{}, err
		}
		s.Total = sum
	}
	return s, nil
}

// SummaryOf is Summarize for values already known valid (finite and ≥ 0,
// −0 allowed, their sum finite), without the checks: the same two
// accumulators over the even and odd indices, the same running sum in
// index order from a pairwise total of MaxFloat64/2 on, so the result is
// bit for bit Summarize's. It is a loop of its own, not a call into
// Summarize's, because that one branches on the bits its checks read.
// O(n).
func SummaryOf(xs []float64) Summary {
	const signBit = 1 << 63
	least, most := uint64(math.MaxUint64), uint64(0)
	var even, odd float64
	i := 0
	for ; i+1 < len(xs); i += 2 {
		a, b := math.Float64bits(xs[i])&^signBit, math.Float64bits(xs[i+1])&^signBit // −0 as +0
		least = min(least, a, b)
		most = max(most, a, b)
		even += xs[i]
		odd += xs[i+1]
	}
	if i < len(xs) {
		a := math.Float64bits(xs[i]) &^ signBit
		least = min(least, a)
		most = max(most, a)
		even += xs[i]
	}
	s := Summary{Total: even + odd}
	if len(xs) > 0 {
		s.Least, s.Most = math.Float64frombits(least), math.Float64frombits(most)
	}
	if !(s.Total < math.MaxFloat64/2) {
		s.Total = 0
		for _, x := range xs {
			s.Total += x
		}
	}
	return s
}

// A Tally is a branch-free running test, for a hot loop, that float64s are
// all finite and ≥ +0: it keeps the largest of their IEEE bits, which is
// InfBits or more exactly when one of them is negative, NaN, ±Inf — or
// −0, whose sign bit is set. Its zero value has seen none. After the loop
// one test, Valid, stands for a test per value; where it fails, the
// caller's exact checks name the bad value (and accept a −0 as 0).
type Tally struct{ most uint64 }

// With returns t having also seen x.
func (t Tally) With(x float64) Tally { return Tally{max(t.most, math.Float64bits(x))} }

// Valid reports whether every value t has seen is finite and ≥ +0.
func (t Tally) Valid() bool { return t.most < InfBits }

// A CopyTally is a branch-free running test, for a hot loop, of how many
// copies tasks run: it keeps the OR of c − 1 over the counts c it has seen
// (as unsigned words, so a count below 1 wraps to a word ≥ 2^63). Its
// zero value has seen none. After the loop one test stands for a test
// per task; where it fails, the caller's exact checks name the task.
type CopyTally struct{ extra uint64 }

// With returns t having also seen the count c.
func (t CopyTally) With(c int) CopyTally { return CopyTally{t.extra | (uint64(c) - 1)} }

// Within reports whether every count t has seen lies in [1, 2^31]: then
// every c − 1 is below 2^31, and so is their OR.
func (t CopyTally) Within() bool { return t.extra < 1<<31 }

// Single reports whether every count t has seen is 1.
func (t CopyTally) Single() bool { return t.extra == 0 }
