package competitive

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/selection"
)

// Shares computes SREW+C(β)'s machine shares g_j(t) of Xu et al., §4.1
// (Algorithm 2, line 4), real-valued exactly as the paper's formula, for
// the jobs of a snapshot on a cluster of M = machines machines.
//
// Let N = |ψ^s(t)| be the number of active jobs (jobs with an unfinished
// task) and, for an active job j, |ψ_j^s(t)| the number of active jobs
// whose remaining effective workload Υ_k(t) (eq. 25) is ≥ Υ_j(t), j
// included. The paper's formula is
//
//	g_j(t) = M/(βN)                          if |ψ_j^s(t)| − 1 ≥ (1−β)N,
//	g_j(t) = 0                               if |ψ_j^s(t)| < (1−β)N,
//	g_j(t) = (|ψ_j^s(t)| − (1−β)N)·M/(βN)    otherwise.
//
// Ties. Read literally, jobs with equal Υ_j(t) would all count each other
// in |ψ_j^s(t)| and could all get M/(βN), over-committing the cluster.
// Active jobs are therefore ranked in the strict order of increasing
// (Υ_j(t), index): a tie goes to the job with the smaller index, which
// counts the tied jobs after it. Then |ψ_j^s(t)| = N − i_j, where i_j is
// the number of active jobs ranked before j, so the ranks take each value
// 1, …, N once.
//
// How many jobs get machines. Writing the formula with y = βN and
// |ψ_j^s(t)| = N − i_j, the three cases become: i_j + 1 ≤ y gives M/y;
// i_j ≥ y gives 0; i_j < y < i_j + 1 gives (y − i_j)·M/y. So exactly
// ⌈βN⌉ jobs get machines — the ⌊βN⌋ jobs ranked first get M/(βN) each,
// and when βN is not an integer the next job gets the remainder
// (βN − ⌊βN⌋)·M/(βN) — and Σ_j g_j(t) = M. (βN is the float64 product
// beta·float64(N); the rank-based form is the one computed, which avoids
// the cancellation in (1−β)N.) β = 1 gives every active job M/N, the Fair
// scheduler; β → 0 gives all M machines to the single smallest job, FIFO
// on Υ. Smaller Υ_j(t) never gets a smaller share.
//
// Complexity: O(n) time for n jobs, no sort: a pass validating the jobs
// and computing Υ_j(t); a histogram pass of a radix selection that
// locates the ⌈βN⌉-th ranked job's bucket; and a pass writing the shares,
// which settles the few jobs of that bucket last. With a dst of capacity n
// and a reused ws, Shares allocates nothing. At n = 10 000 it takes about
// 4× a bare two-pass scan of the snapshot (BenchmarkRatio).
//
// Special cases: no jobs gives an empty result. Inactive jobs get 0 and do
// not count in N; with no active job, or M = 0, every job gets 0. The
// entries of Running are not read, only its length. An error, with dst
// untouched, is returned for β outside (0, 1] or NaN, for λ < 0, NaN or
// ±Inf, for machines < 0 or > 2⁵³, for an invalid job (see
// EffectiveWorkload), and for a dst that overlaps jobs or a job's Running
// (dst must not overlap an input).
func Shares(dst []float64, jobs []Job, machines int, beta, lambda float64, ws *Workspace) ([]float64, error) {
	const fn = "competitive.Shares"
	// Validation, then the kernel; Machines repeats the shape on purpose.
	if err := checkShareArgs(fn, machines, beta, lambda); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	ws = orNew(ws)
	ws.load = floats(ws.load, len(jobs))
	active, r, err := scanJobs(fn, ws.load, jobs, lambda, check.SpanOf(dst, len(jobs)))
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(jobs))[:len(jobs)]
	if active == 0 || machines == 0 {
		clear(dst)
		return dst, nil
	}
	rule := newBetaRule(active, machines, beta)
	ws.realShares(dst, &rule, r, len(jobs)-active)
	return dst, nil
}

