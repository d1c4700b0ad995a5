package probe

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// refGetProbe is Algorithm 1 transcribed line by line, with CANBYPASS
// checking every probe in front of p the way §4.3 words it: T may not
// bypass P "if the estimated execution time of T would make the bypass
// counter of P exceed a threshold value". O(n²), kept as the reference.
func refGetProbe(queue []QueuedProbe) (int, []float64) {
	counters := make([]float64, len(queue))
	for i := range queue {
		counters[i] = queue[i].Bypassed
	}
	canBypass := func(pos int, est float64) bool {
		for j := 0; j < pos; j++ {
			if queue[j].Bypassed+est > queue[j].Cap {
				return false
			}
		}
		return true
	}
	shortest := math.Inf(1)
	chosen := -1
	for i, p := range queue { // line 17
		if p.Long { // line 18
			break
		}
		if p.EstJobLeft < shortest { // line 20
			if canBypass(i, p.EstTask) { // line 21
				shortest = p.EstJobLeft
				chosen = i
			}
		}
	}
	if chosen == -1 && len(queue) > 0 { // line 24
		chosen = 0
	}
	for j := 0; j < chosen; j++ {
		counters[j] += queue[chosen].EstTask
	}
	return chosen, counters
}

// drawQueue draws a queue of short probes and long placeholders with
// quarter-valued fields (exact arithmetic).
func drawQueue(t *rapid.T, maxLen int) []QueuedProbe {
	n := rapid.IntRange(0, maxLen).Draw(t, "len")
	q := make([]QueuedProbe, n)
	for i := range q {
		est := quarters(t, 8, "estTask")
		q[i] = QueuedProbe{
			Long:       rapid.IntRange(0, 5).Draw(t, "longOneIn6") == 0,
			EstTask:    est,
			EstJobLeft: est * float64(rapid.IntRange(0, 10).Draw(t, "tasksLeft")),
			Bypassed:   quarters(t, 40, "bypassed"),
			Cap:        StarvationFactor * est,
		}
	}
	return q
}

// testGetProbeFromQueue: the O(n) scan agrees with the literal Algorithm 1,
// the input is untouched, and counters stay within their caps.
func testGetProbeFromQueue(t *rapid.T) {
	q := drawQueue(t, 12)
	before := append([]QueuedProbe(nil), q...)
	got, chosen, err := GetProbeFromQueue(nil, q)
	if err != nil {
		t.Fatalf("GetProbeFromQueue: %v", err)
	}
	if d := cmp.Diff(before, q, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("queue modified (-before +after):\n%s", d)
	}
	wantChosen, wantCounters := refGetProbe(q)
	if chosen != wantChosen {
		t.Fatalf("chosen = %d; want %d (queue %+v)", chosen, wantChosen, q)
	}
	if d := cmp.Diff(wantCounters, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("counters (-want +got):\n%s", d)
	}
	for i := range q {
		if q[i].Bypassed <= q[i].Cap && got[i] > q[i].Cap {
			t.Fatalf("probe %d: counter %v exceeds cap %v", i, got[i], q[i].Cap)
		}
	}
	// SRPT: no probe before the first long entry that could bypass all in
	// front of it has a smaller remaining runtime than the chosen one.
	if chosen >= 0 && !q[chosen].Long {
		for i := range q {
			if q[i].Long {
				break
			}
			free := true
			for j := 0; j < i; j++ {
				free = free && q[j].Bypassed+q[i].EstTask <= q[j].Cap
			}
			if free && q[i].EstJobLeft < q[chosen].EstJobLeft {
				t.Fatalf("probe %d (left %v) eligible and shorter than chosen %d (left %v)", i, q[i].EstJobLeft, chosen, q[chosen].EstJobLeft)
			}
		}
	}
}

func TestGetProbeFromQueue(t *testing.T) { t.Parallel(); rapid.Check(t, testGetProbeFromQueue) }

