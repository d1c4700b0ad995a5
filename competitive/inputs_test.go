package competitive

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/specsched/specsched"
)

// TestScalarBoundaries: every documented check of a scalar argument, at
// its exact boundary on both sides (issue 11: β outside (0, 1] and
// machines < 0 or > 2^53 in Machines, and the same for every function).
// want is the field an InputError must name, or "" for an accepted value.
func TestScalarBoundaries(t *testing.T) {
	t.Parallel()
	up, down := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }, func(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
	nan, inf, negZero := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	one := []Job{{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}}
	// A map group of 2^52 machines full of copies: SEW at M = 2^53 has
	// nothing to do (no idle map machine, no reduce task).
	full := []Job{{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1 << 52}}}}
	rng := rand.New(rand.NewPCG(1, 1))

	type tc struct {
		name string
		call func() error
		want string
	}
	var cases []tc
	add := func(name, want string, call func() error) { cases = append(cases, tc{name, call, want}) }

	// β ∈ (0, 1], machines ∈ [0, 2^53], λ ≥ 0 finite: Shares, Machines, SREWC.
	for _, b := range []struct {
		v    float64
		want string
	}{{0, "beta"}, {negZero, "beta"}, {-1, "beta"}, {5e-324, ""}, {1, ""}, {up(1), "beta"}, {nan, "beta"}, {inf, "beta"}, {-inf, "beta"}} {
		add("Shares β="+ftoa(b.v), b.want, func() error { _, err := Shares(nil, one, 4, b.v, 0, nil); return err })
		add("Machines β="+ftoa(b.v), b.want, func() error { _, err := Machines(nil, one, 4, b.v, 0, nil); return err })
		add("SREWC β="+ftoa(b.v), b.want, func() error { _, err := SREWC(nil, one, 4, b.v, 0, Preemptive, rng, nil); return err })
	}
	for _, m := range []struct {
		v    int
		want string
	}{{-1, "machines"}, {math.MinInt, "machines"}, {0, ""}, {1, ""}, {maxCount, ""}, {maxCount + 1, "machines"}, {math.MaxInt, "machines"}} {
		add("Shares M="+itoa(m.v), m.want, func() error { _, err := Shares(nil, one, m.v, 0.5, 0, nil); return err })
		add("Machines M="+itoa(m.v), m.want, func() error { _, err := Machines(nil, one, m.v, 0.5, 0, nil); return err })
		// SREWC at M = 2^53 would launch one task with 2^53 copies: one action.
		add("SREWC M="+itoa(m.v), m.want, func() error { _, err := SREWC(nil, one, m.v, 0.5, 0, Preemptive, rng, nil); return err })
		add("Plan cluster="+itoa(m.v), m.want, func() error { _, err := Plan(nil, one, []int{0}, m.v, 0, Preemptive, rng, nil); return err })
	}
	for _, l := range []struct {
		v    float64
		want string
	}{{0, ""}, {negZero, ""}, {5e-324, ""}, {math.MaxFloat64, ""}, {-5e-324, "lambda"}, {nan, "lambda"}, {inf, "lambda"}} {
		add("Shares λ="+ftoa(l.v), l.want, func() error { _, err := Shares(nil, one, 4, 0.5, l.v, nil); return err })
		add("Machines λ="+ftoa(l.v), l.want, func() error { _, err := Machines(nil, one, 4, 0.5, l.v, nil); return err })
		add("SREWC λ="+ftoa(l.v), l.want, func() error { _, err := SREWC(nil, one, 4, 0.5, l.v, NonPreemptive, rng, nil); return err })
		add("Plan λ="+ftoa(l.v), l.want, func() error { _, err := Plan(nil, one, []int{4}, 4, l.v, NonPreemptive, rng, nil); return err })
		add("SEW λ="+ftoa(l.v), l.want, func() error { _, err := SEW(nil, one, 4, l.v, rng, nil); return err })
		add("SEWBound λ="+ftoa(l.v), l.want, func() error { _, err := SEWBound(nil, one, 4, l.v, nil); return err })
		add("SEWConfidence λ="+ftoa(l.v), l.want, func() error { _, err := SEWConfidence(l.v); return err })
		add("EffectiveWorkload λ="+ftoa(l.v), l.want, func() error { _, err := EffectiveWorkload(one[0], l.v); return err })
		add("RemainingEffectiveWorkload λ="+ftoa(l.v), l.want, func() error { _, err := RemainingEffectiveWorkload(one[0], l.v); return err })
	}
	for _, mode := range []struct {
		v    Mode
		want string
	}{{Preemptive, ""}, {NonPreemptive, ""}, {NonPreemptive + 1, "mode"}, {255, "mode"}} {
		add("SREWC mode="+mode.v.String(), mode.want, func() error { _, err := SREWC(nil, one, 4, 1, 0, mode.v, rng, nil); return err })
		add("Plan mode="+mode.v.String(), mode.want, func() error { _, err := Plan(nil, one, []int{4}, 4, 0, mode.v, rng, nil); return err })
	}
	// Plan's allotments: ≥ 0, Σ ≤ cluster, one per job.
	two := append(one[:1:1], one[0])
	add("Plan allot −1", "machines", func() error { _, err := Plan(nil, two, []int{-1, 0}, 4, 0, Preemptive, nil, nil); return err })
	add("Plan Σ allot = cluster", "", func() error { _, err := Plan(nil, two, []int{1, 3}, 4, 0, Preemptive, nil, nil); return err })
	add("Plan Σ allot > cluster", "machines", func() error { _, err := Plan(nil, two, []int{2, 3}, 4, 0, Preemptive, nil, nil); return err })
	add("Plan len(machines)", "len(machines)", func() error { _, err := Plan(nil, two, []int{1}, 4, 0, Preemptive, nil, nil); return err })
	three := []Job{one[0], one[0], one[0]}
	add("Plan Σ allot of three = cluster", "", func() error { _, err := Plan(nil, three, []int{1, 2, 1}, 4, 0, Preemptive, nil, nil); return err })
	add("Plan Σ allot of three > cluster", "machines", func() error { _, err := Plan(nil, three, []int{1, 2, 2}, 4, 0, Preemptive, nil, nil); return err })
	busy := []Job{{Map: Phase{Tasks: 1, Mean: 1, Running: []int{1}}}, {Map: Phase{Tasks: 1, Mean: 1, Running: []int{2}}}, {Map: Phase{Tasks: 1, Mean: 1, Running: []int{2}}}}
	add("Plan Σ running = cluster", "", func() error { _, err := Plan(nil, busy, []int{1, 2, 2}, 5, 0, Preemptive, nil, nil); return err })
	add("Plan Σ running > cluster", "running", func() error { _, err := Plan(nil, busy, []int{0, 0, 0}, 4, 0, Preemptive, nil, nil); return err })
	add("SREWC Σ running > cluster", "running", func() error { _, err := SREWC(nil, busy, 4, 1, 0, Preemptive, nil, nil); return err })
	add("Plan running = cluster", "", func() error { _, err := Plan(nil, full, []int{0}, 1<<52, 0, NonPreemptive, nil, nil); return err })
	add("Plan running > cluster", "running", func() error { _, err := Plan(nil, full, []int{0}, 1<<52-1, 0, Preemptive, nil, nil); return err })
	add("SREWC running > cluster", "running", func() error { _, err := SREWC(nil, full, 1<<52-1, 1, 0, Preemptive, nil, nil); return err })

	// SEW: M = 0 or M ∈ [2, 2^53]; copies fit their group.
	for _, m := range []struct {
		v    int
		want string
	}{{-1, "machines"}, {0, ""}, {1, "machines"}, {2, ""}, {maxCount, ""}, {maxCount + 1, "machines"}} {
		jobs := one
		if m.v == maxCount {
			jobs = full
		}
		add("SEW M="+itoa(m.v), m.want, func() error { _, err := SEW(nil, jobs, m.v, 0, rng, nil); return err })
	}
	add("SEW map copies > ⌈M/2⌉", "Map.Running", func() error { _, err := SEW(nil, full, 1<<53-2, 0, nil, nil); return err })
	add("SEW map copies = ⌈M/2⌉", "", func() error { _, err := SEW(nil, full, 1<<53-1, 0, nil, nil); return err })

	// LowerBound, SEWBound, SREWCRatio: M ∈ [1, 2^53]; peak ≥ 1 finite.
	for _, m := range []struct {
		v    int
		want string
	}{{-1, "machines"}, {0, "machines"}, {1, ""}, {maxCount, ""}, {maxCount + 1, "machines"}} {
		add("LowerBound M="+itoa(m.v), m.want, func() error { _, err := LowerBound(one, m.v, 1, nil); return err })
		add("SEWBound M="+itoa(m.v), m.want, func() error { _, err := SEWBound(nil, one, m.v, 0, nil); return err })
		add("SREWCRatio M="+itoa(m.v), m.want, func() error { _, err := SREWCRatio(m.v, 0.5, 1, 1); return err })
	}
	for _, p := range []struct {
		v    float64
		want string
	}{{down(1), "peak"}, {0, "peak"}, {1, ""}, {math.MaxFloat64, ""}, {inf, "peak"}, {nan, "peak"}} {
		add("LowerBound peak="+ftoa(p.v), p.want, func() error { _, err := LowerBound(one, 4, p.v, nil); return err })
		add("SEWRatio peak="+ftoa(p.v), p.want, func() error { _, err := SEWRatio(p.v); return err })
	}
	// Theorem 4: β ∈ (0, 1/2], ε > 0 finite.
	for _, b := range []struct {
		v    float64
		want string
	}{{0, "beta"}, {5e-324, ""}, {0.5, ""}, {up(0.5), "beta"}, {1, "beta"}, {nan, "beta"}} {
		add("SREWCSpeed β="+ftoa(b.v), b.want, func() error { _, err := SREWCSpeed(b.v, 1); return err })
	}
	for _, e := range []struct {
		v    float64
		want string
	}{{0, "eps"}, {negZero, "eps"}, {5e-324, ""}, {math.MaxFloat64, ""}, {inf, "eps"}, {nan, "eps"}} {
		add("SREWCSpeed ε="+ftoa(e.v), e.want, func() error { _, err := SREWCSpeed(0.25, e.v); return err })
	}

	// Simulate's configuration.
	sim := []SimJob{{MapTasks: 1, MapWork: 1}}
	simCfg := func(edit func(*Config)) func() error {
		return func() error {
			cfg := Config{Machines: 2, Algorithm: AlgorithmSREWC, Beta: 0.5}
			edit(&cfg)
			_, _, err := simulate(sim, cfg, rng)
			return err
		}
	}
	add("Simulate M=0", "Machines", simCfg(func(c *Config) { c.Machines = 0 }))
	add("Simulate M=1", "", simCfg(func(c *Config) { c.Machines = 1 }))
	add("Simulate SEW M=1", "Machines", simCfg(func(c *Config) { c.Machines, c.Algorithm = 1, AlgorithmSEW }))
	add("Simulate SEW M=2", "", simCfg(func(c *Config) { c.Algorithm = AlgorithmSEW }))
	add("Simulate M=MaxSimMachines", "", simCfg(func(c *Config) { c.Machines = MaxSimMachines }))
	add("Simulate M=MaxSimMachines+1", "Machines", simCfg(func(c *Config) { c.Machines = MaxSimMachines + 1 }))
	add("Simulate β=0", "Beta", simCfg(func(c *Config) { c.Beta = 0 }))
	add("Simulate β=1", "", simCfg(func(c *Config) { c.Beta = 1 }))
	add("Simulate β=1⁺", "Beta", simCfg(func(c *Config) { c.Beta = up(1) }))
	add("Simulate Fair ignores β", "", simCfg(func(c *Config) { c.Algorithm, c.Beta = AlgorithmFair, nan }))
	add("Simulate algorithm", "Algorithm", simCfg(func(c *Config) { c.Algorithm = AlgorithmFair + 1 }))
	add("Simulate mode", "Mode", simCfg(func(c *Config) { c.Mode = NonPreemptive + 1 }))
	add("Simulate λ<0", "Lambda", simCfg(func(c *Config) { c.Lambda = -5e-324 }))
	add("Simulate speed<0", "Speed", simCfg(func(c *Config) { c.Speed = -1 }))
	add("Simulate speed=+Inf", "Speed", simCfg(func(c *Config) { c.Speed = inf }))
	add("Simulate peak<1", "Peak", simCfg(func(c *Config) { c.Peak = down(1) }))
	add("Simulate σ<0", "Sigma", simCfg(func(c *Config) { c.Sigma = -1 }))
	add("Simulate σ²=Δ−1", "Sigma", simCfg(func(c *Config) { c.Sigma, c.Peak = 1, 2 }))
	add("Simulate σ²<Δ−1", "", simCfg(func(c *Config) { c.Sigma, c.Peak = 0.5, 2 }))
	add("Simulate MaxSlots<0", "MaxSlots", simCfg(func(c *Config) { c.MaxSlots = -1 }))
	add("Simulate MaxSlots=2^40", "", simCfg(func(c *Config) { c.MaxSlots = maxSimSlot }))
	add("Simulate MaxSlots>2^40", "MaxSlots", simCfg(func(c *Config) { c.MaxSlots = maxSimSlot + 1 }))
	add("Simulate σ>0, nil rng", "Sigma", func() error {
		_, _, err := simulate(sim, Config{Machines: 2, Algorithm: AlgorithmFair, Sigma: 0.5, Peak: 2}, nil)
		return err
	})
	for _, a := range []struct {
		v    int
		want string
	}{{-1, "Arrival"}, {0, ""}, {maxSimSlot, ""}, {maxSimSlot + 1, "Arrival"}} {
		add("Simulate arrival="+itoa(a.v), a.want, func() error {
			_, _, err := simulate([]SimJob{{Arrival: a.v, MapTasks: 1, MapWork: 1}}, Config{Machines: 1, Algorithm: AlgorithmFair}, nil)
			return err
		})
	}
	add("Simulate tasks>MaxSimTasks", "ReduceTasks", func() error {
		_, _, err := simulate([]SimJob{{MapTasks: MaxSimTasks, MapWork: 1, ReduceTasks: 1, ReduceWork: 1}}, Config{Machines: 1, Algorithm: AlgorithmFair}, nil)
		return err
	})

	for _, c := range cases {
		err := c.call()
		var ie *specsched.InputError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want it accepted", c.name, err)
		case c.want != "" && (!errors.As(err, &ie) || ie.Field != c.want):
			t.Errorf("%s: err = %v, want an InputError on %q", c.name, err, c.want)
		}
	}
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
