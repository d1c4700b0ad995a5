package stragglers

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// TestMantriSubnormalNewCopy is issue 17's reproducer: under MantriRule a
// subnormal t_new made x_m = t_new·(β−1)/β underflow to 0, the δ = 1
// quantile 0·∞ = NaN, and Speculate (comparing IEEE bits, where a NaN with
// its sign bit set is "larger" than every time) copied a task that
// SpeculateRunning did not. δ = 1 allows no copy at all: P(t_new < y) > 1
// never holds.
func TestMantriSubnormalNewCopy(t *testing.T) {
	t.Parallel()
	p := Speculation{Rule: MantriRule, NewCopy: 5e-324, Beta: 1.5, Threshold: 1}
	for _, copies := range []int{1, 3} {
		got, err := Speculate(nil, []Task{{State: Running, Copies: copies, Remaining: 0.5}}, 11, p, nil)
		if err != nil || len(got) != 0 {
			t.Errorf("Speculate, %d copies, δ = 1: %v, %v; want no action", copies, got, err)
		}
		launch, copied, err := SpeculateRunning(nil, []RunningTask{{copies, 0, 0.5}}, 0, 11, p, nil)
		if err != nil || launch != 0 || len(copied) != 0 {
			t.Errorf("SpeculateRunning, %d copies, δ = 1: %d, %v, %v; want no action", copies, launch, copied, err)
		}
	}
	// δ < 1 with a subnormal t_new, by hand: t_new = 4·2^−1074 and β = 2
	// give x_m = t_new/2 = 2·2^−1074, and δ = 0 the quantile x_m itself. A
	// single copy qualifies when t_rem/2 > x_m: t_rem = 5·2^−1074 does,
	// 4·2^−1074 does not; three copies when (3/4)·t_rem > x_m: t_rem = 0.5
	// does, and so does any normal t_rem.
	const tiny = 0x1p-1074
	p = Speculation{Rule: MantriRule, NewCopy: 4 * tiny, Beta: 2}
	for _, tc := range []struct {
		copies int
		rem    float64
		copy   bool
	}{
		{1, 4 * tiny, false}, {1, 5 * tiny, true}, {1, 0.5, true}, {3, 0.5, true}, {3, 2 * tiny, false}, {3, 0, false},
	} {
		got, err := Speculate(nil, []Task{{State: Running, Copies: tc.copies, Remaining: tc.rem}}, tc.copies+1, p, nil)
		if err != nil || (len(got) == 1) != tc.copy {
			t.Errorf("Speculate, c = %d, t_rem = %v: %v, %v; want copy %v", tc.copies, tc.rem, got, err, tc.copy)
		}
		_, copied, err := SpeculateRunning(nil, []RunningTask{{tc.copies, 0, tc.rem}}, 0, tc.copies+1, p, nil)
		if err != nil || (len(copied) == 1) != tc.copy {
			t.Errorf("SpeculateRunning, c = %d, t_rem = %v: %v, %v; want copy %v", tc.copies, tc.rem, copied, err, tc.copy)
		}
	}
}

// logMantriMargin is MantriRule's test written in logarithms, independent
// of the code's arithmetic and free of overflow and underflow at every
// magnitude: ln(c/(c+1)·t_rem) − ln(quantile), with the quantile
// x_m·(1−δ)^(−1/β), x_m = t_new·(β−1)/β; eligible iff > 0. It also returns
// the relative resolution of the two sides (the spacing of float64 near
// each, large for subnormals), within which the decision is rounding.
func logMantriMargin(copies int, rem float64, p Speculation) (margin, resolution float64) {
	c := float64(copies)
	lhs := ln(rem) + math.Log(c) - math.Log(c+1)
	rhs := ln(p.NewCopy) + math.Log(p.Beta-1) - math.Log(p.Beta) - math.Log1p(-p.Threshold)/p.Beta
	const tinyLog = -744.4400719213812 // ln 2^−1074
	resolution = math.Exp(tinyLog+2-min(lhs, rhs)) + 1e-12
	return lhs - rhs, resolution
}

