package online

import (
	"math"

	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
)

// Fair maintains Hopper's ε-fair allocation, Algorithm 2 of the thesis
// (§3.5, Theorem 2; fairness.Allocate gives the algorithm, its reading of
// m₂ and its special cases) over a changing set of jobs, named by ids as in
// Hopper.
//
// How. The jobs sit in a B+-tree ordered by (T_i, id) (jobs.go) whose
// items hold, over the jobs below them, the number of active jobs (T > 0)
// and ΣT. With N the active jobs and f = (1−ε)·S/N the floor, each of the
// algorithm's cut-offs is the first job in that order at which a monotone
// condition on the sums before or through it holds, found by one descent
// that tests it once per item: m₁ (the first job with c·T > f), case 1's
// fill (the first job at which the top-ups Σ(c·T − f) after m₁ reach
// S − N·f), and case 2's m₂ (the first job whose proportional share of
// what the floors leave reaches f; tested with the sums before the job,
// at the next item's first job). m₁'s test reads the key alone
// (firstOver) and the fill's is written into its descent (fill), neither a
// call per item. A job's share then follows from comparing its key with
// the cut-offs': O(1).
//
// Costs, n the jobs held: Add, Update, Remove, SetHeld O(log n);
// SetSlots O(1); Target O(1) after two O(log n) descents (m₁, then the
// fill or m₂), done once after each batch of events (the first query
// after an event); Next and Reclaim O(log n); Snapshot O(ids); Compare
// O(1). No method allocates once the ids stop growing. Not safe for
// concurrent use (see the package doc).
//
// Next's rule (a job's share S_i as Target gives it): the first active job
// in (T, id) order at least a whole slot short (held ≤ S_i − 1), else the
// first short at all (held < S_i). Unlike Hopper's Next it does not hand
// out the fractional slots by largest remainder: fairness.AllocateSlots's
// remainders move with f, and so with N, at every arrival.
type Fair struct {
	jobs         // with the slots, and fresh: the cut-offs below are valid (see refresh)
	c, beta, eps float64

	counts []float64          // scratch: the remaining tasks by id (SnapshotSlots)
	ws     fairness.Workspace // SnapshotSlots' reference's

	// The cut-offs.
	floor   float64
	caseOne bool
	m1      int32   // first job with c·T > f (none: no such job)
	cut     int32   // case 1: the fill's cut-off job (none: not reached, scale applies); case 2: m₂'s job (none: every active job at the floor)
	left    float64 // case 1: what the cut-off job gets above the floor
	scale   float64 // case 1, cut none: the shares' scale S/Σmax{f, V_i}
	rest    float64 // case 2: ΣT of the jobs from the cut on
	share   float64 // case 2: the slots they share, S − m₂·f
}

// NewFair returns a Fair holding no job, for a cluster of slots ≥ 0 slots,
// the jobs' tail index beta > 1 (β ≥ 2: no speculation) and the fairness
// knob eps in [0, 1] (0: every active job gets S/N; 1: Algorithm 1), each
// finite. Errors are *specsched.InputError naming "slots", "beta" or
// "eps".
func NewFair(slots, beta, eps float64) (*Fair, error) {
	const fn = "online.NewFair"
	if err := check.TailIndex(fn, check.Scalar, "beta", beta); err != nil {
		return nil, err
	}
	if err := check.NonNegative(fn, check.Scalar, "slots", slots); err != nil {
		return nil, err
	}
	if err := check.Unit(fn, check.Scalar, "eps", eps); err != nil {
		return nil, err
	}
	return &Fair{jobs: newJobs(slots, false), c: hopper.Factor(beta), beta: beta, eps: eps}, nil
}

// Len is the number of jobs held. O(1).
func (f *Fair) Len() int {
	if !f.made() {
		return 0
	}
	return f.n
}

// IDs is the length Snapshot writes (as Hopper.IDs). O(1).
func (f *Fair) IDs() int {
	if !f.made() {
		return 0
	}
	return len(f.nodes)
}

// Add adds a job of remaining ≥ 0 tasks (finite) and returns its id (the
// last freed, else IDs()). An error (an *specsched.InputError on
// "remaining", index IDs()), with f unchanged, for a negative, NaN or
// infinite count, or a positive one that brings Σ c·T_i within a factor
// 1 + 2⁻²⁰ of MaxFloat64 — a margin for the tree's own rounding of the
// sum, so Fair rejects some counts fairness.Allocate accepts, all within
// about 1e-6 relatively of its bound, far above 1e300 (see checkCount).
// O(log n).
func (f *Fair) Add(remaining float64) (int, error) {
	if !f.made() {
		return 0, errUnmade("online.Fair.Add")
	}
	if err := f.checkCount("online.Fair.Add", len(f.nodes), remaining, 0); err != nil {
		return 0, err
	}
	f.fresh = false
	t := remaining + 0
	return int(f.add(0, t, t, f.c*t)), nil
}

