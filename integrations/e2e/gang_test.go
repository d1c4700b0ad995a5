//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"github.com/specsched/specsched/fairness"
)

// gangCluster starts a stack with room for slots pods, PodGroup g of
// minMember 5 with 3 pods, x and y with 10 pods each, and hopper at ε, β.
func gangCluster(t *testing.T, slots int, eps, beta float64) (*stack, *podWatch) {
	s := newStack(t, stackOptions{})
	s.addNodes("node", 1, slots)
	s.createPodGroup("g", 5, nil)
	s.createPods("g", "t", 3, podSpec{})
	s.createPodGroup("x", 1, nil)
	s.createPods("x", "t", 10, podSpec{})
	s.createPodGroup("y", 1, nil)
	s.createPods("y", "t", 10, podSpec{})
	w := s.watchPods()
	s.startScheduler(hopperConf(eps, beta), sessionPeriod)
	return s, w
}

// TestGangBlocked runs hopper beside gang at the default ε = 0.1 on room for
// 8 pods. PodGroup g asks for minMember 5 but has only 3 pods: gang's
// JobValid refuses it, so none of its pods may be bound, it never reaches
// phase Running, and hopper gives it no target and leaves it out of N: x
// and y (10 tasks each) take all 8 slots as fairness.AllocateSlots shares
// them between those two.
func TestGangBlocked(t *testing.T) {
	const (
		slots = 8
		eps   = 0.1
		beta  = 1.5
	)
	s, w := gangCluster(t, slots, eps, beta)

	want, err := fairness.AllocateSlots(nil, []float64{10, 10}, slots, beta, eps, nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * sessionPeriod)
	got := s.settle(w, slots, 10*sessionPeriod, 60*time.Second)
	// PodGroup UIDs order hopper's jobs, so which of x and y is first is
	// not known; their targets are equal here.
	if got["g"] != 0 || got["x"] != want[0] || got["y"] != want[1] {
		t.Errorf("bound g %d / x %d / y %d, want 0 / %d / %d", got["g"], got["x"], got["y"], want[0], want[1])
	}
	pg, err := s.vc.SchedulingV1beta1().PodGroups(namespace).Get(context.Background(), "g", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Status.Phase == schedulingv1beta1.PodGroupRunning {
		t.Errorf("PodGroup g is %s with 3 of its minMember 5 pods", pg.Status.Phase)
	}
	t.Logf("PodGroup g: phase %q, %d bound; bound x %d, y %d of %d slots (targets over x, y: %v)",
		pg.Status.Phase, got["g"], got["x"], got["y"], slots, want)
}

// TestFloorAcrossSessions: x and y (60 pods of 2 s each) fill room for 8;
// then z (30 pods of 2 s), the smallest job, arrives, with hopper at ε = 0.5.
// Slots turn over as pods finish, so every session hands freed slots out
// again. From the moment z holds the ε-fair floor ⌊(1−ε)·8/3⌋ = 1, the test
// samples the jobs' holdings every 100 ms for 10 s and checks them against
// targets from fairness.AllocateSlots over the pods then left (z's is 5;
// x's and y's 2 and 1, the larger to the one with fewer pods left, x on a
// tie): every job with pods waiting holds at least min(floor, its pods) and
// at least its target; no job holds more than its target while another
// waits below its own; no slot is idle while a job waits below its target.
//
// ε = 0.5, not the default 0.1, so that the check tells hopper from a
// scheduler that is merely fair: at ε = 0.1 z's target (3 of 8) is what an
// even split gives it too, and Volcano's defaults (drf) passed. At 0.5 the
// test fails, each run of it here, with Volcano's defaults (z holds 2 of
// its 5), with hopper at ε = 0, 0.1 (z holds 3), 0.7 (z holds 6 of its 5,
// x 1 of its 2) and 1 (x and y hold 0, below the floor).
//
// A job waits below its target, without fault, until a slot frees: the conf
// has no preempt action, so the slots above other jobs' targets come back
// only as their pods finish, up to a pod's 2 s later (the targets move with
// every finished pod: x and y trade the larger as their counts cross), and
// then the next session (200 ms) binds and the informer sees it. So a
// breach counts only when it lasts longer than a pod's duration plus five
// sessions, 3 s, counted per job (below; above) and for idle slots, from
// the first sample that sees it to the last. A fault the scheduler keeps up
// keeps some job below its target, and so some job above its own or a slot
// idle; the two checks with per-job episodes catch a fault that moves
// between x and y, whose targets swap. The sampling runs for 10 s, so a
// breach that starts in the first 7 s and lasts is counted. (The test's
// earlier form, at ε = 0.1 with a grace of 1 s, failed one run in six on a
// job whose target had just risen while another held its old one.)
func TestFloorAcrossSessions(t *testing.T) {
	const (
		slots = 8
		eps   = 0.5
		beta  = 1.5
	)
	s := newStack(t, stackOptions{podStages: podStagesComplete})
	s.addNodes("node", 1, slots)
	short := podSpec{duration: 2 * time.Second}
	grace := short.duration + 5*sessionPeriod
	s.createPodGroup("x", 1, nil)
	s.createPods("x", "t", 60, short)
	s.createPodGroup("y", 1, nil)
	s.createPods("y", "t", 60, short)
	w := s.watchPods()
	s.startScheduler(hopperConf(eps, beta), sessionPeriod)
	s.settle(w, slots, 0, 60*time.Second)

	s.createPodGroup("z", 1, nil)
	s.createPods("z", "t", 30, short)
	groups := []string{"x", "y", "z"}
	floor := int((1 - eps) * float64(slots) / float64(len(groups))) // ⌊(1−ε)·S/N⌋
	waitFor(t, "z to reach the ε-fair floor", 30*time.Second, func(context.Context) (bool, error) {
		held, _ := w.holding()
		return held["z"] >= floor, nil
	})

	breachSince := map[string]time.Time{}
	var longest time.Duration // the longest breach seen, for the log
	breach := func(key, msg string, now time.Time) {
		since, ok := breachSince[key]
		if !ok {
			breachSince[key] = now
			return
		}
		longest = max(longest, now.Sub(since))
		if now.Sub(since) > grace {
			t.Errorf("%s for %v", msg, now.Sub(since).Round(10*time.Millisecond))
			breachSince[key] = now.Add(time.Hour) // report once
		}
	}
	samples := 0
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		now := time.Now()
		held, waiting := w.holding()
		remaining := make([]float64, len(groups))
		for i, g := range groups {
			remaining[i] = float64(held[g] + waiting[g])
		}
		targets, err := fairness.AllocateSlots(nil, remaining, slots, beta, eps, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		below := "" // a job waiting below its target, if any
		for i, g := range groups {
			if waiting[g] > 0 && held[g] < targets[i] {
				below = g
			}
		}
		total := 0
		for i, g := range groups { // above its target while another waits below its own
			total += held[g]
			if held[g] > targets[i] && below != "" {
				seen["above "+g] = true
				breach("above "+g, fmt.Sprintf("job %s holds %d, above its target %d (targets %v over %v), while %s waits below its own", g, held[g], targets[i], targets, groups, below), now)
			}
		}
		if total < slots && below != "" { // a slot idle while a job waits below its target
			seen["idle"] = true
			breach("idle", fmt.Sprintf("%d of %d slots held while %s waits below its target (targets %v over %v)", total, slots, below, targets, groups), now)
		}
		for i, g := range groups {
			if waiting[g] == 0 {
				continue
			}
			var msg string // one episode while g waits below its target, the floor first
			switch {
			case held[g] < min(floor, int(remaining[i])):
				msg = fmt.Sprintf("job %s holds %d, below the ε-fair floor %d, with %d pods waiting", g, held[g], floor, waiting[g])
			case held[g] < targets[i]:
				msg = fmt.Sprintf("job %s holds %d, below its target %d (targets %v over %v), with %d pods waiting", g, held[g], targets[i], targets, groups, waiting[g])
			default:
				continue
			}
			seen[g] = true
			breach(g, msg, now)
		}
		for key, since := range breachSince {
			if !seen[key] && since.Before(now) {
				delete(breachSince, key)
			}
		}
		samples++
	}
	held, waiting := w.holding()
	t.Logf("%d samples; the longest breach %v (grace %v); at the end held %v, waiting %v, floor %d",
		samples, longest.Round(10*time.Millisecond), grace, held, waiting, floor)
}
