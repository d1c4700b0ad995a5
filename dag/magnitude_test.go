package dag

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
)

// The magnitude properties (issues 11 and 17): T, T', α and S drawn over
// float64's whole range with subnormals and exact ties, checked against
// Algorithm 3 in math/big arithmetic, against the instance rescaled by
// powers of two, and for the integer form at counts up to 2^53.

// bigPrec is the mantissa of the math/big reference: far more than the
// 53 bits of the results, with big.Float's exponent range, which no
// float64 input can leave.
const bigPrec = 256

// Share kinds of the big reference: how closely Allocate must match it.
const (
	shareNone      = iota // the job gets nothing
	shareFormula          // a target or a proportional share: to a relative 1e-9
	shareRemainder        // what is left of S after others: to 1e-9·S
)

func bigOf(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

func bigSqrt(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).Sqrt(bigOf(x)) }

func bigQuo(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Quo(a, b) }

func bigMul(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Mul(a, b) }

// bigReference is Algorithm 3 case by case, like reference, in math/big:
// V_i = (2/β)·T_i·√α_i and every threshold exactly (to 256 bits) at any
// magnitude. It returns the slots rounded to float64, the kind of each,
// and the case thresholds.
func bigReference(jobs []Job, slots, beta float64) (out []float64, kind []int, thresholds []*big.Float) {
	c := bigQuo(bigOf(2), bigOf(beta))
	if beta >= 2 {
		c = bigOf(1)
	}
	out = make([]float64, len(jobs))
	kind = make([]int, len(jobs))
	order := referenceOrder(jobs)
	n := len(order)
	if n == 0 || slots == 0 {
		return out, kind, nil
	}
	V := func(p int) *big.Float { // 1-based
		j := jobs[order[p-1]]
		return bigMul(bigMul(c, bigOf(j.Remaining)), bigSqrt(j.Alpha))
	}
	A := func(k int) float64 {
		m := math.Inf(1)
		for p := 1; p <= k; p++ {
			m = min(m, jobs[order[p-1]].Alpha)
		}
		return m
	}
	sumV := func(k int) *big.Float {
		s := bigOf(0)
		for p := 1; p <= k; p++ {
			s.Add(s, V(p))
		}
		return s
	}
	S := bigOf(slots)
	set := func(p int, x *big.Float, k int) {
		out[order[p-1]], _ = x.Float64()
		kind[order[p-1]] = k
	}
	proportional := func(k int) {
		total := sumV(k)
		for p := 1; p <= k; p++ {
			set(p, bigMul(bigQuo(V(p), total), S), shareFormula)
		}
	}
	for k := 1; k < n; k++ {
		thresholds = append(thresholds, bigQuo(sumV(k), bigSqrt(A(k+1))), bigQuo(sumV(k+1), bigSqrt(A(k+1))))
	}
	if n == 1 || S.Cmp(bigQuo(V(1), bigSqrt(A(2)))) <= 0 {
		set(1, S, shareFormula) // case 1
		return out, kind, thresholds
	}
	for k := 1; k < n; k++ { // case 2
		a := bigSqrt(A(k + 1))
		if bigQuo(sumV(k), a).Cmp(S) < 0 && S.Cmp(bigQuo(sumV(k+1), a)) <= 0 {
			kmin := 0
			for p := 1; p <= k+1; p++ {
				if jobs[order[p-1]].Alpha == A(k+1) {
					kmin = p
				}
			}
			var seq []int
			for p := 1; p <= k+1; p++ {
				if p != kmin {
					seq = append(seq, p)
				}
			}
			left := new(big.Float).SetPrec(bigPrec).Set(S)
			for _, p := range append(seq, kmin) {
				t := bigQuo(V(p), a)
				if t.Cmp(left) <= 0 {
					set(p, t, shareFormula)
					left.Sub(left, t)
					continue
				}
				set(p, left, shareRemainder)
				left = bigOf(0)
			}
			return out, kind, thresholds
		}
	}
	for k := 1; k < n-1; k++ { // case 3
		if bigQuo(sumV(k+1), bigSqrt(A(k+1))).Cmp(S) < 0 && S.Cmp(bigQuo(sumV(k+1), bigSqrt(A(k+2)))) <= 0 {
			proportional(k + 1)
			return out, kind, thresholds
		}
	}
	proportional(n) // case 4
	return out, kind, thresholds
}

// nearBigThreshold reports whether S is within a relative 1e-9 of a case
// threshold, where float64 sums may take the neighbouring case.
func nearBigThreshold(slots float64, thresholds []*big.Float) bool {
	S := bigOf(slots)
	for _, x := range thresholds {
		d := new(big.Float).SetPrec(bigPrec).Sub(S, x)
		d.Abs(d)
		if d.Cmp(bigMul(x, bigOf(tol))) <= 0 {
			return true
		}
	}
	return false
}

