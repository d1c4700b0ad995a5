package probe

import (
	"math"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
)

// TestErrorFields: each validation of the placement and decision
// functions returns an InputError naming the function, the index (−1 for
// a scalar) and the field, and the value just inside each bound is
// accepted.
func TestErrorFields(t *testing.T) {
	t.Parallel()
	rng := rngFrom(1)
	nan := math.NaN()
	type call struct {
		name  string
		err   error
		fn    string
		index int
		field string // "" means: accepted
	}
	errOf := func(_ any, err error) error { return err }
	err3 := func(_ []float64, _ int, err error) error { return err }
	hp := func(queued []int, remaining, running []float64, slots, beta, eps float64) error {
		k, err := HopperPick(queued, remaining, running, slots, beta, eps, nil)
		if err != nil && k != -1 {
			t.Errorf("HopperPick returned position %d with error %v; want −1", k, err)
		}
		return err
	}
	one := []float64{1}
	cases := []call{
		{"PlaceProbes first<0", errOf(PlaceProbes(nil, -1, 1, 1, rng, nil)), "probe.PlaceProbes", -1, "first"},
		{"PlaceProbes first>max", errOf(PlaceProbes(nil, MaxProbes+1, 0, 0, rng, nil)), "probe.PlaceProbes", -1, "first"},
		{"PlaceProbes first=max", errOf(PlaceProbes(nil, MaxProbes, 0, 0, rng, nil)), "", 0, ""},
		{"PlaceProbes count<0", errOf(PlaceProbes(nil, 0, -1, 0, rng, nil)), "probe.PlaceProbes", -1, "count"},
		{"PlaceProbes first+count>max", errOf(PlaceProbes(nil, 1, MaxProbes, 0, rng, nil)), "probe.PlaceProbes", -1, "count"},
		{"PlaceProbes first+count=max", errOf(PlaceProbes(nil, 1, MaxProbes-1, 1, rng, nil)), "", 0, ""},
		{"PlaceProbes probes<0", errOf(PlaceProbes(nil, 0, 1, -1, rng, nil)), "probe.PlaceProbes", -1, "probes"},
		{"PlaceProbes probes>max", errOf(PlaceProbes(nil, 0, 1, MaxProbes+1, rng, nil)), "probe.PlaceProbes", -1, "probes"},
		{"PlaceProbes no nodes", errOf(PlaceProbes(nil, 0, 0, 1, rng, nil)), "probe.PlaceProbes", -1, "count"},
		{"PlaceProbes nil rng", errOf(PlaceProbes(nil, 0, 1, 1, nil, nil)), "probe.PlaceProbes", -1, "rng"},
		{"ReplaceProbes probes<0", errOf(ReplaceProbes(nil, nil, -1, rng, nil)), "probe.ReplaceProbes", -1, "probes"},
		{"ReplaceProbes probes>max", errOf(ReplaceProbes(nil, nil, MaxProbes+1, rng, nil)), "probe.ReplaceProbes", -1, "probes"},
		{"ReplaceProbes nil rng", errOf(ReplaceProbes(nil, nil, 1, nil, nil)), "probe.ReplaceProbes", -1, "rng"},
		{"NewStateVector nodes<0", errOf(NewStateVector(-1, 0)), "probe.NewStateVector", -1, "nodes"},
		{"NewStateVector nodes>max", errOf(NewStateVector(MaxProbes+1, 0)), "probe.NewStateVector", -1, "nodes"},
		{"NewStateVector nodes=max", errOf(NewStateVector(MaxProbes, 0)), "", 0, ""},
		{"NewStateVector NaN", errOf(NewStateVector(1, nan)), "probe.NewStateVector", -1, "time"},
		{"PlaceLWL workLeft", errOf(PlaceLWL(nil, []float64{0, -1}, 1, 1, nil)), "probe.PlaceLWL", 1, "workLeft"},
		{"PlaceLWL estTask", errOf(PlaceLWL(nil, one, 1, nan, nil)), "probe.PlaceLWL", -1, "estTask"},
		{"PlaceLWL tasks<0", errOf(PlaceLWL(nil, one, -1, 1, nil)), "probe.PlaceLWL", -1, "tasks"},
		{"PlaceLWL tasks>max", errOf(PlaceLWL(nil, one, MaxProbes+1, 1, nil)), "probe.PlaceLWL", -1, "tasks"},
		{"PlaceLWL no nodes", errOf(PlaceLWL(nil, nil, 1, 1, nil)), "probe.PlaceLWL", -1, "len(workLeft)"},
		{"PlaceLWL no nodes, no tasks", errOf(PlaceLWL(nil, nil, 0, 1, nil)), "", 0, ""},
		{"GetProbeFromQueue EstJobLeft", err3(GetProbeFromQueue(nil, []QueuedProbe{{}, {EstJobLeft: nan}})), "probe.GetProbeFromQueue", 1, "EstJobLeft"},
		{"GetProbeFromQueue EstTask", err3(GetProbeFromQueue(nil, []QueuedProbe{{EstTask: -1}})), "probe.GetProbeFromQueue", 0, "EstTask"},
		{"GetProbeFromQueue Bypassed", err3(GetProbeFromQueue(nil, []QueuedProbe{{Bypassed: math.Inf(1)}})), "probe.GetProbeFromQueue", 0, "Bypassed"},
		{"GetProbeFromQueue Cap", err3(GetProbeFromQueue(nil, []QueuedProbe{{}, {}, {Cap: math.Inf(-1)}})), "probe.GetProbeFromQueue", 2, "Cap"},
		{"HopperPick lengths", hp(nil, one, nil, 1, 1.5, 0), "probe.HopperPick", -1, "len(running)"},
		{"HopperPick remaining", hp(nil, []float64{1, -1}, []float64{0, 0}, 1, 1.5, 0), "probe.HopperPick", 1, "remaining"},
		{"HopperPick running", hp(nil, []float64{1, 1}, []float64{0, nan}, 1, 1.5, 0), "probe.HopperPick", 1, "running"},
		{"HopperPick slots", hp(nil, one, one, -1, 1.5, 0), "probe.HopperPick", -1, "slots"},
		{"HopperPick beta=1", hp(nil, one, one, 1, 1, 0), "probe.HopperPick", -1, "beta"},
		{"HopperPick beta=Inf", hp(nil, one, one, 1, math.Inf(1), 0), "probe.HopperPick", -1, "beta"},
		{"HopperPick eps", hp(nil, one, one, 1, 1.5, 1.5), "probe.HopperPick", -1, "eps"},
		{"HopperPick queued<0", hp([]int{0, -1}, one, one, 1, 1.5, 0), "probe.HopperPick", 1, "queued"},
		{"HopperPick queued=n", hp([]int{1}, one, one, 1, 1.5, 0), "probe.HopperPick", 0, "queued"},
		{"HopperPick queued repeated", hp([]int{0, 1, 0}, []float64{1, 1}, []float64{0, 0}, 1, 1.5, 0), "probe.HopperPick", 2, "queued"},
		// ΣT overflows at job 1; Σ(2/β)·T_i at job 1 although ΣT does not.
		{"HopperPick ΣT overflow", hp([]int{0}, []float64{math.MaxFloat64, math.MaxFloat64}, []float64{0, 0}, 1, 1.5, 0.1), "probe.HopperPick", 1, "remaining"},
		{"HopperPick ΣV overflow", hp([]int{0}, []float64{math.MaxFloat64 / 2, math.MaxFloat64 / 2}, []float64{0, 0}, 1, 1.5, 0.1), "probe.HopperPick", 1, "remaining"},
		// c·ΣT rounds past MaxFloat64 but Σc·T_i does not: accepted
		// (TestHopperPickVirtualOverflow decides it).
		{"HopperPick ΣV rounds", hp([]int{0}, []float64{4.820244767905938e+307, 4.820244767905937e+307, 4.820244767905939e+307}, []float64{0, 0, 0}, 1, 1.6088100937010426, 0.1), "", 0, ""},
	}
	for _, c := range cases {
		if c.field == "" {
			if c.err != nil {
				t.Errorf("%s: %v; want accepted", c.name, c.err)
			}
			continue
		}
		inputErr(t, c.err, c.fn, c.index, c.field)
	}
}