// ln is the natural logarithm of a positive finite x, subnormals included
// (math.Log on amd64 misreads a subnormal's exponent).
func ln(x float64) float64 {
	frac, exp := math.Frexp(x)
	return math.Log(frac) + float64(exp)*math.Ln2
}

// policyMagnitude draws a valid policy over float64's whole range: t_new
// from subnormal to MaxFloat64, β from 1 + 2^−52 to MaxFloat64, δ at 0, 1
// and next to them, MinElapsed anywhere or −0.
func policyMagnitude(t *rapid.T) Speculation {
	return Speculation{
		Rule: Rule(rapid.IntRange(0, 1).Draw(t, "rule")),
		NewCopy: rapid.OneOf(
			testutil.PositiveMagnitude(),
			rapid.SampledFrom([]float64{5e-324, 0x1p-1073, 3e-323, 0x1p-1022, 1, math.MaxFloat64}),
		).Draw(t, "new copy"),
		Beta: rapid.OneOf(
			rapid.SampledFrom([]float64{1 + 0x1p-52, 1 + 1e-9, 1.5, 2, 3, 1e300, math.MaxFloat64}),
			testutil.Magnitude().Filter(func(b float64) bool { return b > 1 }),
			rapid.Float64Range(1, 2.5).Filter(func(b float64) bool { return b > 1 }),
		).Draw(t, "beta"),
		Threshold: rapid.OneOf(
			rapid.SampledFrom([]float64{0, 1, 5e-324, 1 - 0x1p-53, 0x1p-53, DefaultMantriThreshold}),
			rapid.Float64Range(0, 1),
		).Draw(t, "threshold"),
		MinElapsed: rapid.OneOf(rapid.Just(math.Copysign(0, -1)), rapid.Just(0.0), testutil.Magnitude()).Draw(t, "min elapsed"),
	}
}

// timeMagnitude draws a task time over float64's whole range, or −0.
func timeMagnitude(t *rapid.T, label string) float64 {
	return rapid.OneOf(testutil.Magnitude(), rapid.Just(math.Copysign(0, -1))).Draw(t, label)
}

// testSpeculateMagnitudeOneTask: one running task and one free slot, so
// that the task is copied exactly when the rule holds. Across float64's
// range the decision agrees with the rule in logarithms wherever that is
// clear of rounding, and Speculate and SpeculateRunning agree always.
func testSpeculateMagnitudeOneTask(t *rapid.T) {
	p := policyMagnitude(t)
	copies := rapid.SampledFrom([]int{1, 2, 3, 7, 1<<31 - 1, 1 << 31, 1<<31 + 1, alloc.MaxTotal - 1}).Draw(t, "copies")
	task := RunningTask{Copies: copies, Elapsed: timeMagnitude(t, "elapsed"), Remaining: timeMagnitude(t, "remaining")}
	got, err := Speculate(nil, []Task{{State: Running, Copies: task.Copies, Elapsed: task.Elapsed, Remaining: task.Remaining}}, copies+1, p, nil)
	if err != nil {
		t.Fatalf("Speculate: %v", err)
	}
	launch, copied, err := SpeculateRunning(nil, []RunningTask{task}, 0, copies+1, p, nil)
	if err != nil {
		t.Fatalf("SpeculateRunning: %v", err)
	}
	copiedS, copiedR := len(got) == 1, len(copied) == 1
	if launch != 0 || len(got) > 1 || len(copied) > 1 || copiedS != copiedR {
		t.Fatalf("Speculate %v, SpeculateRunning %d, %v", got, launch, copied)
	}
	want := task.Elapsed >= p.MinElapsed
	switch p.Rule {
	case ThesisRule:
		want = want && task.Remaining > p.NewCopy // exact
	case MantriRule:
		if task.Remaining == 0 || p.Threshold == 1 {
			want = false
			break
		}
		margin, resolution := logMantriMargin(copies, task.Remaining, p)
		if math.Abs(margin) <= resolution {
			return // rounding decides
		}
		want = want && margin > 0
	}
	if copiedS != want {
		t.Fatalf("copied %v, want %v", copiedS, want)
	}
}

