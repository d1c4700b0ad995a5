package sim

import (
	"math"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched/stragglers"
)

// Tests of the baseline rules' CanUse and Requests against their doc
// comments, re-stated from the Decision's public counts at every call of
// a run (issue 13's mutation pass: a filter or a demand that errs changes
// a run only when an allocator happens to act on it).

// contractCheck wraps a baseline rule and, at each call of CanUse and
// Requests, checks it against the documented rule, and that the rule
// answers false and 0 for a position outside [0, d.Active()) without
// recording a misuse (which would fail the run).
type contractCheck struct {
	inner InJobRule
	name  string
	t     *rapid.T
	dolly map[int]int // Dolly: the copies per task at the job's first sight
}

func (w *contractCheck) Bookkeeping() Bookkeeping {
	clear(w.dolly)
	return w.inner.(BookkeepingRule).Bookkeeping()
}

// outside checks the answers for positions outside the active jobs.
func (w *contractCheck) outside(d *Decision) {
	for _, k := range []int{-1, d.Active()} {
		if w.inner.CanUse(d, k) {
			w.t.Fatalf("%s: CanUse true at position %d of %d", w.name, k, d.Active())
		}
		if n, err := w.inner.(RequestRule).Requests(d, k); n != 0 || err != nil {
			w.t.Fatalf("%s: Requests %d, %v at position %d of %d", w.name, n, err, k, d.Active())
		}
	}
}

// readyPhases counts the phases of the active job at position k with a
// running task that may speculate: Hadoop's (no task waiting, one task and
// 5% finished) or Spark's (more than one task, ⌊75%⌋ and at least one
// finished).
func readyPhases(d *Decision, k int, hadoop bool) int {
	n := 0
	for p := range d.Phases(k) {
		st := d.Phase(k, p)
		running := st.Tasks - st.Unscheduled - st.Computed
		if !st.Runnable || running == 0 {
			continue
		}
		if hadoop && st.Unscheduled == 0 && st.Computed >= 1 && 20*st.Computed >= st.Tasks ||
			!hadoop && st.Tasks > 1 && st.Computed >= max(1, 3*st.Tasks/4) {
			n++
		}
	}
	return n
}

func (w *contractCheck) CanUse(d *Decision, k int) bool {
	w.outside(d)
	got := w.inner.CanUse(d, k)
	var want bool
	switch w.name {
	case "late":
		want = d.Running(k) > 0 && d.SpeculativeCopies() < int(math.Ceil(0.1*float64(d.Config().Slots)))
	case "dolly":
		want = false
	case "spark":
		want = readyPhases(d, k, false) > 0
	case "hadoop":
		want = readyPhases(d, k, true) > 0
	case "grass":
		if d.Running(k) == 0 && got {
			w.t.Fatalf("grass: CanUse true for job %d with no running task", d.Job(k))
		}
		return got
	}
	if got != want {
		w.t.Fatalf("%s: CanUse %v for job %d, want %v", w.name, got, d.Job(k), want)
	}
	return got
}

func (w *contractCheck) Requests(d *Decision, k int) (int, error) {
	w.outside(d)
	if w.name == "dolly" {
		w.admit(d, k)
	}
	got, err := w.inner.(RequestRule).Requests(d, k)
	if err != nil {
		return got, err
	}
	switch w.name {
	case "dolly":
		// c − 1 clones per unscheduled task, within the budget left.
		left := max(0, d.Config().Slots/20-d.SpeculativeCopies())
		if want := min(d.Unscheduled(k)*(w.dolly[d.Job(k)]-1), left); got != want {
			w.t.Fatalf("dolly: Requests %d for job %d (%d unscheduled, %d copies per task, %d clones left), want %d",
				got, d.Job(k), d.Unscheduled(k), w.dolly[d.Job(k)], left, want)
		}
	case "hadoop":
		// One copy per phase that would speculate now.
		if most := readyPhases(d, k, true); got > most {
			w.t.Fatalf("hadoop: Requests %d for job %d with %d ready phases", got, d.Job(k), most)
		}
	case "late":
		if most := int(math.Ceil(0.1*float64(d.Config().Slots))) - d.SpeculativeCopies(); got > max(0, most) || got > d.Running(k) {
			w.t.Fatalf("late: Requests %d for job %d (%d running, %d copies left under the cap)", got, d.Job(k), d.Running(k), most)
		}
	case "spark", "grass":
		if got > d.Running(k) {
			w.t.Fatalf("%s: Requests %d for job %d of %d running tasks", w.name, got, d.Job(k), d.Running(k))
		}
	}
	return got, nil
}

func (w *contractCheck) Use(d *Decision, k, g int) error {
	if w.name == "dolly" {
		w.admit(d, k)
	}
	return w.inner.Use(d, k, g)
}

