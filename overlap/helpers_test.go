package overlap

import (
	"fmt"
	"math"
	"sort"

	"pgregory.net/rapid"
)

// allAlgorithms lists every policy.
var allAlgorithms = []Algorithm{MaxSRPT, MaxSRPTStrict, SplitSRPT, SplitSRPTStrict, KLPS, FIFO}

// relTol is the tolerance of comparisons between this package's results and
// the tests' references: both are sums of a few products of the inputs, so
// they agree to ~1e-15 relative; 1e-9 leaves room for the longer event
// chains of the simulator checks without hiding any modelling error (those
// are of the order of the sizes).
const relTol = 1e-9

func near(a, b, scale float64) bool {
	return math.Abs(a-b) <= relTol*math.Max(1, scale)
}

// sizeGen draws a job size: zero, a small integer (to make ties of keys and
// of sums likely) or a real in [0.01, 10].
func sizeGen() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Just(0.0), rapid.SampledFrom([]float64{1, 2, 3}), rapid.Float64Range(0.01, 10))
}

// genSnapshot draws a valid snapshot of up to maxJobs jobs: arrival times
// with ties, zero sizes, jobs that have left, jobs whose available shuffle
// work is exactly zero (rate-limited) and jobs with some available work.
func genSnapshot(t *rapid.T, maxJobs int) []Job {
	n := rapid.IntRange(0, maxJobs).Draw(t, "n")
	jobs := make([]Job, n)
	for i := range jobs {
		label := fmt.Sprintf("job%d.", i)
		x := sizeGen().Draw(t, label+"map")
		y := sizeGen().Draw(t, label+"shuffle")
		frac := rapid.OneOf(rapid.Just(0.0), rapid.Just(1.0), rapid.Just(0.5), rapid.Float64Range(0, 1)).Draw(t, label+"mapLeft")
		xr := x * frac
		if x == 0 {
			frac = 0
		}
		// Remaining shuffle: between y·frac (no available work) and y.
		mode := rapid.IntRange(0, 2).Draw(t, label+"shuffleMode")
		yr := y * frac
		switch mode {
		case 1:
			yr = y
		case 2:
			yr = y * (frac + (1-frac)*rapid.Float64Range(0, 1).Draw(t, label+"shuffleLeft"))
		}
		jobs[i] = Job{
			Arrival:          float64(rapid.IntRange(0, 3).Draw(t, label+"arrival")),
			Map:              x,
			Shuffle:          y,
			RemainingMap:     xr,
			RemainingShuffle: math.Min(yr, y),
		}
	}
	return jobs
}

// genArrivals draws a sorted simulation input of up to maxJobs jobs, with
// simultaneous arrivals, zero sizes and idle gaps.
func genArrivals(t *rapid.T, maxJobs int) []Arrival {
	n := rapid.IntRange(0, maxJobs).Draw(t, "n")
	jobs := make([]Arrival, n)
	now := 0.0
	for i := range jobs {
		label := fmt.Sprintf("job%d.", i)
		now += rapid.OneOf(rapid.Just(0.0), rapid.SampledFrom([]float64{0.5, 1, 4}), rapid.Float64Range(0, 3)).Draw(t, label+"gap")
		jobs[i] = Arrival{Time: now, Map: sizeGen().Draw(t, label+"map"), Shuffle: sizeGen().Draw(t, label+"shuffle")}
	}
	return jobs
}

func genPolicy(t *rapid.T) Discipline {
	kind := rapid.SampledFrom(allAlgorithms).Draw(t, "kind")
	k := rapid.SampledFrom([]int{0, 1, 2, 3}).Draw(t, "k")
	return Discipline{Algorithm: kind, K: k}
}

// refAvail is the available shuffle work of a snapshot job, from the
// fractions of (1): y(t)/y − x(t)/x of the job's shuffle size, with the
// package's tolerance for "none".
func refAvail(j Job) float64 {
	if j.RemainingShuffle == 0 {
		return 0
	}
	if j.Map == 0 || j.RemainingMap == 0 {
		return j.RemainingShuffle
	}
	a := (j.RemainingShuffle/j.Shuffle - j.RemainingMap/j.Map) * j.Shuffle
	if a <= availTol*j.Shuffle {
		return 0
	}
	return a
}

func present(j Job) bool { return j.RemainingMap > 0 || j.RemainingShuffle > 0 }

// refOrder returns the present jobs accepted by keep, sorted by key (by
// sort.SliceStable on (key, arrival, index)).
func refOrder(jobs []Job, keep func(Job) bool, key func(Job) float64) []int {
	var order []int
	for i, j := range jobs {
		if present(j) && keep(j) {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		ja, jb := jobs[order[a]], jobs[order[b]]
		if ka, kb := key(ja), key(jb); ka != kb {
			return ka < kb
		}
		if ja.Arrival != jb.Arrival {
			return ja.Arrival < jb.Arrival
		}
		return order[a] < order[b]
	})
	return order
}

// refWalk serves the jobs of order as a priority station pair: map capacity
// to the first job with map work; then shuffle capacity down the order,
// each job taking what its available work allows (unlimited, or (y/x)·its
// map rate) — only the first job with shuffle work if strict. It returns the
// shuffle capacity used.
func refWalk(out []Rate, jobs []Job, order []int, pcap, scap float64, strict bool) float64 {
	for _, i := range order {
		if jobs[i].RemainingMap > 0 {
			out[i].Map = pcap
			break
		}
	}
	rem := scap
	for _, i := range order {
		j := jobs[i]
		if j.RemainingShuffle == 0 {
			continue
		}
		lim := math.Inf(1)
		if refAvail(j) == 0 {
			lim = j.Shuffle / j.Map * out[i].Map
		}
		g := math.Min(rem, lim)
		out[i].Shuffle = g
		rem -= g
		if strict {
			break
		}
	}
	return scap - rem
}

