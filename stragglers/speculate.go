package stragglers

import (
	"fmt"
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
	"github.com/specsched/specsched/internal/specbase"
)

// TaskState is where a task of a job stands: Unscheduled, Running or
// Finished. Its String method returns "unscheduled", "running" or
// "finished". The type is the kernels' (internal/specbase), shared with
// the simulators.
type TaskState = specbase.TaskState

const (
	Unscheduled TaskState = specbase.Unscheduled // not started: waiting for a slot
	Running     TaskState = specbase.Running     // at least one copy is running
	Finished    TaskState = specbase.Finished    // done: never launched or copied again
)

// Task is the snapshot of one task of a job. Its fields:
//   - State is where the task stands.
//   - Copies is the number of copies of the task running now: at least 1
//     for a Running task, 0 otherwise. Each occupies one of the job's
//     slots.
//   - Elapsed is how long the task's oldest running copy has run; finite
//     and ≥ 0 (0 for a task that is not running).
//   - Remaining is t_rem, the estimated time until the task finishes (its
//     best running copy); finite and ≥ 0 (0 for a task that is not
//     running).
//
// The type is the kernels' (internal/specbase), shared with the baselines'
// TaskStatus and the simulators.
type Task = specbase.Task

// Rule is the straggler test that decides which running tasks may get a
// speculative copy.
type Rule uint8

const (
	// ThesisRule copies a task when its remaining time exceeds a new
	// copy's: t_rem > t_new (thesis §2.1, the rule of Table 2.1 and
	// Figures 2.1–2.3).
	ThesisRule Rule = iota

	// MantriRule copies a task running c copies when
	// P(t_rem > (c+1)/c · t_new) > δ (Mantri; Xu et al. §5): the new copy
	// is likely enough to save the resources it costs.
	MantriRule
)

// DefaultMantriThreshold is Mantri's default δ (Xu et al. §5).
const DefaultMantriThreshold = 0.25

// String returns "thesis" or "mantri".
func (r Rule) String() string { return enum.Name(r, ruleNames, "Rule") }

var ruleNames = []string{ThesisRule: "thesis", MantriRule: "mantri"}

// ParseRule returns the Rule named by s ("thesis" or "mantri").
func ParseRule(s string) (Rule, error) {
	if r, ok := enum.Index[Rule](s, ruleNames); ok {
		return r, nil
	}
	return 0, fmt.Errorf("stragglers: unknown speculation rule %q (want \"thesis\" or \"mantri\")", s)
}

// Speculation configures Speculate and SpeculateRunning: the rule, the
// job's t_new and β, and when a task may be judged.
type Speculation struct {
	Rule Rule

	// NewCopy is t_new, the expected duration of a new copy of a task
	// (> 0): what a fresh copy would take, e.g. the mean of the job's
	// completed task durations.
	NewCopy float64

	// Beta is the job's Pareto tail index β > 1. It sets the optimal
	// speculation level of eq. 3.2 and, for MantriRule, the distribution
	// of a new copy's duration.
	Beta float64

	// Threshold is MantriRule's δ ∈ [0, 1] (DefaultMantriThreshold is
	// Mantri's default); ThesisRule ignores it.
	Threshold float64

	// MinElapsed is how long a task must have run before it can be judged a
	// straggler (the thesis: "the straggler can be detected after a new
	// task runs for a small amount of time"); ≥ 0, 0 to judge at once.
	MinElapsed float64
}

// ActionKind says what an Action does: Launch or Copy. Its String method
// returns "launch" or "copy". The type is the kernels' (internal/specbase).
type ActionKind = specbase.ActionKind

const (
	Launch ActionKind = specbase.Launch // start an unscheduled task
	Copy   ActionKind = specbase.Copy   // start a speculative copy of a running task
)

// Action is one decision of Speculate (or of a baseline): launch task
// Task, or start a copy of it (Kind). Each takes one free slot. The type
// is the kernels' (internal/specbase).
type Action = specbase.Action