// Update sets job id's remaining tasks. An error (an
// *specsched.InputError naming "id" or "remaining"), with f unchanged, for
// an id not in use or a count Add would reject; a count at most the job's
// current one is always accepted (it cannot raise the sum). O(log n).
func (f *Fair) Update(id int, remaining float64) error {
	const fn = "online.Fair.Update"
	if !f.made() {
		return errUnmade(fn)
	}
	if err := f.checkID(fn, id); err != nil {
		return err
	}
	if err := f.checkCount(fn, id, remaining, f.entryOf(int32(id)).t); err != nil {
		return err
	}
	f.fresh = false
	t := remaining + 0
	f.set(int32(id), 0, t, t, f.c*t)
	return nil
}

// Remove removes job id. An error (an *specsched.InputError on "id"),
// with f unchanged, for an id not in use. O(log n).
func (f *Fair) Remove(id int) error {
	if !f.made() {
		return errUnmade("online.Fair.Remove")
	}
	return f.removeJob("online.Fair.Remove", id)
}

// SetSlots changes the cluster's slots to slots ≥ 0 (finite); an error
// (an *specsched.InputError on "slots"), with f unchanged, otherwise. O(1).
func (f *Fair) SetSlots(slots float64) error {
	if !f.made() {
		return errUnmade("online.Fair.SetSlots")
	}
	return f.setSlots("online.Fair.SetSlots", slots)
}

// SetHeld records that job id holds slots ≥ 0 slots (at most 2^53), what
// Next compares with its share. An error (an *specsched.InputError on
// "id" or "slots"), with f unchanged, otherwise. O(log n).
func (f *Fair) SetHeld(id, slots int) error {
	if !f.made() {
		return errUnmade("online.Fair.SetHeld")
	}
	return f.setHeldJob("online.Fair.SetHeld", id, slots)
}

// Held is the slots job id holds (SetHeld), 0 for an id not in use: read
// from the job's entry in its leaf, which a scheduler asking it of the job
// Next just named finds in cache. O(1) (a scan of at most 16 entries).
func (f *Fair) Held(id int) int {
	if !f.made() {
		return 0
	}
	return f.heldOf(id)
}

// Compare is Algorithm 2's job order, the fill order of its case 1:
// fewer remaining tasks first, ties by id; −1, 0 (a = b) or +1. A strict
// total order on the jobs held; ids not in use compare as jobs of 0 tasks.
// O(1).
func (f *Fair) Compare(a, b int) int {
	if !f.made() {
		return 0
	}
	return f.compare(a, b)
}

// Target returns job id's share: what fairness.Allocate gives it on the
// jobs held. An error (an *specsched.InputError on "id") for an id not in
// use. O(1) after refresh.
func (f *Fair) Target(id int) (float64, error) {
	if !f.made() {
		return 0, errUnmade("online.Fair.Target")
	}
	if err := f.checkID("online.Fair.Target", id); err != nil {
		return 0, err
	}
	f.refresh()
	return f.shareOf(int32(id)), nil
}

// Snapshot writes every job's share to dst[id] (0 for an id not in use)
// and returns dst[:IDs()], grown if too small: fairness.Allocate on the
// remaining tasks indexed by id. O(IDs()).
func (f *Fair) Snapshot(dst []float64) []float64 {
	if !f.made() {
		return dst[:0]
	}
	f.refresh()
	return f.snapshot(dst, f.shareOf)
}

// shareOf is node x's share, with the cut-offs fresh.
func (f *Fair) shareOf(x int32) float64 {
	t := f.nodes[x].t
	if t == 0 || f.slots == 0 {
		return 0
	}
	k := f.keyOf(x)
	if f.caseOne {
		switch {
		case f.cut == none:
			return min(max(f.floor, f.c*t)*f.scale, f.slots)
		case k.less(f.keyOf(f.cut)):
			return max(f.floor, f.c*t)
		case x == f.cut:
			return min(f.floor+max(0, min(f.c*t-f.floor, f.left)), f.slots)
		}
		return f.floor
	}
	if f.cut == none || k.less(f.keyOf(f.cut)) {
		return f.floor
	}
	return hopper.Proportional(t, f.rest, f.share)
}

// refresh finds the cut-offs if an event came since the last query: two
// descents, O(log n).
func (f *Fair) refresh() {
	if f.fresh {
		return
	}
	f.fresh = true
	all := f.all()
	if all.count == 0 || f.slots == 0 {
		return
	}
	c, slots := f.c, f.slots
	floor := (1 - f.eps) * slots / float64(all.count)
	f.floor = floor
	// m₁: the first job with c·T > f.
	m1, before1 := f.firstOver(c, floor)
	f.m1 = m1
	aboveV := c * (all.sumT - before1.sumT)
	f.caseOne = slots <= (aboveV+float64(before1.count)*floor)*(1+hopper.CaseTolerance)
	if f.caseOne {
		// The fill: the first job at which the top-ups Σ max{0, c·T − f}
		// through it reach S − N·f (jobs before m₁ have none).
		t := fillTest{m1: f.keyOrLast(m1), base: before1, c: c, floor: floor, extra: slots - float64(all.count)*floor}
		var before sums
		f.cut, before = f.fill(&t)
		switch {
		case f.cut == none:
			f.scale = slots / (float64(all.count)*floor + t.topups(all))
		case f.keyOf(f.cut).less(t.m1):
			f.left = t.extra
		default:
			f.left = t.extra - t.topups(before)
		}
		return
	}
	// Case 2: m₂, the first job whose proportional share of what the
	// floors before it leave reaches the floor.
	var before sums
	f.cut, before = f.search(func(b sums, k key) bool {
		return k.t > 0 && hopper.Proportional(k.t, all.sumT-b.sumT, slots-float64(b.count)*floor) >= floor
	})
	f.rest, f.share = all.sumT-before.sumT, slots-float64(before.count)*floor
}

