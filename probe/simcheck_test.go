package probe

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/specsched/specsched"
)

// TestSimulateJobShape: a job without tasks is an InputError naming its
// len(Durations) (nil and empty alike); a job may ask for exactly
// MaxProbes = 2³¹ probes, ⌈ProbeRatio·tasks⌉ with ratio 2³¹ and one task,
// but not one more (ratio 2³¹ with two tasks: the error's value is
// ratio·tasks = 2³²). A long Eagle job sends no probe, so the bound case
// runs here at no cost: one task of 3 s sent to a general node (0.5 ms of
// network delay), complete when it ends (Eagle §2) at 3.0005 s.
func TestSimulateJobShape(t *testing.T) {
	t.Parallel()
	for _, d := range [][]float64{nil, {}} {
		_, err := Simulate([]Job{{Durations: []float64{1}, EstTask: 1}, {Durations: d, EstTask: 1}}, DefaultConfig(Sparrow, 4, 10), rngFrom(1))
		inputErr(t, err, "probe.Simulate", 1, "len(Durations)")
	}
	cfg := DefaultConfig(Eagle, 4, 1)
	cfg.ProbeRatio = MaxProbes
	res, err := Simulate([]Job{{Durations: []float64{3}, EstTask: 2}}, cfg, rngFrom(1))
	if err != nil || res.Class[0] != Long || res.Stats.Probes != 0 || math.Abs(res.Completion[0]-(3+NetworkDelay)) > 1e-12 {
		t.Fatalf("one long task at ratio 2^31: %+v, %v; want accepted, long, no probe, done at 3.0005 s", res, err)
	}
	_, err = Simulate([]Job{{Durations: []float64{3, 3}, EstTask: 2}}, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", 0, "ProbeRatio·len(Durations)")
	if v := err.(*specsched.InputError).Value; v != 2*MaxProbes {
		t.Errorf("two tasks at ratio 2^31: error value %v, want 2^32", v)
	}
}

// TestSimulateMisestimateClasses: Eagle §6.5's mis-estimation multiplies
// each job's estimate by a factor uniform on [MisestimateMin,
// MisestimateMax] before classification (Result.Class is the class the
// schedulers saw). Threshold 10, estimates 15 and 30: exact, both long; a
// factor of exactly 0.5 (Min = Max) makes them 7.5 (short) and 15 (long);
// a factor on [0, 0.5] — Min = 0 still mis-estimates — makes the first at
// most 7.5: short.
func TestSimulateMisestimateClasses(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{1}, EstTask: 15}, {Durations: []float64{1}, EstTask: 30}}
	for _, c := range []struct {
		lo, hi float64
		want   []Class
	}{
		{0, 0, []Class{Long, Long}},
		{0.5, 0.5, []Class{Short, Long}},
		{0, 0.5, []Class{Short}},
	} {
		for seed := uint64(1); seed <= 5; seed++ {
			cfg := DefaultConfig(Sparrow, 4, 10)
			cfg.MisestimateMin, cfg.MisestimateMax = c.lo, c.hi
			res, err := Simulate(jobs, cfg, rngFrom(seed))
			if err != nil || !slices.Equal(res.Class[:len(c.want)], c.want) {
				t.Fatalf("factor on [%v, %v], seed %d: classes %v, %v; want %v first", c.lo, c.hi, seed, res.Class, err, c.want)
			}
		}
	}
}

// TestSimulateNoGeneralNode: Eagle and Hawk send long jobs to the general
// partition only. On one node with ShortFraction 0.5 the short partition
// takes the node (ShortPartition gives a tie of .5 to it), so a workload
// with a long job is an InputError naming ShortFraction, and one of short
// jobs only runs (on the short partition).
func TestSimulateNoGeneralNode(t *testing.T) {
	t.Parallel()
	if short, err := ShortPartition(1, 0.5); short != 1 || err != nil {
		t.Fatalf("ShortPartition(1, 0.5) = %d, %v; want 1", short, err)
	}
	for _, p := range []Scheduler{Eagle, Hawk} {
		cfg := DefaultConfig(p, 1, 10)
		cfg.ShortFraction = 0.5
		shorts := []Job{{Durations: []float64{1}, EstTask: 1}, {Durations: []float64{2}, EstTask: 2}}
		if _, err := Simulate(shorts, cfg, rngFrom(1)); err != nil {
			t.Errorf("%v, short jobs only: %v", p, err)
		}
		_, err := Simulate(append(shorts, Job{Durations: []float64{1}, EstTask: 11}), cfg, rngFrom(1))
		inputErr(t, err, "probe.Simulate", -1, "ShortFraction")
	}
}