// Speculate decides what a job does with the slots it has been allocated:
// which unscheduled tasks to launch and which running tasks get a
// speculative copy (thesis §2.1, §3.3), appending the actions to dst[:0].
//
// The job holds slots; its running copies occupy busy = ΣCopies of them,
// leaving free = slots − busy. Eq. 3.2 gives the optimal speculation level
// k for its T unfinished tasks (unscheduled plus running) — 2/β while
// (2/β)·T ≥ slots, slots/T above — so the allocation should carry
// D = min(T, slots/k) distinct tasks and B = slots − D speculative copies,
// split into integers by alloc.Apportion (ties to the distinct tasks). With
// R running tasks and busy − R copies already beyond the first:
//
//  1. launch up to D − R unscheduled tasks;
//  2. copy up to B − (busy − R) eligible running tasks;
//  3. put any free slot still left to use — launching more unscheduled
//     tasks first, then copying more eligible ones — rather than idle it
//     (§3.3: "it should not leave slots unused").
//
// Since free = (D − R) + (B − (busy − R)), steps 1 and 2 split the free
// slots exactly at the distinct-task target D: whatever step 1 leaves is
// the copy budget, and the level of eq. 3.2 acts through D alone.
//
// A running task is eligible when it has run at least MinElapsed and the
// rule holds: ThesisRule, t_rem > t_new; MantriRule, P(t_rem > (c+1)/c ·
// t_new) > δ with c = Copies, taking a new copy's duration Pareto with the
// job's β and mean t_new (x_m = t_new·(β−1)/β, the thesis's model). The
// probability is the Pareto CDF at c/(c+1)·t_rem, increasing in it, so the
// test is c/(c+1)·t_rem > the δ-quantile of that distribution, decided to
// within rounding for every t_new from 5e-324 to MaxFloat64 (the quantile
// is formed from t_new's mantissa and exponent, x_m never underflowing);
// δ = 1 lets no task be copied, and the test is exact for a task running
// one copy, t_rem > 2·quantile. Eligible
// tasks are copied in decreasing order of urgency — t_rem for ThesisRule,
// c/(c+1)·t_rem (hence the probability) for MantriRule — ties to the
// smaller index; each gets at most one new copy per call. Unscheduled tasks
// are launched in index order.
//
// The actions come launches first, then copies, each in task index order.
// There are never more than free (≤ slots) of them, never one for a
// finished task, and a copy only for a running task.
//
// Complexity: O(n) time: a pass over the tasks that validates and counts
// them, a second that lists the eligible running tasks and a third that
// stops at the first unscheduled tasks to launch, each written without
// branches on the task states (which come in random order); a radix
// selection of the most urgent eligible tasks when not all of them get a
// copy; and the emission of the actions from those lists. With a dst of
// capacity ≥ the number of actions and a reused ws it allocates nothing.
// SpeculateRunning, which is given the running tasks and a queue length
// instead, makes the same decision in one pass over the running tasks
// only: 2.5–4× faster for a job of 10 000 tasks half running.
//
// Special cases: slots = 0, or slots ≤ busy (the job holds more than its
// allocation; Speculate never preempts), gives no actions; so does a job
// with every task finished. β ≥ 2 means no speculation is optimal (k = 1):
// copies only use slots that would otherwise idle. An error, with dst
// untouched, is returned for slots < 0 or > alloc.MaxTotal; for NewCopy
// ≤ 0, NaN or ±Inf, β ≤ 1, NaN or ±Inf, a Threshold outside [0, 1] or NaN,
// a MinElapsed < 0, NaN or ±Inf, or an unknown Rule; and, naming the first
// such task, for an unknown State, a running task without a copy (or with
// more than 2^53), a task that is not running but has copies, and an
// Elapsed or Remaining that is negative, NaN or ±Inf. dst must not overlap
// tasks: a dst whose first min(cap(dst), len(tasks)) elements share memory
// with tasks is an error with Field "dst".
func Speculate(dst []Action, tasks []Task, slots int, p Speculation, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.Speculate"
	// The actions are appended to dst[:0]: its first min(cap, n) elements
	// may be written.
	if err := check.Disjoint(fn, dst, min(cap(dst), len(tasks)), "tasks", tasks); err != nil {
		return nil, err
	}
	if err := check.Total(fn, "slots", slots); err != nil {
		return nil, err
	}
	cutoff, err := validatePolicy(fn, p)
	if err != nil {
		return nil, err
	}
	ws = orNew(ws)
	mantri := p.Rule == MantriRule

	n := len(tasks)
	ws.keys = grow(ws.keys, n)
	ws.eligible = grow(ws.eligible, n)
	ws.unscheduled = grow(ws.unscheduled, n)
	keys, eligibleAt, unscheduledAt := ws.keys, ws.eligible, ws.unscheduled
	// Three passes, each with few live values (one long loop spilled them
	// all): count and validate; list the eligible running tasks; list the
	// first unscheduled tasks, stopping once enough are found. Task states
	// and eligibility come in random order, so the loops take their 0/1
	// values from arithmetic, not branches.
	unscheduled, running, busy, bad := countTasks(tasks)
	if bad {
		// countTasks flags every invalid task (and a −0 time); the exact
		// checks name it (and accept −0 as 0).
		if err := firstTaskError(fn, tasks); err != nil {
			return nil, err
		}
	}
	dst = dst[:0]
	free := slots - busy
	if free <= 0 || unscheduled+running == 0 {
		return dst, nil
	}
	eligible := listEligible(eligibleAt, tasks, p.MinElapsed, cutoff, mantri)
	launches, copies := split(unscheduled, running, busy, eligible, slots, p.Beta, ws)
	for _, i := range listUnscheduled(unscheduledAt, tasks, launches) {
		dst = append(dst, Action{Task: i, Kind: Launch})
	}
	chosen := eligibleAt[:eligible]
	if copies < eligible {
		// The most urgent: the smallest keys −urgency, ties to the smaller
		// index. The urgencies are only needed here, so the passes do not
		// store them.
		keys = keys[:eligible]
		var urgencies selection.Span
		for k, i := range chosen {
			u := urgency(tasks[i].Remaining, tasks[i].Copies, mantri) // > the bar ≥ 0: never −0
			keys[k] = -u
			urgencies = urgencies.With(u)
		}
		chosen = selection.Smallest(&ws.sel, chosen, keys, copies, -urgencies.Most(), -urgencies.Least())
	}
	for _, i := range chosen {
		dst = append(dst, Action{Task: i, Kind: Copy})
	}
	return dst, nil
}

