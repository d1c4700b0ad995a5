package sim

import (
	"errors"
	"strings"

	"github.com/specsched/specsched"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/testutil"
)

// TestTinyWorkAtLateArrival is issue 17's reproducer: a job arriving at 1e12
// with tasks of 1e-12 completed in time 0, its work lost in the last bits of
// the clock (46 of 3 000 random runs). Such a job is now rejected, naming
// the job and the field (MinTimeRatio); at the bound, 2^-40 × the arrival,
// the completion time is the duration to 2^-12, the clock's resolution
// there (ulp(1e12) = 2^-13).
func TestTinyWorkAtLateArrival(t *testing.T) {
	t.Parallel()
	for _, p := range Policies() {
		cfg := DefaultConfig(p, 2)
		jobs := []Job{{Arrival: 1e12, Beta: 1.5, Phases: []Phase{{Tasks: 1, Durations: []float64{1e-12}}}}}
		_, err := Simulate(jobs, cfg)
		if ie := asInputError(err); ie == nil || ie.Index != 0 || ie.Field != "Phases[0].Durations" {
			t.Fatalf("%v: arrival 1e12, duration 1e-12: error %v, want an InputError naming job 0's durations", p, err)
		}
		d := 1e12 * MinTimeRatio
		jobs[0].Phases[0].Durations[0] = d
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatalf("%v: duration at the bound: %v", p, err)
		}
		if c := r.Jobs[0].Completion; !(math.Abs(c-d) <= 0x1p-12*d) {
			t.Errorf("%v: completion %g, want %g to 2^-12", p, c, d)
		}
	}
}

// TestCopyNeverEmpty: a copy whose duration the clock cannot resolve (as
// MachineService may draw) ends one ulp after it starts, never at its start.
func TestCopyNeverEmpty(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Arrival: 1e12, Beta: 1.5, Phases: []Phase{{Tasks: 1, Durations: []float64{1e-12}}}}}
	e := newEngine("test", jobs, DefaultConfig(SRPT, 1), 1) // unvalidated: the duration is below the bound
	e.now = 1e12
	e.arrive(0)
	e.launch(0)
	if got, want := e.cs[0].end, math.Nextafter(1e12, 2e12); got != want {
		t.Errorf("copy of 1e-12 started at 1e12 ends at %v, want %v", got, want)
	}
}

// magnitudeJobs draws 1–3 jobs of 1–2 phases whose arrivals and durations
// span float64's range (testutil.Magnitude: subnormals, 1e±300, exact
// powers of two, MaxFloat64) with exact ties: most within the accepted
// ranges, down to the MinTimeRatio bound of their arrival, some anywhere.
func magnitudeJobs(t *rapid.T) []Job {
	n := rapid.IntRange(1, 3).Draw(t, "jobs")
	jobs := make([]Job, n)
	for j := range jobs {
		arrival := testutil.Magnitude().Draw(t, "arrival")
		if rapid.IntRange(0, 3).Draw(t, "arrivalInRange") > 0 {
			arrival = testutil.Magnitude().Filter(func(x float64) bool { return x <= MaxTime }).Draw(t, "arrival")
		}
		var drawn []float64
		duration := func(label string) float64 {
			switch k := rapid.IntRange(0, 7).Draw(t, label+"Kind"); {
			case k == 0:
				drawn = append(drawn, testutil.Magnitude().Draw(t, label))
			case k == 1 && len(drawn) > 0:
				drawn = append(drawn, drawn[rapid.IntRange(0, len(drawn)-1).Draw(t, label+"Tie")])
			default:
				drawn = append(drawn, timeIn(t, math.Min(MaxTime, math.Max(arrival*MinTimeRatio, math.SmallestNonzeroFloat64)), MaxTime, label))
			}
			return drawn[len(drawn)-1]
		}
		phases := make([]Phase, rapid.IntRange(1, 2).Draw(t, "phases"))
		for p := range phases {
			tasks := rapid.IntRange(1, 3).Draw(t, "tasks")
			if rapid.Bool().Draw(t, "pareto") {
				phases[p] = Phase{Tasks: tasks, Scale: duration("scale")}
				continue
			}
			ph := Phase{Tasks: tasks, Durations: make([]float64, tasks), CopyDurations: make([]float64, tasks)}
			for i := range tasks {
				ph.Durations[i] = duration("duration")
				ph.CopyDurations[i] = duration("copyDuration")
			}
			phases[p] = ph
		}
		jobs[j] = Job{Arrival: arrival, Beta: 1.5, Phases: phases}
	}
	return jobs
}

