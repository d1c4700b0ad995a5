package competitive

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
)

// Algorithm is the scheduler a simulation runs.
type Algorithm uint8

const (
	AlgorithmSEW   Algorithm = iota // SEW, Algorithm 1: map and reduce groups, jobs by Υ_j
	AlgorithmSREWC                  // SREW+C(β), Algorithm 2, with Config.Beta
	AlgorithmFair                   // the Fair scheduler: SREW+C(1), every active job M/N machines (§4.1)
)

var algorithmNames = []string{AlgorithmSEW: "SEW", AlgorithmSREWC: "SREW+C", AlgorithmFair: "Fair"}

// String returns "SEW", "SREW+C" or "Fair".
func (a Algorithm) String() string { return enum.Name(a, algorithmNames, "Algorithm") }

// SimJob is a MapReduce job of the simulation: it arrives at the end of
// slot Arrival (a_j) and can run from the next slot; it has MapTasks map
// tasks of MapWork work each and ReduceTasks reduce tasks of ReduceWork
// work each (p_j^m, p_j^r: slots on a unit-speed machine, §2.1).
type SimJob struct {
	Arrival     int
	MapTasks    int
	ReduceTasks int
	MapWork     float64
	ReduceWork  float64
}

// Config describes the simulated cluster and scheduler.
type Config struct {
	Machines  int       // M ≥ 1 (≥ 2 for SEW)
	Algorithm Algorithm // SEW, SREW+C(β) or Fair
	Beta      float64   // β ∈ (0, 1] for AlgorithmSREWC; ignored otherwise
	Lambda    float64   // λ ≥ 0, the variance factor of Υ
	Mode      Mode      // Preemptive: checkpointing (eq. 6); NonPreemptive: independent copies (eq. 1, 5)
	Speed     float64   // δ > 0, the resource augmentation: service per slot δ·X_i(t); 0 means 1
	Sigma     float64   // σ ≥ 0, the standard deviation of X_i(t)
	Peak      float64   // Δ ≥ 1, the peak of X_i(t); 0 means 1; σ > 0 needs σ² < Δ − 1
	MaxSlots  int       // give up (with an error) after this many slots; 0 means a generous default
	Baseline  Baseline  // a straggler-mitigation baseline of §5 (needs AlgorithmFair and NonPreemptive); BaselineNone: Algorithm's own rule
}

// Stats summarises a simulation run.
type Stats struct {
	Slots            int // the last slot simulated: the one in which the last job finished
	ActiveSlots      int // slots with at least one active job
	BusyMachineSlots int // Σ over slots of the machines running a copy
	Launched         int // copies started on unscheduled tasks
	Cloned           int // copies added to running tasks
	Preempted        int // copies stopped by preemption
	TasksFinished    int // tasks completed, each counted once
}

// MaxSimTasks is the largest number of tasks, over all jobs, that Simulate
// accepts (its memory grows with the number of tasks).
const MaxSimTasks = 1 << 22

// MaxSimMachines is the largest cluster Simulate accepts (each slot costs
// O(M) service draws).
const MaxSimMachines = 1 << 20

// maxSimSlot bounds arrivals and MaxSlots so that slot numbers stay exact
// and the default slot cap cannot overflow.
const maxSimSlot = 1 << 40

// workTol is the relative tolerance with which a task's accumulated service
// reaches its work: with speed δ the service δ·X accumulates float64
// rounding (10 slots of 1.7 sum to 16.999999999999996, not 17).
const workTol = 1e-9

// A Result is the outcome of Simulate.
type Result struct {
	// Flowtime[j] is job j's flowtime Φ_j − a_j in slots, in input order.
	Flowtime []int
	Stats    Stats
}

// An InvariantError reports a broken invariant of Simulate's engine (see
// Simulate: conservation of tasks, copies and machines): a bug of this
// package, never a fault of the caller's input, which Simulate reports as
// an *specsched.InputError before simulating. The tests check that no run
// returns one.
type InvariantError struct {
	Slot   int    // the slot simulated when the check failed
	Job    int    // the input index of the job concerned, or −1 for a check of the whole cluster or run
	Reason string // the invariant broken, e.g. "task launched twice"
}

