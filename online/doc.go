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
// run out; the jobs are kept in a B+-tree of fanout 16 ordered by
// (T_i, id): every job in a leaf, all leaves at one depth, and each item
// of a node — a job in a leaf, a child in an inner node — holding, in the
// node's arrays, its last key and the sum of T below it. The job at which
// the slots run out is found by one descent from the root, adding each
// node's items in order until the slots are reached, and a job's share
// follows from comparing its key with that job's. At fanout 16 the tree is
// about log₁₀ n levels deep (five at 10⁵ jobs, where a treap averages
// some 23), and a level's items are read from a few contiguous arrays:
// an event's cost is mostly its cache misses, one or two per level.
//
// Slots. A scheduler also records what each job holds (SetHeld) and asks
// Next for the job that should get a free slot — the first job in
// Algorithm 1's order holding less than its share — and Reclaim for the
// job whose slot to take back when the cluster shrinks, the last holding
// more. Each item also keeps the least and greatest held/T over the jobs
// below it: a job is below its share exactly when its held/T is below the
// share per task (S/ΣT in the proportional case, 2/β before the cut), so
// one descent finds it, O(log n).
//
// What it does not keep: the integer form of alloc.AllocateSlots (largest
// remainders). In the proportional case every job's fractional part moves
// with ΣT, so one event can reorder all the remainders; an exact integer
// form costs O(n) per event. Next gives the slots instead, one at a time,
// to the jobs below their real shares. SnapshotSlots, on each type, is the
// integer form itself, the package's AllocateSlots on the jobs held:
// O(ids), for a scheduler that wants the exact apportionment now and then.
//
// Algorithm 2 and K classes. Fair keeps the ε-fair allocation (thesis
// §3.5, fairness.Allocate) and Classes the water-filling over jobs of
// different tail indices (§4.2 carried to K classes, stragglers.Allocate)
// the same way, on a B+-tree of the same shape (jobs.go) ordered by
// (class, T, id), whose items keep, over the jobs below them, the counts,
// ΣT, Σw, ΣV, the bounds Next and Reclaim descend by and where classes
// start: each of the algorithm's cut-offs is found by one descent (Fair:
// m₁, case 1's fill, m₂; Classes: the level's class, then Algorithm 1's
// cut within it over the class's key range), O(log n), and a job's share
// by comparing its key with the cut-offs'. Their Next is the first job, in the algorithm's order,
// a whole slot short of its share, else the first short at all, and their
// Reclaim the last holding more than its share: over the order the shares
// are one constant, or one factor per unit of a job's weight, on each of
// at most five runs, and each item keeps the least and greatest held and
// held per unit of weight over the jobs below it, so each run is searched
// by one descent, O(log n).
//
// Costs. Every event (Add, Update, Remove, SetHeld) is O(log n) worst
// case for Hopper — the B+-tree's depth, at most 1 + log₄ n (every node but
// the root at least a quarter full), times a node's 16 items; splits and
// merges at most once per level (a full leaf first passes a job to a
// sibling with room, which keeps the leaves some 70% full); nothing
// amortised but the slices' growth — and likewise for Fair and Classes,
// whose tree has no spill.
// SetSlots is O(1). The cut-offs are searched again lazily, once per
// batch of events, by the first query after it (Target, Next, Reclaim,
// Snapshot): a query after an event costs that search, O(log n), and
// queries with no event between cost O(1) (Target) or O(log n) (Next,
// Reclaim). An Update that keeps the job between its neighbours in its
// leaf is made in place, and SetHeld recomputes the items above the job
// only as far as they change. A Hopper event that brings ΣT within a
// factor 4 of MaxFloat64 copies the tree first, O(n), to put it back if
// the total overflows. Memory is O(ids), the most jobs held at once;
// nothing allocates once the ids stop growing. Fair and Classes take
// about 200 bytes per job at 10⁵ jobs in a completion stream's steady
// state (leaves of 64-byte entries a little over half full, inner nodes,
// a 32-byte record and a 4-byte leaf id per job).
//
// In time, once the tree outgrows the caches an event is bound by its
// cache misses: for Hopper a random job's record (T, held and its leaf in
// one), its leaf and its new leaf (an event reads and shifts a node's
// arrays), and the few levels above them, about log₁₀ n: 3, 4, 5 and 6
// levels at 10³ … 10⁶ jobs; for Fair and Classes the job's leaf id
// (leafOf), its leaf, where its entry holds all an event reads of it, and
// its new leaf. Measured (BenchmarkLatency, the completion stream in
// steady state: a task completion, Next, SetHeld of the job it names;
// taskset -c 1 on a shared two-core VM whose speed varies by up to 1.7×
// within minutes), Hopper's event takes p50/p99 0.31/0.50 µs at 10³ jobs,
// 0.45/0.70 at 10⁴, 0.99/1.81 at 10⁵ and 2.36/3.51 at 10⁶ (five rounds in
// one session), 0 allocs/op: 104× less than recomputing the allocation
// with alloc.Allocate (BenchmarkRecompute, same run: 44.6 µs) at 10⁴ jobs
// and 439× less (432 µs) at 10⁵. Fair's event (ε = 0.5) takes 0.56, 0.77,
// 1.75 and 3.43 µs (p99 0.76, 1.27, 2.91, 5.82), Classes' (ten classes)
// 0.65, 0.89, 2.02 and 4.19 µs (p99 0.84, 1.45, 3.43, 6.68) — medians of
// three rounds in a later session, with another process on the other
// core; up to Next's answer (the event without its SetHeld) Fair's takes
// 0.66 µs at 10⁴ and 1.64 at 10⁵, Classes' 0.79 and 1.91 — 110× and 115×
// less than recomputing with fairness.Allocate and stragglers.Allocate at
// 10⁴ jobs, 783× and 494× at 10⁵ (94× and 102×, 733× and 467×, for the
// whole event). Their inner items are larger than Hopper's (every sum and
// bound of both algorithms, 152 bytes per item), so each level costs more.
// An event splits into its update and Next (BenchmarkLatency's
// update-p50-ns against next-p50-ns): at 10⁵ jobs the update (a task
// completion) takes 0.89 µs for Hopper, 1.15 for Fair and 1.08 for
// Classes, and Next adds 0.04, 0.34 and 0.71 µs (medians of three rounds,
// one session, the machine otherwise idle): Hopper's Next is one descent
// for its cut, on an array per node, and most often the leftmost path;
// Fair's two descents for m₁ and the fill (or m₂) and a search over up to
// five runs of shares; Classes' three descents (the level's class, its
// sums, the cut within it) and the same search.
// The levels grow as log n, but each costs more as the tree leaves each
// cache level (on that VM a dependent load costs 24 ns within 4 MiB, 126
// ns at 8 MiB), so over 10³ … 10⁶ the time grows faster than the depth.
//
// Concurrency. None of the types is safe for concurrent use, queries
// included (a query may run the lazy search, which writes the cut-offs):
// one goroutine applies the events and asks. A reader elsewhere takes a consistent view as a Snapshot, O(n),
// made by that goroutine between events into a buffer it then hands over.
package online
