package probe

// event is one scheduled occurrence of the node-queue simulator.
type event struct {
	t          float64
	seq        uint64 // insertion order: ties in t go first-in first-out
	kind       eventKind
	a, b, c, d int
}

type eventKind uint8

const (
	evArrive   eventKind = iota // a job is submitted: a = job
	evProbe                     // a short probe reaches a node: a = node, b = job, c = round
	evReject                    // rejections of a round reach the scheduler: a = job, b = round
	evLong                      // a long task reaches a node: a = node, b = job, c = task, d = snapshot
	evRequest                   // a node's getTask reaches the scheduler: a = node, b = job, c = entry id, d = blocked
	evReply                     // the scheduler's reply reaches the node: a = node, b = job, c = task or −1, d = entry id<<2 | copy<<1 | blocked
	evFinish                    // a task execution ends: a = node, c = node version
	evLongDone                  // a long task's completion reaches the central scheduler: a = node, b = job
	evStolen                    // stolen probes reach the thief: a = node, b = batch
)

// eventQueue is a binary min-heap of events ordered by (t, seq).
type eventQueue struct {
	h   []event
	seq uint64
	// lost is the first event pushed whose delay the clock's rounding
	// absorbed (lost), with lost.t its base and lostDelay the delay;
	// lostAny says there is one.
	lost      event
	lostDelay float64
	lostAny   bool
}

func evLess(x, y *event) bool { return x.t < y.t || (x.t == y.t && x.seq < y.seq) }

// push adds e at time base + delay, delay ≥ 0, and records it as lost if
// the addition absorbs delay (lost(base, delay), written out: push is
// hot). O(log n).
func (q *eventQueue) push(base, delay float64, e event) {
	e.t = base + delay
	if 2*(e.t-base) < delay && !q.lostAny {
		q.lost, q.lostDelay, q.lostAny = e, delay, true
		q.lost.t = base
	}
	e.seq = q.seq
	q.seq++
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !evLess(&h[i], &h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// pop removes and returns the earliest event. O(log n). The queue must not
// be empty.
func (q *eventQueue) pop() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	q.h = h[:n]
	h = q.h
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && evLess(&h[r], &h[l]) {
			m = r
		}
		if !evLess(&h[m], &h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}

func (q *eventQueue) len() int { return len(q.h) }
