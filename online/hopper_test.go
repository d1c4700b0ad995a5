package online_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/online"
	"pgregory.net/rapid"
)

// shareTol is how far, relative to S, a share Hopper keeps may lie from
// alloc.Allocate's on the same jobs: the two sum the same counts in
// different orders (a tree's and the index order), so a cut or a case
// decided at a sum within rounding of S can fall one way in one and the
// other way in the other, moving a share by a few units in the last place
// of S. 1e-9 leaves room for 10⁶ jobs' worth of such rounding.
const shareTol = 1e-9

// count draws a remaining-task count over every magnitude Hopper accepts:
// zero, small integers, and 10^k for k in [-300, 300].
func count(t *rapid.T, label string) float64 {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return 0
	case 1:
		return float64(rapid.IntRange(1, 12).Draw(t, label))
	case 2:
		return float64(rapid.IntRange(1, 4).Draw(t, label)) // ties
	}
	return math.Pow(10, float64(rapid.IntRange(-300, 300).Draw(t, label+"Exp")))
}

// fatalfer is what the checks need of a test: *rapid.T, or *testing.T for
// a fixed stream (TestTreeStress).
type fatalfer interface {
	Fatalf(format string, args ...any)
}

// model is the state the test keeps beside a Hopper: the remaining tasks by
// id (NaN for an id not in use).
type model struct {
	h       *online.Hopper
	t       []float64
	held    []int // slots held, by id
	slots   float64
	beta    float64
	scratch []float64
	freed   []int // ids removed, most recent last
}

// check compares every share of h with alloc.Allocate on the model's jobs.
func (m *model) check(t fatalfer) {
	rem := make([]float64, len(m.t))
	for i, v := range m.t {
		if !math.IsNaN(v) {
			rem[i] = v
		}
	}
	want, err := alloc.Allocate(nil, rem, m.slots, m.beta, nil)
	if err != nil {
		t.Fatalf("alloc.Allocate: %v", err)
	}
	got, err := m.h.SnapshotSlots(nil)
	checkSlots(t, got, err, m.slots, func(slots int) ([]int, error) {
		return alloc.AllocateSlots(nil, rem, slots, m.beta, nil)
	})
	m.scratch = m.h.Snapshot(m.scratch)
	if len(m.scratch) != len(want) {
		t.Fatalf("Snapshot has %d entries, want %d", len(m.scratch), len(want))
	}
	for id, w := range want {
		g := m.scratch[id]
		if !(math.Abs(g-w) <= shareTol*m.slots) || math.IsNaN(m.t[id]) && g != 0 {
			t.Fatalf("job %d (T = %v) of %v on %v slots, β %v: share %v, alloc.Allocate %v", id, m.t[id], rem, m.slots, m.beta, g, w)
		}
		if !math.IsNaN(m.t[id]) {
			if tg, err := m.h.Target(id); err != nil || tg != g {
				t.Fatalf("Target(%d) = %v, %v; Snapshot %v", id, tg, err, g)
			}
		}
	}
	if m.h.Len() != m.live() || m.h.IDs() != len(m.t) {
		t.Fatalf("Len %d, IDs %d; want %d, %d", m.h.Len(), m.h.IDs(), m.live(), len(m.t))
	}
	m.checkNext(t, want)
}

