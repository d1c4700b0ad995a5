package overlap

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
	"pgregory.net/rapid"
)

// testRatesMatchReference: Rates equals the sort-based reference (priority
// walks, and bisection for k-LPS's processor sharing) on random snapshots.
func testRatesMatchReference(t *rapid.T) {
	jobs := genSnapshot(t, 8)
	speed := rapid.OneOf(rapid.Just(1.0), rapid.Float64Range(0, 3)).Draw(t, "speed")
	p := genPolicy(t)
	got, err := Rates(nil, jobs, speed, p, nil)
	if err != nil {
		t.Fatalf("Rates: %v", err)
	}
	want := refRates(jobs, speed, p)
	for i := range jobs {
		if !near(got[i].Map, want[i].Map, speed) || !near(got[i].Shuffle, want[i].Shuffle, speed) {
			t.Fatalf("%v job %d (%+v): got %+v, want %+v\nall got %v\nall want %v", p, i, jobs[i], got[i], want[i], got, want)
		}
	}
}

func TestRatesMatchReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatesMatchReference)
}

// testRatesFeasible: every rate vector respects the station speeds and
// constraint (1), whatever the policy: rates ≥ 0, Σ map ≤ s, Σ shuffle ≤ s,
// no map rate without map work, no shuffle rate without shuffle work, and
// no more shuffle rate than (y/x)·map rate without available work. Also the
// work-conservation properties each policy promises.
func testRatesFeasible(t *rapid.T) {
	jobs := genSnapshot(t, 10)
	speed := rapid.Float64Range(0.1, 3).Draw(t, "speed")
	p := genPolicy(t)
	got, err := Rates(nil, jobs, speed, p, nil)
	if err != nil {
		t.Fatalf("Rates: %v", err)
	}
	sumMap, sumShuffle := 0.0, 0.0
	anyMap, anyAvail := false, false
	for i, j := range jobs {
		r := got[i]
		if !(r.Map >= 0 && r.Shuffle >= 0) || !finite(r.Map) || !finite(r.Shuffle) {
			t.Fatalf("job %d: rate %+v not finite and ≥ 0", i, r)
		}
		if r.Map > 0 && j.RemainingMap == 0 {
			t.Fatalf("job %d: map rate %v without map work", i, r.Map)
		}
		if r.Shuffle > 0 && j.RemainingShuffle == 0 {
			t.Fatalf("job %d: shuffle rate %v without shuffle work", i, r.Shuffle)
		}
		if refAvail(j) == 0 && j.RemainingShuffle > 0 && r.Shuffle > j.Shuffle/j.Map*r.Map*(1+relTol) {
			t.Fatalf("job %d (%+v): shuffle rate %v > (y/x)·map rate %v with no available work: violates (1)",
				i, j, r.Shuffle, j.Shuffle/j.Map*r.Map)
		}
		sumMap += r.Map
		sumShuffle += r.Shuffle
		anyMap = anyMap || j.RemainingMap > 0
		anyAvail = anyAvail || refAvail(j) > 0
	}
	if sumMap > speed*(1+relTol) || sumShuffle > speed*(1+relTol) {
		t.Fatalf("station sums (%v, %v) exceed speed %v", sumMap, sumShuffle, speed)
	}
	conserving := p.Algorithm != SplitSRPTStrict
	if conserving && anyMap && !near(sumMap, speed, speed) {
		t.Fatalf("%v: map station idle: Σ map = %v < speed %v with map work present", p, sumMap, speed)
	}
	// Work-conserving shuffle: spare capacity only if no job has available
	// work (such a job could take any rate).
	if (p.Algorithm == MaxSRPT || p.Algorithm == SplitSRPT || p.Algorithm == KLPS || p.Algorithm == FIFO) && anyAvail && !near(sumShuffle, speed, speed) {
		t.Fatalf("%v: shuffle station idle: Σ shuffle = %v < speed %v with available work", p, sumShuffle, speed)
	}
}

func TestRatesFeasible(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatesFeasible)
}

