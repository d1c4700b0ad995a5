package stragglers

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// FitPareto returns the maximum-likelihood fit of a Pareto(x_m, β)
// distribution to completed task durations (thesis §3.1 models task
// durations as Pareto; the conference paper, §7.2, refits β continuously
// from completed tasks, stragglers included):
//
//	x̂_m = min_i x_i,    β̂ = n / Σ_i ln(x_i / x̂_m).
//
// The likelihood Π β·x_m^β / x_i^(β+1) grows with x_m up to the smallest
// sample, and its logarithm n·ln β + nβ·ln x_m − (β+1)·Σ ln x_i is concave
// in β with its stationary point at β̂. The estimator is biased upwards for
// small n (E[β̂] = β·n/(n−2) for n > 2); (n−2)/n·β̂ is unbiased if that
// matters more than maximum likelihood. Its relative error is about
// 1/√n: the Fisher information of β is n/β².
//
// The result feeds alloc, fairness, dag and this package's allocations,
// which need β > 1 (a finite mean); a fit of β ≤ 1 is returned as it is,
// for the caller to decide.
//
// Special cases: an error is returned for fewer than two durations, for a
// duration that is ≤ 0, NaN or ±Inf (naming it), and when every duration is
// equal (Σ ln(x_i/x̂_m) = 0: the likelihood grows without bound in β).
// O(n), two passes; durations is not modified.
func FitPareto(durations []float64) (xm, beta float64, err error) {
	const fn = "stragglers.FitPareto"
	if len(durations) < 2 {
		return 0, 0, check.Err(fn, check.Scalar, "len(durations)", float64(len(durations)), "need at least two durations")
	}
	xm = math.Inf(1)
	for i, x := range durations {
		if err := check.Positive(fn, i, "durations", x); err != nil {
			return 0, 0, check.WithItem("sample", err)
		}
		xm = min(xm, x)
	}
	var sumLog float64
	for _, x := range durations {
		sumLog += logRatio(x, xm)
	}
	if sumLog == 0 {
		return 0, 0, check.Err(fn, check.Scalar, "durations", xm, "all durations are equal: β is unbounded")
	}
	return xm, float64(len(durations)) / sumLog, nil
}

// ParetoFit is the maximum-likelihood Pareto fit of FitPareto fed one
// completed task duration at a time: it keeps the count, the running
// minimum x̂_m and Σ ln(x_i/x̂_m), and refits in O(1). When a new duration
// lowers the minimum from m to m', every earlier term grows by ln(m/m'), so
// the sum grows by n·ln(m/m'): no term is recomputed and no large sum of
// logarithms is differenced. The zero value holds no durations.
type ParetoFit struct {
	n      int
	xm     float64 // smallest duration so far
	sumLog float64 // Σ ln(x_i / xm)
}

// Add records one completed task duration. O(1).
//
// An error, with f unchanged, is returned for a duration that is ≤ 0, NaN
// or ±Inf.
func (f *ParetoFit) Add(duration float64) error {
	if err := check.Positive("stragglers.ParetoFit.Add", check.Scalar, "duration", duration); err != nil {
		return err
	}
	if f.n == 0 {
		f.xm = duration
	} else if duration < f.xm {
		f.sumLog += float64(f.n) * logRatio(f.xm, duration)
		f.xm = duration
	} else {
		f.sumLog += logRatio(duration, f.xm)
	}
	f.n++
	return nil
}

// Count returns the number of durations recorded. O(1).
func (f *ParetoFit) Count() int { return f.n }

// Fit returns the maximum-likelihood (x̂_m, β̂) of the durations recorded so
// far, as FitPareto would for them (up to rounding). O(1).
//
// An error is returned for fewer than two durations and when every
// duration is equal.
func (f *ParetoFit) Fit() (xm, beta float64, err error) {
	const fn = "stragglers.ParetoFit.Fit"
	if f.n < 2 {
		return 0, 0, check.Err(fn, check.Scalar, "count", float64(f.n), "need at least two durations")
	}
	if f.sumLog == 0 {
		return 0, 0, check.Err(fn, check.Scalar, "durations", f.xm, "all durations are equal: β is unbounded")
	}
	return f.xm, float64(f.n) / f.sumLog, nil
}

// logRatio returns ln(x/m) for positive finite x ≥ m, also when x/m
// overflows. x/m rounds once and its logarithm keeps full relative
// precision down to ratios near 1. Past MaxFloat64 the ratio is split into
// mantissas and powers of two: ln(f_x/f_m) + (e_x − e_m)·ln 2, exact up to
// rounding at every magnitude. (ln x − ln m would not do: math.Log on
// amd64 reads a subnormal's exponent field as if it were normal, giving
// ln 5e-324 = −709.09 instead of −744.44.)
func logRatio(x, m float64) float64 {
	if r := x / m; r <= math.MaxFloat64 {
		return math.Log(r)
	}
	fx, ex := math.Frexp(x)
	fm, em := math.Frexp(m)
	return math.Log(fx/fm) + float64(ex-em)*math.Ln2
}