// Machines is the integer form of Shares: SREW+C(β)'s g_j(t) as whole
// machines. The paper assumes g_j(t) is an integer; here the real shares
// are rounded by alloc.Apportion (largest remainder) with priority key
// Υ_j(t), so a remainder tie goes to the smaller Υ_j(t), then the smaller
// index — the ranking order of Shares.
//
// Guarantees: Σ_j g_j(t) = M exactly whenever a job is active (0
// otherwise); every job is within one machine of its real share, so
// exactly the jobs with a positive real share can get machines and an
// inactive job gets none; a job ranked before another (smaller Υ_j(t), or
// equal and a smaller index) never gets fewer machines. The β = 1 shares
// are ⌊M/N⌋ or ⌈M/N⌉, the extra machines going to the smallest jobs.
// Theorem 4 assumes β < M/N, i.e. M/(βN) > 1: every served job then gets at
// least one machine.
//
// Complexity: O(n), the passes of Shares: the rounding is worked out from
// the shares' structure (the R leftover machines go to the first R ranked
// jobs), whose one extra rank the same histogram locates. Allocation-free
// with a dst of capacity n and a reused ws. Errors are those of Shares
// (the same rule for dst).
func Machines(dst []int, jobs []Job, machines int, beta, lambda float64, ws *Workspace) ([]int, error) {
	const fn = "competitive.Machines"
	// As Shares: validation, then the kernel.
	if err := checkShareArgs(fn, machines, beta, lambda); err != nil {
		return nil, err
	}
	if err := check.Disjoint(fn, dst, len(jobs), "jobs", jobs); err != nil {
		return nil, err
	}
	return orNew(ws).machines(fn, dst, jobs, machines, beta, lambda)
}

// checkShareArgs validates the scalar arguments of Shares and Machines.
func checkShareArgs(fn string, machines int, beta, lambda float64) error {
	if !(beta > 0 && beta <= 1) {
		return check.Err(fn, check.Scalar, "beta", beta, "must lie in (0, 1]")
	}
	if machines < 0 || machines > maxCount {
		return check.Err(fn, check.Scalar, "machines", float64(machines), "must lie in [0, 2^53]")
	}
	return checkLambda(fn, lambda)
}

// machines validates the jobs and computes the integer g_j(t) into dst.
//
// The integer shares are alloc.Apportion's largest-remainder rounding of
// the real ones, ties to the smaller Υ_j(t), then the smaller index,
// worked out from the shares' structure rather than by the general
// routine: ⌊βN⌋ equal shares M/(βN), all with the same remainder, at most
// one partial share, and zeros. The R = M − Σ⌊g_j⌋ units go to the
// largest remainders; among the equal shares a tie is broken by Υ_j(t)
// then index, which is the ranking order, so the units go to the first
// ranked jobs — one more order statistic, found in the same pass as the
// cut of the served jobs. A guard sends shares that would not have that
// structure (R < 0, or beyond the jobs with a positive remainder, which
// floating-point shares could only give for M near 2^53; no case we tried
// reaches it) to the general routine.
func (ws *Workspace) machines(fn string, dst []int, jobs []Job, machines int, beta, lambda float64) ([]int, error) {
	n := len(jobs)
	ws.load = floats(ws.load, n)
	active, r, err := scanJobs(fn, ws.load, jobs, lambda, check.SpanOf(dst, n))
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], n)[:n]
	if active == 0 || machines == 0 {
		clear(dst)
		return dst, nil
	}
	rule := newBetaRule(active, machines, beta)
	whole, part := int(rule.whole), int(rule.partial) // floors (truncation, as Apportion)
	fracWhole, fracPart := float64(whole)-rule.whole, float64(part)-rule.partial
	units := machines - rule.full*whole - part
	// The jobs with a positive remainder, which take the units in order.
	candWhole := rule.full * b2i(fracWhole < 0)
	candPart := b2i(rule.hasPartial && fracPart < 0)
	if units < 0 || units > candWhole+candPart {
		return ws.apportioned(dst, rule, r, n-active, machines), nil
	}
	partUnit := 0
	if candPart == 1 && (candWhole == 0 || fracPart < fracWhole) {
		partUnit = min(units, 1) // the partial job's remainder is the largest
	} else {
		partUnit = max(0, units-candWhole) // equal remainders: the whole shares rank first
	}
	for _, j := range cutPass(ws, &rule, dst, r, n-active, units-partUnit, whole) {
		g := 0
		switch v := ws.load[j]; rule.next(v) {
		case servedWhole:
			g = whole + b2i(rule.unit(v))
		case servedPartial:
			g = part + partUnit // its unit decided above, not by rank
		}
		dst[j] = g
	}
	return dst, nil
}

