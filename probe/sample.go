package probe

import "math/rand/v2"

// sampleDistinct appends to dst k distinct values of [0, n), a uniformly
// random k-subset in uniformly random order, k ≤ n. When k ≤ n/2 it draws
// by rejection (rng.IntN(n), redrawing a value already drawn; expected
// fewer than 2k draws) and remembers the values drawn in an open-addressing
// hash set of 2k to 4k entries; otherwise n < 2k and it runs a partial
// Fisher–Yates shuffle of 0..n−1. Either way nothing of size n is built
// unless n < 2k: time and memory are O(k) (expected time for the
// rejection), however large n is (3 probes among 2³¹ nodes took 8 GiB when
// the rejection marked drawn values in an array of n stamps).
// The output depends only on rng, and the draws are the same as with those
// stamps.
func sampleDistinct(dst []int, n, k int, rng *rand.Rand, ws *Workspace) []int {
	if k <= 0 {
		return dst
	}
	if 2*k <= n {
		set := ws.drawnSet(k)
		for drawn := 0; drawn < k; {
			v := rng.IntN(n)
			if !set.insert(v) {
				continue
			}
			dst = append(dst, v)
			drawn++
		}
		return dst
	}
	if cap(ws.perm) < n {
		ws.perm = make([]int, n)
	}
	perm := ws.perm[:n]
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return append(dst, perm[:k]...)
}

// sampleSpread appends k values of [0, n), n ≥ 1, spread as evenly as
// possible: each value ⌊k/n⌋ times in order, then k mod n distinct values
// at random (sampleDistinct). With k ≤ n it is sampleDistinct.
func sampleSpread(dst []int, n, k int, rng *rand.Rand, ws *Workspace) []int {
	for ; k >= n; k -= n {
		for v := 0; v < n; v++ {
			dst = append(dst, v)
		}
	}
	return sampleDistinct(dst, n, k, rng, ws)
}

// sampleIID appends k values of [0, n), n ≥ 1, each drawn independently
// and uniformly (rng.IntN(n) per value, so values may repeat): sampling
// with replacement. O(k) time, no scratch memory.
func sampleIID(dst []int, n, k int, rng *rand.Rand) []int {
	for ; k > 0; k-- {
		dst = append(dst, rng.IntN(n))
	}
	return dst
}

// sample appends k values of [0, n), n ≥ 1, drawn as s says: spread over
// distinct values (sampleSpread) or independently (sampleIID).
func sample(dst []int, n, k int, s Sampling, rng *rand.Rand, ws *Workspace) []int {
	if s == WithReplacement {
		return sampleIID(dst, n, k, rng)
	}
	return sampleSpread(dst, n, k, rng, ws)
}

// intSet is an open-addressing hash set of non-negative ints with linear
// probing; slot value 0 means empty and v is stored as v+1. Its table has
// a power-of-two size at least twice the number of values it will hold,
// so a probe sequence is short on average.
type intSet struct {
	slots []uint64
	shift uint // 64 − log2(len(slots))
}

// drawnSet returns ws's set, empty, sized for k values: 2k to 4k slots.
// O(k); allocation-free once ws has held a set that large.
func (ws *Workspace) drawnSet(k int) *intSet {
	bits := uint(1)
	for 1<<bits < 2*k {
		bits++
	}
	size := 1 << bits
	if cap(ws.set.slots) < size {
		ws.set.slots = make([]uint64, size)
	}
	ws.set.slots = ws.set.slots[:size]
	clear(ws.set.slots)
	ws.set.shift = 64 - bits
	return &ws.set
}

// insert adds v ≥ 0 and reports whether it was absent. Fibonacci hashing
// spreads consecutive values over the table.
func (s *intSet) insert(v int) bool {
	key := uint64(v) + 1
	mask := uint64(len(s.slots) - 1)
	for i := (key * 0x9e3779b97f4a7c15) >> s.shift; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = key
			return true
		case key:
			return false
		}
	}
}
