package stragglers

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/specsched/specsched"
)

// overlay returns a zero-length slice of n Ds, with capacity n, over the
// memory of src from element at on: a dst that aliases an input of
// another element type.
func overlay[D, S any](src []S, at, n int) []D {
	return unsafe.Slice((*D)(unsafe.Pointer(&src[at])), n)[:0]
}

// wantDstError checks that err is fn's *InputError on the dst.
func wantDstError(t *testing.T, name, fn string, err error) {
	t.Helper()
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn || ie.Field != "dst" {
		t.Errorf("%s: %v; want %s's InputError on dst", name, err, fn)
	}
}

// TestAllocationDstOverlap: a dst that would be reused and overlaps
// remaining or beta — the whole slice, a part, another element type — is
// rejected with Field "dst", the inputs untouched; a dst next to them in
// the same array is accepted and gives the fresh answer.
func TestAllocationDstOverlap(t *testing.T) {
	t.Parallel()
	buf := []float64{3, 1, 2, 1.5, 1.25, 1.5, 0, 0, 0}
	remaining, beta := buf[:3:3], buf[3:6:6]
	orig := slices.Clone(buf[:6])
	real := map[string]func([]float64, []float64, []float64, float64, *Workspace) ([]float64, error){
		"stragglers.Allocate": Allocate, "stragglers.TwoClasses": TwoClasses,
	}
	ints := map[string]func([]int, []float64, []float64, int, *Workspace) ([]int, error){
		"stragglers.AllocateSlots": AllocateSlots, "stragglers.TwoClassesSlots": TwoClassesSlots,
	}
	for fn, f := range real {
		for name, dst := range map[string][]float64{
			"dst = remaining": remaining[:0], "dst = beta": beta[:0], "dst from inside remaining": buf[1:1:4],
			"dst over remaining's end": buf[2:2:8], "dst over beta's end": buf[5:5:9],
		} {
			got, err := f(dst, remaining, beta, 7, nil)
			if got != nil {
				t.Errorf("%s, %s: result %v", fn, name, got)
			}
			wantDstError(t, fn+", "+name, fn, err)
		}
		if d := gocmp.Diff(orig, buf[:6]); d != "" {
			t.Fatalf("%s: inputs modified:\n%s", fn, d)
		}
		want, err := f(nil, remaining, beta, 7, nil)
		got, err2 := f(buf[6:6], remaining, beta, 7, nil)
		if err != nil || err2 != nil || !slices.Equal(got, want) || &got[0] != &buf[6] {
			t.Errorf("%s: dst after the inputs: %v, %v; want %v in place, %v", fn, got, err2, want, err)
		}
	}
	for fn, f := range ints {
		for name, dst := range map[string][]int{
			"dst over remaining": overlay[int](remaining, 0, 3), "dst over beta": overlay[int](beta, 1, 3),
		} {
			got, err := f(dst, remaining, beta, 7, nil)
			if got != nil {
				t.Errorf("%s, %s: result %v", fn, name, got)
			}
			wantDstError(t, fn+", "+name, fn, err)
		}
		if d := gocmp.Diff(orig, buf[:6]); d != "" {
			t.Fatalf("%s: inputs modified:\n%s", fn, d)
		}
		// A dst too small to be reused is never written: no overlap.
		if _, err := f(overlay[int](remaining, 0, 2), remaining, beta, 7, nil); err != nil {
			t.Errorf("%s: a dst too small to be reused: %v", fn, err)
		}
	}
}

// TestSpeculateDstOverlap: the actions or copies are appended to dst[:0],
// so a dst whose capacity reaches into the tasks is rejected, tasks
// untouched.
func TestSpeculateDstOverlap(t *testing.T) {
	t.Parallel()
	p := Speculation{NewCopy: 1, Beta: 1.5}
	tasks := []Task{{State: Running, Copies: 1, Elapsed: 0, Remaining: 5}, {State: Unscheduled, Copies: 0, Elapsed: 0, Remaining: 0}, {State: Running, Copies: 1, Elapsed: 0, Remaining: 7}}
	orig := slices.Clone(tasks)
	for name, dst := range map[string][]Action{
		"over the tasks": overlay[Action](tasks, 0, 2), "over the last task": overlay[Action](tasks, 2, 1),
	} {
		got, err := Speculate(dst, tasks, 9, p, nil)
		if got != nil {
			t.Errorf("Speculate, %s: %v", name, got)
		}
		wantDstError(t, "Speculate, "+name, "stragglers.Speculate", err)
	}
	running := []RunningTask{{1, 0, 5}, {1, 0, 7}}
	origRunning := slices.Clone(running)
	for name, dst := range map[string][]int{
		"over the tasks": overlay[int](running, 0, 6), "over the last task": overlay[int](running, 1, 1),
	} {
		launch, copies, err := SpeculateRunning(dst, running, 1, 9, p, nil)
		if launch != 0 || copies != nil {
			t.Errorf("SpeculateRunning, %s: %d, %v", name, launch, copies)
		}
		wantDstError(t, "SpeculateRunning, "+name, "stragglers.SpeculateRunning", err)
	}
	if d := gocmp.Diff(orig, tasks); d != "" {
		t.Errorf("tasks modified:\n%s", d)
	}
	if d := gocmp.Diff(origRunning, running); d != "" {
		t.Errorf("running tasks modified:\n%s", d)
	}
}