func TestSpeculateMagnitudeOneTask(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateMagnitudeOneTask)
}

// testSpeculateRunningMagnitude is the differential property of
// SpeculateRunning and Speculate over the Magnitude class: times from
// subnormal to MaxFloat64 and −0, t_new and MinElapsed likewise, δ at 0
// and 1, copies up to and beyond 2^31 and at 2^53 (and, rarely, an invalid
// count), slots near 2^53. Both make the same decision, or both reject the
// same task's field.
func testSpeculateRunningMagnitude(t *rapid.T) {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	tasks := make([]Task, n)
	for i := range tasks {
		st := TaskState(rapid.IntRange(0, 2).Draw(t, "state"))
		tasks[i] = Task{State: st}
		if st == Running {
			tasks[i].Copies = rapid.OneOf(
				rapid.IntRange(1, 3),
				rapid.SampledFrom([]int{1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 + 1, alloc.MaxTotal - 1, alloc.MaxTotal}),
				rapid.SampledFrom([]int{0, alloc.MaxTotal + 1}),
			).Draw(t, "copies")
			tasks[i].Elapsed = timeMagnitude(t, "elapsed")
			tasks[i].Remaining = timeMagnitude(t, "remaining")
		}
	}
	busy := 0
	for _, task := range tasks {
		busy = min(busy+task.Copies, alloc.MaxTotal)
	}
	running, from, unscheduled := runningView(tasks)
	// Several policies per job: the rare combinations (a subnormal t_new
	// with δ = 1 under MantriRule) come up within the default checks.
	for range 8 {
		p := policyMagnitude(t)
		slots := rapid.OneOf(
			rapid.IntRange(busy, min(busy+2*n+2, alloc.MaxTotal)),
			testutil.NearMaxCount(),
			rapid.IntRange(0, 30),
		).Draw(t, "slots")
		want, errS := Speculate(nil, tasks, slots, p, nil)
		launch, copies, errR := SpeculateRunning(nil, running, unscheduled, slots, p, nil)
		if errS != nil || errR != nil {
			var is, ir *specsched.InputError
			if !errors.As(errS, &is) || !errors.As(errR, &ir) || is.Field != ir.Field || (ir.Index >= 0) != (is.Index >= 0) || (ir.Index >= 0 && from[ir.Index] != is.Index) {
				t.Fatalf("Speculate: %v\nSpeculateRunning: %v", errS, errR)
			}
			continue
		}
		var got []Action
		for i, task := range tasks {
			if task.State == Unscheduled && launch > 0 {
				got = append(got, Action{Task: i, Kind: Launch})
				launch--
			}
		}
		for _, k := range copies {
			got = append(got, Action{Task: from[k], Kind: Copy})
		}
		if launch != 0 || !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("%+v, %d slots: SpeculateRunning gives %v (%d launches left)\nSpeculate gives        %v", p, slots, got, launch, want)
		}
	}
}

func TestSpeculateRunningMagnitude(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateRunningMagnitude)
}

// withinSlot reports whether an integer share x lies within one slot of
// the real-valued share real, which float64 holds to a few of its ulps (an
// ulp is 1 between 2^52 and 2^53: there the real shares are integers
// themselves and may sum to S ± 1).
func withinSlot(x int, real float64) bool {
	ulp := math.Nextafter(real, math.Inf(1)) - real
	return math.Abs(float64(x)-real) < 1+4*ulp
}

