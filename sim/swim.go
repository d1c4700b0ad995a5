package sim

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/internal/check"
)

// Facebook's Hadoop workloads in the SWIM format (Statistical Workload
// Injector for MapReduce; Chen, Alspaugh, Katz, "Interactive Analytical
// Processing in Big Data Systems: A Cross-Industry Study of MapReduce
// Workloads", VLDB 2012). The thesis evaluates Hopper on Facebook's
// production workloads (§6.1); the SWIM samples FB-2009 and FB-2010 are
// their public form: one line per job with its submit time and the bytes
// its map phase reads, its reducers shuffle and it writes. They carry no
// task counts or durations; SwimJobs derives them by a documented rule.

// A SwimJob is one line of a SWIM workload file: six tab-separated
// columns, in this order.
type SwimJob struct {
	Name   string  // the job's name, e.g. "job0"
	Submit float64 // submit time, seconds from the start of the trace, ≥ 0
	Gap    float64 // seconds since the previous job's Submit (the first job's: since 0)

	// Bytes the map phase reads (map input), the reducers read (shuffle:
	// map output) and the reducers write (reduce output), ≥ 0.
	MapInput, Shuffle, ReduceOutput int64
}

// parseSwim is the Func of ParseSwim's errors.
const parseSwim = "sim.ParseSwim"

// MaxSwimLine bounds a line of a SWIM file, in bytes: a line of the format
// is six short fields (about 60 bytes); this leaves room for long job names
// while a file that is one huge line is rejected after MaxSwimLine bytes
// of memory.
const MaxSwimLine = 1 << 16

// SWIM columns, as ParseSwim's errors name them.
var swimColumns = [...]string{"name", "submit", "gap", "map_input", "shuffle", "reduce_output"}

// ParseSwim reads a workload in SWIM's format (the FB-2009 and FB-2010
// samples): one job per line, six tab-separated fields
//
//	name  submit  gap  map_input  shuffle  reduce_output
//
// with submit and gap in seconds (finite numbers in [0, MaxTime]) and the
// three byte counts non-negative integers. The gap must equal the
// difference between the job's submit time and the previous job's (the
// first job's: its submit time), up to a relative 1e-9: the column is
// redundant, and checking it catches a shifted or shuffled file. So submit
// times never decrease. Fields are trimmed of blanks (a trailing "\r" of
// a CRLF file included); blank lines and lines starting with '#' are
// skipped; a UTF-8 byte-order mark at the start is skipped. Jobs are
// returned in file order; an input without jobs gives an empty slice.
//
// Errors: a line with other than six fields, an empty name, a number that
// does not parse or is out of range, a gap that disagrees with the submit
// times, and a line longer than MaxSwimLine bytes return a *TraceError
// (Func "sim.ParseSwim") with the 1-based line and the column (name,
// submit, gap, map_input, shuffle, reduce_output); a read error is
// returned as is. O(size of the input); memory O(jobs + MaxSwimLine).
func ParseSwim(r io.Reader) ([]SwimJob, error) {
	br := bufio.NewReader(r)
	skipBOM(br)
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 4096), MaxSwimLine)
	jobs := []SwimJob{}
	line := 0
	prev := 0.0
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		job, err := swimLine(line, text, prev)
		if err != nil {
			return nil, err
		}
		prev = job.Submit
		jobs = append(jobs, job)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &TraceError{Func: parseSwim, Line: line + 1, Reason: fmt.Sprintf("line longer than %d bytes", MaxSwimLine)}
		}
		return nil, err
	}
	return jobs, nil
}

