package sim

import (
	"testing"
)

// TestSparkLooksJustPastThreshold: SparkRule skips a stage it found quiet
// only while its oldest uncopied task cannot have run past the threshold,
// with a margin on the early side (quietTol) against the rounding of
// now − elapsed — never on the late side. Job A: four tasks of 1, 1, 1 and
// 10 (copies of 1); at 1 three have finished, 75% of 4, the median is 1
// and the threshold 1.5: the straggler has run 1, not more, and the stage
// is quiet. Job B: one task ending at t = 1.5·(1 + 5·10⁻¹⁰), the only
// event before 10; the straggler has then run past 1.5 by 7.5·10⁻¹⁰ — a
// relative 5·10⁻¹⁰, inside a 10⁻⁹ margin — so Spark copies it then. A
// rule skipping stages up to the threshold times (1 + 10⁻⁹) would not
// look until 10, and make no copy.
func TestSparkLooksJustPastThreshold(t *testing.T) {
	t.Parallel()
	at := 1.5 * (1 + 5e-10)
	a := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{
		Tasks: 4, Durations: []float64{1, 1, 1, 10}, CopyDurations: []float64{1, 1, 1, 1},
	}}}
	b := Job{Beta: 1.5, NewCopy: 1, Phases: []Phase{{Tasks: 1, Durations: []float64{at}, CopyDurations: []float64{at}}}}
	ruleRuns(t, []Job{a, b}, 10, "spark", func(alloc string, r *Result) {
		copies := laterCopies(r)
		if len(copies) != 1 || copies[0].Job != 0 || copies[0].Start != at {
			t.Errorf("%s+spark: copies %+v, want one of job 0 at %v", alloc, copies, at)
		}
	})
}
