package probe

import (
	"math"
	"math/big"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
)

// Issue 17's generator classes: values over float64's whole range with
// subnormals and exact ties (testutil.Magnitude), counts at 2^53
// (testutil.NearMaxCount), aliased dst.

// inputErr fails unless err is an *InputError of fn at index for field.
func inputErr(t fataler, err error, fn string, index int, field string) {
	t.Helper()
	ie, ok := err.(*specsched.InputError)
	if !ok || ie.Func != fn || ie.Index != index || ie.Field != field {
		t.Fatalf("error %v; want an InputError of %s at %d, field %s", err, fn, index, field)
	}
}

// TestSimulateLostTime: a positive duration or delay that the clock's
// rounding would absorb is an InputError naming it (it was a task that
// ended when it started, a job complete in 0 s, with a nil error); the
// same times on a clock that resolves them are simulated exactly.
func TestSimulateLostTime(t *testing.T) {
	t.Parallel()
	one := func(submit, d float64) []Job { return []Job{{Submit: submit, Durations: []float64{2, d}, EstTask: 1}} }
	for _, p := range []Scheduler{Eagle, Hawk, Sparrow, Hopper} {
		cfg := DefaultConfig(p, 4, 100)
		cfg.NetworkDelay = 0
		for _, c := range []struct{ submit, d float64 }{{1e-150, 1e-300}, {1e12, 1e-5}, {1, 5e-324}} {
			_, err := Simulate(one(c.submit, c.d), cfg, rngFrom(1))
			inputErr(t, err, "probe.Simulate", 0, "Durations")
		}
		// At t = 0 nothing is lost: the job takes exactly its longest task
		// (2 s, or 1e-300 s alone).
		for _, d := range []float64{1e-300, 5e-324} {
			r, err := Simulate([]Job{{Submit: 0, Durations: []float64{d}, EstTask: d}}, cfg, rngFrom(1))
			if err != nil || r.Completion[0] != d {
				t.Fatalf("%v: duration %v at t = 0: %v, %v", p, d, r, err)
			}
		}
		cfg.NetworkDelay = 1e-17 // lost at t = 1
		_, err := Simulate(one(1, 1), cfg, rngFrom(1))
		inputErr(t, err, "probe.Simulate", -1, "NetworkDelay")
	}
	// A long job's estimate lost on the central scheduler's clock.
	cfg := DefaultConfig(Eagle, 10, 1e-30)
	cfg.NetworkDelay = 0
	_, err := Simulate([]Job{{Submit: 1e6, Durations: []float64{1}, EstTask: 1e-20}}, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", 0, "EstTask")
}

// TestSimulateTooManyProbes: a job asking for more than MaxProbes probes
// was accepted and silently never ran (no probe sent, completion 0).
func TestSimulateTooManyProbes(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{1}, EstTask: 1}, {Durations: []float64{1, 1, 1}, EstTask: 1}}
	for _, ratio := range []float64{1e300, math.MaxFloat64, MaxProbes/3 + 1} {
		cfg := DefaultConfig(Sparrow, 10, 100)
		cfg.ProbeRatio = ratio
		_, err := Simulate(jobs[1:], cfg, rngFrom(1))
		inputErr(t, err, "probe.Simulate", 0, "ProbeRatio·len(Durations)")
	}
	// Just below the bound (3 tasks, ⌊2^31/3⌋ probes each: 2^31 − 2) is
	// accepted, as ProbeCount says; too many probes to simulate here, so
	// the run below is an ordinary one.
	if n, err := ProbeCount(3, 0, MaxProbes/3); err != nil || n != MaxProbes/3*3 {
		t.Fatalf("ProbeCount at the bound: %d, %v", n, err)
	}
	cfg := DefaultConfig(Sparrow, 10, 100)
	if r, err := Simulate(jobs, cfg, rngFrom(1)); err != nil || r.Stats.Tasks != 4 {
		t.Fatalf("%v, %v", r, err)
	}
}