// split divides a job's free slots between launches of unscheduled tasks
// and copies of eligible running ones, as Speculate's doc comment
// explains: steps 1 and 2 are hopper.SpeculationSplit (eq. 3.2's target D
// and the copy budget); step 2 copies up to the budget, min(eligible,
// budget). Step 3 can then only launch: copies stopped short of the
// budget only for want of eligible tasks. busy < slots and unscheduled +
// running > 0.
func split(unscheduled, running, busy, eligible, slots int, beta float64, ws *Workspace) (launches, copies int) {
	launches, budget := hopper.SpeculationSplit(&ws.sel, unscheduled, running, busy, slots, beta)
	copies = min(eligible, budget)
	more := min(unscheduled-launches, budget-copies)
	return launches + more, copies
}

// urgency is how urgently a running task with t_rem = remaining, running
// the given copies, needs one more: t_rem for ThesisRule, c/(c+1)·t_rem
// for MantriRule (Speculate's doc comment).
func urgency(remaining float64, copies int, mantri bool) float64 {
	if mantri {
		return remaining * hopper.CopyFactor(copies)
	}
	return remaining
}

// countTasks validates the tasks and counts the unscheduled and running
// ones and the running copies (saturating above 2^53: only busy < slots
// matters). bad reports an invalid task, named by firstTaskError, or a
// −0 time, which firstTaskError accepts.
func countTasks(tasks []Task) (unscheduled, running, busy int, bad bool) {
	var times check.Tally // every Elapsed and Remaining finite and ≥ +0
	for i := range tasks {
		t := &tasks[i]
		times = times.With(t.Elapsed).With(t.Remaining)
		// One test that valid input never fails: an always-predicted
		// branch.
		if t.State > Finished || !copiesValid(t) {
			bad = true
		}
		unscheduled += selection.Indicator(t.State == Unscheduled)
		running += selection.Indicator(t.State == Running)
		busy = min(busy+t.Copies, alloc.MaxTotal+1)
	}
	return unscheduled, running, busy, bad || !times.Valid()
}

// copiesValid reports whether t's copy count fits its state: 1 to
// alloc.MaxTotal copies for a running task, none otherwise.
func copiesValid(t *Task) bool {
	if t.State == Running {
		return t.Copies >= 1 && t.Copies <= alloc.MaxTotal
	}
	return t.Copies == 0
}

