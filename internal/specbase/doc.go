// Package specbase holds the unchecked kernels of the speculation
// baselines — LATE, GRASS, Dolly (its admission DollyClones and its
// launches), Spark's and Hadoop's default speculators — and the types they
// share with Hopper's rule: Task, TaskStatus, Action, StageStats and the
// baselines' configurations. Package stragglers's exported LATE, GRASS,
// Dolly, DollyClones, SparkSpeculate(Stats) and HadoopSpeculate(Stats) are
// validation plus these kernels, and their doc comments state the papers'
// rules, the choices made where the papers leave one open, the special
// cases and the complexity; the types are aliased there. The simulators
// (sim's baseline in-job rules, competitive's GRASS and Dolly) call the
// kernels on the views they build of their validated state, so no error
// that "cannot happen" is produced or discarded.
//
// Every kernel assumes valid arguments — the tasks and configuration as
// stragglers's functions accept them, and the Counts of those tasks
// (Count) — and does not check them.
package specbase