// TestSimulateArrivalTies: Simulate processes events at the same time in
// the order they were scheduled, and the arrivals, known from the start,
// come first. Eagle on two general nodes, network delay 1 s: long job A
// (estimate 10 s, one task of 1 s) arrives at 100, is placed by LWL on
// node 0 (expected free at 110), runs there 101–102, and the central
// learns of its end at 103 — the instant long job B arrives. B is placed
// first, while node 0 still has 7 s of expected work: on node 1, where
// it runs 104–105. Makespan 105 − 100 = 5 s from the first submission,
// busy time 2 s, utilisation 2 / (2 × 5).
func TestSimulateArrivalTies(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Eagle, 2, 1)
	cfg.ShortFraction, cfg.NetworkDelay, cfg.RecordTasks = 0, 1, true
	jobs := []Job{{Submit: 100, Durations: []float64{1}, EstTask: 10}, {Submit: 103, Durations: []float64{1}, EstTask: 10}}
	res, err := Simulate(jobs, cfg, rngFrom(1))
	if err != nil {
		t.Fatal(err)
	}
	want := []Execution{{Job: 0, Node: 0, Queued: 101, Start: 101, End: 102}, {Job: 1, Node: 1, Queued: 104, Start: 104, End: 105}}
	if !slices.Equal(res.Executions, want) || !slices.Equal(res.Completion, []float64{2, 2}) {
		t.Errorf("executions %+v, completions %v; want %+v, [2 2]", res.Executions, res.Completion, want)
	}
	if st := res.Stats; st.Makespan != 5 || st.BusyTime != 2 || st.Utilisation != 0.2 {
		t.Errorf("makespan %v, busy %v, utilisation %v; want 5, 2, 0.2", st.Makespan, st.BusyTime, st.Utilisation)
	}
}

// TestSimulateLostHalf: a time d is lost when added to the clock at t it
// moves it by less than d/2. Just below a power of two the move can be
// exactly d/2: at t = 1 − 2⁻⁵³, d = 2⁻⁵² makes t + d = 1 + 2⁻⁵³, a tie
// that rounds to even, 1: the clock moves by 2⁻⁵³ = d/2, which is not
// less than half, so the time is simulated — a long job's estimate on the
// central scheduler's LWL clock (lost) and a task's duration on the event
// queue (push) alike. At t = 123456 a 10⁻¹² s task is lost, and the error
// gives the clock in full.
func TestSimulateLostHalf(t *testing.T) {
	t.Parallel()
	t0, d := 1-0x1p-53, 0x1p-52
	if got := (t0 + d) - t0; got != d/2 || lost(t0, d) {
		t.Fatalf("the clock at %v moves by %v for %v (lost %v); want exactly half, not lost", t0, got, d, lost(t0, d))
	}
	cfg := DefaultConfig(Eagle, 2, 0)
	cfg.ShortFraction = 0
	if _, err := Simulate([]Job{{Submit: t0, Durations: []float64{1}, EstTask: d}}, cfg, rngFrom(1)); err != nil {
		t.Errorf("long job, estimate 2^-52 at 1 − 2^-53: %v", err)
	}
	cfg = DefaultConfig(Sparrow, 2, 1)
	cfg.NetworkDelay = 0
	res, err := Simulate([]Job{{Submit: t0, Durations: []float64{d}, EstTask: d}}, cfg, rngFrom(1))
	if err != nil || res.Completion[0] != d/2 {
		t.Errorf("task of 2^-52 s at 1 − 2^-53: %+v, %v; want done after 2^-53 s", res, err)
	}
	_, err = Simulate([]Job{{Submit: 123456, Durations: []float64{1e-12}, EstTask: 1}}, cfg, rngFrom(1))
	inputErr(t, err, "probe.Simulate", 0, "Durations")
	if !strings.Contains(err.Error(), "at t = 123456 ") {
		t.Errorf("lost at 123456: %v; want the clock in full", err)
	}
}