// Next returns the job that should receive the next free slot, and true,
// or false when every job holds at least its share: the first active job
// in (T, id) order at least a whole slot short of its share (held_i ≤
// S_i − 1), else the first short at all (held_i < S_i). The shares are
// constant (f, or f·scale) or proportional to T (c·T, c·T·scale, or
// T·share/rest) over at most five runs of the order (runs), so each run is
// searched by one descent on the items' bounds of held and (held+1)/T:
// O(log n), after refresh.
func (f *Fair) Next() (int, bool) {
	if !f.made() {
		return 0, false
	}
	rs := f.runs()
	return f.next(&rs)
}

// Reclaim returns the job whose slot should be taken back first when the
// cluster shrinks, and true, or false when no job holds more than its
// share: the last job in (T, id) order holding more than its share S_i
// (held_i > S_i; Target). A job of 0 tasks holding a slot is over its
// share (0), as is every job holding one when there are no slots. The
// comparisons are Next's (per task where the shares are proportional to
// T), on the same runs searched from the last, each by one descent on the
// items' bounds of the greatest held and held/T: O(log n), after
// refresh.
func (f *Fair) Reclaim() (int, bool) {
	if !f.made() {
		return 0, false
	}
	rs := f.runs()
	return f.reclaim(&rs)
}

// runs refreshes the cut-offs and returns the runs of the order over
// which the shares are one share (shareOf's cases): O(1) after refresh.
func (f *Fair) runs() runs {
	f.refresh()
	var rs runs
	if f.all().count == 0 || f.slots == 0 {
		rs.add(keyLast, constantShare(0))
		return rs
	}
	m1Key := f.keyOrLast(f.m1)
	switch {
	case f.caseOne && f.cut == none:
		if m1Key != keyLast {
			rs.add(m1Key, constantShare(f.floor*f.scale))
			rs.add(keyLast, share{perWeight: true, r: quotientOf(f.c * f.scale)})
		} else {
			rs.add(keyLast, constantShare(f.floor*f.scale))
		}
	case f.caseOne:
		cutKey := f.keyOf(f.cut)
		if cutKey.less(m1Key) {
			m1Key = cutKey
		}
		rs.add(m1Key, constantShare(f.floor))
		rs.add(cutKey, share{perWeight: true, r: quotientOf(f.c)})
		rs.add(f.keyAfter(f.cut), constantShare(f.shareOf(f.cut)))
		rs.add(keyLast, constantShare(f.floor))
	case f.cut == none:
		rs.add(keyLast, constantShare(f.floor))
	default:
		rs.add(f.keyOf(f.cut), constantShare(f.floor))
		rs.add(keyLast, perUnit(f.share, f.rest))
	}
	return rs
}

// quotientOf is the ratio of k ≥ 0 (k/1).
func quotientOf(k float64) ratio {
	if math.IsInf(k, 1) {
		return everything
	}
	return quotient(k, 1)
}

// checkCount returns an error unless remaining is a count Add accepts for
// job id whose current count is old: finite, ≥ 0, and keeping Σ c·T
// finite with room for rounding. A count at most old cannot raise the sum
// and is accepted (so is Add(0)). Else the tree adds ΣT in its own
// grouping, which may come out above the total checked here (ΣT − old +
// remaining) by about n units in the last place (n positive terms added in
// any order are off by at most (n−1)·2⁻⁵³ relatively, and the check's own
// operations add a few more), n < 2³¹ (ids are int32): so c·ΣT must stay
// within MaxFloat64/(1 + 2⁻²⁰), a margin that holds for every n, not
// MaxFloat64 (whose check let c·ΣT overflow in the tree's order:
// TestFairSumBound). A count within that sliver of the bound is rejected
// though fairness.Allocate, summing in index order, may accept it.
func (f *Fair) checkCount(fn string, id int, remaining, old float64) error {
	if err := check.NonNegative(fn, id, "remaining", remaining); err != nil {
		return err
	}
	if remaining > old && !(f.c*(f.all().sumT-old+remaining) <= fairSumBound) {
		return check.Err(fn, id, "remaining", remaining, "brings Σ c·T_i over the jobs within a factor 1 + 2⁻²⁰ of MaxFloat64 (Fair's margin for rounding)")
	}
	return nil
}

// fairSumBound is the most Σ c·T_i may reach: MaxFloat64/(1 + 2⁻²⁰)
// (checkCount).
var fairSumBound = math.MaxFloat64 / (1 + 0x1p-20)
