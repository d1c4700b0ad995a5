package competitive

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// genPhase draws a valid phase with at most maxTasks tasks. When started is
// false nothing has run yet: every task is unscheduled. maxCopies bounds
// the copies of a running task.
func genPhase(t *rapid.T, label string, maxTasks int, started bool, maxCopies int) Phase {
	p := Phase{
		Tasks: rapid.IntRange(0, maxTasks).Draw(t, label+"_tasks"),
		SD:    rapid.SampledFrom([]float64{0, 0.5, 1, 3.25}).Draw(t, label+"_sd"),
	}
	p.Mean = rapid.SampledFrom([]float64{0.5, 1, 2, 3, 7.5, 40}).Draw(t, label+"_mean")
	if !started {
		p.Unscheduled = p.Tasks
		return p
	}
	unfinished := rapid.IntRange(0, p.Tasks).Draw(t, label+"_unfinished")
	running := rapid.IntRange(0, unfinished).Draw(t, label+"_running")
	p.Unscheduled = unfinished - running
	if running > 0 {
		p.Running = make([]int, running)
		for i := range p.Running {
			p.Running[i] = rapid.IntRange(1, maxCopies).Draw(t, label+"_copies")
		}
	}
	return p
}

// genJob draws a valid job snapshot: either still mapping (reduce tasks all
// unscheduled) or reducing (maps finished).
func genJob(t *rapid.T, label string, maxTasks, maxCopies int) Job {
	var job Job
	if rapid.Bool().Draw(t, label+"_reducing") {
		job.Map = genPhase(t, label+"_map", maxTasks, false, maxCopies)
		job.Map.Unscheduled = 0 // all finished
		job.Reduce = genPhase(t, label+"_reduce", maxTasks, true, maxCopies)
	} else {
		job.Map = genPhase(t, label+"_map", maxTasks, true, maxCopies)
		if job.Map.unfinished() == 0 && rapid.Bool().Draw(t, label+"_nomaps") {
			job.Reduce = genPhase(t, label+"_reduce", maxTasks, true, maxCopies)
		} else {
			job.Reduce = genPhase(t, label+"_reduce", maxTasks, false, maxCopies)
		}
	}
	return job
}

// genJobs draws between lo and hi jobs.
func genJobs(t *rapid.T, lo, hi, maxTasks, maxCopies int) []Job {
	n := rapid.IntRange(lo, hi).Draw(t, "n")
	jobs := make([]Job, n)
	for j := range jobs {
		jobs[j] = genJob(t, "job", maxTasks, maxCopies)
	}
	return jobs
}

// tiedJobs draws jobs whose effective workloads tie often: unit means, no
// spread, a few task counts.
func tiedJobs(t *rapid.T, lo, hi int) []Job {
	n := rapid.IntRange(lo, hi).Draw(t, "n")
	jobs := make([]Job, n)
	for j := range jobs {
		tasks := rapid.IntRange(0, 3).Draw(t, "tasks")
		jobs[j] = Job{Map: Phase{Tasks: tasks, Mean: 1, Unscheduled: tasks}, Reduce: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}}
		if tasks == 0 && rapid.Bool().Draw(t, "done") {
			jobs[j].Reduce.Unscheduled = 0
		}
	}
	return jobs
}

// someJobs draws jobs from genJobs or tiedJobs.
func someJobs(t *rapid.T, lo, hi int) []Job {
	if rapid.Bool().Draw(t, "ties") {
		return tiedJobs(t, lo, hi)
	}
	return genJobs(t, lo, hi, 6, 3)
}

// cloneJobs deep-copies a snapshot.
func cloneJobs(jobs []Job) []Job {
	out := slices.Clone(jobs)
	for j := range out {
		out[j].Map.Running = slices.Clone(out[j].Map.Running)
		out[j].Reduce.Running = slices.Clone(out[j].Reduce.Running)
	}
	return out
}

// badFloats are values that no float parameter of the package accepts
// everywhere; badInts likewise for counts.
var (
	badFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-300, 1e308, math.MaxFloat64, math.Copysign(0, -1)} // −0: valid where 0 is, but not to a bit test
	badInts   = []int{-1, -1 << 40, math.MinInt, math.MaxInt, maxCount + 1, 1 << 62}
)

// anyFloat draws a float that is often fine and sometimes bad.
func anyFloat(t *rapid.T, label string, good ...float64) float64 {
	return rapid.SampledFrom(append(slices.Clone(badFloats), good...)).Draw(t, label)
}

// anyInt draws an int that is often fine and sometimes bad.
func anyInt(t *rapid.T, label string, good ...int) int {
	return rapid.SampledFrom(append(slices.Clone(badInts), good...)).Draw(t, label)
}

// corrupt may damage one field of one job (in place) with a bad value.
func corrupt(t *rapid.T, jobs []Job) {
	if len(jobs) == 0 || !rapid.Bool().Draw(t, "corrupt") {
		return
	}
	j := rapid.IntRange(0, len(jobs)-1).Draw(t, "victim")
	p := &jobs[j].Map
	if rapid.Bool().Draw(t, "victim_reduce") {
		p = &jobs[j].Reduce
	}
	switch rapid.IntRange(0, 6).Draw(t, "field") {
	case 0:
		p.Tasks = anyInt(t, "bad_tasks", 0, 2)
	case 1:
		p.Mean = anyFloat(t, "bad_mean", 0)
	case 2:
		p.SD = anyFloat(t, "bad_sd")
	case 3:
		p.Unscheduled = anyInt(t, "bad_unscheduled", p.Tasks+1)
	case 4:
		p.Running = append(p.Running, anyInt(t, "bad_copies", 0))
	case 5:
		p.Running = append(p.Running, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	case 6: // reduce work started while maps are unfinished
		jobs[j].Map.Unscheduled = max(1, jobs[j].Map.Unscheduled)
		jobs[j].Map.Tasks = max(jobs[j].Map.Tasks, jobs[j].Map.unfinished())
		jobs[j].Reduce.Tasks++
	}
}

// isInputError reports whether err is a *specsched.InputError from fn with
// a non-empty field and reason.
func isInputError(err error, fn string) bool {
	var ie *specsched.InputError
	return errors.As(err, &ie) && ie.Func == fn && ie.Field != "" && ie.Reason != "" && strings.Contains(err.Error(), fn)
}

// mustNotChange fails if jobs differs from before.
func mustNotChange(t *rapid.T, before, jobs []Job) {
	if diff := cmp.Diff(before, jobs); diff != "" {
		t.Fatalf("input modified (-before +after):\n%s", diff)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
