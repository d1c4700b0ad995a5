package stragglers

import (
	"errors"
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
)

// wantInputError checks that err is fn's *InputError naming index and
// field.
func wantInputError(t *testing.T, name, fn string, err error, index int, field string) {
	t.Helper()
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn || ie.Index != index || ie.Field != field {
		t.Errorf("%s: %v; want %s's InputError on index %d field %q", name, err, fn, index, field)
	}
}

var (
	nan  = math.NaN()
	inf  = math.Inf(1)
	ninf = math.Inf(-1)
)

// TestAllocationInputChecks: every check the doc comments of Allocate,
// AllocateSlots, TwoClasses and TwoClassesSlots promise, with the job and
// field named, a dst left untouched and the inputs unmodified; and the
// bounds accepted where they are inclusive.
func TestAllocationInputChecks(t *testing.T) {
	t.Parallel()
	type input struct {
		name            string
		remaining, beta []float64
		slots           float64
		index           int
		field           string
	}
	common := []input{
		{"lengths", []float64{1, 2}, []float64{1.5}, 1, check.Scalar, "len(beta)"},
		{"remaining −1", []float64{1, -1}, []float64{1.5, 1.5}, 1, 1, "remaining"},
		{"remaining NaN", []float64{nan, 1}, []float64{1.5, 1.5}, 1, 0, "remaining"},
		{"remaining +Inf", []float64{1, inf}, []float64{1.5, 1.5}, 1, 1, "remaining"},
		{"remaining −Inf", []float64{ninf}, []float64{1.5}, 1, 0, "remaining"},
		{"beta 1", []float64{1, 1}, []float64{1.5, 1}, 1, 1, "beta"},
		{"beta 0.5", []float64{1}, []float64{0.5}, 1, 0, "beta"},
		{"beta NaN", []float64{1}, []float64{nan}, 1, 0, "beta"},
		{"beta −Inf", []float64{1}, []float64{ninf}, 1, 0, "beta"},
		{"weights past MaxFloat64/2", []float64{math.MaxFloat64 / 4, math.MaxFloat64 / 4}, []float64{1.25, 1.25}, 1, 1, "remaining"}, // job 0 alone is at the bound
	}
	realOnly := []input{
		{"slots −1", []float64{1}, []float64{1.5}, -1, check.Scalar, "slots"},
		{"slots NaN", []float64{1}, []float64{1.5}, nan, check.Scalar, "slots"},
		{"slots +Inf", []float64{1}, []float64{1.5}, inf, check.Scalar, "slots"},
		{"slots −Inf", []float64{1}, []float64{1.5}, ninf, check.Scalar, "slots"},
	}
	allocateOnly := []input{
		{"beta +Inf", []float64{1}, []float64{inf}, 1, 0, "beta"},
		{"ΣT past MaxFloat64/2", []float64{math.MaxFloat64 / 4, math.MaxFloat64 / 3}, []float64{2, 3}, 1, 1, "remaining"},
	}
	twoOnly := []input{
		{"beta 2", []float64{1}, []float64{2}, 1, 0, "beta"},
		{"beta +Inf", []float64{1}, []float64{inf}, 1, 0, "beta"},
		{"third class", []float64{1, 1, 1}, []float64{1.5, 1.2, 1.7}, 1, 2, "beta"},
	}
	intSlots := []struct {
		slots int
		field string
	}{{-1, "slots"}, {alloc.MaxTotal + 1, "slots"}, {math.MinInt, "slots"}, {math.MaxInt, "slots"}}

	type realFn = func([]float64, []float64, []float64, float64, *Workspace) ([]float64, error)
	type intFn = func([]int, []float64, []float64, int, *Workspace) ([]int, error)
	for _, fam := range []struct {
		real, intName string
		r             realFn
		i             intFn
		cases         []input
	}{
		{"stragglers.Allocate", "stragglers.AllocateSlots", Allocate, AllocateSlots, slices.Concat(common, allocateOnly)},
		{"stragglers.TwoClasses", "stragglers.TwoClassesSlots", TwoClasses, TwoClassesSlots, slices.Concat(common, twoOnly)},
	} {
		for _, tc := range slices.Concat(fam.cases, realOnly) {
			origR, origB := slices.Clone(tc.remaining), slices.Clone(tc.beta)
			dst := []float64{42, 42}
			got, err := fam.r(dst[:0], tc.remaining, tc.beta, tc.slots, nil)
			wantInputError(t, fam.real+", "+tc.name, fam.real, err, tc.index, tc.field)
			if got != nil || dst[0] != 42 || !slices.Equal(dst, []float64{42, 42}) {
				t.Errorf("%s, %s: result %v, dst %v", fam.real, tc.name, got, dst)
			}
			if d := gocmp.Diff(origR, tc.remaining, cmpopts.EquateNaNs()) + gocmp.Diff(origB, tc.beta, cmpopts.EquateNaNs()); d != "" {
				t.Errorf("%s, %s: inputs modified:\n%s", fam.real, tc.name, d)
			}
		}
		for _, tc := range fam.cases {
			dst := []int{42, 42}
			got, err := fam.i(dst[:0], tc.remaining, tc.beta, 1, nil)
			wantInputError(t, fam.intName+", "+tc.name, fam.intName, err, tc.index, tc.field)
			if got != nil || !slices.Equal(dst, []int{42, 42}) {
				t.Errorf("%s, %s: result %v, dst %v", fam.intName, tc.name, got, dst)
			}
		}
		for _, tc := range intSlots {
			_, err := fam.i(nil, []float64{1}, []float64{1.5}, tc.slots, nil)
			wantInputError(t, fam.intName+", slots", fam.intName, err, check.Scalar, tc.field)
		}
		// The inclusive bounds: slots = 2^53, Σ weights = MaxFloat64/2,
		// T_i = MaxFloat64/2, and S = MaxFloat64 are answered.
		if got, err := fam.i(nil, []float64{1, 3}, []float64{1.5, 1.5}, alloc.MaxTotal, nil); err != nil || got[0]+got[1] != alloc.MaxTotal {
			t.Errorf("%s at 2^53 slots: %v, %v", fam.intName, got, err)
		}
		if got, err := fam.r(nil, []float64{math.MaxFloat64 / 8, math.MaxFloat64 / 8}, []float64{1.25, 1.25}, math.MaxFloat64, nil); err != nil || got[0] != math.MaxFloat64/2 || got[1] != math.MaxFloat64/2 {
			t.Errorf("%s at Σw = MaxFloat64/2, S = MaxFloat64: %v, %v; want MaxFloat64/2 each", fam.real, got, err)
		}
	}
	if got, err := Allocate(nil, []float64{math.MaxFloat64 / 2}, []float64{3}, math.MaxFloat64, nil); err != nil || got[0] != math.MaxFloat64 {
		t.Errorf("Allocate, T = MaxFloat64/2 with β ≥ 2, S = MaxFloat64: %v, %v; want all of S", got, err)
	}
	// The weight bound counts only jobs with β < 2: T = 3/8·MaxFloat64 at
	// β = 2 beside T = MaxFloat64/12 at β = 1.25 (weight MaxFloat64/6) is
	// answered, though T + weight passes MaxFloat64/2. S = MaxFloat64 lies
	// past every breakpoint (1/6 + 3/8 of it): the β = 2 job holds its T,
	// the other gets the rest, 5/8·MaxFloat64.
	const m = math.MaxFloat64
	if got, err := Allocate(nil, []float64{m / 12, 3 * (m / 8)}, []float64{1.25, 2}, m, nil); err != nil ||
		!approx(got[0], 5*(m/8), 5*(m/8)) || !approx(got[1], 3*(m/8), 3*(m/8)) {
		t.Errorf("Allocate, weights of β < 2 at MaxFloat64/6 beside T = 3/8·MaxFloat64 at β = 2: %v, %v; want [5/8 3/8]·MaxFloat64", got, err)
	}
}

