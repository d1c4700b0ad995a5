package probe

import (
	"math"
	"testing"
)

// hopperState builds the per-task state of decentralized Hopper for jobs
// (initHopper) with speculation factor 2/β = 4/3 (β = 1.5: two copies per
// task at most).
func hopperState(jobs []Job) *simulator {
	s := &simulator{jobs: jobs, speculation: 4.0 / 3, js: make([]jobState, len(jobs))}
	s.initHopper()
	return s
}

// TestInitHopper: before any job arrives no job is in the view (activePos
// −1), no task has a copy (copyNodes −1, taskFirst +Inf), and a task may run
// ⌈2/β⌉ = 2 copies.
func TestInitHopper(t *testing.T) {
	t.Parallel()
	s := hopperState([]Job{{Durations: []float64{1, 2}}, {Durations: []float64{3}}})
	for j, p := range s.activePos {
		if p != -1 {
			t.Errorf("job %d: activePos %d before it arrived, want −1", j, p)
		}
	}
	for x := range s.copyNodes {
		if s.copyNodes[x] != [2]int{-1, -1} || !math.IsInf(s.taskFirst[x], 1) || s.taskCopies[x] != 0 || s.taskDone[x] {
			t.Errorf("task %d: copies on %v, first start %v, %d copies, done %v; want none", x, s.copyNodes[x], s.taskFirst[x], s.taskCopies[x], s.taskDone[x])
		}
	}
	if s.maxCopies != 2 || len(s.taskBase) != 3 || s.taskBase[2] != 3 {
		t.Errorf("maxCopies %d, taskBase %v; want 2, [0 2 3]", s.maxCopies, s.taskBase)
	}
}

// TestSpeculateChoice works speculate's rule by hand (a copy of the running
// task that has run longest, once it has run at least the job's estimate
// est = 2 and has fewer than two copies; ties to the smaller index):
//   - task 0 done, task 1 started at 0, asked at t = 2: task 1 has run
//     exactly est, which is late enough — it is copied (the done task
//     before it is skipped, not the end of the scan);
//   - tasks 0 and 1 started at 0 and 0.5, asked at t = 5: task 0, the
//     longest running, and that is index 0 of the job;
//   - both started at 1: the tie goes to task 0;
//   - task 0 started at 0 with two copies, task 1 at 4: at t = 5 task 1 has
//     run 1 < est, so nothing (−1).
func TestSpeculateChoice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		done   [2]bool
		copies [2]int
		first  [2]float64
		now    float64
		want   int
	}{
		{"exactly est, after a done task", [2]bool{true, false}, [2]int{1, 1}, [2]float64{0, 0}, 2, 1},
		{"longest running is task 0", [2]bool{}, [2]int{1, 1}, [2]float64{0, 0.5}, 5, 0},
		{"tie to the smaller index", [2]bool{}, [2]int{1, 1}, [2]float64{1, 1}, 5, 0},
		{"none late enough", [2]bool{}, [2]int{2, 1}, [2]float64{0, 4}, 5, -1},
	} {
		s := hopperState([]Job{{Durations: []float64{2, 9}}})
		s.js[0].est = 2
		copy(s.taskDone, c.done[:])
		copy(s.taskCopies, c.copies[:])
		copy(s.taskFirst, c.first[:])
		if got := s.speculate(c.now, 0); got != c.want {
			t.Errorf("%s: speculate = %d, want %d", c.name, got, c.want)
			continue
		}
		if c.want >= 0 && s.taskCopies[c.want] != c.copies[c.want]+1 {
			t.Errorf("%s: task %d has %d copies after the copy, want %d", c.name, c.want, s.taskCopies[c.want], c.copies[c.want]+1)
		}
	}
}

// TestHopperViewAtEnd: after a run with speculative copies every job has
// left the view (activePos −1, nothing active, no remaining task) and no
// task lists a node running a copy.
func TestHopperViewAtEnd(t *testing.T) {
	t.Parallel()
	jobs, thr := heavyWorkload(t)
	jobs = jobs[:200]
	cfg := DefaultConfig(Hopper, 100, thr)
	cfg.Beta = 1.5
	s, err := simulate(jobs, cfg, rngFrom(5))
	if err != nil {
		t.Fatal(err)
	}
	if s.res.Stats.Copies == 0 {
		t.Fatal("no speculative copy: the run does not exercise the copies' bookkeeping")
	}
	if len(s.active) != 0 || s.totalRemaining != 0 {
		t.Errorf("%d jobs active, %v tasks remaining at the end", len(s.active), s.totalRemaining)
	}
	for j, p := range s.activePos {
		if p != -1 {
			t.Errorf("job %d: activePos %d after the run, want −1", j, p)
		}
	}
	for x, nodes := range s.copyNodes {
		if nodes != [2]int{-1, -1} || !s.taskDone[x] {
			t.Errorf("task %d: copies on %v, done %v after the run", x, nodes, s.taskDone[x])
		}
	}
}

// TestVerifyPicksCounts: the simulator's check of its decisions against
// HopperPick counts a disagreement — here HopperPick is asked with β = 1.9
// while the workers decide with 2/β of β = 1.5.
func TestVerifyPicksCounts(t *testing.T) {
	t.Parallel()
	jobs, thr := heavyWorkload(t)
	jobs = jobs[:200]
	cfg := DefaultConfig(Hopper, 100, thr)
	cfg.Beta = 1.5
	s, err := simulate(jobs, cfg, rngFrom(5), func(s *simulator) {
		s.verifyPicks = true
		s.cfg.Beta = 1.9 // after validation: only HopperPick's view changes
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.mismatches <= 0 {
		t.Fatalf("%d decisions counted as differing from HopperPick with another β: the check cannot see a difference", s.mismatches)
	}
}

// TestHopperPickQueueRepeats: a node's queue may hold several requests of
// one job (probes drawn with replacement, re-placements); hopperPick lists
// each job once and looks past the repeats. Queue [job 0, job 0, job 1]:
// job 0 holds 3 slots, above its ε-fair target, job 1 (3 tasks) holds none,
// below its target — the slot goes to job 1's request, position 2.
func TestHopperPickQueueRepeats(t *testing.T) {
	t.Parallel()
	s := hopperState([]Job{{Durations: []float64{1, 1, 1}}, {Durations: []float64{1, 1, 1}}})
	s.cfg = Config{Policy: Hopper, Nodes: 4, Beta: 1.5, Eps: 0.1}
	s.activate(0)
	s.activate(1)
	s.hRunning[0] = 3
	n := &nodeState{queue: []entry{{job: 0}, {job: 0}, {job: 1}}}
	if got := s.hopperPick(n); got != 2 {
		t.Fatalf("hopperPick = %d, want 2 (job 1's request, below its target); targets %v", got, s.hTargets)
	}
}
