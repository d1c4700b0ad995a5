package online

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/waterfill"
	"github.com/specsched/specsched/stragglers"
)

// Classes maintains the throughput-maximal allocation for jobs of
// different tail indices β_i — Algorithm 4 of the thesis (§4.2, Theorem 3)
// carried to K classes, stragglers.Allocate, which gives the water-filling,
// its cases and its special cases — over a changing set of jobs, named by
// ids as in Hopper.
//
// How. The jobs sit in a B+-tree (jobs.go) ordered by (min(β_i, 2), T_i,
// id): the classes in the water level's order (heaviest tail first), and
// within a class Algorithm 1's order. Its items hold ΣT, Σw (w =
// T/√(β−1) for β < 2, 0 for β ≥ 2) and ΣV over the jobs below them. The
// class g at which the water level stops is the first class at whose end
// Σw/√a(next class) ≥ S, a predicate monotone along the classes. A class
// ends where the next starts, at a job whose predecessor is of another
// class: a node sees a start between two of its items by their first and
// last keys, and each item keeps whether a class starts inside it, with Σw
// before the last such start and that class's slope, so one descent finds
// g, O(log n), and nothing is marked on the jobs (an event changes only
// its own path). The sums of the classes before g and class g's own are
// taken in one descent (sumsAround: items wholly on one side of g's start,
// and before its end, added whole, at most two per level entered), class
// g's over its key range alone, not as a difference of prefixes;
// Algorithm 1's cut within it is one more descent over that range
// (reachV), O(log n). A job's share then follows from its class and its
// key against the cut's: O(1).
//
// Costs, n the jobs held: Add, Update, Remove, SetHeld O(log n);
// SetSlots O(1); Target O(1) after the search (O(log n)), done
// once after each batch of events (the first query after an event); Next
// and Reclaim O(log n) after the search; Snapshot O(ids); Compare O(1). No method
// allocates once the ids stop growing. Not safe for concurrent use: every
// query may refresh the search (see the package doc).
//
// Next's rule is Fair's: the first active job in Compare's order at least a
// whole slot short of its share, else the first short at all.
type Classes struct {
	jobs // with the slots, and fresh: the level below is valid (see refresh)

	counts, betas []float64            // scratch: the jobs by id (SnapshotSlots)
	ws            stragglers.Workspace // SnapshotSlots' reference's

	// The water level.
	zero      bool    // no work or no slots: every share is 0
	g         float64 // the class the level stops at
	rootSlope float64 // √a(g)
	before    sums    // the classes before g
	group     sums    // class g
	kind      int     // which of the water-fill's cases (levelAt, ...)
	share     float64 // levelAt: what class g shares by Algorithm 1
	cg        float64 // levelAt: class g's factor 2/g (1 for g = 2)
	capacity  bool    // levelAt: Algorithm 1's capacity-constrained case in class g
	cut       int32   // levelAt, capacity: the cut-off job (none: every job gets V)
	left      float64 // levelAt, capacity: what the cut-off job gets
}

// The water-fill's cases (stragglers.Allocate).
const (
	levelAt       = iota // λ = a_g: earlier classes past their V, class g shares the rest by Algorithm 1
	levelAbove           // only through rounding: the classes before g share S
	levelBelow           // λ below a_g (g < 2): the classes up to g share S ∝ w
	noSpeculation        // g = 2: the β ≥ 2 class holds V = T, the others share the rest ∝ w
)

// NewClasses returns a Classes holding no job, for a cluster of slots ≥ 0
// slots (finite). An error (an *specsched.InputError on "slots")
// otherwise.
func NewClasses(slots float64) (*Classes, error) {
	if err := check.NonNegative("online.NewClasses", check.Scalar, "slots", slots); err != nil {
		return nil, err
	}
	return &Classes{jobs: newJobs(slots, true)}, nil
}

// Len is the number of jobs held. O(1).
func (c *Classes) Len() int {
	if !c.made() {
		return 0
	}
	return c.n
}

// IDs is the length Snapshot writes (as Hopper.IDs). O(1).
func (c *Classes) IDs() int {
	if !c.made() {
		return 0
	}
	return len(c.nodes)
}