// TestErrorText: a value that is not a number — an unknown policy name, a
// nil rng — is reported in InputError.Text (Value 0, no NaN placeholder),
// and the message quotes it.
func TestErrorText(t *testing.T) {
	t.Parallel()
	errOf := func(_ any, err error) error { return err }
	cases := []struct {
		err         error
		fn, field   string
		text, error string
	}{
		{errOf(ParsePolicy("fifo")), "probe.ParsePolicy", "policy", "fifo", `probe.ParsePolicy: policy = "fifo": unknown policy`},
		{errOf(PlaceProbes(nil, 0, 1, 1, nil, nil)), "probe.PlaceProbes", "rng", "nil", `probe.PlaceProbes: rng = "nil": must not be nil`},
		{errOf(ReplaceProbes(nil, nil, 1, nil, nil)), "probe.ReplaceProbes", "rng", "nil", `probe.ReplaceProbes: rng = "nil": must not be nil`},
		{errOf(Simulate(nil, DefaultConfig(Eagle, 1, 1), nil)), "probe.Simulate", "rng", "nil", `probe.Simulate: rng = "nil": must not be nil`},
		{errOf(Synthesize(GoogleLike(1, 1, 0.5), nil)), "probe.Synthesize", "rng", "nil", `probe.Synthesize: rng = "nil": must not be nil`},
	}
	for _, c := range cases {
		inputErr(t, c.err, c.fn, -1, c.field)
		ie := c.err.(*specsched.InputError)
		if ie.Text != c.text || ie.Value != 0 || ie.Error() != c.error {
			t.Errorf("%v: Text %q, Value %v; want Text %q, Value 0, message %q", c.err, ie.Text, ie.Value, c.text, c.error)
		}
	}
}