// TestProbeCountDecimalRatios: the ceiling is of the float64 product, so a
// decimal ratio means what it says (1.1 is slightly above 11/10 as a
// float, yet 10 tasks get 11 probes).
func TestProbeCountDecimalRatios(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tasks int
		ratio float64
		want  int
	}{{10, 1.1, 11}, {5, 0.2, 1}, {3, 0x1.5555555555556p-2, 1}, {3, 0.5, 2}, {1, 5e-324, 1}, {MaxProbes, 1, MaxProbes}} {
		if got, err := ProbeCount(c.tasks, 0, c.ratio); err != nil || got != c.want {
			t.Errorf("ProbeCount(%d, 0, %v) = %d, %v; want %d", c.tasks, c.ratio, got, err, c.want)
		}
	}
}

// TestPlaceLWLOverflow: work left near MaxFloat64 overflowed to +Inf and
// tied nodes whose work differs: on {Max, Max/2} three tasks of Max went
// to 1, 0, 0 although node 1 (1.5·Max) had less work than node 0 (2·Max)
// for the third. Now rejected, naming estTask.
func TestPlaceLWLOverflow(t *testing.T) {
	t.Parallel()
	dst := []int{-7, -7, -7}
	got, err := PlaceLWL(dst[:0], []float64{math.MaxFloat64, math.MaxFloat64 / 2}, 3, math.MaxFloat64, nil)
	inputErr(t, err, "probe.PlaceLWL", -1, "estTask")
	if got != nil || dst[0] != -7 {
		t.Fatalf("on error: %v, dst %v", got, dst)
	}
	// At the bound: min + tasks·est = MaxFloat64/2 is accepted.
	got, err = PlaceLWL(nil, []float64{math.MaxFloat64, 0}, 2, math.MaxFloat64/4, nil)
	if err != nil || !slices.Equal(got, []int{1, 1}) {
		t.Fatalf("at the bound: %v, %v", got, err)
	}
}

// TestDstAliasing: a dst sharing memory with the input is rejected (field
// "dst"), and neither is modified.
func TestDstAliasing(t *testing.T) {
	t.Parallel()
	queue := []QueuedProbe{{EstJobLeft: 3, EstTask: 1, Cap: 5}, {EstJobLeft: 1, EstTask: 1, Cap: 5}}
	before := slices.Clone(queue)
	alias := unsafe.Slice((*float64)(unsafe.Pointer(&queue[0])), 2)
	_, _, err := GetProbeFromQueue(alias[:0], queue)
	inputErr(t, err, "probe.GetProbeFromQueue", -1, "dst")
	if !cmp.Equal(before, queue) {
		t.Fatalf("queue modified: %v", queue)
	}
	if got, k, err := GetProbeFromQueue(make([]float64, 0, 2), queue); err != nil || k != 1 || !slices.Equal(got, []float64{1, 0}) {
		t.Fatalf("unaliased: %v %d %v", got, k, err)
	}

	work := []float64{4, 0, 2}
	workBefore := slices.Clone(work)
	aliasInt := unsafe.Slice((*int)(unsafe.Pointer(&work[0])), 3)
	_, err = PlaceLWL(aliasInt[:0], work, 3, 1, nil)
	inputErr(t, err, "probe.PlaceLWL", -1, "dst")
	if !slices.Equal(work, workBefore) {
		t.Fatalf("workLeft modified: %v", work)
	}
}

// refGetProbeExact is refGetProbe with CANBYPASS's test Bypassed + est >
// Cap in exact rational arithmetic.
func refGetProbeExact(queue []QueuedProbe) int {
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	shortest := math.Inf(1)
	chosen := -1
	for i, p := range queue {
		if p.Long {
			break
		}
		if p.EstJobLeft >= shortest {
			continue
		}
		ok := true
		for _, q := range queue[:i] {
			ok = ok && new(big.Rat).Add(rat(q.Bypassed), rat(p.EstTask)).Cmp(rat(q.Cap)) <= 0
		}
		if ok {
			shortest, chosen = p.EstJobLeft, i
		}
	}
	if chosen < 0 && len(queue) > 0 {
		chosen = 0
	}
	return chosen
}

