package overlap

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// A Job is one job of a snapshot of the overlapping tandem queue (§2.1): its
// arrival time r_i, its original map and shuffle sizes (x_i, y_i) and what is
// left of them at the snapshot's instant, (x_i(t), y_i(t)).
//
// A valid Job has finite Arrival, 0 ≤ RemainingMap ≤ Map, 0 ≤
// RemainingShuffle ≤ Shuffle, and satisfies constraint (1):
// RemainingShuffle/Shuffle ≥ RemainingMap/Map (up to a relative 1e-9, see
// availTol). A job with both remaining sizes zero has left; it gets zero
// rates.
type Job struct {
	Arrival          float64 // r_i: only its order matters (ties and FIFO)
	Map              float64 // x_i, the original map size
	Shuffle          float64 // y_i, the original shuffle size
	RemainingMap     float64 // x_i(t)
	RemainingShuffle float64 // y_i(t)
}

// Available returns the job's available shuffle work, y_i(t) −
// y_i·x_i(t)/x_i (all of y_i(t) when x_i = 0 or x_i(t) = 0): the shuffle
// work its map phase has produced and its shuffle phase has not yet done.
//
// Special cases: a value of at most availTol·y_i (1e-9 of the shuffle size,
// rounding on either side of constraint (1); tested on the fractions
// y_i(t)/y_i − x_i(t)/x_i, see availFraction) is returned as 0, and so is a
// negative one. Otherwise the result is the amount rounded to float64,
// which for subnormal sizes can be 0 although the job has available work
// (Rates then serves it as such). On an invalid Job (see Rates) the result
// is meaningless but Available does not panic.
func (j Job) Available() float64 {
	if j.Map == 0 || j.RemainingMap == 0 {
		return math.Max(j.RemainingShuffle, 0)
	}
	if !(j.Shuffle > 0) || availFraction(j.RemainingMap, j.RemainingShuffle, j.Map, j.Shuffle) <= availTol {
		return 0
	}
	return math.Max(j.RemainingShuffle-j.Shuffle*(j.RemainingMap/j.Map), 0)
}

// availFraction is y(t)/y − x(t)/x, the available shuffle work as a
// fraction of y (x, y > 0). Formed from the two fractions, each in [0, 1]
// and rounded relative to itself, it keeps its precision where the amount
// y(t) − y·x(t)/x would be a difference of subnormals: y = 5e-324,
// y(t) = 5e-324, x(t)/x = 0.75 has a quarter of y available, although
// 5e-324 − 5e-324·0.75 rounds to 0.
func availFraction(xr, yr, x, y float64) float64 { return yr/y - xr/x }

// A Rate is the service a job gets at one instant: map work per unit time at
// the map station and shuffle work per unit time at the shuffle station.
type Rate struct {
	Map     float64
	Shuffle float64
}

// An Arrival is one job of a simulation's input: its arrival time r_i and
// its map and shuffle sizes (x_i, y_i).
type Arrival struct {
	Time    float64
	Map     float64
	Shuffle float64
}

// availTol is the relative tolerance of constraint (1) in snapshots: an
// available shuffle work of at most availTol·y_i is treated as zero (the job
// is rate-limited by its map), and a deficit larger than availTol·y_i is a
// violation. Snapshots carried through a caller's own float arithmetic sit a
// few ulps (1e-16 relative) on either side of y_i·x_i(t)/x_i; 1e-9 is far
// above that noise and far below any work a scheduler would care about.
const availTol = 1e-9

// snapTol is the simulator's relative tolerance for simultaneous events:
// after an event at time t, a quantity that was decreasing and is within
// snapTol of its job's size is the rounding residue of another event at the
// same t (the exact quotient remaining/rate of one job differs from another's
// by a few ulps), so it is set to zero. 1e-12 is 10⁴ ulps: far above that
// residue, far below any work the experiments measure.
const snapTol = 1e-12

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// validateSpeed checks a station speed; zeroOK allows s = 0. Speeds above
// maxSpeed are refused so that sums of two capacities cannot overflow.
func validateSpeed(fn string, speed float64, zeroOK bool) error {
	if !(speed >= 0 && speed <= maxSpeed) || (!zeroOK && speed == 0) {
		reason := "must be in (0, 1e300]"
		if zeroOK {
			reason = "must be in [0, 1e300]"
		}
		return check.Err(fn, check.Scalar, "speed", speed, reason)
	}
	return nil
}

// validateJobs checks a snapshot (see Job). The common case (every job
// valid) costs a few comparisons per job; the reasons are worked out only
// for the first invalid job.
func validateJobs(fn string, jobs []Job) error {
	for i := range jobs {
		j := &jobs[i]
		// x−x is 0 for finite x and NaN for NaN and ±Inf; a comparison with
		// NaN is false, so each test below also rejects NaN.
		ok := j.Arrival-j.Arrival == 0 &&
			j.Map >= 0 && j.Map <= math.MaxFloat64 &&
			j.Shuffle >= 0 && j.Shuffle <= math.MaxFloat64 &&
			j.RemainingMap >= 0 && j.RemainingMap <= j.Map &&
			j.RemainingShuffle >= 0 && j.RemainingShuffle <= j.Shuffle &&
			(j.RemainingMap == 0 || j.Shuffle == 0 || availFraction(j.RemainingMap, j.RemainingShuffle, j.Map, j.Shuffle) >= -availTol)
		if !ok {
			return jobError(fn, i, j)
		}
	}
	return nil
}

