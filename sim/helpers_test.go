package sim

import (
	"errors"
	"math"
	"slices"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// Generators of small workloads and configurations. Times are multiples of
// 1/4 wherever the test must know them, so that every sum the simulator
// forms is exact and the checks can compare with ==.

func quarter(t *rapid.T, lo, hi int, label string) float64 {
	return float64(rapid.IntRange(4*lo, 4*hi).Draw(t, label)) / 4
}

// explicitJobs draws jobs whose every copy duration is known: the first copy
// of task i takes Durations[i], every further copy CopyDurations[i].
// constant gives every task and copy of a job one duration (no stragglers:
// no task runs longer than a new copy would).
func explicitJobs(t *rapid.T, maxJobs int, constant bool) []Job {
	n := rapid.IntRange(1, maxJobs).Draw(t, "jobs")
	jobs := make([]Job, n)
	for j := range jobs {
		same := float64(rapid.IntRange(1, 32).Draw(t, "same")) / 4
		np := rapid.IntRange(1, 3).Draw(t, "phases")
		ph := make([]Phase, np)
		for p := range ph {
			tasks := rapid.IntRange(1, 5).Draw(t, "tasks")
			d := make([]float64, tasks)
			c := make([]float64, tasks)
			for i := range d {
				d[i] = float64(rapid.IntRange(1, 32).Draw(t, "d")) / 4
				if constant {
					d[i], c[i] = same, same
				} else {
					c[i] = float64(rapid.IntRange(1, 16).Draw(t, "c")) / 4
				}
			}
			ph[p] = Phase{
				Tasks: tasks, Durations: d, CopyDurations: c,
				Start: rapid.SampledFrom([]float64{0, 0.3, 0.5, 0.7, 1}).Draw(t, "start"),
			}
		}
		newCopy := rapid.SampledFrom([]float64{0, 1, 2}).Draw(t, "newCopy")
		if constant {
			newCopy = 0 // t_new is then the job's one duration
		}
		jobs[j] = Job{
			Arrival: quarter(t, 0, 6, "arrival"),
			Group:   rapid.IntRange(0, 2).Draw(t, "group"),
			Beta:    rapid.SampledFrom([]float64{1.2, 1.5, 1.9, 2.5}).Draw(t, "beta"),
			NewCopy: newCopy,
			Phases:  ph,
		}
	}
	return jobs
}

// paretoJobs draws jobs with Pareto durations, drawn per copy by Simulate.
func paretoJobs(t *rapid.T, maxJobs int) []Job {
	n := rapid.IntRange(1, maxJobs).Draw(t, "jobs")
	jobs := make([]Job, n)
	for j := range jobs {
		beta := rapid.SampledFrom([]float64{1.1, 1.3, 1.6, 2.2}).Draw(t, "beta")
		np := rapid.IntRange(1, 3).Draw(t, "phases")
		ph := make([]Phase, np)
		for p := range ph {
			scale := rapid.Float64Range(0.1, 2).Draw(t, "scale")
			limit := 0.0
			if rapid.Bool().Draw(t, "capped") {
				limit = scale * rapid.Float64Range(1, 30).Draw(t, "ratio")
			}
			ph[p] = Phase{
				Tasks: rapid.IntRange(1, 8).Draw(t, "tasks"), Scale: scale, Cap: limit,
				Start: rapid.SampledFrom([]float64{0, 0.3, 0.5, 1}).Draw(t, "start"),
			}
		}
		jobs[j] = Job{Arrival: rapid.Float64Range(0, 5).Draw(t, "arrival"), Beta: beta, Phases: ph}
	}
	return jobs
}

// anyConfig draws a valid configuration of any policy.
func anyConfig(t *rapid.T) Config {
	slots := rapid.IntRange(1, 8).Draw(t, "slots")
	p := Preset(rapid.IntRange(0, int(numPolicies)-1).Draw(t, "policy"))
	if p.budgeted() && slots < 2 {
		slots = 2
	}
	cfg := DefaultConfig(p, slots)
	cfg.Budget = rapid.IntRange(0, slots-1).Draw(t, "budget")
	cfg.Beta = rapid.SampledFrom([]float64{0, 1.3, 2}).Draw(t, "clusterBeta")
	cfg.Eps = quarter(t, 0, 1, "eps")
	cfg.SREWCBeta = rapid.SampledFrom([]float64{0.3, 0.7, 1}).Draw(t, "srewcBeta")
	cfg.Lambda = rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
	cfg.Dampening = quarter(t, 0, 1, "dampening")
	cfg.Speculation = Speculation{
		Off:           rapid.IntRange(0, 5).Draw(t, "off") == 0,
		Mantri:        rapid.Bool().Draw(t, "mantri"),
		Threshold:     quarter(t, 0, 1, "threshold"),
		Estimator:     Estimator(rapid.IntRange(0, 2).Draw(t, "estimator")),
		EstimateError: rapid.SampledFrom([]float64{0, 0.3, 1}).Draw(t, "estimateError"),
		Detect:        rapid.SampledFrom([]float64{0, 0.25, 0.5}).Draw(t, "detect"),
		Heartbeat:     rapid.SampledFrom([]float64{0, 0.05, 0.3, 1}).Draw(t, "heartbeat"),
		Onset:         rapid.SampledFrom([]Onset{{}, {Alpha: MinOnsetShape, Beta: MaxOnsetShape}, {Alpha: 2, Beta: 0.5}, {Alpha: MaxOnsetShape, Beta: MinOnsetShape}}).Draw(t, "onset"),
	}
	cfg.Seed = rapid.Uint64().Draw(t, "seed")
	return cfg
}

// durationOf is the duration of copy k of task i of a phase with known
// durations.
func durationOf(ph *Phase, i, k int) float64 {
	if k == 0 {
		return ph.Durations[i]
	}
	return ph.CopyDurations[i]
}

// fataler is what the checks need from *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

type taskKey struct{ job, phase, task int }

// checkRun verifies a recorded run against the model, independently of the
// engine's state: every task completes exactly once, its other copies are
// killed at the instant its run ends, no more copies run than there are
// slots, phases respect their pipelining, and job completions and the
// counters agree with the copies. With known = true (explicitJobs) it also
// checks every copy's duration, the waiting of downstream tasks, and work
// conservation: no slot idles while a runnable task waits.
func checkRun(t fataler, jobs []Job, cfg Config, r *Result, known bool) {
	t.Helper()
	if len(r.Jobs) != len(jobs) {
		t.Fatalf("%d job results for %d jobs", len(r.Jobs), len(jobs))
	}
	byTask := map[taskKey][]CopyRecord{}
	for _, c := range r.Copies {
		k := taskKey{c.Job, c.Phase, c.Task}
		byTask[k] = append(byTask[k], c)
	}
	nTasks := 0
	for _, job := range jobs {
		for _, ph := range job.Phases {
			nTasks += ph.Tasks
		}
	}
	if len(byTask) != nTasks {
		t.Fatalf("%d tasks ran, want %d", len(byTask), nTasks)
	}
	// runEnd[k]: when the task's run was over (its winner finished running).
	runEnd := map[taskKey]float64{}
	winner := map[taskKey]CopyRecord{}
	var busy, wasted float64
	killed := 0
	for j, job := range jobs {
		for p, ph := range job.Phases {
			for i := 0; i < ph.Tasks; i++ {
				k := taskKey{j, p, i}
				cs := byTask[k]
				if len(cs) == 0 {
					t.Fatalf("task %v never ran", k)
				}
				var w *CopyRecord
				killEnd := math.NaN()
				nums := map[int]bool{}
				for ci := range cs {
					c := &cs[ci]
					if nums[c.Copy] {
						t.Fatalf("task %v: copy number %d twice", k, c.Copy)
					}
					nums[c.Copy] = true
					if c.Start < job.Arrival || !(c.End > c.Start) {
						t.Fatalf("task %v copy %d: [%g, %g] before arrival %g or empty", k, c.Copy, c.Start, c.End, job.Arrival)
					}
					busy += c.End - c.Start
					if !c.Killed {
						if w != nil {
							t.Fatalf("task %v completed twice (copies %d and %d)", k, w.Copy, c.Copy)
						}
						w = c
						continue
					}
					killed++
					wasted += c.End - c.Start
					if !math.IsNaN(killEnd) && c.End != killEnd {
						t.Fatalf("task %v: killed copies end at %g and %g, want one instant", k, killEnd, c.End)
					}
					killEnd = c.End
				}
				if w == nil {
					t.Fatalf("task %v never completed", k)
				}
				if len(nums) != len(cs) || !nums[0] || !nums[len(cs)-1] {
					t.Fatalf("task %v: copy numbers %v are not 0 … %d", k, nums, len(cs)-1)
				}
				re := killEnd
				if known {
					d := durationOf(&ph, i, w.Copy)
					if math.IsNaN(re) {
						re = w.Start + d
					}
					if w.Start+d != re {
						t.Fatalf("task %v: winner copy %d ran %g from %g, but the run ended at %g", k, w.Copy, d, w.Start, re)
					}
					for _, c := range cs {
						if c.Killed {
							own := c.Start + durationOf(&ph, i, c.Copy)
							if own < re || own == re && c.Copy < w.Copy {
								t.Fatalf("task %v: killed copy %d would have ended at %g, before or tied ahead of the winner's %g", k, c.Copy, own, re)
							}
						}
					}
				}
				if !math.IsNaN(re) {
					if w.End < re {
						t.Fatalf("task %v: winner released at %g before its run ended at %g", k, w.End, re)
					}
					if p == 0 && w.End != re {
						t.Fatalf("task %v: first-phase winner released at %g, its run ended at %g", k, w.End, re)
					}
					runEnd[k] = re
				}
				winner[k] = *w
			}
		}
	}
	st := r.Stats
	if st.Launched != nTasks || st.Copies != len(r.Copies)-nTasks || st.Killed != killed {
		t.Fatalf("stats launched %d copies %d killed %d, records say %d, %d, %d", st.Launched, st.Copies, st.Killed, nTasks, len(r.Copies)-nTasks, killed)
	}
	if !close(st.BusySlotTime, busy) || !close(st.WastedSlotTime, wasted) {
		t.Fatalf("stats busy %g wasted %g, records say %g, %g", st.BusySlotTime, st.WastedSlotTime, busy, wasted)
	}
	// Phases and jobs.
	for j, job := range jobs {
		finish := math.Inf(-1)
		upDone := math.Inf(-1)
		for p, ph := range job.Phases {
			done := math.Inf(-1)
			firstStart := math.Inf(1)
			for i := 0; i < ph.Tasks; i++ {
				k := taskKey{j, p, i}
				w := winner[k]
				done = math.Max(done, w.End)
				for _, c := range byTask[k] {
					firstStart = math.Min(firstStart, c.Start)
				}
				if p > 0 {
					if w.End < upDone {
						t.Fatalf("task %v completed at %g before its upstream phase at %g", k, w.End, upDone)
					}
					if re, ok := runEnd[k]; ok && w.End != math.Max(re, upDone) {
						t.Fatalf("task %v released at %g, want max(run end %g, upstream %g)", k, w.End, re, upDone)
					}
				}
			}
			if p > 0 && known {
				// The need-th upstream run end must come before any start.
				up := job.Phases[p-1]
				var ends []float64
				for i := 0; i < up.Tasks; i++ {
					ends = append(ends, runEnd[taskKey{j, p - 1, i}])
				}
				slices.Sort(ends)
				need := needOf(ph.Start, up.Tasks)
				if firstStart < ends[need-1] {
					t.Fatalf("job %d phase %d started at %g, before %d upstream tasks had run (at %g)", j, p, firstStart, need, ends[need-1])
				}
			}
			upDone = done
			finish = math.Max(finish, done)
		}
		jr := r.Jobs[j]
		if jr.Finish != finish || jr.Completion != finish-job.Arrival || jr.Arrival != job.Arrival {
			t.Fatalf("job %d: result %+v, records say finish %g", j, jr, finish)
		}
	}
	checkCapacity(t, cfg, r)
	if known {
		checkConservation(t, jobs, cfg, r, runEnd)
	}
}

func needOf(start float64, up int) int {
	if start == 0 {
		start = 1
	}
	return max(1, min(up, int(math.Ceil(start*float64(up)))))
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// checkCapacity sweeps the copies' slot intervals [Start, End): at no time
// do more copies hold slots than there are (pool and task slots apart under
// budgeted speculation).
func checkCapacity(t fataler, cfg Config, r *Result) {
	t.Helper()
	type edge struct {
		at    float64
		delta int
		pool  bool
	}
	var edges []edge
	for _, c := range r.Copies {
		edges = append(edges, edge{c.Start, 1, c.Pool}, edge{c.End, -1, c.Pool})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if a.at != b.at {
			return cmpFloat(a.at, b.at)
		}
		return a.delta - b.delta // releases first: a slot freed at t can be taken at t
	})
	regCap, poolCap := cfg.Slots, 0
	if cfg.Policy.budgeted() {
		regCap, poolCap = cfg.Slots-cfg.Budget, cfg.Budget
	}
	reg, pool := 0, 0
	for _, e := range edges {
		if e.pool {
			pool += e.delta
		} else {
			reg += e.delta
		}
		if reg > regCap || pool > poolCap {
			t.Fatalf("at %g: %d task slots and %d pool slots in use, capacity %d and %d", e.at, reg, pool, regCap, poolCap)
		}
	}
}

// checkConservation: after the decision at any event time t, no task slot
// is free while a task of an arrived job's runnable phase has not started.
func checkConservation(t fataler, jobs []Job, cfg Config, r *Result, runEnd map[taskKey]float64) {
	t.Helper()
	regCap := cfg.Slots
	if cfg.Policy.budgeted() {
		regCap -= cfg.Budget
	}
	var times []float64
	for _, c := range r.Copies {
		times = append(times, c.Start, c.End)
	}
	for _, job := range jobs {
		times = append(times, job.Arrival)
	}
	for _, re := range runEnd {
		times = append(times, re)
	}
	firstStart := map[taskKey]float64{}
	for _, c := range r.Copies {
		k := taskKey{c.Job, c.Phase, c.Task}
		if s, ok := firstStart[k]; !ok || c.Start < s {
			firstStart[k] = c.Start
		}
	}
	for _, at := range times {
		used := 0
		for _, c := range r.Copies {
			if !c.Pool && c.Start <= at && at < c.End {
				used++
			}
		}
		if used >= regCap {
			continue
		}
		for j, job := range jobs {
			if job.Arrival > at {
				continue
			}
			for p, ph := range job.Phases {
				if p > 0 {
					done := 0
					for i := 0; i < job.Phases[p-1].Tasks; i++ {
						if runEnd[taskKey{j, p - 1, i}] <= at {
							done++
						}
					}
					if done < needOf(ph.Start, job.Phases[p-1].Tasks) {
						break
					}
				}
				for i := 0; i < ph.Tasks; i++ {
					if firstStart[taskKey{j, p, i}] > at {
						t.Fatalf("at %g: %d of %d task slots used while task %v (runnable) waits until %g",
							at, used, regCap, taskKey{j, p, i}, firstStart[taskKey{j, p, i}])
					}
				}
			}
		}
	}
}

// isInputError reports whether err is a *specsched.InputError.
func isInputError(err error) bool {
	var ie *specsched.InputError
	return errors.As(err, &ie)
}

// ones returns n durations of 1.
func ones(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = 1
	}
	return d
}
