package overlap

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"

	"gonum.org/v1/gonum/stat/distuv"
)

// LogNormalParams returns the parameters of the log-normal distribution
// (gonum's distuv.LogNormal: log X ~ Normal(mu, sigma²)) with the given
// mean and standard deviation. From E[X] = exp(μ + σ²/2) and
// Var[X] = (exp(σ²) − 1)·E[X]²:
//
//	σ² = ln(1 + sd²/mean²),   μ = ln(mean) − σ²/2.
//
// §5.3 uses mean 1 and sd 3.65 for map sizes (μ ≈ −1.3309, σ ≈ 1.6315) and
// mean 1 and sd 3.28 for the shuffle/map ratio (μ ≈ −1.2323, σ ≈ 1.5699).
//
// Special cases: sd = 0 gives σ = 0 (the constant mean). mean must be finite
// and > 0, sd finite and ≥ 0; every such pair is answered, with σ and μ
// correct to a few roundings (μ to a few ulps of max(|ln mean|, σ²/2)) at
// every magnitude, subnormals included: with c = sd/mean, c ≤ 2^-30 gives
// σ = c (ln(1+c²) = c²(1 − c²/2 + …), so σ = c·(1 − c²/4 + …) rounds to c,
// also where c² would underflow), and c > 2^500 gives σ²/2 = ln c (the
// ln(1 + c^-2) dropped is below 2^-1000, also where c or c² overflow:
// mean = 1e-300, sd = 1e300 give σ² = 1200·ln 10, μ = −900·ln 10).
// Logarithms of subnormal values are taken on their normalised mantissa
// (logPositive), not with math.Log, which on amd64 returns −709.09 for
// 5e-324 (the true ln 2^-1074 is −744.44).
//
// Time: O(1).
func LogNormalParams(mean, sd float64) (mu, sigma float64, err error) {
	const fn = "overlap.LogNormalParams"
	if err := check.Positive(fn, check.Scalar, "mean", mean); err != nil {
		return 0, 0, err
	}
	if err := check.NonNegative(fn, check.Scalar, "sd", sd); err != nil {
		return 0, 0, err
	}
	lnMean := logPositive(mean)
	var half float64 // σ²/2
	switch cv := sd / mean; {
	case cv <= 0x1p-30:
		sigma, half = cv, cv*cv/2
	case cv <= 0x1p500:
		s2 := math.Log1p(cv * cv)
		sigma, half = math.Sqrt(s2), s2/2
	default:
		half = math.Log(cv) // c > 2^500 is normal
		if cv > math.MaxFloat64 {
			half = logPositive(sd) - lnMean // ln(sd/mean) past MaxFloat64
		}
		sigma = math.Sqrt(2 * half)
	}
	return lnMean - half, sigma, nil
}

// logPositive returns ln x for finite x > 0, subnormals included: math.Log
// on amd64 reads a subnormal's exponent field as if it were normal
// (ln 5e-324 = −709.09 instead of −744.44), so a subnormal x is split into
// its normalised mantissa f ∈ [0.5, 1) and exponent e, ln x = ln f + e·ln 2.
func logPositive(x float64) float64 {
	if x >= 0x1p-1022 {
		return math.Log(x)
	}
	f, e := math.Frexp(x)
	return math.Log(f) + float64(e)*math.Ln2
}

// A Workload is the synthetic workload of §5.3: Poisson arrivals; map sizes
// x_i log-normal with mean MapMean and standard deviation MapSD; a ratio γ_i,
// independent of x_i, log-normal with mean RatioMean and standard deviation
// RatioSD; shuffle sizes y_i = x_i·γ_i (also log-normal: with the paper's
// values its mean is 1 and its sd √((1+3.65²)(1+3.28²) − 1) ≈ 12.94, the
// 12.95 of Figure 6(b)).
//
// Load is the load of the busier station at speed 1: the arrival rate is
// λ = Load / max(E[x], E[y]), with E[y] = MapMean·RatioMean. With the
// paper's means (1 and 1) both stations have load λ.
type Workload struct {
	Load      float64
	MapMean   float64
	MapSD     float64
	RatioMean float64
	RatioSD   float64
}

