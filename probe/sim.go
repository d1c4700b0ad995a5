package probe

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
	"github.com/specsched/specsched/internal/selection"
	"gonum.org/v1/gonum/stat/distuv"
)

// A Scheduler is the scheduler design a simulation runs (Config.Policy):
// Eagle, Hawk, Sparrow or decentralized Hopper.
type Scheduler uint8

const (
	// Eagle: long jobs placed by a centralized LWL scheduler in the general
	// partition; short jobs by distributed schedulers with Succinct State
	// Sharing, sticky batch probing, SRPT with starvation prevention and a
	// minimum number of probes (Eagle §3–4).
	Eagle Scheduler = iota
	// Hawk: the same hybrid split and LWL, short jobs batch-sampled over
	// the whole cluster into FIFO queues, and randomized work stealing by
	// idle general-partition nodes (Eagle §3.2, §6.1, [5]; every idle node
	// with Config.Thieves = AllThieves, as the authors' simulator does).
	Hawk
	// Sparrow: every job batch-sampled (two probes per task) over the whole
	// cluster, late binding, FIFO node queues, no partition (Eagle [20]).
	Sparrow
	// Hopper: decentralized Hopper on Sparrow (Hopper §6.1): every job
	// sends ProbeRatio (4) requests per task over the whole cluster; a
	// worker with a free slot serves the queued job HopperPick chooses
	// (ε-fair targets, virtual sizes, slot-constrained or not); the job's
	// scheduler answers with an unscheduled task or, when all are running,
	// a speculative copy; requests are not cancelled while the job runs.
	Hopper
)

var policyNames = [...]string{Eagle: "eagle", Hawk: "hawk", Sparrow: "sparrow", Hopper: "hopper"}

// String returns the policy's lower-case name.
func (p Scheduler) String() string {
	return enum.Name(p, policyNames[:], "Scheduler")
}

// ParsePolicy returns the policy named s ("eagle", "hawk", "sparrow",
// "hopper").
func ParsePolicy(s string) (Scheduler, error) {
	if p, ok := enum.Index[Scheduler](s, policyNames[:]); ok {
		return p, nil
	}
	return 0, check.ErrText("probe.ParsePolicy", check.Scalar, "policy", s, "unknown policy")
}

// Config configures Simulate. DefaultConfig returns the papers' settings.
type Config struct {
	Policy Scheduler
	Nodes  int // worker nodes, one slot and one queue each
	// ShortFraction is the fraction of nodes reserved for short jobs (the
	// short partition, Eagle and Hawk), in [0, 1). The short partition is
	// the last nodes; the general partition the first. Its size comes from
	// ShortPartition.
	ShortFraction float64
	// Threshold classifies jobs: a job whose (possibly mis-estimated)
	// estimated task duration exceeds it is long (Classify).
	Threshold    float64
	NetworkDelay float64 // one-way message delay, seconds
	// MinProbes and ProbeRatio give a short job max{MinProbes,
	// ⌈ProbeRatio·t⌉} probes (ProbeCount); Sparrow probes every job so.
	MinProbes  int
	ProbeRatio float64
	// StarvationFactor sets a probe's bypass cap to StarvationFactor times
	// its job's estimated task duration (Eagle §4.3, §5).
	StarvationFactor float64
	// Eagle's breakdown switches (Eagle §6.3); the zero value is full Eagle.
	// NoSSS places short probes at random and never rejects them; NoSBP
	// consumes a probe with the first task it launches (Sparrow-style late
	// binding); NoSRPT serves probes in FIFO order. The minimum number of
	// probes is switched off with MinProbes = 0.
	NoSSS, NoSBP, NoSRPT bool
	// StealAttempts is how many random general-partition nodes an idle Hawk
	// node tries to steal from.
	StealAttempts int
	// Sampling is how probe targets are drawn, at every placement (the
	// first, Eagle's re-placement and its fallback; every policy, Hopper
	// included): Distinct (the zero value) or WithReplacement (the
	// authors' simulator).
	Sampling Sampling
	// Thieves says which idle nodes steal in Hawk: GeneralThieves (the zero
	// value, Eagle §6.1's text) or AllThieves (the authors' simulator:
	// short-partition nodes too). Victims are always general-partition
	// nodes other than the thief.
	Thieves Thieves
	// Beta and Eps are decentralized Hopper's Pareto shape of task
	// durations (β > 1; β ≥ 2 means no speculation) and fairness allowance
	// ε ∈ [0, 1] (HopperPick).
	Beta, Eps float64
	// NoSpeculation stops Hopper's schedulers from launching speculative
	// copies.
	NoSpeculation bool
	// MisestimateMin and MisestimateMax multiply every job's estimate by a
	// factor uniform on [MisestimateMin, MisestimateMax] (Eagle §6.5:
	// [0.x, 1] under-estimates, [1, 1.x] over-estimates); both 0 means exact
	// estimates.
	MisestimateMin, MisestimateMax float64
	// RecordTasks makes Simulate return every task execution in
	// Result.Executions.
	RecordTasks bool
}

