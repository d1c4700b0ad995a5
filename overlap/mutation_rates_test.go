package overlap

import (
	"cmp"
	"errors"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// Tests that pin behaviour of the allocation and rate files which the
// mutation run of issue 11 found unchecked. Each expected value is worked
// out by hand from the documented rule, not copied from the code.

// TestAvailableDocumentedCases checks Job.Available where its documented
// rules meet:
//   - a job whose map is done (x(t) = 0, x > 0) has all of y(t) available,
//     even an amount below availTol·y (the tolerance applies only to the
//     fraction y(t)/y − x(t)/x of a job still mapping);
//   - a fraction of exactly availTol is "at most availTol·y_i", so 0: with
//     x = y = 1, x(t) = 2^-60 and y(t) = 1e-9 + 2^-60 (both exact, and
//     y(t) − x(t) = 1e-9 exactly) the amount is 1e-9·y, returned as 0.
func TestAvailableDocumentedCases(t *testing.T) {
	t.Parallel()
	const x = 0x1p-60
	yr := availTol + x
	if yr-x != availTol {
		t.Fatalf("test setup: %v − %v = %v, want exactly %v", yr, x, yr-x, availTol)
	}
	cases := []struct {
		job  Job
		want float64
	}{
		{Job{Map: 2, Shuffle: 4, RemainingMap: 0, RemainingShuffle: 1e-12}, 1e-12}, // map done: all of y(t)
		{Job{Map: 1, Shuffle: 1, RemainingMap: x, RemainingShuffle: yr}, 0},        // fraction = availTol: none
		{Job{Map: 1, Shuffle: 1, RemainingMap: x, RemainingShuffle: 2 * availTol}, 2*availTol - x},
	}
	for _, c := range cases {
		if got := c.job.Available(); got != c.want {
			t.Errorf("%+v.Available() = %v, want %v", c.job, got, c.want)
		}
	}
}

// TestJobErrorReasons checks that Rates names the field and the rule an
// invalid job breaks (Job's documented validity): y(t) outside [0, y] is
// "must be in [0, shuffle]", also when x(t) = 0; y(t) inside it but below
// y·x(t)/x (by more than availTol·y) is constraint (1).
func TestJobErrorReasons(t *testing.T) {
	t.Parallel()
	const (
		inRange   = "must be in [0, shuffle]"
		violation = "violates constraint (1)"
	)
	for _, c := range []struct {
		job           Job
		field, reason string
	}{
		{Job{Map: 2, Shuffle: 4, RemainingMap: 0, RemainingShuffle: 5}, "RemainingShuffle", inRange},
		{Job{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: -1}, "RemainingShuffle", inRange},
		{Job{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 0}, "RemainingShuffle", violation},
		{Job{Map: 2, Shuffle: 4, RemainingMap: 1, RemainingShuffle: 1}, "RemainingShuffle", violation},
		{Job{Map: 2, Shuffle: 4, RemainingMap: 3, RemainingShuffle: 4}, "RemainingMap", "must be in [0, map]"},
		{Job{Map: 2, Shuffle: 4, RemainingMap: -1, RemainingShuffle: 4}, "RemainingMap", "must be in [0, map]"},
	} {
		ok := Job{Map: 1, Shuffle: 1, RemainingMap: 1, RemainingShuffle: 1}
		_, err := Rates(nil, []Job{ok, c.job}, 1, Discipline{}, nil)
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Index != 1 || in.Field != c.field || !strings.Contains(in.Reason, c.reason) {
			t.Errorf("Rates with job %+v: got %v; want job 1, field %q, reason %q", c.job, err, c.field, c.reason)
		}
	}
}

// TestConstraintOneBoundary: a deficit of exactly availTol·y (the fraction
// y(t)/y − x(t)/x = −availTol) is within the tolerance and accepted; one
// ulp more is a violation. With x = y = 1, x(t) = 1e-9 + 2^-60 (exact) and
// y(t) = 2^-60, y(t) − x(t) = −1e-9 exactly.
func TestConstraintOneBoundary(t *testing.T) {
	t.Parallel()
	const tiny = 0x1p-60
	xr := availTol + tiny
	if tiny-xr != -availTol {
		t.Fatalf("test setup: %v − %v = %v, want exactly −%v", tiny, xr, tiny-xr, availTol)
	}
	at := Job{Map: 1, Shuffle: 1, RemainingMap: xr, RemainingShuffle: tiny}
	if _, err := Rates(nil, []Job{at}, 1, Discipline{}, nil); err != nil {
		t.Errorf("Rates with a deficit of exactly availTol·y: %v; want it accepted", err)
	}
	past := at
	past.RemainingShuffle = tiny / 2 // deficit 1e-9 + 2^-61
	if _, err := Rates(nil, []Job{past}, 1, Discipline{}, nil); err == nil {
		t.Errorf("Rates with a deficit above availTol·y: accepted; want an InputError")
	}
}

// TestWaterFillExactLimit: a limited job whose limit l is below the level
// θ gets exactly l, also where l·(open jobs) rounds to the capacity c. With
// l = 0.1 and two unlimited jobs, c = fl(3·0.1) exceeds 3·0.1 (checked in
// math/big), so the exact level is θ = (c − l)/2 > l: the limited job gets
// 0.1, not c/3.
func TestWaterFillExactLimit(t *testing.T) {
	t.Parallel()
	l := 0.1
	c := l * 3
	exact3l := new(big.Float).SetPrec(200).Mul(big.NewFloat(l), big.NewFloat(3))
	if new(big.Float).SetPrec(200).SetFloat64(c).Cmp(exact3l) <= 0 {
		t.Fatalf("test setup: fl(3·%v) = %v does not exceed 3·%v", l, c, l)
	}
	lim := []limitEntry{{limit: l, id: 0}}
	theta := waterFill(c, 2, lim)
	if lim[0].limit != l {
		t.Errorf("waterFill(%v, 2, [%v]): limited job gets %v, want its limit %v", c, l, lim[0].limit, l)
	}
	if want := (c - l) / 2; theta != want {
		t.Errorf("waterFill(%v, 2, [%v]) = θ %v, want (c − l)/2 = %v", c, l, theta, want)
	}
}

// testKLPSSelectsEarliest: k-LPS's map station serves the k earliest jobs
// (arrival, then index) with map work left, each at speed/min(k, m) for m
// such jobs (§5.1), whatever order the snapshot lists them in: checked
// against a sort of the jobs. Arrivals are drawn unordered with ties, so
// the bounded max-heap that selects them is exercised on replacements that
// must sift down either child.
func testKLPSSelectsEarliest(t *rapid.T) {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	jobs := make([]Job, n)
	for i := range jobs {
		x := float64(rapid.IntRange(0, 2).Draw(t, "map"))
		jobs[i] = Job{Arrival: float64(rapid.IntRange(0, 6).Draw(t, "arrival")), Map: x, Shuffle: 1, RemainingMap: x, RemainingShuffle: 1}
	}
	k := rapid.IntRange(1, 8).Draw(t, "k")
	got, err := Rates(nil, jobs, 1, Discipline{Algorithm: KLPS, K: k}, nil)
	if err != nil {
		t.Fatalf("Rates: %v", err)
	}
	var order []int
	for i, j := range jobs {
		if j.RemainingMap > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Arrival, jobs[b].Arrival) })
	order = order[:min(k, len(order))]
	want := make([]float64, n)
	for _, i := range order {
		want[i] = 1 / float64(len(order))
	}
	for i := range jobs {
		if got[i].Map != want[i] {
			t.Fatalf("k = %d, arrivals %v: map rates %v, want %v (the %d earliest)", k, jobs, got, want, len(order))
		}
	}
}

