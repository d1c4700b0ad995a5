package competitive

import (
	"errors"
	"fmt"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/internal/check"
)

// TestConservationEachCheck drives the simulator's invariant checks one by
// one with states no correct run reaches (the bookkeeping corrupted by
// hand, or an action no policy emits), each at the boundary of its check,
// and expects that check's own report: its reason, and the job it names —
// the input index of the job acted on, or none (Index −1) for a check of
// the whole cluster or run. TestConservationChecks asks only that some
// violation is reported; here a weakened check that lets a later one fire,
// or none, or that indexes out of range, fails.
func TestConservationEachCheck(t *testing.T) {
	t.Parallel()
	cfg := func(p Algorithm, mode Mode) Config {
		return Config{Machines: 4, Algorithm: p, Mode: mode, Speed: 1, Peak: 1}
	}
	// One job of two map tasks (input index 1, behind a job already
	// finished), and a job mapping beside one reducing.
	one := []SimJob{{}, {MapTasks: 2, ReduceTasks: 1, MapWork: 1, ReduceWork: 1}}
	two := []SimJob{{MapTasks: 1, MapWork: 1}, {ReduceTasks: 3, ReduceWork: 1}}
	fresh := func(jobs []SimJob, c Config, tasks int, active ...int) *sim {
		s := newSim(jobs, c, tasks, nil)
		s.active = active
		s.now = 7
		s.snapshot()
		return s
	}
	// Job 1 of one with its first map task running one copy.
	running := func(mode Mode) *sim {
		s := newSim(one, cfg(AlgorithmFair, mode), 3, nil)
		s.active = []int{1}
		s.tasks[0].copies = 1
		s.snapshot()
		return s
	}
	cases := []struct {
		name   string
		run    func() error
		index  int
		reason string
	}{
		{"run: fewer tasks finished than exist", func() error {
			s := newSim(nil, cfg(AlgorithmFair, Preemptive), 1, nil) // claims one task, has none
			return s.run(10)
		}, check.Scalar, "tasks finished ≠ tasks"},
		{"capacity: copies of both phases above M", func() error {
			s := fresh(two, cfg(AlgorithmFair, Preemptive), 4, 0, 1)
			s.busy = [2]int{2, 3} // 5 > 4, though neither phase alone is
			return s.checkCapacity()
		}, check.Scalar, "more copies running than machines"},
		{"capacity: no machine busy", func() error {
			return fresh(two, cfg(AlgorithmFair, Preemptive), 4, 0, 1).checkCapacity()
		}, check.Scalar, "no machine busy while a job is active"},
		{"capacity: SEW reduce group over-used", func() error {
			s := fresh(two, cfg(AlgorithmSEW, Preemptive), 4, 0, 1)
			s.busy = [2]int{0, 3} // ⌊4/2⌋ = 2 reduce machines
			return s.checkCapacity()
		}, check.Scalar, "a SEW machine group over-used"},
		{"capacity: SEW map group over-used", func() error {
			s := newSim(one, Config{Machines: 5, Algorithm: AlgorithmSEW, Speed: 1, Peak: 1}, 3, nil)
			s.busy = [2]int{4, 0} // ⌈5/2⌉ = 3 map machines
			return s.checkCapacity()
		}, check.Scalar, "a SEW machine group over-used"},
		{"apply: job ordinal = number of active jobs", func() error {
			return fresh(one, cfg(AlgorithmFair, Preemptive), 3, 1).apply(Action{Job: 1, Stage: MapStage, Kind: Launch, Copies: 1})
		}, check.Scalar, "malformed action"},
		{"apply: no copies", func() error {
			return fresh(one, cfg(AlgorithmFair, Preemptive), 3, 1).apply(Action{Stage: MapStage, Kind: Launch})
		}, check.Scalar, "malformed action"},
		{"apply: launch ordinal = unscheduled count", func() error {
			// Job 0 has one unscheduled map task; ordinal 1 would address job
			// 1's first unscheduled (reduce) task in the shared list.
			return fresh(two, cfg(AlgorithmFair, Preemptive), 4, 0, 1).apply(Action{Job: 0, Stage: MapStage, Kind: Launch, Task: 1, Copies: 1})
		}, 0, "launch of a task that is not unscheduled"},
		{"apply: clone ordinal = running count", func() error {
			return running(Preemptive).apply(Action{Job: 0, Stage: MapStage, Kind: Clone, Task: 1, Copies: 1})
		}, 1, "clone or preemption of a task that is not running"},
		{"apply: launch of a finished task", func() error {
			s := fresh(one, cfg(AlgorithmFair, Preemptive), 3, 1)
			s.tasks[0].done = true // finished, yet listed unscheduled
			return s.apply(Action{Stage: MapStage, Kind: Launch, Copies: 1})
		}, 1, "action on a finished task or the wrong phase"},
		{"apply: launch of a task of the other phase", func() error {
			s := fresh(one, cfg(AlgorithmFair, Preemptive), 3, 1)
			s.tasks[0].stage = ReduceStage // a reduce task in the map list
			return s.apply(Action{Stage: MapStage, Kind: Launch, Copies: 1})
		}, 1, "action on a finished task or the wrong phase"},
		{"apply: more copies than machines", func() error {
			return fresh(one, cfg(AlgorithmFair, Preemptive), 3, 1).apply(Action{Stage: MapStage, Kind: Launch, Copies: 5})
		}, 1, "more copies than machines"},
		{"apply: preemption in NonPreemptive mode", func() error {
			return running(NonPreemptive).apply(Action{Stage: MapStage, Kind: Preempt, Copies: 1})
		}, 1, "preemption of copies that are not running"},
		{"apply: preemption of more copies than run", func() error {
			return running(Preemptive).apply(Action{Stage: MapStage, Kind: Preempt, Copies: 2})
		}, 1, "preemption of copies that are not running"},
		{"apply: clone of a task not running", func() error {
			s := running(Preemptive)
			s.tasks[0].copies = 0 // listed running, yet without a copy
			return s.apply(Action{Stage: MapStage, Kind: Clone, Copies: 1})
		}, 1, "clone of a task that is not running"},
	}
	for _, c := range cases {
		err := recovered(c.run)
		var ie *InvariantError
		if !errors.As(err, &ie) || ie.Job != c.index || ie.Reason != c.reason {
			t.Errorf("%s: err = %v; want the violation %q on index %d", c.name, err, c.reason, c.index)
		}
	}
}

// TestInvariantError: the message names the slot, the job when there is
// one, and the reason; an InvariantError is not an InputError (the
// caller's input is not at fault), and the slot is the one simulated.
func TestInvariantError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  InvariantError
		want string
	}{
		{InvariantError{Slot: 7, Job: 0, Reason: "task launched twice"}, "competitive.Simulate: slot 7: job 0: conservation violated: task launched twice"},
		{InvariantError{Slot: 12, Job: check.Scalar, Reason: "no machine busy while a job is active"}, "competitive.Simulate: slot 12: conservation violated: no machine busy while a job is active"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
	s := newSim([]SimJob{{MapTasks: 1, MapWork: 1}}, Config{Machines: 2, Algorithm: AlgorithmFair, Speed: 1, Peak: 1}, 1, nil)
	s.active = []int{0}
	s.now = 9
	s.snapshot()
	err := s.checkCapacity()
	var ie *InvariantError
	var input *specsched.InputError
	if !errors.As(err, &ie) || ie.Slot != 9 || errors.As(err, &input) {
		t.Errorf("idle cluster in slot 9: err = %#v, want an InvariantError of slot 9 and no InputError", err)
	}
}

// recovered runs f, turning a panic into an error.
func recovered(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}