// PaperWorkload returns the §5.3 workload at the given load: map sizes with
// mean 1 and standard deviation 3.65, ratios with mean 1 and standard
// deviation 3.28 (values fitted in the paper to the Google trace, §5.1).
//
// Special cases: any load is stored as given; Generate validates it.
func PaperWorkload(load float64) Workload {
	return Workload{Load: load, MapMean: 1, MapSD: 3.65, RatioMean: 1, RatioSD: 3.28}
}

// Generate returns n jobs of the workload, sorted by arrival time, drawn
// from rng: for each job in turn, its interarrival time
// (distuv.Exponential, rate λ; the first job arrives one interarrival after
// time 0), its map size and its ratio (distuv.LogNormal with the parameters
// of LogNormalParams). The same rng state gives the same jobs.
//
// Time: O(n). Special cases: n = 0 gives an empty result. A standard
// deviation of 0 gives constant sizes. So that every time and size drawn is
// finite, Load must be in [1e-9, 1e9], the means in [1e-100, 1e100] and
// each standard deviation at most 10⁶ times its mean; rng must be non-nil.
func (w Workload) Generate(dst []Arrival, n int, rng *rand.Rand) ([]Arrival, error) {
	const fn = "overlap.Workload.Generate"
	if err := check.Count(fn, check.Scalar, "n", n); err != nil {
		return nil, err
	}
	if !(w.Load >= 1e-9 && w.Load <= 1e9) {
		return nil, check.Err(fn, check.Scalar, "Load", w.Load, "must be in [1e-9, 1e9]")
	}
	if rng == nil {
		return nil, check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	for _, p := range []struct {
		field    string
		mean, sd float64
	}{{"mapMean", w.MapMean, w.MapSD}, {"ratioMean", w.RatioMean, w.RatioSD}} {
		if !(p.mean >= 1e-100 && p.mean <= 1e100) {
			return nil, check.Err(fn, check.Scalar, p.field, p.mean, "must be in [1e-100, 1e100]")
		}
		if p.sd > 1e6*p.mean {
			return nil, check.Err(fn, check.Scalar, p.field[:len(p.field)-4]+"SD", p.sd, "must be at most 1e6 times the mean")
		}
	}
	muX, sigmaX, err := LogNormalParams(w.MapMean, w.MapSD)
	if err != nil {
		return nil, renameError(err, fn, "map")
	}
	muG, sigmaG, err := LogNormalParams(w.RatioMean, w.RatioSD)
	if err != nil {
		return nil, renameError(err, fn, "ratio")
	}
	rate := w.Load / (w.MapMean * math.Max(1, w.RatioMean))
	gap := distuv.Exponential{Rate: rate, Src: rng}
	mapSize := distuv.LogNormal{Mu: muX, Sigma: sigmaX, Src: rng}
	ratio := distuv.LogNormal{Mu: muG, Sigma: sigmaG, Src: rng}
	if cap(dst) < n {
		dst = make([]Arrival, n)
	}
	dst = dst[:n]
	t := 0.0
	for i := range dst {
		t += gap.Rand()
		x := mapSize.Rand()
		dst[i] = Arrival{Time: t, Map: x, Shuffle: x * ratio.Rand()}
	}
	return dst, nil
}

// renameError turns an InputError of LogNormalParams into one of fn whose
// field names the distribution: "mean" of the map sizes becomes "mapMean".
func renameError(err error, fn, dist string) error {
	var in *specsched.InputError
	if !errors.As(err, &in) {
		return err
	}
	out := *in
	out.Func = fn
	out.Field = dist + strings.ToUpper(in.Field[:1]) + in.Field[1:]
	if in.Field == "sd" {
		out.Field = dist + "SD"
	}
	return &out
}