// swimLine parses one job line; prev is the previous job's submit time (0
// for the first).
func swimLine(line int, text string, prev float64) (SwimJob, error) {
	fields := strings.Split(text, "\t")
	if len(fields) != len(swimColumns) {
		return SwimJob{}, &TraceError{Func: parseSwim, Line: line,
			Reason: fmt.Sprintf("%d tab-separated fields, want 6 (name, submit, gap, map_input, shuffle, reduce_output)", len(fields))}
	}
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	bad := func(col int, reason string) error {
		return &TraceError{Func: parseSwim, Line: line, Field: swimColumns[col], Text: fields[col], Reason: reason}
	}
	job := SwimJob{Name: fields[0]}
	if job.Name == "" {
		return SwimJob{}, bad(0, "a job needs a name")
	}
	var times [2]float64
	for i := range times {
		v, err := strconv.ParseFloat(fields[1+i], 64)
		if err != nil || !(v >= 0 && v <= MaxTime) {
			return SwimJob{}, bad(1+i, "must be a number of seconds in [0, 1e12]")
		}
		times[i] = v
	}
	job.Submit, job.Gap = times[0], times[1]
	if job.Submit < prev {
		return SwimJob{}, bad(1, fmt.Sprintf("before the previous job's submit time %g", prev))
	}
	if want := job.Submit - prev; math.Abs(job.Gap-want) > 1e-9*math.Max(1, job.Submit) {
		return SwimJob{}, bad(2, fmt.Sprintf("the submit times give a gap of %g", want))
	}
	var sizes [3]int64
	for i := range sizes {
		v, err := strconv.ParseInt(fields[3+i], 10, 64)
		if err != nil || v < 0 {
			return SwimJob{}, bad(3+i, "must be a number of bytes, an integer in [0, 2^63)")
		}
		sizes[i] = v
	}
	job.MapInput, job.Shuffle, job.ReduceOutput = sizes[0], sizes[1], sizes[2]
	return job, nil
}

// Facebook's clusters, as the SWIM samples describe them (shared/data/swim
// README), and the slots this library gives a machine.
const (
	FB2009Machines = 600
	FB2010Machines = 3000

	// SwimSlotsPerMachine is the slots of one machine: Hadoop 0.20's
	// defaults, mapred.tasktracker.map.tasks.maximum = 2 and
	// mapred.tasktracker.reduce.tasks.maximum = 2, the Hadoop of both
	// traces. The simulator has one pool of slots, so a machine's map and
	// reduce slots are pooled: 2 400 slots for FB-2009, 12 000 for FB-2010.
	SwimSlotsPerMachine = 4
)

// MiB is a mebibyte, the unit of SwimConfig's defaults.
const MiB = 1 << 20

// A SwimConfig is the rule by which SwimJobs turns a SWIM job into a Job:
//
//   - Tasks: the map phase has ⌈MapInput / BlockSize⌉ tasks (one map task per
//     HDFS block of input, Hadoop's default split) and the reduce phase
//     ⌈Shuffle / BlockSize⌉ (one reducer per block of shuffled data). A phase
//     with zero bytes has no tasks and is left out: a job without shuffle
//     data is map-only (a single phase), a job with shuffle data but no
//     input is a reduce phase alone. A job with no bytes in either phase
//     is kept, as one task of the least duration (MinTask): Hadoop still
//     runs it, and the day keeps the README's job count.
//   - Durations: a phase's bytes are spread evenly over its tasks, and a
//     task's mean duration is its bytes over Rate (a task processes Rate
//     bytes per second), at least MinTask. Every copy of the task draws its
//     duration in Simulate from Pareto(x_m, β) truncated at MaxSlowdown·x_m,
//     with β the job's group's and x_m = ParetoScale(mean, β, MaxSlowdown):
//     a duration is the bytes over the rate times a heavy-tailed straggler
//     factor of mean 1 (thesis §3.1: Pareto task durations, β < 2 in
//     production traces, §3.3). The reduce output bytes do not enter: the
//     SWIM format gives no rule for them, and the tasks that write them
//     are already counted.
//   - Phases: the reduce phase may start once SlowStart of the map tasks
//     have finished (pipelining, thesis §4.1; Hadoop's
//     mapred.reduce.slowstart.completed.maps).
//   - Groups: each job draws its straggler group from Groups by weight
//     (thesis §6.4.2; the SWIM samples name no organisation, so groups are
//     drawn, as in Synthesize), and takes the group's β.
//   - Arrival: the job's Submit time. Times are in seconds.
type SwimConfig struct {
	BlockSize   int64   // bytes per task, in [1, 2^50]
	Rate        float64 // bytes a task processes per second, in (0, 1e15]
	MinTask     float64 // least mean task duration, seconds, in (0, 1e6]
	MaxSlowdown float64 // truncation of the Pareto factor: 0 or +Inf (none), or in [1, 1e6]
	Groups      []Group // at least one
	SlowStart   float64 // in (0, 1]
}