// TestSlotsNearMaxCount is issue 17's overshoot near 2^53: shares ≥ 2^52
// round to integers in float64, the floors summed past the total and the
// apportionment returned early, Σ = slots + 1. By hand: T = (4, 1), one
// class β = 1.5 and S = 2^53 − 3 = 9007199254740989 lies far past the
// virtual sizes, so the shares are 4S/5 = 7205759403792791 + 1/5 and S/5 =
// 1801439850948197 + 4/5, and the last slot goes to the larger remainder,
// job 1. TwoClassesSlots on T = (3, 1), β = (1.5, 1.3) at 2^53 − 2 must sum
// to S, each job within a slot of TwoClasses' share.
func TestSlotsNearMaxCount(t *testing.T) {
	t.Parallel()
	got, err := AllocateSlots(nil, []float64{4, 1}, []float64{1.5, 1.5}, 1<<53-3, nil)
	if want := []int{7205759403792791, 1801439850948198}; err != nil || !slices.Equal(got, want) {
		t.Errorf("AllocateSlots = %v, %v; want %v", got, err, want)
	}
	remaining, beta := []float64{3, 1}, []float64{1.5, 1.3}
	const slots = 1<<53 - 2
	got, err = TwoClassesSlots(nil, remaining, beta, slots, nil)
	real, errReal := TwoClasses(nil, remaining, beta, slots, nil)
	if err != nil || errReal != nil || got[0]+got[1] != slots || !withinSlot(got[0], real[0]) || !withinSlot(got[1], real[1]) {
		t.Errorf("TwoClassesSlots = %v, %v; want Σ = %d within a slot of %v (%v)", got, err, slots, real, errReal)
	}
}

// proportionalShares is S·w_i/Σw with w = T/√(β−1), in math/big: the
// shares once S lies past every job's virtual size, every β < 2.
func proportionalShares(remaining, beta []float64, slots float64) []float64 {
	w := make([]*big.Float, len(remaining))
	sum := new(big.Float).SetPrec(200)
	for i := range w {
		root := new(big.Float).SetPrec(200).Sqrt(new(big.Float).SetPrec(200).Sub(big.NewFloat(beta[i]), big.NewFloat(1)))
		w[i] = new(big.Float).SetPrec(200).Quo(big.NewFloat(remaining[i]), root)
		sum.Add(sum, w[i])
	}
	shares := make([]float64, len(w))
	for i := range shares {
		share := new(big.Float).SetPrec(200).Quo(w[i], sum)
		shares[i], _ = share.Mul(share, big.NewFloat(slots)).Float64()
	}
	return shares
}

// TestProportionalShareUnderflow: a job whose weight T/√(β−1) is 1e-600 of
// the total got 0 of S = 1e301 slots, though its share, about 7e-300, is a
// normal float64: w/W underflowed before the product with S. And jobs
// whose T are subnormal had subnormal weights, rounded to a few digits:
// T = (2^−1073, 2^−1074), β = (1.25, 1.5) split S = 1 as 4 : 1 instead of
// 4 : √2. In both, S lies past both virtual sizes, so the shares are
// S·w_i/(w_0 + w_1).
func TestProportionalShareUnderflow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		remaining []float64
		slots     float64
	}{
		{[]float64{1e300, 1e-300}, 1e301},
		{[]float64{0x1p-1073, 0x1p-1074}, 1},
		{[]float64{0x1p-1073, 0x1p-1074}, 0x1p-1000},
	} {
		beta := []float64{1.25, 1.5}
		want := proportionalShares(tc.remaining, beta, tc.slots)
		for name, f := range map[string]func([]float64, []float64, []float64, float64, *Workspace) ([]float64, error){
			"Allocate": Allocate, "TwoClasses": TwoClasses,
		} {
			got, err := f(nil, tc.remaining, beta, tc.slots, nil)
			if err != nil || math.Abs(got[0]-want[0]) > 1e-15*want[0] || math.Abs(got[1]-want[1]) > 1e-15*want[1] {
				t.Errorf("%s(%v, S = %v) = %v, %v; want %v", name, tc.remaining, tc.slots, got, err, want)
			}
		}
	}
}