// TestGetProbeFromQueueWorked checks hand-computed cases.
func TestGetProbeFromQueueWorked(t *testing.T) {
	t.Parallel()
	short := func(left, est, bypassed float64) QueuedProbe {
		return QueuedProbe{EstJobLeft: left, EstTask: est, Bypassed: bypassed, Cap: 5 * est}
	}
	long := QueuedProbe{Long: true}
	cases := []struct {
		name     string
		queue    []QueuedProbe
		chosen   int
		counters []float64
	}{
		{"empty", nil, -1, []float64{}},
		{"long head is served FIFO", []QueuedProbe{long, short(1, 1, 0)}, 0, []float64{0, 0}},
		// SRPT: job of 2 s left bypasses the 30 s job; its counter grows by 1.
		{"srpt", []QueuedProbe{short(30, 10, 0), short(2, 1, 0)}, 1, []float64{1, 0}},
		// The first probe's counter is at 49.5 of cap 50: a 1 s task may
		// not overtake it, so FIFO wins.
		{"starvation cap", []QueuedProbe{short(30, 10, 49.5), short(2, 1, 0)}, 0, []float64{49.5, 0}},
		// Exactly at the cap is allowed ("exceed" is strict).
		{"cap reached exactly", []QueuedProbe{short(30, 10, 49), short(2, 1, 0)}, 1, []float64{50, 0}},
		// Nothing behind a long placeholder is considered.
		{"stops at long", []QueuedProbe{short(30, 10, 0), long, short(1, 1, 0)}, 0, []float64{0, 0, 0}},
		// Equal remaining runtimes: the earlier probe.
		{"tie", []QueuedProbe{short(5, 1, 0), short(3, 1, 0), short(3, 1, 0)}, 1, []float64{1, 0, 0}},
		// Middle probe blocked by the head's cap; the third may pass both.
		{"skip blocked", []QueuedProbe{short(30, 2, 9), short(1, 2, 0), short(4, 0.5, 0)}, 2, []float64{9.5, 0.5, 0}},
	}
	for _, c := range cases {
		got, chosen, err := GetProbeFromQueue(nil, c.queue)
		if err != nil || chosen != c.chosen {
			t.Errorf("%s: chosen %d, %v; want %d", c.name, chosen, err, c.chosen)
			continue
		}
		if d := cmp.Diff(c.counters, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: counters (-want +got):\n%s", c.name, d)
		}
	}
}

// testStarvationCap runs a worker model: probes arrive, the worker serves
// tasks chosen by GetProbeFromQueue until each job's tasks are gone. For
// every probe it sums, independently of the counters, the estimated work of
// tasks served from probes that joined the queue after it while it waited:
// that work never exceeds its cap.
func testStarvationCap(t *rapid.T) {
	type job struct {
		est, left float64
		arrival   int
	}
	var queue []QueuedProbe
	var jobs []job // parallel to queue
	var overtaken []float64
	steps := rapid.IntRange(1, 60).Draw(t, "steps")
	arrivals := 0
	for s := 0; s < steps; s++ {
		if len(queue) == 0 || rapid.Bool().Draw(t, "arrive") {
			est := float64(rapid.IntRange(1, 8).Draw(t, "est"))
			tasks := rapid.IntRange(1, 6).Draw(t, "tasks")
			queue = append(queue, QueuedProbe{EstJobLeft: est * float64(tasks), EstTask: est, Cap: StarvationFactor * est})
			jobs = append(jobs, job{est, float64(tasks), arrivals})
			overtaken = append(overtaken, 0)
			arrivals++
			continue
		}
		counters, chosen, err := GetProbeFromQueue(nil, queue)
		if err != nil {
			t.Fatalf("GetProbeFromQueue: %v", err)
		}
		for i := range queue {
			queue[i].Bypassed = counters[i]
			if jobs[i].arrival < jobs[chosen].arrival {
				overtaken[i] += jobs[chosen].est
				if overtaken[i] > queue[i].Cap {
					t.Fatalf("probe of arrival %d overtaken by %v > cap %v", jobs[i].arrival, overtaken[i], queue[i].Cap)
				}
			}
		}
		jobs[chosen].left--
		queue[chosen].EstJobLeft = jobs[chosen].left * jobs[chosen].est
		if jobs[chosen].left == 0 { // job done: its probe leaves
			queue = append(queue[:chosen], queue[chosen+1:]...)
			jobs = append(jobs[:chosen], jobs[chosen+1:]...)
			overtaken = append(overtaken[:chosen], overtaken[chosen+1:]...)
		}
	}
}

func TestStarvationCap(t *testing.T) { t.Parallel(); rapid.Check(t, testStarvationCap) }

func testGetProbeFromQueueNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 6).Draw(t, "len")
	q := make([]QueuedProbe, n)
	for i := range q {
		q[i] = QueuedProbe{Long: rapid.Bool().Draw(t, "long"), EstJobLeft: anyFloat(t, "left"), EstTask: anyFloat(t, "est"), Bypassed: anyFloat(t, "bypassed"), Cap: anyFloat(t, "cap")}
	}
	dst := make([]float64, rapid.IntRange(0, 8).Draw(t, "dstLen"))
	for i := range dst {
		dst[i] = -7
	}
	before := append([]float64(nil), dst...)
	got, chosen, err := GetProbeFromQueue(dst, q)
	if err != nil {
		if !isInputError(err) || got != nil {
			t.Fatalf("error %v, result %v", err, got)
		}
		if d := cmp.Diff(before, dst, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("dst written on error:\n%s", d)
		}
		return
	}
	if len(got) != n || chosen < -1 || chosen >= n || (n > 0 && chosen < 0) {
		t.Fatalf("len %d, chosen %d for n = %d", len(got), chosen, n)
	}
	for i, c := range got {
		if math.IsNaN(c) || c < 0 {
			t.Fatalf("counter %d = %v", i, c)
		}
	}
}

func TestGetProbeFromQueueNoPanic(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testGetProbeFromQueueNoPanic)
}
func FuzzGetProbeFromQueue(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testGetProbeFromQueueNoPanic)) }
