package fairness_test

import (
	"fmt"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/fairness"
)

// ε-fair against plain Hopper: three jobs with 1, 3 and 12 remaining tasks on
// 12 slots, β = 1.5 (virtual sizes 1.33, 4 and 16). Algorithm 1 serves the
// two small jobs fully and leaves the large one 6.67 slots. With ε = 0.1 the
// fair share is 4 and the floor 3.6: the small job is raised to the floor,
// and the rest is filled smallest-first above it. ε = 0 is the Fair
// scheduler.
func ExampleAllocate() {
	remaining := []float64{1, 3, 12}
	plain, _ := alloc.Allocate(nil, remaining, 12, 1.5, nil)
	fair10, _ := fairness.Allocate(nil, remaining, 12, 1.5, 0.1, nil)
	fair, _ := fairness.Allocate(nil, remaining, 12, 1.5, 0, nil)
	fmt.Printf("Algorithm 1: %.2f\nε = 0.1:     %.2f\nε = 0:       %.2f\n", plain, fair10, fair)
	// Output:
	// Algorithm 1: [1.33 4.00 6.67]
	// ε = 0.1:     [3.60 4.00 4.40]
	// ε = 0:       [4.00 4.00 4.00]
}

// In whole slots every job keeps at least ⌊(1−ε)·S/N⌋ = ⌊3.6⌋ = 3.
func ExampleAllocateSlots() {
	slots, _ := fairness.AllocateSlots(nil, []float64{1, 3, 12}, 12, 1.5, 0.1, nil)
	fmt.Println(slots)
	// Output: [4 4 4]
}