// DefaultConfig returns the settings of Eagle's evaluation (§5) for policy
// p on nodes nodes with long/short threshold threshold: a 17% short
// partition (the Google trace's), 0.5 ms network delay, K = 20 minimum
// probes and ratio 2 for Eagle (Sparrow's and Hawk's 2 probes per task and
// no minimum for the baselines), starvation cap 5× the task estimate, and
// Hawk stealing with 10 attempts. Sparrow and Hopper have no partition;
// Hopper probes 4 per task (§7.2) with β = HopperBeta and ε = HopperEps.
// Sampling and Thieves are the paper's text (Distinct, GeneralThieves);
// TraceSetting.Config gives a trace's setting and AuthorsCode the authors'
// simulator's choices.
func DefaultConfig(p Scheduler, nodes int, threshold float64) Config {
	c := Config{
		Policy: p, Nodes: nodes, ShortFraction: ShortPartitionGoogle, Threshold: threshold,
		NetworkDelay: NetworkDelay, ProbeRatio: SparrowProbeRatio,
		StarvationFactor: StarvationFactor, StealAttempts: HawkStealAttempts,
	}
	switch p {
	case Eagle:
		c.MinProbes, c.ProbeRatio = EagleMinProbes, EagleProbeRatio
	case Sparrow:
		c.ShortFraction = 0
	case Hopper:
		c.ShortFraction, c.ProbeRatio = 0, HopperProbeRatio
		c.Beta, c.Eps = HopperBeta, HopperEps
	}
	return c
}

// An Execution is one run of a task on a node: when the entry that
// launched it (the short job's probe, the long task's placeholder) joined
// the node's queue, when the task started and when it ended. Copy marks a
// speculative copy (Hopper) and Killed a copy stopped because another copy
// of its task finished first.
type Execution struct {
	Job, Task, Node    int
	Queued, Start, End float64
	Copy, Killed       bool
}

// Stats are the simulator's counters: Eagle's Table 2 and utilisation.
type Stats struct {
	// Probes is the number of short-job probes sent (first placement).
	Probes int64
	// ProbesBehindLong counts probes queued at a node that had a long task
	// running or queued at that moment (Table 2, "# Probes behind long
	// task"). Eagle with SSS rejects such probes in its first two rounds;
	// after the second rejection they are placed in the short partition,
	// which no long task enters, so it is 0 — unless the short partition is
	// empty (ShortFraction 0), when the fallback places them over every
	// node and some queue behind long tasks (TestSimulateFallback).
	ProbesBehindLong int64
	// ShortAfterLong counts short tasks launched from a probe that had
	// waited behind a long task at that node (Table 2, "# Short tasks exec
	// after long"): head-of-line blocking not rescued by stealing.
	ShortAfterLong int64
	// Rescheduled counts probes re-scheduled: Eagle's re-placements of
	// rejected probes (both rounds), Hawk's stolen probes (Table 2, "#
	// Re-scheduled probes").
	Rescheduled int64
	// Fallback counts Eagle's probes rejected twice and sent to the short
	// partition (a part of Rescheduled).
	Fallback int64
	// StolenByShort counts the probes stolen by short-partition nodes (a
	// part of Rescheduled; Hawk with AllThieves only). It is the authors'
	// simulator's STATS_TOTAL_STOLEN_S_FROM_B_PROBES.
	StolenByShort int64
	// Tasks is the number of task executions, speculative copies and
	// killed ones included.
	Tasks int64
	// Copies counts speculative copies launched and Killed the executions
	// stopped because another copy of the task finished first (Hopper).
	Copies, Killed int64
	// BusyTime is the total time nodes spent executing tasks; Utilisation is
	// BusyTime / (Nodes × Makespan), Makespan the time from the first
	// submission to the last completion.
	BusyTime, Makespan, Utilisation float64
}

// A Result is the outcome of Simulate.
type Result struct {
	// Completion[j] is job j's completion time: from its submission to the
	// end of its last task (Eagle §2), in input order.
	Completion []float64
	// Class[j] is job j's class as the schedulers saw it.
	Class      []Class
	Stats      Stats
	Executions []Execution // with Config.RecordTasks, in order of completion
}

// ShortPartition returns the number of nodes in the short partition when a
// fraction of nodes nodes is reserved for short jobs: the shares
// fraction·nodes and (1−fraction)·nodes apportioned to whole nodes by
// alloc.Apportion (largest remainder; at a tie of .5 the short partition
// gets the node). O(1).
//
// Special cases: fraction 0 gives 0 and fraction 1 gives nodes. An error is
// returned for nodes < 0 or > MaxProbes and for a fraction outside [0, 1]
// or NaN.
func ShortPartition(nodes int, fraction float64) (int, error) {
	const fn = "probe.ShortPartition"
	if nodes < 0 || nodes > MaxProbes {
		return 0, check.Err(fn, check.Scalar, "nodes", float64(nodes), "must lie in [0, 2^31]")
	}
	if err := check.Unit(fn, check.Scalar, "fraction", fraction); err != nil {
		return 0, err
	}
	return shortPartition(nodes, fraction), nil
}

// shortPartition is ShortPartition's kernel, for nodes in [0, MaxProbes]
// and fraction in [0, 1] (validateSim checks a Config's). O(1).
func shortPartition(nodes int, fraction float64) int {
	short := fraction * float64(nodes)
	parts := make([]int, 2)
	selection.Apportion(new(selection.Workspace), parts, []float64{short, float64(nodes) - short}, nodes, nil)
	return parts[0]
}

// entry is one element of a node's queue.
type entry struct {
	long     bool
	blocked  bool // a long task was running or queued ahead when it joined
	job      int
	task     int // long entries: the task
	id       int // short entries: probe id
	bypassed float64
	queued   float64 // when it joined this node's queue
}

type nodeState struct {
	id       int // the node's index in the cluster
	queue    []entry
	busy     bool // running a task or waiting for a scheduler's reply
	longs    int  // long tasks queued or running here
	runLong  bool
	start    float64
	queued   float64 // when the running task's entry joined the queue
	job      int
	task     int
	copy     bool // the running task is a speculative copy
	version  int
	snap     int // index in snapshots of the latest SSS vector received (Eagle)
	stealing bool
}

