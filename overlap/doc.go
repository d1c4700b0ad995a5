// Package overlap schedules the overlapping map and shuffle phases of
// MapReduce jobs: the overlapping tandem queue of Minghong Lin, Li Zhang,
// Adam Wierman and Jian Tan, "Joint Optimization of Overlapping Phases in
// MapReduce", Performance Evaluation, 2013 (a short version in ACM
// SIGMETRICS Performance Evaluation Review, doi:10.1145/2567529.2567534;
// sections and numbers here are the full paper's), with its two
// algorithms MaxSRPT (§4.1, Algorithm 1,
// Theorem 3, Corollary 4) and SplitSRPT (§4.2, Algorithm 2, Theorem 5,
// Corollary 6), the k-limited processor sharing baseline and FIFO of §5, an
// exact event-driven fluid simulator of the model, the single-station lower
// bound of §5.1, the synthetic workload of §5.3 and the paper's tight and
// adversarial instances.
//
// # The model (§2.1, constraint (1))
//
// Job i arrives at r_i with map size x_i and shuffle size y_i. A map station
// and a shuffle station, each of speed s (the paper normalises s = 1), serve
// the jobs present at rates p_i(t) and q_i(t) with Σ p_i ≤ s and Σ q_i ≤ s.
// The phases overlap: the fraction of a job's shuffle work done never
// exceeds the fraction of its map work done, y_i(t)/y_i ≥ x_i(t)/x_i, where
// x_i(t) and y_i(t) are the remaining sizes. The shuffle work a job has
// available is therefore y_i(t) − y_i·x_i(t)/x_i; while it is zero the job's
// shuffle can run at most at (y_i/x_i)·p_i(t). A job leaves when both phases
// are done; its response time is its departure time minus r_i. A job with
// x_i = 0 has all its shuffle work available at once; a job with y_i = 0 is
// done when its map is; a job with both zero leaves as it arrives.
//
// # Contracts
//
// Rates is a pure function of a snapshot: it returns each job's (map,
// shuffle) rate for a policy at one instant, in a destination slice, without
// modifying its input, and allocates nothing once its Workspace has grown.
// Every rate vector it returns satisfies constraint (1): a job with no
// available shuffle work is never given more shuffle rate than its map rate
// generates. Simulate runs the fluid model exactly: between two events
// every rate is constant, so the events (arrivals, map completions, a job's
// available shuffle work reaching zero, departures) are computed in closed
// form, not by time stepping; its state is the jobs present, so its memory
// does not grow with the jobs already gone. Ties in every priority order go
// to the earlier arrival, then to the lower index. Invalid input (NaN, ±Inf,
// negative sizes, remaining sizes above the original or violating (1), a
// non-positive speed, unsorted arrivals, a dst that overlaps the jobs,
// and the documented range bounds of each function) returns a
// *specsched.InputError naming the job and field; nothing panics. Every
// accepted input, from 1e-300 to 1e300 and mixed in one instance, gets a
// finite answer: rates are formed without intermediate overflow (see
// Rates) and simulated time without absorbing small work (see Simulate).
package overlap
