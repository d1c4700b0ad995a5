package alloc_test

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// The generator classes of issues 11 and 17 — values over float64's whole
// range with subnormals and exact ties (testutil.Magnitudes), counts in
// [2^53−8, 2^53] (testutil.NearMaxCount), aliased dst — on every
// allocation function of the package, each checked against exact
// arithmetic (math/big) or a sibling function.

// betaMagnitude draws β over the accepted range: just above 1, inside
// (1, 2), the no-speculation side, and MaxFloat64.
func betaMagnitude() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{math.Nextafter(1, 2), 1.5, 2, math.MaxFloat64}),
		rapid.Float64Range(1.0001, 1.9999),
		rapid.Float64Range(2, 10),
	)
}

// runningSumOverflows reports whether Σxs in index order reaches +Inf.
func runningSumOverflows(xs []float64) bool {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return math.IsInf(sum, 1)
}

// withNegativeZeros turns some zeros of xs into −0 (accepted as 0; the
// share must be +0).
func withNegativeZeros(t *rapid.T, xs []float64) []float64 {
	for i, x := range xs {
		if x == 0 && rapid.Bool().Draw(t, "negativeZero") {
			xs[i] = math.Copysign(0, -1)
		}
	}
	return xs
}

// testAllocateMagnitudes: on snapshots over float64's whole range,
// Allocate rejects exactly the snapshots whose ΣT_i (running sum)
// overflows (ΣV_i may: the case is then the constrained one), and otherwise returns finite shares ≥ +0 that agree with the
// exact Algorithm 1: every share to within 1e-9 relative (and a few
// subnormal units), except the job at the cut-off, which gets what is left
// of S — exact up to the rounding of the partial sums, n·2^-52·S.
func testAllocateMagnitudes(t *rapid.T) {
	remaining := withNegativeZeros(t, testutil.Magnitudes(0, 12).Draw(t, "remaining"))
	slots := testutil.Magnitude().Draw(t, "slots")
	beta := betaMagnitude().Draw(t, "beta")
	got, err := alloc.Allocate(nil, remaining, slots, beta, nil)
	overflows := runningSumOverflows(remaining)
	if err != nil {
		var ie *specsched.InputError
		if !errors.As(err, &ie) || !overflows {
			t.Fatalf("Allocate(%v, %v, %v): %v", remaining, slots, beta, err)
		}
		return
	}
	if overflows {
		t.Fatalf("Allocate(%v, %v, %v) accepted a snapshot whose sum overflows: %v", remaining, slots, beta, got)
	}
	testutil.CheckAllocateExact(t, got, remaining, slots, beta)
}

func TestAllocateMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testAllocateMagnitudes) }

// slotsNearMax draws an integer S: small, anywhere up to 2^53, or in
// [2^53−8, 2^53].
func slotsNearMax() *rapid.Generator[int] {
	return rapid.OneOf(rapid.IntRange(0, 1000), rapid.IntRange(0, alloc.MaxTotal), testutil.NearMaxCount())
}

// testAllocateSlotsMagnitudes: for snapshots over float64's whole range and
// S up to and at 2^53, AllocateSlots sums to exactly S when some job has
// work, keeps every job within a slot of its exact share (math/big) up to
// the real shares' rounding, and within 1 + |Σreal − S| of its real share
// (Allocate at S; the real shares sum to S only up to n·2⁻⁵³ relative,
// several units near 2^53); and it is Apportion of those shares in
// Algorithm 1's order — or rejects, exactly where Allocate does.
func testAllocateSlotsMagnitudes(t *rapid.T) {
	remaining := withNegativeZeros(t, testutil.Magnitudes(0, 12).Draw(t, "remaining"))
	slots := slotsNearMax().Draw(t, "slots")
	beta := betaMagnitude().Draw(t, "beta")
	got, err := alloc.AllocateSlots(nil, remaining, slots, beta, nil)
	real, realErr := alloc.Allocate(nil, remaining, float64(slots), beta, nil)
	if (err == nil) != (realErr == nil) {
		t.Fatalf("AllocateSlots error %v, Allocate error %v", err, realErr)
	}
	if err != nil {
		return
	}
	total := 0
	if hasWork(remaining) {
		total = slots
	}
	if s := sumOf(got); s != total {
		t.Fatalf("AllocateSlots(%v, %d, %v) = %v, Σ = %d, want %d", remaining, slots, beta, got, s, total)
	}
	off := new(big.Float).SetPrec(200)
	for _, x := range real {
		off.Add(off, big.NewFloat(x))
	}
	realOff, _ := off.Sub(off, new(big.Float).SetInt64(int64(total))).Float64()
	exact := testutil.ExactAllocate(remaining, float64(slots), beta)
	for i, x := range got {
		if x < 0 || math.Abs(float64(x)-real[i]) > 1+math.Abs(realOff) {
			t.Fatalf("job %d: %d slots for the real share %v (Σ real shares − S = %v)", i, x, real[i], realOff)
		}
		// Against the exact Algorithm 1: within a slot, and the real
		// shares' own rounding (n + 4 ulps relative).
		if math.Abs(float64(x)-exact[i]) > 1+float64(len(remaining)+4)*0x1p-52*exact[i] {
			t.Fatalf("job %d: %d slots for the exact share %v", i, x, exact[i])
		}
	}
	want, err := alloc.Apportion(nil, real, total, remaining, nil)
	if err != nil {
		t.Fatalf("Apportion(Allocate): %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("AllocateSlots = %v, Apportion(Allocate) = %v", got, want)
	}
}

func TestAllocateSlotsMagnitudes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testAllocateSlotsMagnitudes)
}