type jobState struct {
	class    Class
	est      float64
	next     int // next task to hand out
	done     int
	finished bool
	// Eagle's rejection bookkeeping, per round (0: first placement, 1:
	// re-placement).
	// freshest is the index in snapshots of the freshest vector the
	// round's rejecting nodes held (0, the first snapshot, until one
	// rejects; a round's probes are sent together, once per job, so it
	// needs no reset). Snapshots are indexed in publication order, so the
	// larger index is the fresher vector, also between two published at
	// one instant (equal Time): the central publishes one after each
	// change.
	rejected [2]int
	freshest [2]int
}

type simulator struct {
	cfg    Config
	jobs   []Job
	order  []int // job indices by submission time
	rng    *rand.Rand
	ws     Workspace
	events eventQueue
	// nodes holds the state of the nodes that hold or have held work, in
	// order of first use, and slotOf maps a node's index to its place
	// there; events name nodes by that place. With slotOf nil (a cluster
	// within denseFactor of the work) nodes has every node, in index
	// order, and a node's place is its index.
	nodes   []nodeState
	slotOf  map[int]int
	js      []jobState
	general int // nodes 0..general−1 form the general partition
	// centralized scheduler (Eagle, Hawk)
	lwl          *lwlState
	centralLongs []int
	centralWork  []float64
	vec          *StateVector // the central's current vector
	published    *StateVector // last snapshot sent
	snapshots    []*StateVector
	// scratch
	targets []int
	qp      []QueuedProbe
	counts  []float64
	longs   []bool
	stolen  [][]entry
	nextID  int
	// decentralized Hopper: per-task copies, the active jobs' view
	taskBase   []int     // job j's tasks are taskBase[j] … taskBase[j+1]−1
	taskCopies []int     // copies running or requested
	taskDone   []bool    // a copy finished
	taskFirst  []float64 // start of the task's first copy
	copyNodes  [][2]int  // nodes running the task's copies (−1: none)
	maxCopies  int
	active     []int     // jobs submitted and not finished
	activePos  []int     // job → index in active, −1 if not active
	hRemaining []float64 // per active index: unfinished tasks
	hRunning   []float64 // per active index: executions running
	queuedPos  []int     // scratch: active indices of the queued jobs
	firstEntry []int     // scratch: queue position of each queued job's first entry
	// totalRemaining is Σ hRemaining; hTargets are the ε-fair targets of
	// the view at viewVersion targetsVersion; speculation is the factor
	// 2/β of a virtual size (speculationFactor).
	totalRemaining              float64
	speculation                 float64
	hTargets                    []float64
	viewVersion, targetsVersion int
	// sparse forces the sparse layout of s.nodes (tests).
	sparse bool
	// verifyPicks makes hopperPick check every decision against the
	// exported HopperPick on the same view; mismatches counts differences.
	verifyPicks bool
	mismatches  int
	res         *Result
	err         error // a time lost to rounding (at): the run stops
	// maxOver is the largest Bypassed − Cap seen after a decision: tests
	// check it stays ≤ 0 (the starvation cap holds).
	maxOver float64
	first   float64
	last    float64
}

// Simulate runs the node-queue simulator of Eagle §2 and §5 on jobs under
// cfg and returns per-job completion times and the counters of Table 2.
//
// The model: Nodes worker nodes with one slot and one queue each. A job
// arrives at its Submit time with its tasks' actual durations and an
// estimated mean task duration (optionally mis-estimated, §6.5), from
// which it is classified. Every message (a probe, a long task, a getTask
// request, its reply, a rejection, a completion notice, stolen probes)
// takes NetworkDelay; scheduling decisions take no time (§5). A node
// serving a short probe asks the job's scheduler for a task and stays
// reserved until the reply comes (late binding, 2 × NetworkDelay); tasks
// are handed out in index order. Schedulers keep their probes' remaining
// task counts up to date (§4.3), so a node drops the probe of a job with no
// task left without asking. Long tasks go to the general partition by LWL
// on the central scheduler's estimates (placeholders in the node queue).
//
// Policies. Eagle: first placement of max{K, 2t} probes uniformly at
// random (PlaceProbes); a node holding a long task rejects a probe and
// returns its StateVector; the scheduler re-places the round's rejected
// probes among the nodes free of long tasks per the freshest vector
// (ReplaceProbes), and probes rejected again go to the short partition
// (PlaceProbes). The central scheduler piggybacks a snapshot of its vector,
// stamped with the time, on every long task; it sets a node's bit when it
// places a long task there and clears it when it learns the node's last
// long task finished. Nodes choose by GetProbeFromQueue (SRPT with the
// starvation cap), and a probe stays until its job has no task left (SBP).
// Hawk: 2t probes over all nodes, FIFO, one task per probe, and an idle
// general-partition node (any idle node with Thieves = AllThieves) with
// nothing queued tries StealAttempts random general-partition nodes and
// takes the first batch of short probes behind a long task (StealBatch).
// Probe targets are distinct nodes, or drawn with replacement with
// Sampling = WithReplacement, at every placement of every policy. Sparrow: 2t probes per job, all jobs, FIFO.
// Hopper: ⌈4t⌉ requests per job over all nodes, each launching one task or
// copy; a free worker serves the queued job HopperPick chooses, given the
// exact state (unfinished tasks, running copies) of every active job and S
// = Nodes; a job whose tasks are all running answers with a speculative
// copy of its longest-running task that has run at least its estimate and
// has one copy (at most ⌈2/β⌉ = 2 copies per task, none for β ≥ 2); a copy's
// duration is a fresh draw from the job's task durations; the first copy to
// finish completes the task and the other is killed. A job's requests stay
// queued until it finishes (they are not cancelled, §6.1), so spare slots
// go to copies.
//
// Randomness comes only from rng; events at the same time are processed in
// the order they were scheduled, so a seed fixes the run. Jobs are taken in
// order of Submit (stable for equal times).
//
// Complexity: O(E log E) for E events (about 3 per task plus one per
// probe), plus O(L) per scheduling decision at a node with L queued entries
// (Algorithm 1 scans the queue), plus O(L/64) per long-job placement for
// the state-vector snapshot, L ≤ the long tasks placed so far; Hopper adds
// O(J) per decision for the ε-fair targets of the J active jobs
// (recomputed only when the jobs' remaining tasks changed) and O(tasks of
// the job) per speculation request. Memory is O(jobs + tasks + probes):
// state is kept only for the nodes that hold or have held work, so time
// and memory do not grow with Nodes (2 jobs on 2³¹−1 nodes cost what they
// cost on 1 000).
//
// Special cases: no jobs gives an empty Result. An error is returned for
// Nodes < 1, ShortFraction outside [0, 1) or a short partition that leaves
// Eagle or Hawk no general node while some job is long, a Threshold that is
// NaN or negative, a NetworkDelay outside [0, MaxTime], MinProbes < 0, a
// ProbeRatio that is not finite and > 0, a StarvationFactor or
// mis-estimation bound outside [0, MaxFactor] (with MisestimateMin ≤
// MisestimateMax), StealAttempts < 0, Hopper's β ≤ 1 or ε outside [0, 1],
// an unknown policy, Sampling or Thieves, a nil rng, and a job with no task, more probes than
// MaxProbes (⌈ProbeRatio·tasks⌉ > 2³¹), or a Submit, EstTask or duration
// outside [0, MaxTime].
//
// Dynamic range. The clock is a float64 count of seconds from time 0, so
// it resolves about 2⁻⁵² of its value: 1.2e-4 s at t = 10¹² s. A positive
// duration, network delay or estimate that, added to the clock, would
// change it by less than half of itself (a 1e-300 s task submitted at t =
// 1e-150 s, a 1e-5 s task at t = 10¹² s) cannot be simulated faithfully —
// the task would end when it started, its job complete in zero time — and
// Simulate returns an InputError naming the job and field (Durations,
// EstTask) or NetworkDelay instead of such a result. Rounding below that
// (each event time off by at most half an ulp of the clock) is the
// model's.
func Simulate(jobs []Job, cfg Config, rng *rand.Rand) (*Result, error) {
	s, err := simulate(jobs, cfg, rng)
	if err != nil {
		return nil, err
	}
	return s.res, nil
}

