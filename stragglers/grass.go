package stragglers

import (
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/specbase"
)

// DefaultMaxCopies bounds the copies of one task that the rules which
// may copy a task more than once (GRASS) start: the simulator's per-task
// bound (sim.MaxCopies).
const DefaultMaxCopies = 256

// GRASSConfig configures GRASS: Ganesh Ananthanarayanan, Michael Chien-Chun
// Hung, Xiaoqi Ren, Ion Stoica, Adam Wierman, Minlan Yu, "GRASS: Trimming
// Stragglers in Approximation Analytics", USENIX NSDI 2014 ("the GRASS
// paper"), for an exact job (error bound zero, as Xu et al. §5 run it;
// the thesis §6.2 runs GRASS in every job of its baselines).
//
// Its fields:
//   - SwitchWaves is where GRASS switches from resource-aware speculation
//     (RAS) to greedy speculation (GS): once the job's unfinished tasks
//     fit in SwitchWaves waves of its slots, unscheduled + running ≤
//     SwitchWaves·slots. Finite and ≥ 0 (0: RAS throughout, until the last
//     task ends). See GRASS for the choice of 2.
//   - MaxCopies is the most copies of one task that may run at once; a
//     task running MaxCopies copies is never copied. ≥ 1.
//   - MinElapsed is how long a task must have run before it can be judged
//     a straggler; finite and ≥ 0.
//
// Its method Greedy(unfinished, slots) reports whether GRASS runs greedy
// speculation (GS) for a job with unfinished = unscheduled + running tasks
// on slots slots: unfinished ≤ SwitchWaves·slots. O(1).
//
// The type is the baselines' kernel's (internal/specbase), which the
// simulators call; the alias keeps it the one type they and callers share.
type GRASSConfig = specbase.GRASSConfig

// DefaultGRASS returns the settings GRASS documents as ours: switch to GS
// in the last two waves, DefaultMaxCopies, judge at once.
func DefaultGRASS() GRASSConfig {
	return GRASSConfig{SwitchWaves: 2, MaxCopies: DefaultMaxCopies}
}

// GRASS decides what a job does with the slots it may use under GRASS
// (the GRASS paper), appending the actions to dst[:0]. Each task has its
// own t_new (NewCopy), the expected duration of a new copy — a launch, for
// an unscheduled task — and t_rem (Remaining) when running.
//
// GRASS combines two speculation designs and switches between them:
//
//   - Resource-aware speculation (RAS) copies a running task only when the
//     copy saves both time and slot-time: with c copies running,
//     c·t_rem > (c+1)·t_new (the copy ends the task at t_new, freeing the
//     c+1 slots, instead of c slots for t_rem). Such copies take the free
//     slots before launches — a copy that saves resources beats a launch,
//     as in the paper's example where RAS copies T1 (t_rem 5, t_new 2)
//     rather than launch T3 (t_new 1) — in decreasing order of the saving
//     c·t_rem − (c+1)·t_new (ties to the smaller index); the slots left
//     launch unscheduled tasks in index order.
//   - Greedy speculation (GS) gives each free slot to the action that
//     completes a task earliest: a launch of an unscheduled task ends it
//     at t_new; a copy of a running task with t_rem > t_new ends it at
//     t_new (a copy of one with t_rem ≤ t_new ends nothing sooner). The
//     free slots go to the smallest t_new, launches before copies on a
//     tie (a launch wastes no slot-time), then to the smaller index.
//
// GRASS starts a job with RAS, which weighs the opportunity cost of a
// copy while many tasks wait, and switches to GS near the job's end,
// where only completion matters (Xu et al. §5: "the point of switching
// from RAS to GS depends on the values of deadline/error bound,
// prediction accuracy and cluster utilization"); Xu et al. (footnote 1 to
// §5) fix it by job size alone, the paper's details not being clear to
// them. We switch once the unfinished tasks fit in SwitchWaves waves of
// the job's slots, 2 by default. This is a documented choice, not the
// paper's own point, whose text we could not read with the tools at hand:
// RAS while more than two rounds of tasks remain, GS to finish the job.
//
// In both modes a running task is judged only once it has run MinElapsed,
// gets at most one new copy per call and none at MaxCopies. Duration and
// Progress are not read. The actions come launches first, then copies,
// each in task index order; never more than slots − ΣCopies of them,
// never one for a finished task.
//
// Complexity: O(n + k log k) expected for n tasks and k actions (a
// selection of the candidates when not all fit, then a sort of the kept;
// O(n log n) at worst). With a dst of capacity ≥ the number of actions and a reused ws
// it allocates nothing.
//
// Errors, with dst untouched: slots outside [0, 2^53]; a SwitchWaves or
// MinElapsed negative, NaN or ±Inf, a MaxCopies outside [1, 2^53]; the
// task errors of SparkSpeculate, and a NewCopy of 0 on an unfinished task.
// dst must not overlap tasks (Field "dst").
func GRASS(dst []Action, tasks []TaskStatus, slots int, p GRASSConfig, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.GRASS"
	if err := check.NonNegative(fn, check.Scalar, "SwitchWaves", p.SwitchWaves); err != nil {
		return nil, err
	}
	if p.MaxCopies < 1 || p.MaxCopies > alloc.MaxTotal {
		return nil, check.Err(fn, check.Scalar, "MaxCopies", float64(p.MaxCopies), "must lie in [1, 2^53]")
	}
	if err := check.NonNegative(fn, check.Scalar, "MinElapsed", p.MinElapsed); err != nil {
		return nil, err
	}
	c, err := begin(fn, dst, tasks, slots, true)
	if err != nil {
		return nil, err
	}
	return specbase.GRASS(dst, tasks, c, slots, p, &orNew(ws).base), nil
}
