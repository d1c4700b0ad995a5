package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched/sim"
)

// The thesis's worked example (§2, Table 2.1, Figures 2.1–2.3) on 6 slots.
// The figures are missing from the text copy; their captions give the
// completion times and the text gives the rule: "if the remaining running
// time (t_rem) is longer than the time to run a new task (t_new), speculate
// a new copy", with stragglers "detected after a new task runs for a small
// amount of time". The schedules below are derived by hand from those rules
// and Table 2.1 (A: t_init 8, 3, 3, 3; B: 6, 6, 3, 3, 1, 1; every copy
// t_new = 2, or 1 for B5, B6), as the simulator states them (see
// sim.Simulate). Notation: A1#0 is A1's first copy, A1#1 its first
// speculative copy; "k" marks a killed copy, "p" a copy in the budget pool.
//
// Figure 2.1a, best-effort SRPT, (A, B) = (5, 8). t = 0: SRPT gives A its 4
// tasks and B the 2 slots left (B1, B2). Every task with t_init > 2 is a
// straggler at once (t_rem > t_new), but best effort only copies when slots
// are handed out. t = 3: A2–A4 finish; A (1 task left) gets 2 slots (A1 and
// its copy request): A1#1, ending at 5; B gets the other 2 and, copies
// first, copies B1 and B2 (t_rem 3 > 2): both end at 5, and A1, B1, B2's
// originals are killed. A completes at 5. t = 5: B launches B3–B6 in 4 of
// the 6 free slots; B3 and B4 are stragglers from then on, but the next
// hand-out is at 6, when B5 and B6 finish and t_rem = 2 is no longer > 2.
// B3 and B4 end at 8.
//
// Figure 2.1b, best-effort Fair, (6, 8). t = 0: 3 slots each: A1–A3, B1–B3.
// t = 3: A2, A3, B3 finish; the demands are A: 3 (A1, A4, A1's copy), B: 7,
// so 3 each: A copies A1 (ends 5) and launches A4 (ends 6); B, with one
// free slot, copies B1 (B1 before B2 on the tie t_rem = 3). t = 5: A1 and
// B1 complete; A can use only A4's slot, B launches B4–B6. A ends at 6 (A4),
// B at 8 (B4, launched at 5).
//
// Figure 2.3, Hopper, (3, 6), β = 1.5: Algorithm 1 gives A (2/β)·4 ≈ 5.33 →
// 5 slots and B 1. A launches A1–A4 and, in its fifth slot, copies its most
// urgent straggler A1 (t_rem 8): A1#1 ends at 2. B launches B1. t = 2: A1
// completes; A (3 tasks, virtual size 4) and B (6 tasks, 8) get 4 and 2
// slots; A has nothing to copy (t_rem 1), B launches B2 (eq. 3.2's split
// for 2 slots is 2 tasks and no copy); A's unused slot goes to B, which
// copies its most urgent straggler, B2 (t_rem 6): ends at 4. t = 3: A
// completes; B gets all 6 slots: the split for T = 6 is 5 tasks and 1 copy
// (held by B2's copy), so B launches B3, B4, B5. t = 4: B2 and B5 complete;
// for T = 4 the split is 4 tasks and 2 copies, but no task qualifies (t_rem
// = 2 is not > 2): B launches B6. B ends at 6.
//
// Figure 2.2, budgeted speculation with 2 of the 6 slots reserved: the
// captions, (3, 7) for SRPT and (6, 8) for Fair, and the text ("Slot 6 is
// vacant from time 0 to 3"; "if the job scheduler could have used Slot 6 to
// run B4 at time 3") need detection after one time unit (Detect = 0.5 of
// t_new = 2). With detection at once, the pool would copy A2 (t_rem = 3 >
// 2) at time 0 alongside A1, leaving no slot vacant.
// 2.2a, SRPT: tasks run on the 4 other slots: A1–A4; at t = 1, A1 is
// judged (t_rem 7) and copied into the pool, ending at 3 with A2–A4, while
// A2–A4 (t_rem 2) are not stragglers. t = 3: B1–B4 start; at t = 4 B1 and
// B2 (t_rem 5) are copied into the pool, ending at 6 with B3 and B4. B5 and
// B6 then run from 6 to 7.
// 2.2b, Fair: 2 task slots each: A1, A2, B1, B2. t = 1: the pool copies A1
// and B1 (ends 3). t = 3: A launches A3, A4 (end 6), B launches B3; the pool
// copies B2 (t_rem 3), ending at 5, and its second slot stays vacant (A3,
// A4, B3 are not yet judged; at t = 4 their t_rem is 2). t = 5: B launches
// B4 (ends 8). t = 6: A completes; B5, B6 run to 7; B completes at 8.
//
// Hopper with detection after one time unit, (8, 6): at t = 0 A cannot yet
// copy A1, so its fifth slot goes to B (work conservation), and from t = 3
// on Algorithm 1 gives A (1 task, virtual size 1.33) a single slot: A1 is
// never copied. Hopper's head start in Figure 2.3 needs prompt detection.
var thesisCases = []struct {
	name   string
	policy sim.Preset
	detect float64 // Speculation.Detect, a fraction of t_new = 2
	a, b   float64
	copies []string
}{
	{"Figure 2.1a best-effort SRPT", sim.SRPTBestEffort, 0, 5, 8, []string{
		"A1#0 0-5 k", "A1#1 3-5", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
		"B1#0 0-5 k", "B1#1 3-5", "B2#0 0-5 k", "B2#1 3-5", "B3#0 5-8", "B4#0 5-8", "B5#0 5-6", "B6#0 5-6",
	}},
	{"Figure 2.1b best-effort Fair", sim.FairBestEffort, 0, 6, 8, []string{
		"A1#0 0-5 k", "A1#1 3-5", "A2#0 0-3", "A3#0 0-3", "A4#0 3-6",
		"B1#0 0-5 k", "B1#1 3-5", "B2#0 0-6", "B3#0 0-3", "B4#0 5-8", "B5#0 5-6", "B6#0 5-6",
	}},
	{"Figure 2.3 Hopper", sim.Hopper, 0, 3, 6, []string{
		"A1#0 0-2 k", "A1#1 0-2", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
		"B1#0 0-6", "B2#0 2-4 k", "B2#1 2-4", "B3#0 3-6", "B4#0 3-6", "B5#0 3-4", "B6#0 4-5",
	}},
	{"Figure 2.2a budgeted SRPT", sim.SRPTBudgeted, 0.5, 3, 7, []string{
		"A1#0 0-3 k", "A1#1 1-3 p", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
		"B1#0 3-6 k", "B1#1 4-6 p", "B2#0 3-6 k", "B2#1 4-6 p", "B3#0 3-6", "B4#0 3-6", "B5#0 6-7", "B6#0 6-7",
	}},
	{"Figure 2.2b budgeted Fair", sim.FairBudgeted, 0.5, 6, 8, []string{
		"A1#0 0-3 k", "A1#1 1-3 p", "A2#0 0-3", "A3#0 3-6", "A4#0 3-6",
		"B1#0 0-3 k", "B1#1 1-3 p", "B2#0 0-5 k", "B2#1 3-5 p", "B3#0 3-6", "B4#0 5-8", "B5#0 6-7", "B6#0 6-7",
	}},
	// Best effort does not depend on prompt detection here: its copies wait
	// for a hand-out, and every hand-out comes later than t + 1.
	{"Figure 2.1a, detection after 1", sim.SRPTBestEffort, 0.5, 5, 8, []string{
		"A1#0 0-5 k", "A1#1 3-5", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
		"B1#0 0-5 k", "B1#1 3-5", "B2#0 0-5 k", "B2#1 3-5", "B3#0 5-8", "B4#0 5-8", "B5#0 5-6", "B6#0 5-6",
	}},
	{"Figure 2.1b, detection after 1", sim.FairBestEffort, 0.5, 6, 8, []string{
		"A1#0 0-5 k", "A1#1 3-5", "A2#0 0-3", "A3#0 0-3", "A4#0 3-6",
		"B1#0 0-5 k", "B1#1 3-5", "B2#0 0-6", "B3#0 0-3", "B4#0 5-8", "B5#0 5-6", "B6#0 5-6",
	}},
	{"Hopper, detection after 1", sim.Hopper, 0.5, 8, 6, []string{
		"A1#0 0-8", "A2#0 0-3", "A3#0 0-3", "A4#0 0-3",
		"B1#0 0-5 k", "B1#1 3-5", "B2#0 0-6", "B3#0 3-6", "B4#0 3-6", "B5#0 5-6", "B6#0 5-6",
	}},
}

