package online

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The B+-tree of Fair and Classes (jobs.go) driven directly, against brute
// force: the jobs' counts are whole numbers and w and v (so u) whole
// multiples of them, so every sum is exact whatever its grouping, and the tree's
// answers must equal, bit for bit, a scan of the jobs sorted by key.

// bruteOrder is the ids in use, sorted by key (slices.SortFunc on
// key.less, not the tree).
func bruteOrder(j *jobs) []int32 {
	var ids []int32
	for id := range j.nodes {
		if j.live(id) {
			ids = append(ids, int32(id))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int {
		switch ka, kb := j.keyOf(a), j.keyOf(b); {
		case ka.less(kb):
			return -1
		case kb.less(ka):
			return 1
		}
		return 0
	})
	return ids
}

var bruteClasses = []float64{1.25, 1.5, 1.75, 2}

// bruteJob draws a job: few distinct counts (ties), zeros, now and then a
// large count; for Classes (ends) one of four classes, w 0 in class 2.
func bruteJob(r *rand.Rand, ends bool) (class, t, w, v float64) {
	t = float64(r.IntN(6))
	if r.IntN(10) == 0 {
		t = float64(r.IntN(1000))
	}
	if ends {
		class = bruteClasses[r.IntN(len(bruteClasses))]
	}
	w = 2 * t
	if class == 2 {
		w = 0
	}
	return class, t, w, 3 * t
}

// own is job x's own sums, from its record.
func (j *jobs) own(x int32) sums {
	n := &j.nodes[x]
	s := sums{sumT: n.t, sumW: n.w, sumV: n.v}
	if n.t > 0 {
		s.count = 1
	}
	return s
}

// bruteKey is a range end: a sentinel, a class's bounds, or a job's key or
// one id either side of it (runs.start and keyAfter write those).
func bruteKey(r *rand.Rand, j *jobs, order []int32) key {
	switch r.IntN(5) {
	case 0:
		return keyFirst
	case 1:
		return keyLast
	case 2:
		lo, hi := classKeys(bruteClasses[r.IntN(len(bruteClasses))])
		if r.IntN(2) == 0 {
			return lo
		}
		return hi
	}
	if len(order) == 0 {
		return keyFirst
	}
	k := j.keyOf(order[r.IntN(len(order))])
	k.id += int64(r.IntN(3) - 1)
	return k
}

// TestJobsBruteForce runs random streams on up to 3000 jobs (four levels)
// — arrivals, removals (now and then most of the jobs), updates to random
// keys, to a neighbour's key (ties, moves of one place) and across
// classes, held counts — and checks the tree after every event
// (checkTree), and every seventh event each query against brute force on
// the jobs in key order: reachV and sumsAround over a random range,
// firstOver and fill (one class), search, find for every probe mode,
// constant and per unit, first and last, and levelClass (Classes).
func TestJobsBruteForce(t *testing.T) {
	t.Parallel()
	seeds, steps := uint64(16), 3000
	if testing.Short() {
		seeds, steps = 8, 1500
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 7))
		ends := seed%2 == 0
		jv := newJobs(10, ends)
		j := &jv
		target := []int{20, 100, 700, 3000}[seed%4]
		held := map[int32]float64{} // the held counts set, by id (the tree keeps them in its entries alone)
		for step := range steps {
			order := bruteOrder(j)
			op := r.IntN(10)
			switch {
			case len(order) == 0 || op < 3 && len(order) < target:
				held[j.add(bruteJob(r, ends))] = 0
			case op < 4 || op == 9 && step%500 < 50:
				id := order[r.IntN(len(order))]
				j.release(id)
				delete(held, id)
			case op < 7:
				id := order[r.IntN(len(order))]
				class, tt, w, v := bruteJob(r, ends)
				if r.IntN(2) == 0 { // a neighbour's key: ties, and moves by one place
					nb := order[r.IntN(len(order))]
					class, tt = j.nodes[nb].class, j.nodes[nb].t
					w, v = 2*tt, 3*tt
					if class == 2 {
						w = 0
					}
				}
				j.set(id, class, tt, w, v)
			default:
				id := order[r.IntN(len(order))]
				held[id] = float64(r.IntN(4))
				j.setHeld(id, held[id])
			}
			if target < 3000 || step%10 == 0 {
				if err := j.checkTree(); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
			}
			if step%7 == 0 {
				bruteQueries(t, r, j, held, seed, step)
			}
		}
	}
}

