package overlap

import (
	"errors"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched"
)

// Regression tests for the reproducers of issues 11 and 17 and the tests
// those issues require. Expected values are derived by hand from the
// policies' definitions (paper 004, §4.1 Algorithm 1 and §4.2 Algorithm 2,
// and the package's documented tie-break), never copied from the code.

// TestRatesExtremeImbalance (issue 17): a job of sizes (1e-300, 1e300) has
// imbalance β = 1e600, beyond float64. SplitSRPTStrict gave {0 NaN}:
// μ₁ = 1/(1+β) underflowed to 0 and the limit (y/x)·μ₁·s was +Inf·0.
//
// Exactly: the job is shuffle-heavy; SplitSRPTStrict gives its class map
// capacity μ₁·s = 1e-600 (rounds to 0) and shuffle capacity
// μ₂·s = β/(1+β) = 1 − 1e-600 (rounds to 1), and its shuffle may run at
// (y/x)·μ₁·s = 1e600/(1+1e600) = μ₂ (rounds to 1): {0, 1}. Every other
// policy gives a lone job the whole map station (SplitSRPT too: the
// map-heavy class has no map job, so its map capacity moves over) and a
// shuffle limit (y/x)·s = 1e600·s, capped by the station: {1, 1}.
//
// The second snapshot ("SplitSRPT too, at mixed scales") adds a map-heavy
// job of sizes (1e300, 1e-300): β is still 1e600 (both jobs), both classes
// have a map job, so neither shares: map-heavy job {μ₂·s, (y/x)·μ₂·s} =
// {1, 1e-600}, shuffle-heavy job {μ₁·s, min(μ₂·s, (y/x)·μ₁·s)} = {1e-600,
// 1}; the shared second pass leaves them (the map-heavy job can take no
// more, the other class's capacity is used up). Rounded: [{1 0} {0 1}].
func TestRatesExtremeImbalance(t *testing.T) {
	t.Parallel()
	lone := []Job{{Map: 1e-300, Shuffle: 1e300, RemainingMap: 1e-300, RemainingShuffle: 1e300}}
	for _, k := range allAlgorithms {
		want := []Rate{{Map: 1, Shuffle: 1}}
		if k == SplitSRPTStrict {
			want = []Rate{{Map: 0, Shuffle: 1}}
		}
		got, err := Rates(nil, lone, 1, Discipline{Algorithm: k}, nil)
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("%v: Rates(%+v) = %v, %v; want %v", k, lone, got, err, want)
		}
	}
	pair := []Job{
		{Map: 1e300, Shuffle: 1e-300, RemainingMap: 1e300, RemainingShuffle: 1e-300},
		{Map: 1e-300, Shuffle: 1e300, RemainingMap: 1e-300, RemainingShuffle: 1e300},
	}
	for _, k := range []Algorithm{SplitSRPT, SplitSRPTStrict} {
		want := []Rate{{Map: 1, Shuffle: 0}, {Map: 0, Shuffle: 1}}
		got, err := Rates(nil, pair, 1, Discipline{Algorithm: k}, nil)
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("%v: Rates(%+v) = %v, %v; want %v", k, pair, got, err, want)
		}
	}
}

