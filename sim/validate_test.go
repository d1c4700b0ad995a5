package sim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/testutil"
)

func TestSimulateErrors(t *testing.T) {
	t.Parallel()
	good := func() []Job {
		return []Job{{Arrival: 1, Beta: 1.5, Phases: []Phase{{Tasks: 2, Scale: 1}, {Tasks: 1, Durations: []float64{2}}}}}
	}
	for _, tc := range []struct {
		name  string
		job   func(*Job)
		cfg   func(*Config)
		field string
	}{
		{"slots 0", nil, func(c *Config) { c.Slots = 0 }, "Slots"},
		{"policy", nil, func(c *Config) { c.Policy = numPolicies }, "Policy"},
		{"beta 1", nil, func(c *Config) { c.Beta = 1 }, "Beta"},
		{"beta NaN", nil, func(c *Config) { c.Beta = math.NaN() }, "Beta"},
		{"eps", nil, func(c *Config) { c.Eps = 1.5 }, "Eps"},
		{"srewc beta", nil, func(c *Config) { c.Policy = SREWC; c.SREWCBeta = 0 }, "SREWCBeta"},
		{"lambda", nil, func(c *Config) { c.Lambda = math.Inf(1) }, "Lambda"},
		{"budget", nil, func(c *Config) { c.Policy = SRPTBudgeted; c.Budget = c.Slots }, "Budget"},
		{"dampening", nil, func(c *Config) { c.Dampening = -0.1 }, "Dampening"},
		{"service", nil, func(c *Config) { c.Service = 9 }, "Service"},
		{"service cv", nil, func(c *Config) { c.Service = MachineService; c.ServiceCV = 0 }, "ServiceCV"},
		{"threshold", nil, func(c *Config) { c.Speculation.Threshold = math.NaN() }, "Speculation.Threshold"},
		{"estimator", nil, func(c *Config) { c.Speculation.Estimator = 7 }, "Speculation.Estimator"},
		{"estimate error", nil, func(c *Config) { c.Speculation.EstimateError = -1 }, "Speculation.EstimateError"},
		{"detect", nil, func(c *Config) { c.Speculation.Detect = math.Inf(1) }, "Speculation.Detect"},
		{"heartbeat", nil, func(c *Config) { c.Speculation.Heartbeat = -1 }, "Speculation.Heartbeat"},
		{"heartbeat NaN", nil, func(c *Config) { c.Speculation.Estimator = Observed; c.Speculation.Heartbeat = math.NaN() }, "Speculation.Heartbeat"},
		{"onset alpha", nil, func(c *Config) { c.Speculation.Onset = Onset{Alpha: 0.249, Beta: 1} }, "Speculation.Onset.Alpha"},
		{"onset alpha high", nil, func(c *Config) { c.Speculation.Onset = Onset{Alpha: 10.01, Beta: 1} }, "Speculation.Onset.Alpha"},
		{"onset alpha zero alone", nil, func(c *Config) { c.Speculation.Onset = Onset{Beta: 1} }, "Speculation.Onset.Alpha"},
		{"onset beta NaN", nil, func(c *Config) { c.Speculation.Onset = Onset{Alpha: 1, Beta: math.NaN()} }, "Speculation.Onset.Beta"},
		{"onset beta high", nil, func(c *Config) { c.Speculation.Onset = Onset{Alpha: 10, Beta: 10.5} }, "Speculation.Onset.Beta"},
		{"onset beta low", nil, func(c *Config) { c.Speculation.Onset = Onset{Alpha: 0.25, Beta: 0.2499} }, "Speculation.Onset.Beta"},
		{"arrival", func(j *Job) { j.Arrival = math.NaN() }, nil, "Arrival"},
		{"group", func(j *Job) { j.Group = -1 }, nil, "Group"},
		{"job beta", func(j *Job) { j.Beta = 0.9 }, nil, "Beta"},
		{"new copy", func(j *Job) { j.NewCopy = -2 }, nil, "NewCopy"},
		{"no phases", func(j *Job) { j.Phases = nil }, nil, "len(Phases)"},
		{"no tasks", func(j *Job) { j.Phases[0].Tasks = 0 }, nil, "Phases[0].Tasks"},
		{"start", func(j *Job) { j.Phases[1].Start = 2 }, nil, "Phases[1].Start"},
		{"scale", func(j *Job) { j.Phases[0].Scale = 0 }, nil, "Phases[0].Scale"},
		{"cap", func(j *Job) { j.Phases[0].Cap = 0.5 }, nil, "Phases[0].Cap"},
		{"durations length", func(j *Job) { j.Phases[1].Durations = []float64{1, 2} }, nil, "len(Phases[1].Durations)"},
		{"duration", func(j *Job) { j.Phases[1].Durations = []float64{math.Inf(1)} }, nil, "Phases[1].Durations"},
		{"copy durations alone", func(j *Job) { j.Phases[0].CopyDurations = []float64{1, 1} }, nil, "Phases[0].CopyDurations"},
		{"copy duration", func(j *Job) { j.Phases[1].CopyDurations = []float64{-1} }, nil, "Phases[1].CopyDurations"},
		// Issue 17: durations the clock cannot resolve at the job's arrival.
		{"scale below the arrival's resolution", func(j *Job) { j.Arrival = 1e12; j.Phases[0].Scale = 1e-12 }, nil, "Phases[0].Scale"},
		{"duration below the arrival's resolution", func(j *Job) { j.Arrival = 1e12; j.Phases[1].Durations = []float64{1e-12} }, nil, "Phases[1].Durations"},
		{"copy duration below the arrival's resolution", func(j *Job) {
			j.Arrival = 0x1p39 // the bound is 0.5: just below it
			j.Phases[1].CopyDurations = []float64{math.Nextafter(0.5, 0)}
		}, nil, "Phases[1].CopyDurations"},
	} {
		jobs := good()
		cfg := DefaultConfig(Hopper, 4)
		if tc.job != nil {
			tc.job(&jobs[0])
		}
		if tc.cfg != nil {
			tc.cfg(&cfg)
		}
		r, err := Simulate(jobs, cfg)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || r != nil {
			t.Errorf("%s: Simulate = %v, %v; want an InputError", tc.name, r, err)
			continue
		}
		if ie.Field != tc.field || (tc.job != nil && ie.Index != 0) || !strings.HasPrefix(err.Error(), "sim.Simulate") {
			t.Errorf("%s: error %v names field %q, index %d; want %q", tc.name, err, ie.Field, ie.Index, tc.field)
		}
	}
	r, err := Simulate(nil, DefaultConfig(Fair, 1))
	if err != nil || len(r.Jobs) != 0 || r.Stats.Events != 0 {
		t.Errorf("no jobs: %+v, %v", r, err)
	}
}

