package sim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// handEngine is an engine for one job of two tasks of durations 10 and 4
// (the phase's floor is 4), t_new = 3, reporting every time unit, whose
// first task's first copy has started at time 0 with its slowdown at half
// its nominal run: n = 4, s = 2, U = 1/2. Its progress score is a/4 up to
// age 2, then 1/2 + (a − 2)/16, reaching 1 at 10.
func handEngine(t *testing.T) *engine {
	t.Helper()
	jobs := []Job{{Beta: 1.5, NewCopy: 3, Phases: []Phase{{Tasks: 2, Durations: []float64{10, 4}}}}}
	cfg := DefaultConfig(Hopper, 4)
	cfg.Speculation.Estimator = Observed
	cfg.Speculation.Heartbeat = 1.0 / 3 // every time unit
	e := newEngine("test", jobs, cfg, 2)
	e.arrive(0)
	e.launch(0)
	if e.cs[0].end != 10 || e.floor[0] != 4 || e.prof[0].beat != 1 {
		t.Fatalf("copy 0 ends at %v, floor %v, reports every %v; want 10, 4, 1", e.cs[0].end, e.floor[0], e.prof[0].beat)
	}
	e.prof[0] = newProfile(10, 4, 0.5, 1)
	return e
}

// TestObservedEstimateByHand: the estimates of a copy that slows down at a
// known point, worked by hand from its profile (handEngine): at a report at
// age x with score p the remaining time is x·(1 − p)/p, and it holds until
// the next report.
func TestObservedEstimateByHand(t *testing.T) {
	t.Parallel()
	e := handEngine(t)
	for _, tc := range []struct{ now, want float64 }{
		{0.5, 0},        // no report yet: no estimate
		{1, 3},          // p = 1/4: 3 left (the nominal run's end, 4)
		{1.5, 3},        // between reports: the last report's
		{2, 2},          // p = 1/2 at the slowdown: 2 left
		{3, 3 * 7 / 9.}, // p = 9/16: 3·(7/16)/(9/16) = 7/3
		{3.5, 7 / 3.},   // between reports
		{6, 2},          // p = 3/4: 2 left (the truth: 4)
		{9, 0.6},        // p = 15/16: 0.6 left (the truth: 1)
		{9.9, 0.6},      // no report since 9
	} {
		e.now = tc.now
		if got := e.remaining(0); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("t_rem at %v = %v, want %v", tc.now, got, tc.want)
		}
	}
	// A copy started at 3.5 is assumed to need t_new = 3 until it reports;
	// its own profile: 4 without a slowdown (at its report at 4.5, age 1,
	// p = 1/4: 3 left).
	e.now = 3.5
	e.startCopy(0, false)
	e.prof[1] = newProfile(4, 4, 0.5, 1)
	for _, tc := range []struct{ now, want float64 }{
		{3.5, 7 / 3.}, // min(the first copy's 7/3, the new copy's 3)
		{4, 2.4},      // first copy's report 4: p = 5/8, 4·(3/8)/(5/8) = 2.4
		{4.5, 2.4},    // new copy's report: 3; the first copy's 2.4 is less
	} {
		e.now = tc.now
		if got := e.remaining(0); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("t_rem at %v with two copies = %v, want %v", tc.now, got, tc.want)
		}
	}
}

