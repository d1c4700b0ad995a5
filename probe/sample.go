package probe

import "math/rand/v2"

// sampleDistinct appends to dst k distinct values of [0, n), a uniformly
// random k-subset in uniformly random order, k ≤ n. When k ≤ n/2 it draws
// by rejection (rng.IntN(n), redrawing a value already drawn; expected
// fewer than 2k draws) and remembers the values drawn in a set of O(k)
// words (a bit set when n ≤ 64·(k+16), else a hash set of 2k to 4k
// entries; competitive's Floyd sampler uses the same); otherwise n < 2k
// and it runs a partial Fisher–Yates shuffle of 0..n−1. Either way nothing
// of size n is built unless n < 2k: time and memory are O(k) (expected
// time for the rejection), however large n is (3 probes among 2³¹ nodes
// took 8 GiB when the rejection marked drawn values in an array of n
// stamps). The output depends only on rng, and the draws are the same as
// with those stamps.
func sampleDistinct(dst []int, n, k int, rng *rand.Rand, ws *Workspace) []int {
	if k <= 0 {
		return dst
	}
	if 2*k <= n {
		return ws.drawn.Distinct(dst, n, k, rng)
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
