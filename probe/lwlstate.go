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
	pos    []int // index in busy (≥ 0) or idle (−2 − index), per node
	busy   []int // heap of nodes by (freeAt, node)
	idle   []int // heap of nodes by node
}

func newLWLState(n int) *lwlState {
	s := &lwlState{freeAt: make([]float64, n), pos: make([]int, n), idle: make([]int, n)}
	for i := range s.idle {
		s.idle[i] = i
		s.pos[i] = -2 - i
	}
	return s
}

// place returns the node for a long task of estimated duration est at time
// now and books it.
func (s *lwlState) place(now, est float64) int {
	for len(s.busy) > 0 && s.freeAt[s.busy[0]] <= now {
		i := s.busy[0]
		s.remove(i)
		s.insertIdle(i)
	}
	var i int
	if len(s.idle) > 0 {
		i = s.idle[0]
	} else {
		i = s.busy[0]
	}
	s.set(i, max(s.freeAt[i], now)+est, now)
	return i
}

// set records that node i is expected free of long work at freeAt.
func (s *lwlState) set(i int, freeAt, now float64) {
	s.remove(i)
	s.freeAt[i] = freeAt
	if freeAt > now {
		s.insertBusy(i)
	} else {
		s.insertIdle(i)
	}
}

func (s *lwlState) busyLess(x, y int) bool {
	fx, fy := s.freeAt[x], s.freeAt[y]
	return fx < fy || (fx == fy && x < y)
}

func (s *lwlState) insertBusy(i int) {
	s.busy = append(s.busy, i)
	s.pos[i] = len(s.busy) - 1
	s.upBusy(len(s.busy) - 1)
}

func (s *lwlState) insertIdle(i int) {
	s.idle = append(s.idle, i)
	s.pos[i] = -2 - (len(s.idle) - 1)
	s.upIdle(len(s.idle) - 1)
}

// remove takes node i out of whichever heap holds it.
func (s *lwlState) remove(i int) {
	p := s.pos[i]
	if p >= 0 {
		last := len(s.busy) - 1
		s.swapBusy(p, last)
		s.busy = s.busy[:last]
		if p < last {
			s.downBusy(p)
			s.upBusy(p)
		}
	} else if p <= -2 {
		p = -2 - p
		last := len(s.idle) - 1
		s.swapIdle(p, last)
		s.idle = s.idle[:last]
		if p < last {
			s.downIdle(p)
			s.upIdle(p)
		}
	}
	s.pos[i] = -1
}

func (s *lwlState) swapBusy(a, b int) {
	s.busy[a], s.busy[b] = s.busy[b], s.busy[a]
	s.pos[s.busy[a]], s.pos[s.busy[b]] = a, b
}

func (s *lwlState) swapIdle(a, b int) {
	s.idle[a], s.idle[b] = s.idle[b], s.idle[a]
	s.pos[s.idle[a]], s.pos[s.idle[b]] = -2-a, -2-b
}

func (s *lwlState) upBusy(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !s.busyLess(s.busy[i], s.busy[p]) {
			return
		}
		s.swapBusy(i, p)
		i = p
	}
}

func (s *lwlState) downBusy(i int) {
	n := len(s.busy)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && s.busyLess(s.busy[r], s.busy[l]) {
			m = r
		}
		if !s.busyLess(s.busy[m], s.busy[i]) {
			return
		}
		s.swapBusy(i, m)
		i = m
	}
}

func (s *lwlState) upIdle(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if s.idle[i] >= s.idle[p] {
			return
		}
		s.swapIdle(i, p)
		i = p
	}
}

func (s *lwlState) downIdle(i int) {
	n := len(s.idle)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && s.idle[r] < s.idle[l] {
			m = r
		}
		if s.idle[m] >= s.idle[i] {
			return
		}
		s.swapIdle(i, m)
		i = m
	}
}
