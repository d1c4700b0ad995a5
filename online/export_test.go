package online

import "fmt"

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

// checkTree: the nodes in order are the live jobs in strictly increasing
// (class, T, id) order, every parent above its children in priority, and
// every node's own ratios what setOwn computes and its subtree sums and
// bounds what update computes from its children's.
func (j *jobs) checkTree() error {
	count := 0
	var prev int32 = none
	var walk func(x, parent int32) error
	walk = func(x, parent int32) error {
		if x == none {
			return nil
		}
		if !j.nodes[x].live {
			return fmt.Errorf("node %d in the tree is not live", x)
		}
		if parent != none && priority(parent) < priority(x) {
			return fmt.Errorf("node %d below its child %d in priority", parent, x)
		}
		if err := walk(j.nodes[x].left, x); err != nil {
			return err
		}
		if prev != none && !j.keyOf(prev).less(j.keyOf(x)) {
			return fmt.Errorf("nodes %d and %d out of order", prev, x)
		}
		prev = x
		count++
		if err := walk(j.nodes[x].right, x); err != nil {
			return err
		}
		saved := j.nodes[x]
		j.setOwn(x)
		j.update(x)
		if j.nodes[x] != saved {
			got := j.nodes[x]
			j.nodes[x] = saved
			return fmt.Errorf("node %d: stored %+v, recomputed %+v", x, saved, got)
		}
		return nil
	}
	if err := walk(j.root, none); err != nil {
		return err
	}
	if count != j.n {
		return fmt.Errorf("%d nodes in the tree, %d jobs held", count, j.n)
	}
	if !j.ends {
		return nil
	}
	// Each class's last job, and only it, is marked, with the next class's
	// slope (−1 for the last class): checked against the nodes in order.
	var order []int32
	var in func(x int32)
	in = func(x int32) {
		if x != none {
			in(j.nodes[x].left)
			order = append(order, x)
			in(j.nodes[x].right)
		}
	}
	in(j.root)
	for k, x := range order {
		end, next := true, -1.0
		if k+1 < len(order) {
			end = j.nodes[order[k+1]].class != j.nodes[x].class
			next = slope(j.nodes[order[k+1]].class)
		}
		if j.nodes[x].end != end || end && j.nodes[x].nextSlope != next {
			return fmt.Errorf("node %d (class %v): end %v, next slope %v; want %v, %v", x, j.nodes[x].class, j.nodes[x].end, j.nodes[x].nextSlope, end, next)
		}
	}
	return nil
}

// CheckTree verifies Classes' search tree as Hopper.CheckTree does Hopper's.
func (c *Classes) CheckTree() error { return c.jobs.checkTree() }

// PathLen is the length of the path SetHeld recomputes, from a job's leaf
// to the root: the tree's depth, however many queries ran (the B+-tree
// keeps no scratch path).
func (h *Hopper) PathLen() int { return h.depth() }
