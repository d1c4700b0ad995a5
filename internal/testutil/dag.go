package testutil

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// DAGJob is dag.Job (dagkernel.Job), copied so that the kernel's own tests
// can use the reference without an import cycle; convert with DAGJob(j).
type DAGJob struct {
	Remaining, Downstream, Alpha float64
}

// DAGReference is Algorithm 3 transcribed case by case from the thesis (with
// k_min read as the last job of least weight among the first k+1): a sort,
// explicit loops over k, and the fill "in order until no slots remain". It
// also returns the case thresholds (the ends of cases 1–3 and the starts of
// case 2), for tests at and around them.
func DAGReference(jobs []DAGJob, slots, beta float64) (out []float64, thresholds []float64) {
	c := 2 / beta
	if beta >= 2 {
		c = 1
	}
	out = make([]float64, len(jobs))
	order := DAGOrder(jobs)
	n := len(order)
	if n == 0 {
		return out, nil
	}
	V := func(p int) float64 { return c * jobs[order[p-1]].Remaining * math.Sqrt(jobs[order[p-1]].Alpha) } // 1-based
	A := func(k int) float64 {
		m := math.Inf(1)
		for p := 1; p <= k; p++ {
			m = min(m, jobs[order[p-1]].Alpha)
		}
		return m
	}
	sumV := func(k int) float64 {
		var s float64
		for p := 1; p <= k; p++ {
			s += V(p)
		}
		return s
	}
	proportional := func(k int) {
		total := sumV(k)
		for p := 1; p <= k; p++ {
			out[order[p-1]] = V(p) / total * slots
		}
	}
	for k := 1; k < n; k++ {
		thresholds = append(thresholds, sumV(k)/math.Sqrt(A(k+1)), sumV(k+1)/math.Sqrt(A(k+1)))
	}
	if n == 1 {
		out[order[0]] = slots
		return out, thresholds
	}
	if slots == 0 {
		return out, thresholds
	}
	// Case 1.
	if slots <= V(1)/math.Sqrt(A(2)) {
		out[order[0]] = slots
		return out, thresholds
	}
	// Case 2.
	for k := 1; k < n; k++ {
		a := A(k + 1)
		if sumV(k)/math.Sqrt(a) < slots && slots <= sumV(k+1)/math.Sqrt(a) {
			kmin := 0
			for p := 1; p <= k+1; p++ {
				if jobs[order[p-1]].Alpha == a {
					kmin = p
				}
			}
			var seq []int
			for p := 1; p <= k+1; p++ {
				if p != kmin {
					seq = append(seq, p)
				}
			}
			seq = append(seq, kmin)
			left := slots
			for _, p := range seq {
				give := min(V(p)/math.Sqrt(a), left)
				out[order[p-1]] = give
				left -= give
			}
			return out, thresholds
		}
	}
	// Case 3.
	for k := 1; k < n-1; k++ {
		if sumV(k+1)/math.Sqrt(A(k+1)) < slots && slots <= sumV(k+1)/math.Sqrt(A(k+2)) {
			proportional(k + 1)
			return out, thresholds
		}
	}
	// Case 4.
	if sumV(n)/math.Sqrt(A(n)) < slots {
		proportional(n)
		return out, thresholds
	}
	panic(fmt.Sprintf("no case of Algorithm 3 applies to S = %v", slots))
}

// DAGOrder is Algorithm 3's order for the references, by sorting:
// the jobs with work, by max{T, T'} ascending, then the larger α, then
// index.
func DAGOrder(jobs []DAGJob) []int {
	var order []int
	for i, j := range jobs {
		if j.Remaining > 0 {
			order = append(order, i)
		}
	}
	key := func(i int) float64 { return max(jobs[i].Remaining, jobs[i].Downstream) }
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(jobs[b].Alpha, jobs[a].Alpha); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return order
}

// NearThreshold reports whether S is within tol (relative, at least
// absolute) of a case threshold, where a different summation order may
// pick the neighbouring case.
func NearThreshold(slots float64, thresholds []float64, tol float64) bool {
	for _, x := range thresholds {
		if math.Abs(slots-x) <= tol*max(1, x) {
			return true
		}
	}
	return false
}
