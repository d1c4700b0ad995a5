package sim

import (
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestReportRanges: next, has and end of up to two ranges of report
// numbers, against the union of the ranges enumerated: next(k) is its least
// member ≥ k (the ranges may overlap, the first starting no later than the
// second, as windows' outer ranges do), has(k) its membership, and end(k)
// the last member of the run of consecutive members holding k (the ranges
// disjoint and in order, as windows' inner ranges are).
func TestReportRanges(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		var r reportRanges
		disjoint := rapid.Bool().Draw(t, "disjoint")
		for i := range 2 {
			r.lo[i] = float64(rapid.IntRange(-3, 12).Draw(t, "lo"))
			r.hi[i] = float64(rapid.IntRange(-3, 12).Draw(t, "hi"))
			if rapid.IntRange(0, 4).Draw(t, "infinite") == 0 {
				r.lo[i], r.hi[i] = math.Inf(1), math.Inf(-1)
			}
		}
		empty := func(i int) bool { return r.lo[i] > r.hi[i] }
		if !empty(0) && !empty(1) && (r.lo[1] < r.lo[0] || disjoint && r.lo[1] <= r.hi[0]+1) {
			t.Skip("not in order")
		}
		in := func(k float64) bool {
			return r.lo[0] <= k && k <= r.hi[0] || r.lo[1] <= k && k <= r.hi[1]
		}
		for k := -4.0; k <= 14; k++ {
			want := math.Inf(1)
			for m := k; m <= 13; m++ {
				if in(m) {
					want = m
					break
				}
			}
			if got := r.next(k); got != want {
				t.Fatalf("%+v: next(%v) = %v, want %v", r, k, got, want)
			}
			if r.has(k) != in(k) {
				t.Fatalf("%+v: has(%v) = %v", r, k, r.has(k))
			}
			if !disjoint || !in(k) {
				continue
			}
			end := k
			for in(end + 1) {
				end++
			}
			if got := r.end(k); got != end {
				t.Fatalf("%+v: end(%v) = %v, want %v", r, k, got, end)
			}
		}
	})
}

// risesByScan are the rises (nextRise's definition) among reports a … b of
// copy 0 of e, found by computing every estimate (none after maxReports,
// which are not made).
func risesByScan(e *engine, a, b, lo, hi float64) []float64 {
	var out []float64
	cp := &e.cs[0]
	for k := math.Max(a, 1); k <= b && k <= maxReports && cp.start+k*e.prof[0].beat < cp.end; k++ {
		if e.timeLeft(0, k) > lo && (k == 1 || e.timeLeft(0, k-1) <= hi) {
			out = append(out, k)
		}
	}
	return out
}

// logRange draws a number log-uniformly from [lo, hi].
func logRange(t *rapid.T, name string, lo, hi float64) float64 {
	return math.Exp(rapid.Float64Range(math.Log(lo), math.Log(hi)).Draw(t, name))
}

// fineCopy is an engine holding one copy drawn for testNextRiseFine, and two
// levels.
func fineCopy(t *rapid.T) (e *engine, lo, hi float64) {
	dur := logRange(t, "dur", 1e-3, 1e3)
	floor := logRange(t, "floor", 1e-3, 1e3)
	var u float64
	switch rapid.IntRange(0, 2).Draw(t, "onset") {
	case 0:
		u = rapid.Float64Range(1e-6, 1-1e-6).Draw(t, "u")
	case 1: // slows down at once: the scores after the slowdown start small
		u = logRange(t, "u", 1e-12, 1e-2)
	default: // late
		u = 1 - logRange(t, "1-u", 1e-12, 1e-2)
	}
	beat := dur / logRange(t, "reports", 1, 1<<24)
	start := 0.0
	if rapid.Bool().Draw(t, "later") {
		start = rapid.Float64Range(0, 100).Draw(t, "start")
		// The engine keeps the heartbeat at least the start's unit in the
		// last place.
		beat = math.Max(beat, math.Nextafter(start, math.Inf(1))-start)
	}
	n := math.Min(dur, floor)
	lo = n * logRange(t, "level", 1e-6, 10)
	hi = lo * rapid.SampledFrom([]float64{1, 1 + 2*thetaTol, 1.5, 2}).Draw(t, "band")
	return oneCopy(start, dur, floor, u, beat), lo, hi
}