// thesisConfig is the example's configuration: exact t_rem (the figures'
// tasks know their durations), the thesis's rule, 2 budget slots.
func thesisConfig(p sim.Preset, detect float64) sim.Config {
	cfg := sim.DefaultConfig(p, 6)
	cfg.Budget = 2
	cfg.Speculation = sim.Speculation{Estimator: sim.Oracle, Detect: detect}
	cfg.Record = true
	return cfg
}

func schedule(r *sim.Result) []string {
	var s []string
	for _, c := range r.Copies {
		x := fmt.Sprintf("%c%d#%d %g-%g", 'A'+rune(c.Job), c.Task+1, c.Copy, c.Start, c.End)
		if c.Killed {
			x += " k"
		}
		if c.Pool {
			x += " p"
		}
		s = append(s, x)
	}
	slices.Sort(s)
	return s
}

func TestThesisExample(t *testing.T) {
	t.Parallel()
	for _, tc := range thesisCases {
		r, err := sim.Simulate(sim.ThesisExample(), thesisConfig(tc.policy, tc.detect))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if a, b := r.Jobs[0].Completion, r.Jobs[1].Completion; a != tc.a || b != tc.b {
			t.Errorf("%s: (A, B) = (%g, %g), want (%g, %g)", tc.name, a, b, tc.a, tc.b)
		}
		want := slices.Clone(tc.copies)
		slices.Sort(want)
		if diff := cmp.Diff(want, schedule(r)); diff != "" {
			t.Errorf("%s: schedule (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestThesisExampleMantri: Mantri's rule copies a task of c copies when
// P(t_rem > (c+1)/c·t_new) > δ, for a new copy's duration Pareto(x_m, β)
// of mean t_new: x_m = 2·0.5/1.5 = 2/3, and with δ = 0.25 the test is
// c/(c+1)·t_rem > x_m·0.75^{−1/β} ≈ 0.808, t_rem > 1.62 for one copy. A1
// (urgency 8/2 = 4) is still the most urgent of A's tasks (A2–A4: 3/2), so
// Hopper copies it at once and A completes at 3.
func TestThesisExampleMantri(t *testing.T) {
	t.Parallel()
	cfg := thesisConfig(sim.Hopper, 0)
	cfg.Speculation.Mantri = true
	cfg.Speculation.Threshold = 0.25
	r, err := sim.Simulate(sim.ThesisExample(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Jobs[0].Completion; got != 3 {
		t.Errorf("A = %g under Hopper with Mantri's rule, want 3 (A1 copied at once)", got)
	}
}
