package probe

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
)

// A QueuedProbe is one entry of a worker node's queue as Eagle's Algorithm 1
// sees it: either the placeholder of a long task, placed by the centralized
// scheduler, or the probe of a short job, which stands for the whole job
// (sticky batch probing, Eagle §4.1).
type QueuedProbe struct {
	// Long marks the placeholder of a long task. Only the position of a
	// long entry matters: Algorithm 1 never looks past it.
	Long bool
	// EstJobLeft is the estimated remaining runtime of the probe's job: its
	// number of tasks not yet handed out times EstTask. The distributed
	// scheduler keeps it up to date at every node holding one of the job's
	// probes (Eagle §4.3). SRPT serves the smallest.
	EstJobLeft float64
	// EstTask is the job's estimated task duration: what a task of this job
	// adds to the bypass counters of the probes it overtakes.
	EstTask float64
	// Bypassed is the probe's bypass counter: the estimated work that has
	// overtaken it so far.
	Bypassed float64
	// Cap is the probe's starvation threshold: no task may overtake it if
	// that would take Bypassed above Cap. Eagle uses StarvationFactor ×
	// EstTask (Eagle §5).
	Cap float64
}

// GetProbeFromQueue is Eagle's GETPROBEFROMQUEUE (Algorithm 1, lines 14–27,
// §4.3): sticky batch probing with Eagle's variant of SRPT and its
// starvation prevention. It returns the index of the entry the node serves
// next (−1 for an empty queue) and, in dst, the bypass counters after that
// choice, one per entry; queue itself is not modified.
//
// The scan goes through the queue from the front and stops at the first
// long placeholder (line 18–19). Among the short probes before it, it picks
// the one with the smallest EstJobLeft that may bypass every probe in front
// of it (lines 20–23); ties go to the earlier probe, since the comparison is
// strict (line 20). A probe p may bypass q when running one task of p
// keeps q's counter within its cap: p.EstTask ≤ q.Cap − q.Bypassed ("Eagle
// does not allow T to bypass P if the estimated execution time of T would
// make the bypass counter of P exceed a threshold value"). The head of the
// queue bypasses nobody, so when the head is short some probe is always
// chosen; when the head is a long placeholder the loop ends at once and
// the head is returned (lines 24–25), in FIFO order as §4.3 says.
//
// Counters: every probe in front of the chosen one is bypassed by one task
// of the chosen job, so its counter grows by the chosen EstTask ("whenever a
// probe P is about to be bypassed by a task T, P's bypass counter is
// incremented by the estimated execution time of T"). Probes behind the
// chosen one, and all probes when the head is chosen, keep their counters.
// Hence no counter ever grows past its cap unless it was past it already.
//
// The scan keeps the smallest remaining allowance Cap − Bypassed of the
// probes seen so far, so the whole decision is one pass. The allowance is
// kept exactly, as a rounded difference and its rounding error (TwoSum),
// so the test EstTask ≤ Cap − Bypassed is the exact one: a rounded
// difference would let a task of 1 bypass a probe with Bypassed = 2⁻⁶⁰
// and Cap = 1 (1 − 2⁻⁶⁰ rounds to 1), taking its counter past its cap.
//
// Complexity: O(n) time for a queue of n entries; allocation-free with a
// dst of capacity n. dst must not overlap queue.
//
// Special cases: an empty queue returns −1 and an empty dst. A probe with
// EstJobLeft = 0 (its job has no task left to hand out) is a valid
// candidate and wins SRPT; callers usually drop such probes first. Fields of
// long placeholders other than Long are validated but otherwise unused. An
// error, with dst untouched, is returned for any EstJobLeft, EstTask,
// Bypassed or Cap that is NaN, ±Inf or negative, and for a dst that
// overlaps queue.
func GetProbeFromQueue(dst []float64, queue []QueuedProbe) ([]float64, int, error) {
	const fn = "probe.GetProbeFromQueue"
	for i := range queue {
		q := &queue[i]
		// Fast path: all four finite and ≥ 0 (NaN fails every comparison).
		if q.EstJobLeft >= 0 && q.EstJobLeft <= math.MaxFloat64 && q.EstTask >= 0 && q.EstTask <= math.MaxFloat64 &&
			q.Bypassed >= 0 && q.Bypassed <= math.MaxFloat64 && q.Cap >= 0 && q.Cap <= math.MaxFloat64 {
			continue
		}
		if err := check.NonNegative(fn, i, "EstJobLeft", q.EstJobLeft); err != nil {
			return nil, -1, err
		}
		if err := check.NonNegative(fn, i, "EstTask", q.EstTask); err != nil {
			return nil, -1, err
		}
		if err := check.NonNegative(fn, i, "Bypassed", q.Bypassed); err != nil {
			return nil, -1, err
		}
		return nil, -1, check.NonNegative(fn, i, "Cap", q.Cap)
	}
	if err := check.Disjoint(fn, dst, len(queue), "queue", queue); err != nil {
		return nil, -1, err
	}
	dst, chosen := getProbeFromQueue(dst, queue)
	return dst, chosen, nil
}

// getProbeFromQueue is GetProbeFromQueue on validated input (every
// EstJobLeft, EstTask, Bypassed and Cap finite and ≥ 0; dst not
// overlapping queue): the choice and the counters. O(n).
func getProbeFromQueue(dst []float64, queue []QueuedProbe) ([]float64, int) {
	dst = slices.Grow(dst[:0], len(queue))[:len(queue)]
	for i := range queue {
		dst[i] = queue[i].Bypassed
	}
	chosen := chooseProbe(queue)
	if chosen > 0 {
		est := queue[chosen].EstTask
		for i := 0; i < chosen; i++ {
			dst[i] += est
		}
	}
	return dst, chosen
}

// chooseProbe is the scan of GetProbeFromQueue on validated input.
func chooseProbe(queue []QueuedProbe) int {
	if len(queue) == 0 {
		return -1
	}
	shortest := math.Inf(1)
	chosen := -1
	// min over the probes seen of Cap − Bypassed, exactly: allowHi +
	// allowLo with |allowLo| ≤ ulp(allowHi)/2, so est ≤ allowHi + allowLo
	// iff est < allowHi, or est = allowHi and allowLo ≥ 0 (est is a float).
	allowHi, allowLo := math.Inf(1), 0.0
	for i := range queue {
		p := &queue[i]
		if p.Long {
			break
		}
		if p.EstJobLeft < shortest && (p.EstTask < allowHi || (p.EstTask == allowHi && allowLo >= 0)) {
			shortest = p.EstJobLeft
			chosen = i
		}
		// TwoSum (Knuth): Cap − Bypassed = hi + lo exactly; no overflow,
		// both being finite and ≥ 0.
		// The error term is needed only when the minimum may change.
		if hi := p.Cap - p.Bypassed; hi <= allowHi {
			v := hi - p.Cap
			lo := (p.Cap - (hi - v)) + (-p.Bypassed - v)
			if hi < allowHi || lo < allowLo {
				allowHi, allowLo = hi, lo
			}
		}
	}
	if chosen < 0 {
		return 0
	}
	return chosen
}