// TestNextRiseByHand: the first copy of handEngine has estimated remaining
// times 3, 2, 7/3, 2.4, 2.27, 2, 1.62, 1.14, 0.6 at its reports 1 … 9:
// against level 2.2 they rise above it at reports 1 and 3 only; against
// Mantri's band (2.1, 2.35] at 1, 3 (the previous, 2, is not above 2.35)
// and 4 (the previous, 7/3, is not above 2.35), not at 5 (2.4 before).
func TestNextRiseByHand(t *testing.T) {
	t.Parallel()
	e := handEngine(t)
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{2.2, 2.2, []float64{1, 3}},
		{2.1, 2.35, []float64{1, 3, 4}},
		{3, 3, nil},
		{0, 0, []float64{1}}, // every estimate before the end is above 0
	} {
		var got []float64
		for k := 1.0; ; {
			r, at, ok, _ := e.nextRise(0, k, tc.lo, tc.hi)
			if !ok {
				break
			}
			if at != r {
				t.Errorf("report %v at %v, want at %v", r, at, r)
			}
			got = append(got, r)
			k = r + 1
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("levels (%v, %v]: rising reports %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// testProfile: a copy's progress starts at 0, never falls, reaches U at its
// slowdown, runs no faster after it than before, and reaches 1 exactly at
// its duration: the profile reproduces the drawn duration.
func testProfile(t *rapid.T) {
	dur := rapid.Float64Range(1e-3, 1e3).Draw(t, "dur")
	floor := rapid.Float64Range(1e-3, 1e3).Draw(t, "floor")
	u := rapid.Float64Range(1e-9, 1-1e-9).Draw(t, "u")
	p := newProfile(dur, floor, u, 1)
	if p.nominal > dur || p.nominal > floor || p.slow > p.nominal {
		t.Fatalf("profile %+v of duration %v, floor %v", p, dur, floor)
	}
	if got := p.progress(dur); got != 1 {
		t.Fatalf("progress at the end %v = %v, want 1", dur, got)
	}
	if got := p.progress(0); got != 0 {
		t.Fatalf("progress at 0 = %v", got)
	}
	if got := p.progress(p.slow); math.Abs(got-u) > 1e-12 {
		t.Fatalf("progress at the slowdown = %v, want %v", got, u)
	}
	if dur > p.slow && (1-u)/(dur-p.slow) > (1+1e-6)/p.nominal { // 1 − U loses bits for U near 1
		t.Fatalf("faster after the slowdown: %v > %v", (1-u)/(dur-p.slow), 1/p.nominal)
	}
	prev := 0.0
	for i := 1; i <= 64; i++ {
		got := p.progress(dur * float64(i) / 64)
		if got < prev || got > 1 {
			t.Fatalf("progress %v after %v at %v/64 of the run", got, prev, i)
		}
		prev = got
	}
}

func TestProfile(t *testing.T) { t.Parallel(); rapid.Check(t, testProfile) }

// TestLastReport: the k-th report of a copy started at start comes at
// start + k·beat: lastReport is the largest k with that time ≤ now.
func TestLastReport(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		start := rapid.Float64Range(0, 1e6).Draw(t, "start")
		beat := rapid.Float64Range(1e-3, 10).Draw(t, "beat")
		var now float64
		onReport := rapid.Bool().Draw(t, "onReport")
		if onReport {
			now = start + float64(rapid.IntRange(0, 1000).Draw(t, "k"))*beat
			if rapid.Bool().Draw(t, "justBefore") {
				now = math.Max(start, math.Nextafter(now, 0)) // the quotient may overshoot
			}
		} else {
			now = start + rapid.Float64Range(0, 1000*beat).Draw(t, "age")
		}
		k, steps := countReports(start, beat, now)
		if k != math.Trunc(k) || k < 0 || k > 0 && start+k*beat > now || start+(k+1)*beat <= now {
			t.Fatalf("lastReport(%v, %v, %v) = %v", start, beat, now, k)
		}
		// beat ≥ 1e-3 is 2^27 units in the last place of start ≤ 1e6:
		// the quotient is within one report of k, and its floor is k
		// unless now is within rounding of a report.
		if steps < 0 || steps > 1 || !onReport && math.Abs(math.Remainder(now-start, beat)) > 1e-6*beat && steps != 0 {
			t.Fatalf("lastReport(%v, %v, %v) = %v took %d steps from the quotient", start, beat, now, k, steps)
		}
		if lastReport(start, beat, now) != k {
			t.Fatalf("lastReport(%v, %v, %v) = %v, countReports %v", start, beat, now, lastReport(start, beat, now), k)
		}
	})
}

// TestLastReportExtremes: a copy that has run maxReports (2^20) heartbeats
// or more has made 2^20 reports (the cap); one whose heartbeat is
// below its start's precision counts the report times that differ, by
// hand: at start = 1, beat = 2^-54 (a quarter of 1's unit in the last
// place, 2^-52), start + k·beat is 1 + (k/4) units and rounds to 1 for
// k ≤ 2 (k = 2 a tie, to even), to 1 + 2^-52 for 3 ≤ k ≤ 5, and to
// 1 + 2^-51 for k = 6 (a tie, to even), so at now = 1 + 2^-52 the copy
// has made 5 reports, and at now = 1, 2.
func TestLastReportExtremes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ start, beat, now, want float64 }{
		{0, 1, 1 << 20, 1 << 20},
		{0, 1, 1<<20 + 0.5, 1 << 20},
		{0, 1, 1<<20 + 1, 1 << 20}, // report 2^20 + 1 is not made
		{0, 1, 1 << 52, 1 << 20},
		{0, 1, 1e300, 1 << 20},
		{5, 1e-300, 1e300, 1 << 20},
		{0, 1, (1 << 20) - 1, (1 << 20) - 1},
		{0, 1, (1 << 20) - 0.5, (1 << 20) - 1},
		// The quotient is 2^52, and start + (2^52 + 1)·beat = 2^61 + 2^8
		// rounds (a tie, to even) to 2^61 = now: without the cap, k would
		// be 2^52 + 1.
		{1 << 60, 1 << 8, 1 << 61, 1 << 20},
		// The quotient is 2^20 exactly, and start + (2^20 + 1)·beat rounds
		// to now (the beat about 3 units in the last place of the start):
		// without the cap at the quotient, the walk would count report
		// 2^20 + 1.
		{0x129f3bd3c229dep-53, 0x18bd63ac130d06p-104, 0x129f3bd3f3a4a8p-53, 1 << 20},
		{1, 0x1p-54, 1 + 0x1p-52, 5},
		{1, 0x1p-54, 1, 2},
		// The 540th report is at 4016.6561524358117 (start + 540·beat
		// rounded), one unit in the last place after now; the quotient
		// is 540.
		{96.90406502940995, 7.258800161863706, 4016.6561524358112, 539},
		{3, 2, 3, 0},
		{3, 2, 4.999, 0},
		{3, 2, 5, 1},
	} {
		if got, steps := countReports(c.start, c.beat, c.now); got != c.want || steps < 0 {
			t.Errorf("lastReport(%v, %v, %v) = %v in %d steps, want %v", c.start, c.beat, c.now, got, steps, c.want)
		}
	}
}

