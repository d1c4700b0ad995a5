package volcano

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// anyFloat draws a float64 of any magnitude or class: the specials, values
// near the thresholds (1, the ε range's ends) and arbitrary floats.
func anyFloat(t *rapid.T, label string) float64 {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, -0.5, 1, math.Nextafter(1, 2), 1.5, 2, 1e-300, 1e300, -1e300, math.MaxFloat64}),
		rapid.Float64(),
		rapid.Float64Range(-2, 3),
	).Draw(t, label)
}

// anyInt draws an int of any magnitude: small values, both ends of the
// range and arbitrary ones.
func anyInt(t *rapid.T, label string) int {
	return rapid.OneOf(
		rapid.IntRange(-3, 40),
		rapid.SampledFrom([]int{math.MinInt, math.MaxInt, 1 << 53, 1<<53 + 1, -1 << 53}),
		rapid.Int(),
	).Draw(t, label)
}

// testDecideNoPanic: Decide on any input returns either an InputError of
// volcano.Decide naming the first bad field the test's own check finds
// (slots, betaRef, eps, then each job's Tasks and Beta) — or, on valid
// input, targets of the right length, none negative, summing to the slots
// when a job has tasks (else all 0), every job with tasks at or above the
// ε-fair floor; the jobs are never modified.
func testDecideNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 8).Draw(t, "n")
	jobs := make([]JobDemand, n)
	for i := range jobs {
		jobs[i] = JobDemand{Tasks: anyInt(t, "tasks"), Beta: anyFloat(t, "beta")}
	}
	slots := anyInt(t, "slots")
	betaRef, eps := anyFloat(t, "betaRef"), anyFloat(t, "eps")
	before := slices.Clone(jobs)
	var dec Decision
	err := Decide(&dec, jobs, slots, betaRef, eps, nil)
	if !slices.Equal(before, jobs) && !slices.EqualFunc(before, jobs, func(a, b JobDemand) bool {
		return a.Tasks == b.Tasks && (a.Beta == b.Beta || a.Beta != a.Beta && b.Beta != b.Beta)
	}) {
		t.Fatalf("Decide modified its jobs: %v → %v", before, jobs)
	}
	index, field := -1, ""
	good := func(b float64) bool { return b > 1 && !math.IsInf(b, 0) }
	switch {
	case slots < 0:
		field = "slots"
	case !good(betaRef):
		field = "betaRef"
	case !(eps >= 0 && eps <= 1):
		field = "eps"
	}
	for i := 0; field == "" && i < n; i++ {
		switch {
		case jobs[i].Tasks < 0:
			index, field = i, "Tasks"
		case !good(jobs[i].Beta):
			index, field = i, "Beta"
		}
	}
	var ie *specsched.InputError
	if field != "" {
		if !errors.As(err, &ie) || ie.Index != index || ie.Field != field {
			t.Fatalf("error %v, want an InputError on job %d field %s", err, index, field)
		}
		return
	}
	if err != nil {
		// Valid fields whose sizes the library cannot represent exactly
		// (a count or the slots past 2^53) may be refused, as an
		// InputError, never silently rounded.
		big := slots > 1<<53
		for _, j := range jobs {
			big = big || j.Tasks > 1<<53
		}
		if !big || !errors.As(err, &ie) {
			t.Fatalf("valid input refused: %v", err)
		}
		return
	}
	if len(dec.Targets) != n || len(dec.Virtual) != n {
		t.Fatalf("%d targets, %d virtual sizes for %d jobs", len(dec.Targets), len(dec.Virtual), n)
	}
	sum, active := 0, false
	for i, target := range dec.Targets {
		if target < 0 {
			t.Fatalf("job %d: target %d", i, target)
		}
		if jobs[i].Tasks > 0 {
			active = true
			if target < dec.Floor {
				t.Fatalf("job %d: target %d below the floor %d", i, target, dec.Floor)
			}
		} else if target != 0 {
			t.Fatalf("job %d has no tasks and target %d", i, target)
		}
		sum += target
	}
	if active && sum != slots || !active && sum != 0 {
		t.Fatalf("targets sum to %d on %d slots (a job with tasks: %v)", sum, slots, active)
	}
}

func TestDecideNoPanic(t *testing.T) { rapid.Check(t, testDecideNoPanic) }

func FuzzDecide(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testDecideNoPanic)) }

// testNewNoPanic: New with any value of any type under each argument key
// builds a plug-in whose settings are in range — ε in [0, 1], β finite and
// > 1, minFitSamples ≥ 2 — and equal to the value given when it is a
// number in range (as float64, int or a decimal string), else the default.
func testNewNoPanic(t *rapid.T) {
	args := map[string]any{}
	want := map[string]float64{ArgEpsilon: DefaultEpsilon, ArgBeta: DefaultBeta, ArgMinFitSamples: DefaultMinFitSamples}
	inRange := map[string]func(float64) bool{
		ArgEpsilon:       func(v float64) bool { return v >= 0 && v <= 1 },
		ArgBeta:          func(v float64) bool { return v > 1 && !math.IsInf(v, 0) },
		ArgMinFitSamples: func(v float64) bool { return v >= 2 && v <= math.MaxInt32 && v == math.Trunc(v) },
	}
	for _, key := range []string{ArgEpsilon, ArgBeta, ArgMinFitSamples} {
		var v float64
		switch kind := rapid.IntRange(0, 4).Draw(t, "kind"); kind {
		case 0:
			continue
		case 1:
			v = anyFloat(t, "float")
			args[key] = v
		case 2:
			i := rapid.IntRange(-5, 50).Draw(t, "int")
			v = float64(i)
			args[key] = i
		case 3:
			v = rapid.SampledFrom([]float64{0, 0.25, 1, 1.2, 3, 20, -1, math.NaN()}).Draw(t, "string")
			args[key] = " " + strconv.FormatFloat(v, 'g', -1, 64) + " "
		default:
			args[key] = rapid.SampledFrom([]any{nil, true, "fast", []int{1}, map[string]int{}}).Draw(t, "other")
			continue
		}
		if inRange[key](v) {
			want[key] = v
		}
	}
	p := newPlugin(args, func(string, ...any) {})
	got := map[string]float64{ArgEpsilon: p.eps, ArgBeta: p.beta, ArgMinFitSamples: float64(p.minFitSamples)}
	for key, w := range want {
		if got[key] != w {
			t.Fatalf("%s: %v from arguments %v, want %v", key, got[key], args, w)
		}
	}
}

func TestNewNoPanic(t *testing.T) { rapid.Check(t, testNewNoPanic) }

func FuzzNew(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testNewNoPanic)) }

// FuzzSession reuses the session properties: any generated session through
// OnSessionOpen and the allocate action.
func FuzzSession(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		if rapid.Bool().Draw(t, "running") {
			testRunningSessions(t)
		} else {
			testPendingSessions(t)
		}
	}))
}