// admit records Dolly's copies per task for the active job at position k
// at its first sight (DollyRule admits it at its first Requests or Use):
// stragglers.DollyClones over all its tasks, with the cluster then.
func (w *contractCheck) admit(d *Decision, k int) {
	j := d.Job(k)
	if _, ok := w.dolly[j]; ok {
		return
	}
	n := 0
	for p := range d.Phases(k) {
		n += d.Phase(k, p).Tasks
	}
	slots := d.Config().Slots
	cluster := stragglers.DollyCluster{Slots: slots, Clones: d.SpeculativeCopies(), Utilization: math.Min(1, float64(d.Busy())/float64(slots))}
	c, err := stragglers.DollyClones(n, cluster, stragglers.DefaultDolly())
	if err != nil {
		w.t.Fatal(err)
	}
	w.dolly[j] = c
}

// testBaselineContracts: every baseline rule's CanUse and Requests, at
// every call of a run with any allocator, are those their doc comments
// state (contractCheck).
func testBaselineContracts(t *rapid.T) {
	rule := rapid.SampledFrom(baselineRules).Draw(t, "rule")
	var jobs []Job
	if rapid.Bool().Draw(t, "known") {
		jobs = explicitJobs(t, 5, false)
	} else {
		jobs = paretoJobs(t, 5)
	}
	cfg := baselineConfig(t, rule)
	inner, _ := NewRule(rule)
	cfg.Rule = &contractCheck{inner: inner, name: rule, t: t, dolly: map[int]int{}}
	if _, err := Simulate(jobs, cfg); err != nil {
		t.Fatalf("%s: %v", rule, err)
	}
}

func TestBaselineContracts(t *testing.T) { t.Parallel(); rapid.Check(t, testBaselineContracts) }

// ruleRuns runs jobs under Oracle on slots slots with the named rule and
// each kind of allocator (SRPT, Fair, Hopper's), recording the copies,
// and hands each result to check with the allocator's name.
func ruleRuns(t *testing.T, jobs []Job, slots int, rule string, check func(alloc string, r *Result)) {
	t.Helper()
	for _, alloc := range []string{"srpt", "fair", "hopper"} {
		cfg := DefaultConfig(SRPT, slots)
		cfg.Speculation.Estimator = Oracle
		cfg.Allocator, _ = NewAllocator(alloc)
		cfg.Rule, _ = NewRule(rule)
		cfg.Record = true
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		check(alloc, r)
	}
}

// laterCopies are a run's copies beyond the first, by start, without
// their end.
func laterCopies(r *Result) []CopyRecord {
	var copies []CopyRecord
	for _, c := range r.Copies {
		if c.Copy > 0 {
			c.End, c.Killed = 0, false
			copies = append(copies, c)
		}
	}
	slices.SortFunc(copies, func(x, y CopyRecord) int { return cmpFloat(x.Start, y.Start) })
	return copies
}

// TestHadoopSpeculatesAgain: Hadoop makes one copy per phase per scan, and
// scans again at the next instant. A job of four tasks (1, 1, 10, 10;
// copies of 1) under Oracle: at 1 two tasks have run, mean 1, and both
// stragglers have t_rem 9 > 1; the scan copies the first (ties to the
// smaller index), whose copy ends at 2; the scan then copies the second
// (t_rem 8), which ends at 3: the job ends at 3, with any allocator.
func TestHadoopSpeculatesAgain(t *testing.T) {
	t.Parallel()
	job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{
		Tasks: 4, Durations: []float64{1, 1, 10, 10}, CopyDurations: []float64{1, 1, 1, 1},
	}}}
	ruleRuns(t, []Job{job}, 100, "hadoop", func(alloc string, r *Result) {
		if r.Jobs[0].Finish != 3 || r.Stats.Copies != 2 {
			t.Errorf("%s+hadoop: the job ends at %v with %d copies, want 3 and 2", alloc, r.Jobs[0].Finish, r.Stats.Copies)
		}
	})
}