// Error formats the error as "competitive.Simulate: slot t: job j:
// conservation violated: reason", leaving out the job when Job is −1.
func (e *InvariantError) Error() string {
	job := ""
	if e.Job >= 0 {
		job = fmt.Sprintf(" job %d:", e.Job)
	}
	return fmt.Sprintf("competitive.Simulate: slot %d:%s conservation violated: %s", e.Slot, job, e.Reason)
}

// Simulate runs the time-slotted model of Xu et al., §2, and returns every
// job's flowtime Φ_j − a_j (in slots) and the run's counters.
//
// The cluster has M identical machines. In every slot each machine running
// a copy of a task delivers δ·X_i(t) units of work, X_i(t) i.i.d. over
// machines and slots with mean 1, standard deviation σ and peak Δ: X ≡ 1
// when σ = 0 (Δ = 1 is deterministic service), and otherwise X = Δ·B with
// B ~ Beta (gonum distuv) of mean 1/Δ and variance σ²/Δ², the only Beta
// law with the required moments on [0, Δ] (it needs σ² < Δ − 1, the
// largest variance a law on [0, Δ] with mean 1 can have). A task of work p
// finishes at the end of the slot in which its service reaches p, to
// within a relative 10⁻⁹ that absorbs the rounding of the summed service:
// when it is ≥ p·(1 − 10⁻⁹).
//
//   - Preemptive mode (§2.3): checkpointing — the copies of a task share
//     its progress, which grows each slot by the largest service among them
//     (eq. 6–7); a preempted task keeps its progress. SREW+C(β) and Fair
//     preempt (Algorithm 2 line 7); SEW never does.
//   - NonPreemptive mode (§2.2, §5): every copy progresses on its own from
//     0, the task finishes when its first copy does (eq. 1, 5); SREW+C(β)
//     and Fair run Algorithm 2 without line 7.
//
// At the start of each slot the policy sees a snapshot of the active jobs
// in arrival order (ties by input index, which is also the order in which
// ties in Υ are broken): Mean = p (eq. 3) and SD = σ·√(p + ½) (§2.1, the
// variance of a copy's execution time (p + ½)σ² for large p), and its
// actions are applied before the service is drawn. The copies of a task
// stop when it finishes; a job finishes with its last task (reduce tasks
// become runnable in the slot after its last map task finishes).
//
// Conservation is checked throughout: a task finishes exactly once and
// only when its service reaches its work, no task is launched twice, lost
// or started before its job's maps finish, no action names a task that is
// not in the state it requires, no more than M machines (⌈M/2⌉ and
// ⌊M/2⌋ per group under SEW) run copies in any slot, and at least one does
// while a job is active. A violation returns an *InvariantError naming the
// job and slot; it would be a bug, and the tests check that none occurs.
//
// With Config.Baseline the Fair scheduler shares the machines max-min and
// each job runs the baseline's in-job rule (Mantri, Dolly or GRASS, Xu et
// al. §5; see Baseline), which sees each running task's progress-rate
// estimate of its remaining time and how many copies it runs (every
// running copy has run at least one slot, so none is too young to judge).
//
// Randomness (the policies' choices and the service) comes from rng; a nil
// rng is allowed only with σ = 0 and makes the policies' choices
// deterministic.
//
// Complexity: O(Σ_t (n_t + w_t + M log M)) for n_t active jobs with w_t
// unfinished tasks in their current phases in slot t (the snapshot), plus
// a Beta draw per busy machine and slot when σ > 0. Memory O(N + tasks).
//
// Special cases: a job without tasks has flowtime 0. No jobs gives an empty
// result. An *specsched.InputError is returned for invalid
// configuration (M < 1, M = 1 under SEW, M > MaxSimMachines, an unknown algorithm or
// mode, β outside (0, 1] under SREW+C, an unknown Baseline or one without
// AlgorithmFair and NonPreemptive, λ < 0, δ < 0, Δ < 1, σ < 0, σ > 0
// with σ² ≥ Δ − 1, σ > 0 with a nil rng, MaxSlots < 0, any NaN or ±Inf), for
// a job with a negative or too large arrival or task count, more than
// MaxSimTasks tasks in all, a work ≤ 0, NaN or ±Inf for a phase with tasks,
// and when the run exceeds MaxSlots — up front,
// without simulating, when a task's work alone needs more slots than
// MaxSlots (or the default cap, at most 2^50) at δΔ per slot: when
// p·(1 − 2·10⁻⁹)/(δΔ) ≥ MaxSlots − a_j, which leaves a further 10⁻⁹ of p
// for rounding (a task within that margin of the bound is simulated, and
// the run ends with the MaxSlots error).
func Simulate(jobs []SimJob, cfg Config, rng *rand.Rand) (*Result, error) {
	const fn = "competitive.Simulate"
	cfg, err := checkConfig(fn, cfg, rng)
	if err != nil {
		return nil, err
	}
	totalTasks, defaultCap := 0, 64.0
	maxArrival := 0
	for j, job := range jobs {
		if job.Arrival < 0 || job.Arrival > maxSimSlot {
			return nil, check.Err(fn, j, "Arrival", float64(job.Arrival), "must lie in [0, 2^40]")
		}
		for s, ph := range [2]struct {
			tasks int
			work  float64
		}{{job.MapTasks, job.MapWork}, {job.ReduceTasks, job.ReduceWork}} {
			name := [2]string{"Map", "Reduce"}[s]
			if ph.tasks < 0 || ph.tasks > MaxSimTasks-totalTasks {
				return nil, check.Err(fn, j, name+"Tasks", float64(ph.tasks), "must be ≥ 0, with at most MaxSimTasks tasks in all")
			}
			if ph.tasks > 0 {
				if err := check.Positive(fn, j, name+"Work", ph.work); err != nil {
					return nil, err
				}
			} else if err := check.NonNegative(fn, j, name+"Work", ph.work); err != nil {
				return nil, err
			}
			totalTasks += ph.tasks
			if ph.tasks > 0 {
				defaultCap += 64 * float64(ph.tasks) * math.Ceil(ph.work/min(cfg.Speed, 1))
			}
		}
		maxArrival = max(maxArrival, job.Arrival)
	}
	maxSlots := cfg.MaxSlots
	if maxSlots == 0 {
		maxSlots = int(min(float64(maxArrival)+defaultCap, 1<<50))
	}
	// A task of work p runs at most δΔ per slot: a job that cannot finish
	// within maxSlots is rejected now rather than after maxSlots slots
	// (2^50 of them by default: years). At equality the task needs
	// p·(1 − workTol) > p·(1 − 2·workTol) = (maxSlots − a_j)·δΔ: rejected.
	// maxSlots − a_j is exact; a_j + slots could round up to maxSlots.
	for j, job := range jobs {
		for s, work := range [2]float64{job.MapWork, job.ReduceWork} {
			if [2]int{job.MapTasks, job.ReduceTasks}[s] == 0 {
				continue
			}
			if slots := work / (cfg.Speed * cfg.Peak) * (1 - 2*workTol); slots >= float64(maxSlots-job.Arrival) {
				return nil, check.Err(fn, j, [2]string{"MapWork", "ReduceWork"}[s], work, "needs more than MaxSlots slots at speed·peak per slot")
			}
		}
	}
	s := newSim(jobs, cfg, totalTasks, rng)
	if err := s.run(maxSlots); err != nil {
		return nil, err
	}
	return &Result{Flowtime: s.flow, Stats: s.stats}, nil
}