func TestKLPSSelectsEarliest(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testKLPSSelectsEarliest)
	// By hand: k = 3, arrivals 1, 2, 3, 0, 0.5 in index order. The heap of
	// the first three has the latest (3) at its root; job 3 (arrival 0)
	// replaces it and must sift below its later child (arrival 2), so that
	// job 4 (arrival 0.5) then replaces arrival 2: jobs 0, 3, 4 are served.
	var jobs []Job
	for _, r := range []float64{1, 2, 3, 0, 0.5} {
		jobs = append(jobs, Job{Arrival: r, Map: 1, Shuffle: 1, RemainingMap: 1, RemainingShuffle: 1})
	}
	got, err := Rates(nil, jobs, 3, Discipline{Algorithm: KLPS, K: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1, 0, 0, 1, 1} {
		if got[i].Map != want {
			t.Errorf("k-LPS, k = 3, arrivals 1, 2, 3, 0, 0.5, speed 3: map rates %v, want jobs 0, 3 and 4 at 1", got)
			break
		}
	}
}

// TestLowerBoundZeroAllocs: LowerBound with a reused Workspace allocates
// nothing on a second call with the same number of jobs (the scratch it
// grew on the first call is exactly large enough).
func TestLowerBoundZeroAllocs(t *testing.T) {
	jobs := benchWorkload(200)
	var ws Workspace
	if _, err := LowerBound(jobs, 1, &ws); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(10, func() { _, _ = LowerBound(jobs, 1, &ws) }); a != 0 {
		t.Errorf("LowerBound: %v allocs per call with a reused Workspace", a)
	}
}

