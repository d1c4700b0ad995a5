package probe

// The simulator's per-node state is kept for the nodes that hold or have
// held work only, so that its memory and time follow the jobs, tasks and
// probes, not the number of nodes (2 jobs on 2³¹−1 nodes ran out of memory
// when every node had its state). A cluster at most denseFactor times the work keeps every
// node in an array indexed by node, the fastest layout; a larger one keeps
// the occupied nodes in order of first use and finds them through a map.
// Both give the same results: a node's state does not depend on where it
// is kept.

// denseFactor: nodes are kept densely when Nodes ≤ denseFactor·W, W the
// jobs' tasks plus three placements (first, re-placement, fallback) of
// their probes, a bound on the nodes the run can occupy.
const denseFactor = 2

// initNodes chooses the layout and, when dense, makes every node's state.
// O(jobs), plus O(Nodes) = O(work) when dense.
func (s *simulator) initNodes() {
	minProbes := s.cfg.MinProbes
	if s.cfg.Policy != Eagle {
		minProbes = 0
	}
	work := 0
	for j := range s.jobs {
		tasks := len(s.jobs[j].Durations)
		probes := probeCount(tasks, minProbes, s.cfg.ProbeRatio)
		work += tasks + 3*probes
	}
	if s.sparse || s.cfg.Nodes > denseFactor*work {
		s.slotOf = make(map[int]int)
		return
	}
	s.nodes = make([]nodeState, s.cfg.Nodes)
	for i := range s.nodes {
		s.nodes[i].id = i
	}
}

// slot returns the place of node id in s.nodes, making its state on its
// first use. O(1) expected. It may move s.nodes: no *nodeState may be held
// across it.
func (s *simulator) slot(id int) int {
	if s.slotOf == nil {
		return id
	}
	k, ok := s.slotOf[id]
	if !ok {
		k = len(s.nodes)
		s.slotOf[id] = k
		s.nodes = append(s.nodes, nodeState{id: id})
	}
	return k
}

// find returns the place of node id in s.nodes and whether the node has a
// state (it had work); a node without one is idle with an empty queue.
func (s *simulator) find(id int) (int, bool) {
	if s.slotOf == nil {
		return id, true
	}
	k, ok := s.slotOf[id]
	return k, ok
}
