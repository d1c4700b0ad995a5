// Package fairness implements Hopper's ε-fair allocation, Algorithm 2 of the
// thesis (§3.5, Theorem 2): Xiaoqi Ren, "Speculation-aware Resource
// Allocation for Cluster Schedulers", Master's thesis, California Institute
// of Technology, 2015 (CaltechTHESIS 8664).
//
// The Fair scheduler gives each of the N active jobs S/N slots; Hopper's
// Algorithm 1 (package alloc) maximises throughput but may starve large
// jobs. An allocation is ε-fair if every job receives at least
// (1−ε)·S/N slots. Algorithm 2 projects Algorithm 1 onto the ε-fair
// allocations: jobs that Algorithm 1 would leave below the floor are raised
// to it and the remaining slots go to the other jobs by Algorithm 1's
// guidelines. Theorem 2: the result has the largest total throughput among
// ε-fair allocations.
//
// ε is a fraction of the fair share in [0, 1] (the thesis's evaluation uses
// 10%): ε = 0 is the Fair scheduler, ε = 1 is Algorithm 1 itself.
//
// The package follows the specsched conventions: inputs are never modified,
// results go to a reusable dst (which must not overlap an input: an
// overlapping dst is an InputError), scratch memory comes from a
// *Workspace, invalid input returns a *specsched.InputError, the
// result is deterministic, and every magnitude float64 holds is accepted
// (within the documented bound on ΣV_i) and answered to rounding.
package fairness
