package overlap

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
	"pgregory.net/rapid"
)

// Properties over float64's whole range (issues 11 and 17): sizes, times
// and speeds from testutil.Magnitude (1e-300 … 1e300, subnormals,
// MaxFloat64, exact ties), checked against a math/big reference, against
// the same instance rescaled by an exact power of two, and against closed
// forms. Every call either succeeds with a finite answer that satisfies the
// function's documented relations or returns an *specsched.InputError.

// bigPrec is the precision of the reference's big.Float arithmetic: far
// above float64's 53 bits, so the reference's own rounding is invisible.
const bigPrec = 300

func bf(v float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(v) }

func bnew() *big.Float { return new(big.Float).SetPrec(bigPrec) }

func bmul(a, b *big.Float) *big.Float { return bnew().Mul(a, b) }

func bquo(a, b *big.Float) *big.Float { return bnew().Quo(a, b) }

func bsub(a, b *big.Float) *big.Float { return bnew().Sub(a, b) }

func badd(a, b *big.Float) *big.Float { return bnew().Add(a, b) }

func bmin(a, b *big.Float) *big.Float {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// bigRate is a reference rate; nil means +Inf (an unlimited job).
type bigRate struct{ Map, Shuffle *big.Float }

// bigAvailable reports whether a job has available shuffle work, from
// y(t) − y·x(t)/x computed exactly, with the package's tolerance availTol·y
// (the documented meaning of "no available work").
func bigAvailable(j Job) bool {
	if j.RemainingShuffle == 0 {
		return false
	}
	if j.Map == 0 || j.RemainingMap == 0 {
		return true
	}
	a := bsub(bf(j.RemainingShuffle), bquo(bmul(bf(j.Shuffle), bf(j.RemainingMap)), bf(j.Map)))
	return a.Cmp(bmul(bf(availTol), bf(j.Shuffle))) > 0
}

// bigWalk is refWalk in exact arithmetic: map capacity pcap to the first
// job of order with map work, then shuffle capacity scap down the order,
// each job taking what its available work allows (unlimited, or (y/x)·its
// map rate). It returns the shuffle capacity used.
func bigWalk(out []bigRate, jobs []Job, order []int, pcap, scap *big.Float) *big.Float {
	for _, i := range order {
		if jobs[i].RemainingMap > 0 {
			out[i].Map = pcap
			break
		}
	}
	rem := scap
	for _, i := range order {
		j := jobs[i]
		if j.RemainingShuffle == 0 {
			continue
		}
		g := rem
		if !bigAvailable(j) {
			g = bmin(rem, bquo(bmul(bf(j.Shuffle), out[i].Map), bf(j.Map)))
		}
		out[i].Shuffle = g
		rem = bsub(rem, g)
	}
	return bsub(scap, rem)
}

// bigRates is the reference for Rates in exact arithmetic (MaxSRPT, FIFO,
// SplitSRPT both ways, k-LPS by bisection on the processor-sharing level);
// β = min max(x/y, y/x) is formed as a big.Float, so it does not overflow.
func bigRates(jobs []Job, speed float64, p Discipline) []bigRate {
	zero := bnew()
	out := make([]bigRate, len(jobs))
	for i := range out {
		out[i] = bigRate{zero, zero}
	}
	if speed == 0 {
		return out
	}
	s := bf(speed)
	all := func(Job) bool { return true }
	switch p.Algorithm {
	case MaxSRPT, MaxSRPTStrict:
		order := refOrder(jobs, all, func(j Job) float64 { return math.Max(j.RemainingMap, j.RemainingShuffle) })
		if p.Algorithm == MaxSRPTStrict {
			// Map capacity as in the walk; the shuffle station serves only
			// the first job with shuffle work.
			bigWalk(out, jobs, order, s, bnew())
			for _, i := range order {
				if jobs[i].RemainingShuffle > 0 {
					out[i].Shuffle = s
					if !bigAvailable(jobs[i]) {
						out[i].Shuffle = bmin(s, bquo(bmul(bf(jobs[i].Shuffle), out[i].Map), bf(jobs[i].Map)))
					}
					break
				}
			}
			return out
		}
		bigWalk(out, jobs, order, s, s)
	case FIFO:
		bigWalk(out, jobs, refOrder(jobs, all, func(j Job) float64 { return j.Arrival }), s, s)
	case SplitSRPT, SplitSRPTStrict:
		var beta *big.Float // nil: +∞
		any := false
		for _, j := range jobs {
			if !present(j) {
				continue
			}
			any = true
			if j.Map > 0 && j.Shuffle > 0 {
				b := bquo(bf(math.Max(j.Map, j.Shuffle)), bf(math.Min(j.Map, j.Shuffle)))
				if beta == nil || b.Cmp(beta) < 0 {
					beta = b
				}
			}
		}
		if !any {
			return out
		}
		mu1, mu2 := bnew(), bf(1)
		if beta != nil {
			onePlus := badd(bf(1), beta)
			mu1, mu2 = bquo(bf(1), onePlus), bquo(beta, onePlus)
		}
		orders := [2][]int{
			refOrder(jobs, func(j Job) bool { return j.Map >= j.Shuffle }, func(j Job) float64 { return j.RemainingMap }),
			refOrder(jobs, func(j Job) bool { return j.Map < j.Shuffle }, func(j Job) float64 { return j.RemainingShuffle }),
		}
		pcap := [2]*big.Float{bmul(mu2, s), bmul(mu1, s)}
		scap := [2]*big.Float{bmul(mu1, s), bmul(mu2, s)}
		if p.Algorithm == SplitSRPTStrict {
			for c := range orders {
				bigWalk(out, jobs, orders[c], pcap[c], scap[c])
			}
			return out
		}
		hasMap := func(order []int) bool {
			for _, i := range order {
				if jobs[i].RemainingMap > 0 {
					return true
				}
			}
			return false
		}
		if !hasMap(orders[0]) {
			pcap[1] = s
		}
		if !hasMap(orders[1]) {
			pcap[0] = s
		}
		var used [2]*big.Float
		for c := range orders {
			used[c] = bigWalk(out, jobs, orders[c], pcap[c], scap[c])
		}
		for c := range orders {
			bigWalk(out, jobs, orders[c], pcap[c], badd(scap[c], bsub(scap[1-c], used[1-c])))
		}
	case KLPS:
		order := refOrder(jobs, func(j Job) bool { return j.RemainingMap > 0 }, func(j Job) float64 { return j.Arrival })
		if len(order) > p.k() {
			order = order[:p.k()]
		}
		for _, i := range order {
			out[i].Map = bquo(s, bf(float64(len(order))))
		}
		var lims []*big.Float // nil: unlimited
		var idx []int
		for i, j := range jobs {
			if j.RemainingShuffle == 0 {
				continue
			}
			var lim *big.Float
			if !bigAvailable(j) {
				lim = bquo(bmul(bf(j.Shuffle), out[i].Map), bf(j.Map))
			}
			lims, idx = append(lims, lim), append(idx, i)
		}
		level := func(theta *big.Float, lim *big.Float) *big.Float {
			if lim == nil {
				return theta
			}
			return bmin(theta, lim)
		}
		sum := func(theta *big.Float) *big.Float {
			acc := bnew()
			for _, l := range lims {
				acc = badd(acc, level(theta, l))
			}
			return acc
		}
		theta := s
		if sum(s).Cmp(s) >= 0 {
			lo, hi := bnew(), s
			for it := 0; it < bigPrec; it++ {
				mid := bquo(badd(lo, hi), bf(2))
				if sum(mid).Cmp(s) < 0 {
					lo = mid
				} else {
					hi = mid
				}
			}
			theta = hi
		}
		for k, i := range idx {
			out[i].Shuffle = level(theta, lims[k])
		}
	}
	return out
}

// genMagnitudeSnapshot draws a valid snapshot whose sizes, remaining sizes
// and arrival times come from testutil.Magnitude (with exact ties):
// remaining map a fraction of the map size or a Magnitude below it, and
// remaining shuffle either exactly at constraint (1) (no available work),
// the whole shuffle size, or in between.
func genMagnitudeSnapshot(t *rapid.T, maxJobs int) []Job {
	n := rapid.IntRange(0, maxJobs).Draw(t, "n")
	sizes := testutil.Magnitudes(2*n, 2*n).Draw(t, "sizes")
	times := testutil.Magnitudes(n, n).Draw(t, "times")
	jobs := make([]Job, n)
	for i := range jobs {
		label := fmt.Sprintf("job%d.", i)
		x, y := sizes[2*i], sizes[2*i+1]
		var xr float64
		switch rapid.IntRange(0, 3).Draw(t, label+"mapMode") {
		case 0:
			xr = x
		case 1:
			xr = 0
		case 2:
			xr = math.Min(x, testutil.Magnitude().Draw(t, label+"xr"))
		default:
			xr = x * rapid.Float64Range(0, 1).Draw(t, label+"mapFrac")
		}
		limited := 0.0
		if x > 0 && y > 0 {
			// y·x(t)/x, rounded up to a value that satisfies (1) (at
			// subnormal y the product can round below it).
			limited = y * (xr / x)
			for limited < y && availFraction(xr, limited, x, y) < 0 {
				limited = math.Nextafter(limited, y)
			}
		}
		var yr float64
		switch rapid.IntRange(0, 2).Draw(t, label+"shuffleMode") {
		case 0:
			yr = limited
		case 1:
			yr = y
		default:
			yr = limited + (y-limited)*rapid.Float64Range(0, 1).Draw(t, label+"shuffleFrac")
		}
		sign := 1.0
		if rapid.Bool().Draw(t, label+"negativeArrival") {
			sign = -1
		}
		jobs[i] = Job{Arrival: sign * times[i], Map: x, Shuffle: y, RemainingMap: xr, RemainingShuffle: math.Min(yr, y)}
	}
	return jobs
}

// rateTol is the tolerance of a rate against the exact reference: a few
// roundings of the rate itself, plus a few ulps of the station speed (a
// leftover capacity c − q is a difference of numbers of the speed's size),
// plus a few of the smallest subnormal (a subnormal rate rounds to a
// multiple of 2^-1074).
func rateTol(ref, speed float64) float64 {
	return 1e-12*ref + 1e-14*speed + 4*math.SmallestNonzeroFloat64
}

func isInputError(err error) bool {
	var in *specsched.InputError
	return errors.As(err, &in)
}

// testRatesMagnitudes: on snapshots over float64's whole range, Rates
// succeeds for every speed in [0, 1e300] (and refuses a larger one with an
// InputError), every rate is finite, in [0, speed], given only to a job
// with work in that phase, and equal to the exact rate of the math/big
// reference rounded (up to rateTol); each station's rates sum to at most
// speed.
func testRatesMagnitudes(t *rapid.T) {
	jobs := genMagnitudeSnapshot(t, 6)
	speed := testutil.Magnitude().Draw(t, "speed")
	p := genPolicy(t)
	before := slices.Clone(jobs)
	got, err := Rates(nil, jobs, speed, p, nil)
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Fatalf("input modified (-before +after):\n%s", diff)
	}
	if speed > maxSpeed {
		if !isInputError(err) {
			t.Fatalf("speed %v > 1e300: got %v, want an InputError", speed, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Rates(%+v, speed %v, %v): %v", jobs, speed, p, err)
	}
	want := bigRates(jobs, speed, p)
	sumMap, sumShuffle := 0.0, 0.0
	for i, r := range got {
		j := jobs[i]
		if !finite(r.Map) || !finite(r.Shuffle) || r.Map < 0 || r.Shuffle < 0 || r.Map > speed || r.Shuffle > speed {
			t.Fatalf("%v job %d %+v: rate %+v not finite in [0, %v]", p, i, j, r, speed)
		}
		if (r.Map > 0 && j.RemainingMap == 0) || (r.Shuffle > 0 && j.RemainingShuffle == 0) {
			t.Fatalf("%v job %d %+v: rate %+v without work", p, i, j, r)
		}
		wm, _ := want[i].Map.Float64()
		ws, _ := want[i].Shuffle.Float64()
		if math.Abs(r.Map-wm) > rateTol(wm, speed) || math.Abs(r.Shuffle-ws) > rateTol(ws, speed) {
			t.Fatalf("%v speed %v job %d: got %+v, exact reference {%v %v}\njobs %+v\ngot %v", p, speed, i, r, wm, ws, jobs, got)
		}
		sumMap += r.Map
		sumShuffle += r.Shuffle
	}
	if sumTol := speed*1e-12 + float64(len(jobs)+2)*math.SmallestNonzeroFloat64; sumMap > speed+sumTol || sumShuffle > speed+sumTol {
		t.Fatalf("%v: station sums (%v, %v) exceed speed %v", p, sumMap, sumShuffle, speed)
	}
}

func TestRatesMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatesMagnitudes)
}

