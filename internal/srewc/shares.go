package srewc

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/selection"
)

// Workspace is the kernels' scratch memory; the zero value is ready, and
// one call at a time may use it.
type Workspace struct {
	sel     selection.Workspace // radix selection and apportionment
	shares  []float64           // real-valued g_j(t), for the guard of Machines
	pending []int               // jobs in the buckets of the cuts
	cutVals [2][]float64        // their loads, by cut
}

// Range is the smallest positive load and the largest of a snapshot
// (meaningful when a job is active): the range the histogram covers.
type Range struct{ Least, Most float64 }

// Summarize returns the number of active jobs (a load > 0) of load and
// their Range, unchecked: every load finite and ≥ 0 (+0 for an inactive
// job). O(n).
func Summarize(load []float64) (active int, r Range) {
	r.Least = math.Inf(1)
	for _, v := range load {
		if v > 0 {
			active++
			r.Least, r.Most = min(r.Least, v), max(r.Most, v)
		}
	}
	return active, r
}

// Shares writes SREW+C(β)'s real shares g_j(t) (Xu et al. §4.1;
// competitive.Shares, whose doc comment gives the formula, the tie rule
// and the cost: O(n), no sort) for the remaining effective workloads
// Υ_j(t) = load[j] to dst.
//
// Precondition (what the caller has validated): dst has len(load)
// elements and does not overlap load; every load finite and +0 or > 0;
// active and r are Summarize(load)'s (competitive's validating scan
// computes them in its pass); 0 ≤ machines ≤ 2^53; beta in (0, 1].
func Shares(ws *Workspace, dst, load []float64, active int, r Range, machines int, beta float64) {
	if active == 0 || machines == 0 {
		clear(dst)
		return
	}
	rule := newBetaRule(active, machines, beta)
	ws.realShares(dst, load, &rule, r, len(load)-active)
}

// Machines is the integer form of Shares (competitive.Machines, whose
// doc comment gives the guarantees): the real shares rounded by largest
// remainder, a tie to the smaller Υ_j(t), then the smaller index, on the
// preconditions of Shares (dst of len(load) ints). O(n), no sort.
//
// The integer shares are alloc.Apportion's largest-remainder rounding of
// the real ones worked out from the shares' structure rather than by the
// general routine: ⌊βN⌋ equal shares M/(βN), all with the same remainder,
// at most one partial share, and zeros. The R = M − Σ⌊g_j⌋ units go to the
// largest remainders; among the equal shares a tie is broken by Υ_j(t)
// then index, which is the ranking order, so the units go to the first
// ranked jobs — one more order statistic, found in the same pass as the
// cut of the served jobs. A guard sends shares that would not have that
// structure (R < 0, or beyond the jobs with a positive remainder, which
// floating-point shares could only give for M near 2^53; no case we tried
// reaches it) to the general routine.
func Machines(ws *Workspace, dst []int, load []float64, active int, r Range, machines int, beta float64) {
	n := len(load)
	if active == 0 || machines == 0 {
		clear(dst)
		return
	}
	rule := newBetaRule(active, machines, beta)
	whole, part := int(rule.whole), int(rule.partial) // floors (truncation, as Apportion)
	fracWhole, fracPart := float64(whole)-rule.whole, float64(part)-rule.partial
	units := machines - rule.full*whole - part
	// The jobs with a positive remainder, which take the units in order.
	candWhole := rule.full * b2i(fracWhole < 0)
	candPart := b2i(rule.hasPartial && fracPart < 0)
	if units < 0 || units > candWhole+candPart {
		ws.apportioned(dst, load, rule, r, n-active, machines)
		return
	}
	partUnit := 0
	if candPart == 1 && (candWhole == 0 || fracPart < fracWhole) {
		partUnit = min(units, 1) // the partial job's remainder is the largest
	} else {
		partUnit = max(0, units-candWhole) // equal remainders: the whole shares rank first
	}
	for _, j := range cutPass(ws, &rule, dst, load, r, n-active, units-partUnit, whole) {
		g := 0
		switch v := load[j]; rule.next(v) {
		case servedWhole:
			g = whole + b2i(rule.unit(v))
		case servedPartial:
			g = part + partUnit // its unit decided above, not by rank
		}
		dst[j] = g
	}
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
func cutPass[T int | float64](ws *Workspace, r *betaRule, dst []T, load []float64, lr Range, inactive, units int, whole T) []int {
	h := selection.NewHistogram(&ws.sel, load, lr.Least, lr.Most)
	// Ranks among all jobs: the inactive jobs' zeros come first.
	rankServed := inactive + r.full + b2i(r.hasPartial) - 1
	bServed, beforeServed := h.Locate(rankServed)
	bUnits, beforeUnits, rankUnits := -1, 0, inactive+units-1
	if units > 0 {
		bUnits, beforeUnits = h.Locate(rankUnits)
	}
	ws.pending = slices.Grow(ws.pending[:0], len(load))[:len(load)]
	pending := ws.pending[:classify(dst, ws.pending, load, h, bServed, bUnits, whole)]
	atServed, atUnits := ws.cutVals[0][:0], ws.cutVals[1][:0]
	for _, j := range pending {
		if v := load[j]; h.BucketNonNegative(v) == bServed {
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

// realShares writes the real shares g_j(t) to dst (len(load) elements),
// for Shares and the guard of Machines.
func (ws *Workspace) realShares(dst []float64, load []float64, r *betaRule, lr Range, inactive int) {
	for _, j := range cutPass(ws, r, dst, load, lr, inactive, 0, r.whole) {
		x := 0.0
		switch r.next(load[j]) {
		case servedWhole:
			x = r.whole
		case servedPartial:
			x = r.partial
		}
		dst[j] = x
	}
}

// apportioned is Machines by the general routine: the real shares, then
// alloc's apportionment with priority Υ_j(t).
func (ws *Workspace) apportioned(dst []int, load []float64, rule betaRule, r Range, inactive, machines int) {
	if HookApportioned != nil {
		HookApportioned()
	}
	ws.shares = slices.Grow(ws.shares[:0], len(dst))[:len(dst)]
	ws.realShares(ws.shares, load, &rule, r, inactive)
	selection.Apportion(&ws.sel, dst, ws.shares, machines, load)
}

// HookApportioned, nil outside tests, is called when Machines takes the
// general routine: the tests (here and competitive's) check that the
// structural rounding, not the guard, settles ordinary snapshots.
var HookApportioned func()

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
