package sim_test

import (
	"fmt"

	"github.com/specsched/specsched/sim"
)

// EqualShare is a user-defined allocator: every active job is due an equal
// share of the slots, the first ones in arrival order one more when they do
// not divide evenly, and the jobs are served in arrival order.
type EqualShare struct{}

func (EqualShare) Allocate(d *sim.Decision, target []int, key []float64) error {
	n := d.Active()
	for k := range target {
		target[k] = d.Capacity() / n
		if k < d.Capacity()%n {
			target[k]++
		}
		key[k] = 0 // ties go by position: arrival order
	}
	return nil
}

// Plug a user-defined allocator into the simulator and combine it with a
// built-in in-job rule. On the thesis's worked example (6 slots, jobs A and
// B of 4 and 6 tasks), each job is due 3 slots and launches tasks only: A
// runs its 8-unit task throughout and completes at 8; B gets A's spare slot
// at time 3 (work conservation) and completes at 6.
func ExampleAllocator() {
	cfg := sim.DefaultConfig(sim.Fair, 6)
	cfg.Allocator = EqualShare{}
	cfg.Rule = sim.LaunchRule{}
	r, err := sim.Simulate(sim.ThesisExample(), cfg)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Jobs[0].Completion, r.Jobs[1].Completion)
	// Output: 8 6
}