// checkConfig validates cfg and fills in its defaults.
func checkConfig(fn string, cfg Config, rng *rand.Rand) (Config, error) {
	minMachines := 1
	if cfg.Algorithm == AlgorithmSEW {
		minMachines = 2
	}
	if cfg.Machines < minMachines || cfg.Machines > MaxSimMachines {
		return cfg, check.Err(fn, check.Scalar, "Machines", float64(cfg.Machines), "must lie in [1, MaxSimMachines] ([2, MaxSimMachines] under SEW)")
	}
	if cfg.Algorithm > AlgorithmFair {
		return cfg, check.Err(fn, check.Scalar, "Algorithm", float64(cfg.Algorithm), "must be AlgorithmSEW, AlgorithmSREWC or AlgorithmFair")
	}
	if cfg.Algorithm == AlgorithmSREWC && !(cfg.Beta > 0 && cfg.Beta <= 1) {
		return cfg, check.Err(fn, check.Scalar, "Beta", cfg.Beta, "must lie in (0, 1]")
	}
	if cfg.Algorithm == AlgorithmFair {
		cfg.Beta = 1
	}
	if err := check.NonNegative(fn, check.Scalar, "Lambda", cfg.Lambda); err != nil {
		return cfg, err
	}
	if cfg.Mode > NonPreemptive {
		return cfg, check.Err(fn, check.Scalar, "Mode", float64(cfg.Mode), "must be Preemptive or NonPreemptive")
	}
	if cfg.Speed == 0 {
		cfg.Speed = 1
	}
	if err := check.Positive(fn, check.Scalar, "Speed", cfg.Speed); err != nil {
		return cfg, err
	}
	if cfg.Peak == 0 {
		cfg.Peak = 1
	}
	if err := checkPeak(fn, "Peak", cfg.Peak); err != nil {
		return cfg, err
	}
	if err := check.NonNegative(fn, check.Scalar, "Sigma", cfg.Sigma); err != nil {
		return cfg, err
	}
	if cfg.Sigma > 0 && !(cfg.Sigma*cfg.Sigma < cfg.Peak-1) {
		return cfg, check.Err(fn, check.Scalar, "Sigma", cfg.Sigma, "must satisfy sigma² < peak − 1: no law on [0, peak] with mean 1 varies more")
	}
	if cfg.Sigma > 0 {
		// The Beta law's shape parameters must be finite and > 0; rounding
		// can break that at the edges of σ² < Δ − 1 (σ tiny or σ² ≈ Δ − 1).
		a, b := betaShape(cfg.Sigma, cfg.Peak)
		if !(a > 0 && b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
			return cfg, check.Err(fn, check.Scalar, "Sigma", cfg.Sigma, "gives no usable Beta law for the service (too close to 0 or to sqrt(peak − 1))")
		}
	}
	if cfg.Sigma > 0 && rng == nil {
		return cfg, check.Err(fn, check.Scalar, "Sigma", cfg.Sigma, "random service needs a non-nil rng")
	}
	if cfg.Baseline > BaselineGRASS {
		return cfg, check.Err(fn, check.Scalar, "Baseline", float64(cfg.Baseline), "must be BaselineNone, BaselineMantri, BaselineDolly or BaselineGRASS")
	}
	if cfg.Baseline != BaselineNone && (cfg.Algorithm != AlgorithmFair || cfg.Mode != NonPreemptive) {
		return cfg, check.Err(fn, check.Scalar, "Baseline", float64(cfg.Baseline), "runs on AlgorithmFair in NonPreemptive mode only")
	}
	if cfg.MaxSlots < 0 || cfg.MaxSlots > maxSimSlot {
		return cfg, check.Err(fn, check.Scalar, "MaxSlots", float64(cfg.MaxSlots), "must lie in [0, 2^40]")
	}
	return cfg, nil
}

