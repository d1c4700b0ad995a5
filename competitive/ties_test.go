package competitive

import (
	"maps"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/srewc"
)

// loadJobs returns one single-task job per load, with Υ_j(t) = load (λ =
// 0); a load of 0 is an inactive job.
func loadJobs(loads []float64) []Job {
	jobs := make([]Job, len(loads))
	for j, y := range loads {
		if y > 0 {
			jobs[j] = Job{Map: Phase{Tasks: 1, Mean: y, Unscheduled: 1}}
		}
	}
	return jobs
}

// apportionOf is what Machines' doc comment promises: alloc.Apportion of
// the real shares of Shares, priority Υ_j(t). ok is false when the
// instance is rejected.
func apportionOf(jobs []Job, machines int, beta float64) (want []int, ok bool) {
	shares, err := Shares(nil, jobs, machines, beta, 0, nil)
	if err != nil {
		return nil, false
	}
	priority := make([]float64, len(jobs))
	active := 0
	for j := range jobs {
		priority[j], _ = RemainingEffectiveWorkload(jobs[j], 0)
		active += b2i(priority[j] > 0)
	}
	total := machines * b2i(active > 0)
	want, err = alloc.Apportion(nil, shares, total, priority, nil)
	return want, err == nil
}

// tiePatterns are the load patterns of the tie grid.
var tiePatterns = map[string]func(n int) []float64{
	"distinct": func(n int) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = float64(j + 1)
		}
		return out
	},
	"equal": func(n int) []float64 { return slices.Repeat([]float64{1}, n) },
	"below 1": func(n int) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = []float64{0.25, 0.5, 0.75, 0.5}[j%4]
		}
		return out
	},
	"inactive": func(n int) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = float64((j * 5) % 4) // 0, 1, 2, 3, 0, …
		}
		return out
	},
	"reversed": func(n int) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = float64(2 * (n - j))
		}
		return out
	},
}

// TestMachinesTieRegressions: the two instances of issue 11 that a
// one-character change of Machines' fast path got wrong unnoticed.
func TestMachinesTieRegressions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		loads    []float64
		machines int
		beta     float64
		want     []int
	}{
		// β = 1/7, N = 12: βN = 12/7, one whole share 3.5 and a partial
		// 2.5. Their remainders tie at 0.5 and the one unit left goes to
		// the whole share, ranked first (`fracPart < fracWhole` → `<=`
		// gave it to the partial job: [3 3 …]).
		{"β=1/7 tie", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 6, 1.0 / 7, []int{4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		// Loads below 1 with nothing left over: shares 2 and 2, no unit to
		// give (`unitCut = -1` → `+1` gave both loads < 1 a unit, Σ ≠ M).
		{"loads<1, no units", []float64{0.25, 0.5}, 4, 1, []int{2, 2}},
	} {
		got, err := Machines(nil, loadJobs(tc.loads), tc.machines, tc.beta, 0, nil)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: Machines = %v, %v; want %v", tc.name, got, err, tc.want)
		}
		if want, _ := apportionOf(loadJobs(tc.loads), tc.machines, tc.beta); !slices.Equal(want, tc.want) {
			t.Errorf("%s: alloc.Apportion = %v, hand-worked %v", tc.name, want, tc.want)
		}
	}
}

// TestMachinesTiesExhaustive: Machines' own rounding equals
// alloc.Apportion on every small tie-heavy instance — β = p/q for q ≤ 9,
// N ≤ 12, M ≤ 3N + 2, loads distinct, all equal, below 1, or with
// inactive jobs — where the whole and partial remainders tie, or a
// remainder is 0. It counts the instances whose two remainders tie with a
// unit to give and requires many: the class the fast path must get right.
func TestMachinesTiesExhaustive(t *testing.T) {
	t.Parallel()
	tied, checked := 0, 0
	tieGrid(func(name string, jobs []Job, m, p, q int) {
		beta := float64(p) / float64(q)
		want, ok := apportionOf(jobs, m, beta)
		got, err := Machines(nil, jobs, m, beta, 0, nil)
		if !ok || err != nil {
			t.Fatalf("β = %d/%d, %s, N = %d, M = %d: error %v", p, q, name, len(jobs), m, err)
		}
		checked++
		if !slices.Equal(got, want) {
			t.Fatalf("β = %d/%d, %s loads, N = %d, M = %d: Machines = %v, alloc.Apportion = %v", p, q, name, len(jobs), m, got, want)
		}
		tied += b2i(remaindersTie(jobs, m, beta))
	})
	if tied < 50 {
		t.Fatalf("only %d of %d instances tie the whole and partial remainders with a unit to give", tied, checked)
	}
}

