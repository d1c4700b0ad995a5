package online_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/online"
	"github.com/specsched/specsched/stragglers"
)

// TestConstructorErrors: NewFair and NewClasses reject what the snapshot
// functions reject — slots negative, NaN or ±Inf; β ≤ 1, NaN or ±Inf; ε
// outside [0, 1] or NaN — with an InputError naming the field, and accept
// the edges (0 slots, ε 0 and 1, β just above 1).
func TestConstructorErrors(t *testing.T) {
	t.Parallel()
	field := func(err error) string {
		var ie *specsched.InputError
		if !errors.As(err, &ie) {
			return ""
		}
		return ie.Field
	}
	bads := []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, bad := range bads {
		if _, err := online.NewFair(bad, 1.5, 0.5); field(err) != "slots" {
			t.Errorf("NewFair(slots %v): %v, want an InputError on slots", bad, err)
		}
		if _, err := online.NewFair(1, 1.5, bad); field(err) != "eps" {
			t.Errorf("NewFair(eps %v): %v, want an InputError on eps", bad, err)
		}
		if _, err := online.NewClasses(bad); field(err) != "slots" {
			t.Errorf("NewClasses(%v): %v, want an InputError on slots", bad, err)
		}
	}
	for _, bad := range append(bads, 1, 0.5) {
		if _, err := online.NewFair(1, bad, 0.5); field(err) != "beta" {
			t.Errorf("NewFair(beta %v): %v, want an InputError on beta", bad, err)
		}
	}
	if _, err := online.NewFair(1, 1.5, 1.5); field(err) != "eps" {
		t.Errorf("NewFair(eps 1.5): %v, want an InputError on eps", err)
	}
	for _, eps := range []float64{0, 1} {
		if _, err := online.NewFair(0, math.Nextafter(1, 2), eps); err != nil {
			t.Errorf("NewFair(0, 1+ulp, %v): %v", eps, err)
		}
	}
	if _, err := online.NewClasses(0); err != nil {
		t.Errorf("NewClasses(0): %v", err)
	}
}