// Defaults of SwimFB2009 and SwimFB2010, the library's choices:
//
//   - SwimRate, 20 MiB/s per task: a Hadoop-era task reads its block from
//     local disks shared by the machine's slots (a few disks of 50–100
//     MB/s for 4 to 8 slots) and parses, decompresses and serialises it;
//     a figure in the tens of MB/s per task Hadoop-era measurements report.
//     We found no published per-task rate for these two traces, so this is
//     a modelling choice: it sets the offered load (FB-2010 at 20 MiB/s on
//     12 000 slots: about 7% of the day's slot-time; FB-2009 on 2 400
//     slots about 1%), and -rate in specsim varies it.
//   - SwimMinTask, 1 s: a Hadoop task costs about a second of JVM start-up
//     and heartbeat however few bytes it reads; tasks of a few kilobytes
//     are not microseconds long.
//   - β and truncation: the three groups of DefaultWorkload (β = 1.1, 1.4,
//     1.8, equal shares, truncated at 15·x_m) and its slow start 0.8, so
//     that the Facebook days and the synthetic default differ only by the
//     jobs.
const (
	SwimRate    = 20 * MiB
	SwimMinTask = 1.0
)

// SwimFB2009 returns the rule for FB-2009: 64 MiB blocks, HDFS's default
// block size in the Hadoop 0.20 of 2009 (dfs.block.size), and the defaults
// above. Run it on FB2009Machines × SwimSlotsPerMachine slots.
func SwimFB2009() SwimConfig { return swimDefaults(64 * MiB) }

// SwimFB2010 returns the rule for FB-2010: 128 MiB blocks, the block size
// large Hadoop warehouses had moved to by 2010 (and HDFS's later default),
// and the defaults above. Run it on FB2010Machines × SwimSlotsPerMachine
// slots.
func SwimFB2010() SwimConfig { return swimDefaults(128 * MiB) }

func swimDefaults(block int64) SwimConfig {
	d := DefaultWorkload(1, 1, 1)
	return SwimConfig{
		BlockSize:   block,
		Rate:        SwimRate,
		MinTask:     SwimMinTask,
		MaxSlowdown: d.MaxSlowdown,
		Groups:      d.Groups,
		SlowStart:   d.SlowStart,
	}
}