// refRates is a sort-based reference for Rates.
func refRates(jobs []Job, speed float64, p Discipline) []Rate {
	out := make([]Rate, len(jobs))
	if speed == 0 {
		return out
	}
	all := func(Job) bool { return true }
	keyMaxRef := func(j Job) float64 { return math.Max(j.RemainingMap, j.RemainingShuffle) }
	switch p.Algorithm {
	case MaxSRPT, MaxSRPTStrict:
		refWalk(out, jobs, refOrder(jobs, all, keyMaxRef), speed, speed, p.Algorithm == MaxSRPTStrict)
	case FIFO:
		refWalk(out, jobs, refOrder(jobs, all, func(j Job) float64 { return j.Arrival }), speed, speed, false)
	case SplitSRPT, SplitSRPTStrict:
		beta := math.Inf(1)
		any := false
		for _, j := range jobs {
			if present(j) {
				any = true
				if j.Map > 0 && j.Shuffle > 0 {
					beta = math.Min(beta, math.Max(j.Map/j.Shuffle, j.Shuffle/j.Map))
				}
			}
		}
		if !any {
			return out
		}
		mu1, mu2 := 1/(1+beta), beta/(1+beta)
		if math.IsInf(beta, 1) {
			mu1, mu2 = 0, 1
		}
		mapHeavy := refOrder(jobs, func(j Job) bool { return j.Map >= j.Shuffle }, func(j Job) float64 { return j.RemainingMap })
		shufHeavy := refOrder(jobs, func(j Job) bool { return j.Map < j.Shuffle }, func(j Job) float64 { return j.RemainingShuffle })
		orders := [2][]int{mapHeavy, shufHeavy}
		pcap := [2]float64{mu2 * speed, mu1 * speed}
		scap := [2]float64{mu1 * speed, mu2 * speed}
		if p.Algorithm == SplitSRPT {
			hasMap := func(order []int) bool {
				for _, i := range order {
					if jobs[i].RemainingMap > 0 {
						return true
					}
				}
				return false
			}
			total := pcap[0] + pcap[1]
			if !hasMap(orders[0]) {
				pcap[1] = total
			}
			if !hasMap(orders[1]) {
				pcap[0] = total
			}
			var used [2]float64
			for c := range orders {
				used[c] = refWalk(out, jobs, orders[c], pcap[c], scap[c], false)
			}
			for c := range orders {
				refWalk(out, jobs, orders[c], pcap[c], scap[c]+(scap[1-c]-used[1-c]), false)
			}
		} else {
			for c := range orders {
				refWalk(out, jobs, orders[c], pcap[c], scap[c], false)
			}
		}
	case KLPS:
		order := refOrder(jobs, func(j Job) bool { return j.RemainingMap > 0 }, func(j Job) float64 { return j.Arrival })
		if len(order) > p.k() {
			order = order[:p.k()]
		}
		for _, i := range order {
			out[i].Map = speed / float64(len(order))
		}
		// Processor sharing by bisection on the level θ: each job with
		// shuffle work gets min(θ, its limit), and Σ = speed unless every
		// job is at its (finite) limit.
		var lims []float64
		var idx []int
		for i, j := range jobs {
			if j.RemainingShuffle == 0 {
				continue
			}
			lim := math.Inf(1)
			if refAvail(j) == 0 {
				lim = j.Shuffle / j.Map * out[i].Map
			}
			lims = append(lims, lim)
			idx = append(idx, i)
		}
		sum := func(theta float64) float64 {
			s := 0.0
			for _, l := range lims {
				s += math.Min(theta, l)
			}
			return s
		}
		theta := speed
		if sum(speed) >= speed {
			lo, hi := 0.0, speed
			for it := 0; it < 200; it++ {
				mid := (lo + hi) / 2
				if sum(mid) < speed {
					lo = mid
				} else {
					hi = mid
				}
			}
			theta = hi
		}
		for k, i := range idx {
			out[i].Shuffle = math.Min(theta, lims[k])
		}
	}
	return out
}

// refSRPT returns the completion times of a single SRPT server of speed
// speed: at every instant the job with least remaining work (then earliest
// arrival, then lowest index) is served. A plain O(n²) event loop.
func refSRPT(arrival, size []float64, speed float64) []float64 {
	n := len(arrival)
	rem := append([]float64(nil), size...)
	done := make([]bool, n)
	completion := make([]float64, n)
	t := math.Inf(-1)
	for left := n; left > 0; {
		best := -1
		for i := 0; i < n; i++ {
			if done[i] || arrival[i] > t {
				continue
			}
			if rem[i] == 0 {
				done[i], completion[i] = true, math.Max(t, arrival[i])
				left--
				continue
			}
			if best < 0 || rem[i] < rem[best] || (rem[i] == rem[best] && (arrival[i] < arrival[best] || (arrival[i] == arrival[best] && i < best))) {
				best = i
			}
		}
		nextArr := math.Inf(1)
		for i := 0; i < n; i++ {
			if !done[i] && arrival[i] > t {
				nextArr = math.Min(nextArr, arrival[i])
			}
		}
		if best < 0 {
			if math.IsInf(nextArr, 1) {
				break
			}
			t = nextArr
			continue
		}
		finish := t + rem[best]/speed
		if nextArr < finish {
			rem[best] -= (nextArr - t) * speed
			t = nextArr
			continue
		}
		t = finish
		rem[best] = 0
		done[best], completion[best] = true, t
		left--
	}
	return completion
}
