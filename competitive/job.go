package competitive

import (
	"math"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/enum"
	"github.com/specsched/specsched/internal/srewc"
)

// Stage names one of the two phases of a MapReduce job.
type Stage uint8

const (
	MapStage    Stage = iota // the map phase: tasks T_j^{m,i}
	ReduceStage              // the reduce phase: tasks T_j^{r,i}, runnable once every map task has finished
)

var stageNames = []string{MapStage: "map", ReduceStage: "reduce"}

// String returns "map" or "reduce".
func (s Stage) String() string { return enum.Name(s, stageNames, "Stage") }

// Phase is what a scheduler knows about one phase of a job at the start of
// a time slot (paper §2, Table 1, Assumption 1).
//
// The phase has Tasks tasks in all (m_j or r_j). Of its unfinished tasks,
// Unscheduled have no running copy (u_j^z(t): never started, or preempted
// with their progress checkpointed), and the others are running: Running
// holds one entry per running task, the number of copies of it running now
// (its machines, d_j^{z,i}(t), each ≥ 1), in the caller's order. Tasks not
// counted in either are finished. Plan and SEW name tasks by these
// positions: a running task by its index in Running, an unscheduled task by
// an ordinal 0 ≤ k < Unscheduled in the caller's own order.
//
// Mean and SD are the mean E_j^z and the standard deviation σ_j^z of one
// task's execution time on a unit-speed machine without cloning (eq. 3: E
// equals the task's work p_j^z).
type Phase struct {
	Tasks       int     // m_j or r_j: tasks in the phase, finished or not
	Mean        float64 // E_j^z > 0 when Tasks > 0
	SD          float64 // σ_j^z ≥ 0
	Unscheduled int     // u_j^z(t): unfinished tasks with no running copy
	Running     []int   // copies running of each running task (entries ≥ 1)
}

// Job is a snapshot of one MapReduce job: its map phase and its reduce
// phase. Reduce tasks start only after every map task has finished, so
// while a map task is unfinished no reduce task may be running or finished.
// A job is active while it has an unfinished task.
type Job struct {
	Map    Phase
	Reduce Phase
}

// unfinished returns m_j(t) or r_j(t): the phase's unfinished tasks.
func (p *Phase) unfinished() int { return p.Unscheduled + len(p.Running) }

// perTask returns E + λσ, one task's effective workload (eq. 19, 25).
func (p *Phase) perTask(lambda float64) float64 { return p.Mean + lambda*p.SD }

// stage returns the phase a job is in now: map while a map task is
// unfinished, else reduce.
func (j *Job) stage() Stage {
	if j.Map.unfinished() > 0 {
		return MapStage
	}
	return ReduceStage
}

// phase returns the job's phase s.
func (j *Job) phase(s Stage) *Phase {
	if s == MapStage {
		return &j.Map
	}
	return &j.Reduce
}

// active reports whether the job has an unfinished task.
func (j *Job) active() bool { return j.Map.unfinished()+j.Reduce.unfinished() > 0 }

// times returns n·(E + λσ), n tasks' effective workload. A per-task value
// below 2⁻¹⁰⁰⁰ may have lost digits to underflow (λσ subnormal) that n ≤
// 2⁵³ tasks would bring back into the normal range: it is then computed
// scaled by 2¹⁰⁰ (λ or σ, whichever is ≤ 1 after the product, takes the
// scale, so nothing overflows), which keeps n·(E + λσ) correctly rounded to
// a few ulps wherever it is normal.
func (p *Phase) times(n int, lambda float64) float64 {
	x := p.perTask(lambda)
	if !tiny(x) {
		return float64(n) * x
	}
	return float64(n) * p.perTaskScaled(lambda) / tinyScale
}

// tinyScale is the scale of Phase.perTaskScaled.
const tinyScale = 0x1p100

// tiny reports whether a per-task value x is positive and below 2⁻¹⁰⁰⁰,
// where it may have lost digits to underflow.
func tiny(x float64) bool { return x > 0 && x < 0x1p-1000 }

// tinyBits is the IEEE bits of 2⁻¹⁰⁰⁰: for x ≥ 0, tiny(x) is bits(x) − 1 <
// tinyBits − 1 in unsigned arithmetic (0 wraps to the largest).
const tinyBits = (1023 - 1000) << 52