// checkNext compares Next and Reclaim with a scan of the jobs in (T, id)
// order against alloc.Allocate's shares. Next: the first job at least a
// whole slot short of its share; failing that, in the capacity-constrained
// case the job with the largest fraction short (ties first in order), in
// the proportional case the first job short at all. Reclaim: the last job
// holding more than its share. A job within rounding of a bound
// (shareTol·S, and 1e-12 relatively) may count either way, and so may the
// case near its boundary.
func (m *model) checkNext(t fatalfer, shares []float64) {
	var order []int
	total := 0.0
	for id, v := range m.t {
		if !math.IsNaN(v) {
			order = append(order, id)
			total += v
			if got := m.h.Held(id); got != m.held[id] {
				t.Fatalf("Held(%d) = %d, want %d", id, got, m.held[id])
			}
		}
	}
	slices.SortFunc(order, func(a, b int) int { return m.h.Compare(a, b) })
	// side is −1 if job id surely holds less than bound, +1 if surely
	// more, 0 if within rounding.
	side := func(id int, bound float64) int {
		held := float64(m.held[id])
		tol := shareTol*m.slots + 1e-12*max(held, bound)
		switch {
		case held < bound-tol:
			return -1
		case held > bound+tol:
			return 1
		}
		return 0
	}
	c := 1.0 // 2/β, 1 for β ≥ 2 (no speculation)
	if m.beta < 2 {
		c = 2 / m.beta
	}
	constrained := c*total > m.slots*(1+1e-9)
	proportional := c*total < m.slots*(1-1e-9)
	next, ok := m.h.Next()
	if ok {
		if side(next, shares[next]) > 0 || shares[next] == 0 {
			t.Fatalf("Next = %d, holding %d of a share %v", next, m.held[next], shares[next])
		}
		whole := side(next, shares[next]-1) <= 0 // the chosen job may be a whole slot short
		for _, id := range order {
			if id == next {
				break
			}
			if side(id, shares[id]-1) < 0 {
				t.Fatalf("Next = %d; job %d is a whole slot short (holds %d of %v) and comes first", next, id, m.held[id], shares[id])
			}
		}
		if !whole {
			for _, id := range order {
				if side(id, shares[id]-1) < 0 {
					t.Fatalf("Next = %d, a fraction short; job %d is a whole slot short (holds %d of %v)", next, id, m.held[id], shares[id])
				}
				if constrained && side(id, shares[id]) < 0 && shares[id]-float64(m.held[id]) > shares[next]-float64(m.held[next])+1e-9*max(1, shares[id]) {
					t.Fatalf("Next = %d (%v short); job %d is %v short", next, shares[next]-float64(m.held[next]), id, shares[id]-float64(m.held[id]))
				}
			}
			if proportional {
				for _, id := range order {
					if id == next {
						break
					}
					if side(id, shares[id]) < 0 {
						t.Fatalf("Next = %d; job %d is short (holds %d of %v) and comes first", next, id, m.held[id], shares[id])
					}
				}
			}
		}
	} else {
		for _, id := range order {
			if side(id, shares[id]) < 0 {
				t.Fatalf("Next: none, but job %d holds %d of a share %v", id, m.held[id], shares[id])
			}
		}
	}
	last, ok := m.h.Reclaim()
	for i := len(order) - 1; i >= 0; i-- {
		id := order[i]
		if ok && id == last {
			if side(id, shares[id]) < 0 || m.held[id] == 0 {
				t.Fatalf("Reclaim = %d, holding %d of a share %v", id, m.held[id], shares[id])
			}
			break
		}
		if side(id, shares[id]) > 0 {
			t.Fatalf("Reclaim = %d, %v; job %d holds %d of a share %v and comes last (order %v)", last, ok, id, m.held[id], shares[id], order)
		}
	}
}

func (m *model) live() int {
	n := 0
	for _, v := range m.t {
		if !math.IsNaN(v) {
			n++
		}
	}
	return n
}

// liveID draws an id in use, or reports false.
func (m *model) liveID(t *rapid.T) (int, bool) {
	var ids []int
	for i, v := range m.t {
		if !math.IsNaN(v) {
			ids = append(ids, i)
		}
	}
	if len(ids) == 0 {
		return 0, false
	}
	return rapid.SampledFrom(ids).Draw(t, "id"), true
}

// unchanged checks that a rejected event left every share as it was.
func (m *model) unchanged(t *rapid.T, err error, field string, before []float64) {
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Field != field {
		t.Fatalf("error %v; want an InputError on %s", err, field)
	}
	if after := m.h.Snapshot(nil); !slices.Equal(after, before) {
		t.Fatalf("a rejected event changed the shares: %v → %v", before, after)
	}
}

