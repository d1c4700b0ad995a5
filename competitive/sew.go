package competitive

import (
	"math/rand/v2"
	"slices"

	"github.com/specsched/specsched/internal/check"
)

// SEW computes one slot of the Smallest Effective Workload algorithm, Xu
// et al. Algorithm 1 (§3.2), for the transient setting in which every job
// arrived at time 0. It resets dst to length 0, appends the slot's actions
// (Launch and Clone, never Preempt: SEW does not preempt) and returns it.
//
// The machines are split into a map group of ⌈M/2⌉ machines and a reduce
// group of ⌊M/2⌋ (line 1; the paper's M/2 each for even M), which run only
// map and only reduce tasks. Jobs are ordered by increasing Υ_j, the total
// effective workload of eq. 19 (fixed for the whole run; ties by smaller
// index). Each idle machine of the map group takes, from the first job that
// still has an unscheduled map task, one of those tasks chosen uniformly at
// random (lines 4–8). Once no job has an unscheduled map task (Ξ₁ = ∅),
// each idle map machine clones one unfinished map task, chosen uniformly
// at random among all jobs' unfinished map tasks, independently per
// machine (lines 9–10). The reduce group does the same with reduce tasks
// (lines 11–18), where the first job of Ξ₂ (the jobs with an unscheduled
// reduce task) may take reduce machines only once all its map tasks have
// finished.
//
// Reading of lines 12–13. Lines 12–13 choose the first job of Ξ₂ and assign
// a reduce task only if its maps have finished; read as written, a reduce
// machine then waits while that job is still mapping even when a later
// job's reduce tasks are ready. That is the reading implemented: it keeps
// SEW's strict priority, so no job's reduce work is ever held up by a job
// of larger Υ. The alternative — skip the jobs still mapping — lets a large
// job's long reduce tasks, started while the small jobs map, block them
// without preemption. Neither reading gives Lemma 2's claim that the reduce
// group is busy with jobs of effective workload ≤ Υ_j throughout
// (Ψ_j, Φ_j − E_j^r − λσ_j^r): here it is busy with such jobs once every
// job before j has finished its maps, which gives, with Δ = 1 and even M,
//
//	Φ_j ≤ max_{i ⪯ j} E_i^m + E_j^r + 2·Σ_{i ⪯ j} (m_i·E_i^m + r_i·E_i^r)/M
//
// (i ⪯ j: i ranked no later than j). When the map tasks' work is
// non-decreasing along SEW's order (for instance, equal for every job, as
// with one map task per input block) the first term is E_j^m and Theorems
// 2–3 hold as stated; in general Theorem 3's ratio Δ + 2 can fail (see the
// package tests for a counterexample).
//
// Randomness comes from rng; a nil rng makes the choices deterministic
// (the lowest unscheduled ordinals, and clones spread cyclically over the
// unfinished tasks in job order).
//
// Complexity: O(n + Σ_j len(Running_j) + c log c + L log L + C + min(C, T) log C)
// for n jobs of which c have unscheduled tasks: the candidates are sorted
// by Υ_j, the L launches are drawn (a random subset, O(L) memory), and
// the C clone picks are drawn over the T clone targets and aggregated, by
// sorting when C < T and by counting per target otherwise, so that memory
// is O(n + L + min(C, T)), never O(M); with a nil rng the cyclic picks
// cost O(min(C, T)). L and C are each bounded by MaxActions per machine
// group. Allocation-free with a dst of sufficient capacity and a reused ws.
//
// Special cases: no jobs, or no idle machine, gives no actions. M = 0
// gives no actions. An error, with dst untouched, is returned for M = 1
// (the reduce group would be empty and no reduce task could ever run), M <
// 0 or > 2⁵³, more running map copies than the map group or reduce copies
// than the reduce group, λ < 0, NaN or ±Inf, an invalid job (see
// EffectiveWorkload; here also every entry of Running must be ≥ 1), and a
// machine group that would launch more than MaxActions tasks or clone
// more than MaxActions copies in this slot (the error names the job of
// the last launch; for clones, the first job with a running task of the
// phase, else the job of the last launch), and a dst that overlaps
// jobs or a job's Running (dst may be filled up to its capacity).
func SEW(dst []Action, jobs []Job, machines int, lambda float64, rng *rand.Rand, ws *Workspace) ([]Action, error) {
	const fn = "competitive.SEW"
	if machines < 0 || machines > maxCount || machines == 1 {
		return nil, check.Err(fn, check.Scalar, "machines", float64(machines), "must be 0 or lie in [2, 2^53]")
	}
	if err := checkJobs(fn, jobs, lambda, true); err != nil {
		return nil, err
	}
	if err := disjointJobs(fn, dst, cap(dst), jobs); err != nil {
		return nil, err
	}
	mapGroup, reduceGroup := (machines+1)/2, machines/2
	var used [2]int
	for j := range jobs {
		z := jobs[j].stage()
		o := jobs[j].copies()
		group := reduceGroup
		if z == MapStage {
			group = mapGroup
		}
		if o > group-used[z] {
			return nil, check.Err(fn, j, fieldNames[z][fRunning], float64(o), "running copies must fit in the phase's machine group of M/2")
		}
		used[z] += o
	}
	for z, idle := range [2]int{mapGroup - used[MapStage], reduceGroup - used[ReduceStage]} {
		if launches, clones, j := sewWork(jobs, Stage(z), idle, lambda); max(launches, clones) > MaxActions {
			return nil, check.Err(fn, j, fieldNames[z][fUnscheduled], float64(jobs[j].phase(Stage(z)).Unscheduled),
				"the slot would launch more than MaxActions tasks or clone more than MaxActions copies")
		}
	}
	ws = orNew(ws)
	dst = ws.sewGroup(dst[:0], jobs, MapStage, mapGroup-used[MapStage], lambda, rng)
	dst = ws.sewGroup(dst, jobs, ReduceStage, reduceGroup-used[ReduceStage], lambda, rng)
	return dst, nil
}