// TestSimulateBetaEps: Simulate checks decentralized Hopper's β and ε
// before anything runs, with the same bounds as HopperPick (β finite and >
// 1, ε in [0, 1]); the other policies ignore them.
func TestSimulateBetaEps(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{1, 2}, EstTask: 1}}
	for _, beta := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -2, 1} {
		cfg := DefaultConfig(Hopper, 4, 1)
		cfg.Beta = beta
		_, err := Simulate(jobs, cfg, rngFrom(1))
		inputErr(t, err, "probe.Simulate", -1, "Beta")
		if ie := err.(*specsched.InputError); ie.Reason != "must be a finite number > 1" || !(ie.Value == beta || math.IsNaN(beta)) {
			t.Errorf("β = %v: %v", beta, err)
		}
		other := DefaultConfig(Sparrow, 4, 1)
		other.Beta = beta
		if _, err := Simulate(jobs, other, rngFrom(1)); err != nil {
			t.Errorf("Sparrow with β = %v: %v", beta, err)
		}
	}
	for _, beta := range []float64{math.Nextafter(1, 2), 2, math.MaxFloat64} {
		cfg := DefaultConfig(Hopper, 4, 1)
		cfg.Beta = beta
		if _, err := Simulate(jobs, cfg, rngFrom(1)); err != nil {
			t.Errorf("β = %v: %v", beta, err)
		}
	}
	cfg := DefaultConfig(Hopper, 4, 1)
	cfg.Eps = 1.5
	_, err := Simulate(jobs, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", -1, "Eps")
}