// TestGetProbeExactAllowance: 1 − 2⁻⁶⁰ rounds to 1, and the rounded
// allowance let a task of 1 bypass a probe with Bypassed = 2⁻⁶⁰ and Cap =
// 1, whose counter would then be 1 + 2⁻⁶⁰ > 1 exactly.
func TestGetProbeExactAllowance(t *testing.T) {
	t.Parallel()
	q := []QueuedProbe{{EstJobLeft: 5, EstTask: 1, Bypassed: 0x1p-60, Cap: 1}, {EstJobLeft: 1, EstTask: 1, Cap: 10}}
	if _, k, err := GetProbeFromQueue(nil, q); err != nil || k != 0 {
		t.Fatalf("chose %d, %v; want 0: the second probe may not bypass the first", k, err)
	}
	q[0].Bypassed = 0 // exactly at the cap: allowed
	if _, k, err := GetProbeFromQueue(nil, q); err != nil || k != 1 {
		t.Fatalf("chose %d, %v; want 1", k, err)
	}
	// Allowances whose rounding goes either way, worked in exact binary:
	// 1 − 2⁻⁵⁴ rounds up to 1 (error −2⁻⁵⁴); 1 − 3·2⁻⁵⁴ rounds down to
	// 1 − 2⁻⁵² (error +2⁻⁵⁴).
	const tiny, small = 0x1p-54, 0x3p-54
	below1 := 1 - 0x1p-52
	for _, c := range []struct {
		probes []QueuedProbe
		want   int
	}{
		{[]QueuedProbe{{EstJobLeft: 5, Cap: 1, Bypassed: tiny}, {EstJobLeft: 1, EstTask: 1, Cap: 9}}, 0},
		{[]QueuedProbe{{EstJobLeft: 5, Cap: 1, Bypassed: small}, {EstJobLeft: 1, EstTask: below1, Cap: 9}}, 1},
		{[]QueuedProbe{{EstJobLeft: 5, Cap: 1, Bypassed: small}, {EstJobLeft: 1, EstTask: 1, Cap: 9}}, 0},
		// Two allowances that round to 1, the smaller one second or
		// first: a task of 1 fits under neither.
		{[]QueuedProbe{{EstJobLeft: 5, Cap: 1}, {EstJobLeft: 4, EstTask: 0.5, Cap: 1, Bypassed: tiny}, {EstJobLeft: 1, EstTask: 1, Cap: 9}}, 1},
		{[]QueuedProbe{{EstJobLeft: 5, Cap: 1, Bypassed: tiny}, {EstJobLeft: 4, EstTask: 0.5, Cap: 1}, {EstJobLeft: 1, EstTask: 1, Cap: 9}}, 1},
	} {
		if _, k, err := GetProbeFromQueue(nil, c.probes); err != nil || k != c.want {
			t.Errorf("%+v: chose %d, %v; want %d", c.probes, k, err, c.want)
		}
		if want := refGetProbeExact(c.probes); want != c.want {
			t.Errorf("%+v: the exact reference chooses %d; the worked answer is %d", c.probes, want, c.want)
		}
	}
}