// testRatesPure: inputs are not modified, the same input gives the same
// output bit for bit, a reused dst and workspace give the same result, and
// a dst of sufficient capacity is used in place.
func testRatesPure(t *rapid.T) {
	jobs := genSnapshot(t, 10)
	p := genPolicy(t)
	before := slices.Clone(jobs)
	var ws Workspace
	first, err := Rates(nil, jobs, 1, p, &ws)
	if err != nil {
		t.Fatalf("Rates: %v", err)
	}
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Fatalf("input modified (-before +after):\n%s", diff)
	}
	dst := make([]Rate, len(jobs)+3)
	for i := range dst {
		dst[i] = Rate{Map: 7, Shuffle: 7}
	}
	second, err := Rates(dst, jobs, 1, p, &ws)
	if err != nil {
		t.Fatalf("Rates: %v", err)
	}
	if diff := cmp.Diff(first, second, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("not deterministic (-first +second):\n%s", diff)
	}
	if len(second) > 0 && &second[0] != &dst[0] {
		t.Fatalf("dst of capacity %d not reused for %d jobs", cap(dst), len(jobs))
	}
}

func TestRatesPure(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatesPure)
}

// badFloat draws a value no valid input may have in a size-like field.
func badFloat(t *rapid.T, label string) float64 {
	return rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-300, math.MaxFloat64, 1e308}).Draw(t, label)
}

// testRatesNoPanic: corrupted snapshots (NaN, ±Inf, negatives, huge values
// in any field, bad speeds and policies) never panic; each gives an
// *InputError, leaving dst untouched, or a feasible finite result.
func testRatesNoPanic(t *rapid.T) {
	jobs := genSnapshot(t, 6)
	speed := 1.0
	p := genPolicy(t)
	switch rapid.IntRange(0, 3).Draw(t, "corrupt") {
	case 0:
		if len(jobs) > 0 {
			i := rapid.IntRange(0, len(jobs)-1).Draw(t, "victim")
			v := badFloat(t, "value")
			switch rapid.IntRange(0, 4).Draw(t, "field") {
			case 0:
				jobs[i].Arrival = v
			case 1:
				jobs[i].Map = v
			case 2:
				jobs[i].Shuffle = v
			case 3:
				jobs[i].RemainingMap = v
			case 4:
				jobs[i].RemainingShuffle = v
			}
		}
	case 1:
		speed = badFloat(t, "speed")
	case 2:
		p.Algorithm = Algorithm(rapid.IntRange(-3, 10).Draw(t, "badKind"))
		p.K = rapid.IntRange(-5, 5).Draw(t, "badK")
	}
	dst := []Rate{{Map: 42, Shuffle: 42}}
	got, err := Rates(dst, jobs, speed, p, nil)
	if err != nil {
		var in *specsched.InputError
		if !errors.As(err, &in) || got != nil {
			t.Fatalf("error %v is not an *InputError with a nil result", err)
		}
		if dst[0] != (Rate{Map: 42, Shuffle: 42}) {
			t.Fatalf("dst modified on error: %v", dst)
		}
		return
	}
	for i, r := range got {
		if !finite(r.Map) || !finite(r.Shuffle) || r.Map < 0 || r.Shuffle < 0 || r.Map > speed*(1+relTol) || r.Shuffle > speed*(1+relTol) {
			t.Fatalf("job %d: infeasible rate %+v at speed %v", i, r, speed)
		}
	}
}

func TestRatesNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatesNoPanic)
}

func FuzzRates(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testRatesNoPanic)) }