// exactScale reports whether v·2^k is exact (no overflow, no subnormal on
// either side, so no bit is lost).
func exactScale(v float64, k int) bool {
	if v == 0 {
		return true
	}
	w := math.Ldexp(v, k)
	return v >= minNormal && w >= minNormal && w <= math.MaxFloat64
}

// testRatesRescaled: Rates is invariant when every size is multiplied by an
// exact power of two 2^k (the policies depend on sizes only through their
// order and their ratios), and scales by 2^m with the speed — bit for bit
// where the scaled values stay normal floats.
func testRatesRescaled(t *rapid.T) {
	jobs := genMagnitudeSnapshot(t, 6)
	speed := testutil.PositiveMagnitude().Draw(t, "speed")
	k := rapid.IntRange(-64, 64).Draw(t, "sizeExp")
	m := rapid.IntRange(-64, 64).Draw(t, "speedExp")
	p := genPolicy(t)
	if !exactScale(speed, m) || math.Ldexp(speed, m) > maxSpeed || speed > maxSpeed {
		return
	}
	scaled := slices.Clone(jobs)
	for i := range scaled {
		j := &scaled[i]
		for _, v := range []*float64{&j.Map, &j.Shuffle, &j.RemainingMap, &j.RemainingShuffle} {
			if !exactScale(*v, k) {
				return
			}
			*v = math.Ldexp(*v, k)
		}
	}
	base, err := Rates(nil, jobs, speed, p, nil)
	if err != nil {
		t.Fatalf("Rates: %v", err)
	}
	got, err := Rates(nil, scaled, math.Ldexp(speed, m), p, nil)
	if err != nil {
		t.Fatalf("Rates rescaled: %v", err)
	}
	for i := range base {
		wm, ws := math.Ldexp(base[i].Map, m), math.Ldexp(base[i].Shuffle, m)
		// A rate that is subnormal on either side has lost bits: compare
		// to the reference tolerance there.
		tol := func(w float64) float64 {
			if math.Abs(w) < minNormal*(1<<60) {
				return rateTol(w, math.Ldexp(speed, m)) + math.Ldexp(minNormal, 64)
			}
			return rateTol(w, math.Ldexp(speed, m))
		}
		if math.Abs(got[i].Map-wm) > tol(wm) || math.Abs(got[i].Shuffle-ws) > tol(ws) {
			t.Fatalf("%v: sizes ×2^%d, speed ×2^%d: job %d got %+v, want {%v %v}\njobs %+v speed %v", p, k, m, i, got[i], wm, ws, jobs, speed)
		}
	}
}

