package stragglers

import (
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
)

// RunningTask is one running task of a job, as SpeculateRunning sees it.
type RunningTask struct {
	// Copies is the number of copies of the task running now, in
	// [1, 2^53]; each occupies one of the job's slots.
	Copies int

	// Elapsed is how long the task's oldest running copy has run; finite
	// and ≥ 0.
	Elapsed float64

	// Remaining is t_rem, the estimated time until the task finishes (its
	// best running copy); finite and ≥ 0.
	Remaining float64
}

// SpeculateRunning is Speculate for a job described the way a scheduler
// usually holds it: its running tasks, and how many tasks wait in its
// queue. Finished tasks are not passed at all, so a decision costs
// O(running), not O(tasks).
//
// It makes exactly Speculate's decision (thesis §2.1 and §3.3; eq. 3.2
// for the split of the allocation; the same rules, tie-breaks and special
// cases) for the job whose tasks are the running ones, in the order given,
// plus unscheduled tasks in the caller's queue order. It returns launch,
// the number of queued tasks to start (the first launch of the queue), and
// appends to dst[:0] the indices into running of the tasks that get one
// speculative copy each, in increasing order. launch + len(copies) ≤
// slots − ΣCopies when that is positive, and 0 otherwise.
//
// Complexity: O(len(running)) time: one pass over the running tasks that
// validates, sums the copies and lists the eligible tasks without a
// data-dependent branch; a second, exact pass only for rare inputs (a −0
// time, 2^31 or more copies of a task, or under MantriRule a task running
// several copies, whose bar differs); and, when not every
// eligible task can get a copy, a radix selection of the most urgent. With
// a dst of capacity ≥ the number of copies and a reused ws it allocates
// nothing.
//
// Errors, with dst untouched: slots outside [0, 2^53]; unscheduled < 0 or
// with len(running) above 2^53; the Policy errors of Speculate; and,
// naming the first such task, Copies outside [1, 2^53], and an Elapsed or
// Remaining that is negative, NaN or ±Inf. dst must not overlap running: a
// dst whose first min(cap(dst), len(running)) elements share memory with
// running is an error with Field "dst".
func SpeculateRunning(dst []int, running []RunningTask, unscheduled, slots int, p Speculation, ws *Workspace) (launch int, copies []int, err error) {
	const fn = "stragglers.SpeculateRunning"
	// The copies are appended to dst[:0]: its first min(cap, n) elements
	// may be written.
	if err := check.Disjoint(fn, dst, min(cap(dst), len(running)), "running", running); err != nil {
		return 0, nil, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return 0, nil, err
	}
	if unscheduled < 0 || unscheduled > alloc.MaxTotal-min(len(running), alloc.MaxTotal) {
		return 0, nil, check.Err(fn, check.Scalar, "unscheduled", float64(unscheduled), "must be ≥ 0, with the running tasks at most 2^53")
	}
	cutoff, err := validatePolicy(fn, p)
	if err != nil {
		return 0, nil, err
	}
	ws = orNew(ws)
	mantri := p.Rule == MantriRule
	ws.eligible = grow(ws.eligible, len(running))
	at := ws.eligible
	// Mantri's bar for the usual single-copy task, t_rem/2 > cutoff, is
	// t_rem > 2·cutoff exactly (scaling by 2 is exact; +Inf stays +Inf,
	// whose bits no valid time exceeds).
	bar := cutoff
	if mantri {
		bar = 2 * cutoff
	}
	busy, eligible, times, counts := scanRunning(at, running, p.MinElapsed, bar)
	if !times.Valid() || !counts.Within() || (mantri && !counts.Single()) {
		// The pass's answer is not final: a time is invalid or −0, a task
		// has no copy or so many that the sum could wrap, or, under
		// MantriRule, a task runs several copies and so has another bar.
		// Rare; checked exactly here.
		if err := firstRunningError(fn, running); err != nil {
			return 0, nil, err
		}
		busy, eligible = listEligibleRunning(at, running, p.MinElapsed, bar, cutoff, mantri)
	}
	dst = dst[:0]
	if slots <= busy || unscheduled+len(running) == 0 {
		return 0, dst, nil
	}
	launch, n := split(unscheduled, len(running), busy, eligible, slots, p.Beta, ws)
	chosen := at[:eligible]
	if n < eligible {
		// The most urgent, as in Speculate.
		ws.keys = grow(ws.keys, eligible)
		keys := ws.keys
		var urgencies selection.Span
		for k, i := range chosen {
			u := urgency(running[i].Remaining, running[i].Copies, mantri) // > bar ≥ 0: never −0
			keys[k] = -u
			urgencies = urgencies.With(u)
		}
		chosen = selection.Smallest(&ws.sel, chosen, keys, n, -urgencies.Most(), -urgencies.Least())
	}
	return launch, append(dst, chosen...), nil
}

