package online

import (
	"fmt"
	"math"
)

// CheckTree verifies Hopper's B+-tree against its definition, for the
// state-machine tests: every node's fill (a node other than the root
// holds bpWidth/4 to bpWidth items, an inner root at least 2), all leaves
// at one depth, the parent and job.leaf links, the short bits past a node's
// items clear, a leaf's id, sum and lo arrays (not kept) zero, the jobs in the leaves in strictly increasing (T, id)
// order, each live job there once and no other; every item's last key,
// ΣT and bounds what the jobs below it give, recomputed from T and held by
// this function's own code (not summarize or setJob; a leaf item's id, ΣT
// and lo read as its kid, T, and hi for T > 0), and the total their
// sum over the root's items; the ids not in use at T = 0 and held 0, each
// once on the free list, and every node in the tree or on the free nodes'
// list.
func (h *Hopper) CheckTree() error {
	type summary struct {
		sum          float64
		lo, hi, plus ratio
		frac         float64
		short        bool
		lastT        float64
		lastID       int32
	}
	var order []int32
	depth, reached := -1, 0
	var walk func(x int32, d int) (summary, error)
	walk = func(x int32, d int) (summary, error) {
		reached++
		n := &h.nodes[x]
		got := summary{lo: everything, hi: nothing, plus: everything, frac: -1}
		switch {
		case x != h.root && (n.n < bpWidth/4 || n.n > bpWidth):
			return got, fmt.Errorf("node %d holds %d items", x, n.n)
		case x == h.root && !n.leaf && n.n < 2:
			return got, fmt.Errorf("inner root %d holds %d items", x, n.n)
		case n.short>>n.n != 0:
			return got, fmt.Errorf("node %d: short bits %b past its %d items", x, n.short, n.n)
		case n.leaf && (n.id != [bpWidth]int32{} || n.sum != [bpWidth]float64{} || n.lo != [bpWidth]ratio{}):
			return got, fmt.Errorf("leaf %d: its id, sum or lo array (not kept) written", x)
		}
		for k := range n.n {
			var item summary
			if n.leaf {
				if depth >= 0 && depth != d {
					return got, fmt.Errorf("leaf %d at depth %d, another at %d", x, d, depth)
				}
				depth = d
				id := n.kid[k]
				if id < 0 || int(id) >= len(h.jobs) || h.jobs[id].leaf != x {
					return got, fmt.Errorf("job %d in leaf %d, not there by its job.leaf", id, x)
				}
				order = append(order, id)
				t, held := h.jobs[id].t, h.jobs[id].held
				item = summary{sum: t, lo: everything, hi: nothing, plus: everything, frac: -1, short: held <= h.c*t-1, lastT: t, lastID: id}
				if t > 0 {
					item.lo, item.hi, item.plus = quotient(held, t), quotient(held, t), quotient(held+1, t)
				} else if held > 0 {
					item.hi = everything
				}
				if d := h.c*t - held; d > 0 && d < 1 {
					item.frac = d
				}
			} else {
				c := n.kid[k]
				if c < 0 || int(c) >= len(h.nodes) || h.nodes[c].parent != x {
					return got, fmt.Errorf("node %d's child %d does not name it its parent", x, c)
				}
				var err error
				if item, err = walk(c, d+1); err != nil {
					return got, err
				}
			}
			stored := summary{n.sum[k], n.lo[k], n.hi[k], n.plus[k], n.frac[k], n.short>>k&1 == 1, n.t[k], n.id[k]}
			if n.leaf { // a leaf keeps no id, sum or lo: kid, t, and hi for T > 0
				stored.sum, stored.lastID, stored.lo = n.t[k], n.kid[k], everything
				if n.t[k] > 0 {
					stored.lo = n.hi[k]
				}
			}
			if stored != item {
				return got, fmt.Errorf("node %d item %d: stored %+v, recomputed %+v", x, k, stored, item)
			}
			got.sum += item.sum
			got.lo, got.hi, got.plus, got.frac = min(got.lo, item.lo), max(got.hi, item.hi), min(got.plus, item.plus), max(got.frac, item.frac)
			got.short = got.short || item.short
			got.lastT, got.lastID = item.lastT, item.lastID
		}
		return got, nil
	}
	if h.nodes[h.root].parent != none {
		return fmt.Errorf("root %d has parent %d", h.root, h.nodes[h.root].parent)
	}
	all, err := walk(h.root, 0)
	if err != nil {
		return err
	}
	if all.sum != h.sum {
		return fmt.Errorf("total %v, the root's items sum to %v", h.sum, all.sum)
	}
	for k := 1; k < len(order); k++ {
		if !keyLess(h.jobs[order[k-1]].t, order[k-1], h.jobs[order[k]].t, order[k]) {
			return fmt.Errorf("jobs %d (T %v) and %d (T %v) out of (T, id) order", order[k-1], h.jobs[order[k-1]].t, order[k], h.jobs[order[k]].t)
		}
	}
	if len(order) != h.n {
		return fmt.Errorf("%d jobs in the tree, %d jobs held", len(order), h.n)
	}
	if reached+len(h.freeNodes) != len(h.nodes) {
		return fmt.Errorf("%d nodes in the tree and %d free, of %d", reached, len(h.freeNodes), len(h.nodes))
	}
	onFree := make([]bool, len(h.jobs))
	for _, id := range h.free {
		if id < 0 || int(id) >= len(h.jobs) || onFree[id] || h.jobs[id].leaf != none {
			return fmt.Errorf("free id %d: in use, repeated or out of range", id)
		}
		onFree[id] = true
	}
	for id := range h.jobs {
		if h.jobs[id].leaf == none && (!onFree[id] || h.jobs[id].t != 0 || h.jobs[id].held != 0) {
			return fmt.Errorf("id %d not in use: on the free list %v, T %v, held %v", id, onFree[id], h.jobs[id].t, h.jobs[id].held)
		}
	}
	if len(h.free)+h.n != len(h.jobs) {
		return fmt.Errorf("%d ids, %d free, %d jobs", len(h.jobs), len(h.free), h.n)
	}
	return nil
}