// betaRule is the β-fraction rule of §4.1 applied to one snapshot. Jobs
// are ranked by (Υ_j(t), index); the first full get whole machines each
// and, when βN ∉ ℕ, the next gets partial. cutPass finds the cut values
// that ranks become in Υ_j(t); the counters then settle each cut group in
// index order.
type betaRule struct {
	full       int     // ⌊βN⌋
	whole      float64 // M/(βN), needed only when full ≥ 1 (then βN ≥ 1)
	partial    float64 // (βN − ⌊βN⌋)·M/(βN), 0 when βN ∈ ℕ
	hasPartial bool    // βN ∉ ℕ (counter: the partial job not yet met)

	cut   float64 // Υ_j(t) of the last served job, rank ⌈βN⌉
	atCut int     // whole shares left for the cut group (counter)

	// Machines: the first `units` ranked jobs get one machine more.
	unitCut  float64 // Υ_j(t) of the job ranked units-th; −1 if units = 0
	unitTied int     // units left for its group (counter)
}

// newBetaRule returns the shares for N = active > 0 active jobs and M =
// machines > 0; cutPass completes it.
func newBetaRule(active, machines int, beta float64) betaRule {
	m := float64(machines)
	y := beta * float64(active) // βN ∈ (0, N]
	full := int(math.Floor(y))
	rule := betaRule{
		full:       full,
		partial:    (y - float64(full)) / y * m, // (y−⌊y⌋)/y first: M/y may overflow when y < 1
		hasPartial: float64(full) < y,
	}
	if full > 0 {
		rule.whole = m / y
	}
	return rule
}

// cutPass is the pass of Shares (T = float64, units = 0) and Machines
// that writes each job's share from its rank: whole (and, for the first
// units ranked jobs, one machine more) to the jobs ranked before the cuts,
// 0 after. It finds the cuts with selection's Histogram, fused
// with the output: one histogram pass over the loads locates the buckets
// holding the two ranks; the output pass decides every job outside those
// buckets by its bucket alone and lists the jobs inside them (in index
// order); their values settle the exact cuts into r. The caller writes the
// listed jobs' shares, which the cuts and r's counters decide.
func cutPass[T int | float64](ws *Workspace, r *betaRule, dst []T, lr loadRange, inactive, units int, whole T) []int {
	h := selection.NewHistogram(&ws.sel, ws.load, lr.least, lr.most)
	// Ranks among all jobs: the inactive jobs' zeros come first.
	rankServed := inactive + r.full + b2i(r.hasPartial) - 1
	bServed, beforeServed := h.Locate(rankServed)
	bUnits, beforeUnits, rankUnits := -1, 0, inactive+units-1
	if units > 0 {
		bUnits, beforeUnits = h.Locate(rankUnits)
	}
	ws.pending = ints(ws.pending, len(ws.load))
	pending := ws.pending[:classify(dst, ws.pending, ws.load, h, bServed, bUnits, whole)]
	atServed, atUnits := ws.cutVals[0][:0], ws.cutVals[1][:0]
	for _, j := range pending {
		if v := ws.load[j]; h.BucketNonNegative(v) == bServed {
			atServed = append(atServed, v)
		} else {
			atUnits = append(atUnits, v)
		}
	}
	ws.cutVals = [2][]float64{atServed, atUnits}
	o := selection.Settle(&ws.sel, atServed, beforeServed, rankServed)
	r.cut, r.atCut = o.Value, r.full-(o.Before-inactive)
	r.unitCut, r.unitTied = -1, 0
	if units > 0 {
		if bUnits == bServed {
			atUnits = atServed
		}
		o = selection.Settle(&ws.sel, atUnits, beforeUnits, rankUnits)
		r.unitCut, r.unitTied = o.Value, units-(o.Before-inactive)
	}
	return pending
}