// fields are a job's class and sums: class min(β, 2), w = T/√(β−1) (0 for
// β ≥ 2), V = (2/β)·T (T for β ≥ 2). The basis of its per-unit bounds is
// w, or T for β ≥ 2 (basis: w is 0 there, and T/√(β−1) ≥ T > 0 below 2 for
// T > 0): within a class, and across classes below 2, the shares are
// proportional to it.
func fields(t, beta float64) (class, w, v float64) {
	if beta >= 2 {
		return 2, 0, t
	}
	w = t / math.Sqrt(beta-1)
	return beta, w, 2 / beta * t
}

// Add adds a job of remaining ≥ 0 tasks and tail index beta > 1, both
// finite, and returns its id (the last freed, else IDs()). An error (an
// *specsched.InputError on "remaining" or "beta", index IDs()), with c
// unchanged, for a count or β stragglers.Allocate rejects, or one that
// makes ΣT or Σw exceed MaxFloat64/2 (its bound). O(log n).
func (c *Classes) Add(remaining, beta float64) (int, error) {
	if !c.made() {
		return 0, errUnmade("online.Classes.Add")
	}
	if err := c.checkJob("online.Classes.Add", len(c.nodes), remaining, beta, sums{}); err != nil {
		return 0, err
	}
	c.fresh = false
	class, w, v := fields(remaining+0, beta)
	return int(c.add(class, remaining+0, w, v)), nil
}

// Update sets job id's remaining tasks and tail index. An error (an
// *specsched.InputError naming "id", "remaining" or "beta"), with c
// unchanged, for an id not in use or a job Add would reject. O(log n).
func (c *Classes) Update(id int, remaining, beta float64) error {
	const fn = "online.Classes.Update"
	if !c.made() {
		return errUnmade(fn)
	}
	if err := c.checkID(fn, id); err != nil {
		return err
	}
	if err := c.checkJob(fn, id, remaining, beta, c.entryOf(int32(id)).sums()); err != nil {
		return err
	}
	c.fresh = false
	class, w, v := fields(remaining+0, beta)
	c.set(int32(id), class, remaining+0, w, v)
	return nil
}

// Remove removes job id. An error (an *specsched.InputError on "id"),
// with c unchanged, for an id not in use. O(log n).
func (c *Classes) Remove(id int) error {
	if !c.made() {
		return errUnmade("online.Classes.Remove")
	}
	return c.removeJob("online.Classes.Remove", id)
}

// SetSlots changes the cluster's slots to slots ≥ 0 (finite); an error
// (an *specsched.InputError on "slots"), with c unchanged, otherwise. O(1).
func (c *Classes) SetSlots(slots float64) error {
	if !c.made() {
		return errUnmade("online.Classes.SetSlots")
	}
	return c.setSlots("online.Classes.SetSlots", slots)
}

// SetHeld records that job id holds slots ≥ 0 slots (at most 2^53). An
// error (an *specsched.InputError on "id" or "slots"), with c unchanged,
// otherwise. O(log n).
func (c *Classes) SetHeld(id, slots int) error {
	if !c.made() {
		return errUnmade("online.Classes.SetHeld")
	}
	return c.setHeldJob("online.Classes.SetHeld", id, slots)
}

// Held is the slots job id holds (SetHeld), 0 for an id not in use: read
// from the job's entry in its leaf, which a scheduler asking it of the job
// Next just named finds in cache. O(1) (a scan of at most 16 entries).
func (c *Classes) Held(id int) int {
	if !c.made() {
		return 0
	}
	return c.heldOf(id)
}

// Compare is the water-fill's job order: heavier tail first (smaller
// min(β, 2)), then fewer remaining tasks (Algorithm 1's order within a
// class), then the smaller id; −1, 0 (a = b) or +1. A strict total order
// on the jobs held; ids not in use compare as jobs of class 0 and 0 tasks
// (before every job). O(1).
func (c *Classes) Compare(a, b int) int {
	if !c.made() {
		return 0
	}
	return c.compare(a, b)
}

