package online

// An experiment for issue 14's remaining target, not used by Hopper: the
// capacity-constrained core of Hopper's event (an Update, the cut's
// search, Next's descents, SetHeld of the job Next names) over a B+-tree
// instead of the treap, to measure whether a tree of fanout bpWidth, each
// node's items' keys and subtree sums and bounds in contiguous arrays,
// brings an event at 10⁵ jobs under 1 µs (BenchmarkBPLatency beside
// BenchmarkLatency). Its invariants are checked by checkBP after every
// event of a random stream against a brute-force Hopper (TestBPTree).
//
// Measured again (BenchmarkBPLatency, -count 5, taskset -c 1, load 7.0
// before and 7.1 after on two cores; medians of the five runs' p50/p99):
// 341/612 ns against the treap's 490/872 at 10³ jobs, 521/921 against
// 752/1692 at 10⁴, 932/1554 against 1482/2656 at 10⁵, 2244/5711 against
// 3366/5951 at 10⁶; 0 allocs/op. alloc.Allocate's recomputation in the
// same run (BenchmarkRecompute): 69.9 µs at 10⁴, 655 µs at 10⁵, so 134×
// and 703× an event here, 93× and 442× the treap's.
//
// Not yet Hopper's core: Next in the proportional case (against S/ΣT),
// Reclaim's descents, Target, Compare and Snapshot, SetSlots, the
// exported checks and the overflow pre-check before a change (the state
// unchanged on error) are the treap's only. A node is 920 bytes
// (57.5 a job, 15 cache lines); a leaf whose items keep only T, held and
// the id (16 bytes, the bounds derived while scanning it) would be 4.

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/specsched/specsched/internal/hopper"
)

// bpWidth is a node's capacity: items (jobs in a leaf, children in an
// inner node). A leaf or inner node other than the root holds at least
// bpWidth/4.
const bpWidth = 16

type bpNode struct {
	n      int
	leaf   bool
	parent int32
	kid    [bpWidth]int32   // leaf: job ids; inner: child nodes
	t      [bpWidth]float64 // the item's last key: T
	id     [bpWidth]int32   // and id
	sum    [bpWidth]float64 // the item's ΣT
	lo     [bpWidth]ratio   // least below
	hi     [bpWidth]ratio   // greatest ratio
	plus   [bpWidth]ratio   // least plus
	frac   [bpWidth]float64 // greatest frac
	short  uint32           // items holding a short job
}

type bpTree struct {
	c, slots  float64
	t, held   []float64
	leafOf    []int32
	nodes     []bpNode
	freeNodes []int32
	root      int32
	total     float64

	fresh, constrained bool
	cut                int32
	left0              float64
}

func newBP(slots, beta float64) *bpTree {
	b := &bpTree{c: hopper.Factor(beta), slots: slots}
	b.root = b.newNode(true, none)
	return b
}

func (b *bpTree) newNode(leaf bool, parent int32) int32 {
	var x int32
	if k := len(b.freeNodes); k > 0 {
		x = b.freeNodes[k-1]
		b.freeNodes = b.freeNodes[:k-1]
	} else {
		b.nodes = append(b.nodes, bpNode{})
		x = int32(len(b.nodes) - 1)
	}
	b.nodes[x] = bpNode{leaf: leaf, parent: parent}
	return x
}

// less: (t1, id1) before (t2, id2).
func keyLess(t1 float64, id1 int32, t2 float64, id2 int32) bool {
	return t1 < t2 || t1 == t2 && id1 < id2
}

// setJob writes job id's own values into item i of leaf x.
func (b *bpTree) setJob(x int32, i int, id int32) {
	n := &b.nodes[x]
	t, held := b.t[id], b.held[id]
	n.kid[i], n.t[i], n.id[i], n.sum[i] = id, t, id, t
	switch {
	case t > 0:
		n.lo[i], n.hi[i], n.plus[i] = quotient(held, t), quotient(held, t), quotient(held+1, t)
	case held > 0:
		n.lo[i], n.hi[i], n.plus[i] = everything, everything, everything
	default:
		n.lo[i], n.hi[i], n.plus[i] = everything, nothing, everything
	}
	n.frac[i] = -1
	if d := b.c*t + 0 - held; d > 0 && d < 1 {
		n.frac[i] = d
	}
	n.short &^= 1 << i
	if held <= b.c*t+0-1 {
		n.short |= 1 << i
	}
}