// TestSimulateMixedScales (issue 17): jobs A = (1e-300, 1e200) and
// B = (1, 1) at time 0, speed 1, stalled every policy ("simulation stalled
// (internal error)": A's y/x = 1e500 overflowed and its drift became NaN).
//
// By hand: MaxSRPT (either shuffle variant) serves B first (key 1 < 1e200):
// B's map runs at 1 and its shuffle keeps pace ((y/x)·1 = 1, the whole
// station), so B leaves at 1; then A's map (1e-300) and its shuffle at 1
// (its limit 1e500 is capped), leaving at 1 + 1e200: responses [1e200, 1].
// FIFO serves A first (index order on a tie of arrival): A takes the whole
// shuffle station until 1e200 (+1e-300); B's map runs meanwhile but its
// shuffle only after, so B leaves at ≈ 1e200 + 1: [1e200, 1e200]. k-LPS
// shares the map station; A's map is done at 2e-300; then B's map runs at
// 1 and the shuffle station is shared equally (B's limit 1 > 1/2), so B
// has done 1/2 of its shuffle at t = 1 and the rest at 1/2 by t = 2:
// [1e200, 2]. The SplitSRPT kinds need A's imbalance 1e500 ≤ 2^1000: A is
// refused with an InputError on job 0's shuffle size (documented range).
//
// And a lone job of map work 1e-300 arriving at 1e-150 had response time 0
// (1e-150 + 1e-300 rounds to 1e-150); it is 1e-300 under every policy.
func TestSimulateMixedScales(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 1e-300, Shuffle: 1e200}, {Time: 0, Map: 1, Shuffle: 1}}
	want := map[Algorithm][]float64{
		MaxSRPT:       {1e200, 1},
		MaxSRPTStrict: {1e200, 1},
		FIFO:          {1e200, 1e200},
		KLPS:          {1e200, 2},
	}
	for _, k := range allAlgorithms {
		got, err := Simulate(nil, jobs, 1, Discipline{Algorithm: k}, nil)
		if w, ok := want[k]; ok {
			if err != nil || len(got) != 2 || math.Abs(got[0]-w[0]) > 1e-12*w[0] || math.Abs(got[1]-w[1]) > 1e-12*w[1] {
				t.Errorf("%v: Simulate(%+v) = %v, %v; want %v", k, jobs, got, err, w)
			}
			continue
		}
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Index != 0 || in.Field != "Shuffle" {
			t.Errorf("%v: Simulate(%+v) = %v, %v; want an InputError on job 0's shuffle (imbalance 1e500 > 2^1000)", k, jobs, got, err)
		}
	}
	tiny := []Arrival{{Time: 1e-150, Map: 1e-300}}
	for _, k := range allAlgorithms {
		got, err := Simulate(nil, tiny, 1, Discipline{Algorithm: k}, nil)
		if err != nil || len(got) != 1 || got[0] != 1e-300 {
			t.Errorf("%v: Simulate(%+v) = %v, %v; want [1e-300]", k, tiny, got, err)
		}
		lb, err := LowerBound(tiny, 1, nil)
		if err != nil || lb != 1e-300 {
			t.Errorf("LowerBound(%+v) = %v, %v; want 1e-300", tiny, lb, err)
		}
	}
}

// TestMaxSRPTArrivalTieBreak (issue 11, rates.go `precedes`): two jobs tie
// on MaxSRPT's key max(x(t), y(t)) = 5 — job P (arrival 1, sizes (5, 5),
// nothing done) and job Q (arrival 2, no map phase, shuffle 5). §4.1's
// Algorithm 1 serves the job of least key and SRPT breaks ties arbitrarily;
// the package breaks them by earlier arrival (doc.go), so P comes first:
// the map station serves P (the only job with map work) at 1; P has no
// available shuffle work (y(t)/y = x(t)/x), so its shuffle may run at
// (y/x)·1 = 1 — the whole station — and Q, next in order, gets nothing:
// [{1 1} {0 0}]. Were Q first, Q (all its shuffle available) would take the
// whole shuffle station: [{1 0} {0 1}]. The same jobs listed in the other
// order must give the same rates (arrival, not index, decides).
func TestMaxSRPTArrivalTieBreak(t *testing.T) {
	t.Parallel()
	p := Job{Arrival: 1, Map: 5, Shuffle: 5, RemainingMap: 5, RemainingShuffle: 5}
	q := Job{Arrival: 2, Map: 0, Shuffle: 5, RemainingShuffle: 5}
	for _, k := range []Algorithm{MaxSRPT, MaxSRPTStrict} {
		got, err := Rates(nil, []Job{p, q}, 1, Discipline{Algorithm: k}, nil)
		if want := []Rate{{Map: 1, Shuffle: 1}, {}}; err != nil || !cmp.Equal(got, want) {
			t.Errorf("%v [P Q]: got %v, %v; want %v", k, got, err, want)
		}
		got, err = Rates(nil, []Job{q, p}, 1, Discipline{Algorithm: k}, nil)
		if want := []Rate{{}, {Map: 1, Shuffle: 1}}; err != nil || !cmp.Equal(got, want) {
			t.Errorf("%v [Q P]: got %v, %v; want %v", k, got, err, want)
		}
	}
}