// TestTwoClassesWeightsOverflow: each class's ΣT/√(β−1) was checked
// alone, so two classes of 0.6·MaxFloat64 each were accepted and case 3
// divided by w_I + w_II = +Inf: every job got 0 slots, with a nil error.
// The bound is now Allocate's, ΣT_i/√(β_i−1) ≤ MaxFloat64/2, and the job
// at which the sum passes it is named.
func TestTwoClassesWeightsOverflow(t *testing.T) {
	t.Parallel()
	beta := []float64{1 + 0x1p-52, 1 + 0x1p-50} // √(β−1) = 2^−26, 2^−25
	fns := map[string]func([]float64, []float64, []float64, float64, *Workspace) ([]float64, error){
		"Allocate": Allocate, "TwoClasses": TwoClasses,
		"TwoClassesSlots": func(_, remaining, beta []float64, _ float64, _ *Workspace) ([]float64, error) {
			got, err := TwoClassesSlots(nil, remaining, beta, 1<<53, nil)
			return []float64{float64(len(got))}, err
		},
	}
	for _, tc := range []struct {
		weights float64 // of each class, relative to MaxFloat64
		index   int
	}{{0.6, 0}, {0.3, 1}} {
		remaining := []float64{tc.weights * math.MaxFloat64 * 0x1p-26, tc.weights * math.MaxFloat64 * 0x1p-25}
		for name, f := range fns {
			got, err := f(nil, remaining, beta, 1e305, nil)
			var ie *specsched.InputError
			if !errors.As(err, &ie) || ie.Index != tc.index || ie.Field != "remaining" {
				t.Errorf("%s, weights %v·MaxFloat64 each: %v, %v; want job %d's remaining rejected", name, tc.weights, got, err, tc.index)
			}
		}
	}
	// At the bound itself: accepted, finite, Σ = S.
	remaining := []float64{math.MaxFloat64 / 4 * 0x1p-26, math.MaxFloat64 / 4 * 0x1p-25}
	for name, f := range fns {
		if name == "TwoClassesSlots" {
			continue
		}
		got, err := f(nil, remaining, beta, 1e305, nil)
		if err != nil || !(got[0] > 0 && got[1] > 0) || math.Abs(got[0]+got[1]-1e305) > 1e-14*1e305 {
			t.Errorf("%s at Σw = MaxFloat64/2: %v, %v; want a finite split of 1e305", name, got, err)
		}
	}
}

// magnitudeSnapshot draws remaining tasks over float64's whole range
// (testutil.Magnitudes: subnormals, 1e±300, MaxFloat64, exact ties) with β
// from a pool of up to classes values — 1 + 2^−52 to MaxFloat64, or in
// (1, 2) only when twoClasses — and S = slots likewise.
func magnitudeSnapshot(t *rapid.T, classes int, below2 bool) (snapshot, float64) {
	remaining := testutil.Magnitudes(0, 10).Draw(t, "remaining")
	betaGen := rapid.OneOf(
		rapid.SampledFrom([]float64{1 + 0x1p-52, 1 + 1e-9, 1.25, 1.5, 1.99, 2, 3, 1e300, math.MaxFloat64}),
		testutil.Magnitude().Filter(func(b float64) bool { return b > 1 }),
	)
	if below2 {
		betaGen = rapid.OneOf(
			rapid.SampledFrom([]float64{1 + 0x1p-52, 1 + 1e-9, 1.25, 1.5, 2 - 0x1p-52}),
			rapid.Float64Range(1, 2).Filter(func(b float64) bool { return b > 1 && b < 2 }),
		)
	}
	pool := make([]float64, rapid.IntRange(1, classes).Draw(t, "classes"))
	for k := range pool {
		pool[k] = betaGen.Draw(t, "class beta")
	}
	beta := make([]float64, len(remaining))
	for i := range beta {
		beta[i] = pool[rapid.IntRange(0, len(pool)-1).Draw(t, "class")]
	}
	return snapshot{remaining: remaining, beta: beta}, testutil.Magnitude().Draw(t, "slots")
}

// overBound reports whether ΣT_i or ΣT_i/√(β_i−1) (β_i < 2), summed in
// index order, passes MaxFloat64/2 — the documented reason to reject.
func overBound(s snapshot) bool {
	var sumT, sumW float64
	for i, t := range s.remaining {
		sumT += t
		if s.beta[i] < 2 {
			sumW += t / math.Sqrt(s.beta[i]-1)
		}
		if sumT > math.MaxFloat64/2 || sumW > math.MaxFloat64/2 {
			return true
		}
	}
	return false
}