// summarize writes node x's summary into its parent's item i.
func (b *bpTree) summarize(x int32, p *bpNode, i int) bool {
	n := &b.nodes[x]
	s, lo, hi, plus, frac := 0.0, everything, nothing, everything, -1.0
	for k := range n.n {
		s += n.sum[k]
		lo, hi, plus, frac = min(lo, n.lo[k]), max(hi, n.hi[k]), min(plus, n.plus[k]), max(frac, n.frac[k])
	}
	short := n.short != 0
	old := p.short&(1<<i) != 0
	changed := p.kid[i] != x || p.t[i] != n.t[n.n-1] || p.id[i] != n.id[n.n-1] || p.sum[i] != s || p.lo[i] != lo || p.hi[i] != hi || p.plus[i] != plus || p.frac[i] != frac || old != short
	p.kid[i], p.t[i], p.id[i], p.sum[i], p.lo[i], p.hi[i], p.plus[i], p.frac[i] = x, n.t[n.n-1], n.id[n.n-1], s, lo, hi, plus, frac
	p.short &^= 1 << i
	if short {
		p.short |= 1 << i
	}
	return changed
}

func (b *bpTree) indexIn(p, x int32) int {
	n := &b.nodes[p]
	for i := range n.n {
		if n.kid[i] == x {
			return i
		}
	}
	panic("child not in parent")
}

// fixUp recomputes the summaries from node x up to the root; with stop,
// only as far as they change.
func (b *bpTree) fixUp(x int32, stop bool) {
	for {
		p := b.nodes[x].parent
		if p == none {
			break
		}
		if !b.summarize(x, &b.nodes[p], b.indexIn(p, x)) && stop {
			return
		}
		x = p
	}
	r := &b.nodes[b.root]
	s := 0.0
	for k := range r.n {
		s += r.sum[k]
	}
	b.total = s
}

// insertItem inserts into node x at i, shifting, x not full.
func (b *bpTree) shiftRight(x int32, i int) {
	n := &b.nodes[x]
	copy(n.kid[i+1:n.n+1], n.kid[i:n.n])
	copy(n.t[i+1:n.n+1], n.t[i:n.n])
	copy(n.id[i+1:n.n+1], n.id[i:n.n])
	copy(n.sum[i+1:n.n+1], n.sum[i:n.n])
	copy(n.lo[i+1:n.n+1], n.lo[i:n.n])
	copy(n.hi[i+1:n.n+1], n.hi[i:n.n])
	copy(n.plus[i+1:n.n+1], n.plus[i:n.n])
	copy(n.frac[i+1:n.n+1], n.frac[i:n.n])
	low := n.short & (1<<i - 1)
	n.short = low | (n.short&^(1<<i-1))<<1
	n.n++
}

func (b *bpTree) shiftLeft(x int32, i int) {
	n := &b.nodes[x]
	copy(n.kid[i:], n.kid[i+1:n.n])
	copy(n.t[i:], n.t[i+1:n.n])
	copy(n.id[i:], n.id[i+1:n.n])
	copy(n.sum[i:], n.sum[i+1:n.n])
	copy(n.lo[i:], n.lo[i+1:n.n])
	copy(n.hi[i:], n.hi[i+1:n.n])
	copy(n.plus[i:], n.plus[i+1:n.n])
	copy(n.frac[i:], n.frac[i+1:n.n])
	low := n.short & (1<<i - 1)
	n.short = low | (n.short>>(i+1))<<i
	n.n--
}

// moveItem copies item i of node from to item j of node to.
func (b *bpTree) moveItem(to int32, j int, from int32, i int) {
	f, d := &b.nodes[from], &b.nodes[to]
	d.kid[j], d.t[j], d.id[j], d.sum[j], d.lo[j], d.hi[j], d.plus[j], d.frac[j] = f.kid[i], f.t[i], f.id[i], f.sum[i], f.lo[i], f.hi[i], f.plus[i], f.frac[i]
	d.short &^= 1 << j
	d.short |= (f.short >> i & 1) << j
	if d.leaf {
		b.leafOf[d.kid[j]] = to
	} else {
		b.nodes[d.kid[j]].parent = to
	}
}