// hugeBits is the IEEE bits of 2⁹⁶⁰: with E + λσ below it in both phases
// and at most 2⁵³ tasks in each, Υ_j is finite.
const hugeBits = (1023 + 960) << 52

// perTaskScaled returns (E + λσ)·2¹⁰⁰ for a tiny E + λσ.
func (p *Phase) perTaskScaled(lambda float64) float64 {
	if lambda >= 1 { // σ ≤ λσ < 2⁻¹⁰⁰⁰
		return p.Mean*tinyScale + lambda*(p.SD*tinyScale)
	}
	return p.Mean*tinyScale + (lambda*tinyScale)*p.SD
}

// total returns Υ_j of eq. 19 on validated input.
func (j *Job) total(lambda float64) float64 {
	return j.Map.times(j.Map.Tasks, lambda) + j.Reduce.times(j.Reduce.Tasks, lambda)
}

// remaining returns Υ_j(t) of eq. 25 on validated input.
func (j *Job) remaining(lambda float64) float64 {
	return j.Map.times(j.Map.unfinished(), lambda) + j.Reduce.times(j.Reduce.unfinished(), lambda)
}

// copies returns o_j(t), the machines running the job's tasks, on validated
// input (deep validation bounds it by alloc.MaxTotal).
func (j *Job) copies() int {
	o := 0
	for _, c := range j.Map.Running {
		o += c
	}
	for _, c := range j.Reduce.Running {
		o += c
	}
	return o
}

// maxCount bounds every count: 2⁵³, so that counts, their sums and their
// float64 images are exact.
const maxCount = alloc.MaxTotal

var fieldNames = [2][5]string{
	{"Map.Tasks", "Map.Mean", "Map.SD", "Map.Unscheduled", "Map.Running"},
	{"Reduce.Tasks", "Reduce.Mean", "Reduce.SD", "Reduce.Unscheduled", "Reduce.Running"},
}

const (
	fTasks = iota
	fMean
	fSD
	fUnscheduled
	fRunning
)

// checkPhase validates one phase of job j. deep also checks the entries of
// Running (each in [1, 2⁵³], their sum ≤ 2⁵³); the functions that read only
// len(Running) skip that O(len(Running)) scan.
func checkPhase(fn string, j int, s Stage, p *Phase, deep bool) error {
	name := &fieldNames[s]
	if p.Tasks < 0 || p.Tasks > maxCount {
		return check.Err(fn, j, name[fTasks], float64(p.Tasks), "must lie in [0, 2^53]")
	}
	if err := check.NonNegative(fn, j, name[fMean], p.Mean); err != nil {
		return err
	}
	if p.Tasks > 0 && p.Mean == 0 {
		return check.Err(fn, j, name[fMean], p.Mean, "must be > 0 when the phase has tasks")
	}
	if err := check.NonNegative(fn, j, name[fSD], p.SD); err != nil {
		return err
	}
	if p.Unscheduled < 0 || p.Unscheduled > p.Tasks {
		return check.Err(fn, j, name[fUnscheduled], float64(p.Unscheduled), "must lie in [0, tasks]")
	}
	if len(p.Running) > p.Tasks-p.Unscheduled {
		return check.Err(fn, j, name[fRunning], float64(len(p.Running)), "running plus unscheduled tasks must not exceed tasks")
	}
	if deep {
		if i := p.badCopies(); i >= 0 {
			return check.Err(fn, j, name[fRunning], float64(p.Running[i]), "copies of a running task must be ≥ 1, and the job's copies ≤ 2^53")
		}
	}
	return nil
}

