package sim

import (
	"slices"
	"testing"
)

// TestHadoopCapCountsRunning: Hadoop's cap on speculating tasks is
// DefaultSpeculator's max(10, ⌊1% of the tasks⌋, ⌊10% of the running
// tasks⌋), so a phase with many tasks running may hold more than ten
// copies at once. A phase of 200 tasks on 300 slots under Oracle: 20
// short tasks of 1, 2, …, 20 (one ends at each whole time) and 180 long
// ones of 1000 whose copies take 2000 (a copy never wins, so every copy
// started stays speculating until its original ends at 1000). At 10 the
// tenth short task ends: 10 of 200 is 5% finished, the mean is 5.5, and
// every long task's t_rem (990) exceeds it; Hadoop copies one task per
// phase per instant, at 10, 11, …, 20 — eleven copies, while the running
// tasks (190 down to 180) allow ⌊10%⌋ = 18. With the running count left
// out of the cap (1% of 200 is 2) only ten would start.
func TestHadoopCapCountsRunning(t *testing.T) {
	t.Parallel()
	const n, short = 200, 20
	durations, copyDurations := make([]float64, n), make([]float64, n)
	for i := range durations {
		durations[i], copyDurations[i] = 1000, 2000
		if i < short {
			durations[i], copyDurations[i] = float64(i+1), 1
		}
	}
	job := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: n, Durations: durations, CopyDurations: copyDurations}}}
	want := make([]float64, 0, 11)
	for s := 10.0; s <= 20; s++ {
		want = append(want, s)
	}
	ruleRuns(t, []Job{job}, 300, "hadoop", func(alloc string, r *Result) {
		var starts []float64
		for _, c := range laterCopies(r) {
			starts = append(starts, c.Start)
		}
		if !slices.Equal(starts, want) {
			t.Errorf("%s+hadoop: copies start at %v, want %v", alloc, starts, want)
		}
	})
}