// scanRunning is SpeculateRunning's pass: it sums the copies and writes to
// at (length ≥ len(running)) the indices of the tasks that have run at
// least minElapsed and whose t_rem exceeds bar, returning those, with a
// tally of the times and one of the copies for the caller to test once.
// It validates nothing: its answer is final only when every time is finite
// and ≥ +0 and every task runs 1 to 2^31 copies (under MantriRule, exactly
// 1); SpeculateRunning falls back to listEligibleRunning otherwise.
// Eligibility comes in random order, so the list grows without a branch
// (selection.AppendIfBoth).
func scanRunning(at []int, running []RunningTask, minElapsed, bar float64) (busy, eligible int, times check.Tally, copies check.CopyTally) {
	at = at[:len(running)] // one length for both: the loop keeps its values in registers
	for i := range running {
		t := running[i]
		times = times.With(t.Elapsed).With(t.Remaining)
		copies = copies.With(t.Copies)
		busy += t.Copies
		eligible = selection.AppendIfBoth(at, eligible, i, t.Elapsed >= minElapsed, t.Remaining > bar)
	}
	return busy, eligible, times, copies
}

// listEligibleRunning is scanRunning written plainly, for the inputs its
// fast answer does not cover: it compares the times as floats (−0 is 0)
// and, under MantriRule, judges a task running c > 1 copies by
// c/(c+1)·t_rem > cutoff (as Speculate does). It sums the copies
// saturating above 2^53 (only busy < slots matters). The tasks are valid.
func listEligibleRunning(at []int, running []RunningTask, minElapsed, bar, cutoff float64, mantri bool) (busy, eligible int) {
	for i := range running {
		t := &running[i]
		busy = min(busy+t.Copies, alloc.MaxTotal+1)
		u, limit := t.Remaining, bar
		if mantri && t.Copies > 1 {
			u, limit = hopper.CopyFactor(t.Copies)*u, cutoff
		}
		if t.Elapsed >= minElapsed && u > limit {
			at[eligible] = i
			eligible++
		}
	}
	return busy, eligible
}

// firstRunningError explains why the first invalid running task is
// invalid, or returns nil if every task is valid.
func firstRunningError(fn string, running []RunningTask) error {
	for i := range running {
		t := &running[i]
		// An if chain, not a switch: mutation tools attribute no
		// coverage to a switch's case expressions.
		if t.Copies < 1 || t.Copies > alloc.MaxTotal {
			return check.ErrItem(fn, "task", i, "Copies", float64(t.Copies), "a running task has between 1 and 2^53 copies")
		}
		if !(t.Elapsed >= 0 && t.Elapsed <= math.MaxFloat64) {
			return check.WithItem("task", check.NonNegative(fn, i, "Elapsed", t.Elapsed))
		}
		if !(t.Remaining >= 0 && t.Remaining <= math.MaxFloat64) {
			return check.WithItem("task", check.NonNegative(fn, i, "Remaining", t.Remaining))
		}
	}
	return nil
}