// split moves x's upper half to a new node after it in x's parent
// (a new root if x is the root), and returns the new node.
func (b *bpTree) split(x int32) int32 {
	p := b.nodes[x].parent
	if p == none {
		p = b.newNode(false, none)
		b.nodes[p].n = 1
		b.nodes[p].kid[0] = x
		b.nodes[x].parent = p
		b.root = p
	} else if b.nodes[p].n == bpWidth {
		b.split(p)
		p = b.nodes[x].parent
	}
	y := b.newNode(b.nodes[x].leaf, p)
	half := b.nodes[x].n / 2
	for i := half; i < b.nodes[x].n; i++ {
		b.moveItem(y, i-half, x, i)
	}
	b.nodes[y].n = b.nodes[x].n - half
	b.nodes[x].n = half
	b.nodes[x].short &= 1<<half - 1
	i := b.indexIn(p, x)
	b.shiftRight(p, i+1)
	b.summarize(x, &b.nodes[p], i)
	b.summarize(y, &b.nodes[p], i+1)
	return y
}

// insert adds job id (t, held set) by its key.
func (b *bpTree) insert(id int32) {
	b.fixUp(b.place(id), false)
}

// place puts job id in its leaf, which it returns, the summaries above
// not yet recomputed (a split's are).
func (b *bpTree) place(id int32) int32 {
	t := b.t[id]
	x := b.root
	for !b.nodes[x].leaf {
		n := &b.nodes[x]
		i := 0
		for i < n.n-1 && keyLess(n.t[i], n.id[i], t, id) {
			i++
		}
		x = n.kid[i]
	}
	if b.nodes[x].n == bpWidth {
		y := b.split(x)
		if n := &b.nodes[x]; keyLess(n.t[n.n-1], n.id[n.n-1], t, id) {
			x = y
		}
	}
	n := &b.nodes[x]
	i := 0
	for i < n.n && keyLess(n.t[i], n.id[i], t, id) {
		i++
	}
	b.shiftRight(x, i)
	b.leafOf[id] = x
	b.setJob(x, i, id)
	return x
}

// fixPair recomputes the summaries above leaves x and y, at one depth:
// side by side up to their lowest common ancestor, then once.
func (b *bpTree) fixPair(x, y int32) {
	for x != y {
		px, py := b.nodes[x].parent, b.nodes[y].parent
		b.summarize(x, &b.nodes[px], b.indexIn(px, x))
		b.summarize(y, &b.nodes[py], b.indexIn(py, y))
		x, y = px, py
	}
	b.fixUp(x, false)
}

// remove takes job id out.
func (b *bpTree) remove(id int32) {
	x := b.leafOf[id]
	b.shiftLeft(x, b.indexIn(x, id))
	b.rebalance(x)
}

// rebalance restores node x's fill after a removal and the summaries above.
func (b *bpTree) rebalance(x int32) {
	n := &b.nodes[x]
	p := n.parent
	if p == none {
		if !n.leaf && n.n == 1 {
			b.root = n.kid[0]
			b.nodes[b.root].parent = none
			b.freeNodes = append(b.freeNodes, x)
			x = b.root
		}
		b.fixUp(x, false)
		return
	}
	if n.n >= bpWidth/4 {
		b.fixUp(x, false)
		return
	}
	i := b.indexIn(p, x)
	l, r := x, x
	if i > 0 {
		l = b.nodes[p].kid[i-1]
	} else {
		r = b.nodes[p].kid[i+1]
	}
	ln, rn := &b.nodes[l], &b.nodes[r]
	if ln.n+rn.n <= bpWidth {
		for k := range rn.n {
			b.moveItem(l, ln.n+k, r, k)
		}
		ln.n += rn.n
		b.shiftLeft(p, b.indexIn(p, r))
		b.freeNodes = append(b.freeNodes, r)
		b.summarize(l, &b.nodes[p], b.indexIn(p, l))
		b.rebalance(p)
		return
	}
	if l == x { // borrow the right sibling's first
		b.moveItem(l, ln.n, r, 0)
		ln.n++
		b.shiftLeft(r, 0)
	} else { // the left sibling's last
		b.shiftRight(r, 0)
		b.moveItem(r, 0, l, ln.n-1)
		ln.n--
		ln.short &= 1<<ln.n - 1
	}
	b.summarize(l, &b.nodes[p], b.indexIn(p, l))
	b.fixUp(r, false)
}