// SwimJobs converts SWIM jobs to the simulator's jobs by the rule c (see
// SwimConfig), in the same order, with rng as the only source of
// randomness (each job's group, one distuv.Categorical draw per job in
// order): the same records, rule and rng state give the same jobs. The
// records and c are not modified. Phases carry a Scale and Cap, not
// durations: every copy draws its own in Simulate, keyed by Config.Seed.
//
// Errors (*specsched.InputError): for c, a field out of the ranges of
// SwimConfig (named "BlockSize", "Groups.Beta", …, the group's index for a
// group); a nil rng; for record j, Submit outside [0, MaxTime], a negative
// byte count, a phase of more than MaxTasks tasks, and a job Simulate would
// reject (more than MaxTasks tasks in all, a duration beyond MaxTime or
// below MinTimeRatio × the arrival). O(records).
func SwimJobs(recs []SwimJob, c SwimConfig, rng *rand.Rand) ([]Job, error) {
	const fn = "sim.SwimJobs"
	if err := c.validate(fn); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	weights := make([]float64, len(c.Groups))
	factors := make([]float64, len(c.Groups)) // x_m per second of mean duration
	ratio := c.MaxSlowdown
	if ratio == 0 {
		ratio = math.Inf(1)
	}
	for i, g := range c.Groups {
		weights[i] = g.Weight
		factors[i] = ParetoScale(1, g.Beta, ratio)
	}
	group := distuv.NewCategorical(weights, rng)
	jobs := make([]Job, len(recs))
	for j := range recs {
		rec := &recs[j]
		if !(rec.Submit >= 0 && rec.Submit <= MaxTime) {
			return nil, check.Err(fn, j, "Submit", rec.Submit, "must lie in [0, 1e12]")
		}
		g := int(group.Rand())
		phase := func(tasks int64, mean float64) Phase {
			scale := mean * factors[g]
			ph := Phase{Tasks: int(tasks), Scale: scale}
			if !math.IsInf(ratio, 1) {
				ph.Cap = ratio * scale
			}
			return ph
		}
		var phases []Phase
		for _, f := range [...]struct {
			name  string
			bytes int64
		}{{"MapInput", rec.MapInput}, {"Shuffle", rec.Shuffle}} {
			if f.bytes < 0 {
				return nil, check.Err(fn, j, f.name, float64(f.bytes), "must be ≥ 0")
			}
			if f.bytes == 0 {
				continue
			}
			tasks := (f.bytes-1)/c.BlockSize + 1 // ⌈bytes/BlockSize⌉ for bytes ≥ 1, without overflow
			if tasks > MaxTasks {
				return nil, check.Err(fn, j, f.name, float64(f.bytes), "needs more than 2^28 tasks at BlockSize (MaxTasks)")
			}
			ph := phase(tasks, math.Max(float64(f.bytes)/float64(tasks)/c.Rate, c.MinTask))
			if len(phases) > 0 {
				ph.Start = c.SlowStart
			}
			phases = append(phases, ph)
		}
		if rec.ReduceOutput < 0 {
			return nil, check.Err(fn, j, "ReduceOutput", float64(rec.ReduceOutput), "must be ≥ 0")
		}
		if len(phases) == 0 {
			phases = append(phases, phase(1, c.MinTask)) // no bytes: one task of MinTask
		}
		jobs[j] = Job{Arrival: rec.Submit, Group: g, Beta: c.Groups[g].Beta, Phases: phases}
	}
	if _, err := validateJobs(fn, jobs); err != nil {
		return nil, err
	}
	return jobs, nil
}

func (c *SwimConfig) validate(fn string) error {
	if c.BlockSize < 1 || c.BlockSize > 1<<50 {
		return check.Err(fn, check.Scalar, "BlockSize", float64(c.BlockSize), "must lie in [1, 2^50] bytes")
	}
	if !(c.Rate > 0 && c.Rate <= 1e15) {
		return check.Err(fn, check.Scalar, "Rate", c.Rate, "must lie in (0, 1e15] bytes per second")
	}
	if !(c.MinTask > 0 && c.MinTask <= 1e6) {
		return check.Err(fn, check.Scalar, "MinTask", c.MinTask, "must lie in (0, 1e6] seconds")
	}
	if c.MaxSlowdown != 0 && !math.IsInf(c.MaxSlowdown, 1) && !(c.MaxSlowdown >= 1 && c.MaxSlowdown <= 1e6) {
		return check.Err(fn, check.Scalar, "MaxSlowdown", c.MaxSlowdown, "must be 0 or +Inf (no cap), or lie in [1, 1e6]")
	}
	if len(c.Groups) == 0 {
		return check.Err(fn, check.Scalar, "len(Groups)", 0, "at least one group")
	}
	for i, g := range c.Groups {
		if !(g.Beta > 1 && g.Beta <= 1e6) {
			return check.ErrItem(fn, "group", i, "Groups.Beta", g.Beta, "must lie in (1, 1e6]")
		}
		if !(g.Weight > 0 && g.Weight <= math.MaxFloat64) {
			return check.ErrItem(fn, "group", i, "Groups.Weight", g.Weight, "must be finite and > 0")
		}
	}
	if !(c.SlowStart > 0 && c.SlowStart <= 1) {
		return check.Err(fn, check.Scalar, "SlowStart", c.SlowStart, "must lie in (0, 1]")
	}
	return nil
}