// timeIn draws a value in [lo, hi] (0 < lo ≤ hi), its binary exponent
// uniform, or one of the bounds.
func timeIn(t *rapid.T, lo, hi float64, label string) float64 {
	switch rapid.IntRange(0, 5).Draw(t, label+"Bound") {
	case 0:
		return lo
	case 1:
		return hi
	}
	e := rapid.IntRange(math.Ilogb(lo), math.Ilogb(hi)).Draw(t, label+"Exp2")
	x := math.Ldexp(rapid.Float64Range(1, 2).Draw(t, label+"Mantissa"), e)
	return math.Min(hi, math.Max(lo, x))
}

// acceptable reports, independently of validateJobs, whether Simulate's
// documented bounds accept the times of jobs: arrivals in [0, MaxTime],
// durations in (0, MaxTime] and at least MinTimeRatio × their job's arrival.
func acceptable(jobs []Job) bool {
	for _, job := range jobs {
		if job.Arrival > MaxTime {
			return false
		}
		for _, ph := range job.Phases {
			times := append(append([]float64(nil), ph.Durations...), ph.CopyDurations...)
			if ph.Durations == nil {
				times = append(times, ph.Scale)
			}
			for _, d := range times {
				if d <= 0 || d > MaxTime || d < job.Arrival*0x1p-40 {
					return false
				}
			}
		}
	}
	return true
}

// testConservationMagnitude: on times of any magnitude, Simulate returns an
// InputError exactly when a documented bound is broken; otherwise the run
// passes the model's checks, every job completes in a finite positive time
// no shorter (to 2^-10) than its slowest task's fastest copy, and the
// instance rescaled by an exact power of two (within the bounds) gives the
// same run rescaled.
func testConservationMagnitude(t *rapid.T) {
	jobs := magnitudeJobs(t)
	cfg := anyConfig(t)
	machine := rapid.IntRange(0, 3).Draw(t, "machine") == 0
	if machine {
		cfg.Service = MachineService
		cfg.ServiceCV = rapid.SampledFrom([]float64{0.5, 100}).Draw(t, "cv")
	}
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if ok := acceptable(jobs); !ok || err != nil {
		if ok || asInputError(err) == nil {
			t.Fatalf("acceptable %v, error %v", ok, err)
		}
		return
	}
	checkRun(t, jobs, cfg, r, false)
	for j, job := range jobs {
		least := 0.0 // a copy takes at least Scale, or its given duration
		for _, ph := range job.Phases {
			least = math.Max(least, ph.Scale)
			for i := range ph.Durations {
				least = math.Max(least, math.Min(ph.Durations[i], ph.CopyDurations[i]))
			}
		}
		if machine {
			least = 0 // machines of any speed
		}
		c := r.Jobs[j].Completion
		if !(c > 0 && c <= math.MaxFloat64) || c < least*(1-0x1p-10) {
			t.Fatalf("job %d (arrival %g): completion %g, want finite, > 0 and ≥ %g", j, job.Arrival, c, least)
		}
	}
	k := rapid.IntRange(-30, 30).Draw(t, "scaleExp")
	scaled := make([]Job, len(jobs))
	for j, job := range jobs {
		scaled[j] = job
		scaled[j].Arrival = math.Ldexp(job.Arrival, k)
		scaled[j].Phases = make([]Phase, len(job.Phases))
		for p, ph := range job.Phases {
			scaled[j].Phases[p] = ph
			scaled[j].Phases[p].Scale = math.Ldexp(ph.Scale, k)
			scaled[j].Phases[p].Durations = ldexpAll(ph.Durations, k)
			scaled[j].Phases[p].CopyDurations = ldexpAll(ph.CopyDurations, k)
		}
	}
	if !acceptable(scaled) || !exactlyScaled(jobs, scaled, k) {
		return
	}
	got, err := Simulate(scaled, cfg)
	if err != nil {
		t.Fatalf("rescaled by 2^%d: %v", k, err)
	}
	want := rescaleResult(r, k)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("rescaled by 2^%d, the run differs (-want +got):\n%s", k, diff)
	}
}

func TestConservationMagnitude(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testConservationMagnitude)
}

func ldexpAll(xs []float64, k int) []float64 {
	if xs == nil {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Ldexp(x, k)
	}
	return out
}

