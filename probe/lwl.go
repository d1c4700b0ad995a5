package probe

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/minheap"
)

// PlaceLWL places the tasks of a long job by Least Work Left, as Eagle's and
// Hawk's centralized scheduler does in the general partition: "This policy
// places each task on the node corresponding to the smallest expected
// queueing time for such task" (Eagle §3.3, [8]). workLeft[i] is node i's
// expected queueing time — the estimated long work assigned to it and not
// yet done — and each task, in turn, goes to the node with the least work
// left, which then grows by estTask. Ties go to the smaller node index.
// dst[k] is the node of task k; workLeft is not modified.
//
// To place in the general partition only, pass the general nodes' work
// left and add the partition's first index to the result (or, as the
// simulator does, number the general partition first).
//
// Work left is accumulated in float64, each task adding estTask with one
// rounding, as a scheduler's counters do.
//
// Complexity: O(n + tasks·log n) time for n nodes (a binary heap);
// allocation-free with a dst of capacity tasks and a reused ws. dst must
// not overlap workLeft.
//
// Special cases: tasks = 0 gives an empty dst. estTask = 0 puts every task
// on the same least-loaded node. An error, with dst untouched, is returned
// for a workLeft entry or estTask that is NaN, ±Inf or negative, for tasks <
// 0 or > MaxProbes, for tasks > 0 with no nodes, when min(workLeft) +
// tasks·estTask exceeds MaxFloat64/2 (the work left could overflow), and
// for a dst that overlaps workLeft.
func PlaceLWL(dst []int, workLeft []float64, tasks int, estTask float64, ws *Workspace) ([]int, error) {
	const fn = "probe.PlaceLWL"
	for i, w := range workLeft {
		if err := check.NonNegative(fn, i, "workLeft", w); err != nil {
			return nil, err
		}
	}
	if err := check.NonNegative(fn, check.Scalar, "estTask", estTask); err != nil {
		return nil, err
	}
	if tasks < 0 || tasks > MaxProbes {
		return nil, check.Err(fn, check.Scalar, "tasks", float64(tasks), "must lie in [0, 2^31]")
	}
	if tasks > 0 && len(workLeft) == 0 {
		return nil, check.Err(fn, check.Scalar, "len(workLeft)", 0, "must be > 0 when tasks > 0")
	}
	if err := check.Disjoint(fn, dst, tasks, "workLeft", workLeft); err != nil {
		return nil, err
	}
	if tasks > 0 {
		// Every work left PlaceLWL forms is at most max(workLeft) or
		// min(workLeft) + tasks·estTask (each task goes to the least loaded
		// node, whose work grows by estTask): bounding the latter by
		// MaxFloat64/2 keeps every sum finite despite the roundings of up
		// to 2³¹ additions (relative error ≤ 2⁻²²), where +Inf would tie
		// nodes whose work differs.
		if reach := slices.Min(workLeft) + float64(tasks)*estTask; !(reach <= math.MaxFloat64/2) {
			return nil, check.Err(fn, check.Scalar, "estTask", estTask, "min(workLeft) + tasks·estTask must be ≤ MaxFloat64/2")
		}
	}
	dst = slices.Grow(dst[:0], tasks)[:tasks]
	if tasks == 0 {
		return dst, nil
	}
	ws = orNew(ws)
	// The heap ranks node i by (work left, i).
	h := slices.Grow(ws.heap[:0], len(workLeft))[:len(workLeft)]
	for i, w := range workLeft {
		h[i] = minheap.Item[struct{}]{Rank: minheap.Rank{Key: w, ID: i}}
	}
	h.Init()
	for k := range dst {
		least := h.Min()
		dst[k] = least.ID
		least.Key += estTask
		h.Fix(0)
	}
	ws.heap = h
	return dst, nil
}
