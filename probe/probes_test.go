package probe

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestProbeCountPaper(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tasks, k int
		ratio    float64
		want     int
	}{
		{1, EagleMinProbes, EagleProbeRatio, 20},  // a 1-task short job still sends K = 20
		{10, EagleMinProbes, EagleProbeRatio, 20}, // 2t = 20
		{11, EagleMinProbes, EagleProbeRatio, 22}, // 2t = 22 > K
		{100, 0, SparrowProbeRatio, 200},          // Sparrow batch sampling d = 2
		{5, 0, HopperProbeRatio, 20},              // Hopper probe ratio 4
		{3, 0, 1.5, 5},                            // ⌈4.5⌉
		{0, EagleMinProbes, EagleProbeRatio, 0},   // no tasks, no probes
		{7, 3, 0, 3},                              // ratio 0: minProbes
	}
	for _, c := range cases {
		got, err := ProbeCount(c.tasks, c.k, c.ratio)
		if err != nil || got != c.want {
			t.Errorf("ProbeCount(%d, %d, %v) = %d, %v; want %d", c.tasks, c.k, c.ratio, got, err, c.want)
		}
	}
}

// testProbeCount compares with the definition: the smallest integer m ≥
// ratio·tasks, found by counting up, then max with K.
func testProbeCount(t *rapid.T) {
	tasks := rapid.IntRange(1, 200).Draw(t, "tasks")
	k := rapid.IntRange(0, 50).Draw(t, "minProbes")
	ratio := float64(rapid.IntRange(0, 40).Draw(t, "ratioTenths")) / 10
	got, err := ProbeCount(tasks, k, ratio)
	if err != nil {
		t.Fatalf("ProbeCount: %v", err)
	}
	m := 0
	for float64(m) < ratio*float64(tasks) {
		m++
	}
	if want := max(k, m); got != want {
		t.Fatalf("ProbeCount(%d, %d, %v) = %d; want %d", tasks, k, ratio, got, want)
	}
}

func TestProbeCount(t *testing.T) { t.Parallel(); rapid.Check(t, testProbeCount) }

func testProbeCountNoPanic(t *rapid.T) {
	tasks := rapid.IntRange(-5, 1<<40).Draw(t, "tasks")
	k := rapid.IntRange(-5, 1<<40).Draw(t, "minProbes")
	ratio := anyFloat(t, "ratio")
	got, err := ProbeCount(tasks, k, ratio)
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %T", err)
		}
		return
	}
	if tasks < 0 || k < 0 || math.IsNaN(ratio) || ratio < 0 || math.IsInf(ratio, 0) {
		t.Fatalf("ProbeCount(%d, %d, %v) = %d; want an error", tasks, k, ratio, got)
	}
	if got < 0 || got > MaxProbes || (tasks > 0 && got < k) {
		t.Fatalf("ProbeCount(%d, %d, %v) = %d out of range", tasks, k, ratio, got)
	}
}

func TestProbeCountNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testProbeCountNoPanic) }
func FuzzProbeCount(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testProbeCountNoPanic)) }
