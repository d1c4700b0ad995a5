package stragglers

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/specbase"
)

// testKernelsMatch: on random valid input, each baseline's kernel in
// internal/specbase, given the tasks' Counts, decides exactly as the
// exported, validating function — LATE, GRASS, Dolly, DollyClones,
// SparkSpeculate(Stats), HadoopSpeculate(Stats) — which the simulators'
// direct calls of the kernels rely on; and specbase.Count counts as the
// tests' own tally (counts). The kernels get a dst with stale contents and
// their own workspace, reused across the rules, so a kernel that read
// dst's old actions or kept a previous call's scratch would differ.
func testKernelsMatch(t *rapid.T) {
	tasks := statusGen(30).Draw(t, "tasks")
	if rapid.Bool().Draw(t, "no queue") {
		// Hadoop speculates only in a job with no unscheduled task, which
		// statusGen seldom draws.
		for i := range tasks {
			if tasks[i].State == Unscheduled {
				tasks[i].State = Finished
			}
		}
	}
	slots := baselineSlots(t, tasks)
	c := specbase.Count(tasks)
	u, r, f, busy, extra := counts(tasks)
	if want := (specbase.Counts{Unscheduled: u, Running: r, Finished: f, Busy: busy, Extra: extra}); c != want {
		t.Fatalf("Count = %+v, want %+v", c, want)
	}
	var kws specbase.Workspace
	stale := func() []Action { return []Action{{Task: 99, Kind: Copy}, {Task: 98, Kind: Launch}} }
	same := func(name string, got, want []Action, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: exported function: %v", name, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: kernel %v, exported %v", name, got, want)
		}
	}

	lp := lateConfigGen().Draw(t, "late")
	want, err := LATE(nil, tasks, slots, lp, nil)
	same("LATE", specbase.LATE(stale(), tasks, c, slots, lp, &kws), want, err)

	gp := grassConfigGen().Draw(t, "grass")
	want, err = GRASS(nil, tasks, slots, gp, nil)
	same("GRASS", specbase.GRASS(stale(), tasks, c, slots, gp, &kws), want, err)

	clones := rapid.IntRange(1, 4).Draw(t, "clones")
	want, err = Dolly(nil, tasks, slots, clones, nil)
	same("Dolly", specbase.Dolly(stale(), tasks, c, slots, clones), want, err)

	sp := sparkConfigGen().Draw(t, "spark")
	want, err = SparkSpeculate(nil, tasks, slots, sp, nil)
	same("SparkSpeculate", specbase.Spark(stale(), tasks, c, specbase.SparkStage(tasks, c, sp, &kws), slots, sp, &kws), want, err)

	hp := hadoopConfigGen().Draw(t, "hadoop")
	want, err = HadoopSpeculate(nil, tasks, slots, hp, nil)
	same("HadoopSpeculate", specbase.Hadoop(stale(), tasks, c, specbase.HadoopStage(tasks, c, hp), slots, hp), want, err)

	// The Stats forms, on the unfinished tasks (or all of them) and a
	// summary of the finished ones.
	view, _, stage := statsView(tasks, rapid.Bool().Draw(t, "keep finished"))
	vc := specbase.Count(view)
	want, err = SparkSpeculateStats(nil, view, stage, slots, sp, nil)
	same("SparkSpeculateStats", specbase.Spark(stale(), view, vc, stage, slots, sp, &kws), want, err)
	want, err = HadoopSpeculateStats(nil, view, stage, slots, hp, nil)
	same("HadoopSpeculateStats", specbase.Hadoop(stale(), view, vc, stage, slots, hp), want, err)

	dp := dollyConfigGen().Draw(t, "dolly")
	n := rapid.IntRange(0, 300).Draw(t, "n")
	cluster := DollyCluster{
		Slots:       rapid.IntRange(0, 2000).Draw(t, "cluster slots"),
		Clones:      rapid.IntRange(0, 100).Draw(t, "cluster clones"),
		Utilization: rapid.Float64Range(0, 1).Draw(t, "utilization"),
	}
	wantC, err := DollyClones(n, cluster, dp)
	if got := specbase.DollyClones(n, cluster, dp); err != nil || got != wantC {
		t.Fatalf("DollyClones: kernel %d, exported %d, %v", got, wantC, err)
	}
}

// TestKernelsMatch: see testKernelsMatch.
func TestKernelsMatch(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testKernelsMatch)
}

func FuzzKernelsMatch(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testKernelsMatch)) }