// testNextRise: nextRise, which skips the reports the profile's closed form
// rules out, finds the reports a scan of every report finds, from every
// report on; and its cost (nextRise's visits) is O(1) plus the reports in
// the band: at most riseSlack more than the reports from its start up to
// the rise it finds (or the copy's end) whose estimate, or whose previous
// report's, lies within 10⁻⁶ of [lo, hi] — where a window that only widened
// would add far more (the copies make up to 5 000 reports).
func testNextRise(t *rapid.T) {
	start := rapid.Float64Range(0, 100).Draw(t, "start")
	dur := rapid.Float64Range(0.01, 20).Draw(t, "dur")
	floor := rapid.Float64Range(0.01, 20).Draw(t, "floor")
	u := rapid.Float64Range(1e-6, 1-1e-6).Draw(t, "u")
	beat := dur / rapid.Float64Range(0.5, 5000).Draw(t, "reports")
	lo := rapid.Float64Range(0, 3).Draw(t, "level") * math.Min(dur, floor)
	if rapid.Bool().Draw(t, "nearSlowdown") {
		// About the estimate at the slowdown, n − s: above it the copy's
		// surely-above reports make two ranges with the rise between them.
		lo = rapid.Float64Range(0.8, 1.25).Draw(t, "level/(n−s)") * math.Min(dur, floor) * (1 - u)
	}
	if rapid.IntRange(0, 9).Draw(t, "zero") == 0 {
		lo = 0
	}
	hi := lo * rapid.SampledFrom([]float64{1, 1 + 2*thetaTol, 1.5, 2}).Draw(t, "band")
	checkRises(t, start, dur, floor, u, beat, lo, hi)
}