// exactlyScaled reports whether every time of scaled is exactly 2^k times
// the one of jobs (no subnormal lost a bit) and the runs' sums stay far
// from underflow (all times ≥ 2^-900).
func exactlyScaled(jobs, scaled []Job, k int) bool {
	same := func(a, b float64) bool {
		return math.Ldexp(b, -k) == a && (a == 0 || math.Abs(a) >= 0x1p-900 && math.Abs(b) >= 0x1p-900)
	}
	for j := range jobs {
		if !same(jobs[j].Arrival, scaled[j].Arrival) {
			return false
		}
		for p := range jobs[j].Phases {
			if !same(jobs[j].Phases[p].Scale, scaled[j].Phases[p].Scale) {
				return false
			}
			for i := range jobs[j].Phases[p].Durations {
				if !same(jobs[j].Phases[p].Durations[i], scaled[j].Phases[p].Durations[i]) ||
					!same(jobs[j].Phases[p].CopyDurations[i], scaled[j].Phases[p].CopyDurations[i]) {
					return false
				}
			}
		}
	}
	return true
}

// rescaleResult returns r with every time multiplied by 2^k.
func rescaleResult(r *Result, k int) *Result {
	out := *r
	out.Jobs = make([]JobResult, len(r.Jobs))
	for j, jr := range r.Jobs {
		jr.Arrival, jr.Finish, jr.Completion = math.Ldexp(jr.Arrival, k), math.Ldexp(jr.Finish, k), math.Ldexp(jr.Completion, k)
		out.Jobs[j] = jr
	}
	out.Copies = make([]CopyRecord, len(r.Copies))
	for i, c := range r.Copies {
		c.Start, c.End = math.Ldexp(c.Start, k), math.Ldexp(c.End, k)
		out.Copies[i] = c
	}
	st := &out.Stats
	st.BusySlotTime, st.WastedSlotTime = math.Ldexp(st.BusySlotTime, k), math.Ldexp(st.WastedSlotTime, k)
	st.Start, st.End = math.Ldexp(st.Start, k), math.Ldexp(st.End, k)
	return &out
}

// asInputError returns err as a *specsched.InputError, or nil.
func asInputError(err error) *specsched.InputError {
	var ie *specsched.InputError
	if errors.As(err, &ie) {
		return ie
	}
	return nil
}

// TestClusterBetaHuge: the task-weighted mean of the jobs' β, which the
// homogeneous Hopper policies assume, overflowed to +Inf for tail indices
// near MaxFloat64 (accepted: β is any finite number > 1), and Hopper,
// HopperEps and HopperDAG failed with "beta = +Inf", a value no input has.
// The mean of equal β is that β; of MaxFloat64 and 1.5 over one task each,
// MaxFloat64/2 + 0.75.
func TestClusterBetaHuge(t *testing.T) {
	t.Parallel()
	huge := func(betas ...float64) []Job {
		var jobs []Job
		for _, b := range betas {
			jobs = append(jobs, Job{Beta: b, Phases: []Phase{{Tasks: 1, Scale: 1}}})
		}
		return jobs
	}
	var cfg Config
	if got := clusterBeta(&cfg, huge(math.MaxFloat64, math.MaxFloat64)); got != math.MaxFloat64 {
		t.Errorf("mean of two MaxFloat64 = %g", got)
	}
	if got, want := clusterBeta(&cfg, huge(math.MaxFloat64, 1.5)), math.MaxFloat64/2; math.Abs(got-want) > 1e-15*want {
		t.Errorf("mean of MaxFloat64 and 1.5 = %g, want %g", got, want)
	}
	// Σ n·β overflows: the mean (2·MaxFloat64 + 1.5)/3.
	if got, want := clusterBeta(&cfg, huge(math.MaxFloat64, math.MaxFloat64, 1.5)), math.MaxFloat64/3*2; math.Abs(got-want) > 1e-15*want {
		t.Errorf("mean of MaxFloat64, MaxFloat64 and 1.5 = %g, want %g", got, want)
	}
	if got := clusterBeta(&cfg, huge(1.5, 2.5)); got != 2 {
		t.Errorf("mean of 1.5 and 2.5 = %g, want 2", got)
	}
	for _, p := range []Preset{Hopper, HopperEps, HopperDAG} {
		if _, err := Simulate(huge(math.MaxFloat64, math.MaxFloat64, 1e300), DefaultConfig(p, 4)); err != nil {
			t.Errorf("%v with β near MaxFloat64: %v", p, err)
		}
	}
}