// TestSimulateProbeCounts: Stats.Probes sums the probes of every short
// job's first placement: Eagle sends max{K, ⌈2t⌉} (K = 20), so two
// one-task jobs send 40; the other policies ignore MinProbes (Hawk and
// Sparrow send 2t, Hopper 4t), so with MinProbes = 20 the same jobs send
// 4, 4 and 8.
func TestSimulateProbeCounts(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{1}, EstTask: 1}, {Submit: 1, Durations: []float64{1}, EstTask: 1}}
	for p, want := range map[Scheduler]int64{Eagle: 40, Hawk: 4, Sparrow: 4, Hopper: 8} {
		cfg := DefaultConfig(p, 100, 10)
		cfg.MinProbes = EagleMinProbes
		res, err := Simulate(jobs, cfg, rngFrom(1))
		if err != nil || res.Stats.Probes != want {
			t.Errorf("%v: %+v, %v; want %d probes", p, res, err, want)
		}
	}
}

// TestSimulateOneRejection: counts of a run worked by hand. Two nodes,
// ShortFraction 0.5: node 0 general, node 1 short (ShortPartition). Long
// job A (one task of 100 s) runs on node 0 from δ = 0.5 ms; short job C
// (two tasks of 1 s, submitted at 1) sends ⌈1 · 2⌉ = 2 probes, one to each
// node (distinct targets). Eagle: node 0 rejects its probe — one rejection,
// re-placed by the freshest vector onto node 1, the only node free of long
// work (Rescheduled 1, no fallback, no probe behind a long task); node 1
// runs both tasks through its sticky probe, 1 + 3δ to 3 + 5δ: C completes
// after 2 + 5δ. Hawk: node 0 queues its probe behind A (one probe behind
// a long task); node 1 runs one task, 1 + 3δ to 2 + 3δ; node 0 runs the
// other after A, 100 + 3δ to 101 + 3δ (one short task after a long one):
// C completes after 100 + 3δ. Nothing is stolen (node 1 is no thief,
// node 0 never idle before A ends).
func TestSimulateOneRejection(t *testing.T) {
	t.Parallel()
	jobs := []Job{{Durations: []float64{100}, EstTask: 100}, {Submit: 1, Durations: []float64{1, 1}, EstTask: 1}}
	d := NetworkDelay
	for _, c := range []struct {
		p                                      Scheduler
		rescheduled, fallback, behind, afterLg int64
		completion                             float64
	}{
		{Eagle, 1, 0, 0, 0, 2 + 5*d},
		{Hawk, 0, 0, 1, 1, 100 + 3*d},
	} {
		cfg := DefaultConfig(c.p, 2, 10)
		cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0.5, 0, 1
		res, err := Simulate(jobs, cfg, rngFrom(1))
		if err != nil {
			t.Fatalf("%v: %v", c.p, err)
		}
		st := res.Stats
		if st.Rescheduled != c.rescheduled || st.Fallback != c.fallback || st.ProbesBehindLong != c.behind || st.ShortAfterLong != c.afterLg || math.Abs(res.Completion[1]-c.completion) > 1e-9 {
			t.Errorf("%v: stats %+v, C done after %v; want rescheduled %d, fallback %d, behind long %d, after long %d, C after %v",
				c.p, st, res.Completion[1], c.rescheduled, c.fallback, c.behind, c.afterLg, c.completion)
		}
	}
}