// simulate runs Simulate and returns the simulator's final state; set
// applies test settings (such as verifyPicks or sparse) before the run.
func simulate(jobs []Job, cfg Config, rng *rand.Rand, set ...func(*simulator)) (*simulator, error) {
	factor, err := validateSim(jobs, cfg, rng)
	if err != nil {
		return nil, err
	}
	s := &simulator{cfg: cfg, jobs: jobs, rng: rng, speculation: factor, res: &Result{
		Completion: make([]float64, len(jobs)),
		Class:      make([]Class, len(jobs)),
	}}
	for _, f := range set {
		f(s)
	}
	if err := s.init(); err != nil {
		return nil, err
	}
	s.run()
	if s.err != nil {
		return nil, s.err
	}
	return s, nil
}

// Validate returns the *specsched.InputError Simulate would return for
// cfg whatever the jobs, naming the Config field (Func
// "probe.Config.Validate"), or nil. Simulate can still reject a valid cfg
// for a workload: a ShortFraction that leaves no general-partition node
// when a job is long, a ProbeRatio that gives a job more than MaxProbes
// probes. O(1).
func (cfg Config) Validate() error {
	_, err := cfg.validate("probe.Config.Validate")
	return err
}

// validate checks cfg for the function fn and returns decentralized
// Hopper's speculation factor 2/β (speculationFactor; 0 for the other
// policies), the one value the checks derive.
func (cfg Config) validate(fn string) (float64, error) {
	switch {
	case cfg.Policy > Hopper:
		return 0, check.Err(fn, check.Scalar, "Policy", float64(cfg.Policy), "unknown policy")
	case cfg.Nodes < 1 || cfg.Nodes > MaxProbes:
		return 0, check.Err(fn, check.Scalar, "Nodes", float64(cfg.Nodes), "must lie in [1, 2^31]")
	case !(cfg.ShortFraction >= 0 && cfg.ShortFraction < 1):
		return 0, check.Err(fn, check.Scalar, "ShortFraction", cfg.ShortFraction, "must lie in [0, 1)")
	case math.IsNaN(cfg.Threshold) || cfg.Threshold < 0:
		return 0, check.Err(fn, check.Scalar, "Threshold", cfg.Threshold, "must be ≥ 0 (+Inf allowed)")
	case cfg.MinProbes < 0 || cfg.MinProbes > MaxProbes:
		return 0, check.Err(fn, check.Scalar, "MinProbes", float64(cfg.MinProbes), "must lie in [0, 2^31]")
	case cfg.StealAttempts < 0 || cfg.StealAttempts > MaxProbes:
		return 0, check.Err(fn, check.Scalar, "StealAttempts", float64(cfg.StealAttempts), "must lie in [0, 2^31]")
	case cfg.Sampling > WithReplacement:
		return 0, check.Err(fn, check.Scalar, "Sampling", float64(cfg.Sampling), "unknown sampling")
	case cfg.Thieves > AllThieves:
		return 0, check.Err(fn, check.Scalar, "Thieves", float64(cfg.Thieves), "unknown thieves")
	case cfg.MisestimateMin > cfg.MisestimateMax:
		return 0, check.Err(fn, check.Scalar, "MisestimateMin", cfg.MisestimateMin, "must be ≤ MisestimateMax")
	}
	if err := check.Positive(fn, check.Scalar, "ProbeRatio", cfg.ProbeRatio); err != nil {
		return 0, err
	}
	var factor float64
	if cfg.Policy == Hopper {
		var err error
		if factor, err = speculationFactor(fn, "Beta", cfg.Beta); err != nil {
			return 0, err
		}
		if err := check.Unit(fn, check.Scalar, "Eps", cfg.Eps); err != nil {
			return 0, err
		}
	}
	for _, f := range [...]struct {
		name string
		v    float64
		max  float64
	}{{"NetworkDelay", cfg.NetworkDelay, MaxTime}, {"StarvationFactor", cfg.StarvationFactor, MaxFactor},
		{"MisestimateMin", cfg.MisestimateMin, MaxFactor}, {"MisestimateMax", cfg.MisestimateMax, MaxFactor}} {
		if err := bounded(fn, check.Scalar, f.name, f.v, f.max); err != nil {
			return 0, err
		}
	}
	return factor, nil
}

