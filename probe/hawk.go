package probe

// StealBatch is the victim side of Hawk's randomized work stealing (Eagle
// §6.1, [5]): an idle node of the general partition contacts a random node
// and, "if successful, they steal the first batch of short tasks that are
// enqueued behind a long one". queueLong lists the victim's queue from the
// front (true for a long task, false for a short probe) and runningLong
// says whether the task the victim is running is long. The batch is the
// first maximal run of short probes behind the first long task (the running
// one if it is long, else the first long entry of the queue), and
// StealBatch returns it as the half-open range [start, end) of queueLong.
// Probes ahead of every long task are not blocked and are not stolen.
//
// Complexity: O(n) for a queue of n entries; no allocation.
//
// Special cases: no long task, or no short probe behind one, gives the
// empty range [0, 0). With a long task running, the batch is the first run
// of short probes of the queue.
func StealBatch(queueLong []bool, runningLong bool) (start, end int) {
	start = 0
	if !runningLong {
		for start < len(queueLong) && !queueLong[start] {
			start++
		}
		if start == len(queueLong) {
			return 0, 0
		}
	}
	for start < len(queueLong) && queueLong[start] { // skip the long tasks
		start++
	}
	end = start
	for end < len(queueLong) && !queueLong[end] {
		end++
	}
	if end == start {
		return 0, 0
	}
	return start, end
}
