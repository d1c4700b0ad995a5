package dag

import (
	"errors"
	"math"
	"slices"
	"testing"
	"unsafe"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
)

// isInputError reports whether err is an *InputError of fn on the given
// job index and field.
func isInputError(err error, fn string, index int, field string) bool {
	var ie *specsched.InputError
	return errors.As(err, &ie) && ie.Func == fn && ie.Index == index && ie.Field == field
}

// TestAllocateSlotsChecks: every documented check of AllocateSlots — slots
// in [0, 2^53] (2^53 itself accepted, summing exactly), and Allocate's
// checks under AllocateSlots' name.
func TestAllocateSlotsChecks(t *testing.T) {
	t.Parallel()
	const fn = "dag.AllocateSlots"
	ok := []Job{{Remaining: 1, Downstream: 1, Alpha: 1}, {Remaining: 2, Downstream: 0, Alpha: 0.5}}
	for _, tc := range []struct {
		name  string
		jobs  []Job
		slots int
		beta  float64
		index int
		field string
	}{
		{"slots −1", ok, -1, 1.5, -1, "slots"},
		{"slots 2^53 + 1", ok, alloc.MaxTotal + 1, 1.5, -1, "slots"},
		{"slots MaxInt", ok, math.MaxInt, 1.5, -1, "slots"},
		{"beta 1", ok, 3, 1, -1, "beta"},
		{"beta NaN", ok, 3, math.NaN(), -1, "beta"},
		{"remaining negative", []Job{{Remaining: 1, Downstream: 0, Alpha: 1}, {Remaining: -1, Downstream: 0, Alpha: 1}}, 3, 1.5, 1, "Remaining"},
		{"downstream NaN", []Job{{Remaining: 1, Downstream: math.NaN(), Alpha: 1}}, 3, 1.5, 0, "Downstream"},
		{"alpha 0", []Job{{Remaining: 1, Downstream: 0, Alpha: 0}}, 3, 1.5, 0, "Alpha"},
		{"alpha −0", []Job{{Remaining: 1, Downstream: 0, Alpha: 1}, {Remaining: 1, Downstream: 0, Alpha: math.Copysign(0, -1)}}, 3, 1.5, 1, "Alpha"},
	} {
		sentinel := []int{42, 43}
		got, err := AllocateSlots(sentinel[:0], tc.jobs, tc.slots, tc.beta, nil)
		if got != nil || !isInputError(err, fn, tc.index, tc.field) || sentinel[0] != 42 || sentinel[1] != 43 {
			t.Errorf("%s: got %v, %v, dst %v; want job %d field %q, dst untouched", tc.name, got, err, sentinel, tc.index, tc.field)
		}
	}
	for _, slots := range []int{alloc.MaxTotal, alloc.MaxTotal - 1, 0} {
		got, err := AllocateSlots(nil, ok, slots, 1.5, nil)
		if err != nil || got[0]+got[1] != slots {
			t.Errorf("slots %d: got %v, %v; want Σ = %d", slots, got, err, slots)
		}
	}
}

// TestAllocateAlphaRange: α over (0, MaxFloat64] is accepted at both
// ends, and 0 rejected. Two jobs with T = 1, keys 1 and 2, β = 2
// (V = T·√α): on S = 1, job 0's target 1·√(α_0/min{α_0, α_1}) ≥ 1 covers
// S in each pair of weights below, so it gets all of S.
func TestAllocateAlphaRange(t *testing.T) {
	t.Parallel()
	for _, alpha := range [][2]float64{{5e-324, 5e-324}, {math.MaxFloat64, 5e-324}, {math.MaxFloat64, math.MaxFloat64}, {5e-324, math.MaxFloat64}} {
		got, err := Allocate(nil, []Job{{Remaining: 1, Downstream: 1, Alpha: alpha[0]}, {Remaining: 1, Downstream: 2, Alpha: alpha[1]}}, 1, 2, nil)
		if err != nil || !slices.Equal(got, []float64{1, 0}) {
			t.Errorf("α = %v: got %v, %v; want [1 0]", alpha, got, err)
		}
	}
	if _, err := Allocate(nil, []Job{{Remaining: 0, Downstream: 0, Alpha: 0}}, 1, 2, nil); !isInputError(err, "dag.Allocate", 0, "Alpha") {
		t.Errorf("α = 0 (a finished job's too): got %v, want an InputError", err)
	}
}

// TestAllocateRejectsAliasedDst: a dst whose memory overlaps jobs is
// rejected with an InputError on dst (Allocate and AllocateSlots read jobs
// after they start writing), and neither dst nor jobs changes; a dst too
// small to be reused, which is never written, is not an overlap.
func TestAllocateRejectsAliasedDst(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Remaining: 1, Downstream: 0, Alpha: 1}, {Remaining: 2, Downstream: 0, Alpha: 4}, {Remaining: 3, Downstream: 1, Alpha: 0.5}, {Remaining: 4, Downstream: 4, Alpha: 2}}
	orig := slices.Clone(jobs)
	// Views of the jobs' memory as float64s and ints: 3 words per job.
	words := unsafe.Slice((*float64)(unsafe.Pointer(&jobs[0])), 3*len(jobs))
	ints := unsafe.Slice((*int)(unsafe.Pointer(&jobs[0])), 3*len(jobs))

	got, err := Allocate(words[:0], jobs, 10, 1.5, nil)
	if got != nil || !isInputError(err, "dag.Allocate", -1, "dst") {
		t.Errorf("Allocate: got %v, %v; want an InputError on dst", got, err)
	}
	got, err = Allocate(words[5:5], jobs, 10, 1.5, nil) // from job 1's Downstream on
	if got != nil || !isInputError(err, "dag.Allocate", -1, "dst") {
		t.Errorf("Allocate, offset dst: got %v, %v; want an InputError on dst", got, err)
	}
	gotInts, err := AllocateSlots(ints[:0], jobs, 10, 1.5, nil)
	if gotInts != nil || !isInputError(err, "dag.AllocateSlots", -1, "dst") {
		t.Errorf("AllocateSlots: got %v, %v; want an InputError on dst", gotInts, err)
	}
	if d := gocmp.Diff(orig, jobs); d != "" {
		t.Errorf("jobs modified:\n%s", d)
	}
	// Too small to be reused: a fresh slice is returned, jobs untouched.
	want, err := Allocate(nil, jobs, 10, 1.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = Allocate(words[:0:len(jobs)-1], jobs, 10, 1.5, nil)
	if err != nil || !slices.Equal(got, want) || gocmp.Diff(orig, jobs) != "" {
		t.Errorf("small dst: got %v, %v; want %v, jobs untouched", got, err, want)
	}
	// A dst just past the jobs is not an overlap.
	buf := make([]Job, len(jobs)+2)
	copy(buf, jobs)
	after := unsafe.Slice((*float64)(unsafe.Pointer(&buf[len(jobs)])), 6)
	got, err = Allocate(after[:0], buf[:len(jobs)], 10, 1.5, nil)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("adjacent dst: got %v, %v; want %v", got, err, want)
	}
}
