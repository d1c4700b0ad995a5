// Package srewc holds the unchecked kernel of SREW+C(β)'s machine shares
// g_j(t) (Xu et al., "Mitigating Service Variability in MapReduce Clusters
// via Task Cloning: A Competitive Analysis", IEEE TPDS 2017, §4.1,
// Algorithm 2 line 4), real (Shares) and in whole machines (Machines), on
// the jobs' remaining effective workloads Υ_j(t). Package competitive's
// exported Shares and Machines are its validation (of the jobs, which
// also computes Υ_j(t)) plus these kernels, and their doc comments state
// the mathematics; the simulator's SREWCAllocator calls them on the
// workloads it computes from the engine's validated state, so no error
// that "cannot happen" is produced.
//
// Every kernel assumes valid arguments, stated in its doc comment as its
// precondition, and does not check them.
package srewc