// TestSimulateFallback: Eagle's two rounds of rejection, worked by hand.
// Two general nodes (ShortFraction 0), δ = 0.5 ms. Long job A (100 s,
// estimate 100) goes to node 0 at 0; short job C (two tasks of 1 s) sends
// one probe to each node at 1; long job B (100 s) arrives at 1 + δ/2 and
// LWL sends it to node 1, where it queues at 1 + 1.5δ behind C's probe.
// Node 0 rejects C's probe with A's vector (node 1 free): re-placed on
// node 1, which by then holds B, so it is rejected again (round 1) and
// falls back over all nodes, both holding long work: queued behind a long
// task. Short job D (two tasks) arrives at 10 and its two probes, one per
// node, are both rejected; the freshest vector (B's) shows no free node,
// so both fall back at once and queue behind long tasks. In all: 4
// probes rescheduled (1 + 1 + 2), 3 fallbacks (1 + 2), 3 probes behind a
// long task; C runs on node 1 through its sticky probe and completes
// after 2 + 5δ.
func TestSimulateFallback(t *testing.T) {
	t.Parallel()
	d := NetworkDelay
	jobs := []Job{
		{Durations: []float64{100}, EstTask: 100},
		{Submit: 1, Durations: []float64{1, 1}, EstTask: 1},
		{Submit: 1 + d/2, Durations: []float64{100}, EstTask: 100},
		{Submit: 10, Durations: []float64{1, 1}, EstTask: 1},
	}
	cfg := DefaultConfig(Eagle, 2, 10)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	for seed := uint64(1); seed <= 8; seed++ { // no random choice matters
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if st := res.Stats; st.Rescheduled != 4 || st.Fallback != 3 || st.ProbesBehindLong != 3 || math.Abs(res.Completion[1]-(2+5*d)) > 1e-9 {
			t.Errorf("seed %d: stats %+v, C done after %v; want 4 rescheduled, 3 fallbacks, 3 behind long, C after 2 + 5δ", seed, st, res.Completion[1])
		}
	}
}

// TestSimulateHopperNoSpeculationDropsRequests: without speculation (β ≥
// 2) a job's scheduler has nothing to hand out once its last task has
// started, so a node drops that job's queued requests without asking
// (done), as under the other policies; only with speculation do requests
// stay until the job finishes. Two nodes, δ = 10 ms. Z (one task of 1 s)
// runs on one node from 3δ to 1 + 3δ; A (one 5 s task, at 0.5) runs on
// the other, its second request queued behind Z. When Z's node frees at
// 1 + 3δ it drops A's request and is idle when B's request (B at 1.025)
// arrives at 1.035: B runs 1.055 to 2.055, completion 1.03. A node that
// asked for A's task would have been busy until 1.05 and B later.
func TestSimulateHopperNoSpeculationDropsRequests(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Hopper, 2, 10)
	cfg.Beta, cfg.NetworkDelay = 2, 0.01
	jobs := []Job{{Durations: []float64{1}, EstTask: 1}, {Submit: 0.5, Durations: []float64{5}, EstTask: 1}, {Submit: 1.025, Durations: []float64{1}, EstTask: 1}}
	for seed := uint64(1); seed <= 4; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil || math.Abs(res.Completion[0]-1.03) > 1e-9 || math.Abs(res.Completion[1]-5.03) > 1e-9 || math.Abs(res.Completion[2]-1.03) > 1e-9 {
			t.Fatalf("seed %d: %+v, %v; want completions 1.03, 5.03, 1.03", seed, res, err)
		}
	}
}

// TestSimulateSRPTRemaining: Eagle's nodes serve their queued probes by
// SRPT on the job's remaining work, its unscheduled tasks times its
// estimate (Algorithm 1, EstJobLeft). Two nodes, δ = 0.5 ms, ProbeRatio
// 0.5: X (4 tasks of 1 s, at 0) and Y (4 tasks of 1 s, at 0.5) put one
// sticky probe on each node. Both nodes run X's tasks 0 and 1 from 3δ;
// at 1 + 3δ X has 2 tasks left and Y 4, so both take X's tasks 2 and 3
// (1 + 5δ to 2 + 5δ: X completes after 2 + 5δ), then Y's in two rounds,
// 2 + 7δ to 3 + 7δ and 3 + 9δ to 4 + 9δ: Y completes after 3.5 + 9δ.
func TestSimulateSRPTRemaining(t *testing.T) {
	t.Parallel()
	d := NetworkDelay
	cfg := DefaultConfig(Eagle, 2, 10)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 0.5
	jobs := []Job{{Durations: []float64{1, 1, 1, 1}, EstTask: 1}, {Submit: 0.5, Durations: []float64{1, 1, 1, 1}, EstTask: 1}}
	for seed := uint64(1); seed <= 4; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil || math.Abs(res.Completion[0]-(2+5*d)) > 1e-9 || math.Abs(res.Completion[1]-(3.5+9*d)) > 1e-9 {
			t.Fatalf("seed %d: %+v, %v; want X after 2 + 5δ, Y after 3.5 + 9δ", seed, res, err)
		}
	}
}

