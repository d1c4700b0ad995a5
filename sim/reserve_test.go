package sim_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched/sim"
)

// TestThesisExampleReserve: Hopper with HopperAllocator.Reserve on the
// thesis's example (Table 2.1, 6 slots), schedules derived by hand.
//
// Detection after one time unit: t = 0, Algorithm 1 gives A 5 slots and B 1;
// A launches A1–A4 and cannot use its fifth slot yet, which stays idle
// (work conservation would give it to B). t = 1: A1 is judged (t_rem 7 > 2)
// and copied into A's fifth slot, ending at 3 with A2–A4: A completes at 3,
// against 8 when the slot is lent to B (thesisCases). B1 is judged too, but
// B holds its target. t = 3: B alone, 6 slots, T = 6: eq. 3.2's split is 5
// tasks and 1 copy, so B launches B2–B5 and copies B1 (t_rem 3), ending at
// 5. t = 4: B5 ends; T = 5, one copy held, so B launches B6 (ends 5).
// t = 5: B1 completes; T = 3 (B2, B3, B4) leaves room for copies: B2
// (t_rem 4 > 2) is copied, ending at 7; B3 and B4 (t_rem 1) are not. B
// completes at 7.
//
// Prompt detection: A copies A1 at once in its fifth slot (A completes at
// 3, as in Figure 2.3). At t = 2, A (3 tasks) leaves a slot unused that B
// does not get: B's copy of B2 waits until A completes at 3 (ends 5, where
// the work-conserving Hopper copies it at 2). B3 and B4, launched at 3, end
// at 6: (3, 6), Figure 2.3's completion times.
func TestThesisExampleReserve(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		detect float64
		a, b   float64
		copies []string
	}{
		{0.5, 3, 7, []string{
			"A1#0 0-3 k", "A1#1 1-3", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
			"B1#0 0-5 k", "B1#1 3-5", "B2#0 3-7 k", "B2#1 5-7", "B3#0 3-6", "B4#0 3-6", "B5#0 3-4", "B6#0 4-5",
		}},
		{0, 3, 6, []string{
			"A1#0 0-2 k", "A1#1 0-2", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
			"B1#0 0-6", "B2#0 2-5 k", "B2#1 3-5", "B3#0 3-6", "B4#0 3-6", "B5#0 3-4", "B6#0 4-5",
		}},
	} {
		cfg := thesisConfig(sim.Hopper, tc.detect)
		cfg.Allocator = &sim.HopperAllocator{Reserve: true}
		r, err := sim.Simulate(sim.ThesisExample(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := r.Jobs[0].Completion, r.Jobs[1].Completion; a != tc.a || b != tc.b {
			t.Errorf("detect %v: (A, B) = (%g, %g), want (%g, %g)", tc.detect, a, b, tc.a, tc.b)
		}
		want := slices.Clone(tc.copies)
		slices.Sort(want)
		if diff := cmp.Diff(want, schedule(r)); diff != "" {
			t.Errorf("detect %v: schedule (-want +got):\n%s", tc.detect, diff)
		}
	}
	if !(*sim.HopperAllocator)(nil).WorkConserving() || !(&sim.HopperAllocator{}).WorkConserving() || (&sim.HopperAllocator{Reserve: true}).WorkConserving() {
		t.Error("WorkConserving must be !Reserve, and true for a nil receiver")
	}
}