func bruteQueries(t *testing.T, r *rand.Rand, j *jobs, held map[int32]float64, seed uint64, step int) {
	order := bruteOrder(j)
	in := func(id int32, lo, hi key) bool { k := j.keyOf(id); return lo.less(k) && k.less(hi) }
	lo, hi := bruteKey(r, j, order), bruteKey(r, j, order)
	thr := float64(r.IntN(200))
	gotX, gotS := j.reachV(lo, hi, thr)
	wantX, wantS := int32(none), sums{}
	for _, id := range order {
		if !in(id, lo, hi) {
			continue
		}
		through := wantS.add(j.own(id))
		if through.sumV >= thr {
			wantX = id
			break
		}
		wantS = through
	}
	if gotX != wantX || gotS != wantS {
		t.Fatalf("seed %d step %d: reachV(%v, %v, %v) = %d %+v, want %d %+v", seed, step, lo, hi, thr, gotX, gotS, wantX, wantS)
	}
	b, e := lo, hi // sumsAround's ends, in order
	if e.less(b) {
		b, e = e, b
	}
	var beforeB, inRange sums
	for _, id := range order {
		if k := j.keyOf(id); k.less(b) {
			beforeB = beforeB.add(j.own(id))
		} else if in(id, b, e) {
			inRange = inRange.add(j.own(id))
		}
	}
	if gb, gi := j.sumsAround(b, e); gb != beforeB || gi != inRange {
		t.Fatalf("seed %d step %d: sumsAround(%v, %v) = %+v, %+v; want %+v, %+v", seed, step, b, e, gb, gi, beforeB, inRange)
	}
	if !j.ends { // one class: c·T > x is monotone along the order (Fair's m₁)
		c, x := []float64{1, 1.5, 3}[r.IntN(3)], float64(r.IntN(1600))-1
		gotX, gotS = j.firstOver(c, x)
		wantX, wantS = int32(none), sums{}
		for _, id := range order {
			if c*j.nodes[id].t > x {
				wantX = id
				break
			}
			wantS = wantS.add(j.own(id))
		}
		if gotX != wantX || gotS != wantS {
			t.Fatalf("seed %d step %d: firstOver(%v, %v) = %d %+v, want %d %+v", seed, step, c, x, gotX, gotS, wantX, wantS)
		}
		// Fair's fill from that m₁, floor x (so the top-ups grow after
		// it): the brute force on the order (integer sums: the fallback
		// never taken).
		ft := fillTest{m1: j.keyOrLast(wantX), base: wantS, c: c, floor: x, extra: float64(r.IntN(400)) - 1}
		gotX, gotS = j.fill(&ft)
		wantX, wantS = int32(none), sums{}
		for _, id := range order {
			through := wantS.add(j.own(id))
			if ft.holds(through, j.keyOf(id)) {
				wantX = id
				break
			}
			wantS = through
		}
		if gotX != wantX || gotS != wantS {
			t.Fatalf("seed %d step %d: fill(%+v) = %d %+v, want %d %+v", seed, step, ft, gotX, gotS, wantX, wantS)
		}
	}
	// A test monotone along the order: enough active jobs before, or a
	// class from gthr on.
	cthr, gthr := r.IntN(len(order)+2), []float64{1.5, 1.75, 2, 3}[r.IntN(4)]
	gotX, gotS = j.search(func(b sums, k key) bool { return b.count >= cthr || k.class >= gthr })
	wantX, wantS = int32(none), sums{}
	for _, id := range order {
		if wantS.count >= cthr || j.keyOf(id).class >= gthr {
			wantX = id
			break
		}
		wantS = wantS.add(j.own(id))
	}
	if gotX != wantX || gotS != wantS {
		t.Fatalf("seed %d step %d: search(count ≥ %d or class ≥ %v) = %d %+v, want %d %+v", seed, step, cthr, gthr, gotX, gotS, wantX, wantS)
	}
	for _, mode := range []probeMode{shortWhole, shortAtAll, over} {
		for _, perWeight := range []bool{false, true} {
			p := probe{perWeight: perWeight, mode: mode, bound: float64(r.IntN(4)), r: quotient(float64(r.IntN(4)), float64(1+r.IntN(3)))}
			for _, last := range []bool{false, true} {
				want := int32(none)
				for _, id := range order {
					if in(id, lo, hi) && bruteIs(&j.nodes[id], held[id], p) {
						want = id
						if !last {
							break
						}
					}
				}
				if got := j.find(j.root, j.height == 1, lo, hi, p, last); got != want {
					t.Fatalf("seed %d step %d: find(%v, %v, %+v, last %v) = %d, want %d", seed, step, lo, hi, p, last, got, want)
				}
			}
		}
	}
	if !j.ends || len(order) == 0 {
		return
	}
	wthr := float64(r.IntN(300))
	reaches := func(w, _ float64) bool { return w >= wthr }
	want, acc := j.nodes[order[len(order)-1]].class, 0.0
	for k, id := range order {
		acc += j.nodes[id].w
		if k+1 < len(order) && j.nodes[order[k+1]].class != j.nodes[id].class && reaches(acc, 0) {
			want = j.nodes[id].class
			break
		}
	}
	if got := j.levelClass(reaches); got != want {
		t.Fatalf("seed %d step %d: levelClass(Σw ≥ %v) = %v, want %v", seed, step, wthr, got, want)
	}
}

