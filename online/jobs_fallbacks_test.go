package online

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specsched/specsched/stragglers"
)

// TestJobsInnerTopUp: an inner node left short (below jbWidth/4 children)
// beside a sibling it cannot merge with (their children more than
// jbWidth) takes one child of the sibling (even), as rebalance states:
// from the right sibling's front when it is its parent's first child,
// from the left sibling's back otherwise. By the split rule
// (TestJobsShape): jobs of 1, 2, 3, … tasks arriving in order split the
// root at the 137th job into X (8 leaves of 8) and R (9 leaves), and every
// 8 jobs after the 144th add a leaf to R: at 177 jobs R holds 14 leaves.
// Removing jobs 0, 1, … from the front, the first leaf falls to 3 jobs
// after 5 removals and merges with the next (3 + 8 = 11), then again after
// every 8 more: after 5 + 4·8 = 37 removals X is down to 3 leaves and,
// 3 + 14 > 16, takes R's first leaf: X 4 leaves (11, 8, 8, 8 jobs), R 13
// (twelve of 8, one of 9). Mirrored — jobs arriving in decreasing order,
// removed from the back — the tree's right inner node takes the left
// one's last leaf.
func TestJobsInnerTopUp(t *testing.T) {
	t.Parallel()
	kids := func(j *jobs) []int {
		var n []int
		for _, it := range j.itemsOf(j.root, false) {
			n = append(n, j.tree[it.kid].n)
		}
		return n
	}
	check := func(step string, j *jobs, wantKids, wantLeaves []int) {
		t.Helper()
		if err := j.checkTree(); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if j.depth() != 3 || !slices.Equal(kids(j), wantKids) || wantLeaves != nil && !slices.Equal(j.leafSizes(), wantLeaves) {
			t.Fatalf("%s: depth %d, the root's children of %v leaves, leaves %v; want 3, %v, %v", step, j.depth(), kids(j), j.leafSizes(), wantKids, wantLeaves)
		}
	}
	eights := func(k int) []int { return slices.Repeat([]int{8}, k) }
	// releaseFirst removes jobs 0 … n−1, checking the tree after each.
	releaseFirst := func(j *jobs, n int32) {
		t.Helper()
		for id := range n {
			j.release(id)
			if err := j.checkTree(); err != nil {
				t.Fatalf("after removing job %d: %v", id, err)
			}
		}
	}

	// Ascending: X short, the first child, takes R's first leaf.
	jv := newJobs(10, false)
	j := &jv
	for k := range 177 {
		t1 := float64(k + 1)
		j.add(0, t1, t1, t1)
	}
	check("177 jobs in increasing order", j, []int{8, 14}, slices.Concat(eights(21), []int{9}))
	releaseFirst(j, 37)
	check("jobs 0…36 removed", j, []int{4, 13}, slices.Concat([]int{11}, eights(15), []int{9}))

	// Descending: each job arrives at the front. The first leaf splits
	// into its lower 8 (with the newcomer: 9) and upper 8; the root splits
	// at the 17th leaf into X (9 leaves) and R (8 leaves of 8), and every
	// 8 jobs after add a leaf to X. At 177 jobs: X 14 leaves, R 8.
	jv = newJobs(10, false)
	j = &jv
	for k := range 177 {
		t1 := float64(177 - k)
		j.add(0, t1, t1, t1)
	}
	check("177 jobs in decreasing order", j, []int{14, 8}, nil)
	// Remove from the back (the first jobs added, the largest keys): R's
	// last leaf merges into its left neighbour after 5, then every 8.
	releaseFirst(j, 37)
	check("jobs 0…36 removed (the 37 largest)", j, []int{13, 4}, nil)
	if sizes := j.leafSizes(); sizes[len(sizes)-1] != 11 {
		t.Fatalf("leaves %v: want the last of 11 (3 left, merged with 8)", sizes)
	}
}

