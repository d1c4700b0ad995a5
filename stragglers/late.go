package stragglers

import (
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/specbase"
)

// LATEConfig configures LATE, the Longest Approximate Time to End
// scheduler of Matei Zaharia, Andy Konwinski, Anthony D. Joseph, Randy
// Katz, Ion Stoica, "Improving MapReduce Performance in Heterogeneous
// Environments", USENIX OSDI 2008, §4 ("the LATE paper").
//
// Its fields:
//   - SpeculativeCap is the cap on speculative copies running at once, as
//     a share of the slots: the paper's SpeculativeCap, 10% of the
//     available task slots (§4). In [0, 1].
//   - SlowTaskThreshold is the percentile of progress rate below which a
//     task is slow enough to be speculated: the paper's SlowTaskThreshold,
//     the 25th percentile (§4). In [0, 1].
//   - MinElapsed is how long a task must have run before its progress rate
//     is trusted; finite and ≥ 0. The paper's parameters (§4) have no such
//     wait, so the default is 0; a task that has not run at all (Elapsed =
//     0) has no rate and is never judged.
//
// The type is the baselines' kernel's (internal/specbase), which the
// simulators call; the alias keeps it the one type they and callers share.
type LATEConfig = specbase.LATEConfig

// DefaultLATE returns the LATE paper's settings (§4):
// SpeculativeCap 10%, SlowTaskThreshold the 25th percentile, no wait.
func DefaultLATE() LATEConfig {
	return LATEConfig{SpeculativeCap: 0.1, SlowTaskThreshold: 0.25}
}

// LATE decides what a job does with the slots it may use under LATE
// (the LATE paper, §4), appending the actions to dst[:0].
//
// Unscheduled tasks come first: LATE changes only the last of Hadoop's
// three choices for a free slot (failed tasks, then non-running tasks,
// then a speculative copy; the LATE paper §2.1 and §4), so the free slots
// launch unscheduled tasks in index order, and only the slots left may
// speculate. A running task that has run Elapsed > 0 (and ≥ MinElapsed)
// with progress score Progress has progress rate Progress/Elapsed and
// estimated time left (1 − Progress)/rate (§4; +Inf for a task with no
// progress yet). It is a candidate when it is not already speculated
// (one copy) and its rate is among the slowest SlowTaskThreshold of the
// rated running tasks. The copies go to the candidates with the longest
// estimated time left, one per task, while fewer than SpeculativeCap of
// the slots run speculative copies.
//
// Where the paper leaves a choice open, we choose:
//   - "below the 25th percentile": among R rated running tasks, the
//     ⌈SlowTaskThreshold·R⌉ slowest (the nearest-rank percentile q, every
//     task with rate ≤ q, ties included) — with a strict "below" under
//     nearest rank a job with at most 4 running tasks could never
//     speculate. The percentile is over the job's rated running tasks,
//     speculated or not.
//   - the cap is SpeculativeCap of the paper's cluster slots, shared by
//     all jobs; a per-job rule caps the job's copies beyond the first at
//     ⌈SpeculativeCap·slots⌉ of its own slots, rounded up so that a job
//     holding fewer than 10 slots may still speculate.
//   - SlowNodeThreshold (do not launch a copy on a node whose progress is
//     below the 25th percentile, §4) chooses the node of a copy, which
//     this function does not see: it is the caller's.
//   - ties in time left go to the smaller index.
//
// Remaining, Duration and NewCopy are not read. The actions come launches
// first, then copies, each in task index order; never more than
// slots − ΣCopies of them, never a copy of a task that is not running or
// already runs two copies or more.
//
// Complexity: O(n + k log k) expected for n tasks and k copies (a
// selection of the percentile among the rates, and of the k longest times
// left among the candidates; O(n log n) at worst). With a dst of capacity
// ≥ the number of actions and a reused ws it allocates nothing.
//
// Errors, with dst untouched: slots outside [0, 2^53]; a SpeculativeCap or
// SlowTaskThreshold outside [0, 1] or a MinElapsed negative, NaN or ±Inf;
// and the task errors of SparkSpeculate. dst must not overlap tasks (Field
// "dst").
func LATE(dst []Action, tasks []TaskStatus, slots int, p LATEConfig, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.LATE"
	if err := check.Unit(fn, check.Scalar, "SpeculativeCap", p.SpeculativeCap); err != nil {
		return nil, err
	}
	if err := check.Unit(fn, check.Scalar, "SlowTaskThreshold", p.SlowTaskThreshold); err != nil {
		return nil, err
	}
	if err := check.NonNegative(fn, check.Scalar, "MinElapsed", p.MinElapsed); err != nil {
		return nil, err
	}
	c, err := begin(fn, dst, tasks, slots, false)
	if err != nil {
		return nil, err
	}
	return specbase.LATE(dst, tasks, c, slots, p, &orNew(ws).base), nil
}