// TestClassesBadBeta: Add and Update reject a β ≤ 1, NaN or ±Inf with an
// InputError on beta naming the job, and change nothing.
func TestClassesBadBeta(t *testing.T) {
	t.Parallel()
	c, err := online.NewClasses(10)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.Add(3, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []float64{1, 0.5, -2, math.NaN(), math.Inf(1), math.Inf(-1)} {
		var ie *specsched.InputError
		if _, err := c.Add(1, bad); !errors.As(err, &ie) || ie.Field != "beta" || ie.Index != 1 {
			t.Errorf("Add(1, %v): %v, want an InputError on beta of job 1", bad, err)
		}
		if err := c.Update(id, 1, bad); !errors.As(err, &ie) || ie.Field != "beta" || ie.Index != id {
			t.Errorf("Update(%d, 1, %v): %v, want an InputError on beta of job %d", id, bad, err, id)
		}
		if got, _ := c.Target(id); c.Len() != 1 || got != 10 {
			t.Errorf("after the rejected β %v: %d jobs, Target %v; want 1 job, 10 (3 tasks, β 1.5: V = 4 < 10, alone it takes every slot)", bad, c.Len(), got)
		}
	}
}

// TestSumBounds: a count that makes the sums overflow is rejected, by Add
// and Update, and changes nothing — Fair's bound is Σ c·T (fairness.Allocate
// rejects an overflowing ΣV), Classes' ΣT and ΣT/√(β−1) ≤ MaxFloat64/2
// (stragglers.Allocate's) — and the same count is accepted where the sums
// stay in bounds.
func TestSumBounds(t *testing.T) {
	t.Parallel()
	f, err := online.NewFair(10, 1.5, 0.5) // c = 4/3: c·MaxFloat64 overflows
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(math.MaxFloat64); err == nil {
		t.Errorf("Fair.Add(MaxFloat64) with c = 4/3: accepted")
	}
	a, err := f.Add(1e307)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(1.3e308); err == nil {
		t.Errorf("Fair.Add(1.3e308) beside 1e307: accepted (c·ΣT = 1.87e308 overflows)")
	}
	if err := f.Update(a, 1.4e308); err == nil {
		t.Errorf("Fair.Update to 1.4e308 (c·T = 1.87e308 overflows): accepted")
	}
	if err := f.Update(a, 1e308); err != nil {
		t.Errorf("Fair.Update to 1e308 (c·T = 1.33e308): %v", err)
	}
	c, err := online.NewClasses(10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Add(8e307, 3) // ΣT = 8e307 ≤ 8.99e307
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Add(1e307, 3); err == nil {
		t.Errorf("Classes.Add: ΣT = 9e307 > MaxFloat64/2 accepted")
	}
	if _, err := c.Add(7e307, 1.25); err == nil { // w = 7e307/√0.25 = 1.4e308
		t.Errorf("Classes.Add: Σw = 1.4e308 > MaxFloat64/2 accepted")
	}
	if err := c.Update(b, 9e307, 3); err == nil {
		t.Errorf("Classes.Update: ΣT = 9e307 accepted")
	}
	if err := c.Update(b, 4e307, 1.25); err != nil { // w = 8e307
		t.Errorf("Classes.Update(4e307, β 1.25): %v", err)
	}
	// A β ≥ 2 job has no weight (w = 0, as in stragglers.Allocate): beside
	// Σw = 8e307 it fits although T + Σw would not.
	if _, err := c.Add(1e307, 2); err != nil {
		t.Errorf("Classes.Add(1e307, β 2) beside Σw = 8e307: %v", err)
	}
	if c.Len() != 2 || f.Len() != 1 {
		t.Errorf("rejected Adds kept a job: %d, %d", c.Len(), f.Len())
	}
	// Update checks the sums with the job's old count taken out: a job
	// of 1e308 (c·T 1.33e308) may grow to 1.2e308 (1.6e308), though the
	// old and the new counts together would overflow.
	if err := f.Update(a, 1.2e308); err != nil {
		t.Errorf("Fair.Update from 1e308 to 1.2e308 (c·T = 1.6e308): %v", err)
	}
	// Classes' bounds are inclusive: ΣT and Σw of exactly MaxFloat64/2
	// (halving is exact) are accepted, by Add and by an Update that keeps
	// them there. Two jobs of T = MaxFloat64/4 and β 3 make ΣT, two of
	// T = MaxFloat64/8 and β 1.25 (w = T/√0.25 = MaxFloat64/4) make Σw.
	half := math.MaxFloat64 / 2
	for _, job := range []struct {
		sum         string
		tasks, beta float64
	}{{"ΣT", half / 2, 3}, {"Σw", half / 4, 1.25}} {
		e, _ := online.NewClasses(10)
		x, err := e.Add(job.tasks, job.beta)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Add(job.tasks, job.beta); err != nil {
			t.Errorf("Classes.Add: %s = MaxFloat64/2 exactly: %v", job.sum, err)
		}
		if err := e.Update(x, job.tasks, job.beta); err != nil {
			t.Errorf("Classes.Update keeping %s = MaxFloat64/2: %v", job.sum, err)
		}
	}
	// Σw alone past the bound: T = 5e307 fits ΣT, w = 1e308 does not.
	lone, _ := online.NewClasses(10)
	if _, err := lone.Add(5e307, 1.25); err == nil {
		t.Errorf("Classes.Add(5e307, β 1.25): w = 1e308 > MaxFloat64/2 accepted")
	}
}

// TestSnapshotDst: Snapshot writes into a dst of enough capacity, not a
// new slice, and then allocates nothing — for Hopper, Fair and Classes.
// Not parallel: AllocsPerRun counts the whole process's allocations.
func TestSnapshotDst(t *testing.T) {
	h, _ := online.New(10, 1.5)
	f, _ := online.NewFair(10, 1.5, 0.5)
	c, _ := online.NewClasses(10)
	for _, v := range []float64{3, 1, 4} {
		_, _ = h.Add(v)
		_, _ = f.Add(v)
		_, _ = c.Add(v, 1.5)
	}
	for _, o := range []struct {
		name string
		snap func([]float64) []float64
	}{{"Hopper", h.Snapshot}, {"Fair", f.Snapshot}, {"Classes", c.Snapshot}} {
		name, snap := o.name, o.snap
		dst := make([]float64, 3)
		if got := snap(dst); &got[0] != &dst[0] || len(got) != 3 {
			t.Errorf("%s.Snapshot(dst of capacity 3) did not write into dst", name)
		}
		if a := testing.AllocsPerRun(10, func() { snap(dst) }); a != 0 {
			t.Errorf("%s.Snapshot(dst of capacity 3): %v allocations", name, a)
		}
	}
}

// TestNegativeZero: a job of −0 remaining tasks is a job of +0 tasks: its
// share is +0, not −0, in Classes' cases that form shares from the
// weights (β 1.1 beside a job of β 1.5: the class before the level's), in
// the level's class shared in proportion to T (one class, 10^9 slots),
// and in Fair's.
func TestNegativeZero(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	for _, slots := range []float64{1, 1e9} {
		c, _ := online.NewClasses(slots)
		zero, _ := c.Add(negZero, 1.1)
		other, _ := c.Add(5, 1.5)
		check := func(event string) {
			if s, _ := c.Target(zero); s != 0 || math.Signbit(s) {
				t.Errorf("Classes on %v slots, %s: the job of −0 tasks has share %v, want +0", slots, event, s)
			}
		}
		check("added")
		if err := c.Update(zero, negZero, 1.1); err != nil {
			t.Fatal(err)
		}
		check("updated")
		_ = other
		// In the level's own class, shared in proportion to T (10^9 slots
		// past both virtual sizes).
		same, _ := online.NewClasses(slots)
		z, _ := same.Add(negZero, 1.5)
		_, _ = same.Add(5, 1.5)
		if s, _ := same.Target(z); s != 0 || math.Signbit(s) {
			t.Errorf("Classes on %v slots, one class: the job of −0 tasks has share %v, want +0", slots, s)
		}
		if err := same.Update(z, negZero, 1.5); err != nil {
			t.Fatal(err)
		}
		if s, _ := same.Target(z); s != 0 || math.Signbit(s) {
			t.Errorf("Classes on %v slots, one class, updated: the job of −0 tasks has share %v, want +0", slots, s)
		}
		f, _ := online.NewFair(slots, 1.5, 0.5)
		fz, _ := f.Add(negZero)
		_, _ = f.Add(5)
		if s, _ := f.Target(fz); s != 0 || math.Signbit(s) {
			t.Errorf("Fair on %v slots: the job of −0 tasks has share %v, want +0", slots, s)
		}
	}
}

// TestSubnormalQuotient: a share whose quotient w/Σw lies below the normal
// range is formed without rounding the quotient first, as
// stragglers.Allocate forms it. By hand: A (10^-300 tasks, β 1.1) beside B
// (10^10 tasks, β 1.5) on 10^300 slots, past both virtual sizes (the level
// below B's class): A gets w_A/(w_A + w_B)·S, w_A/(w_A + w_B) ≈ 2.2e-310,
// a subnormal with 44 bits; its share, ≈ 2.2e-10, must agree with the
// reference to 1e-15 relatively, not to the subnormal's 2^-44.
func TestSubnormalQuotient(t *testing.T) {
	t.Parallel()
	remaining, beta := []float64{1e-300, 1e10}, []float64{1.1, 1.5}
	c, err := online.NewClasses(1e300)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Add(remaining[0], beta[0])
	_, _ = c.Add(remaining[1], beta[1])
	want, err := stragglers.Allocate(nil, remaining, beta, 1e300, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := c.Target(a)
	if math.Abs(got-want[0]) > 1e-15*want[0] || want[0] < 1e-10 || want[0] > 1e-9 {
		t.Errorf("A's share %v, stragglers.Allocate %v (≈ 2.2e-10)", got, want[0])
	}
}

// TestQueriesAllocateNothing: Next and Reclaim, after an event (the lazy
// search included) and between events, allocate nothing — for Hopper,
// Fair and Classes. Not parallel: AllocsPerRun counts the whole process's
// allocations.
func TestQueriesAllocateNothing(t *testing.T) {
	h, _ := online.New(10, 1.5)
	f, _ := online.NewFair(10, 1.5, 0.5)
	c, _ := online.NewClasses(10)
	for k, v := range []float64{3, 1, 4, 0} {
		_, _ = h.Add(v)
		_, _ = f.Add(v)
		_, _ = c.Add(v, []float64{1.5, 3, 1.25, 2}[k])
		_ = h.SetHeld(k, k)
		_ = f.SetHeld(k, k)
		_ = c.SetHeld(k, k)
	}
	for _, o := range []struct {
		name          string
		next, reclaim func() (int, bool)
		slots         func(float64) error
	}{{"Hopper", h.Next, h.Reclaim, h.SetSlots}, {"Fair", f.Next, f.Reclaim, f.SetSlots}, {"Classes", c.Next, c.Reclaim, c.SetSlots}} {
		next, reclaim, slots := o.next, o.reclaim, o.slots
		s := 0.0
		if a := testing.AllocsPerRun(10, func() {
			s = 11 - s // an event: the cut-offs are searched again
			_ = slots(s)
			next()
			reclaim()
			next()
			reclaim()
		}); a != 0 {
			t.Errorf("%s: Next and Reclaim: %v allocations", o.name, a)
		}
	}
}

// TestEventsAllocateNothing: in steady state — 5000 jobs held, four
// levels of tree, the ids and nodes grown to their peak by a warm-up of
// the same stream — every event and query allocates nothing, splits,
// merges and moves included: Update (across classes, for Classes),
// Remove, Add, SetHeld, Next, Reclaim and Target, for Hopper, Fair and
// Classes. Not parallel: AllocsPerRun counts the whole process's
// allocations.
func TestEventsAllocateNothing(t *testing.T) {
	const n = 5000
	h, _ := online.New(1000, 1.5)
	f, _ := online.NewFair(1000, 1.5, 0.5)
	c, _ := online.NewClasses(1000)
	r := rand.New(rand.NewPCG(1, 2))
	beta := func() float64 { return 1.1 + float64(r.IntN(10))/10 }
	for range n {
		_, _ = h.Add(float64(r.IntN(100)))
		_, _ = f.Add(float64(r.IntN(100)))
		_, _ = c.Add(float64(r.IntN(100)), beta())
	}
	step := func() {
		id := r.IntN(n)
		_ = h.Update(id, float64(r.IntN(100)))
		_ = f.Update(id, float64(r.IntN(100)))
		_ = c.Update(id, float64(r.IntN(100)), beta())
		_, _, _ = h.Remove(id), f.Remove(id), c.Remove(id)
		_, _ = h.Add(float64(r.IntN(100)))
		_, _ = f.Add(float64(r.IntN(100)))
		_, _ = c.Add(float64(r.IntN(100)), beta())
		for _, a := range []interface {
			Next() (int, bool)
			Reclaim() (int, bool)
			SetHeld(id, slots int) error
			Held(id int) int
			Target(id int) (float64, error)
		}{h, f, c} {
			if x, ok := a.Next(); ok {
				_ = a.SetHeld(x, a.Held(x)+1)
			}
			if x, ok := a.Reclaim(); ok {
				_ = a.SetHeld(x, a.Held(x)-1)
			}
			_, _ = a.Target(id)
		}
	}
	for range 20 * n {
		step()
	}
	if a := testing.AllocsPerRun(2000, step); a != 0 {
		t.Errorf("steady state: %v allocations per step", a)
	}
	for name, tree := range map[string]interface{ CheckTree() error }{"Hopper": h, "Fair": f, "Classes": c} {
		if err := tree.CheckTree(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSnapshotSlotsDst: SnapshotSlots writes into a dst of enough
// capacity and then allocates nothing — for Hopper, Fair and Classes —
// and refuses slots that are not a whole number (an InputError on
// "slots", no panic). Not parallel: AllocsPerRun counts the whole
// process's allocations.
func TestSnapshotSlotsDst(t *testing.T) {
	h, _ := online.New(10, 1.5)
	f, _ := online.NewFair(10, 1.5, 0.5)
	c, _ := online.NewClasses(10)
	for k, v := range []float64{3, 1, 4} {
		_, _ = h.Add(v)
		_, _ = f.Add(v)
		_, _ = c.Add(v, []float64{1.5, 3, 1.25}[k])
	}
	for _, o := range []struct {
		name     string
		snap     func([]int) ([]int, error)
		setSlots func(float64) error
	}{{"Hopper", h.SnapshotSlots, h.SetSlots}, {"Fair", f.SnapshotSlots, f.SetSlots}, {"Classes", c.SnapshotSlots, c.SetSlots}} {
		name, snap := o.name, o.snap
		dst := make([]int, 3)
		if got, err := snap(dst); err != nil || &got[0] != &dst[0] || len(got) != 3 {
			t.Errorf("%s.SnapshotSlots(dst of capacity 3): %v, %v; did not write into dst", name, got, err)
		}
		if a := testing.AllocsPerRun(10, func() { _, _ = snap(dst) }); a != 0 {
			t.Errorf("%s.SnapshotSlots(dst of capacity 3): %v allocations", name, a)
		}
		for _, s := range []float64{2.5, 1 << 54, math.SmallestNonzeroFloat64} {
			_ = o.setSlots(s)
			var ie *specsched.InputError
			if got, err := snap(dst); !errors.As(err, &ie) || ie.Field != "slots" {
				t.Errorf("%s.SnapshotSlots on %v slots: %v, %v; want an InputError on slots", name, s, got, err)
			}
		}
	}
}

// TestFairSumBound: Fair's bound on Σ c·T leaves room for the tree's own
// rounding: Σ c·T_i at most MaxFloat64/(1 + 2⁻²⁰) (Add's doc), the limit
// L of ΣT below. Jobs whose counts add up to within a few units in the
// last place of an edge — L, or in every other trial MaxFloat64/c, where
// c·ΣT overflows — are sent: k jobs of about edge/k, then Adds topping the
// sum up to the edge, then Updates of random jobs topping it up again; whatever
// Fair accepts, the shares it gives must be finite and equal
// fairness.Allocate's on the same counts (which must accept them too),
// within shareTol·S. Before the margin, Fair accepted counts whose sum,
// added in the tree's grouping, made c·ΣT overflow: 174 of 20 000 such
// streams ended with Snapshot computed from an infinite ΣV. A rejection
// must be at the limit: the counts held (added here in index order) with
// the job's old count replaced by the new one at least (1 − 2⁻⁴⁰)·L. An
// Update to the same count or a smaller one, and Add(0), are accepted
// however close to L the sum is (they cannot raise it).
func TestFairSumBound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 20_000
	if testing.Short() {
		trials = 4000
	}
	const slots, beta, eps = 10.0, 1.5, 0.5
	c := 2 / beta // the factor of β < 2 (hopper.Factor)
	limit := math.MaxFloat64 / (1 + 0x1p-20) / c
	var ws fairness.Workspace
	var got, want []float64
	for trial := range trials {
		f, err := online.NewFair(slots, beta, eps)
		if err != nil {
			t.Fatal(err)
		}
		var counts []float64 // by id: ids are 0, 1, … with no removal
		total := func() float64 {
			s := 0.0
			for _, v := range counts {
				s += v
			}
			return s
		}
		rejected := func(op string, id int, old, v float64, err error) {
			if s := total() - old + v; s < limit*(1-0x1p-40) {
				t.Fatalf("trial %d: %s(%d, %v) rejected with ΣT then %v, below the limit %v: %v", trial, op, id, v, s, limit, err)
			}
		}
		add := func(v float64) {
			if _, err := f.Add(v); err != nil {
				rejected("Add", len(counts), 0, v, err)
				return
			}
			counts = append(counts, v)
		}
		update := func(id int, v float64) {
			if err := f.Update(id, v); err != nil {
				rejected("Update", id, counts[id], v, err)
				return
			}
			counts[id] = v
		}
		edge := limit
		if trial%2 == 1 {
			edge = math.MaxFloat64 / c
		}
		k := 2 + rng.IntN(40)
		for range k {
			add(edge / float64(k) * (1 + (rng.Float64()-0.5)*1e-3))
		}
		for range 20 {
			add(math.Abs((edge - total()) * (1 + (rng.Float64()-0.5)*1e-13)))
		}
		for range 20 {
			id := rng.IntN(len(counts))
			update(id, math.Abs(counts[id]+(edge-total())*(1+(rng.Float64()-0.5)*1e-13)))
		}
		id := rng.IntN(len(counts))
		for _, v := range []float64{counts[id], counts[id] / 2} {
			if err := f.Update(id, v); err != nil {
				t.Fatalf("trial %d: Update(%d, %v) from %v, ΣT %v: %v", trial, id, v, counts[id], total(), err)
			}
			counts[id] = v
		}
		if _, err := f.Add(0); err != nil {
			t.Fatalf("trial %d: Add(0) at ΣT %v: %v", trial, total(), err)
		}
		counts = append(counts, 0)
		got = f.Snapshot(got)
		if want, err = fairness.Allocate(want, counts, slots, beta, eps, &ws); err != nil {
			t.Fatalf("trial %d: Fair accepted counts fairness.Allocate rejects: %v", trial, err)
		}
		for id := range counts {
			if math.IsInf(got[id], 0) || math.IsNaN(got[id]) || math.Abs(got[id]-want[id]) > shareTol*slots {
				t.Fatalf("trial %d: job %d of %d: share %v, fairness.Allocate %v", trial, id, len(counts), got[id], want[id])
			}
		}
	}
}

// TestFairSumBoundExact: the bound is inclusive and exactly the one Add's
// doc states, Σ c·T_i ≤ MaxFloat64/(1 + 2⁻²⁰). With β = 2 (c = 1, no
// speculation) a job of T = that bound is accepted, and a count one ulp
// above it is rejected, by Add and by Update of that job.
func TestFairSumBoundExact(t *testing.T) {
	t.Parallel()
	bound := math.MaxFloat64 / (1 + 0x1p-20)
	above := math.Nextafter(bound, math.Inf(1))
	f, err := online.NewFair(10, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(above); err == nil {
		t.Errorf("Add(%v), one ulp above the bound %v: accepted", above, bound)
	}
	id, err := f.Add(bound)
	if err != nil {
		t.Fatalf("Add(%v), the bound itself: %v", bound, err)
	}
	if err := f.Update(id, above); err == nil {
		t.Errorf("Update to %v, one ulp above the bound: accepted", above)
	}
	if err := f.Update(id, bound); err != nil {
		t.Errorf("Update to the bound itself: %v", err)
	}
	if got := f.Snapshot(nil); len(got) != 1 || got[0] != 10 {
		t.Errorf("Snapshot = %v; want [10] (one job, all 10 slots)", got)
	}
}