// TestSimulateKilledCopyFreesNode: when a task's first copy finishes, the
// node whose copy is killed takes its next work at once (Hopper, β = 1.5:
// up to two copies). Two nodes, δ = 10 ms: Z (2 s) holds one node while
// A's task (10 s, estimate 1) runs on the other; when Z ends, A's request
// queued behind it launches a copy of A's task (late: it has run > 1 s).
// W (two 1 s tasks, at 3) queues requests on both nodes. At 10.07 A's
// first copy ends and the other is killed: both nodes free at once, ask
// for W's tasks and run them 10.09 to 11.09: W completes after 8.09.
func TestSimulateKilledCopyFreesNode(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Hopper, 2, 10)
	cfg.NetworkDelay = 0.01
	jobs := []Job{{Durations: []float64{2}, EstTask: 2}, {Submit: 0.001, Durations: []float64{10}, EstTask: 1}, {Submit: 3, Durations: []float64{1, 1}, EstTask: 1}}
	for seed := uint64(1); seed <= 6; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil || res.Stats.Copies != 1 || res.Stats.Killed != 1 || math.Abs(res.Completion[2]-8.09) > 1e-9 {
			t.Fatalf("seed %d: %+v, %v; want one copy killed, W done after 8.09", seed, res, err)
		}
	}
}

// TestSimulateLongDoneFreesNode: a node whose long task has ended holds no
// long work any more. Eagle on one general node, δ = 0.5 ms: long job A
// (1 s) runs δ to 1 + δ; short job C (one task, at 5) sends its probe
// there: accepted (no rejection, no probe behind a long task), run 5 + 3δ
// to 6 + 3δ: C completes after 1 + 3δ.
func TestSimulateLongDoneFreesNode(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Eagle, 1, 10)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	res, err := Simulate([]Job{{Durations: []float64{1}, EstTask: 11}, {Submit: 5, Durations: []float64{1}, EstTask: 1}}, cfg, rngFrom(1))
	if st := res.Stats; err != nil || st.Rescheduled != 0 || st.ProbesBehindLong != 0 || math.Abs(res.Completion[1]-(1+3*NetworkDelay)) > 1e-9 {
		t.Fatalf("%+v, %v; want C accepted and done after 1 + 3δ", res, err)
	}
}

// TestSimulateCentralWork: the central scheduler's LWL (Eagle) books each
// long task's estimate on its node and, when it learns that one of a
// node's long tasks ended, expects the node free after the others'
// estimates. Two general nodes, δ = 0.5 ms, all jobs long (threshold 1):
// A (estimate 10, 1 s) goes to node 0 at 0 (expected free at 10); D
// (estimate e_D, 100 s) at 0.1 to idle node 1 (free at 0.1 + e_D); C
// (estimate e_C, 100 s) at 0.2 to node 0 (9.8 s left, less than node 1's),
// expected free at 10 + e_C. At 1 + 2δ the central learns A ended:
// node 0 is expected free at 1 + 2δ + e_C. B (1 s) at 5 goes to the node
// with least work left: e_D = 30, e_C = 10: node 0 (6 + 2δ s against
// 25.1); e_D = 13, e_C = 15: node 1 (8.1 s against 11 + 2δ).
func TestSimulateCentralWork(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Eagle, 2, 1)
	cfg.ShortFraction, cfg.RecordTasks = 0, true
	for _, c := range []struct {
		eD, eC float64
		node   int
	}{{30, 10, 0}, {13, 15, 1}} {
		jobs := []Job{
			{Durations: []float64{1}, EstTask: 10},
			{Submit: 0.1, Durations: []float64{100}, EstTask: c.eD},
			{Submit: 0.2, Durations: []float64{100}, EstTask: c.eC},
			{Submit: 5, Durations: []float64{1}, EstTask: 10},
		}
		res, err := Simulate(jobs, cfg, rngFrom(1))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(res.Executions, func(e Execution) bool { return e.Job == 3 })
		if i < 0 || res.Executions[i].Node != c.node {
			t.Errorf("e_D = %v, e_C = %v: executions %+v; want B on node %d", c.eD, c.eC, res.Executions, c.node)
		}
	}
}

