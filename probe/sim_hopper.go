package probe

import "math"

// Decentralized Hopper in the simulator: the schedulers' state of every
// active job (the view HopperPick needs) and speculative copies.

// initHopper sizes the per-task state. A task may run up to maxCopies
// copies at once: ⌈2/β⌉ for β < 2, the optimal speculation level of Hopper
// eq. 3.4 rounded up (2 for every β in (1, 2)), and 1 — no speculation —
// for β ≥ 2 or with NoSpeculation.
func (s *simulator) initHopper() {
	s.taskBase = make([]int, len(s.jobs)+1)
	for j := range s.jobs {
		s.taskBase[j+1] = s.taskBase[j] + len(s.jobs[j].Durations)
	}
	total := s.taskBase[len(s.jobs)]
	s.taskCopies = make([]int, total)
	s.taskDone = make([]bool, total)
	s.taskFirst = make([]float64, total)
	s.copyNodes = make([][2]int, total)
	for x := range s.taskFirst {
		s.taskFirst[x] = math.Inf(1)
		s.copyNodes[x] = [2]int{-1, -1}
	}
	s.maxCopies = 1
	if !s.cfg.NoSpeculation {
		s.maxCopies = int(math.Ceil(s.speculation)) // ⌈2/β⌉, 1 for β ≥ 2
	}
	s.activePos = make([]int, len(s.jobs))
	for j := range s.activePos {
		s.activePos[j] = -1
	}
}

// activate adds the arriving job j to the active view.
func (s *simulator) activate(j int) {
	s.activePos[j] = len(s.active)
	s.active = append(s.active, j)
	s.hRemaining = append(s.hRemaining, float64(len(s.jobs[j].Durations)))
	s.hRunning = append(s.hRunning, 0)
	s.totalRemaining += float64(len(s.jobs[j].Durations))
	s.viewVersion++
}

// deactivate removes the finished job j from the active view (swap with
// the last).
func (s *simulator) deactivate(j int) {
	p, last := s.activePos[j], len(s.active)-1
	moved := s.active[last]
	s.active[p], s.hRemaining[p], s.hRunning[p] = moved, s.hRemaining[last], s.hRunning[last]
	s.activePos[moved] = p
	s.active, s.hRemaining, s.hRunning = s.active[:last], s.hRemaining[:last], s.hRunning[:last]
	s.activePos[j] = -1
	s.viewVersion++
}

// taskFinished books one task of active job j done.
func (s *simulator) taskFinished(j int) {
	s.hRemaining[s.activePos[j]]--
	s.totalRemaining--
	s.viewVersion++
}

// hopperPick returns the queue position of the request node n serves: the
// first request of the job HopperPick's rules choose among the jobs queued
// at n, with the exact state of every active job and S = Nodes.
func (s *simulator) hopperPick(n *nodeState) int {
	s.ws.nextGen(len(s.jobs)) // marks the jobs already listed
	s.queuedPos, s.firstEntry = s.queuedPos[:0], s.firstEntry[:0]
	for k := range n.queue {
		j := n.queue[k].job
		if s.ws.stamp[j] == s.ws.gen {
			continue
		}
		s.ws.stamp[j] = s.ws.gen
		s.queuedPos = append(s.queuedPos, s.activePos[j])
		s.firstEntry = append(s.firstEntry, k)
	}
	// The targets depend only on the remaining tasks of the active jobs:
	// recompute them only when those changed (viewVersion).
	if s.targetsVersion != s.viewVersion || s.hTargets == nil {
		s.hTargets = s.ws.fairTargets(s.hRemaining, float64(s.cfg.Nodes), s.cfg.Beta, s.cfg.Eps)
		s.targetsVersion = s.viewVersion
	}
	// ΣV = (2/β)·ΣT, as HopperPick forms it; finite (see above).
	constrained := s.speculation*s.totalRemaining >= float64(s.cfg.Nodes)
	c := hopperChoose(s.queuedPos, s.hRemaining, s.hRunning, s.hTargets, constrained, s.speculation)
	if s.verifyPicks {
		if want, err := HopperPick(s.queuedPos, s.hRemaining, s.hRunning, float64(s.cfg.Nodes), s.cfg.Beta, s.cfg.Eps, nil); err != nil || want != c {
			s.mismatches++
		}
	}
	return s.firstEntry[c]
}

// speculate is the job scheduler's answer when all of job j's tasks are
// running: a speculative copy of the running task that has run longest
// (LATE's choice, Hopper §7.1 pairs Hopper with LATE), provided it has run
// at least the job's estimated task duration (it is late) and has fewer
// than maxCopies copies; −1 if no task qualifies. Ties go to the smaller
// task index. O(tasks of j).
func (s *simulator) speculate(t float64, j int) int {
	if s.maxCopies < 2 {
		return -1
	}
	base, est := s.taskBase[j], s.js[j].est
	best := -1
	for x := base; x < s.taskBase[j+1]; x++ {
		if s.taskDone[x] || s.taskCopies[x] >= s.maxCopies || t-s.taskFirst[x] < est {
			continue
		}
		if best < 0 || s.taskFirst[x] < s.taskFirst[best] {
			best = x
		}
	}
	if best < 0 {
		return -1
	}
	s.taskCopies[best]++
	return best - base
}

// startCopy books the start of a copy of task k of job j on node i and
// returns its duration: the task's own duration for its first copy, and for
// a speculative copy a fresh draw from the job's task durations (uniform
// over them: the copy is another sample of the job's task-duration
// distribution).
func (s *simulator) startCopy(t float64, i, j, k int, copy bool) float64 {
	x := s.taskBase[j] + k
	s.taskFirst[x] = min(s.taskFirst[x], t)
	if s.copyNodes[x][0] < 0 {
		s.copyNodes[x][0] = i
	} else {
		s.copyNodes[x][1] = i
	}
	s.hRunning[s.activePos[j]]++
	if !copy {
		return s.jobs[j].Durations[k]
	}
	s.res.Stats.Copies++
	d := s.jobs[j].Durations
	return d[s.rng.IntN(len(d))]
}

// finishCopies marks task k of job j done after its copy on node i ended,
// kills the task's other copies and returns their nodes (−1: none) so the
// caller restarts them.
func (s *simulator) finishCopies(t float64, i, j, k int) [2]int {
	x := s.taskBase[j] + k
	s.taskDone[x] = true
	killed := [2]int{-1, -1}
	for c, v := range s.copyNodes[x] {
		if v < 0 || v == i {
			continue
		}
		if n := &s.nodes[v]; n.busy && n.job == j && n.task == k {
			s.endExecution(t, v, true)
			killed[c] = v
		}
	}
	s.copyNodes[x] = [2]int{-1, -1}
	return killed
}