// testEvents: after every event of a random stream — arrivals, updates
// (ties, zeros, jobs crossing between the cases), removals and reuse of
// ids, slot changes, and rejected events — every share equals
// alloc.Allocate's on the same jobs within shareTol·S, Target equals
// Snapshot, a rejected event changes nothing, and the search tree is the
// B+-tree of the jobs held with every item's totals (CheckTree).
func testEvents(t *rapid.T) {
	beta := rapid.SampledFrom([]float64{1.1, 1.5, 1.99, 2, 3}).Draw(t, "beta")
	slots := count(t, "slots")
	h, err := online.New(slots, beta)
	if err != nil {
		t.Fatal(err)
	}
	m := &model{h: h, slots: slots, beta: beta}
	t.Repeat(map[string]func(*rapid.T){
		"add": func(t *rapid.T) {
			v := count(t, "remaining")
			id, err := h.Add(v)
			if err != nil {
				t.Fatalf("Add(%v): %v", v, err)
			}
			switch {
			case len(m.freed) == 0 && id == len(m.t):
				m.t = append(m.t, v)
				m.held = append(m.held, 0)
			case len(m.freed) > 0 && id == m.freed[len(m.freed)-1]:
				m.freed = m.freed[:len(m.freed)-1]
				m.t[id], m.held[id] = v, 0
			default:
				t.Fatalf("Add returned id %d; want the last freed of %v, or %d", id, m.freed, len(m.t))
			}
		},
		"update": func(t *rapid.T) {
			id, ok := m.liveID(t)
			if !ok {
				t.Skip("no job")
			}
			v := count(t, "remaining")
			if err := h.Update(id, v); err != nil {
				t.Fatalf("Update(%d, %v): %v", id, v, err)
			}
			m.t[id] = v
		},
		"remove": func(t *rapid.T) {
			id, ok := m.liveID(t)
			if !ok {
				t.Skip("no job")
			}
			if err := h.Remove(id); err != nil {
				t.Fatalf("Remove(%d): %v", id, err)
			}
			m.t[id], m.held[id] = math.NaN(), 0
			m.freed = append(m.freed, id)
		},
		"held": func(t *rapid.T) {
			id, ok := m.liveID(t)
			if !ok {
				t.Skip("no job")
			}
			n := rapid.OneOf(rapid.IntRange(0, 12), rapid.SampledFrom([]int{1 << 30, 1 << 53})).Draw(t, "held")
			if err := h.SetHeld(id, n); err != nil {
				t.Fatalf("SetHeld(%d, %d): %v", id, n, err)
			}
			m.held[id] = n
		},
		"slots": func(t *rapid.T) {
			s := count(t, "slots")
			if err := h.SetSlots(s); err != nil {
				t.Fatalf("SetSlots(%v): %v", s, err)
			}
			m.slots = s
		},
		"bad": func(t *rapid.T) {
			before := h.Snapshot(nil)
			bad := rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1), math.Inf(-1), -1e-300}).Draw(t, "bad")
			_, err := h.Add(bad)
			m.unchanged(t, err, "remaining", before)
			m.unchanged(t, h.SetSlots(bad), "slots", before)
			unknown := rapid.SampledFrom([]int{-1, len(m.t), len(m.t) + 5, math.MinInt}).Draw(t, "unknown")
			m.unchanged(t, h.Remove(unknown), "id", before)
			m.unchanged(t, h.Update(unknown, 1), "id", before)
			if _, err := h.Target(unknown); err == nil {
				t.Fatalf("Target(%d) of an unknown id: no error", unknown)
			}
			m.unchanged(t, h.SetHeld(unknown, 1), "id", before)
			if h.Held(unknown) != 0 {
				t.Fatalf("Held(%d) of an unknown id = %d, want 0", unknown, h.Held(unknown))
			}
			if id, ok := m.liveID(t); ok {
				m.unchanged(t, h.Update(id, bad), "remaining", before)
				n := rapid.SampledFrom([]int{-1, 1<<53 + 1, math.MinInt, math.MaxInt}).Draw(t, "badHeld")
				m.unchanged(t, h.SetHeld(id, n), "slots", before)
				if h.Held(id) != m.held[id] {
					t.Fatalf("a rejected SetHeld changed Held(%d) to %d", id, h.Held(id))
				}
			}
		},
		"": func(t *rapid.T) {
			if err := h.CheckTree(); err != nil {
				t.Fatal(err)
			}
			m.check(t)
		},
	})
}

func TestEvents(t *testing.T) { t.Parallel(); rapid.Check(t, testEvents) }