// Target returns job id's share: what stragglers.Allocate gives it on the
// jobs held. An error (an *specsched.InputError on "id") for an id not in
// use. O(1) after refresh.
func (c *Classes) Target(id int) (float64, error) {
	if !c.made() {
		return 0, errUnmade("online.Classes.Target")
	}
	if err := c.checkID("online.Classes.Target", id); err != nil {
		return 0, err
	}
	c.refresh()
	return c.shareOf(int32(id)), nil
}

// Snapshot writes every job's share to dst[id] (0 for an id not in use)
// and returns dst[:IDs()], grown if too small: stragglers.Allocate on the
// jobs indexed by id. O(IDs()).
func (c *Classes) Snapshot(dst []float64) []float64 {
	if !c.made() {
		return dst[:0]
	}
	c.refresh()
	return c.snapshot(dst, c.shareOf)
}

// shareOf is node x's share, with the level fresh.
func (c *Classes) shareOf(x int32) float64 {
	n := &c.nodes[x]
	if c.zero || n.class > c.g {
		return 0
	}
	below := n.class < c.g
	switch c.kind {
	case levelAt:
		if below {
			return n.w / c.rootSlope
		}
		return c.classShare(x)
	case levelAbove:
		if below {
			return waterfill.Portion(n.w, c.before.sumW, c.slots)
		}
		return 0
	case levelBelow:
		return waterfill.Portion(n.w, c.before.sumW+c.group.sumW, c.slots)
	}
	if below {
		return waterfill.Portion(n.w, c.before.sumW, c.slots-c.group.sumV)
	}
	return n.v
}

// classShare is job x's share of class g's part by Algorithm 1.
func (c *Classes) classShare(x int32) float64 {
	t := c.nodes[x].t
	switch {
	case c.group.sumT == 0 || c.share <= 0:
		return 0
	case !c.capacity:
		return hopper.Proportional(t, c.group.sumT, c.share)
	case c.cut == none || c.keyOf(x).less(c.keyOf(c.cut)):
		return c.cg*t + 0
	case x == c.cut:
		return c.left
	}
	return 0
}

// classKeys are the keys just before and just after every job of class g.
func classKeys(g float64) (key, key) {
	return key{g, math.Inf(-1), 0}, key{g, math.Inf(1), 0}
}

// refresh finds the water level and class g's cut if an event came since
// the last query: O(log n) (see Classes).
func (c *Classes) refresh() {
	if c.fresh {
		return
	}
	c.fresh = true
	all := c.all()
	c.zero = all.sumT == 0 || c.slots == 0
	if c.zero {
		return
	}
	slots := c.slots
	// The level: the first class at whose end reaches holds
	// (stragglers' reaches: Σw through it / √a(next class) ≥ S, or no next
	// class).
	g := c.levelClass(func(w, a float64) bool { return a < 0 || w/math.Sqrt(a) >= slots })
	start, end := classKeys(g)
	c.g, c.rootSlope = g, math.Sqrt(slope(g))
	// The classes before g, and class g's own sums, taken over the class
	// alone (not as a difference of prefixes, which would cancel).
	c.before, c.group = c.sumsAround(start, end)
	atLevel := c.before.sumW / c.rootSlope
	switch {
	case c.before.sumW == 0 || (slots > atLevel && slots <= atLevel+c.group.sumV):
		c.kind = levelAt
		c.share = slots
		if c.before.sumW > 0 {
			c.share = slots - atLevel
		}
		c.cg = hopper.Factor(g)
		c.capacity = c.group.sumT > 0 && c.share > 0 && c.group.sumV >= c.share*(1-hopper.CaseTolerance)
		if c.capacity {
			// Algorithm 1's cut: the first job of the class at which the
			// virtual sizes so far reach what the class shares.
			var before sums
			c.cut, before = c.reachV(start, end, c.share)
			if c.cut != none {
				c.left = min(c.nodes[c.cut].v, c.share-before.sumV)
			}
		}
	case slots <= atLevel:
		c.kind = levelAbove
	case g < 2:
		c.kind = levelBelow
	default:
		c.kind = noSpeculation
	}
}

