package online_test

import (
	"errors"
	"math"
	"slices"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// allocator is what Fair and Classes share, for one state-machine test
// over both; add and update, whose arguments differ, are passed apart.
type allocator interface {
	Remove(id int) error
	SetSlots(slots float64) error
	SetHeld(id, slots int) error
	Held(id int) int
	Target(id int) (float64, error)
	Next() (int, bool)
	Reclaim() (int, bool)
	Compare(a, b int) int
	Snapshot(dst []float64) []float64
	SnapshotSlots(dst []int) ([]int, error)
	Len() int
	IDs() int
}

// machine is a state-machine test of an allocator against a reference
// snapshot function: the jobs' remaining tasks and β by id (NaN for an id
// not in use), their held slots, and the slots.
type machine struct {
	a      allocator
	add    func(remaining, beta float64) (int, error)
	update func(id int, remaining, beta float64) error
	ref    func(remaining, beta []float64, slots float64) []float64
	// refSlots is the reference's integer form (AllocateSlots).
	refSlots func(remaining, beta []float64, slots int) ([]int, error)
	beta     func(t *rapid.T) float64 // a job's β (the one β for Fair)

	t, b  []float64
	held  []int
	slots float64
	freed []int
}

// liveIDs is the ids in use.
func (m *machine) liveIDs() []int {
	var ids []int
	for i, v := range m.t {
		if !math.IsNaN(v) {
			ids = append(ids, i)
		}
	}
	return ids
}

func (m *machine) liveID(t *rapid.T) int {
	ids := m.liveIDs()
	if len(ids) == 0 {
		t.Skip("no job")
	}
	return rapid.SampledFrom(ids).Draw(t, "id")
}

// jobs is the model's jobs by id, ids not in use as jobs of 0 tasks and
// β 2 (which get 0).
func (m *machine) jobs() (rem, beta []float64) {
	rem = make([]float64, len(m.t))
	beta = make([]float64, len(m.t))
	for i, v := range m.t {
		beta[i] = 2
		if !math.IsNaN(v) {
			rem[i], beta[i] = v, m.b[i]
		}
	}
	return rem, beta
}

// want is the reference's shares on the model's jobs.
func (m *machine) want() []float64 {
	rem, beta := m.jobs()
	return m.ref(rem, beta, m.slots)
}

// checkSlots compares an integer snapshot (got, err) with the reference's
// integer form on the same jobs, ref(S), exactly (cmp.Diff) when the slots
// S are a whole number at most 2^53; otherwise err must be an InputError on
// "slots".
func checkSlots(t fatalfer, got []int, err error, slots float64, ref func(slots int) ([]int, error)) {
	if slots != math.Trunc(slots) || slots > 1<<53 {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "slots" {
			t.Fatalf("SnapshotSlots on %v slots: %v, %v; want an InputError on slots", slots, got, err)
		}
		return
	}
	want, werr := ref(int(slots))
	if err != nil || werr != nil {
		t.Fatalf("SnapshotSlots: %v; reference: %v", err, werr)
	}
	if !slices.Equal(want, got) { // cmp.Diff only to show a difference: it is most of a long stream's time
		t.Fatalf("SnapshotSlots on %v slots (-AllocateSlots +got):\n%s", slots, cmp.Diff(want, got))
	}
}

// check verifies the search tree (CheckTree), then compares Snapshot and Target with the reference within shareTol·S,
// and Next with a brute-force scan of the jobs in Compare's order against
// the reference's shares: the first job at least a whole slot short
// (held ≤ S_i − 1), else the first short at all (held < S_i); a job within
// rounding of a bound (shareTol·S, and 1e-12 relatively) may count either
// way.
func (m *machine) check(t *rapid.T) {
	if c, ok := m.a.(interface{ CheckTree() error }); ok {
		if err := c.CheckTree(); err != nil {
			t.Fatal(err)
		}
	}
	want := m.want()
	got := m.a.Snapshot(nil)
	if len(got) != len(want) {
		t.Fatalf("Snapshot has %d entries, want %d", len(got), len(want))
	}
	for id, w := range want {
		if !(math.Abs(got[id]-w) <= shareTol*m.slots) {
			t.Fatalf("job %d (T %v, β %v) of %v / %v on %v slots: share %v, reference %v", id, m.t[id], m.b[id], m.t, m.b, m.slots, got[id], w)
		}
		if !math.IsNaN(m.t[id]) {
			if tg, err := m.a.Target(id); err != nil || tg != got[id] {
				t.Fatalf("Target(%d) = %v, %v; Snapshot %v", id, tg, err, got[id])
			}
			if m.a.Held(id) != m.held[id] {
				t.Fatalf("Held(%d) = %d, want %d", id, m.a.Held(id), m.held[id])
			}
		}
	}
	order := m.liveIDs()
	if m.a.Len() != len(order) || m.a.IDs() != len(m.t) {
		t.Fatalf("Len %d, IDs %d; want %d, %d", m.a.Len(), m.a.IDs(), len(order), len(m.t))
	}
	slices.SortFunc(order, m.a.Compare)
	side := func(id int, bound float64) int {
		held := float64(m.held[id])
		tol := shareTol*m.slots + 1e-12*max(held, math.Abs(bound))
		switch {
		case held < bound-tol:
			return -1
		case held > bound+tol:
			return 1
		}
		return 0
	}
	m.checkReclaim(t, order, want, side)
	ints, err := m.a.SnapshotSlots(nil)
	checkSlots(t, ints, err, m.slots, func(slots int) ([]int, error) {
		rem, beta := m.jobs()
		return m.refSlots(rem, beta, slots)
	})
	next, ok := m.a.Next()
	if !ok {
		for _, id := range order {
			if side(id, want[id]) < 0 {
				t.Fatalf("Next: none, but job %d holds %d of a share %v", id, m.held[id], want[id])
			}
		}
		return
	}
	if side(next, want[next]) > 0 || want[next] == 0 || m.t[next] == 0 {
		t.Fatalf("Next = %d, holding %d of a share %v", next, m.held[next], want[next])
	}
	whole := side(next, want[next]-1) <= 0
	for _, id := range order {
		if id == next {
			break
		}
		if side(id, want[id]-1) < 0 {
			t.Fatalf("Next = %d; job %d is a whole slot short (holds %d of %v) and comes first", next, id, m.held[id], want[id])
		}
		if !whole && side(id, want[id]) < 0 {
			t.Fatalf("Next = %d, a fraction short; job %d is short (holds %d of %v) and comes first", next, id, m.held[id], want[id])
		}
	}
	if !whole {
		for _, id := range order {
			if side(id, want[id]-1) < 0 {
				t.Fatalf("Next = %d, a fraction short; job %d is a whole slot short (holds %d of %v)", next, id, m.held[id], want[id])
			}
		}
	}
}

// checkReclaim compares Reclaim with a brute-force scan of the jobs in
// Compare's order, from the last, against the reference's shares: the
// last job holding more than its share (held > S_i), a job within
// rounding of it (side 0) counting either way.
func (m *machine) checkReclaim(t *rapid.T, order []int, want []float64, side func(id int, bound float64) int) {
	last, ok := m.a.Reclaim()
	if ok && (m.held[last] == 0 || side(last, want[last]) < 0) {
		t.Fatalf("Reclaim = %d, holding %d of a share %v", last, m.held[last], want[last])
	}
	for i := len(order) - 1; i >= 0; i-- {
		id := order[i]
		if ok && id == last {
			return
		}
		if side(id, want[id]) > 0 {
			t.Fatalf("Reclaim = %d, %v; job %d holds %d of a share %v and comes last (order %v)", last, ok, id, m.held[id], want[id], order)
		}
	}
	if ok {
		t.Fatalf("Reclaim = %d, not a job held (order %v)", last, order)
	}
}

// unchanged checks that a rejected event returned an InputError on field
// and left every share and held count as they were (cmp.Diff on the
// snapshots).
func (m *machine) unchanged(t *rapid.T, err error, field string, before []float64) {
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Field != field {
		t.Fatalf("error %v; want an InputError on %s", err, field)
	}
	if d := cmp.Diff(before, m.a.Snapshot(nil)); d != "" {
		t.Fatalf("a rejected event changed the shares (-before +after):\n%s", d)
	}
	for _, id := range m.liveIDs() {
		if m.a.Held(id) != m.held[id] {
			t.Fatalf("a rejected event changed Held(%d) to %d", id, m.a.Held(id))
		}
	}
}

// events is the state machine: arrivals, updates (ties, zeros, jobs
// crossing the cases back and forth through their counts and through the
// slots), removals and reuse of ids, held counts, slot changes, and
// rejected events; after each, check.
func (m *machine) events(t *rapid.T) map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"add": func(t *rapid.T) {
			v, b := count(t, "remaining"), m.beta(t)
			id, err := m.add(v, b)
			if err != nil {
				t.Fatalf("Add(%v, %v): %v", v, b, err)
			}
			switch {
			case len(m.freed) == 0 && id == len(m.t):
				m.t, m.b, m.held = append(m.t, v), append(m.b, b), append(m.held, 0)
			case len(m.freed) > 0 && id == m.freed[len(m.freed)-1]:
				m.freed = m.freed[:len(m.freed)-1]
				m.t[id], m.b[id], m.held[id] = v, b, 0
			default:
				t.Fatalf("Add returned id %d; want the last freed of %v, or %d", id, m.freed, len(m.t))
			}
		},
		"update": func(t *rapid.T) {
			id := m.liveID(t)
			v, b := count(t, "remaining"), m.beta(t)
			if err := m.update(id, v, b); err != nil {
				t.Fatalf("Update(%d, %v, %v): %v", id, v, b, err)
			}
			m.t[id], m.b[id] = v, b
		},
		"complete": func(t *rapid.T) { // a task completes: T − 1
			id := m.liveID(t)
			v := max(0, m.t[id]-1)
			if err := m.update(id, v, m.b[id]); err != nil {
				t.Fatalf("Update(%d, %v): %v", id, v, err)
			}
			m.t[id] = v
		},
		"remove": func(t *rapid.T) {
			id := m.liveID(t)
			if err := m.a.Remove(id); err != nil {
				t.Fatalf("Remove(%d): %v", id, err)
			}
			m.t[id], m.b[id], m.held[id] = math.NaN(), math.NaN(), 0
			m.freed = append(m.freed, id)
		},
		"held": func(t *rapid.T) {
			id := m.liveID(t)
			m.setHeld(t, id, rapid.OneOf(rapid.IntRange(0, 12), rapid.SampledFrom([]int{1 << 30, 1 << 53})).Draw(t, "held"))
		},
		"slots": func(t *rapid.T) {
			s := count(t, "slots")
			if err := m.a.SetSlots(s); err != nil {
				t.Fatalf("SetSlots(%v): %v", s, err)
			}
			m.slots = s
		},
		"bad": func(t *rapid.T) {
			before := m.a.Snapshot(nil)
			bad := rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1), math.Inf(-1), -1e-300}).Draw(t, "bad")
			_, err := m.add(bad, 1.5)
			m.unchanged(t, err, "remaining", before)
			m.unchanged(t, m.a.SetSlots(bad), "slots", before)
			unknown := rapid.SampledFrom([]int{-1, len(m.t), len(m.t) + 5, math.MinInt}).Draw(t, "unknown")
			m.unchanged(t, m.a.Remove(unknown), "id", before)
			m.unchanged(t, m.update(unknown, 1, 1.5), "id", before)
			if _, err := m.a.Target(unknown); err == nil {
				t.Fatalf("Target(%d) of an unknown id: no error", unknown)
			}
			m.unchanged(t, m.a.SetHeld(unknown, 1), "id", before)
			if ids := m.liveIDs(); len(ids) > 0 {
				id := rapid.SampledFrom(ids).Draw(t, "id")
				m.unchanged(t, m.update(id, bad, m.b[id]), "remaining", before)
				n := rapid.SampledFrom([]int{-1, 1<<53 + 1, math.MinInt, math.MaxInt}).Draw(t, "badHeld")
				m.unchanged(t, m.a.SetHeld(id, n), "slots", before)
			}
		},
		"": m.check,
	}
}

// setHeld is SetHeld(id, n), recorded.
func (m *machine) setHeld(t *rapid.T, id, n int) {
	if err := m.a.SetHeld(id, n); err != nil {
		t.Fatalf("SetHeld(%d, %d): %v", id, n, err)
	}
	m.held[id] = n
}