// TestRatesErrors: each invalid field is reported with its job index and
// name.
func TestRatesErrors(t *testing.T) {
	t.Parallel()
	ok := Job{Arrival: 0, Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 2}
	cases := []struct {
		name  string
		edit  func(*Job)
		speed float64
		field string
	}{
		{"nan arrival", func(j *Job) { j.Arrival = math.NaN() }, 1, "Arrival"},
		{"negative map", func(j *Job) { j.Map = -1 }, 1, "Map"},
		{"inf shuffle", func(j *Job) { j.Shuffle = math.Inf(1) }, 1, "Shuffle"},
		{"remaining map above map", func(j *Job) { j.RemainingMap = 3 }, 1, "RemainingMap"},
		{"remaining shuffle negative", func(j *Job) { j.RemainingShuffle = -0.5 }, 1, "RemainingShuffle"},
		{"constraint (1) violated", func(j *Job) { j.RemainingShuffle = 1.9 }, 1, "RemainingShuffle"},
		{"negative speed", func(*Job) {}, -1, "speed"},
		{"nan speed", func(*Job) {}, math.NaN(), "speed"},
	}
	for _, c := range cases {
		jobs := []Job{ok, ok}
		c.edit(&jobs[1])
		_, err := Rates(nil, jobs, c.speed, Discipline{}, nil)
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != c.field || (c.field != "speed" && in.Index != 1) {
			t.Errorf("%s: got %v, want an InputError on job 1 field %q", c.name, err, c.field)
		}
	}
	// Within the tolerance of (1) the job counts as rate-limited, not invalid.
	jobs := []Job{{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 2 * (1 - 1e-12)}}
	got, err := Rates(nil, jobs, 1, Discipline{Algorithm: MaxSRPT}, nil)
	if err != nil || got[0] != (Rate{Map: 1, Shuffle: 1}) {
		t.Errorf("at the tolerance of (1): got %v, %v; want [{1 1}] (limit 2·1 capped at 1)", got, err)
	}
	// A job 1e-11 above (1) (within availTol·y) has no available work: it
	// cannot take the shuffle capacity the map job (limited to 0.5) leaves.
	jobs = []Job{
		{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 2 + 1e-11},
		{Map: 1, Shuffle: 0.5, RemainingMap: 1, RemainingShuffle: 0.5},
	}
	got, err = Rates(nil, jobs, 1, Discipline{Algorithm: MaxSRPT}, nil)
	if err != nil || got[0] != (Rate{}) || got[1] != (Rate{Map: 1, Shuffle: 0.5}) {
		t.Errorf("within the tolerance band: got %v, %v; want [{0 0} {1 0.5}]", got, err)
	}
}

// TestRatesSpecialCases: no jobs, speed 0, departed jobs, zero sizes.
func TestRatesSpecialCases(t *testing.T) {
	t.Parallel()
	for _, k := range allAlgorithms {
		p := Discipline{Algorithm: k}
		if got, err := Rates(nil, nil, 1, p, nil); err != nil || len(got) != 0 {
			t.Errorf("%v: no jobs: got %v, %v", k, got, err)
		}
		jobs := []Job{
			{Map: 1, Shuffle: 1},                                       // has left
			{Map: 0, Shuffle: 2, RemainingShuffle: 2},                  // shuffle only
			{Map: 3, Shuffle: 0, RemainingMap: 3},                      // map only
			{Map: 0, Shuffle: 0},                                       // empty
			{Map: 2, Shuffle: 2, RemainingMap: 2, RemainingShuffle: 2}, // not started
		}
		got, err := Rates(nil, jobs, 0, p, nil)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		for i, r := range got {
			if r != (Rate{}) {
				t.Errorf("%v speed 0: job %d got %+v, want zero", k, i, r)
			}
		}
		got, err = Rates(nil, jobs, 2, p, nil)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		if got[0] != (Rate{}) || got[3] != (Rate{}) {
			t.Errorf("%v: departed or empty jobs got rates %v, %v", k, got[0], got[3])
		}
		if got[1].Map != 0 || got[2].Shuffle != 0 {
			t.Errorf("%v: zero-size phases served: %v", k, got)
		}
		if got[1].Shuffle == 0 && k != SplitSRPTStrict {
			// The shuffle-only job is the only one with available work.
			t.Errorf("%v: the only job with available shuffle work got none: %v", k, got)
		}
	}
}

// TestAvailable checks Job.Available on hand-computed cases.
func TestAvailable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		job  Job
		want float64
	}{
		{Job{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 3}, 1},         // 3 − 4·(1/2)
		{Job{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 2}, 0},         // limited
		{Job{Map: 0, Shuffle: 4, RemainingShuffle: 2.5}, 2.5},                      // no map phase
		{Job{Map: 2, Shuffle: 4, RemainingMap: 0, RemainingShuffle: 1}, 1},         // map done
		{Job{Map: 2, Shuffle: 0, RemainingMap: 2}, 0},                              // no shuffle phase
		{Job{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 2 + 1e-11}, 0}, // within availTol·4: none
	}
	for _, c := range cases {
		if got := c.job.Available(); got != c.want {
			t.Errorf("%+v.Available() = %v, want %v", c.job, got, c.want)
		}
	}
}

