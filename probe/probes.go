package probe

import (
	"math"

	"github.com/specsched/specsched/internal/check"
)

// MaxProbes bounds the probe count ProbeCount returns: a job asking for more
// probes than 2³¹ is a caller error (no cluster has that many nodes), and the
// bound keeps ratio·tasks exact in float64.
const MaxProbes = 1 << 31

// ProbeCount is the number of probes a distributed scheduler sends for a job
// of tasks tasks: max{minProbes, ⌈ratio·tasks⌉} (Eagle §3.3: "For a job with
// t tasks, a distributed scheduler sends probes to max{K, 2t} worker nodes").
// Eagle uses minProbes = EagleMinProbes = 20 and ratio = 2; Sparrow and Hawk
// use minProbes = 0 and ratio = SparrowProbeRatio = 2 (batch sampling);
// decentralized Hopper uses minProbes = 0 and ratio = HopperProbeRatio = 4
// (Hopper §7.2). A fractional ratio·tasks is rounded up, so that every task
// has at least ratio probes on average. The ceiling is that of the float64
// product ratio·tasks (one rounding), not of the exact product of the two
// values: the float 1.1 is slightly above 11/10, and 10 tasks at ratio 1.1
// get 11 probes, not 12, as the decimal ratio means (a product within half
// an ulp above an integer counts as that integer).
//
// The count may exceed the number of nodes; PlaceProbes then places several
// probes of the job on a node.
//
// Complexity: O(1).
//
// Special cases: a job of 0 tasks needs no probe and gets 0 whatever
// minProbes is; ratio = 0 gives minProbes. An error is returned for tasks <
// 0, minProbes < 0, a ratio that is NaN, ±Inf or negative, and a count above
// MaxProbes.
func ProbeCount(tasks, minProbes int, ratio float64) (int, error) {
	const fn = "probe.ProbeCount"
	if tasks < 0 || tasks > MaxProbes {
		return 0, check.Err(fn, check.Scalar, "tasks", float64(tasks), "must lie in [0, 2^31]")
	}
	if minProbes < 0 || minProbes > MaxProbes {
		return 0, check.Err(fn, check.Scalar, "minProbes", float64(minProbes), "must lie in [0, 2^31]")
	}
	if err := check.NonNegative(fn, check.Scalar, "ratio", ratio); err != nil {
		return 0, err
	}
	if scaled := batchProbes(tasks, ratio); scaled > MaxProbes {
		return 0, check.Err(fn, check.Scalar, "ratio·tasks", scaled, "must be ≤ 2^31")
	}
	return probeCount(tasks, minProbes, ratio), nil
}

// probeCount is ProbeCount on validated input: tasks and minProbes in [0,
// MaxProbes], ratio finite and ≥ 0, and batchProbes(tasks, ratio) ≤
// MaxProbes, which Simulate checks for every job. O(1).
func probeCount(tasks, minProbes int, ratio float64) int {
	if tasks == 0 {
		return 0
	}
	return max(minProbes, int(batchProbes(tasks, ratio)))
}

// batchProbes is ⌈ratio·tasks⌉, the batch-sampling part of ProbeCount, as
// a float64 so that the caller can bound it before converting (0 for
// tasks = 0, ratio being finite).
func batchProbes(tasks int, ratio float64) float64 {
	return math.Ceil(ratio * float64(tasks))
}
