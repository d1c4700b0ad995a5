//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/integrations/volcano"
)

// TestBadBeta puts bad β annotations on a live PodGroup. Job A starts with
// β = "1" (not > 1): its pods must be bound as the default β (the plug-in's
// hopper.beta argument, 1.5) computes, not as β = 1 would (A's virtual size
// 2·4 = 8 would take all 6 slots). Then the annotation is changed, on the
// running scheduler, to "-3", "NaN" and "fast": each value must come back as
// a Warning Event (volcano.EventBadBeta) on the PodGroup naming it, the
// scheduler must keep running, and a job created afterwards must still be
// scheduled.
func TestBadBeta(t *testing.T) {
	const defaultBeta = 1.5
	want, err := alloc.AllocateSlots(nil, []float64{4, 6}, 6, defaultBeta, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newStack(t, stackOptions{})
	s.addNodes("node", 1, 6)
	s.createPodGroup("a", 1, map[string]string{volcano.AnnotationBeta: "1"})
	s.createPodGroup("b", 1, nil)
	s.createPods("a", "t", 4, podSpec{})
	s.createPods("a", "x", 4, podSpec{speculative: true})
	s.createPods("b", "t", 6, podSpec{})
	w := s.watchPods()
	sched := s.startScheduler(hopperConf(1, defaultBeta), sessionPeriod)

	got := s.settle(w, 6, 10*sessionPeriod, 90*time.Second)
	if got["a"] != want[0] || got["b"] != want[1] {
		t.Errorf("β = \"1\": bound A %d / B %d, want A %d / B %d (alloc.AllocateSlots at the default β %v)",
			got["a"], got["b"], want[0], want[1], defaultBeta)
	}
	s.waitBadBetaEvent("a", "1")

	ctx := context.Background()
	for _, raw := range []string{"-3", "NaN", "fast"} {
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"annotations": map[string]string{volcano.AnnotationBeta: raw}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.vc.SchedulingV1beta1().PodGroups(namespace).Patch(ctx, "a", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatalf("annotate PodGroup a with β %q: %v", raw, err)
		}
		s.waitBadBetaEvent("a", raw)
		if sched.exited() {
			t.Fatalf("vc-scheduler exited after β %q:\n%s", raw, sched.tail(3000))
		}
	}

	// Still scheduling: a new job's pods find the room of B's deleted ones.
	for i := range 6 {
		name := fmt.Sprintf("b-t%d", i)
		if err := s.kube.CoreV1().Pods(namespace).Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !strings.Contains(err.Error(), "not found") {
			t.Fatal(err)
		}
	}
	s.createPodGroup("c", 1, nil)
	s.createPods("c", "t", 1, podSpec{})
	waitFor(t, "job c bound after the bad annotations", 60*time.Second, func(context.Context) (bool, error) {
		return w.bound()["c"] == 1, nil
	})
	if sched.exited() {
		t.Fatalf("vc-scheduler exited:\n%s", sched.tail(3000))
	}
}

// waitBadBetaEvent waits for a Warning Event with reason volcano.EventBadBeta
// on PodGroup name whose message quotes raw.
func (s *stack) waitBadBetaEvent(name, raw string) {
	s.t.Helper()
	quoted := fmt.Sprintf("%q", raw)
	var seen []string
	waitFor(s.t, fmt.Sprintf("a %s Event on PodGroup %s for β %s", volcano.EventBadBeta, name, quoted), 60*time.Second,
		func(ctx context.Context) (bool, error) {
			events, err := s.kube.CoreV1().Events(namespace).List(ctx, metav1.ListOptions{
				FieldSelector: "involvedObject.name=" + name + ",reason=" + volcano.EventBadBeta,
			})
			if err != nil {
				return false, nil
			}
			seen = seen[:0]
			for _, e := range events.Items {
				seen = append(seen, e.Message)
				if e.Type == corev1.EventTypeWarning && e.InvolvedObject.Kind == "PodGroup" && strings.Contains(e.Message, quoted) {
					return true, nil
				}
			}
			return false, nil
		})
	s.t.Logf("Event on PodGroup %s for β %s: seen %q", name, quoted, seen)
}