// TestJobsFillForcedFallback is TestJobsForcedFallbacks for fill: the
// root's test holds at an item Y on the parent's sums, and no test inside
// Y holds on its jobs added one at a time, by rounding; fill must then
// answer Y's last job (its doc: reachV's descent, fallback included). The
// shape is taken from a first build of 600 jobs appended in key order; in
// the second, also appended in key order (so of the same shape), job 0 has
// T = 1, job m−1 (A's last) and m (B's first) T = 2^−53 and every other
// job T = 0, the order kept by the classes: job 0 in class 0, jobs 1…m−1
// in class 1 (the one of T > 0 last), m in class 2, the rest in class 3.
// With m₁ before every job, c = 1 and floor 0, the test is ΣT through the
// job ≥ extra = 1 + 2^−52: exactly, it first holds at job m; the root's
// item for Y holds 2^−52 (its jobs added from 0) and 1 + 2^−52 reaches
// extra, but 1 + 2^−53 rounds to 1 (ties to even) inside Y. So the answer
// is Y's last job, with ΣT = 1 and the three jobs of T > 0 before it.
func TestJobsFillForcedFallback(t *testing.T) {
	t.Parallel()
	const n = 600
	tiny := math.Ldexp(1, -53)
	build := func(m int) *jobs {
		jv := newJobs(10, false)
		j := &jv
		for i := range n {
			class, t1 := 0.0, float64(i+1)
			switch {
			case m < 0:
			case i == 0:
				t1 = 1
			case i < m-1:
				class, t1 = 1, 0
			case i == m-1:
				class, t1 = 1, tiny
			case i == m:
				class, t1 = 2, tiny
			default:
				class, t1 = 3, 0
			}
			j.add(class, t1, t1, t1)
		}
		if err := j.checkTree(); err != nil {
			t.Fatal(err)
		}
		return j
	}
	j, _, yLast := forcedShape(t, build)
	ft := fillTest{m1: keyFirst, c: 1, floor: 0, extra: 1 + math.Ldexp(1, -52)}
	x, before := j.fill(&ft)
	if x != yLast || before.sumT != 1 || before.count != 3 {
		t.Fatalf("fill(ΣT ≥ 1 + 2^-52) = job %d, before %+v; want Y's last job %d, ΣT 1 over 3 active jobs", x, before, yLast)
	}
}

// TestJobsSearchFallbackSums: search's answer at the next item's first
// job (its fallback) comes with the sums its test held on, the parent's.
// 25 jobs of T = 1…25 appended in order make leaves of 8, 8 and 9
// (TestJobsShape's rule); job 0 has V = 1, jobs 8 and 9 (the second
// leaf's first two) V = 2^−53, the others 0. The test ΣV before ≥ 1 +
// 2^−52 first holds, exactly, at job 16, with ΣV before it 1 + 2^−52
// exactly (representable), ΣT = 1 + … + 16 = 136 and 16 active jobs. The
// root finds it at the second leaf's end (that leaf's item sums to
// 2^−52); inside the leaf, 1 + 2^−53 rounds to 1, so no job there passes
// and the fallback is taken: its sums must be those, not the leaf's own
// one-by-one ΣV of 1.
func TestJobsSearchFallbackSums(t *testing.T) {
	t.Parallel()
	jv := newJobs(10, false)
	j := &jv
	for i := range 25 {
		v := 0.0
		switch i {
		case 0:
			v = 1
		case 8, 9:
			v = math.Ldexp(1, -53)
		}
		j.add(0, float64(i+1), 0, v)
	}
	if got := j.leafSizes(); !slices.Equal(got, []int{8, 8, 9}) {
		t.Fatalf("leaves %v, want [8 8 9]", got)
	}
	thr := 1 + math.Ldexp(1, -52)
	found := func(b sums, _ key) bool { return b.sumV >= thr }
	x, before := j.search(found)
	want := sums{count: 16, sumT: 136, sumW: 0, sumV: thr}
	if x != 16 || before != want {
		t.Fatalf("search(ΣV before ≥ 1 + 2^-52) = job %d, before %+v; want job 16, %+v", x, before, want)
	}
}

// TestJobsSumsGrouping: on a tree whose sums round (T, w, v drawn
// uniformly, not whole), the descents add the same items whole, in the
// same order, and so agree bit for bit (sumsAround's doc: as reachV adds
// the items of a range): sumsAround(b, e) is reachV's sums over (keyFirst,
// b) and over (b, e) with a threshold never reached; firstOver and fill
// with no answer return the sums of every job exactly as all() has them
// (the root's items added in order) — Fair's aboveV = c·(ΣT − ΣT before
// m₁) is then exactly 0.
func TestJobsSumsGrouping(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 1))
	classes := []float64{1.25, 1.5, 1.75, 2}
	for _, ends := range []bool{true, false} {
		jv := newJobs(10, ends)
		j := &jv
		var ids []int32
		draw := func() (class, t1, w, v float64) {
			if ends {
				class = classes[rng.IntN(len(classes))]
			}
			t1 = rng.Float64() * 10
			return class, t1, rng.Float64() * 7, rng.Float64() * 5
		}
		for step := range 4000 {
			switch op := rng.IntN(10); {
			case len(ids) < 2 || op < 5:
				ids = append(ids, j.add(draw()))
			case op < 7:
				k := rng.IntN(len(ids))
				j.release(ids[k])
				ids = slices.Delete(ids, k, k+1)
			default:
				class, t1, w, v := draw()
				j.set(ids[rng.IntN(len(ids))], class, t1, w, v)
			}
			if step%20 != 0 {
				continue
			}
			order := bruteOrder(j)
			for range 5 {
				b, e := bruteKey(rng, j, order), bruteKey(rng, j, order)
				if e.less(b) {
					b, e = e, b
				}
				gb, gi := j.sumsAround(b, e)
				_, wb := j.reachV(keyFirst, b, math.Inf(1))
				_, wi := j.reachV(b, e, math.Inf(1))
				if gb != wb || gi != wi {
					t.Fatalf("ends %v step %d: sumsAround(%v, %v) = %+v, %+v; reachV's sums %+v, %+v", ends, step, b, e, gb, gi, wb, wi)
				}
			}
			if x, s := j.firstOver(1, math.Inf(1)); x != none || s != j.all() {
				t.Fatalf("ends %v step %d: firstOver(1, +Inf) = %d, %+v; want none, all() %+v", ends, step, x, s, j.all())
			}
			ft := fillTest{m1: keyFirst, c: 1, extra: math.Inf(1)}
			if x, s := j.fill(&ft); x != none || s != j.all() {
				t.Fatalf("ends %v step %d: fill(never) = %d, %+v; want none, all() %+v", ends, step, x, s, j.all())
			}
		}
		if j.depth() < 3 {
			t.Fatalf("ends %v: depth %d, want 3 or more", ends, j.depth())
		}
	}
}

