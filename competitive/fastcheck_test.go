package competitive

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// validWant is what Job.valid's doc promises: it declines (sends to
// checkJob) a job checkJob rejects, or one with a mean or SD of −0 (the
// bit test counts −0 with the negatives), and accepts every other job.
func validWant(job *Job, lambda float64, deep bool) bool {
	negZero := false
	for _, p := range []*Phase{&job.Map, &job.Reduce} {
		negZero = negZero || math.Signbit(p.Mean) || math.Signbit(p.SD)
	}
	return checkJob("f", 0, job, lambda, deep) == nil && !negZero
}

// testJobValidExact: checkJobs' fast check accepts exactly the jobs its doc
// says, shallow and deep, on ordinary, corrupted and extreme snapshots.
// (TestFastCheck checks that checkJobs' errors are checkJob's; declining a
// valid job would only cost speed, which this pins, as TestValidGrid does
// for Phase.valid.)
func testJobValidExact(t *rapid.T) {
	jobs, lambda := scanCase(t)
	for j := range jobs {
		for _, deep := range []bool{false, true} {
			if got, want := jobs[j].valid(lambda, deep), validWant(&jobs[j], lambda, deep); got != want {
				t.Fatalf("job %+v, λ = %v, deep %v: valid() = %v, want %v", jobs[j], lambda, deep, got, want)
			}
		}
	}
}

func TestJobValidExact(t *testing.T) { t.Parallel(); rapid.Check(t, testJobValidExact) }

// TestJobValidBoundaries: the fast check's boundary cases, each worked out
// from the rules of Phase and Job. A job still mapping (reduce tasks all
// unscheduled) and one reducing are valid; Υ_j = MaxFloat64 exactly is
// finite (one task of mean MaxFloat64); the shallow check does not read
// Running's entries, so a 0 entry passes it and fails the deep one.
func TestJobValidBoundaries(t *testing.T) {
	t.Parallel()
	mapping := Job{Map: Phase{Tasks: 3, Mean: 1, Unscheduled: 1, Running: []int{1, 2}}, Reduce: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}}
	reducing := Job{Map: Phase{Tasks: 3, Mean: 1}, Reduce: Phase{Tasks: 2, Mean: 1, Running: []int{1}}}
	largest := Job{Map: Phase{Tasks: 1, Mean: math.MaxFloat64, Unscheduled: 1}}
	zeroCopies := Job{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 1, Running: []int{0}}}
	cases := []struct {
		name          string
		job           Job
		shallow, deep bool
	}{
		{"mapping", mapping, true, true},
		{"reducing", reducing, true, true},
		{"Υ_j = MaxFloat64", largest, true, true},
		{"a running task with 0 copies", zeroCopies, true, false},
	}
	for _, c := range cases {
		if got := c.job.valid(0, false); got != c.shallow {
			t.Errorf("%s: valid(0, shallow) = %v, want %v", c.name, got, c.shallow)
		}
		if got := c.job.valid(0, true); got != c.deep {
			t.Errorf("%s: valid(0, deep) = %v, want %v", c.name, got, c.deep)
		}
	}
}

// TestScanTinyTop: Shares and Machines rank by Υ_j(t) in the scaled form
// also when E + λσ is one of the two largest floats below 2⁻¹⁰⁰⁰ (where
// the scan's tiny test switches). With λ = 1.5 and σ = 699051·2⁻¹⁰⁷⁴, λσ
// is 1048576.5·2⁻¹⁰⁷⁴, which rounds (a tie, to even) to 2⁻¹⁰⁵⁴ in the
// subnormal range; with E = 2⁻¹⁰⁰⁰ − 2⁻¹⁰⁵², whose ulp is 2⁻¹⁰⁵³, E + 2⁻¹⁰⁵⁴
// is another tie and rounds back to E. The exact Υ = E + 2⁻¹⁰⁵⁴ + 2⁻¹⁰⁷⁵
// rounds to E + 2⁻¹⁰⁵³ (math/big), which RemainingEffectiveWorkload
// returns; a plain job of Υ = E then ranks first, and gets the one
// machine (β = 1/2, N = 2). The same in the reduce phase.
func TestScanTinyTop(t *testing.T) {
	t.Parallel()
	const lambda = 1.5
	e := 0x1p-1000 - 0x1p-1052
	sigma := 699051 * 0x1p-1074
	upsilon, _ := new(big.Float).SetPrec(2000).Add(exact(e), new(big.Float).SetPrec(2000).Mul(exact(lambda), exact(sigma))).Float64()
	if want := e + 0x1p-1053; upsilon != want || e+lambda*sigma != e {
		t.Fatalf("set-up: exact Υ rounds to %v, want %v; E + λσ in float64 = %v, want E", upsilon, want, e+lambda*sigma)
	}
	plain := Job{Map: Phase{Tasks: 1, Mean: e, Unscheduled: 1}}
	for _, z := range []Stage{MapStage, ReduceStage} {
		var tiny Job
		*tiny.phase(z) = Phase{Tasks: 1, Mean: e, SD: sigma, Unscheduled: 1}
		if y, err := RemainingEffectiveWorkload(tiny, lambda); err != nil || y != upsilon {
			t.Fatalf("%v: RemainingEffectiveWorkload = %v, %v; want %v", z, y, err, upsilon)
		}
		jobs := []Job{tiny, plain}
		shares, err := Shares(nil, jobs, 1, 0.5, lambda, nil)
		if err != nil || !slices.Equal(shares, []float64{0, 1}) {
			t.Errorf("%v: Shares = %v, %v; want [0 1]", z, shares, err)
		}
		machines, err := Machines(nil, jobs, 1, 0.5, lambda, nil)
		if err != nil || !slices.Equal(machines, []int{0, 1}) {
			t.Errorf("%v: Machines = %v, %v; want [0 1]", z, machines, err)
		}
	}
}