// testApportionMagnitudes: shares w_i/Σw·total for weights over float64's
// whole range and totals up to and at 2^53 sum to exactly total, give a
// zero share nothing, and stay within a unit of every share when the
// shares sum to total within a unit; otherwise (the rounding of w_i/Σw
// times a total near 2^53 adds up to units) within 1 + |Σshares − total|
// (exact sum), the bound of the unit-by-unit rule.
func testApportionMagnitudes(t *rapid.T) {
	weights := testutil.Magnitudes(1, 12).Draw(t, "weights")
	total := slotsNearMax().Draw(t, "total")
	shares := testutil.SharesOf(t, weights, total)
	got, err := alloc.Apportion(nil, shares, total, weights, nil)
	if err != nil {
		t.Fatalf("Apportion(%v, %d): %v", shares, total, err)
	}
	if s := sumOf(got); s != total {
		t.Fatalf("Apportion(%v, %d) = %v, Σ = %d", shares, total, got, s)
	}
	exact := new(big.Float).SetPrec(200)
	for _, x := range shares {
		exact.Add(exact, big.NewFloat(x))
	}
	off, _ := exact.Sub(exact, new(big.Float).SetInt64(int64(total))).Float64()
	for i, x := range got {
		dev := math.Abs(float64(x) - shares[i])
		if (math.Abs(off) < 1 && dev >= 1) || dev > 1+math.Abs(off) || (shares[i] == 0 && x != 0) {
			t.Fatalf("job %d: %d for share %v (Σshares − total = %v)", i, x, shares[i], off)
		}
	}
}

func TestApportionMagnitudes(t *testing.T) { t.Parallel(); rapid.Check(t, testApportionMagnitudes) }

// testAliasedDst: a dst placed anywhere in a buffer that also holds the
// input — overlapping it or not — is rejected exactly when it would be
// reused and overlaps, leaving buffer and input unchanged; otherwise the
// result is the unaliased call's. For Allocate, AllocateSlots and
// Apportion.
func testAliasedDst(t *rapid.T) {
	s := testutil.SnapshotGen(10).Draw(t, "s")
	n := len(s.Remaining)
	buf := make([]float64, 3*n+2)
	at := rapid.IntRange(0, 2*n+2).Draw(t, "remainingAt")
	copy(buf[at:], s.Remaining)
	remaining := buf[at : at+n]
	dstAt := rapid.IntRange(0, len(buf)).Draw(t, "dstAt")
	dstCap := rapid.IntRange(0, len(buf)-dstAt).Draw(t, "dstCap")
	dst := buf[dstAt : dstAt : dstAt+dstCap]
	overlap := n > 0 && dstCap >= n && dstAt < at+n && at < dstAt+n
	before := slices.Clone(buf)
	want, wantErr := alloc.Allocate(nil, s.Remaining, s.Slots, s.Beta, nil)
	got, err := alloc.Allocate(dst, remaining, s.Slots, s.Beta, nil)
	var ie *specsched.InputError
	switch {
	case overlap:
		if !errors.As(err, &ie) || ie.Field != "dst" || !slices.Equal(buf, before) {
			t.Fatalf("dst [%d, +%d) over remaining [%d, +%d): %v, buffer %v → %v", dstAt, dstCap, at, n, err, before, buf)
		}
	case (err == nil) != (wantErr == nil) || !slices.Equal(got, want):
		t.Fatalf("dst [%d, +%d), remaining [%d, +%d): %v, %v; unaliased %v, %v", dstAt, dstCap, at, n, got, err, want, wantErr)
	}
	// AllocateSlots: an int dst at the same place (through unsafe).
	intSlots := int(min(s.Slots, 1e6))
	ints, intsErr := alloc.AllocateSlots(nil, s.Remaining, intSlots, s.Beta, nil)
	gotSlots, err := alloc.AllocateSlots(intsView(buf)[dstAt:dstAt:dstAt+dstCap], remaining, intSlots, s.Beta, nil)
	switch {
	case overlap:
		if !errors.As(err, &ie) || ie.Field != "dst" || !slices.Equal(buf, before) {
			t.Fatalf("AllocateSlots: dst [%d, +%d) over remaining [%d, +%d): %v", dstAt, dstCap, at, n, err)
		}
	case (err == nil) != (intsErr == nil) || !slices.Equal(gotSlots, ints):
		t.Fatalf("AllocateSlots: dst [%d, +%d), remaining [%d, +%d): %v, %v; unaliased %v, %v", dstAt, dstCap, at, n, gotSlots, err, ints, intsErr)
	}
	// Apportion: the shares in the buffer, an int dst over them or
	// elsewhere.
	if intsErr != nil || n == 0 {
		return
	}
	shares := make([]float64, n)
	for i, x := range ints {
		shares[i] = float64(x)
	}
	copy(buf, before)
	copy(buf[at:], shares)
	intsOver := intsView(buf)
	dstInts := intsOver[dstAt : dstAt : dstAt+dstCap]
	wantInts, _ := alloc.Apportion(nil, shares, sumOf(ints), s.Remaining, nil)
	gotInts, err := alloc.Apportion(dstInts, buf[at:at+n], sumOf(ints), s.Remaining, nil)
	switch {
	case overlap:
		if !errors.As(err, &ie) || ie.Field != "dst" {
			t.Fatalf("Apportion: dst [%d, +%d) over shares [%d, +%d): %v", dstAt, dstCap, at, n, err)
		}
	case err != nil || !slices.Equal(gotInts, wantInts):
		t.Fatalf("Apportion: dst [%d, +%d), shares [%d, +%d): %v, %v; unaliased %v", dstAt, dstCap, at, n, gotInts, err, wantInts)
	}
}

func TestAliasedDstProperty(t *testing.T) { t.Parallel(); rapid.Check(t, testAliasedDst) }