// listEligible writes to at (length ≥ len(tasks)) the indices of the
// running tasks the rule lets be copied, in index order, and returns how
// many there are. The tasks are valid.
func listEligible(at []int, tasks []Task, minElapsed, cutoff float64, mantri bool) int {
	// cutoff > 0, or +Inf: nothing qualifies. Mantri's test for the usual
	// single-copy task, t_rem/2 > cutoff, is t_rem > 2·cutoff exactly
	// (scaling by 2 is exact): no multiply in the loop. Tasks with more
	// copies compute c/(c+1)·t_rem against cutoff.
	single := cutoff
	if mantri {
		single = 2 * cutoff
	}
	eligible := 0
	for i := range tasks {
		t := &tasks[i]
		rem, level := t.Remaining, single
		if mantri && t.Copies > 1 { // rare: predicted
			rem, level = hopper.CopyFactor(t.Copies)*rem, cutoff
		}
		// Whether a task is eligible follows no pattern: it is computed,
		// not branched on.
		eligible = selection.AppendIfAll(at, eligible, i, t.State == Running, t.Elapsed >= minElapsed, rem > level)
	}
	return eligible
}

// listUnscheduled returns the indices of the first want unscheduled tasks,
// in at's storage, stopping as soon as it has them.
func listUnscheduled(at []int, tasks []Task, want int) []int {
	at = at[:0]
	for i := 0; i < len(tasks) && len(at) < want; i++ {
		if tasks[i].State == Unscheduled {
			at = append(at, i)
		}
	}
	return at
}

// firstTaskError explains why the first invalid task is invalid, or
// returns nil if every task is valid.
func firstTaskError(fn string, tasks []Task) error {
	for i := range tasks {
		if err := taskError(fn, i, &tasks[i]); err != nil {
			return err
		}
	}
	return nil
}

// taskError explains why task i is invalid, or returns nil.
func taskError(fn string, i int, t *Task) error {
	// An if chain, as in firstRunningError.
	if t.State > Finished {
		return check.ErrItem(fn, "task", i, "State", float64(t.State), "must be Unscheduled, Running or Finished")
	}
	if t.State == Running && (t.Copies < 1 || t.Copies > alloc.MaxTotal) {
		return check.ErrItem(fn, "task", i, "Copies", float64(t.Copies), "a running task has between 1 and 2^53 copies")
	}
	if t.State != Running && t.Copies != 0 {
		return check.ErrItem(fn, "task", i, "Copies", float64(t.Copies), "only a running task has copies")
	}
	if !(t.Elapsed >= 0 && t.Elapsed <= math.MaxFloat64) {
		return check.WithItem("task", check.NonNegative(fn, i, "Elapsed", t.Elapsed))
	}
	if !(t.Remaining >= 0 && t.Remaining <= math.MaxFloat64) {
		return check.WithItem("task", check.NonNegative(fn, i, "Remaining", t.Remaining))
	}
	return nil
}

// grow returns s resliced to n elements, reallocated if its capacity is
// short; the contents are not kept.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// validatePolicy checks p and returns the eligibility cut-off on the
// urgency: t_new for ThesisRule, the δ-quantile of a new copy's duration
// for MantriRule.
func validatePolicy(fn string, p Speculation) (float64, error) {
	if err := check.Positive(fn, check.Scalar, "NewCopy", p.NewCopy); err != nil {
		return 0, err
	}
	if !(p.Beta > 1 && p.Beta <= math.MaxFloat64) {
		return 0, check.Err(fn, check.Scalar, "Beta", p.Beta, "must be a finite number > 1")
	}
	if err := check.Unit(fn, check.Scalar, "Threshold", p.Threshold); err != nil {
		return 0, err
	}
	if err := check.NonNegative(fn, check.Scalar, "MinElapsed", p.MinElapsed); err != nil {
		return 0, err
	}
	switch p.Rule {
	case ThesisRule:
		return p.NewCopy, nil
	case MantriRule:
		return hopper.MantriCutoff(p.NewCopy, p.Beta, p.Threshold), nil
	}
	return 0, check.Err(fn, check.Scalar, "Rule", float64(p.Rule), "must be ThesisRule or MantriRule")
}