// sewGroup appends the actions of SEW's machine group for phase z, which
// has idle free machines, on validated input.
func (ws *Workspace) sewGroup(dst []Action, jobs []Job, z Stage, idle int, lambda float64, rng *rand.Rand) []Action {
	if idle == 0 {
		return dst
	}
	n := len(jobs)
	ws.load = floats(ws.load, n)
	ws.order = ws.order[:0]
	for j := range jobs {
		if jobs[j].phase(z).Unscheduled > 0 {
			ws.order = append(ws.order, j)
			ws.load[j] = jobs[j].total(lambda)
		}
	}
	sortByLoad(ws.order, ws.load)
	// Lines 4–8 (12–16): launch unscheduled tasks, first job first.
	ws.first = ints(ws.first, n)
	ws.grant = ints(ws.grant, n)
	clear(ws.grant) // tasks launched per job this slot
	emptied := true // whether Ξ is empty afterwards
	for _, j := range ws.order {
		p := jobs[j].phase(z)
		if idle == 0 || (z == ReduceStage && jobs[j].Map.unfinished() > 0) {
			emptied = false // out of machines, or the first job of Ξ₂ is still mapping: wait
			break
		}
		k := min(idle, p.Unscheduled)
		ws.first[j], ws.grant[j] = len(dst), k
		for _, t := range ws.subset(p.Unscheduled, k, rng) {
			dst = append(dst, Action{Job: j, Stage: z, Kind: Launch, Task: t, Copies: 1})
		}
		idle -= k
		if k < p.Unscheduled {
			emptied = false
		}
	}
	if !emptied || idle == 0 {
		return dst
	}
	// Lines 9–10 (17–18): Ξ = ∅; every idle machine clones an unfinished
	// task of phase z chosen uniformly at random: a running task, or one
	// launched above. Targets are numbered job by job, running tasks first.
	targets := 0
	for j := range jobs {
		if jobs[j].active() && jobs[j].stage() == z {
			targets += len(jobs[j].phase(z).Running) + ws.grant[j]
		}
	}
	if targets == 0 {
		return dst
	}
	if idle >= targets {
		return ws.cloneCounts(dst, jobs, z, idle, targets, rng)
	}
	ws.targets = ints(ws.targets, idle)
	for m := range ws.targets {
		if rng == nil {
			ws.targets[m] = m % targets
		} else {
			ws.targets[m] = rng.IntN(targets)
		}
	}
	slices.Sort(ws.targets)
	picks := ws.targets
	base := 0
	for j := range jobs {
		if len(picks) == 0 {
			break
		}
		if !jobs[j].active() || jobs[j].stage() != z {
			continue
		}
		running := len(jobs[j].phase(z).Running)
		end := base + running + ws.grant[j]
		for len(picks) > 0 && picks[0] < end {
			t, c := picks[0]-base, 1
			for c < len(picks) && picks[c] == picks[0] {
				c++
			}
			picks = picks[c:]
			if t < running {
				dst = append(dst, Action{Job: j, Stage: z, Kind: Clone, Task: t, Copies: c})
			} else {
				dst[ws.first[j]+t-running].Copies += c
			}
		}
		base = end
	}
	return dst
}

