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
//	evLong      node, job, task,          a long task reaches a node
//	            snapshot
//	evRequest   node, job, entry,         a node's getTask reaches the scheduler
//	            blocked
//	evReply     node, job, task, entry,   the scheduler's reply reaches the node; task −1: none
//	            copy, blocked
//	evFinish    node, job, version        a task execution ends
//	evLongDone  node, job                 a long task's completion reaches the central scheduler
//	evStolen    node, batch               stolen probes reach the thief
//
// snapshot, entry, version and batch are one word, record, which no kind
// uses twice: the events built by longEvent, requestEvent, replyEvent,
// finishEvent and stolenEvent hold it under its name for their kind, and
// the methods of those names read it back (four fields would grow an
// event from 40 to 64 bytes, and the queue's items with it).
type event struct {
	node    int
	job     int
	task    int // the task of the job (evReply: −1 when there is none)
	record  int // see snapshot, entry, version, batch
	kind    eventKind
	round   uint8 // the probe's round: 0, 1 (after a rejection) or 2 (fallback)
	copy    bool  // the task is a speculative copy (Hopper)
	blocked bool  // the probe was queued behind a long task (Table 2's counter)
}

// longEvent: long task task of job job reaches node node, carrying the
// vector snapshot (an index into simulator.snapshots) taken when it was placed.
func longEvent(node, job, task, snapshot int) event {
	return event{kind: evLong, node: node, job: job, task: task, record: snapshot}
}

// requestEvent: node node's getTask for the queue entry entry (a probe
// id) of job job reaches the scheduler.
func requestEvent(node, job, entry int, blocked bool) event {
	return event{kind: evRequest, node: node, job: job, record: entry, blocked: blocked}
}

// replyEvent: the scheduler's reply to node node's getTask for entry
// entry of job job reaches the node: task task (−1: none), a speculative
// copy if isCopy.
func replyEvent(node, job, task, entry int, isCopy, blocked bool) event {
	return event{kind: evReply, node: node, job: job, task: task, record: entry, copy: isCopy, blocked: blocked}
}

// finishEvent: the execution of job job's task on node node ends, if the
// node is still at version version (a kill moves it on).
func finishEvent(node, job, version int) event {
	return event{kind: evFinish, node: node, job: job, record: version}
}

// stolenEvent: the probes of batch batch (an index into
// simulator.stolen) reach the thief node.
func stolenEvent(node, batch int) event {
	return event{kind: evStolen, node: node, record: batch}
}

// snapshot is an evLong event's vector snapshot.
func (e *event) snapshot() int { return e.record }

// entry is an evRequest or evReply event's queue-entry id.
func (e *event) entry() int { return e.record }

// version is an evFinish event's node version.
func (e *event) version() int { return e.record }

// batch is an evStolen event's batch of stolen probes.
func (e *event) batch() int { return e.record }

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
