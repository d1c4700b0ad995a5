package probe

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/specsched/specsched/fairness"
	"pgregory.net/rapid"
)

// refHopperPick sorts the queued jobs by HopperPick's rules with its own
// virtual sizes ((2/β)·T, or T for β ≥ 2) and its own constrained test.
func refHopperPick(queued []int, remaining, running []float64, slots, beta, eps float64) int {
	if len(queued) == 0 {
		return -1
	}
	targets, err := fairness.Allocate(nil, remaining, slots, beta, eps, nil)
	if err != nil {
		panic(err)
	}
	level := 2 / beta
	if beta >= 2 {
		level = 1
	}
	sumT := 0.0
	for _, t := range remaining {
		sumT += t
	}
	constrained := level*sumT >= slots // Algorithm 1's split: (2/β)·ΣT ≥ S
	type cand struct {
		pos      int
		above    bool
		key, vir float64
	}
	cs := make([]cand, len(queued))
	for k, i := range queued {
		c := cand{pos: k, above: !(running[i] < targets[i]-TargetTolerance*max(1, targets[i])), vir: level * remaining[i]}
		switch {
		case constrained:
			c.key = c.vir
		case targets[i] > 0:
			c.key = running[i] / targets[i]
		default:
			c.key = math.Inf(1)
		}
		cs[k] = c
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		switch {
		case a.above != b.above:
			if a.above {
				return 1
			}
			return -1
		case a.key != b.key:
			if a.key < b.key {
				return -1
			}
			return 1
		case a.vir != b.vir:
			if a.vir < b.vir {
				return -1
			}
			return 1
		}
		return 0
	})
	return cs[0].pos
}

func drawHopperView(t *rapid.T) (queued []int, remaining, running []float64, slots, beta, eps float64) {
	n := rapid.IntRange(1, 10).Draw(t, "jobs")
	remaining = make([]float64, n)
	running = make([]float64, n)
	for i := range remaining {
		remaining[i] = float64(rapid.IntRange(0, 40).Draw(t, "remaining"))
		running[i] = float64(rapid.IntRange(0, 20).Draw(t, "running"))
	}
	perm := rapid.Permutation(func() []int {
		p := make([]int, n)
		for i := range p {
			p[i] = i
		}
		return p
	}()).Draw(t, "order")
	queued = perm[:rapid.IntRange(0, n).Draw(t, "queued")]
	slots = float64(rapid.IntRange(0, 120).Draw(t, "slots"))
	beta = rapid.SampledFrom([]float64{1.1, 1.5, 1.9, 2, 3}).Draw(t, "beta")
	eps = rapid.SampledFrom([]float64{0, 0.1, 0.5, 1}).Draw(t, "eps")
	return
}

// testHopperPick compares with the sort-based reference and checks the
// input is untouched and a job below its target is preferred.
func testHopperPick(t *rapid.T) {
	queued, remaining, running, slots, beta, eps := drawHopperView(t)
	bq, br, bu := slices.Clone(queued), slices.Clone(remaining), slices.Clone(running)
	var ws Workspace
	got, err := HopperPick(queued, remaining, running, slots, beta, eps, &ws)
	if err != nil {
		t.Fatalf("HopperPick: %v", err)
	}
	if d := cmp.Diff([][]float64{br, bu}, [][]float64{remaining, running}); d != "" || !slices.Equal(bq, queued) {
		t.Fatalf("input modified:\n%s", d)
	}
	if want := refHopperPick(queued, remaining, running, slots, beta, eps); got != want {
		t.Fatalf("HopperPick = %d; want %d (queued %v remaining %v running %v S %v β %v ε %v)", got, want, queued, remaining, running, slots, beta, eps)
	}
}

func TestHopperPick(t *testing.T) { t.Parallel(); rapid.Check(t, testHopperPick) }