// oneCopy is an engine holding one copy, alive, started at start and
// ending dur later (start + dur, rounded), of the profile of that run in a
// phase of floor, slowing down at u, reporting every beat.
func oneCopy(start, dur, floor, u, beat float64) *engine {
	e := &engine{}
	e.cs = []copyState{{start: start, end: start + dur, alive: true}}
	e.prof = []profile{newProfile(e.cs[0].end-start, floor, u, beat)}
	return e
}

// checkRises is testNextRise on one copy and band of levels.
func checkRises(t interface{ Fatalf(string, ...any) }, start, dur, floor, u, beat, lo, hi float64) {
	e := oneCopy(start, dur, floor, u, beat)
	want := risesByScan(e, 1, math.Inf(1), lo, hi)
	var got []float64
	for k := 1.0; ; {
		r, _, ok, _ := e.nextRise(0, k, lo, hi)
		if !ok {
			break
		}
		got = append(got, r)
		k = r + 1
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rising reports %v, a scan finds %v (profile %+v, beat %v, levels %v, %v)", got, want, e.prof[0], beat, lo, hi)
	}
	// inBand[k]: report k's estimate, or its previous report's, lies
	// within 10⁻⁶ of [lo, hi]; prefix[k] counts those up to k.
	n := int(math.Ceil(dur/beat)) + 2
	prefix := make([]int, n+1)
	near := func(k float64) bool {
		x := e.timeLeft(0, k)
		return x > lo*(1-1e-6) && x <= hi*(1+1e-6)
	}
	for k := 1; k <= n; k++ {
		prefix[k] = prefix[k-1]
		if near(float64(k)) || k > 1 && near(float64(k-1)) {
			prefix[k]++
		}
	}
	for from := 1.0; start+from*beat < e.cs[0].end; from++ {
		r, _, ok, visits := e.nextRise(0, from, lo, hi)
		i, _ := slices.BinarySearch(want, from)
		if i < len(want) != ok || ok && r != want[i] {
			t.Fatalf("from %v: rise %v, %v; a scan finds %v", from, r, ok, want[i:])
		}
		to := n
		if ok {
			to = int(r)
		}
		band := prefix[to] - prefix[int(from)-1]
		if visits < 1 || visits > band+riseSlack {
			t.Fatalf("from %v: %d reports visited, %d in the band (profile %+v, levels %v, %v)", from, visits, band, e.prof[0], lo, hi)
		}
	}
}

// riseSlack bounds the passes of nextRise's loop outside the band: two
// skips over a range of surely-above reports, the first report and the
// last pass, and five reports (a bound's two either side of it, and its
// own) at each of the four ends where the may-exceed and the
// surely-exceeds windows differ: 2 + 2 + 4·5 (the most seen in 3 000 runs
// is 13).
const riseSlack = 24

func TestNextRise(t *testing.T) { t.Parallel(); rapid.Check(t, testNextRise) }

// TestNextRiseGap: testNextRise on handEngine's profile (n = 4, s = 2, d =
// 10) at a heartbeat of 0.01, against 2.1 and the band (2.1, 2.3]: the
// estimate, 4 − x before the slowdown, is above 2.1 up to age 1.9 and again
// from about 2.5 (after the slowdown it rises to 2.4 near age 4): its
// surely-above reports make two ranges with a rise between them.
func TestNextRiseGap(t *testing.T) {
	t.Parallel()
	for _, hi := range []float64{2.1, 2.3} {
		checkRises(t, 0, 10, 4, 0.5, 0.01, 2.1, hi)
	}
}

