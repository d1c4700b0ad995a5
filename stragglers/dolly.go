package stragglers

import (
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/check"
	"github.com/specsched/specsched/internal/specbase"
)

// DollyConfig configures Dolly's budgeted cloning: Ganesh Ananthanarayanan,
// Ali Ghodsi, Scott Shenker, Ion Stoica, "Effective Straggler Mitigation:
// Attack of the Clones", USENIX NSDI 2013 ("the Dolly paper"), as Xu et
// al. §5 summarise it for their comparison: "when the total number of
// clones in the cluster is under a configurable fraction (β) of the total
// capacity of the cluster and a utilization threshold (τ), cloning will
// be applied following a simple computation based on limiting the
// probability that a job straggles. Under Dolly, all the tasks within a
// job will have the same number of clones."
//
// Its fields:
//   - Budget is β, the share of the cluster's slots that clones (copies
//     beyond the first) may hold at once; in [0, 1]. The Dolly paper's
//     evaluation clones with 5% extra resources (its abstract).
//   - Utilization is τ: no job is cloned while the cluster's utilization
//     is above it; in [0, 1]. 1 leaves the budget alone in charge.
//   - StraggleProb is p, the probability that one copy of a task
//     straggles, and Epsilon is ε, the probability of the job straggling
//     that cloning aims for; both in [0, 1].
//   - MaxClones is the most copies of a task, the original included, that
//     cloning starts: in [1, 2^53].
//
// The type is the baselines' kernel's (internal/specbase), which the
// simulators call; the alias keeps it the one type they and callers share.
type DollyConfig = specbase.DollyConfig

// DefaultDolly returns the settings DollyClones documents: β = 5%, no
// utilization threshold, p = ε = 5%, at most 3 copies of a task.
func DefaultDolly() DollyConfig {
	return DollyConfig{Budget: 0.05, Utilization: 1, StraggleProb: 0.05, Epsilon: 0.05, MaxClones: 3}
}

// DollyCluster is the cluster as Dolly's admission sees it when a job
// arrives.
//
// Its fields:
//   - Slots: the cluster's slots, in [0, 2^53].
//   - Clones: clones running now, copies beyond the first, in [0, 2^53].
//   - Utilization: busy slots over Slots, in [0, 1].
//
// The type is the baselines' kernel's (internal/specbase), which the
// simulators call; the alias keeps it the one type they and callers share.
type DollyCluster = specbase.DollyCluster

// DollyClones decides how many copies of each task — the original
// included — Dolly launches for a job of n tasks arriving at cluster; 1
// means no cloning. Jobs are decided in arrival order, each once.
//
// The clone count is the least c ≥ 1 for which the job straggles with
// probability at most ε when each of c copies of a task straggles
// independently with probability p: 1 − (1 − p^c)^n ≤ ε (the job
// straggles when any task has all its copies straggle), and MaxClones if
// no c up to it reaches ε. The job is cloned when c > 1, the cluster's
// utilization is at most τ and its n·(c − 1) clones fit in the budget with
// those already running: Clones + n·(c − 1) ≤ β·Slots; otherwise it runs
// uncloned (all or nothing: the paper gives every task of a job the same
// number of clones). Small jobs are the ones this admits: a job's clones
// grow with n, so the budget lets the small ones in, which is the Dolly
// paper's point — most jobs are small and use little of the cluster.
//
// Choices of ours, the Dolly paper's text not being at hand: p = ε = 5%
// and at most 3 copies by default, and τ = 1 (no threshold); the
// straggling model (independent copies) is the one behind the paper's
// "limiting the probability that a job straggles" as Xu et al. quote it.
//
// Complexity: O(MaxClones) with math.Log1p and math.Pow; no allocation.
//
// Errors: n outside [0, 2^53]; a cluster Slots or Clones outside
// [0, 2^53] or Utilization outside [0, 1]; a Budget, Utilization,
// StraggleProb or Epsilon outside [0, 1]; a MaxClones outside [1, 2^53].
func DollyClones(n int, cluster DollyCluster, p DollyConfig) (int, error) {
	const fn = "stragglers.DollyClones"
	if err := checkDolly(fn, p); err != nil {
		return 0, err
	}
	if n < 0 || n > alloc.MaxTotal {
		return 0, check.Err(fn, check.Scalar, "n", float64(n), "must lie in [0, 2^53]")
	}
	if cluster.Slots < 0 || cluster.Slots > alloc.MaxTotal {
		return 0, check.Err(fn, check.Scalar, "cluster.Slots", float64(cluster.Slots), "must lie in [0, 2^53]")
	}
	if cluster.Clones < 0 || cluster.Clones > alloc.MaxTotal {
		return 0, check.Err(fn, check.Scalar, "cluster.Clones", float64(cluster.Clones), "must lie in [0, 2^53]")
	}
	if err := check.Unit(fn, check.Scalar, "cluster.Utilization", cluster.Utilization); err != nil {
		return 0, err
	}
	return specbase.DollyClones(n, cluster, p), nil
}

func checkDolly(fn string, p DollyConfig) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Budget", p.Budget}, {"Utilization", p.Utilization}, {"StraggleProb", p.StraggleProb}, {"Epsilon", p.Epsilon}} {
		if err := check.Unit(fn, check.Scalar, f.name, f.v); err != nil {
			return err
		}
	}
	if p.MaxClones < 1 || p.MaxClones > alloc.MaxTotal {
		return check.Err(fn, check.Scalar, "MaxClones", float64(p.MaxClones), "must lie in [1, 2^53]")
	}
	return nil
}

// Dolly launches a job's unscheduled tasks with their clones, given the
// slots it may use and clones, the copies per task DollyClones granted
// when the job arrived; it appends the actions to dst[:0]. Dolly clones
// proactively, when a task is launched, and never speculates afterwards
// (the Dolly paper: cloning "avoiding waiting and speculation
// altogether").
//
// The free slots (slots − ΣCopies) launch unscheduled tasks in index
// order, originals first — an original is never held back for a clone of
// another task — and the slots left give the tasks launched by this call,
// in index order, up to clones − 1 clones each. A launch is a Launch
// action; its clones follow the launches as Copy actions of the same task,
// one per copy (so a task appears up to clones times, unlike the other
// rules). The job's running tasks get no further copy: a task launched
// with fewer clones, for lack of slots, stays so.
//
// Complexity: O(n) for n tasks. With a dst of capacity ≥ the number of
// actions it allocates nothing (ws is accepted for uniformity and not
// used).
//
// Errors, with dst untouched: slots outside [0, 2^53], clones outside
// [1, 2^53], the task errors of SparkSpeculate. dst must not overlap tasks
// (Field "dst").
func Dolly(dst []Action, tasks []TaskStatus, slots, clones int, ws *Workspace) ([]Action, error) {
	const fn = "stragglers.Dolly"
	if clones < 1 || clones > alloc.MaxTotal {
		return nil, check.Err(fn, check.Scalar, "clones", float64(clones), "must lie in [1, 2^53]")
	}
	c, err := begin(fn, dst, tasks, slots, false)
	if err != nil {
		return nil, err
	}
	return specbase.Dolly(dst, tasks, c, slots, clones), nil
}