// TestSpeculateInputChecks: every check of Speculate's and
// SpeculateRunning's doc comments, with the task and field named, dst
// untouched, the inputs unmodified.
func TestSpeculateInputChecks(t *testing.T) {
	t.Parallel()
	ok := Speculation{Rule: MantriRule, NewCopy: 1, Beta: 1.5, Threshold: 0.5}
	policies := []struct {
		name  string
		p     func(Speculation) Speculation
		field string
	}{
		{"new copy 0", func(p Speculation) Speculation { p.NewCopy = 0; return p }, "NewCopy"},
		{"new copy −1", func(p Speculation) Speculation { p.NewCopy = -1; return p }, "NewCopy"},
		{"new copy NaN", func(p Speculation) Speculation { p.NewCopy = nan; return p }, "NewCopy"},
		{"new copy +Inf", func(p Speculation) Speculation { p.NewCopy = inf; return p }, "NewCopy"},
		{"beta 1", func(p Speculation) Speculation { p.Beta = 1; return p }, "Beta"},
		{"beta NaN", func(p Speculation) Speculation { p.Beta = nan; return p }, "Beta"},
		{"beta +Inf", func(p Speculation) Speculation { p.Beta = inf; return p }, "Beta"},
		{"threshold −0.1", func(p Speculation) Speculation { p.Threshold = -0.1; return p }, "Threshold"},
		{"threshold 1 + 2^−52", func(p Speculation) Speculation { p.Threshold = 1 + 0x1p-52; return p }, "Threshold"},
		{"threshold NaN", func(p Speculation) Speculation { p.Threshold = nan; return p }, "Threshold"},
		{"min elapsed −1", func(p Speculation) Speculation { p.MinElapsed = -1; return p }, "MinElapsed"},
		{"min elapsed NaN", func(p Speculation) Speculation { p.MinElapsed = nan; return p }, "MinElapsed"},
		{"min elapsed +Inf", func(p Speculation) Speculation { p.MinElapsed = inf; return p }, "MinElapsed"},
		{"Rule", func(p Speculation) Speculation { p.Rule = 2; return p }, "Rule"},
	}
	tasks := []Task{{State: Running, Copies: 1, Elapsed: 0, Remaining: 3}, {State: Unscheduled, Copies: 0, Elapsed: 0, Remaining: 0}}
	running := []RunningTask{{1, 0, 3}}
	for _, pc := range policies {
		dst := []Action{{Task: 42, Kind: Copy}}
		got, err := Speculate(dst[:0], tasks, 5, pc.p(ok), nil)
		wantInputError(t, "Speculate, "+pc.name, "stragglers.Speculate", err, check.Scalar, pc.field)
		if got != nil || dst[0] != (Action{Task: 42, Kind: Copy}) {
			t.Errorf("Speculate, %s: %v, dst %v", pc.name, got, dst)
		}
		dstR := []int{42}
		launch, copies, err := SpeculateRunning(dstR[:0], running, 1, 5, pc.p(ok), nil)
		wantInputError(t, "SpeculateRunning, "+pc.name, "stragglers.SpeculateRunning", err, check.Scalar, pc.field)
		if launch != 0 || copies != nil || dstR[0] != 42 {
			t.Errorf("SpeculateRunning, %s: %d, %v, dst %v", pc.name, launch, copies, dstR)
		}
	}
	for _, slots := range []int{-1, alloc.MaxTotal + 1, math.MinInt, math.MaxInt} {
		_, err := Speculate(nil, tasks, slots, ok, nil)
		wantInputError(t, "Speculate, slots", "stragglers.Speculate", err, check.Scalar, "slots")
		_, _, err = SpeculateRunning(nil, running, 1, slots, ok, nil)
		wantInputError(t, "SpeculateRunning, slots", "stragglers.SpeculateRunning", err, check.Scalar, "slots")
	}
	// The accepted bounds of the policy: δ = 0 and 1, MinElapsed = 0 and
	// MaxFloat64, β and t_new = MaxFloat64.
	for _, p := range []Speculation{
		{Rule: MantriRule, NewCopy: 1, Beta: 1.5, Threshold: 0}, {Rule: MantriRule, NewCopy: 1, Beta: 1.5, Threshold: 1},
		{NewCopy: 1, Beta: 1.5, MinElapsed: math.MaxFloat64}, {NewCopy: math.MaxFloat64, Beta: math.MaxFloat64},
	} {
		if _, err := Speculate(nil, tasks, 5, p, nil); err != nil {
			t.Errorf("Speculate, %+v: %v", p, err)
		}
	}
	for _, tc := range []struct {
		name  string
		task  Task
		field string
	}{
		{"state 3", Task{State: 3}, "State"},
		{"running, no copy", Task{State: Running}, "Copies"},
		{"running, −1 copies", Task{State: Running, Copies: -1}, "Copies"},
		{"running, 2^53 + 1 copies", Task{State: Running, Copies: alloc.MaxTotal + 1}, "Copies"},
		{"unscheduled with a copy", Task{State: Unscheduled, Copies: 1}, "Copies"},
		{"finished with a copy", Task{State: Finished, Copies: 1}, "Copies"},
		{"elapsed −1", Task{State: Running, Copies: 1, Elapsed: -1}, "Elapsed"},
		{"elapsed NaN", Task{State: Running, Copies: 1, Elapsed: nan}, "Elapsed"},
		{"elapsed +Inf", Task{State: Finished, Elapsed: inf}, "Elapsed"},
		{"remaining −5e-324", Task{State: Running, Copies: 1, Remaining: -5e-324}, "Remaining"},
		{"remaining NaN", Task{State: Unscheduled, Remaining: nan}, "Remaining"},
		{"remaining −Inf", Task{State: Running, Copies: 1, Remaining: ninf}, "Remaining"},
	} {
		// Valid tasks first, with times at both ends of the range.
		in := []Task{{State: Running, Copies: 2, Elapsed: 1, Remaining: 1}, {State: Finished, Copies: 0, Elapsed: 0, Remaining: 0}, {State: Running, Copies: 1, Elapsed: math.MaxFloat64, Remaining: math.MaxFloat64}, tc.task}
		orig := slices.Clone(in)
		dst := []Action{{Task: 42, Kind: Copy}}
		got, err := Speculate(dst[:0], in, 9, ok, nil)
		wantInputError(t, "Speculate, "+tc.name, "stragglers.Speculate", err, 3, tc.field)
		if got != nil || dst[0] != (Action{Task: 42, Kind: Copy}) {
			t.Errorf("Speculate, %s: %v, dst %v", tc.name, got, dst)
		}
		if d := gocmp.Diff(orig, in, cmpopts.EquateNaNs()); d != "" {
			t.Errorf("Speculate, %s: tasks modified:\n%s", tc.name, d)
		}
		if tc.task.State != Running || tc.field == "state" {
			continue
		}
		r := []RunningTask{{2, 1, 1}, {1, 0, 0}, {1, math.MaxFloat64, math.MaxFloat64}, {tc.task.Copies, tc.task.Elapsed, tc.task.Remaining}}
		dstR := []int{42}
		launch, copies, err := SpeculateRunning(dstR[:0], r, 0, 9, ok, nil)
		wantInputError(t, "SpeculateRunning, "+tc.name, "stragglers.SpeculateRunning", err, 3, tc.field)
		if launch != 0 || copies != nil || dstR[0] != 42 {
			t.Errorf("SpeculateRunning, %s: %d, %v, dst %v", tc.name, launch, copies, dstR)
		}
	}
}