func (b *bpTree) add(t float64) int32 {
	id := int32(len(b.t))
	b.t, b.held, b.leafOf = append(b.t, t), append(b.held, 0), append(b.leafOf, none)
	b.insert(id)
	b.fresh = false
	return id
}

// update sets job id's T: in place if it stays between its leaf
// neighbours, else a removal and an insertion.
func (b *bpTree) update(id int32, t float64) {
	keep := b.fresh && b.constrained && b.cut != none && keyLess(b.t[b.cut], b.cut, b.t[id], id)
	b.fresh = false
	x := b.leafOf[id]
	n := &b.nodes[x]
	i := b.indexIn(x, id)
	if i > 0 && i < n.n-1 && keyLess(n.t[i-1], n.id[i-1], t, id) && keyLess(t, id, n.t[i+1], n.id[i+1]) {
		b.t[id] = t
		b.setJob(x, i, id)
		b.fixUp(x, false)
	} else {
		nodes := len(b.nodes) - len(b.freeNodes)
		b.shiftLeft(x, i)
		if x != b.root && n.n < bpWidth/4 {
			b.rebalance(x)
			b.t[id] = t
			b.insert(id)
		} else {
			b.t[id] = t
			y := b.place(id)
			if nodes == len(b.nodes)-len(b.freeNodes) {
				b.fixPair(x, y)
			} else { // y split: x's path may have changed
				b.fixUp(x, false)
				b.fixUp(y, false)
			}
		}
		keep = keep && nodes == len(b.nodes)-len(b.freeNodes) // no split or merge
	}
	b.fresh = keep && keyLess(b.t[b.cut], b.cut, t, id)
}

func (b *bpTree) setHeld(id int32, held float64) {
	b.held[id] = held
	x := b.leafOf[id]
	b.setJob(x, b.indexIn(x, id), id)
	b.fixUp(x, true)
}

func (b *bpTree) refresh() {
	if b.fresh {
		return
	}
	b.fresh = true
	b.constrained = b.total > 0 && b.slots > 0 && b.c*b.total >= b.slots*(1-hopper.CaseTolerance)
	if !b.constrained {
		return
	}
	b.cut = none
	before := 0.0
	x := b.root
	for descended := false; ; {
		n := &b.nodes[x]
		i := 0
		for i < n.n && b.c*(before+n.sum[i]) < b.slots {
			before += n.sum[i]
			i++
		}
		if i == n.n {
			if !descended {
				return // every job gets V_i
			}
			i = n.n - 1 // reached by the parent's sums: the last
			before -= n.sum[i]
		}
		if n.leaf {
			id := n.kid[i]
			b.cut = id
			b.left0 = min(b.c*b.t[id], max(b.slots-b.c*before, 0))
			return
		}
		x, descended = n.kid[i], true
	}
}

func (b *bpTree) firstShort() int32 {
	x := b.root
	for {
		n := &b.nodes[x]
		if n.short == 0 {
			return none
		}
		i := bits.TrailingZeros32(n.short)
		if n.leaf {
			return n.kid[i]
		}
		x = n.kid[i]
	}
}

func (b *bpTree) inPrefix(id int32) bool {
	return b.cut == none || keyLess(b.t[id], id, b.t[b.cut], b.cut)
}

// prefixFrac: the greatest frac before the cut, up the cut's path.
func (b *bpTree) prefixFrac() float64 {
	best := -1.0
	if b.cut == none {
		r := &b.nodes[b.root]
		for k := range r.n {
			best = max(best, r.frac[k])
		}
		return best
	}
	x, child := b.leafOf[b.cut], b.cut
	for x != none {
		n := &b.nodes[x]
		for k := 0; n.kid[k] != child; k++ {
			best = max(best, n.frac[k])
		}
		x, child = n.parent, x
	}
	return best
}

func (b *bpTree) firstFrac(f float64) int32 {
	x := b.root
	for {
		n := &b.nodes[x]
		i := 0
		for i < n.n && n.frac[i] < f {
			i++
		}
		if i == n.n {
			return none
		}
		if n.leaf {
			return n.kid[i]
		}
		x = n.kid[i]
	}
}

