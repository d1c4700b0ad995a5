package fairness_test

import (
	"errors"
	"math"
	"math/big"
	mathbits "math/bits"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/internal/testutil"
)

// The magnitude tests (issues 11 and 17): inputs anywhere in float64's
// range, checked against Algorithm 2 in exact rational arithmetic, against
// the same instance rescaled by a power of two, and against Theorem 2's
// floor and ΣS_i = S directly.

// magnitudeSnapshot draws remaining from testutil.Magnitudes (0,
// subnormals, 1e−300…1e300, powers of two, MaxFloat64, exact ties), S from
// testutil.Magnitude or on the scale of ΣV, β on both sides of 2 and ε at
// its ends or inside.
func magnitudeSnapshot(t *rapid.T, maxJobs int) fairSnapshot {
	remaining := testutil.Magnitudes(0, maxJobs).Draw(t, "remaining")
	beta := rapid.SampledFrom([]float64{1.01, 1.5, 1.9, 2, 3}).Draw(t, "beta")
	var slots float64
	if rapid.Bool().Draw(t, "slotsFromVirtualTotal") {
		vt := testutil.RatFloat(new(big.Rat).Mul(testutil.RatSum(remaining), testutil.Rat(testutil.Factor(beta))))
		slots = min(math.MaxFloat64, min(vt, math.MaxFloat64)*rapid.Float64Range(0, 2.5).Draw(t, "slotsPerVirtualTotal"))
	} else {
		slots = testutil.Magnitude().Draw(t, "slots")
	}
	eps := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.1, 0.5, 1 - 0x1p-53, 1})).Draw(t, "eps")
	return fairSnapshot{Snapshot: testutil.Snapshot{Remaining: remaining, Slots: slots, Beta: beta}, Eps: eps}
}

// allocateOrOverflow calls Allocate; the only error an in-range snapshot
// may get is the documented ΣV_i overflow, which must be real (checked
// exactly) and name the remaining field.
func allocateOrOverflow(t *rapid.T, s fairSnapshot) ([]float64, bool) {
	before := slices.Clone(s.Remaining)
	got, err := fairness.Allocate(nil, s.Remaining, s.Slots, s.Beta, s.Eps, nil)
	if diff := cmp.Diff(before, s.Remaining); diff != "" {
		t.Fatalf("Allocate modified remaining:\n%s", diff)
	}
	if err == nil {
		return got, true
	}
	var ie *specsched.InputError
	virtual := new(big.Rat).Mul(testutil.RatSum(s.Remaining), testutil.Rat(testutil.Factor(s.Beta)))
	if !errors.As(err, &ie) || ie.Field != "remaining" || got != nil || ie.Index >= len(s.Remaining) {
		t.Fatalf("Allocate(%v, %g, %g, %g): %v, %v", s.Remaining, s.Slots, s.Beta, s.Eps, got, err)
	}
	// The check sums in its own order: allow its last rounding.
	if !testutil.ExceedsMax(new(big.Rat).Mul(virtual, testutil.Rat(1+1e-15))) {
		t.Fatalf("Allocate(%v, %g, %g, %g): %v, but ΣV = %s fits in float64", s.Remaining, s.Slots, s.Beta, s.Eps, err, virtual.FloatString(3))
	}
	return nil, false
}

// testMagnitudes: at every magnitude Allocate returns the exact allocation
// up to rounding (Theorem 2's floor, ΣS_i = S) or the ΣV overflow error.
func testMagnitudes(t *rapid.T) {
	s := magnitudeSnapshot(t, 12)
	if got, ok := allocateOrOverflow(t, s); ok {
		testutil.CheckFairExact(t, got, s.Remaining, s.Slots, s.Beta, s.Eps)
	}
}

func TestMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudes) }

// testMagnitudeRescaling: scaling T and S by an exact power of two scales
// the allocation (Algorithm 2 is homogeneous), wherever the scaled snapshot
// is exact; results agree to testutil.FairRelTol plus the subnormal slack at either
// scale.
func testMagnitudeRescaling(t *rapid.T) {
	s := magnitudeSnapshot(t, 12)
	lo, hi := exactScales(append([]float64{s.Slots}, s.Remaining...))
	if lo > hi {
		return // MaxFloat64 and 5e-324 together: no other scale holds both
	}
	k := rapid.IntRange(lo, hi).Draw(t, "log2scale")
	scaled := fairSnapshot{Snapshot: testutil.Snapshot{Slots: math.Ldexp(s.Slots, k), Beta: s.Beta}, Eps: s.Eps}
	for _, r := range s.Remaining {
		scaled.Remaining = append(scaled.Remaining, math.Ldexp(r, k))
	}
	exact := func(x, y float64) bool { return math.Ldexp(y, -k) == x && !math.IsInf(y, 0) }
	if !exact(s.Slots, scaled.Slots) || !slices.EqualFunc(s.Remaining, scaled.Remaining, exact) {
		return // not the same instance at the other scale
	}
	base, okBase := allocateOrOverflow(t, s)
	sc, okScaled := allocateOrOverflow(t, scaled)
	if !okBase || !okScaled {
		return
	}
	scale := math.Ldexp(1, k)
	for i := range base {
		want := math.Ldexp(base[i], k)
		if math.Abs(sc[i]-want) > 1e-12*want+testutil.FairTinyTol*max(1, scale) {
			t.Fatalf("job %d: %g at scale 1, %g at scale 2^%d (want %g)", i, base[i], sc[i], k, want)
		}
	}
}