// testMagnitudeQueue: Algorithm 1 on fields from anywhere in float64's
// range: no error, the choice of Algorithm 1 in exact arithmetic,
// counters finite, never below their start and within their caps, and the
// same decision with every field doubled (exact in float64 short of
// overflow: the scan only compares, subtracts and adds).
func testMagnitudeQueue(t *rapid.T) {
	n := rapid.IntRange(0, 8).Draw(t, "len")
	vals := testutil.Magnitudes(4*n, 4*n).Draw(t, "fields")
	q := make([]QueuedProbe, n)
	for i := range q {
		q[i] = QueuedProbe{Long: rapid.IntRange(0, 5).Draw(t, "longOneIn6") == 0,
			EstJobLeft: vals[4*i], EstTask: vals[4*i+1], Bypassed: vals[4*i+2], Cap: vals[4*i+3]}
	}
	dst, k, err := GetProbeFromQueue(nil, q)
	if err != nil || k < -1 || k >= n || len(dst) != n {
		t.Fatalf("GetProbeFromQueue: %d %v %v", k, dst, err)
	}
	if want := refGetProbeExact(q); k != want {
		t.Fatalf("chose %d; Algorithm 1 in exact arithmetic chooses %d", k, want)
	}
	for i := 0; i < k; i++ { // bypassed: within the cap unless past it before
		if q[i].Bypassed <= q[i].Cap && dst[i] > q[i].Cap {
			t.Fatalf("counter %d = %v past its cap %v", i, dst[i], q[i].Cap)
		}
	}
	for i, c := range dst {
		if math.IsInf(c, 0) || math.IsNaN(c) || c < q[i].Bypassed {
			t.Fatalf("counter %d = %v from %v", i, c, q[i].Bypassed)
		}
	}
	doubled := slices.Clone(q)
	for i := range doubled {
		p := &doubled[i]
		p.EstJobLeft, p.EstTask, p.Bypassed, p.Cap = 2*p.EstJobLeft, 2*p.EstTask, 2*p.Bypassed, 2*p.Cap
		if math.IsInf(p.EstJobLeft+p.EstTask+p.Bypassed+p.Cap, 0) {
			return // some field overflows when doubled
		}
	}
	dst2, k2, err := GetProbeFromQueue(nil, doubled)
	if err != nil || k2 != k {
		t.Fatalf("doubled: chose %d, %v; want %d", k2, err, k)
	}
	for i := range dst {
		if dst2[i] != 2*dst[i] {
			t.Fatalf("doubled: counter %d = %v; want %v", i, dst2[i], 2*dst[i])
		}
	}
}

func TestMagnitudeQueue(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeQueue) }

// testMagnitudeLWL: PlaceLWL on work left and estimates from anywhere in
// float64's range matches the argmin scan (the same additions), or
// rejects an instance whose work could overflow.
func testMagnitudeLWL(t *rapid.T) {
	work := testutil.Magnitudes(1, 10).Draw(t, "workLeft")
	est := testutil.Magnitude().Draw(t, "estTask")
	tasks := rapid.IntRange(0, 20).Draw(t, "tasks")
	got, err := PlaceLWL(nil, work, tasks, est, nil)
	if err != nil {
		inputErr(t, err, "probe.PlaceLWL", -1, "estTask")
		if slices.Min(work)+float64(tasks)*est <= math.MaxFloat64/2 {
			t.Fatalf("rejected within the bound: %v", err)
		}
		return
	}
	if d := cmp.Diff(refLWL(work, tasks, est), got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("placement (-argmin +heap):\n%s", d)
	}
}

func TestMagnitudeLWL(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeLWL) }

// testMagnitudeScalars: Classify, ProbeCount and ShortPartition on values
// from anywhere in float64's range and counts up to 2^53.
func testMagnitudeScalars(t *rapid.T) {
	est, thr := testutil.Magnitude().Draw(t, "estTask"), testutil.Magnitude().Draw(t, "threshold")
	if c, err := Classify(est, thr); err != nil || (c == Long) != (est > thr) {
		t.Fatalf("Classify(%v, %v) = %v, %v", est, thr, c, err)
	}
	tasks := rapid.OneOf(rapid.IntRange(0, MaxProbes), testutil.NearMaxCount()).Draw(t, "tasks")
	ratio := testutil.Magnitude().Draw(t, "ratio")
	n, err := ProbeCount(tasks, 0, ratio)
	prod := ratio * float64(tasks)
	switch {
	case tasks > MaxProbes:
		inputErr(t, err, "probe.ProbeCount", -1, "tasks")
	case math.Ceil(prod) > MaxProbes:
		inputErr(t, err, "probe.ProbeCount", -1, "ratio·tasks")
	case err != nil || float64(n) != math.Ceil(prod) || (tasks > 0 && ratio > 0 && n < 1):
		t.Fatalf("ProbeCount(%d, 0, %v) = %d, %v", tasks, ratio, n, err)
	}
	nodes := rapid.OneOf(rapid.IntRange(0, MaxProbes), testutil.NearMaxCount()).Draw(t, "nodes")
	frac := math.Min(testutil.Magnitude().Draw(t, "fraction"), 1)
	short, err := ShortPartition(nodes, frac)
	if nodes > MaxProbes {
		inputErr(t, err, "probe.ShortPartition", -1, "nodes")
		return
	}
	// Largest remainder of two shares: ⌊s⌋ or ⌈s⌉, s = fraction·nodes.
	s := frac * float64(nodes)
	if err != nil || (float64(short) != math.Floor(s) && float64(short) != math.Ceil(s)) || short < 0 || short > nodes {
		t.Fatalf("ShortPartition(%d, %v) = %d, %v", nodes, frac, short, err)
	}
	for _, bad := range []int{MaxProbes + 1, testutil.NearMaxCount().Draw(t, "badCount")} {
		if _, err := PlaceProbes(nil, 0, 1, bad, rngFrom(1), nil); err == nil {
			t.Fatalf("PlaceProbes accepted %d probes", bad)
		}
		if _, err := NewStateVector(bad, 0); err == nil {
			t.Fatalf("NewStateVector accepted %d nodes", bad)
		}
		if _, err := PlaceLWL(nil, []float64{0}, bad, 0, nil); err == nil {
			t.Fatalf("PlaceLWL accepted %d tasks", bad)
		}
	}
}