func TestRatesRescaled(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testRatesRescaled)
}

// aloneTime is the response time of a job served alone at speed s, derived
// from the policies' definitions: every policy but SplitSRPTStrict gives a
// lone job the whole map station and as much of the shuffle station as its
// available work allows, so its larger phase sets the time, max(x, y)/s.
// SplitSRPTStrict keeps the split with β = the job's own imbalance
// hi/lo: its class gets μ·s = s·hi/(x+y) at its heavy phase and
// s·lo/(x+y) at the other, which its own ratio exactly allows, so both
// phases take (x+y)/s (β = +∞ when a size is 0: the other phase takes
// the whole station, (x+y)/s again).
func aloneTime(a Arrival, speed float64, kind Algorithm) float64 {
	if kind == SplitSRPTStrict {
		return (a.Map + a.Shuffle) / speed
	}
	return math.Max(a.Map, a.Shuffle) / speed
}

// violatesArrivalBounds reports whether a simulation input breaks one of
// the documented bounds of Simulate and LowerBound (speed in (0, 1e300],
// positive sizes ≥ speed·2^-1022, times plus total work / speed ≤ 1e300;
// under the SplitSRPT kinds, imbalances ≤ 2^1000), checked here in exact
// arithmetic. kind −1 stands for LowerBound.
func violatesArrivalBounds(jobs []Arrival, speed float64, kind Algorithm) bool {
	if !(speed > 0 && speed <= 1e300) {
		return true
	}
	if kind == SplitSRPT || kind == SplitSRPTStrict {
		for _, a := range jobs {
			if a.Map > 0 && a.Shuffle > 0 {
				r := bquo(bf(math.Max(a.Map, a.Shuffle)), bf(math.Min(a.Map, a.Shuffle)))
				if r.Cmp(bf(0x1p1000)) > 0 {
					return true
				}
			}
		}
	}
	totalWork := bnew()
	for _, a := range jobs {
		for _, v := range []float64{a.Map, a.Shuffle} {
			if v > 0 && bquo(bf(v), bf(speed)).Cmp(bf(minNormal)) < 0 {
				return true
			}
			totalWork = badd(totalWork, bf(v))
		}
	}
	if len(jobs) == 0 {
		return false
	}
	h := badd(badd(bf(math.Abs(jobs[0].Time)), bf(math.Abs(jobs[len(jobs)-1].Time))), bquo(bmul(bf(2), totalWork), bf(speed)))
	// The code's horizon is a float sum: allow its rounding either side.
	lo, hi := bf(1e300*(1-1e-12)), bf(1e300*(1+1e-12))
	if h.Cmp(lo) > 0 && h.Cmp(hi) < 0 {
		return true // ambiguous: within rounding of the bound
	}
	return h.Cmp(bf(1e300)) > 0
}