// TestJobsLevelClassSlope: levelClass passes reaches the slope of the
// class that starts at the end it tests (its doc: a, the next class's
// slope), at a leaf as at an inner node. Random trees of four classes
// (whole w, so Σw exact in any grouping) against brute force on the jobs
// in key order with Classes' own predicate, Σw/√a ≥ S — monotone along
// the classes, Σw growing and a(β) = β²/(4(β−1)) falling from 1.25 to 2
// — for thresholds S around each class end's Σw/√a.
func TestJobsLevelClassSlope(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 2))
	jv := newJobs(10, true)
	j := &jv
	for step := range 1500 {
		order := bruteOrder(j)
		switch op := rng.IntN(10); {
		case len(order) < 2 || op < 5:
			j.add(bruteJob(rng, true))
		case op < 7:
			j.release(order[rng.IntN(len(order))])
		default:
			class, t1, w, v := bruteJob(rng, true)
			j.set(order[rng.IntN(len(order))], class, t1, w, v)
		}
		if step%5 != 0 {
			continue
		}
		order = bruteOrder(j)
		if len(order) == 0 {
			continue
		}
		// The class ends, in order: Σw through each and the next class's slope.
		var ends []struct{ class, w, a float64 }
		w := 0.0
		for k, id := range order {
			w += j.nodes[id].w
			if k+1 < len(order) && j.nodes[order[k+1]].class != j.nodes[id].class {
				ends = append(ends, struct{ class, w, a float64 }{j.nodes[id].class, w, slope(j.nodes[order[k+1]].class)})
			}
		}
		for _, e := range ends {
			for _, s := range []float64{e.w / math.Sqrt(e.a), e.w / math.Sqrt(e.a) * (1 + 1e-9), e.w / math.Sqrt(e.a) * 1.05, e.w / math.Sqrt(e.a) * 0.95} {
				reaches := func(w, a float64) bool { return w/math.Sqrt(a) >= s }
				want := j.nodes[order[len(order)-1]].class
				for _, f := range ends {
					if reaches(f.w, f.a) {
						want = f.class
						break
					}
				}
				if got := j.levelClass(reaches); got != want {
					t.Fatalf("step %d: levelClass(Σw/√a ≥ %v) = %v, want %v (class ends %v)", step, s, got, want, ends)
				}
			}
		}
	}
	if j.depth() < 3 {
		t.Fatalf("depth %d, want 3 or more", j.depth())
	}
}