func TestMagnitudeScalars(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeScalars) }

// testMagnitudeSimulate: workloads whose times come from anywhere in
// [0, MaxTime] (subnormals, exact ties) either simulate with every
// conservation law and no job completing before its shortest task could
// run, or are rejected with an InputError naming a time lost to rounding.
func testMagnitudeSimulate(t *rapid.T) {
	inRange := func(x float64) bool { return x <= MaxTime }
	n := rapid.IntRange(1, 6).Draw(t, "jobs")
	jobs := make([]Job, n)
	for j := range jobs {
		d := testutil.Magnitudes(1, 4).Draw(t, "durations")
		for k := range d {
			d[k] = math.Min(d[k], MaxTime)
		}
		jobs[j] = Job{Submit: testutil.Magnitude().Filter(inRange).Draw(t, "submit"), Durations: d,
			EstTask: testutil.Magnitude().Filter(inRange).Draw(t, "estTask")}
	}
	cfg := drawConfig(t, testutil.Magnitude().Draw(t, "threshold"))
	cfg.NetworkDelay = rapid.OneOf(rapid.Just(0.0), testutil.Magnitude().Filter(inRange)).Draw(t, "delay")
	cfg.Nodes = rapid.OneOf(rapid.IntRange(2, 12), rapid.Just(MaxProbes)).Draw(t, "nodes")
	cfg.NoSSS = true // checkSnapshots is not run here
	r, err := Simulate(jobs, cfg, drawRNG(t, "seed"))
	if err != nil {
		ie, ok := err.(*specsched.InputError)
		if !ok || !slices.Contains([]string{"Durations", "NetworkDelay", "EstTask", "ShortFraction"}, ie.Field) {
			t.Fatalf("error %v", err)
		}
		return
	}
	checkConservation(t, jobs, r)
	for j, c := range r.Completion {
		if lo := slices.Min(jobs[j].Durations); !(c >= lo/2) || math.IsInf(c, 0) {
			t.Fatalf("job %d completed in %v; its shortest task takes %v", j, c, lo)
		}
	}
	if u := r.Stats.Utilisation; math.IsNaN(u) || u < 0 || math.IsInf(u, 0) {
		t.Fatalf("utilisation %v", u)
	}
}

func TestMagnitudeSimulate(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeSimulate) }

