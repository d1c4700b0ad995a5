package competitive

import (
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/testutil"

	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// relTol: the workloads are a handful of products and sums; summing task by
// task instead rounds differently by a few ulps per task.
const relTol = 1e-12

func closeTo(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// taskByTask sums E + λσ over the tasks one by one: counting every task of
// a phase (total) or only its unfinished ones (remaining).
func taskByTask(job Job, lambda float64, remaining bool) float64 {
	sum := 0.0
	for _, p := range []Phase{job.Map, job.Reduce} {
		n := p.Tasks
		if remaining {
			n = p.Unscheduled + len(p.Running)
		}
		for i := 0; i < n; i++ {
			sum += p.Mean + lambda*p.SD
		}
	}
	return sum
}

func testEffectiveWorkloads(t *rapid.T) {
	job := genJob(t, "job", 8, 3)
	lambda := rapid.SampledFrom([]float64{0, 0.5, 1, 5, 6}).Draw(t, "lambda")
	before := cloneJobs([]Job{job})
	total, err := EffectiveWorkload(job, lambda)
	if err != nil {
		t.Fatalf("EffectiveWorkload: %v", err)
	}
	rem, err := RemainingEffectiveWorkload(job, lambda)
	if err != nil {
		t.Fatalf("RemainingEffectiveWorkload: %v", err)
	}
	mustNotChange(t, before, []Job{job})
	if want := taskByTask(job, lambda, false); !closeTo(total, want, relTol) {
		t.Fatalf("Υ_j = %v, want %v (eq. 19 task by task)", total, want)
	}
	if want := taskByTask(job, lambda, true); !closeTo(rem, want, relTol) {
		t.Fatalf("Υ_j(t) = %v, want %v (eq. 25 task by task)", rem, want)
	}
	if rem > total {
		t.Fatalf("Υ_j(t) = %v > Υ_j = %v", rem, total)
	}
	if active := job.Map.unfinished()+job.Reduce.unfinished() > 0; active != (rem > 0) {
		t.Fatalf("active = %v but Υ_j(t) = %v", active, rem)
	}
	if lambda == 0 {
		want := float64(job.Map.Tasks)*job.Map.Mean + float64(job.Reduce.Tasks)*job.Reduce.Mean
		if total != want {
			t.Fatalf("λ = 0: Υ_j = %v, want the expected work %v", total, want)
		}
	}
}

func TestEffectiveWorkloads(t *testing.T) { t.Parallel(); rapid.Check(t, testEffectiveWorkloads) }

func TestEffectiveWorkloadWorked(t *testing.T) {
	t.Parallel()
	// 10 maps of mean 3, SD 1; 2 reduces of mean 5, SD 2; λ = 1:
	// Υ = 10·(3+1) + 2·(5+2) = 54. After 4 maps finish and 3 run:
	// Υ(t) = 6·4 + 2·7 = 38.
	job := Job{
		Map:    Phase{Tasks: 10, Mean: 3, SD: 1, Unscheduled: 3, Running: []int{1, 2, 1}},
		Reduce: Phase{Tasks: 2, Mean: 5, SD: 2, Unscheduled: 2},
	}
	if got, err := EffectiveWorkload(job, 1); err != nil || got != 54 {
		t.Fatalf("EffectiveWorkload = %v, %v; want 54", got, err)
	}
	if got, err := RemainingEffectiveWorkload(job, 1); err != nil || got != 38 {
		t.Fatalf("RemainingEffectiveWorkload = %v, %v; want 38", got, err)
	}
}

// testWorkloadNoPanic feeds possibly invalid jobs and λ: no panic, and
// either an InputError or a finite, non-negative workload.
func testWorkloadNoPanic(t *rapid.T) {
	jobs := []Job{genJob(t, "job", 5, 2)}
	corrupt(t, jobs)
	lambda := anyFloat(t, "lambda", 0, 1)
	for _, f := range []struct {
		name string
		fn   func(Job, float64) (float64, error)
	}{
		{"competitive.EffectiveWorkload", EffectiveWorkload},
		{"competitive.RemainingEffectiveWorkload", RemainingEffectiveWorkload},
	} {
		y, err := f.fn(jobs[0], lambda)
		if err != nil {
			if !isInputError(err, f.name) {
				t.Fatalf("%s: error %v is not an InputError of the function", f.name, err)
			}
			continue
		}
		if !(y >= 0) || math.IsInf(y, 0) {
			t.Fatalf("%s = %v, want finite and ≥ 0", f.name, y)
		}
	}
}

func TestWorkloadNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testWorkloadNoPanic) }

func FuzzEffectiveWorkload(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testWorkloadNoPanic)) }

func FuzzRemainingEffectiveWorkload(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testWorkloadNoPanic)) }

