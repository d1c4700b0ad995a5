package online

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReachVRounding: reachV's descent enters the item at
// whose last job the root's test held and, if no test below holds — the
// item's jobs, added one by one, may stay a hair below the item's sum
// by rounding — answers the item's last job (the fallback), never none.
// The threshold is the root's ΣT through item k, added as the descent adds
// it; the answer must be the first job of item k at which the sums before
// the item plus its jobs, one by one, reach it, else the item's last job;
// some trials must reach the fallback.
func TestReachVRounding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 11))
	fallbacks := 0
	for trial := range 2000 {
		j := newJobs(1, false)
		for range 40 {
			v := 0.1 + 7*rng.Float64()
			j.add(0, v, v, v)
		}
		if j.depth() != 2 {
			t.Fatalf("trial %d: 40 jobs at depth %d", trial, j.depth())
		}
		r := &j.tree[j.root]
		k := rng.IntN(r.n - 1) // not the last item: its fallback is not the end
		var acc sums
		for i := range k {
			acc = acc.add(r.items[i].s)
		}
		x := acc.add(r.items[k].s).sumT
		leaf := &j.leaves[r.items[k].kid]
		want, reached := leaf.items[leaf.n-1].kid, false
		for i, s := 0, acc; i < leaf.n; i++ {
			if s = s.add(leaf.items[i].sums()); s.sumT >= x {
				want, reached = leaf.items[i].kid, true
				break
			}
		}
		if !reached {
			fallbacks++
		}
		got, _ := j.reachV(keyFirst, keyLast, x) // v = T: ΣV = ΣT
		if got != want {
			t.Fatalf("trial %d: item %d of %d, ΣT through it %v: reachV %d, want %d (fallback %v)", trial, k, r.n, x, got, want, !reached)
		}
	}
	if fallbacks == 0 {
		t.Fatalf("no trial of 2000 reached the fallback")
	}
}

// TestLevelClassRounding: levelClass enters the item whose last class
// start the test held at and, if no test below holds there — Σw added
// item by item below may round a hair under the parent's sum — answers
// the class before the item's last start (forced), not another. Jobs of
// five classes below 2 (w = T/√(β−1) > 0), 40 (depth 2: the item's child
// a leaf, its starts between jobs) or 400 (depth 3: the child an inner
// node, its last start also inside one of its items); the test is Σw ≥
// the root's Σw up to item k's last start, added as levelClass adds it,
// and the answer must be the class of the job before that start among
// item k's jobs. Trials must reach the fallback at the child, both at a
// start between its items and at one inside an item.
func TestLevelClassRounding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 2))
	classes := []float64{1.1, 1.25, 1.5, 1.75, 1.9}
	between, inside := 0, 0
	for trial := range 3000 {
		n := 40
		if trial%2 == 1 {
			n = 400
		}
		j := newJobs(1, true)
		for range n {
			g := classes[rng.IntN(len(classes))]
			v := 0.1 + 7*rng.Float64()
			w := v / math.Sqrt(g-1)
			j.add(g, v, w, 2/g*v)
		}
		r := &j.tree[j.root]
		var ks []int
		for k := range r.n {
			if r.items[k].start {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			continue
		}
		k := ks[rng.IntN(len(ks))]
		acc := 0.0
		for i := range k {
			acc += r.items[i].s.sumW
		}
		w0 := acc + r.items[k].startW
		// The jobs below item k, in order: the class before their last start.
		var below []int32
		var walk func(x int32, leaf bool)
		walk = func(x int32, leaf bool) {
			for _, it := range j.itemsOf(x, leaf) {
				if leaf {
					below = append(below, it.kid)
				} else {
					walk(it.kid, j.tree[x].leafKids)
				}
			}
		}
		walk(r.items[k].kid, r.leafKids)
		want := math.NaN()
		for i := 1; i < len(below); i++ {
			if j.nodes[below[i-1]].class != j.nodes[below[i]].class {
				want = j.nodes[below[i-1]].class
			}
		}
		// The child's own test at its last start.
		c := j.itemsOf(r.items[k].kid, r.leafKids)
		s, last, at := acc, 0.0, 0
		for i := range c {
			if i > 0 && c[i-1].last.class != c[i].first.class {
				last, at = s, 0
			}
			if c[i].start {
				last, at = s+c[i].startW, 1
			}
			s += c[i].s.sumW
		}
		if last < w0 {
			if at == 0 {
				between++
			} else {
				inside++
			}
		}
		if got := j.levelClass(func(w, _ float64) bool { return w >= w0 }); got != want {
			t.Fatalf("trial %d (%d jobs): item %d's last start at Σw %v: levelClass %v, want %v", trial, n, k, w0, got, want)
		}
	}
	if between == 0 || inside == 0 {
		t.Fatalf("fallbacks at the child: %d at a start between items, %d inside one; want some of each", between, inside)
	}
}