// ratesOver returns a []Rate that shares memory with jobs, starting at job
// from (unsafe: the only way to build the aliased dst the check guards).
func ratesOver(jobs []Job, from, n int) []Rate {
	return unsafe.Slice((*Rate)(unsafe.Pointer(&jobs[from])), n)
}

// TestRatesDstOverlap: a dst that shares memory with jobs is refused with an
// InputError on "dst" (the rule of check.Disjoint), and neither dst nor the
// jobs are written; a disjoint dst of the same capacity is used in place.
func TestRatesDstOverlap(t *testing.T) {
	t.Parallel()
	backing := []Job{
		{Arrival: 0, Map: 2, Shuffle: 1, RemainingMap: 2, RemainingShuffle: 1},
		{Arrival: 1, Map: 1, Shuffle: 3, RemainingMap: 1, RemainingShuffle: 3},
		{Arrival: 2, Map: 4, Shuffle: 4, RemainingMap: 4, RemainingShuffle: 4},
		{}, // room past the jobs, for a dst that only touches their end
	}
	jobs := backing[:3]
	before := slices.Clone(backing)
	// A Job is 5 floats, a Rate 2.
	for _, c := range []struct {
		name    string
		dst     []Rate
		overlap bool
	}{
		{"over all jobs", ratesOver(backing, 0, 7), true},
		{"over the last job and past it", ratesOver(backing, 2, 5), true},
		{"just past the jobs", ratesOver(backing, 3, 2)[:2:2], false}, // cap 2 < 3: not reused
	} {
		for _, k := range allAlgorithms {
			got, err := Rates(c.dst[:0], jobs, 1, Discipline{Algorithm: k}, nil)
			var in *specsched.InputError
			switch {
			case c.overlap && (!errors.As(err, &in) || in.Field != "dst" || got != nil):
				t.Errorf("%s %v: got %v, %v; want an InputError on dst", c.name, k, got, err)
			case !c.overlap && err != nil:
				t.Errorf("%s %v: %v", c.name, k, err)
			}
			if diff := cmp.Diff(before, backing); diff != "" {
				t.Fatalf("%s %v: jobs or dst written (-before +after):\n%s", c.name, k, diff)
			}
		}
	}
	dst := make([]Rate, len(jobs))
	if got, err := Rates(dst, jobs, 1, Discipline{}, nil); err != nil || &got[0] != &dst[0] {
		t.Errorf("disjoint dst: %v", err)
	}
}

// TestSimulateDstOverlap: the same rule for Simulate's dst.
func TestSimulateDstOverlap(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 1, Shuffle: 2}, {Time: 1, Map: 3, Shuffle: 1}, {Time: 1, Map: 1, Shuffle: 1}}
	before := slices.Clone(jobs)
	// An Arrival is 3 floats: a dst over the second job's words overlaps.
	dst := unsafe.Slice((*float64)(unsafe.Pointer(&jobs[1])), 6)
	for _, k := range allAlgorithms {
		got, err := Simulate(dst[:0], jobs, 1, Discipline{Algorithm: k}, nil)
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != "dst" || got != nil {
			t.Errorf("%v: got %v, %v; want an InputError on dst", k, got, err)
		}
		if diff := cmp.Diff(before, jobs); diff != "" {
			t.Fatalf("%v: jobs modified (-before +after):\n%s", k, diff)
		}
	}
	out := make([]float64, len(jobs))
	if got, err := Simulate(out, jobs, 1, Discipline{}, nil); err != nil || &got[0] != &out[0] {
		t.Errorf("disjoint dst: %v", err)
	}
}

