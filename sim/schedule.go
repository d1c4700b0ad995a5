package sim

import (
	"math"
	"slices"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/competitive"
	"github.com/specsched/specsched/dag"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/stragglers"
)

// schedule is the decision taken at every event, once the event's copy ends
// and arrivals have been applied (see Simulate for the rules).
func (e *engine) schedule() error {
	if len(e.active) == 0 {
		return nil
	}
	free := e.regCap - e.regBusy
	if free > 0 && e.anyCanUse() {
		var err error
		free, err = e.grant(free)
		if err != nil {
			return err
		}
		if free > 0 && e.conserving {
			if err := e.conserve(free); err != nil {
				return err
			}
		}
	}
	if e.cfg.Policy.budgeted() && !e.cfg.Speculation.Off {
		return e.budgetPool()
	}
	return nil
}

// anyCanUse reports whether some active job might use a free slot; if none
// can, the decision would grant slots that no job takes, and is skipped.
func (e *engine) anyCanUse() bool {
	if e.unsched > 0 {
		return true
	}
	for _, j := range e.active {
		if e.canUse(j) {
			return true
		}
	}
	return false
}

// held is what a job holds of the slots its policy allocates: all its slots,
// or, under budgeted speculation, those outside the pool.
func (e *engine) held(j int32) int {
	js := &e.js[j]
	if e.cfg.Policy.budgeted() {
		return int(js.held - js.poolHeld)
	}
	return int(js.held)
}

// grant computes the policy's allocation for the active jobs and hands the
// free slots to the jobs below it, in the policy's priority order. It
// returns the slots left free.
func (e *engine) grant(free int) (int, error) {
	n := len(e.active)
	e.rem = grow(e.rem, n)
	e.key = grow(e.key, n)
	for k, j := range e.active {
		e.rem[k] = float64(e.js[j].unfinished)
	}
	var err error
	switch e.cfg.Policy.allocator() {
	case allocSRPT:
		e.demands()
		e.target = grow(e.target, n)
		copy(e.key, e.rem)
		left := e.regCap
		for _, k := range e.sortedBy(e.key, n) {
			g := min(int(e.demand[k]), left)
			e.target[k] = g
			left -= g
		}
	case allocFair:
		e.demands()
		e.target, err = e.maxMinFair(e.target, e.demand, e.regCap)
		for k := range e.key {
			e.key[k] = 0 // arrival order: e.active's
		}
	case allocHopper:
		e.target, err = alloc.AllocateSlots(e.target, e.rem, e.slots, e.betaC, &e.ws)
		copy(e.key, e.rem)
	case allocEps:
		e.target, err = fairness.AllocateSlots(e.target, e.rem, e.slots, e.betaC, e.cfg.Eps, &e.ws)
		copy(e.key, e.rem)
	case allocHetero:
		e.betas = grow(e.betas, n)
		for k, j := range e.active {
			e.betas[k] = e.jobs[j].Beta
		}
		e.target, err = stragglers.AllocateSlots(e.target, e.rem, e.betas, e.slots, &e.sws)
		copy(e.key, e.rem)
	case allocDAG:
		err = e.dagTargets()
	case allocSREWC:
		err = e.srewcTargets()
	}
	if err != nil {
		return free, err
	}
	// Jobs below their allocation, in priority order.
	order := e.order // SRPT sorted it already
	if e.cfg.Policy.allocator() != allocSRPT {
		order = e.sortedBy(e.key, n)
	}
	for _, k := range order {
		if free == 0 {
			break
		}
		j := e.active[k]
		if e.target[k] <= e.held(j) || !e.canUse(j) {
			continue
		}
		g := min(e.target[k]-e.held(j), free)
		used, err := e.use(j, g)
		if err != nil {
			return free, err
		}
		free -= used
	}
	return free, nil
}

// conserve offers the slots still free to the active jobs, in the policy's
// priority order (e.order, as grant left it), so that no slot idles while a
// job can use it (§3.3: "it should not leave slots unused").
func (e *engine) conserve(free int) error {
	for _, k := range e.order {
		if free == 0 {
			break
		}
		j := e.active[k]
		if !e.canUse(j) {
			continue
		}
		used, err := e.use(j, free)
		if err != nil {
			return err
		}
		free -= used
	}
	return nil
}

