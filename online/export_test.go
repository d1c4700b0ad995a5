package online

import "fmt"

// CheckTree verifies the search tree against its definition, for the
// state-machine test: the nodes in order are the live jobs in strictly
// increasing (T, id) order; every parent is above its children in
// priority (a bijection of the id, so priorities never tie), which with
// the order makes the shape the one treap of these jobs; and every node's subtree sum and bounds are what
// update computes from its children's, checked by recomputing them.
func (h *Hopper) CheckTree() error {
	count := 0
	var prev int32 = none
	var walk func(x, parent int32) error
	walk = func(x, parent int32) error {
		if x == none {
			return nil
		}
		if !h.nodes[x].live {
			return fmt.Errorf("node %d in the tree is not live", x)
		}
		if parent != none && !h.above(parent, x) {
			return fmt.Errorf("node %d (prio %d) below its child %d (prio %d)", parent, priority(parent), x, priority(x))
		}
		if err := walk(h.keys[x].kid[0], x); err != nil {
			return err
		}
		if prev != none && !h.before(prev, x) {
			return fmt.Errorf("nodes %d (T %v) and %d (T %v) out of (T, id) order", prev, h.keys[prev].t, x, h.keys[x].t)
		}
		prev = x
		count++
		if err := walk(h.keys[x].kid[1], x); err != nil {
			return err
		}
		saved := h.nodes[x]
		h.setRatios(x)
		h.update(x)
		if h.nodes[x] != saved {
			got := h.nodes[x]
			h.nodes[x] = saved
			return fmt.Errorf("node %d: stored %+v, recomputed %+v", x, saved, got)
		}
		return nil
	}
	if err := walk(h.root, none); err != nil {
		return err
	}
	if count != h.n {
		return fmt.Errorf("%d nodes in the tree, %d jobs held", count, h.n)
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

// PathLen is the length of Hopper's scratch path: at most the tree's
// depth, however many queries ran (each resets it).
func (h *Hopper) PathLen() int { return len(h.path) }