// TestInputChecks: every documented input check of the package's exported
// functions, each on a value just outside its bound (and, where the bound
// is inclusive, the bound itself accepted).
func TestInputChecks(t *testing.T) {
	t.Parallel()
	ok := []Arrival{{Time: 0, Map: 1, Shuffle: 2}}
	type want struct {
		index int
		field string
	}
	check := func(name string, err error, w want) {
		t.Helper()
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Index != w.index || in.Field != w.field {
			t.Errorf("%s: got %v; want an InputError on index %d field %q", name, err, w.index, w.field)
		}
	}
	accept := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v; want it accepted (at the bound)", name, err)
		}
	}
	job := Job{Map: 1, Shuffle: 1, RemainingMap: 1, RemainingShuffle: 1}
	// Rates: speed in [0, 1e300], an Algorithm constant, k ≥ 0.
	_, err := Rates(nil, []Job{job}, math.Nextafter(1e300, 2e300), Discipline{}, nil)
	check("Rates speed above 1e300", err, want{-1, "speed"})
	_, err = Rates(nil, []Job{job}, math.Inf(1), Discipline{}, nil)
	check("Rates speed +Inf", err, want{-1, "speed"})
	_, err = Rates(nil, []Job{job}, 1e300, Discipline{}, nil)
	accept("Rates speed 1e300", err)
	_, err = Rates(nil, []Job{job}, 0, Discipline{}, nil)
	accept("Rates speed 0", err)
	_, err = Rates(nil, []Job{job}, 1, Discipline{Algorithm: numAlgorithms}, nil)
	check("Rates algorithm", err, want{-1, "Algorithm"})
	_, err = Rates(nil, []Job{job}, 1, Discipline{Algorithm: -1}, nil)
	check("Rates algorithm -1", err, want{-1, "Algorithm"})
	_, err = Rates(nil, []Job{job}, 1, Discipline{Algorithm: KLPS, K: -1}, nil)
	check("Rates k", err, want{-1, "K"})
	_, err = Rates(nil, []Job{job, {Map: 1, Shuffle: 1, RemainingMap: 1, RemainingShuffle: math.Nextafter(1, 2)}}, 1, Discipline{}, nil)
	check("Rates remainingShuffle above shuffle", err, want{1, "RemainingShuffle"})
	_, err = Rates(nil, []Job{{Arrival: math.Inf(-1), Map: 1, Shuffle: 1}}, 1, Discipline{}, nil)
	check("Rates arrival -Inf", err, want{0, "Arrival"})
	_, err = Rates(nil, []Job{{Map: math.MaxFloat64, Shuffle: math.MaxFloat64, RemainingMap: math.MaxFloat64, RemainingShuffle: math.MaxFloat64}}, 1, Discipline{}, nil)
	accept("Rates MaxFloat64 sizes", err)

	// Simulate and LowerBound: speed in (0, 1e300]; positive sizes ≥
	// speed·2^-1022; the horizon; SplitSRPT imbalance ≤ 2^1000.
	for _, f := range []struct {
		name string
		run  func([]Arrival, float64, Discipline) error
	}{
		{"Simulate", func(j []Arrival, s float64, p Discipline) error { _, err := Simulate(nil, j, s, p, nil); return err }},
		{"LowerBound", func(j []Arrival, s float64, _ Discipline) error { _, err := LowerBound(j, s, nil); return err }},
	} {
		check(f.name+" speed 0", f.run(ok, 0, Discipline{}), want{-1, "speed"})
		check(f.name+" speed above 1e300", f.run(ok, math.Nextafter(1e300, 2e300), Discipline{}), want{-1, "speed"})
		accept(f.name+" speed 1e300", f.run([]Arrival{{Map: 1e300}}, 1e300, Discipline{}))
		check(f.name+" map below speed·2^-1022", f.run([]Arrival{{Map: math.Nextafter(0x1p-1022, 0)}}, 1, Discipline{}), want{0, "Map"})
		check(f.name+" shuffle below speed·2^-1022", f.run([]Arrival{{Map: 1}, {Shuffle: 0x1p-1000}}, 0x1p23, Discipline{}), want{1, "Shuffle"})
		accept(f.name+" size speed·2^-1022", f.run([]Arrival{{Map: 0x1p-1022, Shuffle: 0x1p-1022}}, 1, Discipline{}))
		check(f.name+" horizon", f.run([]Arrival{{Time: 0, Map: 1e299}, {Time: 9e299, Map: 1}}, 1, Discipline{}), want{-1, "total work"})
		accept(f.name+" horizon at 1e300", f.run([]Arrival{{Time: -5e299, Map: 0}, {Time: 5e299, Map: 0}}, 1, Discipline{}))
		check(f.name+" unsorted", f.run([]Arrival{{Time: 1}, {Time: math.Nextafter(1, 0)}}, 1, Discipline{}), want{1, "Time"})
	}
	unbalanced := []Arrival{{Map: 1}, {Map: 1, Shuffle: math.Nextafter(0x1p-1000, 0)}}
	for _, k := range allAlgorithms {
		_, err := Simulate(nil, unbalanced, 1, Discipline{Algorithm: k}, nil)
		if k == SplitSRPT || k == SplitSRPTStrict {
			check("Simulate imbalance above 2^1000 under "+k.String(), err, want{1, "Shuffle"})
		} else {
			accept("Simulate imbalance above 2^1000 under "+k.String(), err)
		}
		_, err = Simulate(nil, []Arrival{{Map: 1, Shuffle: 0x1p-1000}}, 1, Discipline{Algorithm: k}, nil)
		accept("Simulate imbalance 2^1000 under "+k.String(), err)
	}
	_, err = Simulate(nil, ok, 1, Discipline{Algorithm: KLPS, K: -1}, nil)
	check("Simulate k", err, want{-1, "K"})

	// The instances.
	_, err = Corollary4Instance(4, 1e300, 1e280)
	check("Corollary4Instance eps below alpha's ulp", err, want{-1, "eps"})
	_, err = Corollary4Instance(4, 3, 2)
	check("Corollary4Instance eps = alpha−1", err, want{-1, "eps"})
	_, err = Corollary4Instance(4, 3, 0)
	check("Corollary4Instance eps 0", err, want{-1, "eps"})
	_, err = Corollary4Instance(4, math.Inf(1), 1)
	check("Corollary4Instance alpha +Inf", err, want{-1, "alpha"})
	_, err = Corollary4Instance(0, 3, 1)
	check("Corollary4Instance n 0", err, want{-1, "n"})
	_, err = Corollary4Instance(2, 3, 1)
	accept("Corollary4Instance n 2", err)
	_, err = Corollary6Instance(2, math.Nextafter(1, 2))
	accept("Corollary6Instance beta just above 1", err)
	_, err = Corollary6Instance(3, math.MaxFloat64)
	check("Corollary6Instance (n−1)·beta overflows", err, want{-1, "beta"})
	_, err = Corollary6Instance(2, math.MaxFloat64)
	accept("Corollary6Instance n 2 beta MaxFloat64", err)
	_, _, err = Theorem2Instance(1e9+1, Discipline{}, nil)
	check("Theorem2Instance n above 1e9", err, want{-1, "n"})
	_, _, err = Theorem2Instance(1<<53, Discipline{}, nil)
	check("Theorem2Instance n 2^53", err, want{-1, "n"})
	_, _, err = Theorem2Instance(0, Discipline{}, nil)
	check("Theorem2Instance n 0", err, want{-1, "n"})
	_, _, err = Theorem2Instance(1, Discipline{}, nil)
	accept("Theorem2Instance n 1", err)
	_, _, err = Theorem2Instance(1, Discipline{Algorithm: KLPS, K: -1}, nil)
	check("Theorem2Instance k", err, want{-1, "K"})

	// RunExperiment.
	_, err = RunExperiment(ExperimentConfig{Load: 0.5, Jobs: 0}, nil)
	check("RunExperiment jobs 0", err, want{-1, "Jobs"})
	_, err = RunExperiment(ExperimentConfig{Load: 0, Jobs: 1}, nil)
	check("RunExperiment load 0", err, want{-1, "Load"})
	_, err = RunExperiment(ExperimentConfig{Load: 0.5, Jobs: 1, K: -1}, nil)
	check("RunExperiment k", err, want{-1, "K"})
	_, err = RunExperiment(ExperimentConfig{Load: 0.5, Jobs: 1}, nil)
	accept("RunExperiment one job", err)

	// ParseAlgorithm.
	_, err = ParseAlgorithm("MaxSRPT")
	check("ParseAlgorithm wrong case", err, want{-1, "name"})
}