// crossings are the ages in (0, d) at which the estimate x·(1 − p)/max(p,
// 10⁻⁴) of copy 0's profile, at real ages x, crosses level: sign changes
// on a grid of 4 096 even steps and 200 halvings towards 0, bisected.
func crossings(pr *profile, level float64) []float64 {
	est := func(x float64) float64 {
		p := pr.progress(x)
		return x * (1 - p) / math.Max(p, 1e-4)
	}
	xs := []float64{pr.slow}
	for i := 1; i < 4096; i++ {
		xs = append(xs, pr.dur*float64(i)/4096)
	}
	for j := 1; j <= 200; j++ {
		xs = append(xs, math.Ldexp(pr.dur, -j))
	}
	slices.Sort(xs)
	var out []float64
	for i := 1; i < len(xs); i++ {
		a, b := xs[i-1], xs[i]
		if (est(a) > level) == (est(b) > level) {
			continue
		}
		above := est(a) > level
		for range 200 {
			m := a + (b-a)/2
			if m == a || m == b {
				break
			}
			if (est(m) > level) == above {
				a = m
			} else {
				b = m
			}
		}
		out = append(out, a, b)
	}
	return out
}

// testNextRiseFine: with heartbeats down to 2^-24 of the copy's duration,
// more reports than maxReports and too many to scan, and onsets close to 0
// and 1, nextRise from the start of a stretch of 129 reports is the first rise a scan of the
// stretch finds, or past the stretch if it finds none — for stretches at
// the first report, at the slowdown and around every age where the
// estimate crosses a level (found by bisecting timeLeft's formula at real
// ages, not from windows' closed form), where the rises lie.
func testNextRiseFine(t *rapid.T) {
	e, lo, hi := fineCopy(t)
	pr := &e.prof[0]
	ages := append([]float64{0, pr.slow}, crossings(pr, lo)...)
	ages = append(ages, crossings(pr, hi)...)
	const m = 64
	for _, x := range ages {
		a := math.Max(1, math.Floor(x/pr.beat)-m)
		b := a + 2*m
		want := risesByScan(e, a, b, lo, hi)
		got, _, ok, _ := e.nextRise(0, a, lo, hi)
		if len(want) > 0 && (!ok || got != want[0]) || len(want) == 0 && ok && got <= b {
			t.Fatalf("from report %v (age %v): nextRise %v, %v; a scan up to %v finds %v (profile %+v, levels %v, %v)",
				a, x, got, ok, b, want, *pr, lo, hi)
		}
	}
}

func TestNextRiseFine(t *testing.T) { t.Parallel(); rapid.Check(t, testNextRiseFine) }

