package probe

import "github.com/specsched/specsched/internal/minheap"

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
	// busy ranks a node i by (freeAt[i] when pushed, i): set takes a node
	// out of both heaps before changing its freeAt; idle ranks it by i.
	busy, idle minheap.Indexed[struct{}]
	lost       bool // an estimate was lost to rounding (lost) in place
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
	for s.busy.Len() > 0 && s.busy.Min().Key <= now {
		i := s.busy.Min().Index
		s.busy.Remove(i)
		s.idle.Push(minheap.Rank{ID: i}, i, struct{}{})
	}
	var i int
	if s.idle.Len() > 0 {
		i = s.idle.Min().Index
	} else if len(s.freeAt) < s.n { // every stored node is busy: the next one is idle
		i = len(s.freeAt)
		s.freeAt = append(s.freeAt, 0)
	} else {
		i = s.busy.Min().Index
	}
	base := max(s.freeAt[i], now)
	s.lost = s.lost || lost(base, est)
	s.set(i, base+est, now)
	return i
}

// set records that node i, one of the stored nodes, is expected free of
// long work at freeAt.
func (s *lwlState) set(i int, freeAt, now float64) {
	s.busy.Remove(i) // whichever heap holds it
	s.idle.Remove(i)
	s.freeAt[i] = freeAt
	if freeAt > now {
		s.busy.Push(minheap.Rank{Key: freeAt, ID: i}, i, struct{}{})
	} else {
		s.idle.Push(minheap.Rank{ID: i}, i, struct{}{})
	}
}
