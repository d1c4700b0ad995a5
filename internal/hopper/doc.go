// Package hopper holds the unchecked kernels of Hopper's single-job model
// and allocation (thesis ch. 3): the speculation factor, the speculation
// level of eq. 3.2, Algorithm 1 (Allocate) and Algorithm 2, the ε-fair
// allocation (Fair), on a summarised snapshot. The exported functions of
// packages alloc and fairness are validation plus a call to these kernels,
// and their doc comments state the mathematics, special cases and
// complexity; sibling packages (stragglers) and the simulators (probe's
// Hopper targets) call the kernels directly on data they have already
// validated, so no error that "cannot happen" is produced or discarded.
//
// Every kernel assumes valid arguments — β a finite number > 1, counts and
// slots finite and ≥ 0, sums finite — and does not check them.
package hopper