// closeShares compares allocations to S's precision: relative 1e-9 of S,
// and a few of the smallest subnormals (unit) for shares at the bottom of
// the range.
func closeShares(got, want []float64, slots, unit float64) bool {
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= 1e-9*slots+16*unit) {
			return false
		}
	}
	return true
}

// checkRealAllocation checks a real-valued allocation's documented
// invariants: finite and ≥ 0 (never −0), 0 for T_i = 0, all 0 for S = 0 or
// no work, and ΣS_i = S to S's precision.
func checkRealAllocation(t *rapid.T, name string, got, remaining []float64, slots float64) {
	var sum, work float64 // halved: the shares of S = MaxFloat64 may sum past it by rounding
	for i, x := range got {
		if !(x >= 0 && x <= math.MaxFloat64) || math.Signbit(x) {
			t.Fatalf("%s: job %d gets %v", name, i, x)
		}
		if remaining[i] == 0 && x != 0 {
			t.Fatalf("%s: job %d without work gets %v", name, i, x)
		}
		sum += x / 2
		work += remaining[i] / 2
	}
	want := slots / 2
	if work == 0 && !slices.ContainsFunc(remaining, func(t float64) bool { return t > 0 }) {
		want = 0
	}
	if !(math.Abs(sum-want) <= 1e-12*want+16*0x1p-1074*float64(len(got))) {
		t.Fatalf("%s: Σ = %v, want %v: %v", name, sum, want, got)
	}
}

// testAllocateMagnitude: over float64's whole range Allocate answers —
// finite, ΣS_i = S — unless a sum passes its documented bound; it is
// invariant under rescaling T and S by a power of two that keeps every
// value exact; and for two classes below β = 2 it is TwoClasses.
func testAllocateMagnitude(t *rapid.T) {
	s, slots := magnitudeSnapshot(t, 4, false)
	got, err := Allocate(nil, s.remaining, s.beta, slots, nil)
	if overBound(s) {
		wantRapidError(t, "stragglers.Allocate", err, "remaining")
		return
	}
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	checkRealAllocation(t, "Allocate", got, s.remaining, slots)
	k := rapid.IntRange(-1100, 1100).Draw(t, "scale exponent")
	scaled, scaledSlots, ok := rescale(s.remaining, slots, k)
	if ok && !overBound(snapshot{scaled, s.beta}) {
		again, err := Allocate(nil, scaled, s.beta, scaledSlots, nil)
		if err != nil {
			t.Fatalf("Allocate, rescaled by 2^%d: %v", k, err)
		}
		for i := range again {
			again[i] = math.Ldexp(again[i], -k)
		}
		if !closeShares(again, got, slots, math.Ldexp(0x1p-1074, max(0, -k))) {
			t.Fatalf("rescaled by 2^%d: %v\nunscaled: %v", k, again, got)
		}
	}
}

// rescale multiplies remaining and slots by 2^k and reports whether every
// value stays exact (no bit lost to underflow, nothing past MaxFloat64).
func rescale(remaining []float64, slots float64, k int) ([]float64, float64, bool) {
	exact := func(x float64) (float64, bool) {
		y := math.Ldexp(x, k)
		return y, y <= math.MaxFloat64 && math.Ldexp(y, -k) == x
	}
	out := make([]float64, len(remaining))
	for i, x := range remaining {
		y, ok := exact(x)
		if !ok {
			return nil, 0, false
		}
		out[i] = y
	}
	s, ok := exact(slots)
	return out, s, ok
}

// wantRapidError checks that err is fn's *InputError on field.
func wantRapidError(t *rapid.T, fn string, err error, field string) {
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn || ie.Field != field || ie.Index < 0 {
		t.Fatalf("%v; want %s's InputError on a job's %s", err, fn, field)
	}
}

func TestAllocateMagnitude(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateMagnitude)
}