// TestParetoFitAddInputChecks: a duration ≤ 0, NaN or ±Inf is rejected
// with the fit unchanged; a subnormal and MaxFloat64 are accepted.
func TestParetoFitAddInputChecks(t *testing.T) {
	t.Parallel()
	var f ParetoFit
	if err := f.Add(2); err != nil {
		t.Fatal(err)
	}
	before := f
	for _, x := range []float64{0, math.Copysign(0, -1), -1, nan, inf, ninf} {
		wantInputError(t, "Add", "stragglers.ParetoFit.Add", f.Add(x), check.Scalar, "duration")
		if f != before {
			t.Errorf("Add(%v) changed the fit: %+v → %+v", x, before, f)
		}
	}
	for _, x := range []float64{5e-324, math.MaxFloat64} {
		if err := f.Add(x); err != nil {
			t.Errorf("Add(%v): %v", x, err)
		}
	}
	if f.Count() != 3 {
		t.Errorf("Count = %d, want 3", f.Count())
	}
	_, _, err := (&ParetoFit{}).Fit()
	wantInputError(t, "Fit of none", "stragglers.ParetoFit.Fit", err, check.Scalar, "count")
	g := ParetoFit{}
	_ = g.Add(4)
	_, _, err = g.Fit()
	wantInputError(t, "Fit of one", "stragglers.ParetoFit.Fit", err, check.Scalar, "count")
	_ = g.Add(4)
	_, _, err = g.Fit()
	wantInputError(t, "Fit of equal", "stragglers.ParetoFit.Fit", err, check.Scalar, "durations")
}