// testSimulateNoPanic runs jobs and configurations with injected bad values:
// Simulate returns an InputError, or a run that passes the model checks. It
// never panics and never modifies its input.
func testSimulateNoPanic(t *rapid.T) {
	jobs := paretoJobs(t, 4)
	cfg := anyConfig(t)
	bad := rapid.OneOf(
		rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1e300, math.MaxFloat64}),
		testutil.Magnitude(), // anywhere in float64's range, subnormals included
	)
	if rapid.Bool().Draw(t, "corruptJob") {
		j := rapid.IntRange(0, len(jobs)-1).Draw(t, "job")
		v := bad.Draw(t, "value")
		switch rapid.IntRange(0, 6).Draw(t, "field") {
		case 0:
			jobs[j].Arrival = v
		case 1:
			jobs[j].Beta = v
		case 2:
			jobs[j].NewCopy = v
		case 3:
			jobs[j].Phases[0].Scale = v
		case 4:
			jobs[j].Phases[0].Cap = v
		case 5:
			jobs[j].Phases[0].Start = v
		case 6:
			if v > 64 && v <= MaxTasks {
				v = MaxTasks + 1 // a valid count this large would only make the run long
			}
			jobs[j].Phases[0].Tasks = int(math.Max(-5, math.Min(v, 1<<40)))
		}
	}
	if rapid.Bool().Draw(t, "corruptConfig") {
		v := bad.Draw(t, "cfgValue")
		switch rapid.IntRange(0, 9).Draw(t, "cfgField") {
		case 0:
			cfg.Beta = v
		case 1:
			cfg.Eps = v
		case 2:
			cfg.SREWCBeta = v
		case 3:
			cfg.Lambda = v
		case 4:
			cfg.Speculation.EstimateError = v
		case 5:
			cfg.Speculation.Detect = v
		case 6:
			cfg.Speculation.Threshold = v
		case 7:
			cfg.Slots = int(math.Max(-5, math.Min(v, 1<<40)))
		case 8:
			cfg.Dampening = v
		case 9:
			cfg.Service, cfg.ServiceCV = MachineService, v
		}
	}
	before := cloneJobs(jobs)
	cfg.Record = true
	r, err := Simulate(jobs, cfg)
	if diff := cmp.Diff(before, jobs, cmpopts.EquateNaNs()); diff != "" {
		t.Fatalf("Simulate modified its input:\n%s", diff)
	}
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %v is not an InputError", err)
		}
		return
	}
	checkRun(t, jobs, cfg, r, false)
}