// grain is the absolute error allowed on top of the relative ones: a few
// ulps of the subnormal range, where no result can be closer.
const grain = 0x1p-1068

// magnitudeJobs draws 1–8 jobs whose T, T' and α are each either spread
// over float64's range (testutil.Magnitudes: subnormals, exact ties, 0 and
// MaxFloat64) or moderate, so that every case of Algorithm 3 is reached.
func magnitudeJobs(t *rapid.T) []Job {
	n := rapid.IntRange(1, 8).Draw(t, "n")
	field := func(label string, moderate *rapid.Generator[float64]) []float64 {
		if rapid.Bool().Draw(t, label+" spread") {
			return testutil.Magnitudes(n, n).Draw(t, label)
		}
		return rapid.SliceOfN(moderate, n, n).Draw(t, label)
	}
	T := field("T", rapid.SampledFrom([]float64{0, 1, 2, 3, 1e-300, 1e300}))
	Tp := field("T'", rapid.SampledFrom([]float64{0, 1, 2, 5}))
	alpha := field("alpha", rapid.SampledFrom([]float64{0.25, 0.5, 1, 2, 4}))
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = Job{Remaining: T[i], Downstream: Tp[i], Alpha: alpha[i]}
	}
	return jobs
}

// validAlphas reports whether every α is in Allocate's documented range,
// (0, MaxFloat64]: testutil.Magnitude draws 0 too.
func validAlphas(jobs []Job) bool {
	for _, j := range jobs {
		if !(j.Alpha > 0) {
			return false
		}
	}
	return true
}

// magnitudeSlots draws S anywhere in float64's range, or on the scale of a
// case threshold of the snapshot (at it, or up to a factor of 2 either
// side), so that the cases beyond the first are reached.
func magnitudeSlots(t *rapid.T, jobs []Job, beta float64) float64 {
	var thresholds []*big.Float
	if validAlphas(jobs) {
		_, _, thresholds = bigReference(jobs, 1, beta)
	}
	if len(thresholds) == 0 || rapid.Bool().Draw(t, "any S") {
		return testutil.Magnitude().Draw(t, "S")
	}
	x, _ := thresholds[rapid.IntRange(0, len(thresholds)-1).Draw(t, "threshold")].Float64()
	return min(x*rapid.OneOf(rapid.Just(1.0), rapid.Float64Range(0.5, 2)).Draw(t, "S/threshold"), math.MaxFloat64)
}

// checkAgainstBig is the comparison of a result with the big reference:
// finite and ≥ 0; nothing for a job the reference gives nothing; a target
// or proportional share to a relative 1e-9, a remainder to 1e-9·S — unless
// S is within 1e-9 of a case threshold, where only ΣS_i = S is checked.
func checkAgainstBig(t *rapid.T, jobs []Job, slots, beta float64, got []float64) {
	want, kind, thresholds := bigReference(jobs, slots, beta)
	near := nearBigThreshold(slots, thresholds)
	sum, wantSum := bigOf(0), bigOf(0) // exact: ΣS_i may pass MaxFloat64 by rounding
	for i, g := range got {
		if !(g >= 0 && g <= math.MaxFloat64) {
			t.Fatalf("job %d: S_i = %v", i, g)
		}
		sum.Add(sum, bigOf(g))
		if kind[i] != shareNone {
			wantSum = bigOf(slots)
		}
		if near {
			continue
		}
		var ok bool
		switch kind[i] {
		case shareNone:
			ok = g == 0
		case shareFormula:
			ok = math.Abs(g-want[i]) <= tol*want[i]+grain
		default:
			ok = math.Abs(g-want[i]) <= tol*slots+grain
		}
		if !ok {
			t.Fatalf("S = %v, β = %v: job %d got %v, want %v (kind %d)\ngot  %v\nwant %v", slots, beta, i, g, want[i], kind[i], got, want)
		}
	}
	if d, _ := sum.Sub(sum, wantSum).Float64(); math.Abs(d) > tol*slots+grain*float64(len(got)) {
		t.Fatalf("ΣS_i − S = %v (S = %v, %v)", d, slots, got)
	}
}