// bruteIs is the probe's rule on one job, from its record and the held
// count it was given (the probe's doc): a job of 0 tasks is over its share
// exactly when it holds a slot, and never short; an active one compares
// held, or held/u and (held+1)/u (u: w, or T where w is 0 — the rule
// itself, as jobs.go's basis states it; w = 2T and class 2's w = 0, u = T,
// tell the two apart), with the bound.
func bruteIs(r *jobNode, held float64, p probe) bool {
	if r.t == 0 {
		return p.mode == over && held > 0
	}
	u := r.w
	if u == 0 {
		u = r.t
	}
	hold, plus := quotient(held, u), quotient(held+1, u)
	switch {
	case p.mode == over && p.perWeight:
		return hold > p.r
	case p.mode == over:
		return held > p.bound
	case p.mode == shortWhole && p.perWeight:
		return plus <= p.r
	case p.mode == shortWhole:
		return held <= p.bound-1
	case p.perWeight:
		return hold < p.r
	}
	return held < p.bound
}

// forcedShape runs TestJobsForcedFallbacks' two builds: build(−1), jobs
// appended in key order, must give three levels with Y, the root's second
// item, of three leaves or more; m is the first job of Y's third leaf (B)
// and yLast Y's last job; build(m), appended in the same order so of the
// same shape, is returned with them (checked: the same m and yLast).
func forcedShape(t *testing.T, build func(m int) *jobs) (j *jobs, m, yLast int32) {
	t.Helper()
	j = build(-1)
	root := &j.tree[j.root]
	if j.depth() != 3 || root.n < 2 || j.tree[root.items[1].kid].n < 3 {
		t.Fatalf("depth %d, root items %d: want 3 levels, Y of 3 leaves or more", j.depth(), root.n)
	}
	y := &j.tree[root.items[1].kid]
	m, yLast = int32(y.items[2].first.id), int32(y.items[y.n-1].last.id)
	j = build(int(m))
	if y := &j.tree[j.tree[j.root].items[1].kid]; int32(y.items[2].first.id) != m || int32(y.items[y.n-1].last.id) != yLast {
		t.Fatalf("the second build's shape differs: Y's third leaf starts at job %d, not %d, or Y ends at %d, not %d", y.items[2].first.id, m, y.items[y.n-1].last.id, yLast)
	}
	return j, m, yLast
}

// TestJobsForcedFallbacks: a descent enters an item because its test held
// on the parent's sums, and adding the item's own items one at a time
// onto the sums before it rounds below the threshold, so no test below
// holds: then the entered item's last job (reachV), its last class
// start (levelClass), is taken. 600 jobs of T = i+1 arrive in order, which
// makes three levels; the tree's shape depends only on the keys' order,
// so a first build with every job alike gives it: Y, the root's second
// item, and A and B, Y's second and third leaves. In the second build job
// 0 has w = v = 1, the last job of A and the first of B (m) w = v =
// 2^−53, every other job 0; jobs 0…m are of class 1.25, the rest of class
// 1.5. Exactly, the sums reach 1 + 2^−52 at job m, the end of class 1.25;
// in float64, the root's item for Y holds 2^−52 (its jobs added from 0)
// and 1 + 2^−52 ≥ the threshold, but 1 + 2^−53 rounds to 1 (ties to even)
// inside Y. So levelClass must still answer 1.25 — entering Y's leaf B by
// the start inside it (the node's last start, forced), then B's start
// between jobs m and m+1 (forced) — and reachV must answer a job at
// or after m, with only jobs of v below one ulp of 1 between (Y's last
// job, by the rule), and the sums before it 1.
func TestJobsForcedFallbacks(t *testing.T) {
	const n = 600
	build := func(m int) *jobs {
		jv := newJobs(10, true)
		j := &jv
		tiny := math.Ldexp(1, -53)
		for i := range n {
			class, w := 1.25, 0.0
			switch {
			case m < 0:
			case i == 0:
				w = 1
			case i == m-1 || i == m:
				w = tiny
			case i > m:
				class = 1.5
			}
			j.add(class, float64(i+1), w, w)
		}
		if err := j.checkTree(); err != nil {
			t.Fatal(err)
		}
		return j
	}
	j, m, yLast := forcedShape(t, build)
	threshold := 1 + math.Ldexp(1, -52)
	if g := j.levelClass(func(w, _ float64) bool { return w >= threshold }); g != 1.25 {
		t.Errorf("levelClass(Σw ≥ 1 + 2^-52) = %v, want 1.25 (the class whose end first reaches it)", g)
	}
	x, before := j.reachV(keyFirst, keyLast, threshold)
	if x == none || j.keyOf(x).less(j.keyOf(m)) || before.sumV != 1 {
		t.Fatalf("reachV(ΣV ≥ 1 + 2^-52) = job %d, ΣV before %v; want job %d or after, ΣV before 1", x, before.sumV, m)
	}
	for id := m + 1; id < x; id++ {
		if j.nodes[id].v >= math.Ldexp(1, -52) {
			t.Errorf("job %d, passed over by the fallback, has v %v: more than rounding", id, j.nodes[id].v)
		}
	}
	if x != yLast {
		t.Errorf("reachV fell back to job %d, want Y's last job, %d", x, yLast)
	}
}