// slope is a(β) = β²/(4(β−1)) for a class β < 2, 1 for the class 2
// (stragglers' slope).
func slope(class float64) float64 {
	if class >= 2 {
		return 1
	}
	return class * class / (4 * (class - 1))
}

// Next returns the job that should receive the next free slot, and true,
// or false when every job holds at least its share: the first active job
// in Compare's order at least a whole slot short of its share (held_i ≤
// S_i − 1), else the first short at all. Over the order the shares are
// proportional to each job's basis u (w, or T in the β ≥ 2 class) with
// one factor per run — the classes before g, the jobs of class g before
// its cut — plus the cut-off job itself, and 0 after (runs), so each run
// is one descent on the items' bounds of (held+1)/u and held/u: O(log n),
// after refresh.
func (c *Classes) Next() (int, bool) {
	if !c.made() {
		return 0, false
	}
	rs := c.runs()
	return c.next(&rs)
}

// Reclaim returns the job whose slot should be taken back first when the
// cluster shrinks, and true, or false when no job holds more than its
// share: the last job in Compare's order holding more than its share
// (held_i > S_i; Target) — a job of a class after the level's, after
// class g's cut-off job, or of 0 tasks, holding any slot, or every job
// holding one when there are no slots. Next's runs searched from the
// last, each by one descent on the items' bounds of the greatest held
// and held/u: O(log n), after refresh.
func (c *Classes) Reclaim() (int, bool) {
	if !c.made() {
		return 0, false
	}
	rs := c.runs()
	return c.reclaim(&rs)
}

// runs refreshes the level and returns the runs of the order over which
// the shares are one share (shareOf's cases): O(1) after refresh.
func (c *Classes) runs() runs {
	c.refresh()
	var rs runs
	if c.zero {
		rs.add(keyLast, constantShare(0))
		return rs
	}
	start, end := classKeys(c.g)
	// ug is T/u in class g: √(g−1) below 2 (u = w), 1 in the β ≥ 2 class.
	ug := 1.0
	if c.g < 2 {
		ug = math.Sqrt(c.g - 1)
	}
	switch c.kind {
	case levelAt:
		rs.add(start, perUnit(1, c.rootSlope))
		switch {
		case c.group.sumT == 0 || c.share <= 0:
		case !c.capacity:
			rs.add(end, perUnit(c.share*ug, c.group.sumT))
		case c.cut == none:
			rs.add(end, perUnit(c.cg*ug, 1))
		default:
			rs.add(c.keyOf(c.cut), perUnit(c.cg*ug, 1))
			rs.add(c.keyAfter(c.cut), constantShare(c.left))
		}
	case levelAbove:
		rs.add(start, perUnit(c.slots, c.before.sumW))
	case levelBelow:
		rs.add(end, perUnit(c.slots, c.before.sumW+c.group.sumW))
	default:
		rs.add(start, perUnit(c.slots-c.group.sumV, c.before.sumW))
		rs.add(end, perUnit(1, 1))
	}
	rs.add(keyLast, constantShare(0)) // the rest get 0
	return rs
}

// checkJob returns an error unless remaining and beta make a job Add
// accepts in place of old (the sums of the job it replaces, zero for a
// new one): remaining finite and ≥ 0, beta finite and > 1, and ΣT and Σw
// at most MaxFloat64/2 (stragglers.Allocate's bound).
func (c *Classes) checkJob(fn string, id int, remaining, beta float64, old sums) error {
	if err := check.NonNegative(fn, id, "remaining", remaining); err != nil {
		return err
	}
	if err := check.TailIndex(fn, id, "beta", beta); err != nil {
		return err
	}
	_, w, _ := fields(remaining, beta)
	all := c.all()
	const maxSum = math.MaxFloat64 / 2
	if all.sumT-old.sumT+remaining > maxSum || all.sumW-old.sumW+w > maxSum {
		return check.Err(fn, id, "remaining", remaining, "ΣT_i or ΣT_i/√(β_i−1) over the jobs exceeds MaxFloat64/2")
	}
	return nil
}
