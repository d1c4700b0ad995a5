// Package competitive implements task cloning with competitive guarantees
// for MapReduce clusters whose machines vary in speed: the SEW and
// SREW+C(β) schedulers of Huanle Xu, Wing Cheong Lau, Zhibo Yang, Gustavo
// de Veciana and Hanxu Hou, "Mitigating Service Variability in MapReduce
// Clusters via Task Cloning: A Competitive Analysis", IEEE Transactions on
// Parallel and Distributed Systems, 2017, doi:10.1109/TPDS.2017.2689767;
// their bounds, and the paper's time-slotted machine-variability model.
//
// # The model (§2)
//
// M machines serve X_i(t) units of work per slot, i.i.d. with mean 1,
// standard deviation σ and peak Δ. A job has m_j map and r_j reduce tasks;
// reduce tasks start only after every map task has finished. A task may
// run as several copies (clones); with checkpointing its progress is the
// largest among them (eq. 6). A scheduler knows each phase's mean task
// time E_j^z and its standard deviation σ_j^z (Assumption 1) and ranks jobs
// by effective workload, E + λσ per task (eq. 19, 25).
//
// # What is here
//
//   - Job and Phase: the snapshot a scheduler hands over at the start of a
//     slot; EffectiveWorkload (Υ_j, eq. 19) and RemainingEffectiveWorkload
//     (Υ_j(t), eq. 25).
//   - Shares and Machines: SREW+C(β)'s machine shares g_j(t) (§4.1), real
//     and in whole machines (rounded by alloc.Apportion). Exactly ⌈βN⌉ of
//     the N active jobs, those with the smallest Υ_j(t), get machines;
//     β = 1 is the Fair scheduler.
//   - Plan and SREWC: Algorithm 2's per-slot actions — preempt, launch,
//     clone — with preemption (§4) or without (the variant of §5).
//   - SEW: Algorithm 1 for a batch of jobs (§3.2).
//   - MaxActions: the documented bound on the work of one slot's plan
//     (tasks launched, copies preempted or cloned at random), so that its
//     cost follows the snapshot and never the machine count alone.
//   - LowerBound (eq. 18), SEWBound and SEWConfidence (Theorem 2), SEWRatio
//     (Theorem 3), SREWCSpeed and SREWCRatio (Theorem 4).
//   - Simulate: the time-slotted model running SEW, SREW+C(β) or Fair, with
//     or without preemption and checkpointing, with conservation checks;
//     with Config.Baseline, the baselines of §5 — Mantri, Dolly, GRASS —
//     each job's in-job rule on a max-min Fair scheduler without
//     preemption (Baseline).
//
// # Contracts
//
// As everywhere in specsched: every function is a pure function of its
// arguments; inputs are never modified; per-job results go to a dst slice
// that is reused when large enough, and action lists are appended to dst
// reset to length 0 (Simulate returns a Result, as the module's other
// simulators do); scratch memory comes from a *Workspace (nil allowed)
// that makes the per-slot decisions allocation-free in steady state; a
// dst that would be reused must not overlap an input (the snapshot, a
// job's Running, Plan's allotments), which is checked;
// randomised choices (which task gets a copy, which copies are preempted)
// and the simulator's service come from an injected *rand.Rand (nil: a
// documented deterministic choice); invalid input returns a
// *specsched.InputError naming the job and field, never a panic (a broken
// invariant of Simulate's engine, a bug, is an *InvariantError). Ties in
// effective workload are broken by the smaller job index everywhere.
//
// # Where the paper needed reading
//
// |ψ_j^s(t)| counts the jobs whose Υ_k(t) ≥ Υ_j(t), j included; ties are
// ranked by index so the counts are 1, …, N (see Shares). SEW's reduce
// group serves jobs strictly in Υ order, waiting while the first job is
// still mapping (Algorithm 1, lines 12–13 as written). Theorem 2–3's proof
// assumes the reduce group stays busy with smaller jobs; that holds when
// map task work does not decrease along SEW's order, and Theorem 3 can
// fail otherwise (see SEW and the package tests). Theorem 4's last step
// holds for β ≤ 1/2 (see SREWCRatio).
package competitive
