package online

import (
	"slices"
	"testing"
)

// leafSizes is the number of jobs in each leaf of j, left to right.
func (j *jobs) leafSizes() []int {
	var sizes []int
	var walk func(x int32, leaf bool)
	walk = func(x int32, leaf bool) {
		if leaf {
			sizes = append(sizes, j.leaves[x].n)
			return
		}
		n := &j.tree[x]
		for k := range n.n {
			walk(n.items[k].kid, n.leafKids)
		}
	}
	walk(j.root, j.height == 1)
	return sizes
}

// itemsOf is node x's items (x a leaf if leaf): an inner node's as kept, a
// leaf's jobs each as an item over itself alone (keys, sums; no start).
func (j *jobs) itemsOf(x int32, leaf bool) []jbItem {
	if !leaf {
		n := &j.tree[x]
		return n.items[:n.n]
	}
	l := &j.leaves[x]
	items := make([]jbItem, l.n)
	for k := range l.n {
		jb := &l.items[k]
		items[k] = jbItem{s: jb.sums(), first: jb.key(), last: jb.key(), kid: jb.kid}
	}
	return items
}

// inUse is the number of tree nodes, leaves and inner ones, in use (not
// on a free list).
func (j *jobs) inUse() int {
	return len(j.tree) - len(j.freeTree) + len(j.leaves) - len(j.freeLeaves)
}

// TestJobsShape pins the shape of Fair's and Classes' B+-tree as jobs.go
// states it: a node splits only when full, into halves (the upper half to
// a new node; a full parent split first), and a node is rebalanced only
// below jbWidth/4 items, by a merge when the two siblings fit in one node.
// Jobs of 1, 2, 3, … tasks, each going to the right end:
//   - 16 fill the root leaf; the 17th splits it, 8 and 8, and goes right:
//     leaves of 8 and 9;
//   - every 8 more split the last leaf again: at 136 jobs the root holds 16
//     leaves (15 of 8, the last of 16), depth 2; the 137th splits the last
//     leaf, its parent, the root, full, first: depth 3;
//   - in a second tree of 21 jobs (leaves of 8 and 13), removing the left
//     leaf's last four leaves it at 4 = jbWidth/4: untouched; a fifth
//     leaves it at 3, and 3 + 13 = jbWidth fit in one node: a merge into a
//     root leaf of 16, full, which the next arrival splits (8 and 9).
func TestJobsShape(t *testing.T) {
	t.Parallel()
	f, _ := NewFair(10, 1.5, 0.5)
	want := func(step string, leaves []int, depth int) {
		t.Helper()
		if err := f.CheckTree(); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if got := f.leafSizes(); !slices.Equal(got, leaves) || f.depth() != depth {
			t.Fatalf("%s: leaves %v, depth %d; want %v, %d", step, got, f.depth(), leaves, depth)
		}
	}
	for k := range 137 {
		if _, err := f.Add(float64(k + 1)); err != nil {
			t.Fatal(err)
		}
		switch k + 1 {
		case 16:
			want("16 jobs", []int{16}, 1)
		case 17:
			want("17 jobs", []int{8, 9}, 2)
		case 136:
			leaves := []int{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 16}
			want("136 jobs", leaves, 2)
		case 137:
			leaves := []int{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9}
			want("137 jobs", leaves, 3)
		}
	}

	f, _ = NewFair(10, 1.5, 0.5)
	for k := range 21 { // job k has k+1 tasks
		if _, err := f.Add(float64(k + 1)); err != nil {
			t.Fatal(err)
		}
	}
	want("21 jobs", []int{8, 13}, 2)
	for id := 7; id >= 3; id-- {
		if err := f.Remove(id); err != nil {
			t.Fatal(err)
		}
		if id == 4 {
			want("the left leaf at jbWidth/4", []int{4, 13}, 2)
		}
	}
	want("the left leaf at 3: merged", []int{16}, 1)
	if _, err := f.Add(100); err != nil {
		t.Fatal(err)
	}
	want("an arrival in the full root leaf", []int{8, 9}, 2)
}

// TestJobsMoveInPlace: Update moves a job in place — no node taken or
// freed, its leaf's jobs where they were — when its new key stays between
// its neighbours in its leaf, as jobs.set states; here from the second
// and from the next-to-last place of a leaf at the fewest items a node
// other than the root may hold (jbWidth/4), which taking the job out and
// in again would merge with its sibling. Two leaves of 8 and 9 (jobs of 1
// to 17 tasks), the first cut to jobs 0..3.
func TestJobsMoveInPlace(t *testing.T) {
	t.Parallel()
	f, _ := NewFair(10, 1.5, 0.5)
	for k := range 17 { // job k has k+1 tasks
		if _, err := f.Add(float64(k + 1)); err != nil {
			t.Fatal(err)
		}
	}
	for id := 4; id < 8; id++ {
		if err := f.Remove(id); err != nil {
			t.Fatal(err)
		}
	}
	leaf := f.leafOf[0]
	if got := f.leafSizes(); !slices.Equal(got, []int{4, 9}) || f.leaves[leaf].n != 4 {
		t.Fatalf("leaves %v, job 0's of %d; want [4 9], 4", got, f.leaves[leaf].n)
	}
	nodes := f.inUse()
	for _, u := range []struct {
		id int
		t  float64
	}{{1, 2.5}, {2, 3.5}} { // job 1 (2 tasks) between jobs 0 (1) and 2 (3); job 2 (3) between 1 (2.5) and 3 (4)
		if err := f.Update(u.id, u.t); err != nil {
			t.Fatal(err)
		}
		if err := f.CheckTree(); err != nil {
			t.Fatal(err)
		}
		if got := f.inUse(); got != nodes {
			t.Fatalf("Update(%d, %v): %d nodes in use, %d before", u.id, u.t, got, nodes)
		}
		for id := range 4 {
			if f.leafOf[id] != leaf || f.leaves[leaf].items[id].kid != int32(id) {
				t.Fatalf("Update(%d, %v): job %d moved (leaf %d, want %d at place %d)", u.id, u.t, id, f.leafOf[id], leaf, id)
			}
		}
	}
}