// classify is cutPass's output pass, on its own so that its few values
// stay in registers: dst[j] from the bucket of Υ_j(t) = load[j], and the
// jobs in either cut bucket listed in pending, whose length it returns.
// Whether a job is below a cut follows no pattern, so it is computed, not
// branched on; a job is listed by a store that the count keeps or
// overwrites.
func classify[T int | float64](dst []T, pending []int, load []float64, h selection.Histogram, bServed, bUnits int, whole T) int {
	listed := 0
	dst, pending = dst[:len(load)], pending[:len(load)]
	for j, v := range load {
		b := h.BucketNonNegative(v)
		on := b2i(math.Float64bits(v) != 0)
		dst[j] = T(on&b2i(b < bServed))*whole + T(on&b2i(b < bUnits))
		pending[listed] = j
		listed += b2i(b == bServed) | b2i(b == bUnits)
	}
	return listed
}

// realShares writes the real shares g_j(t) to dst (len(ws.load)
// elements), for Shares and the guard of Machines.
func (ws *Workspace) realShares(dst []float64, r *betaRule, lr loadRange, inactive int) {
	for _, j := range cutPass(ws, r, dst, lr, inactive, 0, r.whole) {
		x := 0.0
		switch r.next(ws.load[j]) {
		case servedWhole:
			x = r.whole
		case servedPartial:
			x = r.partial
		}
		dst[j] = x
	}
}

// apportioned is machines by the general routine: the real shares, then
// alloc's apportionment with priority Υ_j(t).
func (ws *Workspace) apportioned(dst []int, rule betaRule, r loadRange, inactive, machines int) []int {
	if testHookApportioned != nil {
		testHookApportioned()
	}
	ws.shares = floats(ws.shares, len(dst))
	ws.realShares(ws.shares, &rule, r, inactive)
	selection.Apportion(&ws.sel, dst, ws.shares, machines, ws.load)
	return dst
}

// testHookApportioned, nil outside tests, is called when Machines takes
// the general routine: the tests check that the structural rounding, not
// the guard, settles ordinary snapshots.
var testHookApportioned func()

// served is what a job's rank gives it: nothing, a whole share M/(βN),
// or the partial share.
type served uint8

const (
	unserved served = iota
	servedWhole
	servedPartial
)

// next settles the next listed job, in index order, with Υ_j(t) = v:
// jobs without work and after the cut get nothing, jobs before it a whole
// share, and the cut group its atCut whole shares, then the partial one.
func (r *betaRule) next(v float64) served {
	switch {
	case v == 0 || v > r.cut:
		return unserved
	case v < r.cut:
		return servedWhole
	case r.atCut > 0:
		r.atCut--
		return servedWhole
	case r.hasPartial:
		r.hasPartial = false
		return servedPartial
	}
	return unserved
}

// unit reports whether the next listed job served whole, with Υ_j(t) = v,
// is among the first units ranked jobs, which get a machine more.
func (r *betaRule) unit(v float64) bool {
	switch {
	case v < r.unitCut:
		return true
	case v == r.unitCut && r.unitTied > 0:
		r.unitTied--
		return true
	}
	return false
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
