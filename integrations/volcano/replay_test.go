package volcano

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
)

// replayJob is a job of the replay workload: it arrives at a session and
// has tasks lasting a given number of sessions each.
type replayJob struct {
	name      string
	arrive    int
	durations []int // per task, in sessions
}

// replayState is a job's progress: the tasks not started yet (their
// durations) and the running ones (sessions left).
type replayState struct {
	waiting []int
	running []int
}

// modelSession is the policy as the library computes it, independently of
// the plug-in's code: targets from fairness.AllocateSlots on the task counts
// (one β, so virtual sizes order as the task counts do), then the free
// slots placed as modelPlacements does (below target first, then the
// policy's order; past the targets only once no job below its target has
// a task waiting).
func modelSession(names []string, held, waiting []int, slots int, eps float64) ([]int, error) {
	n := len(names)
	remaining := make([]float64, n)
	var sumV float64
	for i := range names {
		remaining[i] = float64(held[i] + waiting[i])
		v, err := alloc.VirtualSize(remaining[i], DefaultBeta)
		if err != nil {
			return nil, err
		}
		sumV += v
	}
	targets, err := fairness.AllocateSlots(nil, remaining, slots, DefaultBeta, eps, nil)
	if err != nil {
		return nil, err
	}
	return modelPlacements(names, targets, remaining, sumV >= float64(slots), held, waiting, slots), nil
}

// TestReplay runs a small workload over 12 sessions through the harness:
// after each session the placed pods run for their tasks' durations and
// finish, jobs arrive midway, and every session's placements per job must
// equal the library's computation of the same policy (modelSession).
//
// Why modelSession and not sim.Simulate: the issue asks for agreement with
// sim "running the same policy", and sim cannot run this one. sim decides
// at every event (each copy's end, each arrival); the plug-in decides once
// per session on a snapshot, so a slot freed between sessions stays free
// until the next one, and the slots left after the targets go in the
// plug-in's job order rather than sim's. sim's jobs also launch their own
// copies (its in-job rule) where Volcano only places the pods a framework
// created. A per-session policy with fixed task durations is exactly what
// modelSession computes, from fairness.AllocateSlots (the allocation sim's
// EpsFairAllocator also calls) and the documented order, with none of the
// plug-in's code.
func TestReplay(t *testing.T) {
	const nodes, cpus, sessions = 2, 4, 12
	workload := []replayJob{
		{name: "a", arrive: 0, durations: []int{1, 1, 2, 3, 1, 2}},
		{name: "b", arrive: 0, durations: []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
		{name: "c", arrive: 2, durations: []int{1, 1, 1}},
		{name: "d", arrive: 4, durations: []int{3, 1, 4, 1, 5, 9, 2, 6}},
		{name: "e", arrive: 5, durations: []int{1, 2}},
	}
	for _, eps := range []float64{0, DefaultEpsilon, 1} {
		t.Run(fmt.Sprintf("eps=%v", eps), func(t *testing.T) {
			states := make([]replayState, len(workload))
			placedAny := 0
			for session := 0; session < sessions; session++ {
				spec := sessionSpec{nodes: nodes, cpus: cpus, eps: eps}
				var names []string
				var index []int
				var held, waiting []int
				for j, job := range workload {
					if job.arrive == session {
						states[j].waiting = append([]int(nil), job.durations...)
					}
					st := states[j]
					if job.arrive > session || len(st.waiting)+len(st.running) == 0 {
						continue
					}
					spec.jobs = append(spec.jobs, jobSpec{name: job.name, pending: len(st.waiting), running: len(st.running)})
					names = append(names, job.name)
					index = append(index, j)
					held = append(held, len(st.running))
					waiting = append(waiting, len(st.waiting))
				}
				if len(spec.jobs) == 0 {
					continue
				}
				want, err := modelSession(names, held, waiting, nodes*cpus, eps)
				if err != nil {
					t.Fatal(err)
				}
				got := runSession(t, spec, false)
				if diff := cmp.Diff(want, got.bound); diff != "" {
					t.Fatalf("session %d, jobs %v (held %v, waiting %v): placements (-library +Volcano):\n%s", session, names, held, waiting, diff)
				}
				// Advance: the placed tasks start (in task order, as
				// Volcano placed them), then every running task ages one
				// session.
				for k, j := range index {
					st := &states[j]
					st.running = append(st.running, st.waiting[:got.bound[k]]...)
					st.waiting = st.waiting[got.bound[k]:]
					placedAny += got.bound[k]
					left := st.running[:0]
					for _, d := range st.running {
						if d > 1 {
							left = append(left, d-1)
						}
					}
					st.running = left
				}
			}
			if placedAny == 0 {
				t.Fatal("the replay placed nothing")
			}
		})
	}
}
