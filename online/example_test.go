package online_test

import (
	"fmt"

	"github.com/specsched/specsched/online"
)

// A scheduler's event loop: jobs arrive, tasks complete, a job finishes, and
// after each event the scheduler asks for the targets it needs. The
// thesis's Table 2.1: jobs A (4 tasks) and B (6 tasks) on 6 slots with
// β = 1.5 (virtual sizes 5.33 and 8): capacity constrained, A first.
func Example() {
	h, err := online.New(6, 1.5)
	if err != nil {
		panic(err)
	}
	a, _ := h.Add(4)
	b, _ := h.Add(6)
	show := func(event string) {
		ta, _ := h.Target(a)
		tb, _ := h.Target(b)
		fmt.Printf("%-22s A %.3g  B %.3g\n", event, ta, tb)
	}
	show("A and B arrive:")
	_ = h.Update(a, 1) // three of A's tasks complete
	show("A has 1 task left:")
	_ = h.Remove(a) // A finishes
	tb, _ := h.Target(b)
	fmt.Printf("%-22s B %.3g\n", "A done:", tb)
	_ = h.SetSlots(20) // the cluster grows: B's virtual size, 8, fits
	tb, _ = h.Target(b)
	fmt.Printf("%-22s B %.3g\n", "20 slots:", tb)
	// Output:
	// A and B arrive:        A 5.33  B 0.667
	// A has 1 task left:     A 1.33  B 4.67
	// A done:                B 6
	// 20 slots:              B 20
}

// Handing out slots: as slots free, the scheduler gives each to the job
// Next names and records it with SetHeld. Table 2.1 again (A 4 tasks, B 6,
// 6 slots, β = 1.5): A's share is 5.33, B's 0.667. Next first fills whole
// slots of the shares, A's five (A comes first in Algorithm 1's order),
// then the fractions, largest first: B's 0.667 before A's 0.333. That is
// alloc.AllocateSlots's [5 1]. With every slot held, Next has no job left
// below its share worth a whole slot or a larger fraction than A's: it
// names A, whose 5 is still below 5.33.
func ExampleHopper_Next() {
	h, _ := online.New(6, 1.5)
	a, _ := h.Add(4)
	b, _ := h.Add(6)
	name := map[int]string{a: "A", b: "B"}
	held := map[int]int{}
	for slot := 1; slot <= 6; slot++ {
		j, _ := h.Next()
		held[j]++
		_ = h.SetHeld(j, held[j])
		fmt.Printf("slot %d to %s\n", slot, name[j])
	}
	j, ok := h.Next()
	fmt.Println("a seventh slot would go to", name[j], ok)
	// Output:
	// slot 1 to A
	// slot 2 to A
	// slot 3 to A
	// slot 4 to A
	// slot 5 to A
	// slot 6 to B
	// a seventh slot would go to A true
}

// Algorithm 2 with ε = 0.5 on the jobs of Table 2.1 (A 4 tasks, B 6, 6
// slots, β = 1.5): the floor f = (1−ε)·S/N = 1.5 holds B up, and A is
// filled to V_A − f more until the slots run out (4.5). When A is down to
// one task (V_A = 1.33 ≤ f), A gets the floor and B the rest. Next hands
// the first free slot to A, the first job in order short of its share.
func ExampleFair() {
	f, err := online.NewFair(6, 1.5, 0.5)
	if err != nil {
		panic(err)
	}
	a, _ := f.Add(4)
	b, _ := f.Add(6)
	show := func(event string) {
		ta, _ := f.Target(a)
		tb, _ := f.Target(b)
		fmt.Printf("%-20s A %.3g  B %.3g\n", event, ta, tb)
	}
	show("A and B arrive:")
	_ = f.Update(a, 1)
	show("A has 1 task left:")
	next, _ := f.Next()
	fmt.Println("next slot to A:", next == a)
	// Output:
	// A and B arrive:      A 4.5  B 1.5
	// A has 1 task left:   A 1.5  B 4.5
	// next slot to A: true
}

// K classes: job A (2 tasks, β = 1.5, a heavy tail) and job B (4 tasks,
// β = 3, no speculation). On 5 slots the water level stops at B's class
// (slope 1): A gets T/√((β−1)·1) = 2/√0.5 = 2.83, past its virtual size
// 2.67, and B the rest, 2.17, below its V = T = 4. On 10 slots B gets all
// it can use, 4, and A the other 6. The heavier tail comes first in the
// order: the first free slot goes to A.
func ExampleClasses() {
	c, err := online.NewClasses(5)
	if err != nil {
		panic(err)
	}
	a, _ := c.Add(2, 1.5)
	b, _ := c.Add(4, 3)
	show := func(event string) {
		ta, _ := c.Target(a)
		tb, _ := c.Target(b)
		fmt.Printf("%-10s A %.3g  B %.3g\n", event, ta, tb)
	}
	show("5 slots:")
	_ = c.SetSlots(10)
	show("10 slots:")
	next, _ := c.Next()
	fmt.Println("next slot to A:", next == a)
	// Output:
	// 5 slots:   A 2.83  B 2.17
	// 10 slots:  A 6  B 4
	// next slot to A: true
}