func cloneJobs(jobs []Job) []Job {
	out := make([]Job, len(jobs))
	for j, job := range jobs {
		job.Phases = append([]Phase(nil), job.Phases...)
		for p := range job.Phases {
			job.Phases[p].Durations = append([]float64(nil), job.Phases[p].Durations...)
			job.Phases[p].CopyDurations = append([]float64(nil), job.Phases[p].CopyDurations...)
		}
		out[j] = job
	}
	return out
}

func TestSimulateNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSimulateNoPanic) }
func FuzzSimulate(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testSimulateNoPanic)) }

func TestPolicyNames(t *testing.T) {
	t.Parallel()
	for _, p := range Policies() {
		q, err := ParsePolicy(" " + strings.ToUpper(p.String()) + " ")
		if err != nil || q != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), q, err)
		}
	}
	if _, err := ParsePolicy("lottery"); err == nil {
		t.Error("ParsePolicy accepted an unknown name")
	}
	if s := Preset(200).String(); s != "Preset(200)" {
		t.Errorf("unknown policy prints %q", s)
	}
	for _, e := range []Estimator{Oracle, Progress, Observed} {
		if got, err := ParseEstimator(e.String()); err != nil || got != e {
			t.Errorf("ParseEstimator(%q) = %v, %v", e, got, err)
		}
	}
	if _, err := ParseEstimator("guess"); err == nil {
		t.Error("ParseEstimator accepted an unknown name")
	}
	if Estimator(9).String() != "Estimator(9)" || Service(9).String() != "Service(9)" || MachineService.String() != "machine" {
		t.Error("String of an unknown value")
	}
}

// TestDefaultConfig: the defaults are the papers' settings and validate.
func TestDefaultConfig(t *testing.T) {
	t.Parallel()
	for _, slots := range []int{1, 2, 6, 1000} {
		for _, p := range Policies() {
			cfg := DefaultConfig(p, slots)
			if cfg.Eps != 0.1 || cfg.SREWCBeta != 0.7 || cfg.Lambda != 1 || cfg.Dampening != 0.8 {
				t.Fatalf("%v: defaults %+v", p, cfg)
			}
			if p.budgeted() && slots == 1 {
				continue // no budget fits one slot
			}
			if err := cfg.validate("test"); err != nil {
				t.Errorf("DefaultConfig(%v, %d) is invalid: %v", p, slots, err)
			}
		}
	}
	if b := DefaultConfig(SRPTBudgeted, 1000).Budget; b != 100 {
		t.Errorf("budget of 1000 slots: %d, want 100", b)
	}
	if b := DefaultConfig(SRPTBudgeted, 3).Budget; b != 1 {
		t.Errorf("budget of 3 slots: %d, want 1", b)
	}
}
