//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"github.com/specsched/specsched/integrations/volcano"
)

const (
	namespace = "default"
	// schedulerName is Volcano's default --scheduler-name.
	schedulerName = "volcano"
	// annotationGroup names a pod's PodGroup (Volcano's
	// scheduling.k8s.io/group-name).
	annotationGroup = schedulingv1beta1.KubeGroupNameAnnotationKey
)

// createPodGroup creates a PodGroup in the default queue.
func (s *stack) createPodGroup(name string, minMember int32, annotations map[string]string) {
	s.t.Helper()
	pg := &schedulingv1beta1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Annotations: annotations},
		Spec:       schedulingv1beta1.PodGroupSpec{MinMember: minMember, Queue: "default"},
	}
	if _, err := s.vc.SchedulingV1beta1().PodGroups(namespace).Create(context.Background(), pg, metav1.CreateOptions{}); err != nil {
		s.t.Fatalf("create PodGroup %s: %v", name, err)
	}
}

// podSpec is what a pod of this suite carries.
type podSpec struct {
	group       string
	name        string
	speculative bool
	duration    time.Duration // 0: runs until deleted
}

// createPod creates one pod of group for Volcano, asking for one CPU (one
// slot of the suite's nodes).
func (s *stack) createPod(ctx context.Context, p podSpec) error {
	annotations := map[string]string{annotationGroup: p.group}
	if p.speculative {
		annotations[volcano.AnnotationSpeculative] = "true"
	}
	if p.duration > 0 {
		annotations[annotationDuration] = p.duration.String()
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:        p.name,
			Namespace:   namespace,
			Annotations: annotations,
			Labels:      map[string]string{"group": p.group},
		},
		Spec: corev1.PodSpec{
			SchedulerName: schedulerName,
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{
				Name:  "task",
				Image: "fake",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("1"),
					corev1.ResourceMemory: resource.MustParse("100Mi"),
				}},
			}},
		},
	}
	_, err := s.kube.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{})
	return err
}

// createPods creates n pods of group named group-prefix-i, otherwise like
// like.
func (s *stack) createPods(group, prefix string, n int, like podSpec) {
	s.t.Helper()
	for i := range n {
		p := like
		p.group, p.name = group, fmt.Sprintf("%s-%s%d", group, prefix, i)
		if err := s.createPod(context.Background(), p); err != nil {
			s.t.Fatalf("create pod %s: %v", p.name, err)
		}
	}
}

// podRecord is what the informer saw of one pod.
type podRecord struct {
	group       string
	speculative bool
	created     time.Time // metadata.creationTimestamp (1 s resolution)
	seen        time.Time // first seen by the informer
	bound       time.Time // first seen with spec.nodeName, by the informer's clock
	finished    time.Time // first seen Succeeded, by the informer's clock
	deleted     time.Time // seen deleted (evicted), by the informer's clock
}

// podWatch follows every pod of the namespace through a shared informer (a
// raw watch dropped events under a 1 000-pod burst in the trial that
// preceded this suite; an informer relists).
type podWatch struct {
	mu   sync.Mutex
	pods map[string]*podRecord
	stop chan struct{}
}

// watchPods starts the informer and waits for its first sync; it stops at
// the test's end.
func (s *stack) watchPods() *podWatch {
	s.t.Helper()
	w := &podWatch{pods: map[string]*podRecord{}, stop: make(chan struct{})}
	factory := informers.NewSharedInformerFactoryWithOptions(s.kube, 0, informers.WithNamespace(namespace))
	informer := factory.Core().V1().Pods().Informer()
	update := func(obj any) {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return
		}
		now := time.Now()
		w.mu.Lock()
		defer w.mu.Unlock()
		r := w.pods[pod.Name]
		if r == nil {
			r = &podRecord{
				group:       pod.Annotations[annotationGroup],
				speculative: pod.Annotations[volcano.AnnotationSpeculative] == "true",
				created:     pod.CreationTimestamp.Time,
				seen:        now,
			}
			w.pods[pod.Name] = r
		}
		if pod.Spec.NodeName != "" && r.bound.IsZero() {
			r.bound = now
		}
		if pod.Status.Phase == corev1.PodSucceeded && r.finished.IsZero() {
			r.finished = now
		}
	}
	remove := func(obj any) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if r := w.pods[pod.Name]; r != nil && r.deleted.IsZero() {
			r.deleted = time.Now()
		}
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    update,
		UpdateFunc: func(_, obj any) { update(obj) },
		DeleteFunc: remove,
	}); err != nil {
		s.t.Fatal(err)
	}
	factory.Start(w.stop)
	s.t.Cleanup(func() { close(w.stop); factory.Shutdown() })
	if !cache.WaitForCacheSync(w.stop, informer.HasSynced) {
		s.t.Fatal("pod informer did not sync")
	}
	return w
}

// bound is the number of pods per group bound to a node (now or before).
func (w *podWatch) bound() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	count := map[string]int{}
	for _, r := range w.pods {
		if !r.bound.IsZero() {
			count[r.group]++
		}
	}
	return count
}

// boundBy is bound() restricted to non-speculative pods (speculative false)
// or speculative copies (true).
func (w *podWatch) boundBy(speculative bool) map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	count := map[string]int{}
	for _, r := range w.pods {
		if !r.bound.IsZero() && r.speculative == speculative {
			count[r.group]++
		}
	}
	return count
}

// holding is, per group, the pods that hold a slot now (bound, neither
// finished nor deleted) and the pods still waiting (not bound, not deleted).
func (w *podWatch) holding() (held, waiting map[string]int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	held, waiting = map[string]int{}, map[string]int{}
	for _, r := range w.pods {
		switch {
		case !r.deleted.IsZero() || !r.finished.IsZero():
		case !r.bound.IsZero():
			held[r.group]++
		default:
			waiting[r.group]++
		}
	}
	return held, waiting
}

// records is a copy of every pod's record.
func (w *podWatch) records() map[string]podRecord {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]podRecord, len(w.pods))
	for name, r := range w.pods {
		out[name] = *r
	}
	return out
}

// settle waits until the total number of bound pods reaches want and then
// stays there for hold (a few scheduling sessions), or fails after timeout.
func (s *stack) settle(w *podWatch, want int, hold, timeout time.Duration) map[string]int {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	var stableSince time.Time
	last := -1
	for time.Now().Before(deadline) {
		total := 0
		for _, n := range w.bound() {
			total += n
		}
		if total != last {
			last, stableSince = total, time.Now()
		}
		if total >= want && time.Since(stableSince) >= hold {
			return w.bound()
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("bound pods %v (total %d), want a total of %d held for %v within %v", w.bound(), last, want, hold, timeout)
	return nil
}

// waitFor polls cond every 200 ms until it holds or timeout passes.
func waitFor(t testing.TB, what string, timeout time.Duration, cond func(ctx context.Context) (bool, error)) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, timeout, true, cond)
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}