// TestSpeculateExtremeTimes: times of 0 and MaxFloat64 are valid, also on
// SpeculateRunning's exact pass (forced here by a task with two copies
// under MantriRule): the task with t_rem = MaxFloat64 qualifies under
// either rule and is copied; the one with t_rem = 0 is not.
func TestSpeculateExtremeTimes(t *testing.T) {
	t.Parallel()
	for _, rule := range []Rule{ThesisRule, MantriRule} {
		p := Speculation{Rule: rule, NewCopy: 1, Beta: 1.5}
		running := []RunningTask{{2, 0, 0}, {1, math.MaxFloat64, math.MaxFloat64}, {1, 0, 0}}
		launch, copies, err := SpeculateRunning(nil, running, 0, 5, p, nil)
		if err != nil || launch != 0 || !slices.Equal(copies, []int{1}) {
			t.Errorf("%v: SpeculateRunning %d, %v, %v; want 0, [1]", rule, launch, copies, err)
		}
		got, err := Speculate(nil, []Task{{State: Running, Copies: 2, Elapsed: 0, Remaining: 0}, {State: Running, Copies: 1, Elapsed: math.MaxFloat64, Remaining: math.MaxFloat64}, {State: Running, Copies: 1, Elapsed: 0, Remaining: 0}}, 5, p, nil)
		if err != nil || !slices.Equal(got, []Action{{Task: 1, Kind: Copy}}) {
			t.Errorf("%v: Speculate %v, %v; want a copy of 1", rule, got, err)
		}
	}
}
