package specbase

import (
	"cmp"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
)

// Counts is what the rules need to know of a job's tasks as a whole: how
// many are unscheduled, running and finished, its busy slots and its
// copies beyond the first.
type Counts struct {
	Unscheduled, Running, Finished int
	Busy                           int // Σ Copies, saturated above 2^53
	Extra                          int // Σ (Copies − 1), saturated above 2^53
}

// Add counts the task t (valid: a Running task has 1 to 2^53 copies).
// O(1).
func (c *Counts) Add(t *Task) {
	switch t.State {
	case Unscheduled:
		c.Unscheduled++
	case Running:
		c.Running++
		c.Busy = min(c.Busy+t.Copies, check.MaxTotal+1)
		c.Extra = min(c.Extra+t.Copies-1, check.MaxTotal+1)
	default:
		c.Finished++
	}
}

// Count returns the Counts of tasks (valid). O(n).
func Count(tasks []TaskStatus) Counts {
	var c Counts
	for i := range tasks {
		c.Add(&tasks[i].Task)
	}
	return c
}

// launchFirst splits a job's free slots, slots − Busy, as the rules that
// launch before they copy do (LATE, Dolly, Spark's, Hadoop's): launches,
// min(Unscheduled, free), go to unscheduled tasks, and left is what
// remains. ok is false when no slot is free: the rule does nothing. O(1).
func launchFirst(c Counts, slots int) (launches, left int, ok bool) {
	free := slots - c.Busy
	if free <= 0 {
		return 0, 0, false
	}
	launches = min(c.Unscheduled, free)
	return launches, free - launches, true
}

// Workspace is the baselines' reusable scratch memory; the zero value is
// ready to use.
type Workspace struct {
	cands    []candidate
	values   []float64
	picked   []int // the tasks to copy
	launched []int // the tasks to launch, when not the first ones in index order
}

// candidate is a running task a baseline may copy, with the key that
// orders the candidates (the larger, the sooner).
type candidate struct {
	key    float64
	isCopy bool // a copy of a running task, not a launch (GRASS's GS ranks both)
	task   int
}

// byKey orders candidates by decreasing key, then launches before copies,
// then the smaller index: a strict total order, the keys being never NaN.
func byKey(a, b candidate) int {
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c
	}
	if a.isCopy != b.isCopy {
		return cmp.Compare(selection.Indicator(a.isCopy), selection.Indicator(b.isCopy))
	}
	return cmp.Compare(a.task, b.task)
}

// pickCopies keeps the k candidates first in byKey's order (all of them
// if k ≥ len(cands)) and writes their task indices to at[:0] in
// increasing order. O(c + k log k) for c candidates (a selection, then a
// sort of the k kept); cands is reordered.
func pickCopies(at []int, cands []candidate, k int) []int {
	k = max(0, k)
	if k < len(cands) {
		selection.NthElement(cands, k, byKey)
		cands = cands[:k]
	}
	at = at[:0]
	for _, c := range cands {
		at = append(at, c.task)
	}
	slices.Sort(at)
	return at
}

// emit appends to dst the launches of the first launches unscheduled
// tasks, in index order, then a copy of each task in copies (increasing).
func emit(dst []Action, tasks []TaskStatus, launches int, copies []int) []Action {
	for i := 0; i < len(tasks) && launches > 0; i++ {
		if tasks[i].State == Unscheduled {
			dst = append(dst, Action{Task: i, Kind: Launch})
			launches--
		}
	}
	return emitLists(dst, nil, copies)
}

// emitLists appends to dst a launch of each task in launches, then a copy
// of each task in copies (both increasing).
func emitLists(dst []Action, launches, copies []int) []Action {
	for _, i := range launches {
		dst = append(dst, Action{Task: i, Kind: Launch})
	}
	for _, i := range copies {
		dst = append(dst, Action{Task: i, Kind: Copy})
	}
	return dst
}