// checkJob validates job j of a snapshot for the variance factor lambda
// (already validated): both phases, the map-before-reduce precedence, and
// that Υ_j (eq. 19) is finite.
func checkJob(fn string, j int, job *Job, lambda float64, deep bool) error {
	if err := checkPhase(fn, j, MapStage, &job.Map, deep); err != nil {
		return err
	}
	if err := checkPhase(fn, j, ReduceStage, &job.Reduce, deep); err != nil {
		return err
	}
	if job.Map.unfinished() > 0 && (len(job.Reduce.Running) > 0 || job.Reduce.Unscheduled != job.Reduce.Tasks) {
		return check.Err(fn, j, "Reduce.Unscheduled", float64(job.Reduce.Unscheduled),
			"must equal Reduce.Tasks with no reduce task running while a map task is unfinished")
	}
	// With the precedence checked only one phase has running copies, so a
	// deep check also bounds the job's copies o_j(t) by 2⁵³.
	for s, p := range [2]*Phase{&job.Map, &job.Reduce} {
		if math.IsInf(p.perTask(lambda), 0) { // even without tasks: 0·Inf would be NaN
			return check.Err(fn, j, fieldNames[s][fSD], p.SD, "mean + λ·sd overflows float64")
		}
	}
	if y := job.total(lambda); math.IsInf(y, 0) || math.IsNaN(y) {
		return check.Err(fn, j, "effective workload", y, "overflows float64")
	}
	return nil
}

// valid is the hot paths' check of p, in few instructions: true implies
// checkPhase (not deep) accepts p, and false sends the caller to
// checkPhase, which builds the detailed error — or accepts p after all
// when a mean or SD is −0, which the bit test counts with the negatives
// (integers compared unsigned fold each "≥ 0" into the upper bound).
func (p *Phase) valid() bool {
	mean, sd := math.Float64bits(p.Mean), math.Float64bits(p.SD)
	return uint64(p.Tasks) <= maxCount &&
		max(mean, sd) < check.InfBits && // finite and ≥ +0
		(mean != 0 || p.Tasks == 0) &&
		uint64(p.Unscheduled) <= uint64(p.Tasks) &&
		len(p.Running) <= p.Tasks-p.Unscheduled
}

// scanJobs validates the jobs for the functions that read only counts,
// means and SDs, and writes Υ_j(t) to load (len(jobs) elements) in the
// same pass; it returns the number of active jobs and the loads' range r.
// load is scratch: it may be partly written when an error is returned.
// out is the memory the caller's dst would be written in: a job whose
// Running shares it is an error too (see check.Span), found in the same
// pass.
//
// The pass is the hot loop of Shares and Machines, so it is split in two:
// scanFast, a loop without calls that accepts a snapshot whose every job
// passes a branch-light test mirroring checkJob, and, when one does not,
// scanExact, which starts again from the first job and builds the error of
// the first invalid one (or accepts a mean or SD of −0, and computes Υ_j(t)
// with the scaled form where E + λσ is tiny). Both passes give the same
// loads and the same first error; the second costs a pass only for the
// snapshots that need it.
func scanJobs(fn string, load []float64, jobs []Job, lambda float64, out check.Span) (int, srewc.Range, error) {
	if active, r, ok := scanFast(load, jobs, lambda, out); ok {
		return active, r, nil
	}
	return scanExact(fn, load, jobs, lambda, out)
}