// betaShape returns the shape parameters (α, β) of the Beta law B for
// which Δ·B has mean 1 and standard deviation σ: B has mean μ = 1/Δ and
// variance v = σ²/Δ², so α + β = μ(1−μ)/v − 1, α = μ(α+β), β = (1−μ)(α+β).
func betaShape(sigma, peak float64) (float64, float64) {
	mu := 1 / peak
	v := (sigma / peak) * (sigma / peak)
	sum := mu*(1-mu)/v - 1
	return mu * sum, (1 - mu) * sum
}

// simTask is the state of one task.
type simTask struct {
	job      int32
	stage    Stage
	done     bool
	copies   int     // running copies
	alive    int32   // position in its job-phase's unfinished list
	runPos   int32   // position in sim.running (Preemptive mode), −1 if not running
	work     float64 // p
	progress float64 // shared progress (Preemptive mode)
}

// simCopy is one running copy in NonPreemptive mode.
type simCopy struct {
	task     int32
	start    int // the slot it was launched in: by the start of slot t it has run t − start slots
	progress float64
}

// simJob is the state of one job.
type simJob struct {
	arrival  int
	left     [2]int // unfinished tasks per phase
	aliveOff [2]int // the phase's unfinished list is alive[aliveOff:aliveOff+left]
	mean, sd [2]float64
	tasks    [2]int
}

type sim struct {
	cfg     Config
	rng     *rand.Rand
	beta    distuv.Beta
	jobs    []SimJob
	state   []simJob
	tasks   []simTask
	alive   []int32 // per job and phase, the unfinished tasks (swap-delete)
	running []int32 // Preemptive mode: tasks with copies > 0
	copies  []simCopy
	byTime  []int // jobs in (arrival, index) order
	active  []int // active jobs in (arrival, index) order
	flow    []int
	stats   Stats
	base    baselineState // Config.Baseline's memory

	busy  [2]int // machines running copies, per phase
	total int    // tasks in all

	// Snapshot buffers: Running slices point into runCopies, whose capacity
	// is fixed at the number of tasks so that they never move.
	snap      []Job
	runCopies []int
	runIDs    []int32
	unIDs     []int32
	runOff    []int
	unOff     []int
	actions   []Action
	ws        Workspace
	now       int
}