// sortedBy sets e.order to the positions 0 … n−1 of e.active ordered by key
// (≥ 0), ties by position (arrival order), and returns it. Integer keys below
// 2³¹ — task counts, the common case — are packed with the position into one
// uint64 and sorted as such.
func (e *engine) sortedBy(key []float64, n int) []int32 {
	e.order = grow(e.order, n)
	order := e.order
	integral := true
	for _, k := range key[:n] {
		if k != math.Trunc(k) || !(k < 1<<31) {
			integral = false
			break
		}
	}
	if integral {
		e.packed = grow(e.packed, n)
		packed := e.packed
		for k := range packed {
			packed[k] = uint64(key[k])<<32 | uint64(k)
		}
		slices.Sort(packed)
		for k, p := range packed {
			order[k] = int32(uint32(p))
		}
		return order
	}
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmpFloat(key[a], key[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	return order
}

// demands sets e.demand[k] to the slots job k could use now under an SRPT
// or Fair allocation: those it holds, plus one per unscheduled runnable task
// and, under best-effort speculation, one per detected straggler (its copy
// counts as a task).
func (e *engine) demands() {
	n := len(e.active)
	e.demand = grow(e.demand, n)
	bestEffort := e.cfg.Policy.injob() == injobBestEffort && !e.cfg.Speculation.Off
	for k, j := range e.active {
		d := e.held(j) + int(e.js[j].unsched)
		if bestEffort {
			d += e.eligibleCount(j)
		}
		e.demand[k] = float64(d)
	}
}

// maxMinFair writes the max-min fair integer allocation of capacity slots
// among demands: every job gets min(demand, λ) with λ the water level at
// which they sum to min(capacity, Σ demand), rounded by alloc.Apportion with
// ties in arrival order. It is the Fair scheduler capped at what each job
// can use, the leftover of small jobs going evenly to the others.
func (e *engine) maxMinFair(dst []int, demand []float64, capacity int) ([]int, error) {
	n := len(demand)
	var total float64
	for _, d := range demand {
		total += d
	}
	e.shares = grow(e.shares, n)
	shares := e.shares
	if total <= float64(capacity) {
		copy(shares, demand)
		return alloc.Apportion(dst, shares, int(total), nil, &e.ws)
	}
	e.sorted = append(e.sorted[:0], demand...)
	sorted := e.sorted
	slices.Sort(sorted)
	left := float64(capacity)
	level := 0.0
	for i, d := range sorted {
		// The remaining n−i jobs each want at least d.
		if d*float64(n-i) >= left {
			level = left / float64(n-i)
			break
		}
		left -= d
	}
	for k, d := range demand {
		shares[k] = math.Min(d, level)
	}
	return alloc.Apportion(dst, shares, capacity, nil, &e.ws)
}

// dagTargets computes Algorithm 3's allocation (dag.AllocateSlots): for each
// job, T_i is the unfinished tasks of its current phase (the earliest with
// a task whose run is not over), T'_i those of the next phase, and α_i comes
// from dag.EstimateAlpha with the job's structure as the recurring ratio
// (downstream tasks per upstream task) and its progress in tasks (§4.1:
// α_i = T'_i/T_i), dampened by Config.Dampening. Jobs are keyed by max{T_i,
// T'_i} (MaxSRPT).
func (e *engine) dagTargets() error {
	n := len(e.active)
	e.dagJobs = grow(e.dagJobs, n)
	jobs := e.dagJobs
	for k, j := range e.active {
		js := &e.js[j]
		cur := js.plo
		for cur < js.phi-1 && e.ps[cur].computed == e.ps[cur].n {
			cur++
		}
		up := &e.ps[cur]
		t := float64(up.n - up.computed)
		var down float64
		alpha := 1.0
		if cur+1 < js.phi && t > 0 {
			dn := &e.ps[cur+1]
			down = float64(dn.n - dn.computed)
			ratio := float64(dn.n) / float64(up.n)
			var err error
			alpha, err = dag.EstimateAlpha(dag.Progress{
				Done:           dag.Ratio{Input: float64(up.computed), Output: ratio * float64(up.computed)},
				RemainingInput: t,
				Read:           float64(dn.computed),
			}, dag.Ratio{Input: float64(up.n), Output: float64(dn.n)}, e.cfg.Dampening)
			if err != nil {
				alpha = 1 // unreachable: the inputs are finite and ≥ 0
			}
		}
		jobs[k] = dag.Job{Remaining: t, Downstream: down, Alpha: alpha}
		e.key[k] = math.Max(t, down)
	}
	var err error
	e.target, err = dag.AllocateSlots(e.target, jobs, e.slots, e.betaC, &e.dws)
	return err
}

// srewcTargets computes SREW+C(β)'s shares g_j(t) (competitive.Machines) from
// each job's remaining effective workload Υ_j(t) = Σ over its phases of the
// unfinished tasks times (E + λσ) (Xu et al. eq. 25, over a chain of any
// length). Each job is handed to Machines as one phase of one task whose
// mean is Υ_j(t), so that Machines ranks it by exactly that value.
func (e *engine) srewcTargets() error {
	n := len(e.active)
	e.cjobs = grow(e.cjobs, n)
	jobs := e.cjobs
	for k, j := range e.active {
		js := &e.js[j]
		var upsilon float64
		for p := js.plo; p < js.phi; p++ {
			ph := &e.ps[p]
			upsilon += float64(ph.n-ph.computed) * (ph.mean + e.cfg.Lambda*ph.sd)
		}
		e.key[k] = upsilon
		if upsilon > 0 {
			jobs[k] = competitive.Job{Map: competitive.Phase{Tasks: 1, Mean: upsilon, Unscheduled: 1}}
		} else {
			jobs[k] = competitive.Job{}
		}
	}
	var err error
	e.target, err = competitive.Machines(e.target, jobs, e.slots, e.cfg.SREWCBeta, 0, &e.cws)
	return err
}
