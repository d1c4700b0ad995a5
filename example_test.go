package specsched_test

import (
	"fmt"
	"strings"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/stragglers"
)

// A scheduler calls the library at every event — a job's arrival, a task's
// completion, a task running long enough to be judged — with a snapshot of
// its jobs: alloc.AllocateSlots (Hopper, Algorithm 1) shares the cluster's
// slots among the jobs by their unfinished tasks, then stragglers.Speculate
// turns each job's share into launches of waiting tasks and speculative
// copies of running ones.
//
// The jobs are the thesis's worked example (Table 2.1) on 6 slots with
// β = 1.5: job A's tasks take 8, 3, 3, 3 time units, job B's 6, 6, 3, 3,
// 1, 1, a copy takes t_new = 2, and a task may be judged after running 0.5.
// Worked by hand:
//
//   - t = 0: virtual sizes (2/β)·T = 5.33 and 8 exceed the 6 slots, so A,
//     the smaller, gets 5.33 and B the rest: [5 1]. In A, eq. 3.2 asks for
//     5/(2/β) = 3.75 distinct tasks, 4 once rounded: A launches its four
//     tasks and keeps a slot for a copy; B launches one.
//   - t = 0.5: the tasks can be judged; A's free slot copies task 0, whose
//     t_rem = 7.5 is the largest above t_new.
//   - t = 2.5: that copy finishes task 0. A has 3 tasks (V = 4), B 6
//     (V = 8): [4 2]. A's three tasks have t_rem 0.5 < t_new, so its
//     fourth slot has nothing to do; B launches task 1.
//   - t = 3: A is done and B gets every slot: 4.5 distinct tasks by eq. 3.2,
//     5 rounded (a tie goes to tasks): B launches tasks 2, 3, 4 and copies
//     task 1 (t_rem 5.5; task 0 has 3 left).
func Example_schedulerLoop() {
	const slots, beta = 6, 1.5
	policy := stragglers.Speculation{Rule: stragglers.ThesisRule, NewCopy: 2, Beta: beta, MinElapsed: 0.5}
	waiting := stragglers.Task{}
	finished := stragglers.Task{State: stragglers.Finished}
	running := func(elapsed, remaining float64) stragglers.Task {
		return stragglers.Task{State: stragglers.Running, Copies: 1, Elapsed: elapsed, Remaining: remaining}
	}
	events := []struct {
		time float64
		jobs [][]stragglers.Task // the scheduler's snapshot of jobs A and B
	}{
		{0, [][]stragglers.Task{
			{waiting, waiting, waiting, waiting},
			{waiting, waiting, waiting, waiting, waiting, waiting}}},
		{0.5, [][]stragglers.Task{
			{running(0.5, 7.5), running(0.5, 2.5), running(0.5, 2.5), running(0.5, 2.5)},
			{running(0.5, 5.5), waiting, waiting, waiting, waiting, waiting}}},
		{2.5, [][]stragglers.Task{
			{finished, running(2.5, 0.5), running(2.5, 0.5), running(2.5, 0.5)},
			{running(2.5, 3.5), waiting, waiting, waiting, waiting, waiting}}},
		{3, [][]stragglers.Task{
			{finished, finished, finished, finished},
			{running(3, 3), running(0.5, 5.5), waiting, waiting, waiting, waiting}}},
	}

	// Reused across events: the steady state allocates nothing.
	var aws alloc.Workspace
	var sws stragglers.Workspace
	var remaining []float64
	var shares []int
	var actions []stragglers.Action
	for _, ev := range events {
		remaining = remaining[:0]
		for _, tasks := range ev.jobs {
			unfinished := 0
			for _, t := range tasks {
				if t.State != stragglers.Finished {
					unfinished++
				}
			}
			remaining = append(remaining, float64(unfinished))
		}
		var err error
		if shares, err = alloc.AllocateSlots(shares, remaining, slots, beta, &aws); err != nil {
			panic(err)
		}
		line := fmt.Sprintf("t = %-3g slots %v", ev.time, shares)
		for j, tasks := range ev.jobs {
			if actions, err = stragglers.Speculate(actions, tasks, shares[j], policy, &sws); err != nil {
				panic(err)
			}
			line += fmt.Sprintf("  %c: %s", 'A'+j, describe(actions))
		}
		fmt.Println(line)
	}
	// Output:
	// t = 0   slots [5 1]  A: launch 0 1 2 3  B: launch 0
	// t = 0.5 slots [5 1]  A: copy 0  B: –
	// t = 2.5 slots [4 2]  A: –  B: launch 1
	// t = 3   slots [0 6]  A: –  B: launch 2 3 4, copy 1
}

// describe lists a job's actions as "launch 0 1, copy 2" (– for none).
func describe(actions []stragglers.Action) string {
	var launch, copies []string
	for _, a := range actions {
		if a.Kind == stragglers.Launch {
			launch = append(launch, fmt.Sprint(a.Task))
		} else {
			copies = append(copies, fmt.Sprint(a.Task))
		}
	}
	var parts []string
	if len(launch) > 0 {
		parts = append(parts, "launch "+strings.Join(launch, " "))
	}
	if len(copies) > 0 {
		parts = append(parts, "copy "+strings.Join(copies, " "))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, ", ")
}