// TestHadoopCompletedShare: Hadoop waits for 5% of a phase's tasks to
// finish (MINIMUM_COMPLETE_PROPORTION_TO_SPECULATE), at least one. A
// phase of 20 tasks whose first ends at 1 (1 of 20 = 5%) speculates at 1;
// one of 21 tasks waits for its second, at 2 (1 of 21 < 5%). The other
// tasks run 10 against copies of 1 (Oracle: t_rem above the mean). The
// rule's CanUse and Requests keep to their doc comments all along
// (contractCheck).
func TestHadoopCompletedShare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n     int
		first float64
	}{{20, 1}, {21, 2}} {
		durations := make([]float64, tc.n)
		for i := range durations {
			durations[i] = 10
		}
		durations[0], durations[1] = 1, 2
		job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: tc.n, Durations: durations, CopyDurations: ones(tc.n)}}}
		rapid.Check(t, func(rt *rapid.T) {
			alloc := rapid.SampledFrom([]string{"srpt", "fair", "hopper"}).Draw(rt, "allocator")
			cfg := DefaultConfig(SRPT, 100)
			cfg.Speculation.Estimator = Oracle
			cfg.Allocator, _ = NewAllocator(alloc)
			cfg.Rule = &contractCheck{inner: &HadoopRule{}, name: "hadoop", t: rt}
			cfg.Record = true
			r, err := Simulate([]Job{job}, cfg)
			if err != nil {
				rt.Fatal(err)
			}
			first := math.Inf(1)
			for _, c := range r.Copies {
				if c.Copy > 0 {
					first = math.Min(first, c.Start)
				}
			}
			if first != tc.first {
				rt.Errorf("%s+hadoop, %d tasks: first copy at %v, want %v", alloc, tc.n, first, tc.first)
			}
		})
	}
}

// TestBaselinesLaterPhase: Hadoop and Spark judge every phase, the later
// ones included once the earlier are over. Job A: a map phase of one
// task of 1 (a stage Spark never judges, of a single task), then (a barrier) a reduce phase of tasks 1, 1, 1, 10 with
// copies of 1, from 1 to 2; job B (one task) arrives at 3, a decision.
// Hadoop (Oracle): at 2 three reduces have run, mean 1, the straggler's
// t_rem 8 > 1: copied at 2, A ends at 3. Spark: the straggler is
// speculatable once it has run 1.5 × the median 1, i.e. after 2.5; the
// next decision is B's arrival at 3: copied then, A ends at 4.
func TestBaselinesLaterPhase(t *testing.T) {
	t.Parallel()
	a := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{
		{Tasks: 1, Durations: []float64{1}, CopyDurations: []float64{1}},
		{Tasks: 4, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1}},
	}}
	b := Job{Arrival: 3, Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{1}, CopyDurations: []float64{1}}}}
	for _, tc := range []struct {
		rule   string
		finish float64
	}{{"hadoop", 3}, {"spark", 4}} {
		ruleRuns(t, []Job{a, b}, 100, tc.rule, func(alloc string, r *Result) {
			if r.Jobs[0].Finish != tc.finish {
				t.Errorf("%s+%s: job A ends at %v, want %v", alloc, tc.rule, r.Jobs[0].Finish, tc.finish)
			}
		})
	}
}

// TestHadoopJudgesWhenOldEnough: a task too young to be judged when its
// phase is looked at is judged once it has run Speculation.Detect × t_new
// (0.1 × 1). On 3 slots, tasks of 1, 1, 1 and 10 (copies of 1) under
// Oracle: the last starts at 1, when the others end (mean 1), and cannot
// be judged then; at 1.1 its t_rem is 9.9 > 1: copied, the job ends at
// 2.1 instead of 11.
func TestHadoopJudgesWhenOldEnough(t *testing.T) {
	t.Parallel()
	job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{
		Tasks: 4, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1},
	}}}
	ruleRuns(t, []Job{job}, 3, "hadoop", func(alloc string, r *Result) {
		if f := r.Jobs[0].Finish; math.Abs(f-2.1) > 1e-9 {
			t.Errorf("%s+hadoop: the job ends at %v, want 2.1", alloc, f)
		}
	})
}

// TestHadoopTwoPhases: Hadoop scans every ready phase of a job at a
// decision, not only the first. Job A's maps (1, 1, 1, 20; copies of 1,
// 1, 1, 20) and its reduces (1, 1, 1, 10; copies of 1), started once half
// the maps have run (at 1), under Oracle: at 1 the map straggler (t_rem
// 19 > the maps' mean 1) is copied, its copy as slow; at 2 the map phase,
// still ready, has nothing more to copy, and the reduce straggler (t_rem
// 8 > the reduces' mean 1) is copied.
func TestHadoopTwoPhases(t *testing.T) {
	t.Parallel()
	a := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{
		{Tasks: 4, Durations: []float64{1, 1, 1, 20}, CopyDurations: []float64{1, 1, 1, 20}},
		{Tasks: 4, Start: 0.5, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1}},
	}}
	ruleRuns(t, []Job{a}, 100, "hadoop", func(alloc string, r *Result) {
		want := []CopyRecord{{Phase: 0, Task: 3, Copy: 1, Start: 1}, {Phase: 1, Task: 3, Copy: 1, Start: 2}}
		if diff := gocmp.Diff(want, laterCopies(r)); diff != "" {
			t.Errorf("%s+hadoop: copies (-want +got):\n%s", alloc, diff)
		}
	})
}