// checkAccepted fails unless err is nil or an InputError for an input that
// breaks a documented bound; it reports whether the call succeeded.
func checkAccepted(t *rapid.T, what string, jobs []Arrival, speed float64, kind Algorithm, err error) bool {
	if err == nil {
		return true
	}
	if !isInputError(err) {
		t.Fatalf("%s: %v is not an InputError (jobs %+v, speed %v)", what, err, jobs, speed)
	}
	if !violatesArrivalBounds(jobs, speed, kind) {
		t.Fatalf("%s: %v for an input within the documented bounds (jobs %+v, speed %v)", what, err, jobs, speed)
	}
	return false
}

// genIsolated draws jobs over float64's whole range whose busy periods do
// not overlap: each arrives at least twice the previous one's lone
// response time after it (at any magnitude of the arrival times, so a job
// of work 1e-300 may arrive at 1e200).
func genIsolated(t *rapid.T, speed float64, kind Algorithm) []Arrival {
	n := rapid.IntRange(1, 6).Draw(t, "n")
	sizes := testutil.Magnitudes(2*n, 2*n).Draw(t, "sizes")
	gaps := testutil.Magnitudes(n, n).Draw(t, "gaps")
	jobs := make([]Arrival, n)
	now := gaps[0]
	if rapid.Bool().Draw(t, "negativeStart") {
		now = -now
	}
	for i := range jobs {
		jobs[i] = Arrival{Time: now, Map: sizes[2*i], Shuffle: sizes[2*i+1]}
		need := 2 * aloneTime(jobs[i], speed, kind)
		next := now + math.Max(need, gaps[i])
		for next-now < need && finite(next) {
			next = math.Nextafter(next, math.Inf(1))
		}
		if !finite(next) {
			return jobs[:i+1]
		}
		now = next
	}
	return jobs
}