func newSim(jobs []SimJob, cfg Config, total int, rng *rand.Rand) *sim {
	s := &sim{cfg: cfg, rng: rng, jobs: jobs, total: total}
	if cfg.Sigma > 0 {
		a, b := betaShape(cfg.Sigma, cfg.Peak)
		s.beta = distuv.Beta{Alpha: a, Beta: b, Src: rng}
	}
	s.state = make([]simJob, len(jobs))
	s.tasks = make([]simTask, 0, total)
	s.alive = make([]int32, total)
	s.flow = make([]int, len(jobs))
	for j, job := range jobs {
		st := &s.state[j]
		st.arrival = job.Arrival
		counts := [2]int{job.MapTasks, job.ReduceTasks}
		works := [2]float64{job.MapWork, job.ReduceWork}
		for z := MapStage; z <= ReduceStage; z++ {
			st.tasks[z] = counts[z]
			st.left[z] = counts[z]
			st.aliveOff[z] = len(s.tasks)
			st.mean[z] = works[z]
			if cfg.Sigma > 0 {
				st.sd[z] = cfg.Sigma * math.Sqrt(works[z]+0.5)
			}
			for i := 0; i < counts[z]; i++ {
				id := int32(len(s.tasks))
				s.alive[id] = id
				s.tasks = append(s.tasks, simTask{job: int32(j), stage: z, alive: int32(i), runPos: -1, work: works[z]})
			}
		}
	}
	s.byTime = make([]int, len(jobs))
	for j := range s.byTime {
		s.byTime[j] = j
	}
	slices.SortStableFunc(s.byTime, func(a, b int) int { return jobs[a].Arrival - jobs[b].Arrival })
	s.runCopies = make([]int, 0, total)
	return s
}

// violation reports a broken conservation invariant about job (−1: none)
// in slot s.now.
func (s *sim) violation(job int, reason string) error {
	return &InvariantError{Slot: s.now, Job: job, Reason: reason}
}

// run simulates the slots up to the last job's completion, leaving the
// flowtimes in s.flow and the counters in s.stats, or returns an error when
// the run passes maxSlots or an invariant breaks.
func (s *sim) run(maxSlots int) error {
	next := 0 // next job in byTime to arrive
	for t := 1; ; t++ {
		// Arrivals at the end of slot t−1 run from slot t.
		for next < len(s.byTime) && s.jobs[s.byTime[next]].Arrival <= t-1 {
			j := s.byTime[next]
			next++
			if s.state[j].left[MapStage]+s.state[j].left[ReduceStage] > 0 {
				s.active = append(s.active, j)
				s.baselineArrive(j)
			}
		}
		if len(s.active) == 0 {
			if next == len(s.byTime) {
				break
			}
			t = s.jobs[s.byTime[next]].Arrival // the loop's t++ makes it a_j + 1
			continue
		}
		if t > maxSlots {
			return check.Err("competitive.Simulate", check.Scalar, "MaxSlots", float64(maxSlots), "the run did not finish within MaxSlots slots")
		}
		s.now = t
		if err := s.slot(); err != nil {
			return err
		}
		s.stats.Slots = t
	}
	if s.stats.TasksFinished != s.total {
		return s.violation(-1, "tasks finished ≠ tasks")
	}
	return nil
}