// TestNextRiseLast: report maxReports (2^20) is a copy's last (lastReport's
// cap): a rise there is found, none after it, promptly. The copy: start 0,
// heartbeat 1, d = n = 2^30, no slowdown, estimates n − k exactly; the band
// of levels (lo, hi] is set from the estimates of reports 2^20 − 1 and
// 2^20 so that, from report 2^20 − 8 on, 2^20 alone rises (an early
// report, under the 10⁻⁴ score floor, rises into the band too), and the
// bands at 2^20 + 1 and 2^21 so that reports beyond the cap would.
func TestNextRiseLast(t *testing.T) {
	t.Parallel()
	const n = 1 << 30
	e := oneCopy(0, n, n, 0.5, 1)
	band := func(k float64) (lo, hi float64) {
		return math.Nextafter(e.timeLeft(0, k), 0), e.timeLeft(0, k-1)
	}
	type rise struct {
		k  float64
		ok bool
	}
	done := make(chan []rise, 1)
	go func() {
		var got []rise
		lo, hi := band(maxReports)
		for _, from := range []float64{maxReports, maxReports + 1} {
			k, _, ok, _ := e.nextRise(0, from, lo, hi)
			got = append(got, rise{k, ok})
		}
		for _, last := range []float64{maxReports + 1, 2 * maxReports} {
			lo, hi := band(last)
			k, _, ok, _ := e.nextRise(0, math.Max(last-8, maxReports+1), lo, hi)
			got = append(got, rise{k, ok})
		}
		done <- got
	}()
	lo, hi := band(maxReports)
	want := []rise{{maxReports, true}, {}, {}, {}}
	if scan := risesByScan(e, maxReports-8, math.Inf(1), lo, hi); !slices.Equal(scan, []float64{maxReports}) {
		t.Fatalf("band (%v, %v]: a scan from 2^20 − 8 finds rises %v, want report 2^20 alone", lo, hi, scan)
	}
	if e.timeLeft(0, maxReports) != n-maxReports {
		t.Fatalf("the estimate at report 2^20 is %v, want n − 2^20", e.timeLeft(0, maxReports))
	}
	select {
	case got := <-done:
		if !slices.Equal(got, want) {
			t.Errorf("rises at the last report (from 2^20, 2^20 + 1; bands at 2^20 + 1 and 2^21 from 2^20 + 1 and 2^21 − 8): %v, want %v", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nextRise beyond report 2^20 did not return in 10 s")
	}
}

// TestObservedTheta: observedEstimate's θ on handEngine's copy, whose
// estimates are worked by hand in TestObservedEstimateByHand: −∞ before its
// first report whatever the level (no estimate: never a straggler, even
// against level 0, which t_rem = 0 would pass within thetaTol), then +∞
// while the last report's estimate exceeds the level and −∞ while it does
// not; each call after the first report visits the task's one copy once
// (the engine's step count, read by the cost tests).
func TestObservedTheta(t *testing.T) {
	t.Parallel()
	e := handEngine(t)
	inf, minf := math.Inf(1), math.Inf(-1)
	for _, c := range []struct{ now, level, rem, theta float64 }{
		{0.5, 0, 0, minf},
		{0.5, 1, 0, minf},
		{1, 2.9, 3, inf},
		{1, 3.1, 3, minf},
		{3, 2, 7 / 3., inf},
		{3, 2.5, 7 / 3., minf},
		{9, 0.5, 0.6, inf},
		{9, 0.7, 0.6, minf},
	} {
		e.now = c.now
		steps := e.steps
		rem, theta := e.observedEstimate(0, c.level)
		if visits := e.steps - steps; visits != 0 && c.now < 1 || visits != 1 && c.now >= 1 {
			t.Errorf("at %v: %d steps", c.now, visits)
		}
		if math.Abs(rem-c.rem) > 1e-12 || theta != c.theta {
			t.Errorf("at %v against %v: t_rem %v, θ %v; want %v, %v", c.now, c.level, rem, theta, c.rem, c.theta)
		}
	}
}

// testWindowsSound: around each bound of windows' ranges (64 reports either
// side), on fineCopy's copies, every report whose estimate exceeds the
// level is in the may-exceed ranges, and every report in the
// surely-exceeds ranges has an estimate above the level: the closed form
// and its margins against rounding hold where they are tight.
func testWindowsSound(t *rapid.T) {
	e, lo, hi := fineCopy(t)
	pr := &e.prof[0]
	for _, level := range []float64{lo, hi} {
		above, inner := windows(pr, level, true), windows(pr, level, false)
		var bounds []float64
		for i := range 2 {
			for _, r := range []reportRanges{above, inner} {
				if r.lo[i] <= r.hi[i] {
					bounds = append(bounds, r.lo[i], r.hi[i])
				}
			}
		}
		for _, b := range bounds {
			for k := math.Max(1, b-64); k <= b+64 && k <= maxReports && e.cs[0].start+k*pr.beat < e.cs[0].end; k++ {
				x := e.timeLeft(0, k)
				if x > level && above.next(k) != k {
					t.Fatalf("report %v: estimate %v > %v, not in %+v", k, x, level, above)
				}
				if !(x > level) && inner.has(k) {
					t.Fatalf("report %v: estimate %v ≤ %v, in %+v", k, x, level, inner)
				}
			}
		}
	}
}

func TestWindowsSound(t *testing.T) { t.Parallel(); rapid.Check(t, testWindowsSound) }

// TestWindowsFloor: the may-exceed range's first report where the 10⁻⁴
// score floor binds, at a report number near 2^50 (Heartbeat may be that
// small). By hand: start 0, d = n = 10⁶, level 10⁻¹⁰, heartbeat
// 10⁻¹⁴/2^50: the estimate 10⁴·x·(1 − x/n) exceeds the level from age
// 10⁻¹⁴·(1 + 10⁻²⁰) on (plus rounding, 3 units of roundoff), and the range
// must start by then: 2^-46 of the age later, 14 reports, is too late.
func TestWindowsFloor(t *testing.T) {
	t.Parallel()
	const level = 1e-10
	e := oneCopy(0, 1e6, 1e6, 0.5, 1e-14/(1<<50))
	above := windows(&e.prof[0], level, true)
	for k := float64(1<<50 - 64); k <= 1<<50+64; k++ {
		if x := e.timeLeft(0, k); x > level && above.next(k) != k {
			t.Fatalf("report %v: estimate %v > %v, not in %+v", k, x, level, above)
		}
	}
}

// TestNextRiseFloor: under the 10⁻⁴ score floor the estimates rise. By
// hand: d = n = 1, heartbeat 10⁻⁷, level 1/2: report k's score k·10⁻⁷ is
// below 10⁻⁴ up to k = 1 000, its estimate 10⁴·x·(1 − x) = 10⁻³·k·(1 −
// 10⁻⁷·k) passes 1/2 first at k = 501 (k = 500 gives 0.5·(1 − 5·10⁻⁵)),
// and after that stays above it until it falls as 1 − x through 1/2 at
// report 5·10⁶: 501 is the one rise. (Before the floor was taken into
// account, the reports from 2 on counted as surely above the level and the
// rise was skipped.)
func TestNextRiseFloor(t *testing.T) {
	t.Parallel()
	e := oneCopy(0, 1, 1, 0.5, 1e-7)
	if r, _, ok, _ := e.nextRise(0, 1, 0.5, 0.5); !ok || r != 501 {
		t.Errorf("first rise %v, %v; want 501", r, ok)
	}
	if r, _, ok, _ := e.nextRise(0, 502, 0.5, 0.5); ok {
		t.Errorf("a rise at %v after 501", r)
	}
}

// TestReportBeat: the interval between a copy's reports is the job's
// Heartbeat × t_new, raised to minBeat (2^-960) below it and to the
// clock's unit in the last place at the copy's start below that.
func TestReportBeat(t *testing.T) {
	t.Parallel()
	ulp := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }
	cases := []struct{ beat, now, want float64 }{
		{0.1, 0, 0.1},
		{0.1, 1e6, 0.1},
		{minBeat, 0, minBeat},
		{math.Nextafter(minBeat, 1), 0, math.Nextafter(minBeat, 1)},
		{math.Nextafter(minBeat, 0), 0, minBeat},
		{1e-300, 0, minBeat},
		{0.1 * 1.107e-321, 0, minBeat}, // subnormal: the hang's heartbeat
		{5e-324, 0, minBeat},
		{1e-20, 1e6, ulp(1e6)},    // below the clock's resolution
		{ulp(1e6), 1e6, ulp(1e6)}, // at it
		{2 * ulp(1e6), 1e6, 2 * ulp(1e6)},
		{1e-300, 1e-250, ulp(1e-250)}, // the ulp above the floor
		{1e-300, 1e-290, minBeat},     // the floor above the ulp
	}
	for _, c := range cases {
		if got := reportBeat(c.beat, c.now); got != c.want {
			t.Errorf("reportBeat(%g, %g) = %g, want %g", c.beat, c.now, got, c.want)
		}
	}
	if minBeat != 0x1p-960 {
		t.Errorf("minBeat = %g, want 2^-960 (%g)", minBeat, 0x1p-960)
	}
}

// testEstimatesNormal: at every report a copy makes early on (its first
// 64, and 64 about the slowdown, or its last 64 if the slowdown comes
// after maxReports), whatever its times' magnitude down to the subnormal
// 5e-324 and whatever its job's heartbeat, the estimate is 0 or a normal
// number (≥ 2^-1022), which windows' relative margins need.
func testEstimatesNormal(t *rapid.T) {
	tiny := func(name string) float64 {
		return math.Ldexp(rapid.Float64Range(1, 2).Draw(t, name), rapid.IntRange(-1074, 40).Draw(t, name+"Exp"))
	}
	dur, floor := tiny("dur"), tiny("floor")
	u := rapid.Float64Range(1e-6, 1-1e-6).Draw(t, "u")
	start := 0.0
	if rapid.Bool().Draw(t, "later") {
		start = tiny("start")
	}
	beat := reportBeat(tiny("heartbeat×tnew"), start)
	e := oneCopy(start, dur, floor, u, beat)
	from := math.Min(math.Max(1, math.Floor(e.prof[0].slow/beat)-32), maxReports-64)
	for _, k0 := range []float64{1, from} {
		for i := range 64 {
			k := k0 + float64(i)
			if !(start+k*beat < e.cs[0].end) {
				break
			}
			if x := e.timeLeft(0, k); x != 0 && !(x >= 0x1p-1022) {
				t.Fatalf("report %v (beat %g, profile %+v): estimate %g, want 0 or normal", k, beat, e.prof[0], x)
			}
		}
	}
}

func TestEstimatesNormal(t *testing.T) { t.Parallel(); rapid.Check(t, testEstimatesNormal) }

// testRiseCostBounded: whatever the copy — durations up to 10¹², far more
// reports than maxReports, a slowdown as late as 10⁻¹² before its nominal
// end (where 1 − p is known to a few digits and windows' margins span
// billions of reports), levels about its estimates, one level or Mantri's
// band — walking its rises from report 1 as the engine does (each from the
// report after the last) visits at most maxReports reports plus
// riseSlack per rise, and finds at most maxReports rises (events): the
// cost of a copy's reports is bounded by the cap (TestReportCap's runs).
func testRiseCostBounded(t *rapid.T) {
	dur := logRange(t, "dur", 1e-3, 1e12)
	floor := dur * logRange(t, "floor/dur", 1e-3, 1)
	u := 1 - logRange(t, "1-u", 1e-12, 0.5)
	beat := dur / logRange(t, "reports", 1, 1e13)
	e := oneCopy(0, dur, floor, u, beat)
	// A level about an estimate the copy reaches: at a drawn report.
	k := math.Min(math.Floor(dur/beat), maxReports) * rapid.Float64Range(0, 1).Draw(t, "at")
	lo := e.timeLeft(0, math.Max(1, math.Floor(k))) * logRange(t, "level/estimate", 0.5, 2)
	hi := lo * rapid.SampledFrom([]float64{1, 1 + 2*thetaTol, 2}).Draw(t, "band")
	visits, rises := 0, 0
	for from := 1.0; ; {
		r, _, ok, v := e.nextRise(0, from, lo, hi)
		visits += v
		if !ok {
			break
		}
		rises++
		if r > maxReports || r < from {
			t.Fatalf("rise at report %v from %v (cap %v)", r, from, float64(maxReports))
		}
		from = r + 1
	}
	if rises > maxReports || visits > maxReports+riseSlack*(rises+1) {
		t.Fatalf("%d rises, %d visits (profile %+v, levels %v, %v): over maxReports + riseSlack per rise", rises, visits, e.prof[0], lo, hi)
	}
}

func TestRiseCostBounded(t *testing.T) { t.Parallel(); rapid.Check(t, testRiseCostBounded) }