// testHopperFill: S free slots handed out one at a time by HopperPick, with
// every job queued, never take a job past ⌈target⌉ — each pick goes to a
// job below its target, because Σ running < S = Σ targets leaves one —
// and use all S slots.
func testHopperFill(t *rapid.T) {
	n := rapid.IntRange(1, 8).Draw(t, "jobs")
	remaining := make([]float64, n)
	for i := range remaining {
		remaining[i] = float64(rapid.IntRange(1, 30).Draw(t, "remaining"))
	}
	slots := rapid.IntRange(0, 60).Draw(t, "slots")
	beta := rapid.SampledFrom([]float64{1.2, 1.5, 2.5}).Draw(t, "beta")
	eps := rapid.SampledFrom([]float64{0, 0.1, 1}).Draw(t, "eps")
	targets, err := fairness.Allocate(nil, remaining, float64(slots), beta, eps, nil)
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	queued := make([]int, n)
	for i := range queued {
		queued[i] = i
	}
	running := make([]float64, n)
	var ws Workspace
	for s := 0; s < slots; s++ {
		k, err := HopperPick(queued, remaining, running, float64(slots), beta, eps, &ws)
		if err != nil {
			t.Fatalf("HopperPick: %v", err)
		}
		if running[k] >= targets[k]-TargetTolerance*max(1, targets[k]) {
			t.Fatalf("slot %d went to job %d at %v ≥ target %v (targets %v running %v)", s, k, running[k], targets[k], targets, running)
		}
		running[k]++
	}
	const tol = 1e-9 // targets are sums of real shares
	for i := range running {
		if running[i] > math.Ceil(targets[i]-tol)+tol {
			t.Fatalf("job %d holds %v > ⌈%v⌉", i, running[i], targets[i])
		}
	}
}

func TestHopperFill(t *testing.T) { t.Parallel(); rapid.Check(t, testHopperFill) }

func TestHopperPickWorked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name               string
		remaining, running []float64
		slots, eps         float64
		want               int
	}{
		// β = 1.5: V = (4/3)·T = [4, 40]; ΣV = 44 ≥ 10: constrained.
		// Algorithm 1 (ε = 1): targets [4, 6]. Both below: smaller V.
		{"constrained smallest V", []float64{3, 30}, []float64{0, 0}, 10, 1, 0},
		{"constrained, small job full", []float64{3, 30}, []float64{4, 0}, 10, 1, 1},
		// S = 100 > 44: proportional targets 100·[3, 30]/33 = [9.09, 90.9];
		// fill ratios 5/9.09 = 0.55 and 45/90.9 = 0.495: the large job.
		{"proportional", []float64{3, 30}, []float64{5, 45}, 100, 1, 1},
		{"proportional other", []float64{3, 30}, []float64{4, 50}, 100, 1, 0},
		// ε = 0: the Fair scheduler, targets 5 and 5; job 0 holds 5.
		{"fair", []float64{3, 30}, []float64{5, 2}, 10, 0, 1},
		// Everyone at or above target: the slot is still used (Guideline 3),
		// by the constrained order (smallest V).
		{"all above", []float64{3, 30}, []float64{4, 6}, 10, 1, 0},
	}
	for _, c := range cases {
		got, err := HopperPick([]int{0, 1}, c.remaining, c.running, c.slots, 1.5, c.eps, nil)
		if err != nil || got != c.want {
			t.Errorf("%s: got %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	if got, err := HopperPick(nil, []float64{1}, []float64{0}, 1, 1.5, 0.1, nil); got != -1 || err != nil {
		t.Errorf("empty queue: %d, %v", got, err)
	}
}

func testHopperPickNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 5).Draw(t, "jobs")
	remaining := make([]float64, n)
	running := make([]float64, max(0, n+rapid.IntRange(-1, 1).Draw(t, "lenSkew")))
	for i := range remaining {
		remaining[i] = anyFloat(t, "remaining")
	}
	for i := range running {
		running[i] = anyFloat(t, "running")
	}
	queued := rapid.SliceOfN(rapid.IntRange(-1, n), 0, 4).Draw(t, "queued")
	slots := anyFloat(t, "slots")
	beta := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), 0.5, 1, 1.5, 2, 1e300}).Draw(t, "beta")
	eps := rapid.SampledFrom([]float64{math.NaN(), -0.1, 0, 0.1, 1, 1.5}).Draw(t, "eps")
	got, err := HopperPick(queued, remaining, running, slots, beta, eps, nil)
	if err != nil {
		if !isInputError(err) || got != -1 {
			t.Fatalf("error %v (%T), pick %d", err, err, got)
		}
		return
	}
	if got < -1 || got >= len(queued) || (len(queued) > 0 && got < 0) {
		t.Fatalf("pick %d of %d", got, len(queued))
	}
}

func TestHopperPickNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testHopperPickNoPanic) }
func FuzzHopperPick(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testHopperPickNoPanic)) }

// TestHopperFillUlpTarget is the instance the fill property found when an
// ε-fair target of exactly 5 came out one ulp above 5: the job holding 5
// slots must not take a sixth.
func TestHopperFillUlpTarget(t *testing.T) {
	t.Parallel()
	remaining := []float64{1, 1, 1, 1, 3, 4, 6}
	queued := []int{0, 1, 2, 3, 4, 5, 6}
	running := make([]float64, len(remaining))
	targets, err := fairness.Allocate(nil, remaining, 28, 1.2, 0.1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ws Workspace
	for range 28 {
		k, err := HopperPick(queued, remaining, running, 28, 1.2, 0.1, &ws)
		if err != nil {
			t.Fatal(err)
		}
		running[k]++
	}
	for i := range running {
		if running[i] > math.Ceil(targets[i]-1e-9) {
			t.Errorf("job %d holds %v slots, target %v", i, running[i], targets[i])
		}
	}
}

// TestHopperPickVirtualOverflow: a snapshot whose total virtual size
// (2/β)·ΣT rounds past MaxFloat64 while fairness.Allocate accepts it (its
// running sum Σ(2/β)·T_i stays finite) is slot-constrained — ΣV ≥ S, as
// refHopperPick decides. HopperPick used to take ΣV from alloc.VirtualSize
// and discard its overflow error, leaving ΣV = 0: not constrained, and the
// job furthest below its share (job 0) instead of the smaller one.
func TestHopperPickVirtualOverflow(t *testing.T) {
	t.Parallel()
	const beta, slots, eps = 1.6088100937010426, 1, 0.1
	remaining := []float64{4.820244767905938e+307, 4.820244767905937e+307, 4.820244767905939e+307}
	running := []float64{0, 0.2, 0}
	sumT := remaining[0] + remaining[1] + remaining[2]
	if !math.IsInf(2/beta*sumT, 1) {
		t.Fatalf("(2/β)·ΣT = %v: the snapshot no longer overflows", 2/beta*sumT)
	}
	if _, err := fairness.Allocate(nil, remaining, slots, beta, eps, nil); err != nil {
		t.Fatalf("fairness.Allocate rejects the snapshot: %v", err)
	}
	got, err := HopperPick([]int{0, 1}, remaining, running, slots, beta, eps, nil)
	if want := refHopperPick([]int{0, 1}, remaining, running, slots, beta, eps); err != nil || got != want || got != 1 {
		t.Errorf("HopperPick = %d, %v; want %d (reference) = 1", got, err, want)
	}
}

// TestHopperChooseTolerance: a job counts as below its target only when
// running < target − TargetTolerance·max(1, target), strictly. By hand,
// with job 0 the smaller (preferred by rule 4 when both are below) and job
// 1 far below its target:
//   - target 1000 + 5e−7 with 1000 running is within the tolerance (1e−6
//     at 1000), so job 1, the only job below, gets the slot;
//   - at exactly running = target − tolerance (searched in the bits) job
//     0 is not below either.
func TestHopperChooseTolerance(t *testing.T) {
	t.Parallel()
	below := func(target float64) float64 { return target - TargetTolerance*max(1, target) }
	atBound := 1000 + 1e-6
	for range 1 << 12 {
		if below(atBound) == 1000 {
			break
		}
		atBound = math.Nextafter(atBound, 2000)
	}
	if below(atBound) != 1000 {
		t.Fatal("no target with target − tolerance = 1000 exactly")
	}
	for _, target := range []float64{1000 + 5e-7, atBound} {
		got := hopperChoose([]int{0, 1}, []float64{1, 2}, []float64{1000, 0}, []float64{target, 5}, true, 1)
		if got != 1 {
			t.Errorf("target %v, 1000 running: picked %d, want 1 (job 0 is not below its target)", target, got)
		}
	}
}