// testAvailableNoPanic: Available never panics and is finite and ≥ 0 on
// finite input.
func testAvailableNoPanic(t *rapid.T) {
	j := Job{
		Map:              rapid.OneOf(rapid.Float64(), rapid.Just(math.NaN())).Draw(t, "map"),
		Shuffle:          rapid.Float64().Draw(t, "shuffle"),
		RemainingMap:     rapid.Float64().Draw(t, "remainingMap"),
		RemainingShuffle: rapid.Float64().Draw(t, "remainingShuffle"),
	}
	a := j.Available()
	if validateJobs("", []Job{j}) == nil && (!finite(a) || a < 0) {
		t.Fatalf("%+v.Available() = %v on a valid job", j, a)
	}
}

func TestAvailableNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAvailableNoPanic)
}

func FuzzAvailable(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testAvailableNoPanic)) }

func TestParseAlgorithm(t *testing.T) {
	t.Parallel()
	for _, k := range allAlgorithms {
		got, err := ParseAlgorithm(k.String())
		if err != nil || got != k {
			t.Errorf("ParseAlgorithm(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if _, err := ParseAlgorithm("srpt"); err == nil {
		t.Error(`ParseAlgorithm("srpt"): want an error`)
	}
	for _, k := range []Algorithm{numAlgorithms, 99, -1} { // the first past the last, far past it, below
		if s := k.String(); s != "unknown" {
			t.Errorf("Kind(%d).String() = %q, want unknown", int(k), s)
		}
	}
}

func testParseAlgorithmNoPanic(t *rapid.T) {
	name := rapid.String().Draw(t, "name")
	k, err := ParseAlgorithm(name)
	if err == nil && k.String() != name {
		t.Fatalf("ParseAlgorithm(%q) = %v, which prints as %q", name, k, k.String())
	}
	_ = Algorithm(rapid.Int().Draw(t, "kind")).String()
}

func TestParseAlgorithmNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testParseAlgorithmNoPanic)
}

func FuzzParseAlgorithm(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testParseAlgorithmNoPanic)) }

// TestWaterFill checks the processor-sharing water-fill on hand-computed
// cases.
func TestWaterFill(t *testing.T) {
	t.Parallel()
	// Limits 1/9, 1/3, 2/3, capacity 1, no unlimited job: 1/9 and 1/3 fit
	// under the level, the last gets the remaining 5/9 (the §2.1 example
	// under k-LPS at t = 0).
	lim := []limitEntry{{2.0 / 3, 0}, {1.0 / 9, 1}, {1.0 / 3, 2}}
	theta := waterFill(1, 0, lim)
	got := map[int]float64{}
	for _, e := range lim {
		got[e.id] = e.limit
	}
	if !near(got[0], 5.0/9, 1) || got[1] != 1.0/9 || got[2] != 1.0/3 || !near(theta, 5.0/9, 1) {
		t.Errorf("waterFill: rates %v θ %v, want {0: 5/9, 1: 1/9, 2: 1/3}, θ 5/9", got, theta)
	}
	// Two unlimited jobs and one limit of 0.1: the level is 0.45.
	lim = []limitEntry{{0.1, 0}}
	if theta := waterFill(1, 2, lim); !near(theta, 0.45, 1) || lim[0].limit != 0.1 {
		t.Errorf("waterFill: θ %v, limited %v; want 0.45, 0.1", theta, lim[0].limit)
	}
	// Limits below capacity, no unlimited job: everyone at the limit.
	lim = []limitEntry{{0.2, 0}, {0.3, 1}}
	if theta := waterFill(1, 0, lim); theta != 0 || lim[0].limit != 0.2 || lim[1].limit != 0.3 {
		t.Errorf("waterFill: θ %v, %v; want 0 and the limits", theta, lim)
	}
	// The larger limit listed second but with the smaller id: sorted by
	// limit first, 0.05 then 0.9 fit under capacity 1 (by id first, 0.9
	// would be tried with two jobs open and both would get 0.5).
	lim = []limitEntry{{0.05, 1}, {0.9, 0}}
	theta = waterFill(1, 0, lim)
	got = map[int]float64{}
	for _, e := range lim {
		got[e.id] = e.limit
	}
	if theta != 0 || got[0] != 0.9 || got[1] != 0.05 {
		t.Errorf("waterFill: θ %v, rates %v; want 0 and {0: 0.9, 1: 0.05}", theta, got)
	}
}