// TestSRPTQueueAnchorsAtReachedArrival: a job that arrives exactly when the
// SRPT queue's head finishes is reached by advancing the clock, and the
// clock is re-anchored at its arrival, so its response time is its own
// service time even when that is far below the ulp of the arrival time
// (lowerbound.go's srptQueue, the clock of table.go). By hand: job 0
// (time 0, size 1e20) finishes at 1e20, when job 1 (size 1) arrives and is
// served alone: responses 1e20 and 1. Measured from time 0, job 1's
// completion 1e20 + 1 would round to 1e20 and give it 0.
func TestSRPTQueueAnchorsAtReachedArrival(t *testing.T) {
	t.Parallel()
	jobs := []Arrival{{Time: 0, Map: 1e20, Shuffle: 1e20}, {Time: 1e20, Map: 1, Shuffle: 1}}
	for _, shuffle := range []bool{false, true} {
		var q srptQueue
		resp := make([]float64, len(jobs))
		q.run(resp, jobs, shuffle, 1)
		if resp[0] != 1e20 || resp[1] != 1 {
			t.Errorf("srptQueue.run (shuffle %v): responses %v, want [1e20 1]", shuffle, resp)
		}
	}
}

// TestMaxSRPTHeadTies: MaxSRPT's heads on key ties decided by arrival,
// where the snapshot lists the later arrival first (Algorithm 1, ties by
// arrival then index, see MaxSRPT). Worked by hand:
//   - map head: jobs 0 and 1 (no map phase, key 1, all shuffle available)
//     come first in the shuffle order; jobs 2 and 3 (sizes (5, 5), nothing
//     done, key 5) tie, and job 3 arrives first, so the map station serves
//     job 3 at 1; job 0 takes the whole shuffle station (its work is all
//     available): rates [{0 1} {0 0} {0 0} {1 0}];
//   - shuffle head after a limited map job: job 0 (sizes (2, 1), nothing
//     done, key 2) gets map rate 1 and shuffle rate (1/2)·1 = 0.5, all its
//     map rate allows; jobs 1, 2, 3 (no map phase, key 3) tie, job 3
//     arrives first and takes the remaining 0.5.
func TestMaxSRPTHeadTies(t *testing.T) {
	t.Parallel()
	avail := func(r, y float64) Job { return Job{Arrival: r, Shuffle: y, RemainingShuffle: y} }
	full := func(r, x, y float64) Job {
		return Job{Arrival: r, Map: x, Shuffle: y, RemainingMap: x, RemainingShuffle: y}
	}
	for _, c := range []struct {
		name string
		jobs []Job
		want []Rate
	}{
		{"map head", []Job{avail(0, 1), avail(0, 1), full(2, 5, 5), full(1, 5, 5)},
			[]Rate{{0, 1}, {}, {}, {1, 0}}},
		{"shuffle head", []Job{full(0, 2, 1), avail(5, 3), avail(5, 3), avail(1, 3)},
			[]Rate{{1, 0.5}, {}, {}, {0, 0.5}}},
	} {
		got, err := Rates(nil, c.jobs, 1, Discipline{Algorithm: MaxSRPT}, nil)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: Rates = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestRatesAvailabilityBoundaries: a job's shuffle work counts as available
// exactly when Job.Available's rule says so (a fraction y(t)/y − x(t)/x
// above availTol), on both sides of the size where the rate code switches
// from the amount to the fractions (2^-990). A single MaxSRPT job gets map
// rate 1 and, if it has available work, shuffle rate 1; if not, (y/x)·1.
// All the sizes below are exact, and each fraction is worked out by hand:
//   - y = 1, x = 4, x(t) = 2^-58, y(t) = 1e-9 + 2^-60: the fraction is
//     exactly 1e-9 = availTol: none available, shuffle rate 1/4;
//   - y = 4, x = 16, x(t) = 2^-56, y(t) = 2^-58 + 2e-9: fraction 5e-10
//     (amount 2e-9 < availTol·y = 4e-9): none, shuffle rate 1/4;
//   - y = 2^-992, x = 1, x(t) = 2^-60, y(t) = (1e-9 + 2^-60)·2^-992:
//     fraction exactly 1e-9: none, shuffle rate 2^-992;
//   - y = y(t) = 5e-324, x = 4, x(t) = 3: fraction 1/4 (availFraction's
//     example; the amount 5e-324 − 5e-324·0.75 rounds to 0): available,
//     shuffle rate 1.
func TestRatesAvailabilityBoundaries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		job     Job
		shuffle float64
	}{
		{Job{Map: 4, Shuffle: 1, RemainingMap: 0x1p-58, RemainingShuffle: availTol + 0x1p-60}, 0.25},
		{Job{Map: 16, Shuffle: 4, RemainingMap: 0x1p-56, RemainingShuffle: 0x1p-58 + 2*availTol}, 0.25},
		{Job{Map: 1, Shuffle: 0x1p-992, RemainingMap: 0x1p-60, RemainingShuffle: (availTol + 0x1p-60) * 0x1p-992}, 0x1p-992},
		{Job{Map: 4, Shuffle: 5e-324, RemainingMap: 3, RemainingShuffle: 5e-324}, 1},
	} {
		got, err := Rates(nil, []Job{c.job}, 1, Discipline{Algorithm: MaxSRPT}, nil)
		if want := []Rate{{1, c.shuffle}}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Rates(%+v) = %v, %v; want %v", c.job, got, err, want)
		}
	}
}