// jobError says what is wrong with the invalid job j.
func jobError(fn string, i int, j *Job) error {
	if !finite(j.Arrival) {
		return check.Err(fn, i, "Arrival", j.Arrival, "must be finite")
	}
	if err := check.NonNegative(fn, i, "Map", j.Map); err != nil {
		return err
	}
	if err := check.NonNegative(fn, i, "Shuffle", j.Shuffle); err != nil {
		return err
	}
	switch {
	case !(j.RemainingMap >= 0 && j.RemainingMap <= j.Map):
		return check.Err(fn, i, "RemainingMap", j.RemainingMap, "must be in [0, map]")
	case !(j.RemainingShuffle >= 0 && j.RemainingShuffle <= j.Shuffle):
		return check.Err(fn, i, "RemainingShuffle", j.RemainingShuffle, "must be in [0, shuffle]")
	default:
		return check.Err(fn, i, "RemainingShuffle", j.RemainingShuffle,
			"violates constraint (1): must be ≥ shuffle·remainingMap/map")
	}
}

// validateArrivals checks a simulation input: finite times in nondecreasing
// order, finite non-negative sizes, and a total work that does not overflow.
func validateArrivals(fn string, jobs []Arrival, speed float64) error {
	total := 0.0
	for i := range jobs {
		a := &jobs[i]
		switch {
		case !finite(a.Time):
			return check.Err(fn, i, "Time", a.Time, "must be finite")
		case i > 0 && a.Time < jobs[i-1].Time:
			return check.Err(fn, i, "Time", a.Time, "must be ≥ the previous job's time (sorted arrivals)")
		}
		if err := validateSize(fn, i, "Map", a.Map, speed); err != nil {
			return err
		}
		if err := validateSize(fn, i, "Shuffle", a.Shuffle, speed); err != nil {
			return err
		}
		// Summed as service times (size/speed, each at most MaxFloat64),
		// so the total overflows only if the horizon does.
		total += a.Map/speed + a.Shuffle/speed
	}
	if n := len(jobs); n > 0 {
		horizon := math.Abs(jobs[0].Time) + math.Abs(jobs[n-1].Time) + 2*total
		if !finite(horizon) || horizon > maxHorizon {
			return check.Err(fn, check.Scalar, "total work", horizon, "|first arrival time| + |last arrival time| + 2·(total work)/speed (the value) must stay ≤ 1e300")
		}
	}
	return nil
}

// validateSize checks a simulated job's size: finite, ≥ 0, and if positive
// at least speed·2^-1022, so that the time to serve it at full speed is a
// normal float64. Every interval the simulators form is then positive (an
// event's interval is a remaining amount, at least snapTol of its size,
// over a rate of at most speed), so positive work never has a zero
// response time.
func validateSize(fn string, i int, field string, size, speed float64) error {
	if err := check.NonNegative(fn, i, field, size); err != nil {
		return err
	}
	if size > 0 && !(size/speed >= minNormal) {
		return check.Err(fn, i, field, size, "must be 0 or ≥ speed·2^-1022 (its service time size/speed must be a normal float64)")
	}
	return nil
}

// validateImbalance checks that no job's imbalance max(x/y, y/x) (both
// sizes positive) exceeds maxImbalance: SplitSRPT's simulated rates
// μ₁·s = s/(1+β) are then normal floats, whose rounding is relative (a
// subnormal rate would round by up to half its own size and move a
// departure by as much).
func validateImbalance(fn string, jobs []Arrival) error {
	for i := range jobs {
		a := &jobs[i]
		if hi, lo := hiLo(a.Map, a.Shuffle); lo > 0 && !(hi/lo <= maxImbalance) {
			return check.Err(fn, i, "Shuffle", a.Shuffle, "max(map/shuffle, shuffle/map) must be ≤ 2^1000 under SplitSRPT (so that μ₁ = 1/(1+β) is a normal float64)")
		}
	}
	return nil
}

// maxImbalance bounds a job's imbalance under the simulated SplitSRPT (see
// validateImbalance): 2^1000 ≈ 1.07e301 leaves μ₁ ≥ 2^-1001 and every
// rate a normal float.
const maxImbalance = 0x1p1000

// maxSpeed bounds a station speed (see validateSpeed).
const maxSpeed = 1e300

// maxHorizon bounds |times| + total work / speed so that every time, rate and
// quotient the simulators form stays finite (with three decades of room).
const maxHorizon = 1e300