// TestFairM1JustAboveFloor: m₁ is the first job with c·T > f, strictly,
// however close to f: on 2 slots, ε = 0 and β = 2 (c = 1), two jobs give
// f = 2/2 = 1; a job of T = 1 (c·T = f) is not m₁, the job of T = 1 +
// 2^−40 after it is. Four jobs on 4 slots likewise, with a third at
// exactly f and a fourth above.
func TestFairM1JustAboveFloor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		slots float64
		ts    []float64
		m1    int
	}{
		{2, []float64{1, 1 + math.Ldexp(1, -40)}, 1},
		{4, []float64{0.5, 1, 1, math.Nextafter(1, 2)}, 3},
	} {
		f, err := NewFair(tc.slots, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tc.ts {
			if _, err := f.Add(x); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.Target(0); err != nil {
			t.Fatal(err)
		}
		if f.c != 1 || f.floor != 1 || f.m1 != int32(tc.m1) {
			t.Errorf("jobs %v on %v slots: c %v, f %v, m₁ job %d; want 1, 1, job %d", tc.ts, tc.slots, f.c, f.floor, f.m1, tc.m1)
		}
	}
}

// TestClassesCapacityWithinTolerance: class g's cut is searched within the
// class. A (3 tasks, β 1.5: w = 3/√0.5, V = 4) and B (1 task, β 2) on S =
// 4·(1 + 5·10⁻¹³) slots: the level is A's class (w_A/√a(2) = 4.24 ≥ S),
// with no class before it, so the class shares S, and its ΣV = 4 counts
// as enough within hopper.CaseTolerance (10⁻¹²) though below S: no job of
// the class reaches S, so there is no cut and A gets its virtual size 4;
// B, above the level, gets 0 (stragglers.Allocate agrees). With A holding
// 5 slots and B none, every job holds at least its share: Next answers
// false, Reclaim A.
func TestClassesCapacityWithinTolerance(t *testing.T) {
	t.Parallel()
	vA := 2 / 1.5 * 3
	slots := vA * (1 + 5e-13)
	c, err := NewClasses(slots)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Add(3, 1.5)
	b, _ := c.Add(1, 2)
	want, err := stragglers.Allocate(nil, []float64{3, 1}, []float64{1.5, 2}, slots, nil)
	if err != nil || want[1] != 0 || math.Abs(want[0]-4) > 1e-12 {
		t.Fatalf("stragglers.Allocate: %v, %v; want about [4 0]", want, err)
	}
	if sb, _ := c.Target(b); sb != 0 {
		t.Fatalf("B's share %v, want 0", sb)
	}
	if err := c.SetHeld(a, 5); err != nil {
		t.Fatal(err)
	}
	if x, ok := c.Next(); ok {
		t.Errorf("Next() = %d, true; want false (A holds 5 ≥ 4, B 0 ≥ 0)", x)
	}
	if x, ok := c.Reclaim(); !ok || x != a {
		t.Errorf("Reclaim() = %d, %v; want A (%d), true", x, ok, a)
	}
}

// TestJobsTotalAfterRootSplit: a move that splits the root recomputes the
// total even when the lowest common ancestor's item comes out as it was
// (fixPair: once to the root, not only as far as the items change): the
// total is the root's items added in order, and the root's items are new.
// Class 0: jobs 0…62 of T = (k+1)/8 and job 63 of T = 2^62; class 1: jobs
// 64…135 of T = 10 (w = v = 0). Appended in key order they fill the root,
// 16 leaves (8, …, 8, 16; TestJobsShape); eight jobs of T in (3.125,
// 3.25] fill leaf 3. Moving job 15 (leaf 1's last, T = 2) to T = 3.1875
// splits leaf 3 and the root: R1 takes leaves 0…7, R2 leaves 8…15, and the
// move stays inside R1, whose ΣT, 2^62 plus less than 512 (half an ulp),
// rounds to 2^62 before and after. The old total added 80 (each of R2's
// leaves) to 2^62 one leaf at a time, each rounding away: 2^62; the root's
// items now add R1's 2^62 and R2's 720, which rounds to 2^62 + 1024.
func TestJobsTotalAfterRootSplit(t *testing.T) {
	t.Parallel()
	jv := newJobs(10, false)
	j := &jv
	for k := range 136 {
		class, t1 := 0.0, float64(k+1)/8
		switch {
		case k == 63:
			t1 = math.Ldexp(1, 62)
		case k > 63:
			class, t1 = 1, 10
		}
		j.add(class, t1, 0, 0)
	}
	for i := range 8 {
		j.add(0, 3.125+float64(i+1)/64, 0, 0)
	}
	if got := j.leafSizes(); j.depth() != 2 || !slices.Equal(got, []int{8, 8, 8, 16, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 16}) {
		t.Fatalf("depth %d, leaves %v: want 2, leaf 3 and the last full", j.depth(), got)
	}
	j.set(15, 0, 3.1875, 0, 0)
	if err := j.checkTree(); err != nil {
		t.Fatal(err)
	}
	if got := j.leafSizes(); j.depth() != 3 || j.tree[j.root].n != 2 || len(got) != 17 {
		t.Fatalf("depth %d, root of %d items, leaves %v: want the root split", j.depth(), j.tree[j.root].n, got)
	}
	if r1 := j.tree[j.root].items[0].s.sumT; r1 != math.Ldexp(1, 62) || j.total.sumT != math.Ldexp(1, 62)+1024 {
		t.Fatalf("R1's ΣT %v, total ΣT %v: want 2^62, 2^62 + 1024", r1, j.total.sumT)
	}
}