// TestSimulateStealAttempts: Hawk's idle general node makes StealAttempts
// attempts; with none it never steals. Two general nodes, δ = 0.5 ms:
// long job A (100 s) on node 0; short job C (two 1 s tasks, at 1) puts
// one probe on each node. Node 1 runs one task, 1 + 3δ to 2 + 3δ, then
// idles. With StealAttempts 1 it steals the probe queued behind A (its
// one possible victim): it arrives at 2 + 5δ and runs 2 + 7δ to 3 + 7δ,
// C completes after 2 + 7δ; the thief holds no long task, so the stolen
// probe's task is no short task after a long one. With StealAttempts 0
// the probe waits for A: 100 + 3δ to 101 + 3δ (a short task after a long
// one), C completes after 100 + 3δ.
func TestSimulateStealAttempts(t *testing.T) {
	t.Parallel()
	d := NetworkDelay
	jobs := []Job{{Durations: []float64{100}, EstTask: 100}, {Submit: 1, Durations: []float64{1, 1}, EstTask: 1}}
	for _, c := range []struct {
		attempts           int
		rescheduled, after int64
		completion         float64
	}{{1, 1, 0, 2 + 7*d}, {0, 0, 1, 100 + 3*d}} {
		cfg := DefaultConfig(Hawk, 2, 10)
		cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio, cfg.StealAttempts = 0, 0, 1, c.attempts
		res, err := Simulate(jobs, cfg, rngFrom(1))
		if err != nil || res.Stats.Rescheduled != c.rescheduled || res.Stats.ShortAfterLong != c.after || math.Abs(res.Completion[1]-c.completion) > 1e-9 {
			t.Errorf("%d attempts: %+v, %v; want %d stolen, %d short after long, C done after %v", c.attempts, res, err, c.rescheduled, c.after, c.completion)
		}
	}
}

// TestSimulateStealBehindQueuedLong: Hawk steals the first batch of short
// probes behind a long task even when the victim runs a short task and
// the long one is queued (StealBatch): of the victim's queue [p1, L, p2]
// it takes p2, not p1 ahead of L. Two general nodes, δ = 0.5 ms, one
// probe per task. LT (long, estimate 100, 5 s) runs on node 0 from δ; S
// (tasks of 50 s and 0.1 s, at 0.1) runs its first task on node 1 from
// 0.1 + 3δ and queues a probe behind LT; P1 and P2 (two 1 s tasks, at 1
// and 3) each queue one probe per node; L (long, 1 s, at 2) goes by LWL
// to node 1 (node 0 holds LT's 100 s estimate), so node 1 queues p1, L,
// p2. Node 0 runs, after LT, S's second task, P1's first and P2's first
// (5 + 3δ to 7.1 + 7δ), then steals p2: P2's second task runs 7.1 + 11δ
// to 8.1 + 11δ (P2 completes after 5.1 + 11δ). P1's second task waits
// for S on node 1: 50.1 + 5δ to 51.1 + 5δ (P1 completes after 50.1 + 5δ).
func TestSimulateStealBehindQueuedLong(t *testing.T) {
	t.Parallel()
	d := NetworkDelay
	jobs := []Job{
		{Durations: []float64{5}, EstTask: 100},
		{Submit: 0.1, Durations: []float64{50, 0.1}, EstTask: 1},
		{Submit: 1, Durations: []float64{1, 1}, EstTask: 1},
		{Submit: 2, Durations: []float64{1}, EstTask: 100},
		{Submit: 3, Durations: []float64{1, 1}, EstTask: 1},
	}
	cfg := DefaultConfig(Hawk, 2, 10)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	for seed := uint64(1); seed <= 6; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil || res.Stats.Rescheduled != 1 || math.Abs(res.Completion[2]-(50.1+5*d)) > 1e-9 || math.Abs(res.Completion[4]-(5.1+11*d)) > 1e-9 {
			t.Fatalf("seed %d: %+v, %v; want p2 stolen: P1 done after 50.1 + 5δ, P2 after 5.1 + 11δ", seed, res, err)
		}
	}
}