// scanFast is scanJobs' pass for snapshots of ordinary jobs: ok is false,
// with load partly written, as soon as a job fails its test — one
// branch-light expression that implies checkJob's acceptance (it is
// Job.valid's check, written out so that its products serve the load too,
// except that Υ_j's finiteness is implied by E + λσ < 2⁹⁶⁰ in both phases,
// a test on the bits the tiny test reads anyway, instead of computing Υ_j),
// Running disjoint from out, and E + λσ not tiny in either phase.
//
// Its tests stay on IEEE bits: written with float comparisons and
// inlined helpers instead, this scan measured 13–20% slower (Machines at
// n = 10⁴ against a scan of the snapshot, medians of interleaved runs: 4.1×
// → 4.9×, and in an independent re-measurement 3.86× → 4.36×), while the
// Machines target is about 4×.
func scanFast(load []float64, jobs []Job, lambda float64, out check.Span) (active int, r srewc.Range, ok bool) {
	// The IEEE bits of the loads, which order non-negative floats: the
	// smallest positive one (bits − 1 makes 0 the largest) and the largest.
	least, most := uint64(math.MaxUint64), uint64(0)
	load = load[:len(jobs)]
	for j := range jobs {
		mp, rp := &jobs[j].Map, &jobs[j].Reduce
		perMap, perReduce := mp.perTask(lambda), rp.perTask(lambda)
		mapLeft, reduceLeft := mp.unfinished(), rp.unfinished()
		mapBits, reduceBits := math.Float64bits(perMap), math.Float64bits(perReduce)
		if !(mp.valid() && rp.valid() &&
			(mapLeft == 0 || (len(rp.Running) == 0 && rp.Unscheduled == rp.Tasks)) &&
			max(mapBits, reduceBits) < hugeBits && // Υ_j < 2·2⁵³·2⁹⁶⁰ is finite
			min(mapBits-1, reduceBits-1) >= tinyBits-1 && // neither is tiny
			!check.Overlaps(out, mp.Running) && !check.Overlaps(out, rp.Running)) {
			return 0, srewc.Range{}, false
		}
		v := float64(mapLeft)*perMap + float64(reduceLeft)*perReduce
		load[j] = v
		b := math.Float64bits(v)
		least, most = min(least, b-1), max(most, b)
		active += int((b-1)>>63 ^ 1) // b > 0: Υ_j(t) > 0
	}
	return active, srewc.Range{Least: math.Float64frombits(least + 1), Most: math.Float64frombits(most)}, true
}

// scanExact is scanJobs' pass for a snapshot scanFast did not accept: job
// by job, checkJob and the Running overlap for a job that fails the fast
// test, and Υ_j(t) by Job.remaining (the scaled form) where E + λσ is tiny.
func scanExact(fn string, load []float64, jobs []Job, lambda float64, out check.Span) (int, srewc.Range, error) {
	active := 0
	least, most := uint64(math.MaxUint64), uint64(0)
	for j := range jobs {
		job := &jobs[j]
		mp, rp := &job.Map, &job.Reduce
		perMap, perReduce := mp.perTask(lambda), rp.perTask(lambda)
		mapLeft, reduceLeft := mp.unfinished(), rp.unfinished()
		total := float64(mp.Tasks)*perMap + float64(rp.Tasks)*perReduce
		if !(mp.valid() && rp.valid() &&
			(mapLeft == 0 || (len(rp.Running) == 0 && rp.Unscheduled == rp.Tasks)) &&
			total <= math.MaxFloat64 &&
			!check.Overlaps(out, mp.Running) && !check.Overlaps(out, rp.Running)) {
			if err := checkJob(fn, j, job, lambda, false); err != nil {
				return 0, srewc.Range{}, err
			} // else valid after all: a mean or SD of −0
			if err := runningOverlap(fn, out, job); err != nil {
				return 0, srewc.Range{}, err
			}
		}
		v := float64(mapLeft)*perMap + float64(reduceLeft)*perReduce
		if min(math.Float64bits(perMap)-1, math.Float64bits(perReduce)-1) < tinyBits-1 { // tiny(perMap) || tiny(perReduce)
			v = job.remaining(lambda)
		}
		load[j] = v
		b := math.Float64bits(v)
		least, most = min(least, b-1), max(most, b)
		active += int((b-1)>>63 ^ 1) // b > 0: Υ_j(t) > 0
	}
	return active, srewc.Range{Least: math.Float64frombits(least + 1), Most: math.Float64frombits(most)}, nil
}

// checkLambda validates the variance factor λ.
func checkLambda(fn string, lambda float64) error {
	return check.NonNegative(fn, check.Scalar, "lambda", lambda)
}

// checkJobs validates λ and every job of a snapshot.
func checkJobs(fn string, jobs []Job, lambda float64, deep bool) error {
	if err := checkLambda(fn, lambda); err != nil {
		return err
	}
	for j := range jobs {
		if jobs[j].valid(lambda, deep) {
			continue
		}
		if err := checkJob(fn, j, &jobs[j], lambda, deep); err != nil {
			return err
		}
	}
	return nil
}

