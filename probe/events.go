package probe

import "github.com/specsched/specsched/internal/minheap"

// event is one scheduled occurrence of the node-queue simulator, without
// its time (the queue ranks it by time, then by insertion order): of kind
// kind, about node node (its place in simulator.nodes; for evLongDone its
// index, which the central scheduler keys by) and job job. Which fields a
// kind uses:
//
//	evProbe     node, job, round          a short probe reaches a node
//	evReject    job, round                the round's rejections reach the scheduler
//	evLong      node, job, task, ref      a long task reaches a node; ref: the vector snapshot
//	evRequest   node, job, ref, blocked   a node's getTask reaches the scheduler; ref: the entry id
//	evReply     node, job, task, ref,     the scheduler's reply reaches the node; task −1: none;
//	            copy, blocked             ref: the entry id
//	evFinish    node, job, ref            a task execution ends; ref: the node's version
//	evLongDone  node, job                 a long task's completion reaches the central scheduler
//	evStolen    node, ref                 stolen probes reach the thief; ref: the batch
type event struct {
	node    int
	job     int
	task    int // the task of the job (evReply: −1 when there is none)
	ref     int // the record the event refers to: snapshot, entry id, node version or batch
	kind    eventKind
	round   uint8 // the probe's round: 0, 1 (after a rejection) or 2 (fallback)
	copy    bool  // the task is a speculative copy (Hopper)
	blocked bool  // the probe was queued behind a long task (Table 2's counter)
}

type eventKind uint8

const (
	evProbe eventKind = iota
	evReject
	evLong
	evRequest
	evReply
	evFinish
	evLongDone
	evStolen
)

// eventQueue is a min-heap of events by time, ties first-in first-out: an
// event pushed as the seq-th ranks (time, 0, seq).
type eventQueue struct {
	h   minheap.Heap[event]
	seq int
	// lost is the first event pushed whose delay the clock's rounding
	// absorbed (lost), lostAt its base and lostDelay the delay; lostAny
	// says there is one.
	lost              event
	lostAt, lostDelay float64
	lostAny           bool
}

// push adds e at time base + delay, delay ≥ 0, and records it as lost if
// the addition absorbs delay (lost(base, delay), written out: push is
// hot). O(log n).
func (q *eventQueue) push(base, delay float64, e event) {
	t := base + delay
	if 2*(t-base) < delay && !q.lostAny {
		q.lost, q.lostAt, q.lostDelay, q.lostAny = e, base, delay, true
	}
	q.h.Push(minheap.Rank{Key: t, ID: q.seq}, e)
	q.seq++
}

// pop removes the earliest event and returns it with its time. O(log n).
// The queue must not be empty.
func (q *eventQueue) pop() (float64, event) {
	it := q.h.Pop()
	return it.Key, it.Value
}

// next returns the time of the earliest event. The queue must not be
// empty.
func (q *eventQueue) next() float64 { return q.h.Min().Key }

func (q *eventQueue) len() int { return q.h.Len() }