// TestConfigValidate: Config.Validate rejects each Config field just
// outside its documented bound, naming the field (index −1) as
// probe.Config.Validate, accepts the value on the bound, and agrees with
// Simulate, which returns the same field and value for the same
// configuration.
func TestConfigValidate(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	type edit struct {
		name  string
		set   func(*Config)
		field string // "" means: accepted
	}
	edits := []edit{
		{"defaults", func(*Config) {}, ""},
		{"policy", func(c *Config) { c.Policy = Hopper + 1 }, "Policy"},
		{"nodes 0", func(c *Config) { c.Nodes = 0 }, "Nodes"},
		{"nodes 1", func(c *Config) { c.Nodes = 1; c.ShortFraction = 0 }, ""},
		{"nodes max", func(c *Config) { c.Nodes = MaxProbes }, ""},
		{"nodes max+1", func(c *Config) { c.Nodes = MaxProbes + 1 }, "Nodes"},
		{"short fraction −", func(c *Config) { c.ShortFraction = -1e-300 }, "ShortFraction"},
		{"short fraction 1", func(c *Config) { c.ShortFraction = 1 }, "ShortFraction"},
		{"short fraction NaN", func(c *Config) { c.ShortFraction = nan }, "ShortFraction"},
		{"short fraction 0", func(c *Config) { c.ShortFraction = 0 }, ""},
		{"threshold −", func(c *Config) { c.Threshold = -1e-300 }, "Threshold"},
		{"threshold NaN", func(c *Config) { c.Threshold = nan }, "Threshold"},
		{"threshold 0", func(c *Config) { c.Threshold = 0 }, ""},
		{"threshold +Inf", func(c *Config) { c.Threshold = math.Inf(1) }, ""},
		{"min probes −1", func(c *Config) { c.MinProbes = -1 }, "MinProbes"},
		{"min probes max", func(c *Config) { c.MinProbes = MaxProbes }, ""},
		{"min probes max+1", func(c *Config) { c.MinProbes = MaxProbes + 1 }, "MinProbes"},
		{"steal attempts −1", func(c *Config) { c.StealAttempts = -1 }, "StealAttempts"},
		{"steal attempts 0", func(c *Config) { c.StealAttempts = 0 }, ""},
		{"min probes 0", func(c *Config) { c.MinProbes = 0 }, ""},
		{"network delay 0", func(c *Config) { c.NetworkDelay = 0 }, ""},
		{"probe ratio tiny", func(c *Config) { c.ProbeRatio = 5e-324 }, ""},
		{"steal attempts max", func(c *Config) { c.StealAttempts = MaxProbes }, ""},
		{"steal attempts max+1", func(c *Config) { c.StealAttempts = MaxProbes + 1 }, "StealAttempts"},
		{"sampling", func(c *Config) { c.Sampling = WithReplacement + 1 }, "Sampling"},
		{"sampling with replacement", func(c *Config) { c.Sampling = WithReplacement }, ""},
		{"thieves", func(c *Config) { c.Thieves = AllThieves + 1 }, "Thieves"},
		{"thieves all", func(c *Config) { c.Thieves = AllThieves }, ""},
		{"misestimate min > max", func(c *Config) { c.MisestimateMin, c.MisestimateMax = 2, 1 }, "MisestimateMin"},
		{"misestimate min = max", func(c *Config) { c.MisestimateMin, c.MisestimateMax = 2, 2 }, ""},
		{"misestimate min −", func(c *Config) { c.MisestimateMin = -1 }, "MisestimateMin"},
		{"misestimate max above", func(c *Config) { c.MisestimateMax = MaxFactor * 2 }, "MisestimateMax"},
		{"probe ratio 0", func(c *Config) { c.ProbeRatio = 0 }, "ProbeRatio"},
		{"probe ratio NaN", func(c *Config) { c.ProbeRatio = nan }, "ProbeRatio"},
		{"network delay −", func(c *Config) { c.NetworkDelay = -1 }, "NetworkDelay"},
		{"network delay max", func(c *Config) { c.NetworkDelay = MaxTime }, ""},
		{"network delay above", func(c *Config) { c.NetworkDelay = MaxTime * 2 }, "NetworkDelay"},
		{"starvation factor above", func(c *Config) { c.StarvationFactor = MaxFactor * 2 }, "StarvationFactor"},
		{"starvation factor max", func(c *Config) { c.StarvationFactor = MaxFactor }, ""},
	}
	job := []Job{{Durations: []float64{1}, EstTask: 0}}
	for _, p := range []Scheduler{Eagle, Hawk, Sparrow, Hopper} {
		all := append(edits[:len(edits):len(edits)],
			edit{"beta 1", func(c *Config) { c.Beta = 1 }, map[bool]string{true: "Beta"}[p == Hopper]},
			edit{"eps above 1", func(c *Config) { c.Eps = 1.5 }, map[bool]string{true: "Eps"}[p == Hopper]},
			edit{"eps 1", func(c *Config) { c.Eps = 1 }, ""})
		for _, e := range all {
			cfg := DefaultConfig(p, 100, 1)
			e.set(&cfg)
			err := cfg.Validate()
			if e.field == "" {
				if err != nil {
					t.Errorf("%v, %s: Validate %v; want accepted", p, e.name, err)
				}
				if cfg.Nodes < MaxProbes && cfg.MinProbes < MaxProbes && cfg.StealAttempts < MaxProbes { // else a long run
					if _, err := Simulate(job, cfg, rngFrom(1)); err != nil {
						t.Errorf("%v, %s: Simulate %v; want accepted", p, e.name, err)
					}
				}
				continue
			}
			_, simErr := Simulate(job, cfg, rngFrom(1))
			inputErr(t, err, "probe.Config.Validate", check.Scalar, e.field)
			inputErr(t, simErr, "probe.Simulate", check.Scalar, e.field)
			if v, w := err.(*specsched.InputError).Value, simErr.(*specsched.InputError).Value; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
				t.Errorf("%v, %s: Validate's value %v, Simulate's %v", p, e.name, v, w)
			}
		}
	}
}