// valid is checkJobs' fast check of job: true implies checkJob accepts
// it; false sends the caller to checkJob, which builds the error (or
// accepts a mean or SD of −0 after all, see Phase.valid).
func (job *Job) valid(lambda float64, deep bool) bool {
	mp, rp := &job.Map, &job.Reduce
	return mp.valid() && rp.valid() &&
		(mp.unfinished() == 0 || (len(rp.Running) == 0 && rp.Unscheduled == rp.Tasks)) &&
		float64(mp.Tasks)*mp.perTask(lambda)+float64(rp.Tasks)*rp.perTask(lambda) <= math.MaxFloat64 && // Υ_j finite (false for +Inf and NaN); its digits do not matter here
		(!deep || mp.badCopies() < 0 && rp.badCopies() < 0)
}

// badCopies returns the index of the first entry of Running that is < 1 or
// takes the entries' sum above 2⁵³, or −1 if there is none: the deep check.
func (p *Phase) badCopies() int {
	sum := 0
	for i, c := range p.Running {
		if c < 1 || c > maxCount-sum {
			return i
		}
		sum += c
	}
	return -1
}

// EffectiveWorkload returns the total effective workload of a job,
// eq. (19) of Xu et al., §3.2:
//
//	Υ_j = m_j·(E_j^m + λσ_j^m) + r_j·(E_j^r + λσ_j^r),
//
// with m_j = job.Map.Tasks and r_j = job.Reduce.Tasks, finished or not. SEW
// (Algorithm 1) serves jobs in increasing order of Υ_j; λ ≥ 0 trades mean
// work against its spread (the paper evaluates λ = 0, 1, 5, 6 and settles
// on λ = 1).
//
// Complexity: O(1).
//
// Special cases: a job without tasks has Υ_j = 0; λ = 0 gives the expected
// work m_j·E_j^m + r_j·E_j^r. An error is returned for λ < 0, NaN or ±Inf,
// for an invalid job (see Phase and Job: negative counts, counts above 2⁵³,
// more running plus unscheduled tasks than tasks, a zero Mean for a phase
// with tasks, reduce tasks started before the maps finished, NaN or ±Inf
// means or SDs), and when Υ_j or a phase's E + λσ (even one without
// tasks) overflows float64. The entries of Running are not read.
func EffectiveWorkload(job Job, lambda float64) (float64, error) {
	const fn = "competitive.EffectiveWorkload"
	// Validation, then the kernel: the shape of every exported function,
	// repeated in RemainingEffectiveWorkload on purpose (each names itself).
	if err := checkLambda(fn, lambda); err != nil {
		return 0, err
	}
	if err := checkJob(fn, 0, &job, lambda, false); err != nil {
		return 0, err
	}
	return job.total(lambda), nil
}

// RemainingEffectiveWorkload returns the remaining effective workload of a
// job at the start of a slot, eq. (25) of Xu et al., §4.1:
//
//	Υ_j(t) = m_j(t)·(E_j^m + λσ_j^m) + r_j(t)·(E_j^r + λσ_j^r),
//
// where m_j(t) and r_j(t) count the unfinished tasks (running or
// unscheduled). SREW+C(β) gives machines to the jobs with the smallest
// Υ_j(t).
//
// Complexity: O(1).
//
// Special cases: a job with no unfinished task has Υ_j(t) = 0, and every
// active job has Υ_j(t) > 0 (a phase with tasks has Mean > 0). Before any
// task finishes Υ_j(t) = Υ_j. Errors are those of EffectiveWorkload.
func RemainingEffectiveWorkload(job Job, lambda float64) (float64, error) {
	const fn = "competitive.RemainingEffectiveWorkload"
	// As EffectiveWorkload: validation, then the kernel.
	if err := checkLambda(fn, lambda); err != nil {
		return 0, err
	}
	if err := checkJob(fn, 0, &job, lambda, false); err != nil {
		return 0, err
	}
	return job.remaining(lambda), nil
}

// runningOverlap returns check.Disjoint's error for a job one of whose
// Running slices overlaps out, or nil. Callers test the snapshot's Running
// slices inside the passes that read them anyway, so the rule costs no pass
// of its own.
func runningOverlap(fn string, out check.Span, job *Job) error {
	for z, running := range [2][]int{job.Map.Running, job.Reduce.Running} {
		if check.Overlaps(out, running) {
			return out.Err(fn, fieldNames[z][fRunning])
		}
	}
	return nil
}