// TestParseAlgorithmQuotesName: ParseAlgorithm's error is an InputError whose Text
// is the name, and its message quotes a name of up to 40 characters in
// full and a longer one cut to its first 40 characters, then "…" — cut
// between characters, not bytes: 41 "é" (82 bytes) give 40 "é", where a
// cut at 40 bytes gave 20.
func TestParseAlgorithmQuotesName(t *testing.T) {
	t.Parallel()
	name40 := strings.Repeat("x", 40)
	accents40 := strings.Repeat("é", 40)
	for _, c := range []struct{ name, quoted string }{
		{name40, `name = "` + name40 + `": unknown policy`},
		{name40 + "y", `name = "` + name40 + `"…: unknown policy`},
		{accents40 + "é", `name = "` + accents40 + `"…: unknown policy`},
		{"foo", `overlap.ParseAlgorithm: name = "foo": unknown policy: want maxsrpt,`},
	} {
		_, err := ParseAlgorithm(c.name)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Text != c.name || ie.Field != "name" || ie.Index != -1 {
			t.Errorf("ParseAlgorithm(%q): error %#v; want an InputError on name with Text the name", c.name, err)
		}
		if err == nil || !strings.Contains(err.Error(), c.quoted) {
			t.Errorf("ParseAlgorithm(%q): error %v; want it to contain %s", c.name, err, c.quoted)
		}
	}
}