// TestTimeRatioBound: a duration or Scale exactly at MinTimeRatio × the
// arrival is accepted, by Simulate and by ParseTrace; the next float below
// is rejected (validate_test.go and trace_test.go hold those cases).
func TestTimeRatioBound(t *testing.T) {
	t.Parallel()
	const arrival, bound = 0x1p39, 0.5 // 2^39 · 2^-40
	jobs := []Job{
		{Arrival: arrival, Beta: 1.5, Phases: []Phase{{Tasks: 1, Scale: bound}}},
		{Arrival: arrival, Beta: 1.5, Phases: []Phase{{Tasks: 1, Durations: []float64{bound}, CopyDurations: []float64{bound}}}},
	}
	if _, err := Simulate(jobs, DefaultConfig(Hopper, 2)); err != nil {
		t.Errorf("durations at the bound: %v", err)
	}
	trace := "job,arrival,phase,duration,beta\na,549755813888,0,0.5,1.5\n"
	if _, err := ParseTrace(strings.NewReader(trace)); err != nil {
		t.Errorf("trace duration at the bound: %v", err)
	}
	below := strings.Replace(trace, "0.5,1.5", "0.49999999999999994,1.5", 1)
	if _, err := ParseTrace(strings.NewReader(below)); err == nil {
		t.Errorf("trace duration just below the bound accepted")
	}
}

// TestClusterBetaMean: below overflow, the cluster β is the task-weighted
// mean Σ n_j·β_j / Σ n_j, formed as written (bit for bit: the runs of
// earlier versions are unchanged).
func TestClusterBetaMean(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "jobs")
		jobs := make([]Job, n)
		var sum, weight float64
		for j := range jobs {
			tasks := rapid.IntRange(1, 50).Draw(t, "tasks")
			beta := rapid.Float64Range(1.01, 3).Draw(t, "beta")
			jobs[j] = Job{Beta: beta, Phases: []Phase{{Tasks: tasks, Scale: 1}}}
			sum += float64(tasks) * beta
			weight += float64(tasks)
		}
		var cfg Config
		if got, want := clusterBeta(&cfg, jobs), sum/weight; got != want {
			t.Fatalf("cluster β %v, want %v", got, want)
		}
		cfg.Beta = 1.7
		if got := clusterBeta(&cfg, jobs); got != 1.7 {
			t.Fatalf("Config.Beta 1.7 gives %v", got)
		}
	})
}

// TestObservedSubnormalJob is the run that hung (rapid seed
// 196494124906989346 of TestConservationMagnitude): a job of copies as
// short as 5e-324 under Observed and Mantri's rule. Its t_new, about
// 3.8e-322, made the heartbeat subnormal: the estimates of a 0.28-long copy
// were rounded to steps of 5e-324, stayed at the rule's level over about
// 10^10 reports, and nextRise visited them one by one. With the interval
// raised to minBeat, the run ends, passes the model's checks, and its work
// (the engine's steps) is small.
func TestObservedSubnormalJob(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Beta: 1.5, Phases: []Phase{
		{Tasks: 3, Durations: []float64{1024, 0.28301498515435236, 2.070105401319524e-171}, CopyDurations: []float64{1e-323, 1.107e-321, 5e-324}},
		{Tasks: 1, Durations: []float64{0.28301498515435236}, CopyDurations: []float64{5e-324}},
	}}}
	cfg := Config{Slots: 3, Policy: SRPTBestEffort, Eps: 0.25, SREWCBeta: 0.3, Lambda: 1, Budget: 2, Dampening: 1,
		Speculation: Speculation{Mantri: true, Threshold: 0.25, Estimator: Observed, Detect: 0.25, Onset: Onset{Alpha: 10, Beta: 0.25}},
		Seed:        30, Record: true}
	e, err := simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, jobs, cfg, e.res, false)
	if e.steps > 1000 {
		t.Errorf("%d steps for a job of 4 tasks", e.steps)
	}
}

