// Package dagkernel holds the unchecked kernels of Hopper's allocation for
// DAG jobs (thesis §4.1, Algorithm 3): Prepare, which records a snapshot,
// Allocate and its integer form Slots (O(n), a radix selection of the
// cut-off instead of a sort; search.go, scale.go), and Alpha, the weight
// α of §4.1 and §5.2. Package dag's exported Allocate, AllocateSlots and
// EstimateAlpha are validation plus these kernels, and their doc comments
// state the mathematics, special cases and magnitudes; the simulator's
// DAGAllocator calls them on the task counts of its validated state, so no
// error that "cannot happen" is produced. dag.Job is an alias of Job.
//
// Every kernel assumes valid arguments, stated in its doc comment as its
// precondition, and does not check them.
package dagkernel
