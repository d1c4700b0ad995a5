package probe

// lwlState is the centralized scheduler's incremental Least Work Left over
// the general partition, nodes 0..n−1: node i is expected to be free of
// long work at freeAt[i], so its work left at time now is max(freeAt[i] −
// now, 0), and place(now, est) makes the choice PlaceLWL makes on those
// work-left values: least work left, ties to the smaller index. Nodes
// expected busy sit in a heap by (freeAt, index); nodes expected free sit in
// a heap by index; place migrates the ones whose freeAt has passed. Each
// operation is O(log n) amortised.
type lwlState struct {
	freeAt []float64
	busy   nodeHeap // by (freeAt, node): its keys are freeAt
	idle   nodeHeap // by node: its keys are all 0
}

func newLWLState(n int) *lwlState {
	s := &lwlState{freeAt: make([]float64, n)}
	s.busy = nodeHeap{pos: make([]int, n), key: s.freeAt}
	s.idle = nodeHeap{nodes: make([]int, n), pos: make([]int, n), key: make([]float64, n)}
	for i := range s.idle.nodes {
		s.idle.nodes[i] = i // sorted: a heap by node
		s.idle.pos[i] = i
		s.busy.pos[i] = -1
	}
	return s
}

// place returns the node for a long task of estimated duration est at time
// now and books it.
func (s *lwlState) place(now, est float64) int {
	for len(s.busy.nodes) > 0 && s.freeAt[s.busy.nodes[0]] <= now {
		i := s.busy.nodes[0]
		s.busy.remove(i)
		s.idle.push(i)
	}
	var i int
	if len(s.idle.nodes) > 0 {
		i = s.idle.nodes[0]
	} else {
		i = s.busy.nodes[0]
	}
	s.set(i, max(s.freeAt[i], now)+est, now)
	return i
}

// set records that node i is expected free of long work at freeAt.
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

// nodeHeap is a binary min-heap of nodes by (key[node], node) that knows
// each node's position, so that any node can be removed in O(log n).
type nodeHeap struct {
	nodes []int
	pos   []int // pos[i]: index of node i in nodes, −1 when absent
	key   []float64
}

func (h *nodeHeap) less(x, y int) bool {
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