// testAllocateMagnitudes: Allocate against the big reference at every
// magnitude, or an InputError exactly for α = 0 (the only value in
// float64's finite non-negative range it rejects); input untouched.
func testAllocateMagnitudes(t *rapid.T) {
	jobs := magnitudeJobs(t)
	beta := betaGen().Draw(t, "beta")
	slots := magnitudeSlots(t, jobs, beta)
	orig := slices.Clone(jobs)
	got, err := Allocate(nil, jobs, slots, beta, nil)
	if d := gocmp.Diff(orig, jobs); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	if !validAlphas(jobs) {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "Alpha" || jobs[ie.Index].Alpha != 0 {
			t.Fatalf("α out of range: got %v, %v; want an InputError naming the job", got, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	checkAgainstBig(t, jobs, slots, beta, got)
}

func TestAllocateMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateMagnitudes)
}

// exactScale returns x·2^e and whether that is exact (undone by 2^−e).
func exactScale(x float64, e int) (float64, bool) {
	y := math.Ldexp(x, e)
	return y, math.Ldexp(y, -e) == x && !math.IsInf(y, 0)
}

// testAllocateRescaled: Allocate is homogeneous in (T, T', S) and depends
// on α only through ratios, so the instance with T, T' and S times 2^e and
// α times 4^f gives the slots times 2^e, when every scaled input is exact.
func testAllocateRescaled(t *rapid.T) {
	jobs := magnitudeJobs(t)
	beta := betaGen().Draw(t, "beta")
	slots := magnitudeSlots(t, jobs, beta)
	e := rapid.OneOf(rapid.IntRange(-64, 64), rapid.IntRange(-1100, 1100)).Draw(t, "e")
	f := rapid.IntRange(-520, 520).Draw(t, "f")
	scaled := slices.Clone(jobs)
	S, ok := exactScale(slots, e)
	for i := range scaled {
		var ok1, ok2, ok3 bool
		scaled[i].Remaining, ok1 = exactScale(jobs[i].Remaining, e)
		scaled[i].Downstream, ok2 = exactScale(jobs[i].Downstream, e)
		scaled[i].Alpha, ok3 = exactScale(jobs[i].Alpha, 2*f)
		ok = ok && ok1 && ok2 && ok3
	}
	if !ok || !validAlphas(jobs) || !validAlphas(scaled) {
		return
	}
	a, err := Allocate(nil, jobs, slots, beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	b, err := Allocate(nil, scaled, S, beta, nil)
	if err != nil {
		t.Fatalf("Allocate (scaled): %v", err)
	}
	_, _, thresholds := bigReference(jobs, slots, beta)
	if nearBigThreshold(slots, thresholds) {
		return
	}
	// The scaled results carry their own subnormal grain, 2^−e times the
	// original's when e < 0.
	g := max(grain, math.Ldexp(grain, -e))
	for i := range a {
		if back := math.Ldexp(b[i], -e); math.Abs(back-a[i]) > tol*(a[i]+slots)+g {
			t.Fatalf("job %d: %v, scaled by 2^%d and back %v (α by 4^%d)\n%v\n%v", i, a[i], e, back, f, a, b)
		}
	}
}

func TestAllocateRescaled(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateRescaled)
}

// testAllocateSlotsMagnitudes: the integer form at every magnitude of T,
// T' and α, with slots up to 2^53: Σ = slots exactly when some job has
// work (0 otherwise), every job within one slot of its real-valued share,
// nothing for a zero share; or an InputError for α = 0. "Within one
// slot" of the real-valued share up to that share's rounding: each share
// Allocate returns is within (n+4)·2^−53·S of the exact one (a quotient of
// sums of n terms, times S), and when the floats sum past S the
// apportionment takes the excess back by rank, possibly from another job
// than the one whose share rounded up — so the slack is the shares' total
// rounding, (n+4)·2^−53·S: 10^−12 of a slot at S = 2000, a dozen slots
// near 2^53.
func testAllocateSlotsMagnitudes(t *rapid.T) {
	jobs := magnitudeJobs(t)
	beta := betaGen().Draw(t, "beta")
	slots := rapid.OneOf(rapid.IntRange(0, 2000), testutil.NearMaxCount()).Draw(t, "slots")
	got, err := AllocateSlots(nil, jobs, slots, beta, nil)
	if !validAlphas(jobs) {
		if err == nil {
			t.Fatalf("α out of range accepted: %v", got)
		}
		return
	}
	if err != nil {
		t.Fatalf("AllocateSlots: %v", err)
	}
	real, err := Allocate(nil, jobs, float64(slots), beta, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	sum, work := 0, false
	for i, s := range got {
		sum += s
		work = work || jobs[i].Remaining > 0
		slack := float64(len(jobs)+4) * 0x1p-53 * float64(slots)
		if s < 0 || math.Abs(float64(s)-real[i]) > 1+slack || (real[i] == 0 && s != 0) {
			t.Fatalf("job %d: %d slots, real share %v", i, s, real[i])
		}
	}
	if want := map[bool]int{true: slots}[work]; sum != want {
		t.Fatalf("Σ = %d, want %d (%v)", sum, want, got)
	}
}

func TestAllocateSlotsMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateSlotsMagnitudes)
}