// testSimulateIsolatedMagnitudes: jobs whose busy periods do not overlap
// each get exactly their lone response time (aloneTime), at any magnitude
// of times and sizes; positive work has a positive response time. An
// input is refused only with an InputError for a documented bound.
func testSimulateIsolatedMagnitudes(t *rapid.T) {
	speed := testutil.PositiveMagnitude().Draw(t, "speed")
	p := genPolicy(t)
	jobs := genIsolated(t, speed, p.Algorithm)
	got, err := Simulate(nil, jobs, speed, p, nil)
	if !checkAccepted(t, "Simulate", jobs, speed, p.Algorithm, err) {
		return
	}
	for i, a := range jobs {
		want := aloneTime(a, speed, p.Algorithm)
		if !(math.Abs(got[i]-want) <= 1e-9*want) {
			t.Fatalf("%v speed %v: job %d %+v alone: response %v, want %v\njobs %+v\ngot %v", p, speed, i, a, got[i], want, jobs, got)
		}
	}
}

func TestSimulateIsolatedMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulateIsolatedMagnitudes)
}

// genMagnitudeArrivals draws sorted arrivals over float64's whole range
// (times and sizes from testutil.Magnitudes, with exact ties).
func genMagnitudeArrivals(t *rapid.T, maxJobs int) []Arrival {
	n := rapid.IntRange(0, maxJobs).Draw(t, "n")
	sizes := testutil.Magnitudes(2*n, 2*n).Draw(t, "sizes")
	times := testutil.Magnitudes(n, n).Draw(t, "times")
	for i := range times {
		if rapid.IntRange(0, 3).Draw(t, "negative") == 0 {
			times[i] = -times[i]
		}
	}
	slices.Sort(times)
	jobs := make([]Arrival, n)
	for i := range jobs {
		jobs[i] = Arrival{Time: times[i], Map: sizes[2*i], Shuffle: sizes[2*i+1]}
	}
	return jobs
}

