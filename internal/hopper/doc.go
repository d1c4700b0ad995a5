// Package hopper holds the unchecked kernels of Hopper's single-job model
// and Algorithm 1 (thesis ch. 3): the speculation factor, the speculation
// level of eq. 3.2 and Algorithm 1 on a summarised snapshot. The exported
// functions of package alloc are validation plus a call to these kernels,
// and their doc comments state the mathematics, special cases and
// complexity; sibling packages (stragglers) call the kernels directly on
// data they have already validated, so no error that "cannot happen" is
// produced or discarded.
//
// Every kernel assumes valid arguments — β a finite number > 1, counts and
// slots finite and ≥ 0, sums finite — and does not check them.
package hopper