// TestReportCap: the runs that hung before a copy's reports were capped at
// maxReports (rapid seeds 8977034026890108713, 7622971129925165155 and
// 2759675049866454246 of TestConservationMagnitude, found by a seed hunt):
// copies of up to 10¹² reporting every 0.04 to 2 make 10¹¹ to 10¹³
// reports. In the first two, nextRise visited the ~10⁹ reports whose
// estimates lie within windows' rounding margins of a level, one by one
// (scores within 10⁻¹² of 1, where 1 − p is known only to a few digits);
// in the third, ~2.5·10⁹ reports had estimates in Mantri's band, each a
// rise and an event. Each run now ends, passes the model's checks, and its
// work — the engine's steps, which count the reports nextRise visits — is
// within a few times maxReports per copy.
func TestReportCap(t *testing.T) {
	t.Parallel()
	pareto := func(tasks int, scale float64) Phase { return Phase{Tasks: tasks, Scale: scale} }
	known := func(d, c []float64) Phase { return Phase{Tasks: len(d), Durations: d, CopyDurations: c} }
	cases := []struct {
		jobs []Job
		cfg  Config
	}{{
		jobs: []Job{
			{Arrival: 0.01883763313293457, Beta: 1.5, Phases: []Phase{pareto(1, 1.7132727528346158e-14), pareto(1, 5.49755813888e+11)}},
			{Arrival: 1.1945774316841202e-299, Beta: 1.5, Phases: []Phase{
				known([]float64{1e+12, 2.802596928649634e-45, 1.086461844974e-311}, []float64{1.086461844974e-311, 1.086461844974e-311, 2}),
				known([]float64{9.546676135936265e-153, 1.086461844974e-311}, []float64{1.504632769052528e-36, 6.103515625e-05})}},
			{Arrival: 4.4e-323, Beta: 1.5, Phases: []Phase{pareto(1, 1e+12)}},
		},
		cfg: Config{Slots: 2, Policy: SRPTBestEffort, Eps: 0.5, SREWCBeta: 0.7, Budget: 1, Dampening: 0.75,
			Speculation: Speculation{Estimator: Observed, EstimateError: 1, Detect: 0.5, Onset: Onset{Alpha: 10, Beta: 0.25}},
			Seed:        14848880180759, Record: true},
	}, {
		jobs: []Job{
			{Arrival: 4.93964e-318, Beta: 1.5, Phases: []Phase{pareto(2, 3.4359738368e+10),
				known([]float64{1, 7.346839692639297e-40, 4.4263237302544523e-221}, []float64{5e-324, 0.4384918212890625, 1e+12})}},
			{Beta: 1.5, Phases: []Phase{pareto(1, 6.7e-321), pareto(1, 5e-324)}},
			{Arrival: 4.76837158203125e-07, Beta: 1.5, Phases: []Phase{known([]float64{1e+12}, []float64{0.0078125})}},
		},
		cfg: Config{Slots: 8, Policy: SRPTBestEffort, Eps: 0.75, SREWCBeta: 0.3, Lambda: 1, Budget: 4,
			Speculation: Speculation{Mantri: true, Threshold: 0.5, Estimator: Observed, EstimateError: 1, Detect: 0.5, Onset: Onset{Alpha: 10, Beta: 0.25}},
			Seed:        18446744073709551615, Record: true},
	}, {
		jobs: []Job{
			{Arrival: 2, Beta: 1.5, Phases: []Phase{pareto(2, 1.8189894035458565e-12), known([]float64{1.8189894035458565e-12}, []float64{344.95749601931215})}},
			{Arrival: 1.228e-320, Beta: 1.5, Phases: []Phase{pareto(3, 7.596454196607839e-65)}},
			{Arrival: 2, Beta: 1.5, Phases: []Phase{pareto(1, 2), known([]float64{1.8189894035458565e-12, 1e+12}, []float64{1.8189894035458565e-12, 0.0002543795760538369})}},
		},
		cfg: Config{Slots: 8, Policy: SRPTBestEffort, Beta: 1.3, Eps: 0.5, SREWCBeta: 0.7, Lambda: 1, Budget: 7,
			Speculation: Speculation{Mantri: true, Threshold: 0.75, Estimator: Observed, EstimateError: 1, Detect: 0.25, Heartbeat: 1, Onset: Onset{Alpha: 10, Beta: 0.25}},
			Service:     MachineService, ServiceCV: 0.5, Seed: 165640, Record: true},
	}}
	for i, c := range cases {
		e, err := simulate(c.jobs, c.cfg)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		checkRun(t, c.jobs, c.cfg, e.res, false)
		if copies := len(e.res.Copies); e.steps > 8*maxReports*copies {
			t.Errorf("case %d: %d steps for %d copies, more than 8·maxReports each", i, e.steps, copies)
		}
		t.Logf("case %d: %d steps, %d copies, %d events", i, e.steps, len(e.res.Copies), e.res.Stats.Events)
	}
}
