package online

import (
	"math"
	"math/rand/v2"
	"testing"
)

// rootThreshold builds a tree of n jobs of random T in [0.1, 7.1) (v = w
// = T), which must have the given depth, and draws a root item k, not the
// last (its fallback is not the end of the order): it returns the tree, k,
// the sums of the root's items before k, added in order, and x, ΣT through
// item k as a descent adds it.
func rootThreshold(t *testing.T, rng *rand.Rand, n, depth int) (j *jobs, k int, acc sums, x float64) {
	jv := newJobs(1, false)
	j = &jv
	for range n {
		v := 0.1 + 7*rng.Float64()
		j.add(0, v, v, v)
	}
	if j.depth() != depth {
		t.Fatalf("%d jobs at depth %d, want %d", n, j.depth(), depth)
	}
	r := &j.tree[j.root]
	k = rng.IntN(r.n - 1)
	for i := range k {
		acc = acc.add(r.items[i].s)
	}
	return j, k, acc, acc.add(r.items[k].s).sumT
}

// TestReachVRounding: reachV's descent, and fill's (a copy with Fair's
// test written in), enter the item at whose last job the root's test held
// and, if no test below holds — the item's jobs, added one by one, may
// stay a hair below the item's sum by rounding — answer the item's last
// job (the fallback), never none. The threshold x is the root's ΣT
// through item k, added as the descent adds it — reachV's ΣV ≥ x (v = T),
// and fill's with m₁ the first job, c = 1 and floor 0, whose top-ups are
// then ΣT, ≥ extra = x; the answer must be the first job of item k at
// which the sums before the item plus its jobs, one by one, reach it,
// else the item's last job; some trials must reach the fallback. (Without
// fill's fallback it returned none mid-order, and Fair gave every job
// after the true cut max(f, c·T)·scale instead of f.)
func TestReachVRounding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 11))
	fallbacks := 0
	for trial := range 2000 {
		j, k, acc, x := rootThreshold(t, rng, 40, 2)
		r := &j.tree[j.root]
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
		if got, _ := j.fill(&fillTest{m1: keyFirst, c: 1, extra: x}); got != want {
			t.Fatalf("trial %d: item %d of %d, ΣT through it %v: fill %d, want %d (fallback %v)", trial, k, r.n, x, got, want, !reached)
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

// TestSumsAroundGrouping: sumsAround adds the items of its two ranges in
// the grouping reachV uses for the same ranges, bit for bit, on counts
// that are not whole (so that a grouping shows in the last bits):
// Classes' capacity test reads class g's ΣV from sumsAround, and its cut
// search (reachV over the class) must then reach the share with its own
// sums. For each class of random trees of four classes, sumsAround(start,
// end) must equal reachV's sums over (keyFirst, start) and (start, end)
// for a test that never holds (v = +Inf), none found.
func TestSumsAroundGrouping(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	classes := []float64{1.25, 1.5, 1.75, 2}
	for trial := range 200 {
		jv := newJobs(10, true)
		j := &jv
		for range 50 + r.IntN(3000) {
			g := classes[r.IntN(4)]
			tt := 0.1 + 7*r.Float64()
			w := 0.0
			if g < 2 {
				w = tt / math.Sqrt(g-1)
			}
			j.add(g, tt, w, 2/g*tt)
		}
		for _, g := range classes {
			b, e := classKeys(g)
			before, in := j.sumsAround(b, e)
			x1, s1 := j.reachV(keyFirst, b, math.Inf(1))
			x2, s2 := j.reachV(b, e, math.Inf(1))
			if x1 != none || x2 != none || s1 != before || s2 != in {
				t.Fatalf("trial %d class %v: sumsAround %+v, %+v; reachV %+v, %+v", trial, g, before, in, s1, s2)
			}
		}
	}
}

// TestInnerFallback: the fallback one level up from TestReachVRounding's.
// On trees of three levels (600 jobs of random T in [0.1, 7.1)), the
// threshold x is the root's ΣT through its item k (not its last); the
// descent enters item k, and when its child's items, added one by one
// onto the sums before, stay below x — rounding — none of their tests
// holds and the descent must take the child's last item (forced), then
// that item's last job or an earlier one at which its jobs reach x. So
// reachV and fill (as in TestReachVRounding) must answer a job of item k:
// never none, never a job outside it; some trials must reach the
// fallback at the child.
func TestInnerFallback(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 13))
	fallbacks := 0
	for trial := range 1000 {
		j, k, acc, x := rootThreshold(t, rng, 600, 3)
		r := &j.tree[j.root]
		child := &j.tree[r.items[k].kid]
		reached := false
		for i, s := 0, acc; i < child.n; i++ {
			if s = s.add(child.items[i].s); s.sumT >= x {
				reached = true
				break
			}
		}
		if !reached {
			fallbacks++
		}
		first, last := r.items[k].first, r.items[k].last
		inItem := func(y int32) bool {
			return y != none && !j.keyOf(y).less(first) && !last.less(j.keyOf(y))
		}
		if got, _ := j.reachV(keyFirst, keyLast, x); !inItem(got) {
			t.Fatalf("trial %d: item %d of %d, ΣT through it %v: reachV %d, not a job of the item (fallback at the child %v)", trial, k, r.n, x, got, !reached)
		}
		if got, _ := j.fill(&fillTest{m1: keyFirst, c: 1, extra: x}); !inItem(got) {
			t.Fatalf("trial %d: item %d of %d, ΣT through it %v: fill %d, not a job of the item (fallback at the child %v)", trial, k, r.n, x, got, !reached)
		}
	}
	if fallbacks == 0 {
		t.Fatalf("no trial of 1000 reached the fallback at the child")
	}
	t.Logf("%d of 1000 trials reached the fallback at the child", fallbacks)
}