// validateSim checks Simulate's arguments (cfg by Config.validate, then
// rng and the jobs), everything the run's kernels (classify, probeCount,
// placeProbes, replaceProbes, getProbeFromQueue, hopperChoose) assume, and
// returns decentralized Hopper's speculation factor.
func validateSim(jobs []Job, cfg Config, rng *rand.Rand) (float64, error) {
	const fn = "probe.Simulate"
	factor, err := cfg.validate(fn)
	if err != nil {
		return 0, err
	}
	if rng == nil {
		return 0, check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	for j := range jobs {
		job := &jobs[j]
		if err := bounded(fn, j, "Submit", job.Submit, MaxTime); err != nil {
			return 0, err
		}
		if err := bounded(fn, j, "EstTask", job.EstTask, MaxTime); err != nil {
			return 0, err
		}
		if len(job.Durations) == 0 || len(job.Durations) > MaxProbes {
			return 0, check.Err(fn, j, "len(Durations)", float64(len(job.Durations)), "must lie in [1, 2^31]")
		}
		if batchProbes(len(job.Durations), cfg.ProbeRatio) > MaxProbes {
			// Before, the job silently sent no probe and never ran.
			return 0, check.Err(fn, j, "ProbeRatio·len(Durations)", cfg.ProbeRatio*float64(len(job.Durations)), "must be ≤ 2^31 probes (MaxProbes)")
		}
		for _, d := range job.Durations {
			if err := bounded(fn, j, "Durations", d, MaxTime); err != nil {
				return 0, err
			}
		}
	}
	return factor, nil
}

// MaxTime bounds every time the simulator takes (submission times, task
// durations and estimates, the network delay): 10¹² s, some 30 000 years.
// Sums of up to 2³¹ such times per node stay finite and exact to well
// below a microsecond at realistic magnitudes.
const MaxTime = 1e12

// MaxFactor bounds the simulator's multipliers (StarvationFactor, the
// mis-estimation factors), so that factor × MaxTime stays finite.
const MaxFactor = 1e6

// bounded returns an *InputError unless 0 ≤ v ≤ hi (so v is not NaN).
func bounded(fn string, index int, field string, v, hi float64) error {
	if !(v >= 0 && v <= hi) {
		return check.Err(fn, index, field, v, "must lie in [0, "+strconv.FormatFloat(hi, 'g', -1, 64)+"]")
	}
	return nil
}

func (s *simulator) init() error {
	cfg := s.cfg
	s.js = make([]jobState, len(s.jobs))
	s.initNodes()
	s.general = cfg.Nodes
	if cfg.Policy == Eagle || cfg.Policy == Hawk {
		s.general = cfg.Nodes - shortPartition(cfg.Nodes, cfg.ShortFraction)
	}
	misestimate := cfg.MisestimateMin != 0 || cfg.MisestimateMax != 0
	factor := distuv.Uniform{Min: cfg.MisestimateMin, Max: cfg.MisestimateMax, Src: s.rng}
	anyLong := false
	for j := range s.jobs {
		est := s.jobs[j].EstTask
		if misestimate {
			est *= factor.Rand()
		}
		class := classify(est, cfg.Threshold)
		s.js[j] = jobState{class: class, est: est}
		s.res.Class[j] = class
		anyLong = anyLong || class == Long
	}
	if anyLong && s.general == 0 {
		return check.Err("probe.Simulate", check.Scalar, "ShortFraction", cfg.ShortFraction, "leaves no general-partition node for long jobs")
	}
	if cfg.Policy == Eagle || cfg.Policy == Hawk {
		s.lwl = newLWLState(s.general)
		s.vec = newStateVector(cfg.Nodes, 0)
	}
	if cfg.Policy == Hopper {
		s.initHopper()
	}
	s.order = make([]int, len(s.jobs))
	for j := range s.order {
		s.order[j] = j
	}
	slices.SortStableFunc(s.order, func(a, b int) int { return cmp.Compare(s.jobs[a].Submit, s.jobs[b].Submit) })
	if len(s.order) > 0 {
		s.first = s.jobs[s.order[0]].Submit
		s.last = s.first
	}
	return nil
}

// run processes events until none is left. Job arrivals are fed one at a
// time so the heap holds only pending events.
func (s *simulator) run() {
	nextArrival := 0
	for s.err == nil {
		if s.events.lostAny {
			s.err = s.lostError()
			break
		}
		if nextArrival < len(s.order) {
			j := s.order[nextArrival]
			if s.events.len() == 0 || s.jobs[j].Submit <= s.events.next() {
				nextArrival++
				s.arrive(s.jobs[j].Submit, j)
				continue
			}
		}
		if s.events.len() == 0 {
			break
		}
		s.handle(s.events.pop())
	}
	st := &s.res.Stats
	st.Makespan = s.last - s.first
	if st.Makespan > 0 {
		st.Utilisation = st.BusyTime / (float64(s.cfg.Nodes) * st.Makespan)
	}
}

// at schedules event e delay after base. A positive delay that the
// clock's rounding would absorb (lost) is recorded by the queue, and run
// stops with an InputError (lostError): a task's duration (evFinish, of
// e.job) or the network delay.
func (s *simulator) at(base, delay float64, e event) {
	s.events.push(base, delay, e)
}

// lostError is the InputError for the first delay the queue found lost.
func (s *simulator) lostError() error {
	q := &s.events
	if q.lost.kind == evFinish {
		return lostErr(q.lost.job, "Durations", q.lostDelay, q.lostAt)
	}
	return lostErr(check.Scalar, "NetworkDelay", s.cfg.NetworkDelay, q.lostAt)
}

// lost reports whether adding d > 0 to the clock at base changes it by
// less than d/2: the clock keeps 53 bits, so a time below about 2⁻⁵² of it
// (1e-4 s at t = 10¹² s; 1e-300 s at t = 1e-150 s) would vanish and a task
// of positive duration would end when it started. (base+d)−base is exact
// when base ≥ d (Sterbenz) and close to d otherwise; doubling it (exact)
// rather than halving d keeps the test right for d = 5e-324.
func lost(base, d float64) bool { return d > 0 && 2*((base+d)-base) < d }

// lostErr is the InputError for a time lost to the clock's rounding.
func lostErr(index int, field string, v, clock float64) error {
	return check.Err("probe.Simulate", index, field, v, "lost to rounding: added to the clock at t = "+
		strconv.FormatFloat(clock, 'g', -1, 64)+" it changes it by less than half of itself (the simulator's float64 clock resolves about 2^-52 of its value)")
}

func (s *simulator) handle(t float64, e event) {
	switch e.kind {
	case evProbe:
		s.probeArrives(t, e.node, e.job, int(e.round))
	case evReject:
		s.rejections(t, e.job, int(e.round))
	case evLong:
		s.longArrives(t, e.node, e.job, e.task, e.snapshot())
	case evRequest:
		s.request(t, e.node, e.job, e.entry(), e.blocked)
	case evReply:
		s.reply(t, e.node, e.job, e.task, e.entry(), e.copy, e.blocked)
	case evFinish:
		s.finish(t, e.node, e.version())
	case evLongDone:
		s.longDone(t, e.node, e.job)
	case evStolen:
		s.stolenArrive(t, e.node, e.batch())
	}
}

// arrive submits job j at time t.
func (s *simulator) arrive(t float64, j int) {
	cfg := s.cfg
	js := &s.js[j]
	tasks := len(s.jobs[j].Durations)
	d := cfg.NetworkDelay
	if js.class == Long && (cfg.Policy == Eagle || cfg.Policy == Hawk) {
		// Place every task, then send each with one snapshot of the vector
		// as it stands after the whole job.
		s.targets = s.targets[:0]
		for k := 0; k < tasks; k++ {
			i := s.lwl.place(t, js.est)
			if s.lwl.lost && s.err == nil {
				s.err = lostErr(j, "EstTask", s.jobs[j].EstTask, t)
			}
			s.targets = append(s.targets, i)
			if i == len(s.centralLongs) { // the LWL prefix grew
				s.centralLongs = append(s.centralLongs, 0)
				s.centralWork = append(s.centralWork, 0)
			}
			s.centralLongs[i]++
			s.centralWork[i] += js.est
			if !s.vec.Long(i) {
				s.vec.SetLong(i, true)
				s.published = nil
			}
		}
		snap := s.snapshot(t)
		for k, i := range s.targets {
			s.at(t, d, longEvent(s.slot(i), j, k, snap))
		}
		return
	}
	if cfg.Policy == Hopper {
		s.activate(j)
	}
	minProbes := cfg.MinProbes
	if cfg.Policy != Eagle {
		minProbes = 0
	}
	n := probeCount(tasks, minProbes, cfg.ProbeRatio)
	s.res.Stats.Probes += int64(n)
	s.targets = placeProbes(s.targets, 0, cfg.Nodes, n, cfg.Sampling, s.rng, &s.ws)
	for _, i := range s.targets {
		s.at(t, d, event{kind: evProbe, node: s.slot(i), job: j})
	}
}

// snapshot returns the index of the central vector's current snapshot,
// publishing a new one (copy-on-write) when the vector changed since.
func (s *simulator) snapshot(t float64) int {
	if s.published == nil {
		s.published = s.vec.Clone(nil)
		s.published.Time = t
		s.snapshots = append(s.snapshots, s.published)
	}
	return len(s.snapshots) - 1
}

// probeArrives handles a short probe of job j reaching node i in a round.
func (s *simulator) probeArrives(t float64, i, j, round int) {
	n := &s.nodes[i]
	js := &s.js[j]
	if s.done(j) {
		return // nothing left to run: the scheduler cancels it
	}
	if s.cfg.Policy == Eagle && !s.cfg.NoSSS && round < 2 && n.longs > 0 {
		js.rejected[round]++
		js.freshest[round] = max(js.freshest[round], n.snap)
		if js.rejected[round] == 1 {
			s.at(t, s.cfg.NetworkDelay, event{kind: evReject, job: j, round: uint8(round)})
		}
		return
	}
	blocked := n.longs > 0
	if blocked {
		s.res.Stats.ProbesBehindLong++
	}
	n.queue = append(n.queue, entry{job: j, id: s.nextID, blocked: blocked, queued: t})
	s.nextID++
	s.tryStart(t, i)
}

// rejections re-places the probes of job j rejected in a round.
func (s *simulator) rejections(t float64, j, round int) {
	js := &s.js[j]
	k := js.rejected[round]
	js.rejected[round] = 0
	vec := s.snapshots[js.freshest[round]]
	if s.done(j) {
		return
	}
	st := &s.res.Stats
	st.Rescheduled += int64(k)
	s.targets = s.targets[:0]
	if round == 0 {
		s.targets = replaceProbes(s.targets, vec, k, s.cfg.Sampling, s.rng, &s.ws)
	}
	next := round + 1
	if len(s.targets) == 0 { // second rejection, or no node free: short partition
		next = 2
		st.Fallback += int64(k)
		first, count := s.general, s.cfg.Nodes-s.general
		if count == 0 {
			first, count = 0, s.cfg.Nodes
		}
		s.targets = placeProbes(s.targets, first, count, k, s.cfg.Sampling, s.rng, &s.ws)
	}
	for _, i := range s.targets {
		s.at(t, s.cfg.NetworkDelay, event{kind: evProbe, node: s.slot(i), job: j, round: uint8(next)})
	}
}

// longArrives queues long task k of job j at node i with the central's
// snapshot.
func (s *simulator) longArrives(t float64, i, j, k, snap int) {
	n := &s.nodes[i]
	n.queue = append(n.queue, entry{long: true, job: j, task: k, queued: t})
	n.longs++
	n.snap = snap
	s.tryStart(t, i)
}

// done reports whether job j's scheduler has nothing left to hand out: no
// unscheduled task, or for Hopper with speculation, the job finished (its
// requests may still launch copies until then). maxCopies > 1 only for
// Hopper with speculation (initHopper).
func (s *simulator) done(j int) bool {
	if s.maxCopies > 1 {
		return s.js[j].finished
	}
	return s.js[j].next == len(s.jobs[j].Durations)
}

// stale reports whether a short entry's job has nothing left to hand out.
func (s *simulator) stale(e *entry) bool {
	return !e.long && s.done(e.job)
}

// tryStart lets an idle node pick its next work.
func (s *simulator) tryStart(t float64, i int) {
	n := &s.nodes[i]
	if n.busy {
		return
	}
	// Drop probes of jobs with nothing left (their schedulers cancelled them).
	q := n.queue[:0]
	for k := range n.queue {
		if !s.stale(&n.queue[k]) {
			q = append(q, n.queue[k])
		}
	}
	clear(n.queue[len(q):])
	n.queue = q
	if len(q) == 0 {
		if s.cfg.Policy == Hawk && (n.id < s.general || s.cfg.Thieves == AllThieves) && !n.stealing {
			s.steal(t, i)
		}
		return
	}
	pick := 0
	switch {
	case s.cfg.Policy == Eagle && !s.cfg.NoSRPT:
		pick = s.choose(n)
	case s.cfg.Policy == Hopper:
		pick = s.hopperPick(n)
	}
	e := q[pick]
	if e.long {
		n.queue = slices.Delete(n.queue, pick, pick+1)
		s.start(t, i, e.job, e.task, true, e.queued)
		return
	}
	sticky := s.cfg.Policy == Eagle && !s.cfg.NoSBP
	if !sticky {
		n.queue = slices.Delete(n.queue, pick, pick+1)
	}
	n.busy = true
	n.queued = e.queued
	s.at(t, s.cfg.NetworkDelay, requestEvent(i, e.job, e.id, e.blocked))
}

// choose runs Algorithm 1 on node n's queue and stores the counters.
func (s *simulator) choose(n *nodeState) int {
	s.qp = s.qp[:0]
	for k := range n.queue {
		e := &n.queue[k]
		if e.long {
			s.qp = append(s.qp, QueuedProbe{Long: true})
			break // Algorithm 1 never looks further
		}
		js := &s.js[e.job]
		left := float64(len(s.jobs[e.job].Durations) - js.next)
		s.qp = append(s.qp, QueuedProbe{
			EstJobLeft: left * js.est, EstTask: js.est, Bypassed: e.bypassed,
			Cap: s.cfg.StarvationFactor * js.est,
		})
	}
	var pick int
	s.counts, pick = getProbeFromQueue(s.counts, s.qp)
	for k := 0; k < pick; k++ {
		n.queue[k].bypassed = s.counts[k]
		s.maxOver = max(s.maxOver, s.counts[k]-s.qp[k].Cap)
	}
	return pick
}

// request handles node i's getTask for job j at the job's scheduler.
func (s *simulator) request(t float64, i, j, id int, blocked bool) {
	js := &s.js[j]
	task, isCopy := -1, false
	if js.next < len(s.jobs[j].Durations) {
		task = js.next
		js.next++
		if s.cfg.Policy == Hopper {
			s.taskCopies[s.taskBase[j]+task]++
		}
	} else if s.cfg.Policy == Hopper && !js.finished {
		task = s.speculate(t, j)
		isCopy = task >= 0
	}
	s.at(t, s.cfg.NetworkDelay, replyEvent(i, j, task, id, isCopy, blocked))
}

// reply handles the scheduler's answer at node i to the getTask of the
// entry id: task of job j (−1: none), a speculative copy or not; blocked
// says the entry was queued behind a long task.
func (s *simulator) reply(t float64, i, j, task, id int, isCopy, blocked bool) {
	n := &s.nodes[i]
	n.busy = false
	if task >= 0 && s.cfg.Policy == Hopper && s.taskDone[s.taskBase[j]+task] {
		// Another copy finished while the reply travelled: nothing to run.
		s.taskCopies[s.taskBase[j]+task]--
		task = -1
	}
	if task < 0 {
		// No task left: a sticky probe leaves the queue.
		for k := range n.queue {
			if !n.queue[k].long && n.queue[k].id == id {
				n.queue = slices.Delete(n.queue, k, k+1)
				break
			}
		}
		s.tryStart(t, i)
		return
	}
	if blocked {
		s.res.Stats.ShortAfterLong++
	}
	n.copy = isCopy
	s.start(t, i, j, task, false, n.queued)
}

// start runs task k of job j on node i.
func (s *simulator) start(t float64, i, j, k int, long bool, queued float64) {
	n := &s.nodes[i]
	n.busy, n.runLong, n.start, n.job, n.task, n.queued = true, long, t, j, k, queued
	n.version++
	duration := s.jobs[j].Durations[k]
	if s.cfg.Policy == Hopper {
		duration = s.startCopy(t, i, j, k, n.copy)
	} else {
		n.copy = false
	}
	s.at(t, duration, finishEvent(i, j, n.version))
}

// finish ends node i's execution, unless it was cancelled (version).
func (s *simulator) finish(t float64, i, version int) {
	n := &s.nodes[i]
	if !n.busy || n.version != version {
		return
	}
	j, k := n.job, n.task
	s.endExecution(t, i, false)
	killed := [2]int{-1, -1}
	if s.cfg.Policy == Hopper {
		killed = s.finishCopies(t, i, j, k)
		s.taskFinished(j)
	}
	js := &s.js[j]
	js.done++
	if js.done == len(s.jobs[j].Durations) {
		js.finished = true
		s.res.Completion[j] = t - s.jobs[j].Submit
		s.last = max(s.last, t)
		if s.cfg.Policy == Hopper {
			s.deactivate(j)
		}
	}
	if n.runLong {
		n.longs--
		n.runLong = false
		s.at(t, s.cfg.NetworkDelay, event{kind: evLongDone, node: n.id, job: j})
	}
	s.tryStart(t, i)
	for _, v := range killed {
		if v >= 0 {
			s.tryStart(t, v)
		}
	}
}

// endExecution ends node i's current execution at t: accounting, record,
// the node freed (its pending finish event becomes stale).
func (s *simulator) endExecution(t float64, i int, killed bool) {
	n := &s.nodes[i]
	st := &s.res.Stats
	st.Tasks++
	st.BusyTime += t - n.start
	if killed {
		st.Killed++
	}
	if s.cfg.RecordTasks {
		s.res.Executions = append(s.res.Executions, Execution{
			Job: n.job, Task: n.task, Node: n.id, Queued: n.queued, Start: n.start, End: t,
			Copy: n.copy, Killed: killed,
		})
	}
	if s.cfg.Policy == Hopper {
		s.hRunning[s.activePos[n.job]]--
	}
	n.busy = false
	n.version++
}

// longDone tells the central scheduler a long task of job j finished at
// node i.
func (s *simulator) longDone(t float64, i, j int) {
	s.centralLongs[i]--
	s.centralWork[i] -= s.js[j].est
	if s.centralLongs[i] == 0 {
		s.centralWork[i] = 0
		s.vec.SetLong(i, false)
		s.published = nil
	}
	if lost(t, s.centralWork[i]) && s.err == nil {
		s.err = lostErr(j, "EstTask", s.jobs[j].EstTask, t)
	}
	s.lwl.set(i, t+s.centralWork[i], t)
}

// steal is Hawk's randomized work stealing by the idle node at place i:
// each attempt draws a victim uniformly among the general-partition nodes
// other than the thief (a short-partition thief, with AllThieves, among
// all of them).
func (s *simulator) steal(t float64, i int) {
	n := &s.nodes[i]
	inGeneral := n.id < s.general
	others := s.general // victims the thief may draw
	if inGeneral {
		others--
	}
	if others < 1 {
		return
	}
	for a := 0; a < s.cfg.StealAttempts; a++ {
		v := s.rng.IntN(others)
		if inGeneral && v >= n.id {
			v++
		}
		vs, ok := s.find(v)
		if !ok {
			continue // never had work: nothing is blocked
		}
		victim := &s.nodes[vs]
		if victim.longs == 0 {
			continue // no long task: nothing is blocked
		}
		// StealBatch looks no further than the end of the first batch:
		// hand it that prefix only.
		s.longs = s.longs[:0]
		seenLong, inBatch := victim.busy && victim.runLong, false
		for k := range victim.queue {
			long := victim.queue[k].long
			if long && inBatch {
				break
			}
			s.longs = append(s.longs, long)
			seenLong = seenLong || long
			inBatch = inBatch || (seenLong && !long)
		}
		start, end := StealBatch(s.longs, victim.busy && victim.runLong)
		if start == end {
			continue
		}
		batch := slices.Clone(victim.queue[start:end])
		victim.queue = slices.Delete(victim.queue, start, end)
		s.res.Stats.Rescheduled += int64(end - start)
		if !inGeneral {
			s.res.Stats.StolenByShort += int64(end - start)
		}
		s.stolen = append(s.stolen, batch)
		n.stealing = true
		s.at(t, 2*s.cfg.NetworkDelay, stolenEvent(i, len(s.stolen)-1))
		return
	}
}

// stolenArrive queues stolen probes at the thief.
func (s *simulator) stolenArrive(t float64, i, b int) {
	n := &s.nodes[i]
	for _, e := range s.stolen[b] {
		e.blocked = n.longs > 0
		e.queued = t
		n.queue = append(n.queue, e)
	}
	s.stolen[b] = nil
	n.stealing = false
	s.tryStart(t, i)
}
