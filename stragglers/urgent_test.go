package stragglers

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/internal/testutil"
)

// crowdedTasksGen draws a job of minN to maxN tasks, nearly all running
// long enough to be judged and most with t_rem above t_new = 1/2, so that
// more than selection's small-input size (48) are eligible and the
// radix selection of the most urgent (selection.Smallest) runs on its histogram path (tasksGen's jobs, a third
// running, seldom reach it). Urgencies: a few values (ties at the cut),
// continuous ones, or spread over float64's whole range (several histogram
// levels).
func crowdedTasksGen(minN, maxN int) *rapid.Generator[[]Task] {
	return rapid.Custom(func(t *rapid.T) []Task {
		n := rapid.IntRange(minN, maxN).Draw(t, "n")
		kind := rapid.IntRange(0, 2).Draw(t, "kind")
		tasks := make([]Task, n)
		for i := range tasks {
			task := Task{State: Running, Copies: rapid.IntRange(1, 3).Draw(t, "copies"), Elapsed: 1}
			switch kind {
			case 0:
				task.Remaining = float64(rapid.IntRange(0, 6).Draw(t, "remaining"))
			case 1:
				task.Remaining = rapid.Float64Range(0, 20).Draw(t, "remaining")
			default:
				task.Remaining = testutil.PositiveMagnitude().Draw(t, "remaining")
			}
			switch rapid.IntRange(0, 19).Draw(t, "state") {
			case 0:
				task = Task{State: Unscheduled}
			case 1:
				task = Task{State: Finished}
			}
			tasks[i] = task
		}
		return tasks
	})
}

// testSpeculateManyEligible: with more eligible tasks than free copy slots
// and more than 48 of them, Speculate copies the most urgent ones (the
// sorting reference, referenceSpeculate) and SpeculateRunning makes the
// same decision.
func testSpeculateManyEligible(t *rapid.T) {
	tasks := crowdedTasksGen(49, 400).Draw(t, "tasks")
	busy := 0
	for _, task := range tasks {
		busy += task.Copies
	}
	slots := rapid.IntRange(busy+1, busy+len(tasks)).Draw(t, "slots")
	p := Speculation{
		Rule:      Rule(rapid.IntRange(0, 1).Draw(t, "rule")),
		NewCopy:   0.5,
		Beta:      rapid.SampledFrom([]float64{1.1, 1.5, 2}).Draw(t, "beta"),
		Threshold: rapid.SampledFrom([]float64{0, 0.1, DefaultMantriThreshold}).Draw(t, "threshold"),
	}
	got, err := Speculate(nil, tasks, slots, p, nil)
	if err != nil {
		t.Fatalf("Speculate: %v", err)
	}
	want, boundary := referenceSpeculate(tasks, slots, p)
	if boundary {
		t.Skip("a Mantri probability at δ: the reference's CDF decides it only to within 1e-9")
	}
	if !slices.Equal(got, want) && len(got)+len(want) > 0 {
		t.Fatalf("Speculate gives %v\nthe reference  %v", got, want)
	}
	running, from, unscheduled := runningView(tasks)
	launch, copies, err := SpeculateRunning(nil, running, unscheduled, slots, p, nil)
	if err != nil {
		t.Fatalf("SpeculateRunning: %v", err)
	}
	var gotR []Action
	for i, task := range tasks {
		if task.State == Unscheduled && launch > 0 {
			gotR = append(gotR, Action{Task: i, Kind: Launch})
			launch--
		}
	}
	for _, k := range copies {
		gotR = append(gotR, Action{Task: from[k], Kind: Copy})
	}
	if !slices.Equal(gotR, want) && len(gotR)+len(want) > 0 {
		t.Fatalf("SpeculateRunning gives %v\nthe reference     %v", gotR, want)
	}
}

func TestSpeculateManyEligible(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testSpeculateManyEligible)
}