// snapshot builds the policy's view of the active jobs.
func (s *sim) snapshot() {
	n := len(s.active)
	s.snap = slices.Grow(s.snap[:0], n)[:n]
	s.runOff = ints(s.runOff, n)
	s.unOff = ints(s.unOff, n)
	s.runCopies = s.runCopies[:0]
	s.runIDs = s.runIDs[:0]
	s.unIDs = s.unIDs[:0]
	for k, j := range s.active {
		st := &s.state[j]
		z := ReduceStage
		if st.left[MapStage] > 0 {
			z = MapStage
		}
		var job Job
		for y := MapStage; y <= ReduceStage; y++ {
			p := job.phase(y)
			p.Tasks, p.Mean, p.SD = st.tasks[y], st.mean[y], st.sd[y]
			if y != z {
				p.Unscheduled = st.left[y] // all of them (reduce) or none (map)
			}
		}
		s.runOff[k], s.unOff[k] = len(s.runIDs), len(s.unIDs)
		start := len(s.runCopies)
		for _, id := range s.alive[st.aliveOff[z] : st.aliveOff[z]+st.left[z]] {
			if c := s.tasks[id].copies; c > 0 {
				s.runCopies = append(s.runCopies, int(c))
				s.runIDs = append(s.runIDs, id)
			} else {
				s.unIDs = append(s.unIDs, id)
			}
		}
		p := job.phase(z)
		p.Running = s.runCopies[start:len(s.runCopies):len(s.runCopies)]
		p.Unscheduled = len(s.unIDs) - s.unOff[k]
		s.snap[k] = job
	}
}

// slot simulates slot s.now.
func (s *sim) slot() error {
	s.snapshot()
	m := s.cfg.Machines
	switch {
	case s.cfg.Baseline != BaselineNone:
		s.baselineSlot()
	case s.cfg.Algorithm == AlgorithmSEW:
		s.actions = s.ws.sewGroup(s.actions[:0], s.snap, MapStage, (m+1)/2-s.busy[MapStage], s.cfg.Lambda, s.rng)
		s.actions = s.ws.sewGroup(s.actions, s.snap, ReduceStage, m/2-s.busy[ReduceStage], s.cfg.Lambda, s.rng)
	default:
		allot := s.ws.validMachines(s.ws.allot, s.snap, m, s.cfg.Beta, s.cfg.Lambda)
		s.ws.allot = allot
		// No MaxActions check: a slot acts on at most M ≤ MaxSimMachines
		// copies and tasks, far below it.
		s.ws.grants(s.snap, allot, m, s.cfg.Lambda, s.cfg.Mode)
		s.actions = s.ws.emit(s.actions, s.snap, s.cfg.Mode, s.rng)
	}
	for _, a := range s.actions {
		if err := s.apply(a); err != nil {
			return err
		}
	}
	if err := s.checkCapacity(); err != nil {
		return err
	}
	if testHookSlot != nil {
		testHookSlot(s)
	}
	s.stats.BusyMachineSlots += s.busy[MapStage] + s.busy[ReduceStage]
	s.stats.ActiveSlots++
	if err := s.serve(); err != nil {
		return err
	}
	// Drop the jobs that finished, keeping arrival order.
	kept := s.active[:0]
	for _, j := range s.active {
		if st := &s.state[j]; st.left[MapStage]+st.left[ReduceStage] > 0 {
			kept = append(kept, j)
		}
	}
	s.active = kept
	return nil
}

// checkCapacity reports a slot that runs more copies than machines (or, under
// SEW, than a machine group holds).
func (s *sim) checkCapacity() error {
	m := s.cfg.Machines
	if s.busy[MapStage]+s.busy[ReduceStage] > m {
		return s.violation(-1, "more copies running than machines")
	}
	// Every policy keeps a machine busy while a job is active (SREW+C and
	// Fair hand out Σ g_j(t) = M ≥ 1; SEW's first job in Υ order can always
	// launch or clone in its phase's group): an idle cluster would stall
	// the run until MaxSlots.
	if s.busy[MapStage]+s.busy[ReduceStage] == 0 {
		return s.violation(-1, "no machine busy while a job is active")
	}
	if s.cfg.Algorithm == AlgorithmSEW && (s.busy[MapStage] > (m+1)/2 || s.busy[ReduceStage] > m/2) {
		return s.violation(-1, "a SEW machine group over-used")
	}
	return nil
}