// next is Hopper.Next in the capacity-constrained case.
func (b *bpTree) next() (int32, bool) {
	b.refresh()
	if !b.constrained {
		return 0, false
	}
	if x := b.firstShort(); x != none && b.inPrefix(x) {
		return x, true
	}
	if b.cut != none && b.held[b.cut] <= b.left0-1 {
		return b.cut, true
	}
	best := b.prefixFrac()
	cutFrac := -1.0
	if b.cut != none {
		if d := b.left0 - b.held[b.cut]; d > 0 && d < 1 {
			cutFrac = d
		}
	}
	switch {
	case best > 0 && best >= cutFrac:
		return b.firstFrac(best), true
	case cutFrac > 0:
		return b.cut, true
	}
	return 0, false
}

// bpSummary is a subtree's summary as checkBP recomputes it, apart from
// summarize: ΣT (added in the tree's grouping), the least below, greatest
// ratio, least plus and greatest frac, whether a job is short, the last
// key.
type bpSummary struct {
	sum            float64
	lo, hi, plus   ratio
	frac           float64
	short          bool
	lastT          float64
	lastID, leaves int32
}

// checkBP verifies the tree: every node's fill (an inner root holds at
// least two items), all leaves at one depth, the jobs in order in strictly
// increasing (T, id) order, parent and leafOf links, the short bits past
// a node's items clear, and every item's keys, sums and bounds what the
// jobs below it give, recomputed from T and held by its own code; the
// total their sum over the root's items.
func (b *bpTree) checkBP(jobs int) error {
	var order []int32
	depth := -1
	var walk func(x int32, d int) (bpSummary, error)
	walk = func(x int32, d int) (bpSummary, error) {
		n := &b.nodes[x]
		got := bpSummary{lo: everything, hi: nothing, plus: everything, frac: -1}
		switch {
		case x != b.root && (n.n < bpWidth/4 || n.n > bpWidth):
			return got, fmt.Errorf("node %d holds %d items", x, n.n)
		case x == b.root && !n.leaf && n.n < 2:
			return got, fmt.Errorf("inner root %d holds %d items", x, n.n)
		case n.short>>n.n != 0:
			return got, fmt.Errorf("node %d: short bits %b past its %d items", x, n.short, n.n)
		}
		for k := range n.n {
			var item bpSummary
			if n.leaf {
				if depth >= 0 && depth != d {
					return got, fmt.Errorf("leaf %d at depth %d, another at %d", x, d, depth)
				}
				depth = d
				id := n.kid[k]
				if b.leafOf[id] != x {
					return got, fmt.Errorf("job %d in leaf %d, leafOf %d", id, x, b.leafOf[id])
				}
				order = append(order, id)
				t, held := b.t[id], b.held[id]
				item = bpSummary{sum: t, lo: everything, hi: nothing, plus: everything, frac: -1, short: held <= b.c*t-1, lastT: t, lastID: id}
				if t > 0 {
					item.lo, item.hi, item.plus = quotient(held, t), quotient(held, t), quotient(held+1, t)
				} else if held > 0 {
					item.hi = everything
				}
				if d := b.c*t - held; d > 0 && d < 1 {
					item.frac = d
				}
			} else {
				c := n.kid[k]
				if b.nodes[c].parent != x {
					return got, fmt.Errorf("node %d's child %d has parent %d", x, c, b.nodes[c].parent)
				}
				var err error
				if item, err = walk(c, d+1); err != nil {
					return got, err
				}
			}
			stored := bpSummary{n.sum[k], n.lo[k], n.hi[k], n.plus[k], n.frac[k], n.short>>k&1 == 1, n.t[k], n.id[k], 0}
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
	all, err := walk(b.root, 0)
	if err != nil {
		return err
	}
	if all.sum != b.total {
		return fmt.Errorf("total %v, the root's items sum to %v", b.total, all.sum)
	}
	for k := 1; k < len(order); k++ {
		if !keyLess(b.t[order[k-1]], order[k-1], b.t[order[k]], order[k]) {
			return fmt.Errorf("jobs %d and %d out of order", order[k-1], order[k])
		}
	}
	if len(order) != jobs {
		return fmt.Errorf("%d jobs in the tree, want %d", len(order), jobs)
	}
	return nil
}

// TestBPTree: after every event of a random stream (updates to random
// counts and by −1, with ties; SetHeld of the job next names and of random
// jobs; the slots now and then just above ΣV, where the case is
// capacity-constrained within alloc's tolerance but every job gets V_i)
// the B+-tree passes checkBP, its case is the one ΣT gives, its next is
// Hopper's on the same jobs and its cut-off job gets what Hopper's Target
// gives; a cut kept fresh by update equals the cut searched again, exactly.
// Jobs leave en masse now and then and come back one by one (merges,
// borrows, the root shrinking). Counts are whole (sums exact) or
// fractional (sums rounded in the tree's grouping, which a split or merge
// changes).
func TestBPTree(t *testing.T) {
	for _, whole := range []bool{true, false} {
		for _, n := range []int{1, 3, 17, 100, 1000} {
			testBPTree(t, n, whole)
		}
	}
}

func testBPTree(t *testing.T, n int, whole bool) {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	count := func() float64 {
		if whole {
			return float64(rng.IntN(8))
		}
		return float64(rng.IntN(8)) + rng.Float64()
	}
	slots := float64(n) * 2
	b := newBP(slots, 1.5)
	h, _ := New(slots, 1.5)
	for range n {
		v := count()
		b.add(v)
		h.Add(v)
	}
	absent := make([]bool, n) // out of the tree: 0 tasks, 0 held in Hopper
	jobs := n
	for step := range 6000 {
		if step%1500 == 1000 { // most jobs leave: merges up to the root
			for id := range int32(n) {
				if !absent[id] && rng.IntN(10) > 0 {
					b.remove(id)
					b.t[id], b.held[id], absent[id], b.fresh = 0, 0, true, false
					jobs--
					h.Update(int(id), 0)
					h.SetHeld(int(id), 0)
				}
			}
		}
		id := int32(rng.IntN(n))
		if absent[id] { // it arrives
			b.t[id], absent[id], b.fresh = count(), false, false
			b.insert(id)
			jobs++
			h.Update(int(id), b.t[id])
			id = int32(rng.IntN(n))
		}
		if absent[id] {
			continue
		}
		switch rng.IntN(5) {
		case 0:
			v := count()
			b.update(id, v)
			h.Update(int(id), v)
		case 1:
			v := max(b.t[id]-1, 0)
			b.update(id, v)
			h.Update(int(id), v)
		case 2:
			v := float64(rng.IntN(12))
			b.setHeld(id, v)
			h.SetHeld(int(id), int(v))
		case 3:
			s := float64(n) * 2
			if rng.IntN(4) == 0 {
				s = b.c * h.total() * (1 + hopper.CaseTolerance/2)
			}
			b.slots, b.fresh = s, false
			h.SetSlots(s)
		}
		if b.fresh {
			cut, left0 := b.cut, b.left0
			b.fresh = false
			b.refresh()
			if b.cut != cut || b.left0 != left0 {
				t.Fatalf("n %d whole %v step %d: kept cut %d getting %v, searched again %d getting %v", n, whole, step, cut, left0, b.cut, b.left0)
			}
		}
		got, gok := b.next()
		total := 0.0
		for _, v := range b.t {
			total += v
		}
		constrained := total > 0 && b.slots > 0 && b.c*total >= b.slots*(1-hopper.CaseTolerance)
		if whole && b.total != total || b.constrained != constrained {
			t.Fatalf("n %d whole %v step %d: total %v constrained %v, want %v %v (slots %v fresh %v)", n, whole, step, b.total, b.constrained, total, constrained, b.slots, b.fresh)
		}
		if err := b.checkBP(jobs); err != nil {
			t.Fatalf("n %d whole %v step %d: %v", n, whole, step, err)
		}
		if !b.constrained {
			continue
		}
		want, wok := h.Next()
		if gok != wok || gok && int(got) != want {
			t.Fatalf("n %d whole %v step %d: next %d %v, Hopper's %d %v", n, whole, step, got, gok, want, wok)
		}
		if gok {
			b.setHeld(got, b.held[got]+1)
			h.SetHeld(want, h.Held(want)+1)
		}
		if b.cut != none {
			if want, _ := h.Target(int(b.cut)); math.Abs(want-b.left0) > 1e-9*b.slots {
				t.Fatalf("n %d whole %v step %d: cut %d gets %v, Hopper's Target %v", n, whole, step, b.cut, b.left0, want)
			}
		}
	}
}

// BenchmarkBPLatency is BenchmarkLatency's completion stream on the
// B+-tree core, beside the same stream on Hopper (treap), in one run.
func BenchmarkBPLatency(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000, 1_000_000} {
		for _, impl := range []string{"treap", "bptree"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, impl), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, uint64(n)))
				h, _ := New(float64(n)*250, 1.5)
				bp := newBP(float64(n)*250, 1.5)
				rem := make([]float64, n)
				for i := range rem {
					rem[i] = float64(1 + rng.IntN(1000))
					if impl == "treap" {
						h.Add(rem[i])
					} else {
						bp.add(rem[i])
					}
				}
				const draws = 1 << 16
				rng = rand.New(rand.NewPCG(2, 3))
				picks, vals := make([]int, draws), make([]float64, draws)
				for i := range picks {
					picks[i] = rng.IntN(n)
					vals[i] = float64(1 + rng.IntN(1000))
				}
				times := make([]time.Duration, b.N)
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					k := i & (draws - 1)
					j := picks[k]
					start := time.Now()
					rem[j]--
					if rem[j] < 1 {
						rem[j] = vals[k] // a departure and an arrival, as an update
					}
					if impl == "treap" {
						h.Update(j, rem[j])
						if next, ok := h.Next(); ok {
							h.SetHeld(next, h.Held(next)+1)
						}
					} else {
						bp.update(int32(j), rem[j])
						if next, ok := bp.next(); ok {
							bp.setHeld(next, bp.held[next]+1)
						}
					}
					times[i] = time.Since(start)
				}
				b.StopTimer()
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
				b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
			})
		}
	}
}

