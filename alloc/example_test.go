package alloc_test

import (
	"fmt"

	"github.com/specsched/specsched/alloc"
)

// The thesis's worked example (Table 2.1, Figure 2.3): job A has 4 tasks, job
// B has 6, the cluster has 6 slots. With β = 1.5 the virtual sizes are
// V_A = 5.33 and V_B = 8; capacity is short (ΣV = 13.3 > 6), so the smaller
// job gets its whole virtual size and B the rest. In whole slots A gets 5 and
// B 1 — the allocation of Figure 2.3 from time 0 to 3, where the extra slot
// lets A speculate its straggler A1 at once.
func ExampleAllocateSlots_table21() {
	remaining := []float64{4, 6} // tasks of A and B
	var ws alloc.Workspace
	real, _ := alloc.Allocate(nil, remaining, 6, 1.5, &ws)
	slots, _ := alloc.AllocateSlots(nil, remaining, 6, 1.5, &ws)
	fmt.Printf("real %.2f, slots %v\n", real, slots)
	// Output: real [5.33 0.67], slots [5 1]
}

// Capacity constrained: the 4-task and 6-task jobs get their virtual sizes
// (5.33 and 8 slots), the 20-task job only what is left.
func ExampleAllocate_constrained() {
	shares, _ := alloc.Allocate(nil, []float64{4, 6, 20}, 16, 1.5, nil)
	fmt.Printf("%.2f\n", shares)
	// Output: [5.33 8.00 2.67]
}

// Abundant capacity (ΣV = 13.3 < 40): slots are shared in proportion to the
// virtual sizes, so the large job gets the most — Guideline 2.
func ExampleAllocate_abundant() {
	shares, _ := alloc.Allocate(nil, []float64{2, 3, 5}, 40, 1.5, nil)
	fmt.Println(shares)
	// Output: [8 12 20]
}

// Largest remainder: every share is floored, and the leftover slot goes to
// the largest fractional part — here a tie between jobs 0 and 1, broken by
// priority (job 1 has fewer remaining tasks).
func ExampleApportion() {
	shares := []float64{2.5, 2.5, 1}
	remaining := []float64{9, 4, 1}
	slots, _ := alloc.Apportion(nil, shares, 6, remaining, nil)
	fmt.Println(slots)
	// Output: [2 3 1]
}

// The model of eq. 3.2–3.5 for a job with 6 remaining tasks and β = 1.5:
// below its virtual size of 8 slots each slot adds β²/(4(β−1)) = 1.125 to the
// throughput; above it the returns diminish.
func ExampleThroughput() {
	v, _ := alloc.VirtualSize(6, 1.5)
	for _, slots := range []float64{4, 8, 12} {
		k, _ := alloc.SpeculationLevel(6, slots, 1.5)
		mu, _ := alloc.Throughput(6, slots, 1.5)
		fmt.Printf("V=%g S=%g: level %.3f, throughput %.3f\n", v, slots, k, mu)
	}
	// Output:
	// V=8 S=4: level 1.333, throughput 4.500
	// V=8 S=8: level 1.333, throughput 9.000
	// V=8 S=12: level 2.000, throughput 12.000
}