// TestSimulateHopperRunningView: the view HopperPick decides on counts the
// executions running now, not those that have ended. One node, δ = 10 ms,
// no speculation (β = 2): X (two 1 s tasks) runs its first 0.03 to 1.03;
// Y (three 1 s tasks) queues requests at 0.5. At 1.03 neither job runs
// anything, and HopperPick serves the smaller virtual size, X (1 task
// left against 3): X's second task runs 1.05 to 2.05 (X completes after
// 2.05), then Y's three, the last 4.11 to 5.11 (Y after 4.61). Were X's
// ended execution still counted as running, Y would be served first.
func TestSimulateHopperRunningView(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(Hopper, 1, 10)
	cfg.Beta, cfg.NetworkDelay = 2, 0.01
	jobs := []Job{{Durations: []float64{1, 1}, EstTask: 1}, {Submit: 0.5, Durations: []float64{1, 1, 1}, EstTask: 1}}
	for seed := uint64(1); seed <= 3; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil || math.Abs(res.Completion[0]-2.05) > 1e-9 || math.Abs(res.Completion[1]-4.61) > 1e-9 {
			t.Fatalf("seed %d: %+v, %v; want X done after 2.05, Y after 4.61", seed, res, err)
		}
	}
}

// TestSimulateFreshestTie: two vectors with one time stamp, worked by
// hand. Three general nodes, δ = 0.5 ms. Long jobs A and B (one 100 s task
// each) arrive together at 0: LWL puts A on node 0 and sends it with
// snapshot S0 = {0}, then B on node 1 with S1 = {0, 1}, both stamped 0.
// Short job C (three 1 s tasks, at 1) puts one probe on each node; nodes
// 0 and 1 reject theirs, holding S0 and S1, in node order (probe targets
// are sent sorted; TestSimulateFreshestFirst has the fresher arrive first).
// S1 was published after S0, so it is the fresher: the two rejected probes
// are re-placed on node 2, the only node it shows free, and nothing is
// rejected twice (Rescheduled 2, no fallback, no probe behind a long
// task). Node 2 runs C's three tasks through its sticky probe, 1 + 3δ to
// 4 + 7δ: C completes after 3 + 7δ. Re-placing by S0 — the vector
// received first, when node 0's rejection comes first — would send a
// probe to node 1, rejected again and fallen back.
func TestSimulateFreshestTie(t *testing.T) {
	t.Parallel()
	d := NetworkDelay
	jobs := []Job{
		{Durations: []float64{100}, EstTask: 100},
		{Durations: []float64{100}, EstTask: 100},
		{Submit: 1, Durations: []float64{1, 1, 1}, EstTask: 1},
	}
	cfg := DefaultConfig(Eagle, 3, 10)
	cfg.ShortFraction, cfg.MinProbes, cfg.ProbeRatio = 0, 0, 1
	for seed := uint64(1); seed <= 16; seed++ {
		res, err := Simulate(jobs, cfg, rngFrom(seed))
		if err != nil {
			t.Fatal(err)
		}
		if st := res.Stats; st.Rescheduled != 2 || st.Fallback != 0 || st.ProbesBehindLong != 0 || math.Abs(res.Completion[2]-(3+7*d)) > 1e-9 {
			t.Errorf("seed %d: stats %+v, C done after %v; want 2 rescheduled, no fallback, none behind long, C after 3 + 7δ", seed, st, res.Completion[2])
		}
	}
}
