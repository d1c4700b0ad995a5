package volcano

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
)

// TestTable21 runs the thesis's worked example (Table 2.1, §2.1): job A with
// 4 tasks and job B with 6, 6 slots, β = 1.5. Algorithm 1 (ε = 1) gives A its
// virtual size (2/1.5)·4 = 5.33 → 5 slots and B the remaining 1; here A has a
// speculative copy pending per task, so it can use them. The expected counts
// come from alloc.AllocateSlots and fairness.AllocateSlots, not from the
// table; the fake binder must receive exactly those pods, A's four tasks
// before any copy.
func TestTable21(t *testing.T) {
	spec := sessionSpec{nodes: 3, cpus: 2, eps: 1, jobs: []jobSpec{
		{name: "a", pending: 4, copies: 4, beta: "1.5"},
		{name: "b", pending: 6, beta: "1.5"},
	}}
	remaining := []float64{4, 6}
	want, err := alloc.AllocateSlots(nil, remaining, 6, 1.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	fair, err := fairness.AllocateSlots(nil, remaining, 6, 1.5, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, fair); diff != "" {
		t.Fatalf("fairness at ε = 1 is not Algorithm 1 (-alloc +fairness):\n%s", diff)
	}
	if want[0] != 5 || want[1] != 1 {
		t.Logf("note: the library gives %v, the thesis's table 5 and 1", want)
	}
	got := runSession(t, spec, true)
	if got.slots != 6 {
		t.Fatalf("slots = %d, want 6", got.slots)
	}
	if diff := cmp.Diff(want, got.targets); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got.bound); diff != "" {
		t.Errorf("bound pods (-want +got):\n%s", diff)
	}
	wantA := []string{"a-t0000", "a-t0001", "a-t0002", "a-t0003", "a-x0000"}
	if diff := cmp.Diff(wantA, got.boundBy[0]); diff != "" {
		t.Errorf("A's pods (-want +got):\n%s", diff)
	}
}

// TestTable21Fair is the same session at the default ε = 0.1 (§3.5): B is
// raised to the floor ⌊0.9·6/2⌋ = 2, so A gets 4.
func TestTable21Fair(t *testing.T) {
	spec := sessionSpec{nodes: 3, cpus: 2, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "a", pending: 4, copies: 4},
		{name: "b", pending: 6},
	}}
	want, err := fairness.AllocateSlots(nil, []float64{4, 6}, 6, DefaultBeta, DefaultEpsilon, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := runSession(t, spec, true)
	if diff := cmp.Diff(want, got.bound); diff != "" {
		t.Errorf("bound pods (-want +got):\n%s", diff)
	}
	if got.floor != 2 || got.bound[1] < got.floor {
		t.Errorf("floor %d, B bound %d: want floor 2 kept", got.floor, got.bound[1])
	}
}