// TestSplitSRPTRoundedShares: a regression found by
// TestCorollary6Magnitudes. At β = 2^53, μ₁ = 1/(1+2^53) and μ₂ round to
// 2^-53 and 1, whose sum exceeds s = 1 by an ulp; SplitSRPT's shared
// shuffle capacity, formed as s − (what the other class used), left the
// map-heavy class nothing, stalling its shuffle and doubling a response
// time. Exactly (TestCorollary6Tight's derivation): on Corollary 6's
// instance with n = 3 the (β, 1) jobs complete at 1+β and 2(1+β), the big
// job with the second; in a snapshot of a (β, 1) job and a (2, 2β) job,
// the first gets {μ₂, μ₁} and the second {μ₁, μ₂}.
func TestSplitSRPTRoundedShares(t *testing.T) {
	t.Parallel()
	const beta = 1 << 53
	jobs, err := Corollary6Instance(3, beta)
	if err != nil {
		t.Fatal(err)
	}
	mu1, mu2 := 1/(1+float64(beta)), float64(beta)/(1+float64(beta))
	snap := []Job{
		{Map: beta, Shuffle: 1, RemainingMap: beta, RemainingShuffle: 1},
		{Map: 2, Shuffle: 2 * beta, RemainingMap: 2, RemainingShuffle: 2 * beta},
	}
	for _, k := range []Algorithm{SplitSRPT, SplitSRPTStrict} {
		got, err := Simulate(nil, jobs, 1, Discipline{Algorithm: k}, nil)
		want := []float64{1 + beta, 2 * (1 + beta), 2 * (1 + beta)}
		for i := range want {
			if err != nil || math.Abs(got[i]-want[i]) > 1e-12*want[i] {
				t.Errorf("%v: Simulate = %v, %v; want %v", k, got, err, want)
				break
			}
		}
		rates, err := Rates(nil, snap, 1, Discipline{Algorithm: k}, nil)
		wantRates := []Rate{{Map: mu2, Shuffle: mu1}, {Map: mu1, Shuffle: mu2}}
		for i := range wantRates {
			if err != nil || math.Abs(rates[i].Map-wantRates[i].Map) > 1e-15 || math.Abs(rates[i].Shuffle-wantRates[i].Shuffle) > 1e-15*wantRates[i].Shuffle {
				t.Errorf("%v: Rates = %v, %v; want %v", k, rates, err, wantRates)
				break
			}
		}
	}
}

