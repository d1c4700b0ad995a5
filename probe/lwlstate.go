package probe

// lwlState is the centralized scheduler's incremental Least Work Left over
// the general partition, nodes 0..n−1: node i is expected to be free of
// long work at freeAt[i], so its work left at time now is max(freeAt[i] −
// now, 0), and place(now, est) makes the choice PlaceLWL makes on those
// work-left values: least work left, ties to the smaller index.
//
// Only the nodes that ever received a long task are stored. They are a
// prefix 0..m−1 of the partition (m = len(freeAt)): place takes the
// smallest idle node, and every node from m on has never had work, so it
// is idle; hence a node past the prefix is taken only when every node of
// the prefix is busy, and then it is node m. Nodes of the prefix expected
// busy sit in a heap by (freeAt, index); those expected free in a heap by
// index; place migrates the ones whose freeAt has passed. Each operation
// is O(log m) amortised and memory is O(m), m ≤ min(n, long tasks placed),
// whatever n is.
type lwlState struct {
	n      int // nodes in the partition
	freeAt []float64
	busy   nodeHeap // by (freeAt, node): its key is freeAt
	idle   nodeHeap // by node
	lost   bool     // an estimate was lost to rounding (lost) in place
}

func newLWLState(n int) *lwlState { return &lwlState{n: n} }

// workLeft returns node i's expected work left at time now.
func (s *lwlState) workLeft(i int, now float64) float64 {
	if i >= len(s.freeAt) {
		return 0
	}
	return max(s.freeAt[i]-now, 0)
}

// place returns the node for a long task of estimated duration est at time
// now and books it. Some node must exist (n ≥ 1).
func (s *lwlState) place(now, est float64) int {
	for len(s.busy.nodes) > 0 && s.freeAt[s.busy.nodes[0]] <= now {
		i := s.busy.nodes[0]
		s.busy.remove(i)
		s.idle.push(i)
	}
	var i int
	if len(s.idle.nodes) > 0 {
		i = s.idle.nodes[0]
	} else if len(s.freeAt) < s.n { // every stored node is busy: the next one is idle
		i = len(s.freeAt)
		s.freeAt = append(s.freeAt, 0)
		s.busy.pos = append(s.busy.pos, -1)
		s.idle.pos = append(s.idle.pos, -1)
		s.busy.key = s.freeAt
	} else {
		i = s.busy.nodes[0]
	}
	base := max(s.freeAt[i], now)
	s.lost = s.lost || lost(base, est)
	s.set(i, base+est, now)
	return i
}

// set records that node i, one of the stored nodes, is expected free of
// long work at freeAt.
func (s *lwlState) set(i int, freeAt, now float64) {
	s.busy.remove(i) // whichever heap holds it
	s.idle.remove(i)
	s.freeAt[i] = freeAt
	if freeAt > now {
		s.busy.push(i)
	} else {
		s.idle.push(i)
	}
}

// nodeHeap is a binary min-heap of nodes by (key[node], node), or by node
// alone when key is nil, that knows each node's position, so that any node
// can be removed in O(log n).
type nodeHeap struct {
	nodes []int
	pos   []int // pos[i]: index of node i in nodes, −1 when absent
	key   []float64
}

func (h *nodeHeap) less(x, y int) bool {
	if h.key == nil {
		return x < y
	}
	kx, ky := h.key[x], h.key[y]
	return kx < ky || (kx == ky && x < y)
}
func (h *nodeHeap) push(i int) {
	h.nodes = append(h.nodes, i)
	h.pos[i] = len(h.nodes) - 1
	h.up(len(h.nodes) - 1)
}

// remove takes node i out of the heap; nothing happens if it is not in.
func (h *nodeHeap) remove(i int) {
	p := h.pos[i]
	if p < 0 {
		return
	}
	last := len(h.nodes) - 1
	h.swap(p, last)
	h.nodes = h.nodes[:last]
	h.pos[i] = -1
	if p < last {
		h.down(p)
		h.up(p)
	}
}

func (h *nodeHeap) swap(a, b int) {
	h.nodes[a], h.nodes[b] = h.nodes[b], h.nodes[a]
	h.pos[h.nodes[a]], h.pos[h.nodes[b]] = a, b
}

func (h *nodeHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.nodes[i], h.nodes[p]) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *nodeHeap) down(i int) {
	n := len(h.nodes)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(h.nodes[r], h.nodes[l]) {
			m = r
		}
		if !h.less(h.nodes[m], h.nodes[i]) {
			return
		}
		h.swap(i, m)
		i = m
	}
}