// tieGrid calls f on every instance of the tie grid: β = p/q for q ≤ 9,
// N ≤ 12 jobs of each load pattern, M ≤ 3N + 2.
func tieGrid(f func(pattern string, jobs []Job, m, p, q int)) {
	for q := 1; q <= 9; q++ {
		for p := 1; p <= q; p++ {
			for n := 1; n <= 12; n++ {
				for _, name := range slices.Sorted(maps.Keys(tiePatterns)) {
					jobs := loadJobs(tiePatterns[name](n))
					for m := 0; m <= 3*n+2; m++ {
						f(name, jobs, m, p, q)
					}
				}
			}
		}
	}
}

// TestMachinesFastPath: Machines settles the rounding from the shares'
// structure on every instance of the tie grid and on the benchmark's
// snapshots; its guard's general routine (alloc's apportionment, the same
// answer) is for shares that lose that structure to rounding near 2^53.
// (Not parallel: it counts calls through a package hook.)
func TestMachinesFastPath(t *testing.T) {
	calls := 0
	srewc.HookApportioned = func() { calls++ }
	defer func() { srewc.HookApportioned = nil }()
	tieGrid(func(_ string, jobs []Job, m, p, q int) {
		if _, err := Machines(nil, jobs, m, float64(p)/float64(q), 0, nil); err != nil {
			t.Fatal(err)
		}
	})
	for _, n := range []int{10, 1000} {
		for _, beta := range []float64{0.1, 0.5, 0.7, 1} {
			if _, err := Machines(nil, benchSnapshot(n), benchMachines, beta, 1, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if calls != 0 {
		t.Fatalf("Machines took the general routine %d times", calls)
	}
}

// remaindersTie reports whether the whole shares and the partial share
// have equal positive fractional parts and units are left to give.
func remaindersTie(jobs []Job, machines int, beta float64) bool {
	active := 0
	for j := range jobs {
		active += b2i(jobs[j].active())
	}
	if active == 0 || machines == 0 {
		return false
	}
	// The shares as §4.1 gives them: ⌊βN⌋ whole M/(βN), and the partial
	// (βN − ⌊βN⌋)·M/(βN) when βN ∉ ℕ.
	y := beta * float64(active)
	full := math.Floor(y)
	whole, partial := float64(machines)/y, (y-full)/y*float64(machines)
	fw, fp := whole-math.Floor(whole), partial-math.Floor(partial)
	units := machines - int(full)*int(whole) - int(partial)
	return full > 0 && full < y && fw == fp && fw > 0 && units > 0
}

// testMachinesSmallRational: the same comparison drawn at random, β = p/q
// and loads from a small set (ties in Υ_j(t) and in remainders), also
// with λ > 0.
func testMachinesSmallRational(t *rapid.T) {
	q := rapid.IntRange(1, 16).Draw(t, "q")
	beta := float64(rapid.IntRange(1, q).Draw(t, "p")) / float64(q)
	loads := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.25, 0.5, 1, 2, 3, 4}), 0, 20).Draw(t, "loads")
	jobs := loadJobs(loads)
	m := rapid.IntRange(0, 4*len(loads)+3).Draw(t, "machines")
	got, err := Machines(nil, jobs, m, beta, 0, nil)
	want, ok := apportionOf(jobs, m, beta)
	if err != nil || !ok {
		t.Fatalf("error %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Machines = %v, alloc.Apportion = %v", got, want)
	}
}

func TestMachinesSmallRational(t *testing.T) { t.Parallel(); rapid.Check(t, testMachinesSmallRational) }