// cloneCounts is the clone step of sewGroup when idle ≥ targets: the
// same draws (one per idle machine, in machine order), counted per target
// rather than listed and sorted, so that memory is O(targets), not
// O(idle); a nil rng's cyclic picks give each target ⌊idle/targets⌋ clones
// and the first idle mod targets one more, in O(targets).
func (ws *Workspace) cloneCounts(dst []Action, jobs []Job, z Stage, idle, targets int, rng *rand.Rand) []Action {
	counts := ints(ws.targets, targets)
	ws.targets = counts
	if rng == nil {
		q, r := idle/targets, idle%targets
		for t := range counts {
			counts[t] = q + b2i(t < r)
		}
	} else {
		clear(counts)
		for range idle {
			counts[rng.IntN(targets)]++
		}
	}
	base := 0
	for j := range jobs {
		if !jobs[j].active() || jobs[j].stage() != z {
			continue
		}
		running := len(jobs[j].phase(z).Running)
		for t, c := range counts[base : base+running+ws.grant[j]] {
			switch {
			case c == 0:
			case t < running:
				dst = append(dst, Action{Job: j, Stage: z, Kind: Clone, Task: t, Copies: c})
			default:
				dst[ws.first[j]+t-running].Copies += c
			}
		}
		base += running + ws.grant[j]
	}
	return dst
}

// sewWork returns the tasks SEW's machine group for phase z, with idle
// free machines, launches and the copies it clones in this slot (lines
// 4–10, 12–18), and the job an error about them names: the last job served
// for launches, a job with a task to clone for clones. It is sewGroup's
// rule without the sort, in O(n): the jobs served are those of Ξ ranked
// before the first job of Ξ₂ still mapping (reduce group only); they
// launch min(idle, Σ u) tasks; the rest of idle clones once they are all
// launched, if some unfinished task of phase z exists to clone.
func sewWork(jobs []Job, z Stage, idle int, lambda float64) (launches, clones, named int) {
	if idle == 0 {
		return 0, 0, 0
	}
	block, blockLoad := -1, 0.0 // the first job of Ξ₂ in (Υ, index) order still mapping
	if z == ReduceStage {
		for j := range jobs {
			if jobs[j].Reduce.Unscheduled > 0 && jobs[j].Map.unfinished() > 0 {
				if y := jobs[j].total(lambda); block < 0 || y < blockLoad {
					block, blockLoad = j, y
				}
			}
		}
	}
	waiting, last, target := 0, -1, -1 // tasks the served jobs wait to launch (saturated at idle + 1)
	for j := range jobs {
		job := &jobs[j]
		if u := job.phase(z).Unscheduled; u > 0 {
			if y := job.total(lambda); block < 0 || y < blockLoad || (y == blockLoad && j < block) {
				waiting, last = min(waiting+u, idle+1), j
			}
		}
		if target < 0 && job.active() && job.stage() == z && len(job.phase(z).Running) > 0 {
			target = j
		}
	}
	launches = min(waiting, idle)
	if launches > MaxActions || block >= 0 || waiting >= idle {
		return launches, 0, last // tasks wait: no clones
	}
	if target < 0 {
		target = last // the tasks just launched are the clone targets
	}
	if target < 0 {
		return launches, 0, 0 // nothing to clone
	}
	return launches, idle - waiting, target
}