// TestAdmitAnchorsAtArrival: the clock can reach an arrival time through
// the rounding of its elapsed sum, without an arrival event; admit must
// then re-anchor the clock at the job's own arrival time, or a job far
// smaller than the time since the anchor loses its work to absorption
// ((0 − 1) + (1 + 1e-300) = 0). Here elapsed reaches 1 exactly before the
// job arriving at 1 with map work 1e-300 is admitted; it is served first
// (least key) and must leave 1e-300 after its arrival. Both engines.
func TestAdmitAnchorsAtArrival(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 0.5}, {Time: 1, Map: 1e-300}}
	out := make([]float64, 2)
	var e prioEngine
	e.reset(jobs, 1, MaxSRPT, out)
	e.admit()
	e.clk.advance(1)
	e.admit()
	if e.clk.base != 1 || e.clk.elapsed.value() != 0 {
		t.Fatalf("prio: after admitting the job of time 1 the clock is %v + %v, want 1 + 0", e.clk.base, e.clk.elapsed.value())
	}
	if err := e.run(inf); err != nil || out[1] != 1e-300 {
		t.Errorf("prio: response %v, %v; want 1e-300", out[1], err)
	}
	var l lpsEngine
	l.reset(jobs, 1, 2, out)
	l.admit()
	l.clk.advance(1)
	l.admit()
	if l.clk.base != 1 || l.clk.elapsed.value() != 0 {
		t.Fatalf("k-LPS: after admitting the job of time 1 the clock is %v + %v, want 1 + 0", l.clk.base, l.clk.elapsed.value())
	}
}