// testFillCmp: fillCmp against exact rational arithmetic (math/big) on
// values from anywhere in float64's range: a nonzero answer is the exact
// order, and a tie is exact or between ratios within 2⁻⁵² of each other
// (the correctly rounded quotients are equal). The float quotient it
// replaced overflowed (1e300/1e-300 = +Inf, tied with a zero target) and
// underflowed (1e-300/1e300 = 0, tied with a job holding no slot).
func testFillCmp(t *rapid.T) {
	v := testutil.Magnitudes(4, 4).Draw(t, "r1 t1 r2 t2")
	r1, t1, r2, t2 := v[0], v[1], v[2], v[3]
	got := fillCmp(r1, t1, r2, t2)
	if back := fillCmp(r2, t2, r1, t1); back != -got {
		t.Fatalf("not antisymmetric: %d, %d", got, back)
	}
	var want int
	switch {
	case t1 == 0 || t2 == 0:
		want = boolCmp(t1 == 0, t2 == 0)
	default:
		q1 := new(big.Rat).Quo(new(big.Rat).SetFloat64(r1), new(big.Rat).SetFloat64(t1))
		q2 := new(big.Rat).Quo(new(big.Rat).SetFloat64(r2), new(big.Rat).SetFloat64(t2))
		want = q1.Cmp(q2)
		if got == 0 && want != 0 {
			// A rounding tie: |q1 − q2| ≤ 2⁻⁵² · max(q1, q2).
			diff := new(big.Rat).Sub(q1, q2)
			diff.Abs(diff)
			bound := new(big.Rat).Mul(new(big.Rat).SetFloat64(0x1p-52), q1)
			if q2.Cmp(q1) > 0 {
				bound.Mul(new(big.Rat).SetFloat64(0x1p-52), q2)
			}
			if diff.Cmp(bound) <= 0 {
				return
			}
		}
	}
	if got != want {
		t.Fatalf("fillCmp(%v, %v, %v, %v) = %d; exact %d", r1, t1, r2, t2, got, want)
	}
}

func TestFillCmp(t *testing.T) { t.Parallel(); rapid.Check(t, testFillCmp) }

// TestFillCmpExtremes: the ratios the float quotient got wrong.
func TestFillCmpExtremes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r1, t1, r2, t2 float64
		want           int
	}{
		{1e300, 1e-300, 1, 0, -1},         // huge but finite ratio below a zero target (+Inf)
		{1e300, 1e-300, 1e300, 1e-299, 1}, // both overflow as floats: 1e600 > 1e599
		{1e-300, 1e300, 0, 1, 1},          // underflows as a float, still above 0
		{5e-324, 1e300, 1e-323, 1e300, -1},
		{3, 2, 6, 4, 0},
		// Both overflow, in the same binade: 1.25·2^1100 (mantissa ratio
		// 0.5/0.8 < 1, renormalised) below 1.5·2^1100 (0.75/0.5 ≥ 1).
		{0x1p1000, 0x1.999999999999ap-101, 0x1.8p999, 0x1p-101, -1},
	} {
		if got := fillCmp(c.r1, c.t1, c.r2, c.t2); got != c.want {
			t.Errorf("fillCmp(%v, %v, %v, %v) = %d; want %d", c.r1, c.t1, c.r2, c.t2, got, c.want)
		}
	}
}

// testMagnitudeHopperPick: HopperPick on views from anywhere in float64's
// range returns a position in queued or an InputError, and never passes
// over a job below its target for one at or above it (rule 3).
func testMagnitudeHopperPick(t *rapid.T) {
	n := rapid.IntRange(1, 6).Draw(t, "jobs")
	remaining := testutil.Magnitudes(n, n).Draw(t, "remaining")
	running := testutil.Magnitudes(n, n).Draw(t, "running")
	slots := testutil.Magnitude().Draw(t, "slots")
	queued := rapid.SliceOfNDistinct(rapid.IntRange(0, n-1), 1, n, rapid.ID[int]).Draw(t, "queued")
	var ws Workspace
	k, err := HopperPick(queued, remaining, running, slots, 1.5, 0.1, &ws)
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %v", err)
		}
		return
	}
	if k < 0 || k >= len(queued) {
		t.Fatalf("position %d of %d", k, len(queued))
	}
	targets := ws.fairTargets(remaining, slots, 1.5, 0.1)
	below := func(i int) bool { return running[i] < targets[i]-TargetTolerance*max(1, targets[i]) }
	for _, i := range queued {
		if below(i) && !below(queued[k]) {
			t.Fatalf("job %d is below its target but job %d, at it, was chosen", i, queued[k])
		}
	}
}

func TestMagnitudeHopperPick(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeHopperPick) }