func TestWorkloadErrors(t *testing.T) {
	t.Parallel()
	ok := Job{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}
	cases := []struct {
		name   string
		job    Job
		lambda float64
		field  string
	}{
		{"NaN lambda", ok, math.NaN(), "lambda"},
		{"negative lambda", ok, -1, "lambda"},
		{"Inf lambda", ok, math.Inf(1), "lambda"},
		{"negative tasks", Job{Map: Phase{Tasks: -1, Mean: 1}}, 0, "Map.Tasks"},
		{"zero mean", Job{Map: Phase{Tasks: 1, Unscheduled: 1}}, 0, "Map.Mean"},
		{"NaN SD", Job{Reduce: Phase{Tasks: 1, Mean: 1, SD: math.NaN(), Unscheduled: 1}}, 0, "Reduce.SD"},
		{"too many unscheduled", Job{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 2}}, 0, "Map.Unscheduled"},
		{"too many running", Job{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1, Running: []int{1}}}, 0, "Map.Running"},
		{"reduce before maps", Job{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}, Reduce: Phase{Tasks: 1, Mean: 1, Running: []int{1}}}, 0, "Reduce.Unscheduled"},
		{"overflow", Job{Map: Phase{Tasks: 1 << 50, Mean: math.MaxFloat64, Unscheduled: 1}}, 0, "effective workload"},
	}
	for _, c := range cases {
		_, err := EffectiveWorkload(c.job, c.lambda)
		if !isInputError(err, "competitive.EffectiveWorkload") || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: err = %v, want an InputError naming %q", c.name, err, c.field)
		}
	}
}

// testScanMirrorsCheck: the fused validation of Shares and Machines
// accepts exactly the snapshots checkJob accepts.
func testScanMirrorsCheck(t *rapid.T) {
	jobs := genJobs(t, 1, 5, 5, 2)
	corrupt(t, jobs)
	lambda := rapid.SampledFrom([]float64{0, 1, 1e300}).Draw(t, "lambda")
	load := make([]float64, len(jobs))
	_, _, err := scanJobs("f", load, jobs, lambda, check.Span{})
	want := checkJobs("f", jobs, lambda, false)
	if (err == nil) != (want == nil) || (err != nil && err.Error() != want.Error()) {
		t.Fatalf("scanJobs error %v, checkJobs error %v", err, want)
	}
}

func TestScanMirrorsCheck(t *testing.T) { t.Parallel(); rapid.Check(t, testScanMirrorsCheck) }

// testFastCheck: checkJobs, which asks checkJob only about the jobs its
// fast check (Job.valid) fails, returns what checkJob returns for the
// first job it rejects, shallow and deep.
func testFastCheck(t *rapid.T) {
	jobs := genJobs(t, 1, 5, 5, 2)
	corrupt(t, jobs)
	lambda := rapid.SampledFrom([]float64{0, 1, 1e300}).Draw(t, "lambda")
	for _, deep := range []bool{false, true} {
		var want error
		for j := range jobs {
			if want = checkJob("f", j, &jobs[j], lambda, deep); want != nil {
				break
			}
		}
		err := checkJobs("f", jobs, lambda, deep)
		if (err == nil) != (want == nil) || (err != nil && err.Error() != want.Error()) {
			t.Fatalf("deep %v: checkJobs error %v, checkJob error %v", deep, err, want)
		}
	}
}

func TestFastCheck(t *testing.T) { t.Parallel(); rapid.Check(t, testFastCheck) }

// TestValidGrid checks the scan's fast phase test on every combination of
// boundary values: it accepts exactly what checkPhase accepts, except a
// mean or SD of −0, which it leaves to checkPhase (the scan then asks it).
func TestValidGrid(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	floats := []float64{-1, negZero, 0, 0.5, math.MaxFloat64, math.Inf(1), math.NaN()}
	for _, tasks := range []int{-1, 0, 1, 3, maxCount, maxCount + 1, math.MinInt} {
		for _, mean := range floats {
			for _, sd := range floats {
				for _, unscheduled := range []int{math.MinInt, -1, 0, 1, 3, 4, maxCount} {
					for _, running := range []int{0, 1, 3} {
						p := Phase{Tasks: tasks, Mean: mean, SD: sd, Unscheduled: unscheduled, Running: make([]int, running)}
						for i := range p.Running {
							p.Running[i] = 1
						}
						exact := checkPhase("f", 0, MapStage, &p, false) == nil
						negative := math.Signbit(mean) || math.Signbit(sd)
						if want := exact && !negative; p.valid() != want {
							t.Fatalf("%+v: valid() = %v, checkPhase accepts: %v", p, p.valid(), exact)
						}
					}
				}
			}
		}
	}
}