// TestSimulateUntil: simulateUntil stops mid-interval with the state
// advanced exactly to the requested time (Theorem2Instance reads it). Job 0
// (map 4, no shuffle) and job 1 (shuffle 4, no map) at time 0: under every
// policy but SplitSRPTStrict both stations are busy from 0 — job 0 alone
// at the map station (k-LPS shares it only among jobs with map work) and
// job 1 alone at the shuffle station (the only job with shuffle work) —
// so at t = 1 job 0 has 3 of map left and job 1 has 3 of shuffle left.
// Stopping exactly at an event time (t = 4, both done) leaves nothing.
func TestSimulateUntil(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Map: 4}, {Shuffle: 4}}
	// SplitSRPTStrict included: each job has a zero size, so β = +∞,
	// μ₁ = 0 and μ₂ = 1, and each class gets its whole station.
	for _, k := range allAlgorithms {
		var ws Workspace
		tab, err := simulateUntil(make([]float64, 2), jobs, 1, Discipline{Algorithm: k}, &ws, nil, 1)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		view := ws.prio.snapshot(nil)
		if k == KLPS {
			view = ws.lps.snapshot(nil)
		}
		left := map[int]Job{}
		for _, v := range view {
			left[v.id] = v.job
		}
		if left[0].RemainingMap != 3 || left[1].RemainingShuffle != 3 {
			t.Errorf("%v: at t = 1 the jobs present are %+v; want job 0 with map 3 left, job 1 with shuffle 3 left", k, view)
		}
		if got := leftFrom(tab, 0); got != 3 {
			t.Errorf("%v: leftFrom = %v, want 3", k, got)
		}
		if _, err := simulateUntil(make([]float64, 2), jobs, 1, Discipline{Algorithm: k}, &ws, nil, 4); err != nil {
			t.Errorf("%v: until the last departure: %v", k, err)
		}
		// At speed 2 with sizes 8 the state at t = 1 is 6 and 6, in the
		// caller's units (the engines keep sizes in units of the speed).
		if _, err := simulateUntil(make([]float64, 2), []Arrival{{Map: 8}, {Shuffle: 8}}, 2, Discipline{Algorithm: k}, &ws, nil, 1); err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		view = ws.prio.snapshot(nil)
		if k == KLPS {
			view = ws.lps.snapshot(nil)
		}
		for _, v := range view {
			if v.job.RemainingMap+v.job.RemainingShuffle != 6 || v.rate.Map+v.rate.Shuffle != 2 {
				t.Errorf("%v speed 2: job %d at t = 1: %+v, want 6 left at rate 2", k, v.id, v)
			}
		}
	}
}

// TestEventGuard: the engines' guard against a run that stops making
// progress (errStall, an internal error no input may reach) fires after
// exactly maxEvents iterations: a run that needs n iterations succeeds with
// maxEvents = n and stalls with n − 1.
func TestEventGuard(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 2, Shuffle: 1}, {Time: 0.5, Map: 1, Shuffle: 3}, {Time: 1, Map: 1, Shuffle: 1}}
	out := make([]float64, len(jobs))
	for _, k := range allAlgorithms {
		runWith := func(limit int) (int, error) {
			if k == KLPS {
				var e lpsEngine
				e.reset(jobs, 1, 2, out)
				if limit > 0 {
					e.maxEvents = limit
				}
				err := e.run(inf)
				return e.events, err
			}
			var e prioEngine
			e.reset(jobs, 1, k, out)
			if limit > 0 {
				e.maxEvents = limit
			}
			err := e.run(inf)
			return e.events, err
		}
		n, err := runWith(0)
		if err != nil || n < 2 {
			t.Fatalf("%v: %d iterations, %v", k, n, err)
		}
		if _, err := runWith(n); err != nil {
			t.Errorf("%v: maxEvents = %d (the iterations needed): %v", k, n, err)
		}
		if _, err := runWith(n - 1); !errors.Is(err, errStall) {
			t.Errorf("%v: maxEvents = %d: %v, want errStall", k, n-1, err)
		}
	}
}