// TestRatesNoMapWork: when no job has map work left, the shuffle station's
// first job in order is found whatever the order of the snapshot (here the
// least key comes last). Keys max(x(t), y(t)) = 5, 3, 1.
func TestRatesNoMapWork(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Map: 0, Shuffle: 5, RemainingShuffle: 5},
		{Map: 0, Shuffle: 3, RemainingShuffle: 3},
		{Map: 2, Shuffle: 1, RemainingShuffle: 1},
	}
	for _, k := range []Algorithm{MaxSRPT, MaxSRPTStrict} {
		got, err := Rates(nil, jobs, 1, Discipline{Algorithm: k}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]Rate{{}, {}, {Shuffle: 1}}, got); diff != "" {
			t.Errorf("%v (-want +got):\n%s", k, diff)
		}
	}
	// Jobs without map work first, then the only one with map work, with
	// the largest key (4): it still gets the map station; the shuffle
	// station serves the least key, 1.
	jobs = []Job{
		{Map: 0, Shuffle: 1, RemainingShuffle: 1},
		{Map: 0, Shuffle: 2, RemainingShuffle: 2},
		{Map: 0, Shuffle: 3, RemainingShuffle: 3},
		{Map: 4, Shuffle: 4, RemainingMap: 4, RemainingShuffle: 4},
	}
	got, err := Rates(nil, jobs, 1, Discipline{Algorithm: MaxSRPT}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Rate{{Shuffle: 1}, {}, {}, {Map: 1}}, got); diff != "" {
		t.Errorf("map job last (-want +got):\n%s", diff)
	}
}

// TestDisciplineValidate: Validate rejects an Algorithm outside the
// constants and a K < 0, naming the field (index −1) as
// overlap.Discipline.Validate, accepts every constant with K = 0 and K ≥ 1,
// and agrees with Rates and Simulate, which reject the same disciplines on
// the same field and value.
func TestDisciplineValidate(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 1, Shuffle: 1}}
	cases := []struct {
		d     Discipline
		field string // "" means: accepted
	}{
		{Discipline{Algorithm: -1}, "Algorithm"},
		{Discipline{Algorithm: numAlgorithms}, "Algorithm"},
		{Discipline{Algorithm: KLPS, K: -1}, "K"},
		{Discipline{Algorithm: MaxSRPT, K: -1}, "K"},
	}
	for _, a := range allAlgorithms {
		cases = append(cases, struct {
			d     Discipline
			field string
		}{Discipline{Algorithm: a}, ""}, struct {
			d     Discipline
			field string
		}{Discipline{Algorithm: a, K: 1}, ""})
	}
	for _, c := range cases {
		err := c.d.Validate()
		_, rateErr := Rates(nil, []Job{{Map: 1, Shuffle: 1, RemainingMap: 1, RemainingShuffle: 1}}, 1, c.d, nil)
		_, simErr := Simulate(nil, jobs, 1, c.d, nil)
		if c.field == "" {
			if err != nil || rateErr != nil || simErr != nil {
				t.Errorf("%+v: Validate %v, Rates %v, Simulate %v; want accepted", c.d, err, rateErr, simErr)
			}
			continue
		}
		for _, e := range []struct {
			fn  string
			err error
		}{{"overlap.Discipline.Validate", err}, {"overlap.Rates", rateErr}, {"overlap.Simulate", simErr}} {
			var ie *specsched.InputError
			if !errors.As(e.err, &ie) || ie.Func != e.fn || ie.Index != check.Scalar || ie.Field != c.field ||
				ie.Value != float64(map[string]int{"Algorithm": int(c.d.Algorithm), "K": c.d.K}[c.field]) {
				t.Errorf("%+v: %s error %v; want an InputError on %s", c.d, e.fn, e.err, c.field)
			}
		}
	}
}