// testSimulateMagnitudes: on overlapping jobs over float64's whole range,
// every policy either refuses the input with an InputError for a documented
// bound or returns finite response times with: each job at least its lone
// time max(x, y)/s (no policy serves a phase faster than the station);
// positive work a positive response time; and a total at least the §5.1
// lower bound (LowerBound, run on the same input).
func testSimulateMagnitudes(t *rapid.T) {
	jobs := genMagnitudeArrivals(t, 8)
	speed := testutil.PositiveMagnitude().Draw(t, "speed")
	before := slices.Clone(jobs)
	lb, err := LowerBound(jobs, speed, nil)
	if !checkAccepted(t, "LowerBound", jobs, speed, -1, err) {
		return
	}
	if !finite(lb) || lb < 0 {
		t.Fatalf("LowerBound = %v", lb)
	}
	for _, kind := range allAlgorithms {
		got, err := Simulate(nil, jobs, speed, Discipline{Algorithm: kind}, nil)
		if !checkAccepted(t, "Simulate "+kind.String(), jobs, speed, kind, err) {
			continue
		}
		for i, a := range jobs {
			floor := math.Max(a.Map, a.Shuffle) / speed
			if !finite(got[i]) || got[i] < floor*(1-1e-9) || (floor > 0) != (got[i] > 0) {
				t.Fatalf("%v speed %v: job %d %+v: response %v, lone time %v\njobs %+v\ngot %v", kind, speed, i, a, got[i], floor, jobs, got)
			}
		}
		if sum := total(got); lb > sum*(1+1e-9) {
			t.Fatalf("%v: total %v below the lower bound %v\njobs %+v", kind, sum, lb, jobs)
		}
	}
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Fatalf("input modified (-before +after):\n%s", diff)
	}
}

func TestSimulateMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulateMagnitudes)
}

// testSimulateRescaled: multiplying every time and size by an exact power
// of two 2^k multiplies every response time by 2^k, and multiplying the
// sizes and the speed by 2^m changes nothing (the model has no unit).
func testSimulateRescaled(t *rapid.T) {
	jobs := genMagnitudeArrivals(t, 8)
	speed := testutil.PositiveMagnitude().Draw(t, "speed")
	k := rapid.IntRange(-64, 64).Draw(t, "timeExp")
	m := rapid.IntRange(-64, 64).Draw(t, "speedExp")
	p := genPolicy(t)
	scaled := slices.Clone(jobs)
	for i := range scaled {
		a := &scaled[i]
		if !exactScale(math.Abs(a.Time), k) || !exactScale(a.Map, k+m) || !exactScale(a.Shuffle, k+m) {
			return
		}
		a.Time, a.Map, a.Shuffle = math.Ldexp(a.Time, k), math.Ldexp(a.Map, k+m), math.Ldexp(a.Shuffle, k+m)
	}
	if !exactScale(speed, m) {
		return
	}
	base, err := Simulate(nil, jobs, speed, p, nil)
	if !checkAccepted(t, "Simulate", jobs, speed, p.Algorithm, err) {
		return
	}
	got, err := Simulate(nil, scaled, math.Ldexp(speed, m), p, nil)
	if !checkAccepted(t, "Simulate rescaled", scaled, math.Ldexp(speed, m), p.Algorithm, err) {
		return
	}
	for i := range base {
		want := math.Ldexp(base[i], k)
		if !(math.Abs(got[i]-want) <= 1e-9*want) {
			t.Fatalf("%v: times ×2^%d, sizes ×2^%d, speed ×2^%d: job %d response %v, want %v\njobs %+v speed %v", p, k, k+m, m, i, got[i], want, jobs, speed)
		}
	}
}

func TestSimulateRescaled(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulateRescaled)
}

// genAbove1 draws a value > 1 from float64's whole range above 1: 1 plus a
// Magnitude (so from 1+5e-324 = 1 up to MaxFloat64), or a Magnitude ≥ 1.
func genAbove1(t *rapid.T, label string) float64 {
	v := rapid.OneOf(
		rapid.Custom(func(t *rapid.T) float64 { return 1 + testutil.Magnitude().Draw(t, "plus") }),
		testutil.Magnitude(),
	).Draw(t, label)
	return v
}

// testCorollary4Magnitudes: for α and ε over float64's range, the instance
// is refused with an InputError exactly when a documented condition fails
// (checked here in exact arithmetic), and otherwise MaxSRPT and FIFO
// (the paper's alternative) have the totals derived at TestCorollary4Tight,
// or Simulate refuses the instance's horizon.
func testCorollary4Magnitudes(t *rapid.T) {
	m := rapid.IntRange(1, 4).Draw(t, "m")
	alpha := genAbove1(t, "alpha")
	eps := rapid.OneOf(testutil.Magnitude(),
		rapid.Custom(func(t *rapid.T) float64 { return (alpha - 1) * rapid.Float64Range(0, 1).Draw(t, "frac") }),
	).Draw(t, "eps")
	jobs, err := Corollary4Instance(2*m, alpha, eps)
	valid := alpha > 1 && alpha <= math.MaxFloat64 && eps > 0 && eps < alpha-1 && alpha-eps > 1 && alpha-eps < alpha
	if !valid {
		if !isInputError(err) {
			t.Fatalf("Corollary4Instance(%d, %v, %v) = %v, %v; want an InputError", 2*m, alpha, eps, jobs, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Corollary4Instance(%d, %v, %v): %v", 2*m, alpha, eps, err)
	}
	a, e, mf := alpha, alpha-(alpha-eps), float64(m) // e: the ε the sizes carry
	wantT := (a-e)*mf*(mf+1)/2 + mf*mf*(a-e) + a*mf*(mf+1)/2
	wantAlt := (1+a)*mf*mf + a*mf
	for kind, want := range map[Algorithm]float64{MaxSRPT: wantT, MaxSRPTStrict: wantT, FIFO: wantAlt} {
		resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: kind}, nil)
		if !checkAccepted(t, "Simulate "+kind.String(), jobs, 1, kind, err) {
			continue
		}
		if got := total(resp); !(math.Abs(got-want) <= 1e-9*want) {
			t.Fatalf("α=%v ε=%v n=%d %v: total %v, want %v", a, eps, 2*m, kind, got, want)
		}
	}
}