// TestKLPSRebase: k-LPS keeps the jobs whose map is done in a heap keyed by
// work + V, V the shuffle work each has received (a virtual clock). Job A
// (shuffle 2^30, no map) is alone from 0, so V = 2^21 when job B (shuffle
// 2^-40, no map) arrives at 2^21: 2^21 + 2^-40 would round to 2^21 and B
// would leave at once with its work unserved. The clock is rebased
// instead. By hand: A and B then share the shuffle station at 1/2 each;
// B leaves after 2^-39, and A, served at 1 but for that stretch, leaves at
// 2^30 + 2^-40: responses [2^30 + 2^-40, 2^-39] (A's to rounding).
func TestKLPSRebase(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Shuffle: 0x1p30}, {Time: 0x1p21, Shuffle: 0x1p-40}}
	got, err := Simulate(nil, jobs, 1, Discipline{Algorithm: KLPS}, nil)
	if err != nil || got[1] != 0x1p-39 || math.Abs(got[0]-0x1p30) > 1e-6 {
		t.Errorf("Simulate = %v, %v; want [2^30, 2^-39]", got, err)
	}
}

// rateRecorder keeps the rates of the first interval of a simulation.
type rateRecorder struct {
	first []simView
}

func (r *rateRecorder) interval(now, tau float64, view []simView) {
	if r.first == nil {
		r.first = slices.Clone(view)
	}
}

// TestKLPSLimitedRates: k-LPS's shuffle station gives a job with no
// available work its limit (y/x)·p when that is below the common level θ.
// Jobs X = (2, 1) and Y = (1, 4) at time 0, k = 2: both maps at 1/2; X's
// limit is (1/2)·(1/2) = 1/4 and Y's 4·(1/2) = 2, so the water-fill gives
// X 1/4 and Y the remaining 3/4 (by hand; the engine's first interval must
// show exactly these rates, as Rates does on the snapshot). Then Y's map
// ends at 2 with 1.5 of its shuffle done; X alone in map service (limit
// 1/2) and Y at θ = 1/2 until X leaves at 3; Y alone leaves at 5.
func TestKLPSLimitedRates(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Map: 2, Shuffle: 1}, {Map: 1, Shuffle: 4}}
	var rec rateRecorder
	var ws Workspace
	out := make([]float64, 2)
	if err := simulate(out, jobs, 1, Discipline{Algorithm: KLPS, K: 2}, &ws, &rec); err != nil {
		t.Fatal(err)
	}
	want := map[int]Rate{0: {Map: 0.5, Shuffle: 0.25}, 1: {Map: 0.5, Shuffle: 0.75}}
	for _, v := range rec.first {
		if v.rate != want[v.id] {
			t.Errorf("job %d: first-interval rate %+v, want %+v", v.id, v.rate, want[v.id])
		}
	}
	if out[0] != 3 || out[1] != 5 {
		t.Errorf("responses %v, want [3 5]", out)
	}
}

// TestKLPSSnapTolerance: after a departure from k-LPS's shuffle-only set, a
// job is taken to have left only if its remaining work is within snapTol of
// its own size. Jobs D (shuffle 2^-41) and C (shuffle 2^-40) at time 0
// share the shuffle station at 1/2: D leaves at 2^-40 with C's work half
// done; C alone then leaves 2^-41 later: responses [2^-40, 1.5·2^-40].
func TestKLPSSnapTolerance(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Shuffle: 0x1p-41}, {Shuffle: 0x1p-40}}
	got, err := Simulate(nil, jobs, 1, Discipline{Algorithm: KLPS}, nil)
	if err != nil || got[0] != 0x1p-40 || got[1] != 1.5*0x1p-40 {
		t.Errorf("Simulate = %v, %v; want [2^-40, 1.5·2^-40]", got, err)
	}
}