// testTwoClassesMagnitude: TwoClasses over float64's whole range answers
// as Allocate does (its generalisation, written differently), rejects
// what Allocate rejects, and is invariant under exact rescaling.
func testTwoClassesMagnitude(t *rapid.T) {
	s, slots := magnitudeSnapshot(t, 2, true)
	got, err := TwoClasses(nil, s.remaining, s.beta, slots, nil)
	want, errA := Allocate(nil, s.remaining, s.beta, slots, nil)
	if errA != nil {
		wantRapidError(t, "stragglers.TwoClasses", err, "remaining")
		return
	}
	if err != nil {
		t.Fatalf("TwoClasses: %v", err)
	}
	checkRealAllocation(t, "TwoClasses", got, s.remaining, slots)
	if !closeShares(got, want, slots, 0x1p-1074) {
		t.Fatalf("TwoClasses %v\nAllocate   %v", got, want)
	}
	k := rapid.IntRange(-1100, 1100).Draw(t, "scale exponent")
	if scaled, scaledSlots, ok := rescale(s.remaining, slots, k); ok && !overBound(snapshot{scaled, s.beta}) {
		again, err := TwoClasses(nil, scaled, s.beta, scaledSlots, nil)
		if err != nil {
			t.Fatalf("TwoClasses, rescaled by 2^%d: %v", k, err)
		}
		for i := range again {
			again[i] = math.Ldexp(again[i], -k)
		}
		if !closeShares(again, got, slots, math.Ldexp(0x1p-1074, max(0, -k))) {
			t.Fatalf("rescaled by 2^%d: %v\nunscaled: %v", k, again, got)
		}
	}
}

func TestTwoClassesMagnitude(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTwoClassesMagnitude)
}

// testSlotsMagnitude: the integer forms over the Magnitude class of T_i
// and slots up to 2^53 (NearMaxCount among them) sum to exactly slots
// when some job has work (0 otherwise), each job within a slot of its
// real-valued share and 0 for a share of 0; or both forms reject the
// snapshot as the real-valued form does.
func testSlotsMagnitude(t *rapid.T) {
	two := rapid.Bool().Draw(t, "two classes")
	classes := 4
	if two {
		classes = 2
	}
	s, _ := magnitudeSnapshot(t, classes, two)
	slots := rapid.OneOf(rapid.IntRange(0, 100), testutil.NearMaxCount(), rapid.IntRange(0, alloc.MaxTotal)).Draw(t, "slots")
	name, real, ints := "AllocateSlots", Allocate, AllocateSlots
	if two {
		name, real, ints = "TwoClassesSlots", TwoClasses, TwoClassesSlots
	}
	want, errReal := real(nil, s.remaining, s.beta, float64(slots), nil)
	got, err := ints(nil, s.remaining, s.beta, slots, nil)
	if errReal != nil {
		wantRapidError(t, "stragglers."+name, err, "remaining")
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Near 2^53 float64 spaces integers 1 apart, so the real-valued
	// shares carry rounding errors of a few slots, and sum to S only to
	// within them; the apportionment hands out (or takes back) that
	// deficit as well.
	exact := new(big.Float).SetPrec(2200)
	for _, x := range want {
		exact.Add(exact, big.NewFloat(x))
	}
	deficit, _ := exact.Sub(exact, new(big.Float).SetInt64(int64(slots))).Float64()
	sum, work := 0, false
	for i, x := range got {
		sum += x
		work = work || s.remaining[i] > 0
		if x < 0 || !(withinSlot(x, want[i]) || math.Abs(float64(x)-want[i]) < 1+math.Abs(deficit)) || (want[i] == 0 && x != 0) {
			t.Fatalf("%s: job %d gets %d, real share %v (Σ real − S = %v)", name, i, x, want[i], deficit)
		}
	}
	if !work {
		slots = 0
	}
	if sum != slots {
		t.Fatalf("%s: Σ = %d, want %d: %v", name, sum, slots, got)
	}
}

func TestSlotsMagnitude(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSlotsMagnitude)
}