func TestCorollary4Magnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCorollary4Magnitudes)
}

// testCorollary6Magnitudes: the same for Corollary 6's family and the
// totals derived at TestCorollary6Tight (SplitSRPT both ways, and FIFO).
func testCorollary6Magnitudes(t *rapid.T) {
	n := rapid.IntRange(2, 8).Draw(t, "n")
	beta := genAbove1(t, "beta")
	jobs, err := Corollary6Instance(n, beta)
	nf := float64(n)
	if !(beta > 1 && beta <= math.MaxFloat64 && (nf-1)*beta <= math.MaxFloat64) {
		if !isInputError(err) {
			t.Fatalf("Corollary6Instance(%d, %v) = %v, %v; want an InputError", n, beta, jobs, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Corollary6Instance(%d, %v): %v", n, beta, err)
	}
	b := beta
	wantT := (1+b)*nf*(nf-1)/2 + (1+b)*(nf-1)
	wantAlt := b*nf*(nf-1)/2 + 2*b*(nf-1)
	for kind, want := range map[Algorithm]float64{SplitSRPT: wantT, SplitSRPTStrict: wantT, FIFO: wantAlt} {
		resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: kind}, nil)
		if !checkAccepted(t, "Simulate "+kind.String(), jobs, 1, kind, err) {
			continue
		}
		if got := total(resp); !(math.Abs(got-want) <= 1e-9*want) {
			t.Fatalf("β=%v n=%d %v: total %v, want %v", b, n, kind, got, want)
		}
	}
}

func TestCorollary6Magnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testCorollary6Magnitudes)
}

// testSimulateFarScaled is testSimulateRescaled at the far ends of the
// range: sizes and times of an ordinary workload (genArrivals: sizes 0, small
// integers or in [0.01, 10]) times 2^k for k up to ±900, at speed 1. The
// fluid model is invariant under the scaling, and the engine's tolerances
// are relative to each job's sizes (snapTol·x, snapTol·y), so every
// response time scales by 2^k; a tolerance made absolute in some unit
// shows at one end or the other.
func testSimulateFarScaled(t *rapid.T) {
	jobs := genArrivals(t, 8)
	k := rapid.SampledFrom([]int{-900, -500, -150, 150, 500, 900}).Draw(t, "exp")
	p := genPolicy(t)
	scaled := slices.Clone(jobs)
	for i := range scaled {
		a := &scaled[i]
		a.Time, a.Map, a.Shuffle = math.Ldexp(a.Time, k), math.Ldexp(a.Map, k), math.Ldexp(a.Shuffle, k)
	}
	base, err := Simulate(nil, jobs, 1, p, nil)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	got, err := Simulate(nil, scaled, 1, p, nil)
	if err != nil {
		t.Fatalf("Simulate ×2^%d: %v", k, err)
	}
	for i := range base {
		if want := math.Ldexp(base[i], k); !(math.Abs(got[i]-want) <= 1e-9*want) {
			t.Fatalf("%v: ×2^%d: job %d response %v, want %v\njobs %+v", p, k, i, got[i], want, jobs)
		}
	}
}

func TestSimulateFarScaled(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSimulateFarScaled)
}