// exactScales returns the range of k for which x·2^k is exact and finite
// for every x in xs: no set bit below 2^−1074, no value at or above 2^1024.
func exactScales(xs []float64) (lo, hi int) {
	lo, hi = -2200, 2200
	for _, x := range xs {
		if x == 0 {
			continue
		}
		_, e := math.Frexp(x) // x < 2^e
		bits := math.Float64bits(x)
		mant, exp := bits&(1<<52-1), int(bits>>52)
		lowest := -1074 // the weight of the mantissa's last bit
		if exp > 0 {
			mant |= 1 << 52
			lowest = exp - 1075
		}
		lowest += mathbits.TrailingZeros64(mant)
		lo = max(lo, -1074-lowest)
		hi = min(hi, 1024-e)
	}
	return lo, hi
}

func TestMagnitudeRescaling(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeRescaling) }

// testSlotsMagnitudes: AllocateSlots at every magnitude of T and at slot
// counts up to 2^53: Σ = slots exactly when a job is active, each job
// within a slot (plus the float64 shares' own rounding, a few units at
// 2^53) of the exact share, every active job at least ⌊(1−ε)S/N⌋.
func testSlotsMagnitudes(t *rapid.T) {
	remaining := testutil.Magnitudes(0, 10).Draw(t, "remaining")
	slots := rapid.OneOf(rapid.IntRange(0, 400), testutil.NearMaxCount(), rapid.IntRange(0, testutil.MaxExact)).Draw(t, "slots")
	beta := rapid.SampledFrom([]float64{1.01, 1.5, 2, 3}).Draw(t, "beta")
	eps := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.1, 0.5, 1})).Draw(t, "eps")
	before := slices.Clone(remaining)
	got, err := fairness.AllocateSlots(nil, remaining, slots, beta, eps, nil)
	if diff := cmp.Diff(before, remaining); diff != "" {
		t.Fatalf("AllocateSlots modified remaining:\n%s", diff)
	}
	if err != nil {
		if _, ok := allocateOrOverflow(t, fairSnapshot{Snapshot: testutil.Snapshot{Remaining: remaining, Slots: float64(slots), Beta: beta}, Eps: eps}); ok {
			t.Fatalf("AllocateSlots: %v, but Allocate accepts the snapshot", err)
		}
		return
	}
	want := testutil.FairExact(remaining, float64(slots), beta, eps)
	floor := new(big.Int).Quo(want.Floor.Num(), want.Floor.Denom()) // ⌊(1−ε)S/N⌋
	sum, active := 0, false
	// One slot, the shares' rounding (n roundings of 2^−53 relative), and
	// the case split's tolerance: within alloc.CaseTolerance·S of the
	// boundary the library may take case 1 where the exact rule takes case
	// 2; the two agree to that tolerance of S.
	slack := 1 + (4*float64(len(remaining))*0x1p-53+alloc.CaseTolerance)*float64(slots)
	for i, x := range got {
		if remaining[i] == 0 {
			if x != 0 {
				t.Fatalf("finished job %d gets %d", i, x)
			}
			continue
		}
		active = true
		if w := testutil.RatFloat(want.Shares[i]); math.Abs(float64(x)-w) >= slack+testutil.FairRelTol*w*boolFloat(want.Loose[i]) {
			t.Fatalf("job %d: %d slots, exact share %g (slots %d, remaining %v, β %g, ε %g: %v)", i, x, w, slots, remaining, beta, eps, got)
		}
		if big.NewInt(int64(x)).Cmp(floor) < 0 {
			t.Fatalf("job %d: %d slots, below ⌊(1−ε)S/N⌋ = %s (slots %d, remaining %v, β %g, ε %g: %v)", i, x, floor, slots, remaining, beta, eps, got)
		}
		sum += x
	}
	if total := map[bool]int{true: slots}[active]; sum != total {
		t.Fatalf("Σ = %d, want %d (remaining %v, β %g, ε %g: %v)", sum, total, remaining, beta, eps, got)
	}
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestSlotsMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testSlotsMagnitudes) }