// TestSplitSRPTOverflowingImbalances: β(t) is the least imbalance also
// when every job's imbalance exceeds MaxFloat64 (the quotients round to
// +Inf and only the exact comparison tells them apart). Job A (1e200,
// 1e-200, imbalance 1e400) is listed before job B (1e160, 1e-160, 1e320),
// so β(t) = B's 1e320. Under SplitSRPTStrict at speed s = 1e300 both are
// map-heavy; B has the smaller x(t) and is served: map rate μ₂·s and
// shuffle rate min(μ₁·s, (y_B/x_B)·μ₂·s), both ≈ s·lo_B/(lo_B + hi_B) ≈
// 1e-20 for the shuffle, checked against math/big (with A's imbalance the
// shuffle capacity would be 1e-100).
func TestSplitSRPTOverflowingImbalances(t *testing.T) {
	t.Parallel()
	const s = 1e300
	a := Job{Map: 1e200, Shuffle: 1e-200, RemainingMap: 1e200, RemainingShuffle: 1e-200}
	b := Job{Map: 1e160, Shuffle: 1e-160, RemainingMap: 1e160, RemainingShuffle: 1e-160}
	got, err := Rates(nil, []Job{a, b}, s, Discipline{Algorithm: SplitSRPTStrict}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := badd(bf(b.Map), bf(b.Shuffle))
	mu1s, _ := bquo(bmul(bf(s), bf(b.Shuffle)), sum).Float64()
	mu2s, _ := bquo(bmul(bf(s), bf(b.Map)), sum).Float64()
	if got[0] != (Rate{}) || math.Abs(got[1].Map-mu2s) > 1e-12*mu2s || math.Abs(got[1].Shuffle-mu1s) > 1e-12*mu1s {
		t.Errorf("Rates(A, B) = %v; want [{0 0} {%v %v}]", got, mu2s, mu1s)
	}
}

// TestSplitSRPTSubnormalShare: a limit (y/x)·p is formed from the exact
// rate p, not from its rounding, when p is subnormal. One shuffle-heavy
// job, x = 2^-500, y = 3·2^498 (β = 3·2^998), under SplitSRPTStrict (the
// classes keep their capacities) at speed s = 2^-60: its map
// rate μ₁·s = s·x/(x+y) ≈ 2^-1074·21845.3 is subnormal (rounded to
// 21845·2^-1074, 1.5e-5 low); its shuffle rate is min(μ₂·s, (y/x)·μ₁·s),
// both s·y/(x+y), which rounds to s. From the rounded map rate the limit
// would be s·(1 − 2^-16). Both rates are checked against math/big.
func TestSplitSRPTSubnormalShare(t *testing.T) {
	t.Parallel()
	const s, x, y = 0x1p-60, 0x1p-500, 3 * 0x1p498
	job := Job{Map: x, Shuffle: y, RemainingMap: x, RemainingShuffle: y}
	sum := badd(bf(x), bf(y))
	wantMap, _ := bquo(bmul(bf(s), bf(x)), sum).Float64()
	wantShuffle, _ := bquo(bmul(bf(s), bf(y)), sum).Float64()
	got, err := Rates(nil, []Job{job}, s, Discipline{Algorithm: SplitSRPTStrict}, nil)
	if want := []Rate{{wantMap, wantShuffle}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Rates(%+v, speed 2^-60) = %v, %v; want %v", job, got, err, want)
	}
}