// testScanPasses: scanJobs' two passes agree. scanFast, whenever it accepts
// a snapshot, gives scanExact's loads, active count and range bit for bit;
// and it declines every snapshot that scanExact rejects, that has a tiny
// E + λσ (where scanExact computes Υ_j(t) in the scaled form) or a
// Running overlapping out — so that scanJobs, which falls back to
// scanExact, is scanExact; and it accepts every other valid snapshot (its
// declining more would only cost speed, which this pins too).
func testScanPasses(t *rapid.T) {
	jobs, lambda := scanCase(t)
	// out: nothing, or the memory of one job's Running (a dst aliasing it).
	out := check.Span{}
	if k := rapid.IntRange(-1, 2*len(jobs)-1).Draw(t, "alias"); k >= 0 {
		if r := jobs[k/2].phase(Stage(k % 2)).Running; len(r) > 0 {
			out = check.SpanOf(r, len(r))
		}
	}
	exact := make([]float64, len(jobs))
	active, r, err := scanExact("f", exact, jobs, lambda, out)
	tiny := false
	for j := range jobs {
		tiny = tiny || jobs[j].Map.tinyHere(lambda) || jobs[j].Reduce.tinyHere(lambda)
	}
	fast := make([]float64, len(jobs))
	fActive, fr, ok := scanFast(fast, jobs, lambda, out)
	if ok && (err != nil || tiny) {
		t.Fatalf("scanFast accepts a snapshot scanExact rejects (%v) or with a tiny E + λσ (%v)", err, tiny)
	}
	// And it declines only what it must: a valid snapshot without a −0, a
	// tiny or a huge (≥ 2^960) E + λσ, or a Running overlapping out, is
	// accepted.
	ordinary := err == nil && !tiny
	for j := range jobs {
		for _, p := range []*Phase{&jobs[j].Map, &jobs[j].Reduce} {
			x := p.perTask(lambda)
			ordinary = ordinary && !math.Signbit(p.Mean) && !math.Signbit(p.SD) && // no −0
				(x == 0 || x >= 0x1p-1000 && x < 0x1p960) && !check.Overlaps(out, p.Running)
		}
	}
	if ordinary && !ok {
		t.Fatalf("scanFast declines an ordinary snapshot %+v (λ = %v)", jobs, lambda)
	}
	if ok && (fActive != active || fr != r || !slices.Equal(fast, exact)) {
		t.Fatalf("scanFast: %d %v %v; scanExact: %d %v %v", fActive, fr, fast, active, r, exact)
	}
	got := make([]float64, len(jobs))
	gActive, gr, gErr := scanJobs("f", got, jobs, lambda, out)
	if fmt.Sprint(gErr) != fmt.Sprint(err) || err == nil && (gActive != active || gr != r || !slices.Equal(got, exact)) {
		t.Fatalf("scanJobs: %d %v %v %v; scanExact: %d %v %v %v", gActive, gr, got, gErr, active, r, exact, err)
	}
}

func TestScanPasses(t *testing.T) { t.Parallel(); rapid.Check(t, testScanPasses) }

// scanCase draws a snapshot — ordinary, perhaps corrupted, or of extreme
// magnitudes — and a λ for the validation tests.
func scanCase(t *rapid.T) ([]Job, float64) {
	var jobs []Job
	if rapid.Bool().Draw(t, "extreme") {
		jobs = extremeJobs(t)
	} else {
		jobs = genJobs(t, 1, 5, 5, 2)
		corrupt(t, jobs)
	}
	return jobs, rapid.OneOf(rapid.SampledFrom([]float64{0, 1, 1e300}), testutil.Magnitude()).Draw(t, "lambda")
}

// tinyHere reports whether the phase has tasks and E + λσ is tiny.
func (p *Phase) tinyHere(lambda float64) bool { return p.Tasks > 0 && tiny(p.perTask(lambda)) }

// TestScanFastHuge: scanFast's finiteness test (E + λσ < 2⁹⁶⁰ in both
// phases) declines every job whose Υ_j overflows: 2⁵³ tasks of 2⁹⁷⁵ give
// 2¹⁰²⁸, which scanExact rejects; and 2 tasks of 2⁹⁶⁵, which it declines
// too, get Υ_j(t) = 2⁹⁶⁶ from scanExact. Just below 2⁹⁶⁰, and at 2⁻¹⁰⁰⁰
// (not tiny), it accepts.
func TestScanFastHuge(t *testing.T) {
	t.Parallel()
	over := []Job{{Map: Phase{Tasks: 1 << 53, Mean: 0x1p975, Unscheduled: 1 << 53}}}
	if _, _, ok := scanFast(make([]float64, 1), over, 0, check.Span{}); ok {
		t.Errorf("scanFast accepts Υ_j = 2^1028")
	}
	if _, _, err := scanJobs("f", make([]float64, 1), over, 0, check.Span{}); err == nil {
		t.Errorf("scanJobs accepts Υ_j = 2^1028")
	}
	for _, mean := range []float64{math.Nextafter(0x1p960, 0), 0x1p-1000} {
		if _, _, ok := scanFast(make([]float64, 1), []Job{{Map: Phase{Tasks: 2, Mean: mean, Unscheduled: 2}}}, 0, check.Span{}); !ok {
			t.Errorf("scanFast declines E = %v, in [2^-1000, 2^960)", mean)
		}
	}
	fits := []Job{{Map: Phase{Tasks: 2, Mean: 0x1p965, Unscheduled: 2}}}
	load := make([]float64, 1)
	if _, _, ok := scanFast(load, fits, 0, check.Span{}); ok {
		t.Errorf("scanFast accepts E = 2^965")
	}
	if active, _, err := scanJobs("f", load, fits, 0, check.Span{}); err != nil || active != 1 || load[0] != 0x1p966 {
		t.Errorf("scanJobs: %d active, loads %v, %v; want 1, [2^966]", active, load, err)
	}
}