// CheckTree verifies Fair's search tree as Hopper.CheckTree does Hopper's.
func (f *Fair) CheckTree() error { return f.jobs.checkTree() }

// checkTree verifies the B+-tree of Fair and Classes as CheckTree does
// Hopper's: every node's fill (a node other than the root holds jbWidth/4
// to jbWidth items, an inner root at least 2), the items past a node's
// count zero, all leaves at one depth, the parent and leaf links, the
// jobs in the leaves in strictly increasing (class, T, id) order, each
// live job there once and no other, each leaf's entry for a job equal to
// one built from its record and the held count the entry keeps (jbJob:
// key, w, v, and the bounds from held for T > 0, else zero); every inner node's item for a child recomputed by this
// function's own code from the child's jobs or items: the first and last
// keys, the sums (added in
// order), the bounds, idle, and for Classes the class starts, whose flag
// and slope are also checked against the jobs below in order (a start:
// a job, not the first below, of another class than its predecessor) and
// startW against their Σw added one by one (1e-12 relatively); the total
// the root's items' sums; the ids not in use with zero records, each once
// on the free list; every leaf and inner node in the tree or on its free
// list, and the height the leaves' depth.
func (j *jobs) checkTree() error {
	depth, reachedLeaves, reachedInner := -1, 0, 0
	var order []int32
	// add folds item into got, the item of a node over items ending in
	// prev (k > 0): the keys, the sums added in order, the bounds, idle
	// and the starts; wBefore is Σw of the items before k, added in order.
	add := func(got *jbItem, k int, prev key, item jbItem, wBefore float64) {
		if k == 0 {
			got.first = item.first
		}
		got.last = item.last
		if j.ends && k > 0 && prev.class != item.first.class {
			got.start, got.startW, got.startSlope = true, wBefore, slope(item.first.class)
		}
		if j.ends && item.start {
			got.start, got.startW, got.startSlope = true, wBefore+item.startW, item.startSlope
		}
		got.s = sums{got.s.count + item.s.count, got.s.sumT + item.s.sumT, got.s.sumW + item.s.sumW, got.s.sumV + item.s.sumV}
		got.minHeld, got.maxHeld = min(got.minHeld, item.minHeld), max(got.maxHeld, item.maxHeld)
		got.minPlus, got.minHold, got.maxHold = min(got.minPlus, item.minPlus), min(got.minHold, item.minHold), max(got.maxHold, item.maxHold)
		got.idle = got.idle || item.idle
	}
	fill := func(x int32, n int, root, inner bool) error {
		switch {
		case !root && (n < jbWidth/4 || n > jbWidth):
			return fmt.Errorf("node %d (inner %v) holds %d items", x, inner, n)
		case root && inner && n < 2:
			return fmt.Errorf("inner root %d holds %d items", x, n)
		}
		return nil
	}
	var walk func(x int32, leaf bool, parent int32, d int) (jbItem, []int32, error)
	walk = func(x int32, leaf bool, parent int32, d int) (jbItem, []int32, error) {
		got := jbItem{kid: x, minHeld: math.MaxInt64, maxHeld: math.MinInt64, minPlus: everything, minHold: everything, maxHold: nothing}
		var below []int32
		wBefore := 0.0
		if leaf {
			reachedLeaves++
			if x < 0 || int(x) >= len(j.leaves) || j.leaves[x].parent != parent {
				return got, nil, fmt.Errorf("leaf %d out of range or does not name %d its parent", x, parent)
			}
			l := &j.leaves[x]
			if err := fill(x, l.n, parent == none, false); err != nil {
				return got, nil, err
			}
			if depth >= 0 && depth != d {
				return got, nil, fmt.Errorf("leaf %d at depth %d, another at %d", x, d, depth)
			}
			depth = d
			for k := l.n; k < jbWidth; k++ {
				if l.items[k] != (jbJob{}) {
					return got, nil, fmt.Errorf("leaf %d: job %d past its %d written", x, k, l.n)
				}
			}
			var prev key
			for k := range l.n {
				id := l.items[k].kid
				if id < 0 || int(id) >= len(j.nodes) || len(j.leafOf) != len(j.nodes) || j.leafOf[id] != x {
					return got, nil, fmt.Errorf("job %d in leaf %d, not there by leafOf", id, x)
				}
				r := j.nodes[id]
				held := l.items[k].held // kept in the entry alone (Held's model checks it)
				if held < 0 || held > 1<<53 {
					return got, nil, fmt.Errorf("leaf %d job %d holds %d", x, k, held)
				}
				want := jbJob{kid: id, class: r.class, t: r.t, w: r.w, v: r.v, held: held}
				kk := key{r.class, r.t, int64(id)}
				item := jbItem{s: sums{sumT: r.t, sumW: r.w, sumV: r.v}, first: kk, last: kk, kid: id, minHeld: math.MaxInt64, maxHeld: math.MinInt64, minPlus: everything, minHold: everything, maxHold: nothing}
				if r.t > 0 {
					u := r.w // the basis: w, or T where w is 0
					if r.w == 0 {
						u = r.t
					}
					want.plus, want.hold = quotient(float64(held)+1, u), quotient(float64(held), u)
					item.s.count = 1
					item.minHeld, item.maxHeld = held, held
					item.minPlus, item.minHold, item.maxHold = want.plus, want.hold, want.hold
				} else {
					item.idle = held > 0
				}
				if l.items[k] != want {
					return got, nil, fmt.Errorf("leaf %d job %d: stored %+v, from its record and held %+v", x, k, l.items[k], want)
				}
				add(&got, k, prev, item, wBefore)
				prev = kk
				wBefore += r.w
				below = append(below, id)
				order = append(order, id)
			}
		} else {
			reachedInner++
			if x < 0 || int(x) >= len(j.tree) || j.tree[x].parent != parent {
				return got, nil, fmt.Errorf("node %d out of range or does not name %d its parent", x, parent)
			}
			n := &j.tree[x]
			if err := fill(x, n.n, parent == none, true); err != nil {
				return got, nil, err
			}
			for k := n.n; k < jbWidth; k++ {
				if n.items[k] != (jbItem{}) {
					return got, nil, fmt.Errorf("node %d: item %d past its %d written", x, k, n.n)
				}
			}
			for k := range n.n {
				item, jobsBelow, err := walk(n.items[k].kid, n.leafKids, x, d+1)
				if err != nil {
					return got, nil, err
				}
				if n.items[k] != item {
					return got, nil, fmt.Errorf("node %d item %d: stored %+v, recomputed %+v", x, k, n.items[k], item)
				}
				var prev key
				if k > 0 {
					prev = n.items[k-1].last
				}
				add(&got, k, prev, item, wBefore)
				wBefore += item.s.sumW
				below = append(below, jobsBelow...)
			}
		}
		// The starts against the jobs below, in order.
		start, slopeWant, wWant, w := false, 0.0, 0.0, 0.0
		for k, id := range below {
			if k > 0 && j.nodes[below[k-1]].class != j.nodes[id].class {
				start, slopeWant, wWant = true, slope(j.nodes[id].class), w
			}
			w += j.nodes[id].w
		}
		if !j.ends {
			start = false
		}
		if got.start != start || start && (got.startSlope != slopeWant || math.Abs(got.startW-wWant) > 1e-12*w) {
			return got, nil, fmt.Errorf("node %d: start %v slope %v Σw before %v; the jobs below give %v, %v, %v", x, got.start, got.startSlope, got.startW, start, slopeWant, wWant)
		}
		return got, below, nil
	}
	all, _, err := walk(j.root, j.height == 1, none, 0)
	if err != nil {
		return err
	}
	if depth+1 != j.height {
		return fmt.Errorf("leaves at depth %d, height %d", depth, j.height)
	}
	if all.s != j.total {
		return fmt.Errorf("total %+v, the root's items sum to %+v", j.total, all.s)
	}
	for k := 1; k < len(order); k++ {
		if !j.keyOf(order[k-1]).less(j.keyOf(order[k])) {
			return fmt.Errorf("jobs %d and %d out of (class, T, id) order", order[k-1], order[k])
		}
	}
	if len(order) != j.n {
		return fmt.Errorf("%d jobs in the tree, %d jobs held", len(order), j.n)
	}
	if reachedInner+len(j.freeTree) != len(j.tree) || reachedLeaves+len(j.freeLeaves) != len(j.leaves) {
		return fmt.Errorf("%d inner nodes in the tree and %d free, of %d; %d leaves and %d free, of %d",
			reachedInner, len(j.freeTree), len(j.tree), reachedLeaves, len(j.freeLeaves), len(j.leaves))
	}
	for _, x := range j.freeTree {
		if x < 0 || int(x) >= len(j.tree) || j.tree[x] != (jbNode{}) {
			return fmt.Errorf("free node %d out of range or not cleared", x)
		}
	}
	for _, x := range j.freeLeaves {
		if x < 0 || int(x) >= len(j.leaves) || j.leaves[x] != (jbLeaf{}) {
			return fmt.Errorf("free leaf %d out of range or not cleared", x)
		}
	}
	onFree := make([]bool, len(j.nodes))
	for _, id := range j.free {
		if id < 0 || int(id) >= len(j.nodes) || onFree[id] || j.leafOf[id] != none {
			return fmt.Errorf("free id %d: in use, repeated or out of range", id)
		}
		onFree[id] = true
	}
	for id := range j.nodes {
		if j.leafOf[id] == none && (!onFree[id] || j.nodes[id] != (jobNode{})) {
			return fmt.Errorf("id %d not in use: on the free list %v, record %+v", id, onFree[id], j.nodes[id])
		}
	}
	if len(j.free)+j.n != len(j.nodes) {
		return fmt.Errorf("%d ids, %d free, %d jobs", len(j.nodes), len(j.free), j.n)
	}
	return nil
}

// CheckTree verifies Classes' search tree as Hopper.CheckTree does Hopper's.
func (c *Classes) CheckTree() error { return c.jobs.checkTree() }

// PathLen is the length of the path SetHeld recomputes, from a job's leaf
// to the root: the tree's depth, however many queries ran (the B+-tree
// keeps no scratch path).
func (h *Hopper) PathLen() int { return h.depth() }

// PathLen is the levels of Fair's B+-tree (leaves included), reported by
// BenchmarkFairLatency as Hopper's are by BenchmarkLatency.
func (f *Fair) PathLen() int { return f.depth() }

// PathLen is the levels of Classes' B+-tree (BenchmarkClassesLatency).
func (c *Classes) PathLen() int { return c.depth() }