// TestBPTreeCutRounding sets the slots to c times the root's items' ΣT up
// to and including item k, added as refresh adds them, so that the cut's
// search descends into item k's child; there the child's own items, added
// one by one, may stay below the slots by rounding, and the cut is then
// the child's last job (refresh's fallback). The cut must get what
// Hopper's Target gives it, and some trials must reach the fallback.
func TestBPTreeCutRounding(t *testing.T) {
	t.Parallel()
	const tol = 1e-9 // of the slots, as TestBPTree
	rng := rand.New(rand.NewPCG(5, 8))
	fallbacks := 0
	for trial := range 2000 {
		b := newBP(1, 1.5)
		h, _ := New(1, 1.5)
		for range 40 {
			v := 0.1 + 7*rng.Float64()
			b.add(v)
			h.Add(v)
		}
		r := &b.nodes[b.root]
		if r.leaf {
			t.Fatalf("trial %d: 40 jobs in a leaf root", trial)
		}
		k := rng.IntN(r.n)
		before := 0.0
		for i := range k {
			before += r.sum[i]
		}
		slots := b.c * (before + r.sum[k])
		child := &b.nodes[r.kid[k]]
		reached := false
		for i := range child.n {
			if b.c*(before+child.sum[i]) >= slots {
				reached = true
				break
			}
			before += child.sum[i]
		}
		b.slots, b.fresh = slots, false
		h.SetSlots(slots)
		b.refresh()
		if !b.constrained || b.cut == none {
			t.Fatalf("trial %d: slots %v of c·ΣT %v: constrained %v, cut %d", trial, slots, b.c*b.total, b.constrained, b.cut)
		}
		if !reached {
			fallbacks++
			if last := child.kid[child.n-1]; b.cut != last {
				t.Fatalf("trial %d: cut %d, want the child's last job %d", trial, b.cut, last)
			}
		}
		if want, _ := h.Target(int(b.cut)); math.Abs(want-b.left0) > tol*slots {
			t.Fatalf("trial %d: cut %d gets %v, Hopper's Target %v", trial, b.cut, b.left0, want)
		}
	}
	if fallbacks == 0 {
		t.Fatalf("no trial of 2000 reached the fallback")
	}
	t.Logf("%d of 2000 trials reached the fallback", fallbacks)
}