// TestOverflow: a count that makes the jobs' total overflow float64 is
// rejected, by Add and by Update, and changes nothing; the same count is
// accepted where the total stays finite.
func TestOverflow(t *testing.T) {
	t.Parallel()
	h, err := online.New(10, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	a, err := h.Add(math.MaxFloat64)
	if err != nil {
		t.Fatalf("Add(MaxFloat64) alone: %v", err)
	}
	if _, err := h.Add(math.MaxFloat64); err == nil {
		t.Fatalf("Add(MaxFloat64) beside MaxFloat64: accepted")
	}
	b, err := h.Add(0)
	if err != nil || h.Len() != 2 || h.IDs() != 2 {
		t.Fatalf("Add(0): id %d, %v; %d jobs, %d ids (the rejected Add must not keep its id)", b, err, h.Len(), h.IDs())
	}
	if err := h.Update(b, 1e300); err == nil {
		t.Fatalf("Update to 1e300 beside MaxFloat64: accepted")
	}
	if err := h.Update(a, 1e300); err != nil {
		t.Fatalf("Update(a, 1e300): %v", err)
	}
	if err := h.Update(b, 1e300); err != nil {
		t.Fatalf("Update(b, 1e300) beside 1e300: %v", err)
	}
	// 10 slots among two jobs of 1e300 (β 1.5: V = 1.33e300 each): the
	// capacity-constrained case; the first in (T, id) order takes all.
	if got, _ := h.Target(a); got != 10 {
		t.Errorf("Target(a) = %v, want 10", got)
	}
}

// TestOverflowRollback: an Update that Update's own check lets through
// (ΣT − old + new, summed in that order, is finite) but whose total in the
// tree's order overflows is rolled back. By hand: A = 2^1023 and B =
// 1.5·2^969 sum to A (B is under half of A's ulp above, 2^971); updating B
// to 2^1023 − 2^970, the check forms (A − B) + new = (A − 2^970) + new =
// 2^1024 − 2^971 = MaxFloat64, but the tree forms A + new = 2^1024 −
// 2^970, halfway to 2^1024, which rounds to +Inf (ties to even).
func TestOverflowRollback(t *testing.T) {
	t.Parallel()
	h, err := online.New(10, 3)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := h.Add(0x1p1023)
	b, _ := h.Add(0x1.8p969)
	before := h.Snapshot(nil)
	if err := h.Update(b, 0x1p1023-0x1p970); err == nil {
		t.Fatalf("Update(B, 2^1023 − 2^970) beside 2^1023: accepted")
	}
	if after := h.Snapshot(nil); !slices.Equal(after, before) || h.Compare(a, b) != 1 {
		t.Fatalf("a rejected Update changed the state: shares %v → %v, Compare(A, B) = %d (want 1: B has fewer tasks)", before, after, h.Compare(a, b))
	}
	// B kept its count: it still comes before a job of 2^1000 tasks (the
	// rejected count would come after it). A goes first, so the sums stay
	// finite.
	if err := h.Remove(a); err != nil {
		t.Fatal(err)
	}
	c, err := h.Add(0x1p1000)
	if err != nil {
		t.Fatal(err)
	}
	if h.Compare(b, c) != -1 {
		t.Fatalf("Compare(B, C of 2^1000) = %d after the rejected Update, want −1 (B = 1.5·2^969)", h.Compare(b, c))
	}
}

// FuzzEvents fuzzes the event stream of testEvents: every method of Hopper.
func FuzzEvents(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testEvents)) }

// TestCompare: Compare is the (T, id) order — antisymmetric, transitive,
// 0 only for a job with itself — checked against the definition by brute
// force over every triple of a small set of jobs with ties; ids not in use
// compare as jobs of 0 tasks.
func TestCompare(t *testing.T) {
	t.Parallel()
	h, err := online.New(4, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	counts := []float64{3, 1, 3, 0, 2, 1e300, 1e-300, 1}
	for _, c := range counts {
		if _, err := h.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Remove(4); err != nil { // id 4 compares as 0 tasks
		t.Fatal(err)
	}
	counts[4] = 0
	ids := []int{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8}
	key := func(id int) float64 {
		if id < 0 || id >= len(counts) {
			return 0
		}
		return counts[id]
	}
	for _, a := range ids {
		for _, b := range ids {
			want := 0
			switch {
			case key(a) < key(b) || key(a) == key(b) && a < b:
				want = -1
			case a != b:
				want = 1
			}
			if got := h.Compare(a, b); got != want {
				t.Errorf("Compare(%d, %d) = %d, want %d (T %v, %v)", a, b, got, want, key(a), key(b))
			}
		}
	}
}
