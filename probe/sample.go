package probe

import "math/rand/v2"

// sampleDistinct appends to dst k distinct values of [0, n), a uniformly
// random k-subset in uniformly random order, k ≤ n. It draws by rejection
// with generation stamps when k ≤ n/2 (expected < 2k draws) and by a
// partial Fisher–Yates shuffle of 0..n−1 otherwise, so its cost is O(k)
// (plus O(n) the first time ws grows). The output depends only on rng.
func sampleDistinct(dst []int, n, k int, rng *rand.Rand, ws *Workspace) []int {
	if k <= 0 {
		return dst
	}
	if 2*k <= n {
		ws.nextGen(n)
		for drawn := 0; drawn < k; {
			v := rng.IntN(n)
			if ws.stamp[v] == ws.gen {
				continue
			}
			ws.stamp[v] = ws.gen
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
