// Package online keeps Hopper's allocation up to date as a scheduler's
// events arrive, instead of recomputing it from a snapshot of every job at
// each event.
//
// A scheduler calls the allocation at every task completion and job
// arrival; alloc.Allocate recomputes it in O(n) from all n jobs, although
// one event barely changes it. Hopper holds the jobs, takes the events —
// a job added, its remaining tasks updated, a job removed, the cluster's
// slots changed — each in O(log n), and answers Target, a job's share of
// Algorithm 1 (thesis §3.4), in O(1) after at most one O(log n) search per
// batch of events. Snapshot writes every job's share: it equals
// alloc.Allocate on the same jobs, which the package's tests check after
// every event of random event streams.
//
// How. In the proportional case (Guideline 2) a job's share is
// T_i/ΣT·S: only the sum changes with an event, and the shares are formed
// when asked for. In the capacity-constrained case (Guideline 1) the jobs
// in increasing order of T_i (ties by id) get V_i = c·T_i until the slots
// run out; the jobs are kept in a balanced search tree (a treap) ordered by
// (T_i, id) whose nodes hold the sums of T over their subtrees, so the
// job at which the slots run out is found by one descent from the root,
// and a job's share follows from comparing its key with that job's.
//
// Slots. A scheduler also records what each job holds (SetHeld) and asks
// Next for the job that should get a free slot — the first job in
// Algorithm 1's order holding less than its share — and Reclaim for the
// job whose slot to take back when the cluster shrinks, the last holding
// more. Each node also keeps the least and greatest held/T over its
// subtree: a job is below its share exactly when its held/T is below the
// share per task (S/ΣT in the proportional case, 2/β before the cut), so
// one descent finds it, O(log n).
//
// What it does not keep: the integer form of alloc.AllocateSlots (largest
// remainders). In the proportional case every job's fractional part moves
// with ΣT, so one event can reorder all the remainders; an exact integer
// form costs O(n) per event. Next gives the slots instead, one at a time,
// to the jobs below their real shares.
//
// A Hopper is not safe for concurrent use: one goroutine mutates it; a
// reader that needs a consistent view takes a Snapshot (O(n)) while no
// event is being applied.
package online
