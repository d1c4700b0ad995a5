package specbase

import "math"

// DollyClones is stragglers.DollyClones's count: the least c in
// [1, MaxClones] with 1 − (1 − p^c)^n ≤ ε (MaxClones if none), granted
// when c > 1, the cluster's utilization is at most τ and Clones + n·(c−1)
// ≤ β·Slots, and 1 otherwise. Precondition: n, cluster and p as
// stragglers.DollyClones accepts them. O(MaxClones).
func DollyClones(n int, cluster DollyCluster, p DollyConfig) int {
	c := DollyCount(n, p)
	if c == 1 || cluster.Utilization > p.Utilization {
		return 1
	}
	// n·(c−1) + Clones in floats: both ≤ 2^53·2^53, no overflow; the
	// budget compares as the paper's β·S.
	if float64(n)*float64(c-1)+float64(cluster.Clones) > p.Budget*float64(cluster.Slots) {
		return 1
	}
	return c
}

// DollyCount is the least c in [1, MaxClones] with 1 − (1 − p^c)^n ≤ ε,
// or MaxClones: written n·log1p(−p^c) ≥ log1p(−ε), accurate for small p^c
// and ε. Edge cases: n = 0, p = 0 or ε = 1 give 1; p = 1 (every copy
// straggles) gives MaxClones for ε < 1.
func DollyCount(n int, p DollyConfig) int {
	if n == 0 || p.StraggleProb == 0 || p.Epsilon == 1 {
		return 1
	}
	bound := math.Log1p(-p.Epsilon) // ≤ 0
	for c := 1; c < p.MaxClones; c++ {
		if float64(n)*math.Log1p(-math.Pow(p.StraggleProb, float64(c))) >= bound {
			return c
		}
	}
	return p.MaxClones
}

// Dolly is stragglers.Dolly's decision, appended to dst[:0]: the free
// slots launch unscheduled tasks in index order, and those left give the
// tasks launched, in index order, up to clones − 1 clones each.
// Precondition: tasks, slots and clones as stragglers.Dolly accepts them,
// c = Count(tasks). O(n).
func Dolly(dst []Action, tasks []TaskStatus, c Counts, slots, clones int) []Action {
	dst = dst[:0]
	launches, extra, ok := launchFirst(c, slots)
	if !ok {
		return dst
	}
	dst = emit(dst, tasks, launches, nil)
	n := len(dst)
	for k := 0; k < n && extra > 0; k++ {
		for range min(clones-1, extra) {
			dst = append(dst, Action{Task: dst[k].Task, Kind: Copy})
			extra--
		}
	}
	return dst
}
