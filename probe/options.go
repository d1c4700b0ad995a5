package probe

import (
	"math"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
)

// A Sampling is how a scheduler draws its probes' target nodes
// (Config.Sampling, PlaceProbesWith, ReplaceProbesWith). Eagle says the
// targets are chosen "uniformly at random among all nodes" (§3.3), which
// admits both readings below; the doc comment of the package compares them.
type Sampling uint8

const (
	// Distinct sends the probes to distinct nodes: ⌊k/n⌋ probes on each of
	// the n candidate nodes, then k mod n distinct nodes drawn uniformly at
	// random (batch sampling as Sparrow describes it). The default.
	Distinct Sampling = iota
	// WithReplacement draws each probe's node independently and uniformly,
	// so two probes of a job may land on the same node: what the authors'
	// simulator does (find_workers_random, random.randint per probe).
	WithReplacement
)

var samplingNames = [...]string{Distinct: "distinct", WithReplacement: "replacement"}

// String returns "distinct" or "replacement".
func (s Sampling) String() string { return enum.Name(s, samplingNames[:], "Sampling") }

// ParseSampling returns the sampling named s ("distinct", "replacement").
func ParseSampling(s string) (Sampling, error) {
	if v, ok := enum.Index[Sampling](s, samplingNames[:]); ok {
		return v, nil
	}
	return 0, check.ErrText("probe.ParseSampling", check.Scalar, "sampling", s, "unknown sampling")
}

// Thieves says which idle nodes steal probes in Hawk (Config.Thieves).
type Thieves uint8

const (
	// GeneralThieves: only idle nodes of the general partition steal,
	// "idle nodes in the general partition perform ten attempts to steal
	// probes from other nodes in that partition" (Eagle §6.1). The default.
	GeneralThieves Thieves = iota
	// AllThieves: every idle node steals, short-partition nodes included,
	// from general-partition victims: what the authors' simulator does
	// (Worker.free_slot calls ask_probes on any worker with an empty queue).
	AllThieves
)

var thievesNames = [...]string{GeneralThieves: "general", AllThieves: "all"}

// String returns "general" or "all".
func (t Thieves) String() string { return enum.Name(t, thievesNames[:], "Thieves") }

// ParseThieves returns the thieves named s ("general", "all").
func ParseThieves(s string) (Thieves, error) {
	if v, ok := enum.Index[Thieves](s, thievesNames[:]); ok {
		return v, nil
	}
	return 0, check.ErrText("probe.ParseThieves", check.Scalar, "thieves", s, "unknown thieves")
}

// A TraceSetting is the evaluation setting of one of the Eagle paper's
// traces, with the trace's statistics from Table 1 for reference.
type TraceSetting struct {
	Name string // "yahoo", "cloudera", "google"
	// Threshold is the long/short cut-off on the estimated mean task
	// duration, seconds. The paper does not give it; these are the values
	// of the authors' simulator README ("Partitioning and cutoff parameters
	// for the various traces", simulation/README.md of epfl-labos/eagle at
	// 371b51f: GOOG 1129.532, CCc 272.7830, YH 90.5811).
	Threshold float64
	// ShortFraction is the short partition: "17, 9 and 2 percent of the
	// nodes, for the Google, Cloudera and Yahoo traces" (Eagle §5), the
	// share of task-seconds of short jobs (1 − LongTaskSeconds).
	ShortFraction float64
	// Nodes is the cluster of the highest load the paper simulates the
	// trace on (Table 2: "Google 15K nodes", "Yahoo 4K nodes", "Cloudera
	// 15K nodes").
	Nodes int
	// Jobs, LongJobs and LongTaskSeconds are Table 1's "Total # jobs", "%
	// Long jobs" and "% Task-Seconds long jobs", as fractions.
	Jobs                      int
	LongJobs, LongTaskSeconds float64
}

// traceSettings are Eagle's three traces (§5, Table 1, Table 2) with the
// authors' cut-offs. The README's Facebook line (FB, cut-off 76.5951, 2%)
// is not part of the paper's evaluation and is left out.
var traceSettings = [...]TraceSetting{
	{Name: "yahoo", Threshold: 90.5811, ShortFraction: ShortPartitionYahoo, Nodes: 4000, Jobs: 24262, LongJobs: 0.0941, LongTaskSeconds: 0.98},
	{Name: "cloudera", Threshold: 272.7830, ShortFraction: ShortPartitionCloudera, Nodes: 15000, Jobs: 21030, LongJobs: 0.0502, LongTaskSeconds: 0.91},
	{Name: "google", Threshold: 1129.532, ShortFraction: ShortPartitionGoogle, Nodes: 15000, Jobs: 506460, LongJobs: 0.10, LongTaskSeconds: 0.83},
}

// TraceSettings returns the settings of the Eagle paper's traces: Yahoo,
// Cloudera and Google, in that order (a new slice each call). O(1).
func TraceSettings() []TraceSetting { return append([]TraceSetting(nil), traceSettings[:]...) }

// LookupTraceSetting returns the setting named name ("yahoo", "cloudera",
// "google"). O(1).
func LookupTraceSetting(name string) (TraceSetting, error) {
	for _, ts := range traceSettings {
		if ts.Name == name {
			return ts, nil
		}
	}
	return TraceSetting{}, check.ErrText("probe.LookupTraceSetting", check.Scalar, "name", name, "unknown trace setting (want yahoo, cloudera or google)")
}

// Config returns DefaultConfig(p, ts.Nodes, ts.Threshold) with the trace's
// short partition for Eagle and Hawk (Sparrow and Hopper have none).
// O(1).
func (ts TraceSetting) Config(p Scheduler) Config {
	c := DefaultConfig(p, ts.Nodes, ts.Threshold)
	if p == Eagle || p == Hawk {
		c.ShortFraction = ts.ShortFraction
	}
	return c
}

// AuthorsCode returns c with the choices of the Eagle authors' simulator
// (epfl-labos/eagle, simulation/eagle_simulation.py at 371b51f) where it
// and the paper's text differ and this package has an option: probe
// targets drawn with replacement (Sampling) and every idle node stealing
// in Hawk (Thieves). Their simulator also truncates every duration and
// estimate to whole seconds as it reads the trace: apply TruncateSeconds
// to the jobs as well. The package comment lists the differences that
// remain. O(1).
func AuthorsCode(c Config) Config {
	c.Sampling, c.Thieves = WithReplacement, AllThieves
	return c
}

// TruncateSeconds returns a copy of jobs with every task duration and
// estimate truncated toward zero to whole seconds, as the authors'
// simulator reads a trace (int(float(x)) on the mean and on each duration;
// the submission time is kept). A task under a second then runs for 0 s.
// The input is not modified. NaN and ±Inf are passed through (Simulate
// rejects them). O(total tasks).
func TruncateSeconds(jobs []Job) []Job {
	out := make([]Job, len(jobs))
	for j, job := range jobs {
		d := make([]float64, len(job.Durations))
		for k, x := range job.Durations {
			d[k] = math.Trunc(x)
		}
		out[j] = Job{Submit: job.Submit, Durations: d, EstTask: math.Trunc(job.EstTask)}
	}
	return out
}
