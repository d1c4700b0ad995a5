package volcano

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
)

// modelPlacements is one session of the plug-in's documented policy (see
// Plugin) for pods of one slot each, computed without its code: the free
// slots (slots − Σheld) go one at a time to the first job, in the order
// below, among the jobs with pods left to place (waiting). The order: a
// job below its target first; then, when constrained (ΣV ≥ S), the smaller
// virtual size, otherwise the lower held/target with target 0 last; then
// the smaller name. So a job passes its target only once no job below its
// own target has a pod left to place (work conservation), and until then
// every job gets min(target − held, waiting).
func modelPlacements(names []string, targets []int, virtual []float64, constrained bool, held, waiting []int, slots int) []int {
	now := slices.Clone(held)
	bound := make([]int, len(names))
	free := slots
	for _, h := range held {
		free -= h
	}
	before := func(i, j int) bool {
		if bi, bj := now[i] < targets[i], now[j] < targets[j]; bi != bj {
			return bi
		}
		if constrained && virtual[i] != virtual[j] {
			return virtual[i] < virtual[j]
		}
		if !constrained {
			switch ti, tj := targets[i], targets[j]; {
			case ti == 0 && tj == 0:
			case ti == 0 || tj == 0:
				return tj == 0
			case now[i]*tj != now[j]*ti:
				return now[i]*tj < now[j]*ti
			}
		}
		return names[i] < names[j]
	}
	for ; free > 0; free-- {
		best := -1
		for i := range names {
			if bound[i] < waiting[i] && (best < 0 || before(i, best)) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		now[best]++
		bound[best]++
	}
	return bound
}

// modelOf is modelPlacements for a generated session and its targets: the
// virtual sizes from alloc.VirtualSize on each job's tasks and β, held the
// running pods, waiting the pending pods and copies.
func modelOf(t *rapid.T, s sessionSpec, targets []int) []int {
	demands := s.demands()
	n := len(s.jobs)
	names, virtual := make([]string, n), make([]float64, n)
	held, waiting := make([]int, n), make([]int, n)
	var sumV float64
	for i, job := range s.jobs {
		v, err := alloc.VirtualSize(float64(demands[i].Tasks), demands[i].Beta)
		if err != nil {
			t.Fatalf("VirtualSize: %v", err)
		}
		names[i], virtual[i] = job.name, v
		held[i], waiting[i] = job.running, job.pending+job.copies
		sumV += v
	}
	slots := s.slots()
	return modelPlacements(names, targets, virtual, sumV >= float64(slots), held, waiting, slots)
}
