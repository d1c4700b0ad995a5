// Package waterfill holds the unchecked kernel of the throughput-maximal
// allocation when every job has its own Pareto tail index: Algorithm 4 of
// the thesis (§4.2, Theorem 3) carried from two classes to K — the water
// level of the KKT conditions, found by a radix selection over the β
// (search.go) in O(n), with Algorithm 1 (internal/hopper) within the class
// the level stops at — and its integer form. Package stragglers' exported
// Allocate and AllocateSlots are validation (recording each job through
// Add in the same pass) plus Fill or Slots, and their doc comments state
// the mathematics and special cases; the simulator's HeteroAllocator calls
// Prepare and Slots on its validated task counts and tail indices, so no
// error that "cannot happen" is produced.
//
// Every kernel assumes valid arguments, stated in its doc comment as its
// precondition, and does not check them.
package waterfill