// apply carries out one action on the snapshot s.snap.
func (s *sim) apply(a Action) error {
	if a.Job < 0 || a.Job >= len(s.active) || a.Copies < 1 {
		return s.violation(-1, "malformed action")
	}
	j := s.active[a.Job]
	st := &s.state[j]
	if a.Stage == ReduceStage && st.left[MapStage] > 0 {
		return s.violation(j, "reduce task scheduled before the maps finished")
	}
	var id int32
	switch a.Kind {
	case Launch:
		if a.Task < 0 || a.Task >= s.snap[a.Job].phase(a.Stage).Unscheduled {
			return s.violation(j, "launch of a task that is not unscheduled")
		}
		id = s.unIDs[s.unOff[a.Job]+a.Task]
		if s.tasks[id].copies != 0 {
			return s.violation(j, "task launched twice")
		}
		s.stats.Launched += a.Copies
	case Clone, Preempt:
		if a.Task < 0 || a.Task >= len(s.snap[a.Job].phase(a.Stage).Running) {
			return s.violation(j, "clone or preemption of a task that is not running")
		}
		id = s.runIDs[s.runOff[a.Job]+a.Task]
	default:
		return s.violation(j, "unknown action")
	}
	task := &s.tasks[id]
	if task.done || task.stage != a.Stage {
		return s.violation(j, "action on a finished task or the wrong phase")
	}
	if a.Copies > s.cfg.Machines {
		return s.violation(j, "more copies than machines")
	}
	c := a.Copies
	switch a.Kind {
	case Preempt:
		if s.cfg.Mode != Preemptive || c > task.copies {
			return s.violation(j, "preemption of copies that are not running")
		}
		task.copies -= c
		s.busy[task.stage] -= a.Copies
		s.stats.Preempted += a.Copies
		if task.copies == 0 {
			s.stopRunning(id)
		}
		return nil
	case Clone:
		if task.copies == 0 {
			return s.violation(j, "clone of a task that is not running")
		}
		s.stats.Cloned += a.Copies
	}
	if task.copies == 0 && s.cfg.Mode == Preemptive {
		task.runPos = int32(len(s.running))
		s.running = append(s.running, id)
	}
	task.copies += c
	s.busy[task.stage] += a.Copies
	if s.cfg.Mode == NonPreemptive {
		for i := 0; i < a.Copies; i++ {
			s.copies = append(s.copies, simCopy{task: id, start: s.now})
		}
	}
	return nil
}

// stopRunning removes task id from s.running.
func (s *sim) stopRunning(id int32) {
	pos := s.tasks[id].runPos
	last := s.running[len(s.running)-1]
	s.running[pos] = last
	s.tasks[last].runPos = pos
	s.running = s.running[:len(s.running)-1]
	s.tasks[id].runPos = -1
}

// draw returns δ·X_i(t) for one machine.
func (s *sim) draw() float64 {
	if s.cfg.Sigma == 0 {
		return s.cfg.Speed
	}
	return s.cfg.Speed * s.cfg.Peak * s.beta.Rand()
}

// serve delivers the slot's service and finishes tasks.
func (s *sim) serve() error {
	if s.cfg.Mode == Preemptive {
		for i := 0; i < len(s.running); {
			id := s.running[i]
			task := &s.tasks[id]
			w := 0.0
			for c := 0; c < task.copies; c++ {
				w = max(w, s.draw())
			}
			task.progress += w
			if task.progress >= task.work*(1-workTol) {
				if err := s.finish(id); err != nil { // swaps another task into position i
					return err
				}
				continue
			}
			i++
		}
		return nil
	}
	for i := range s.copies {
		c := &s.copies[i]
		c.progress += s.draw()
		if task := &s.tasks[c.task]; !task.done && c.progress >= task.work*(1-workTol) {
			if err := s.finish(c.task); err != nil {
				return err
			}
		}
	}
	kept := s.copies[:0]
	for _, c := range s.copies {
		if !s.tasks[c.task].done {
			kept = append(kept, c)
		}
	}
	s.copies = kept
	return nil
}

// finish completes task id at the end of slot s.now.
func (s *sim) finish(id int32) error {
	task := &s.tasks[id]
	j := int(task.job)
	if task.done {
		return s.violation(j, "task finished twice")
	}
	if task.copies == 0 {
		return s.violation(j, "task finished without a running copy")
	}
	task.done = true
	s.busy[task.stage] -= task.copies
	task.copies = 0
	if task.runPos >= 0 {
		s.stopRunning(id)
	}
	st := &s.state[j]
	z := task.stage
	list := s.alive[st.aliveOff[z] : st.aliveOff[z]+st.left[z]]
	last := list[len(list)-1]
	list[task.alive] = last
	s.tasks[last].alive = task.alive
	st.left[z]--
	s.baselineFinish(j)
	s.stats.TasksFinished++
	if st.left[MapStage]+st.left[ReduceStage] == 0 {
		s.flow[j] = s.now - st.arrival
	}
	return nil
}