// observedWorkload is a small DefaultWorkload: 80 jobs on 20 slots at 90%
// offered load.
func observedWorkload(t testing.TB) []Job {
	jobs, err := Synthesize(DefaultWorkload(80, 20, 0.9), rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// TestObservedKeepsDurations: the observation model changes what the
// scheduler sees, not the work: a run without speculation is the same under
// every estimator, and under Observed every copy that completes its task
// runs exactly its drawn duration.
func TestObservedKeepsDurations(t *testing.T) {
	t.Parallel()
	jobs := observedWorkload(t)
	for _, p := range []Preset{SRPT, Fair} {
		cfg := DefaultConfig(p, 20)
		cfg.Record = true
		want, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Speculation.Estimator = Observed
		got, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("%v: Observed changed a run without speculation (-progress +observed):\n%s", p, diff)
		}
	}
	single := make([]Job, len(jobs)) // one phase: no copy waits for its upstream
	for j := range jobs {
		single[j] = jobs[j]
		single[j].Phases = jobs[j].Phases[:1]
	}
	cfg := DefaultConfig(Hopper, 20)
	cfg.Speculation.Estimator = Observed
	cfg.Record = true
	e, err := simulate(single, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if e.res.Stats.Copies == 0 {
		t.Fatal("Hopper started no copy under Observed")
	}
	for _, r := range e.res.Copies {
		task := int32(e.ps[e.js[r.Job].plo].lo) + int32(r.Task)
		if d := e.copyDuration(task, int32(r.Copy)); !r.Killed && r.End != r.Start+d {
			t.Fatalf("copy %+v ran %v, drawn %v", r, r.End-r.Start, d)
		}
	}
}

// TestObservedDeterministic: the same jobs, Config and seed give the same
// run; another seed another one.
func TestObservedDeterministic(t *testing.T) {
	t.Parallel()
	jobs := observedWorkload(t)
	for i, p := range []Preset{Hopper, SRPTBestEffort, FairBudgeted, Hopper} {
		cfg := DefaultConfig(p, 20)
		cfg.Speculation.Estimator = Observed
		cfg.Speculation.Mantri = i == 3
		cfg.Record = true
		a, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Simulate(jobs, cfg)
		if diff := gocmp.Diff(a, b); diff != "" {
			t.Errorf("%v: two runs differ:\n%s", p, diff)
		}
		cfg.Seed = 99
		if c, _ := Simulate(jobs, cfg); gocmp.Equal(a.Copies, c.Copies) {
			t.Errorf("%v: another seed gave the same copies", p)
		}
	}
}

// copiesBefore are a run's copies started before t0, each with its end and
// fate if it ended before t0, sorted.
func copiesBefore(r *Result, t0 float64) []CopyRecord {
	var out []CopyRecord
	for _, c := range r.Copies {
		if c.Start >= t0 {
			continue
		}
		if c.End >= t0 {
			c.End, c.Killed = math.Inf(1), false // not known at t0
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b CopyRecord) int {
		return cmp.Or(cmp.Compare(a.Job, b.Job), cmp.Compare(a.Phase, b.Phase), cmp.Compare(a.Task, b.Task), cmp.Compare(a.Copy, b.Copy))
	})
	return out
}

// TestObservedSeesNoFuture is the information test: under Observed no
// policy reads what a copy has not reported. Two sample paths differ only
// in the future: in the second, every copy whose reports up to t0 all come
// before its slowdown takes twice its duration (debugFlags.stretchAfter),
// which changes its progress only after t0 (and its end, after t0). Every
// policy — Hopper's rule (thesis and Mantri), best effort, budgeted,
// SREW+C's plan, the baselines — starts and ends the same copies at the
// same times before t0 on both. The test has power: under Oracle and
// Progress, whose estimates read the true end, some policy decides
// differently before t0.
func TestObservedSeesNoFuture(t *testing.T) {
	t.Parallel()
	jobs := observedWorkload(t)
	t0 := jobs[len(jobs)/2].Arrival
	for _, est := range []Estimator{Observed, Oracle, Progress} {
		differ := 0
		for i, p := range append(Policies(), Hopper) {
			cfg := DefaultConfig(p, 20)
			cfg.Speculation.Estimator = est
			cfg.Speculation.Mantri = i == len(Policies())
			cfg.Record = true
			a, err := Simulate(jobs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.debug.stretchAfter = t0
			b, err := Simulate(jobs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if gocmp.Equal(a.Copies, b.Copies) {
				t.Fatalf("%v, %v: stretching the future changed no copy", est, p)
			}
			diff := gocmp.Diff(copiesBefore(a, t0), copiesBefore(b, t0))
			if diff != "" {
				differ++
			}
			if est == Observed && diff != "" {
				t.Errorf("%v: decisions before %v depend on the future (-a +b):\n%s", p, t0, diff)
			}
		}
		if est != Observed && differ == 0 {
			t.Errorf("%v: no policy's decisions before t0 changed: the test has no power", est)
		}
	}
}

// TestObservedCapsCopies: under Observed a task just copied is not judged a
// straggler again before its new copy reports (the new copy is assumed to
// need t_new, which the thesis's rule does not exceed), so speculation
// stays within a few copies per task.
func TestObservedCapsCopies(t *testing.T) {
	t.Parallel()
	jobs := observedWorkload(t)
	cfg := DefaultConfig(Hopper, 20)
	cfg.Speculation.Estimator = Observed
	r, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Copies == 0 || r.Stats.Copies > r.Stats.Launched {
		t.Errorf("%d copies of %d tasks", r.Stats.Copies, r.Stats.Launched)
	}
}

// TestOnsetQuantile: over Onset's range, gonum's Beta quantile inverts its
// CDF (computed by a different routine, the regularised incomplete beta
// function) to within 1e-9, so the onset law is the one Onset names.
func TestOnsetQuantile(t *testing.T) {
	t.Parallel()
	shapes := []float64{MinOnsetShape, 0.5, 1, 3, MaxOnsetShape}
	for _, a := range shapes {
		for _, b := range shapes {
			d := distuv.Beta{Alpha: a, Beta: b}
			for _, u := range []float64{0x1p-53, 1e-9, 0.01, 0.25, 0.5, 0.75, 0.99, 1 - 1e-9, 1 - 0x1p-53} {
				x := d.Quantile(u)
				// A quantile within an ulp of 1 is 1 − 2^-53 or 1: no
				// number lies between.
				if !(x >= 0 && x <= 1) || math.Abs(d.CDF(x)-u) > 1e-9 && x < 1-0x1p-53 {
					t.Errorf("Beta(%v, %v): CDF(Quantile(%v)) = CDF(%v) = %v", a, b, u, x, d.CDF(x))
				}
			}
		}
	}
}

// TestOnsetLaw: the onsets a run draws follow Onset's Beta law (a
// Kolmogorov–Smirnov test of 20 000 draws against gonum's Beta CDF, critical
// value at a false-alarm rate of 1e-6: √(ln(2/1e-6)/(2n)) = 0.0190), stay in
// (0, 1), and the zero Onset is the keyed uniform draw itself.
func TestOnsetLaw(t *testing.T) {
	t.Parallel()
	const n = 20000
	for _, o := range []Onset{{}, {Alpha: 0.5, Beta: 2}, {Alpha: 2, Beta: 0.5}, {Alpha: MinOnsetShape, Beta: MinOnsetShape}, {Alpha: MaxOnsetShape, Beta: MinOnsetShape}} {
		e := &engine{seed: 7}
		e.cfg.Speculation.Onset = o
		law := distuv.Beta{Alpha: 1, Beta: 1}
		if o != (Onset{}) {
			law = distuv.Beta{Alpha: o.Alpha, Beta: o.Beta}
		}
		us := make([]float64, 0, n)
		for i := range n {
			task, num := int32(i/4), int32(i%4)
			u := e.onsetFraction(task, num)
			if !(u > 0 && u < 1) {
				t.Fatalf("%+v: onset %v of task %d copy %d outside (0, 1)", o, u, task, num)
			}
			if o == (Onset{}) && u != keyedUniform(7, drawSlowdown, int(task), int(num)) {
				t.Fatalf("uniform onset %v is not the keyed draw", u)
			}
			us = append(us, u)
		}
		slices.Sort(us)
		d := 0.0
		for i, u := range us {
			f := law.CDF(u)
			d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
		}
		if d > 0.0190 {
			t.Errorf("%+v: KS distance %v from Beta(%v, %v) > 0.0190", o, d, law.Alpha, law.Beta)
		}
	}
}

// TestOnsetMoves: the onset law changes only what the scheduler sees. A run
// without speculation is the same under every law; under Hopper, copies
// that slow down almost from their start (Beta(0.25, 10)) are seen early
// and copied more often than copies that slow down late (Beta(2, 0.5)),
// whose progress rate since their start hides the slowdown.
func TestOnsetMoves(t *testing.T) {
	t.Parallel()
	jobs := observedWorkload(t)
	run := func(p Preset, o Onset) *Result {
		cfg := DefaultConfig(p, 20)
		cfg.Speculation.Estimator = Observed
		cfg.Speculation.Onset = o
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	early, late := Onset{Alpha: 0.25, Beta: 10}, Onset{Alpha: 2, Beta: 0.5}
	if diff := gocmp.Diff(run(SRPT, early), run(SRPT, late)); diff != "" {
		t.Errorf("SRPT's run depends on the onset law (-early +late):\n%s", diff)
	}
	e, l := run(Hopper, early), run(Hopper, late)
	if !(e.Stats.Copies > l.Stats.Copies) {
		t.Errorf("Hopper copied %d tasks with early onsets, %d with late ones", e.Stats.Copies, l.Stats.Copies)
	}
}

// TestObservedLevels: the level a task is judged against under Observed is
// t_new for the thesis's rule and Mantri's cut-off × (c+1)/c for c live
// copies (2× for one copy, 1.5× for two: worked by hand), and reportLevels'
// band holds every such level with a margin of at least thetaTol/2 and at
// most 2·thetaTol relative on each side (the widening against rounding,
// neither missing nor much more than it).
func TestObservedLevels(t *testing.T) {
	t.Parallel()
	for _, mantri := range []bool{false, true} {
		jobs := []Job{{Beta: 1.5, NewCopy: 3, Phases: []Phase{{Tasks: 1, Durations: []float64{10}}}}}
		cfg := DefaultConfig(Hopper, 4)
		cfg.Speculation.Estimator = Observed
		cfg.Speculation.Mantri = mantri
		e := newEngine("test", jobs, cfg, 2)
		e.arrive(0)
		e.launch(0)
		js := &e.js[0]
		least, most := js.tau, js.tau
		if mantri {
			least, most = js.mantriCut, 2*js.mantriCut
			if got, want := e.observedLevel(0), 2*js.mantriCut; got != want {
				t.Errorf("Mantri, one copy: level %v, want 2 × cut-off %v", got, js.mantriCut)
			}
			e.startCopy(0, false)
			if got, want := e.observedLevel(0), 1.5*js.mantriCut; math.Abs(got-want) > 1e-15*want {
				t.Errorf("Mantri, two copies: level %v, want 1.5 × cut-off %v", got, js.mantriCut)
			}
		} else if got := e.observedLevel(0); got != js.tau {
			t.Errorf("thesis: level %v, want t_new %v", got, js.tau)
		}
		lo, hi := e.reportLevels(0)
		if !(lo <= least*(1-thetaTol/2) && lo >= least*(1-2*thetaTol) && hi >= most*(1+thetaTol/2) && hi <= most*(1+2*thetaTol)) {
			t.Errorf("Mantri %v: band [%v, %v] for levels [%v, %v]: not widened by thetaTol", mantri, lo, hi, least, most)
		}
	}
}

// TestPushRiseCountsVisits: the reports nextRise visits to queue a copy's
// next rise are the run's work (steps), as many as nextRise reports, plus
// the event queued if there is a rise (push's own step), on handEngine's
// copy from each of its reports.
func TestPushRiseCountsVisits(t *testing.T) {
	t.Parallel()
	e := handEngine(t)
	lo, hi := e.reportLevels(0)
	total := 0
	for k := 1.0; k <= 10; k++ {
		_, _, ok, visits := e.nextRise(0, k, lo, hi)
		want := visits
		if ok {
			want++
		}
		before := e.steps
		e.pushRise(0, k)
		if got := e.steps - before; got != want || visits < 1 {
			t.Errorf("from report %v: %d steps, nextRise visits %d and rise %v (want visits + 1 for a rise, visits ≥ 1)", k, got, visits, ok)
		}
		total += visits
	}
	if total < 10 {
		t.Errorf("%d visits from 10 reports", total)
	}
}
