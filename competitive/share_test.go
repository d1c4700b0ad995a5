package competitive

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/alloc"
)

// shareTol is relative to M/(βN): the shares are one or two float64
// operations away from the exact formula, evaluated in big.Rat below.
const shareTol = 1e-12

// paperShares evaluates the paper's g_j(t) literally: |ψ_j^s(t)| by
// counting, for every active job, the active jobs k with Υ_k(t) > Υ_j(t),
// or Υ_k(t) = Υ_j(t) and k ≥ j (the documented tie order), and the case
// split on (1−β)N in exact rational arithmetic on the float64 β and M.
func paperShares(jobs []Job, machines int, beta, lambda float64) []float64 {
	load := make([]float64, len(jobs))
	n := 0
	for j := range jobs {
		load[j] = taskByTaskRemaining(jobs[j], lambda)
		if load[j] > 0 {
			n++
		}
	}
	out := make([]float64, len(jobs))
	if n == 0 {
		return out
	}
	betaR := new(big.Rat).SetFloat64(beta)
	N := new(big.Rat).SetInt64(int64(n))
	x := new(big.Rat).Mul(new(big.Rat).Sub(big.NewRat(1, 1), betaR), N) // (1−β)N
	full := new(big.Rat).Quo(new(big.Rat).SetInt64(int64(machines)), new(big.Rat).Mul(betaR, N))
	for j := range jobs {
		if load[j] == 0 {
			continue
		}
		psi := 0
		for k := range jobs {
			if load[k] > load[j] || (load[k] == load[j] && k >= j) {
				psi++
			}
		}
		p := new(big.Rat).SetInt64(int64(psi))
		pm1 := new(big.Rat).SetInt64(int64(psi - 1))
		var g *big.Rat
		switch {
		case pm1.Cmp(x) >= 0:
			g = full
		case p.Cmp(x) < 0:
			g = new(big.Rat)
		default:
			g = new(big.Rat).Mul(new(big.Rat).Sub(p, x), full)
		}
		out[j], _ = g.Float64()
	}
	return out
}

// taskByTaskRemaining is Υ_j(t) summed task by task, rounded like the
// implementation's product (it is exact for the generators' values).
func taskByTaskRemaining(job Job, lambda float64) float64 {
	return float64(job.Map.unfinished())*(job.Map.Mean+lambda*job.Map.SD) +
		float64(job.Reduce.unfinished())*(job.Reduce.Mean+lambda*job.Reduce.SD)
}

// rankOrder returns the active jobs in (Υ_j(t), index) order, by sorting.
func rankOrder(jobs []Job, lambda float64) []int {
	var order []int
	for j := range jobs {
		if taskByTaskRemaining(jobs[j], lambda) > 0 {
			order = append(order, j)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		return taskByTaskRemaining(jobs[order[a]], lambda) < taskByTaskRemaining(jobs[order[b]], lambda)
	})
	return order
}

func drawBeta(t *rapid.T) float64 {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{1, 0.5, 0.7, 0.25, 0.1, 1.0 / 3, 0.9999999999999999, 5e-324, 1e-300}),
		rapid.Float64Range(1e-6, 1),
	).Draw(t, "beta")
}

func testSharesMatchPaper(t *rapid.T) {
	jobs := someJobs(t, 0, 40)
	machines := rapid.OneOf(rapid.IntRange(0, 30), rapid.SampledFrom([]int{11000, 1 << 40})).Draw(t, "machines")
	beta := drawBeta(t)
	lambda := rapid.SampledFrom([]float64{0, 1, 6}).Draw(t, "lambda")
	before := cloneJobs(jobs)
	got, err := Shares(nil, jobs, machines, beta, lambda, nil)
	if err != nil {
		t.Fatalf("Shares: %v", err)
	}
	mustNotChange(t, before, jobs)
	want := paperShares(jobs, machines, beta, lambda)
	active := len(rankOrder(jobs, lambda))
	unit := float64(machines) / max(1, beta*float64(active)) // the largest share
	sum := 0.0
	for j := range jobs {
		if math.Abs(got[j]-want[j]) > shareTol*max(1, unit) {
			t.Fatalf("g_%d(t) = %v, want %v (paper's formula); shares %v", j, got[j], want[j], got)
		}
		sum += got[j]
	}
	if active > 0 && machines > 0 {
		if !closeTo(sum, float64(machines), shareTol) {
			t.Fatalf("Σ g_j(t) = %v, want M = %d", sum, machines)
		}
	} else if sum != 0 {
		t.Fatalf("Σ g_j(t) = %v with no active job or no machine", sum)
	}
	// Smaller Υ_j(t) (or equal and smaller index) never gets less.
	order := rankOrder(jobs, lambda)
	for k := 1; k < len(order); k++ {
		if got[order[k-1]] < got[order[k]] {
			t.Fatalf("job %d ranked before job %d gets %v < %v", order[k-1], order[k], got[order[k-1]], got[order[k]])
		}
	}
}

func TestSharesMatchPaper(t *testing.T) { t.Parallel(); rapid.Check(t, testSharesMatchPaper) }

// testServedCount: with β = k/2^m, βN is exact and the jobs with machines
// are exactly the ⌈βN⌉ ranked first, ⌊βN⌋ of them with M/(βN).
func testServedCount(t *rapid.T) {
	jobs := someJobs(t, 1, 60)
	exp := rapid.IntRange(0, 10).Draw(t, "m")
	k := rapid.IntRange(1, 1<<exp).Draw(t, "k")
	beta := float64(k) / float64(int(1)<<exp)
	machines := rapid.IntRange(1, 5000).Draw(t, "machines")
	got, err := Shares(nil, jobs, machines, beta, 0, nil)
	if err != nil {
		t.Fatalf("Shares: %v", err)
	}
	order := rankOrder(jobs, 0)
	n := len(order)
	served := (k*n + 1<<exp - 1) >> exp // ⌈kN/2^m⌉ in integers
	whole := k * n >> exp               // ⌊kN/2^m⌋
	full := float64(machines) / (beta * float64(n))
	for rank, j := range order {
		switch {
		case rank < whole:
			if !closeTo(got[j], full, shareTol) {
				t.Fatalf("rank %d of %d (β = %v): g = %v, want M/(βN) = %v", rank, n, beta, got[j], full)
			}
		case rank < served:
			if !(got[j] > 0 && got[j] < full) {
				t.Fatalf("rank %d (the partial job) of %d (β = %v): g = %v, want in (0, %v)", rank, n, beta, got[j], full)
			}
		default:
			if got[j] != 0 {
				t.Fatalf("rank %d ≥ ⌈βN⌉ = %d: g = %v, want 0", rank, served, got[j])
			}
		}
	}
	if n > 0 && beta == 1 {
		for _, j := range order {
			if !closeTo(got[j], float64(machines)/float64(n), shareTol) {
				t.Fatalf("β = 1: g = %v, want M/N = %v", got[j], float64(machines)/float64(n))
			}
		}
	}
}

func TestServedCount(t *testing.T) { t.Parallel(); rapid.Check(t, testServedCount) }

// largestRemainder is a sort-based reference of the rounding: floors, then
// the units left to the largest fractional parts, ties in rank order.
func largestRemainder(shares []float64, total int, rank []int) []int {
	out := make([]int, len(shares))
	left := total
	for i, s := range shares {
		out[i] = int(math.Floor(s))
		left -= out[i]
	}
	pos := make([]int, len(shares))
	for r, i := range rank {
		pos[i] = r
	}
	idx := make([]int, len(shares))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		fa := shares[idx[a]] - math.Floor(shares[idx[a]])
		fb := shares[idx[b]] - math.Floor(shares[idx[b]])
		if fa != fb {
			return fa > fb
		}
		return pos[idx[a]] < pos[idx[b]]
	})
	for _, i := range idx[:max(0, min(left, len(idx)))] {
		out[i]++
	}
	return out
}

func testMachines(t *rapid.T) {
	jobs := someJobs(t, 0, 40)
	machines := rapid.OneOf(rapid.IntRange(0, 40), rapid.SampledFrom([]int{11000})).Draw(t, "machines")
	beta := drawBeta(t)
	lambda := rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
	before := cloneJobs(jobs)
	dst := make([]int, 3, 100)
	got, err := Machines(dst, jobs, machines, beta, lambda, new(Workspace))
	if err != nil {
		t.Fatalf("Machines: %v", err)
	}
	mustNotChange(t, before, jobs)
	if len(jobs) <= cap(dst) && &got[:1][0] != &dst[:1][0] {
		t.Fatalf("dst with capacity %d not reused for %d jobs", cap(dst), len(jobs))
	}
	real, _ := Shares(nil, jobs, machines, beta, lambda, nil)
	order := rankOrder(jobs, lambda)
	sum := 0
	for j, g := range got {
		sum += g
		if math.Abs(float64(g)-real[j]) >= 1 {
			t.Fatalf("job %d: %d machines, real share %v: moved by a whole machine", j, g, real[j])
		}
		if real[j] == 0 && g != 0 {
			t.Fatalf("job %d: %d machines for a zero share", j, g)
		}
	}
	if want := map[bool]int{true: machines, false: 0}[len(order) > 0]; sum != want {
		t.Fatalf("Σ g_j(t) = %d, want %d", sum, want)
	}
	for k := 1; k < len(order); k++ {
		if got[order[k-1]] < got[order[k]] {
			t.Fatalf("job %d ranked before job %d gets %d < %d machines", order[k-1], order[k], got[order[k-1]], got[order[k]])
		}
	}
	// Against an independent sort-based largest remainder on the paper's
	// shares (the float shares agree to 1e-12, far from any remainder
	// boundary for these small M unless a fractional part is 0 or a tie,
	// which the rank order settles the same way).
	if machines <= 40 {
		total := 0
		if len(order) > 0 {
			total = machines
		}
		want := largestRemainder(real, total, append(order, inactive(jobs, lambda)...))
		if !slices.Equal(got, want) {
			t.Fatalf("Machines = %v, want %v (largest remainder of %v)", got, want, real)
		}
	}
	if beta == 1 && len(order) > 0 {
		n := len(order)
		for rank, j := range order {
			want := machines / n
			if rank < machines%n {
				want++
			}
			if got[j] != want {
				t.Fatalf("β = 1, rank %d of %d: %d machines, want %d (⌊M/N⌋, +1 for the %d smallest)", rank, n, got[j], want, machines%n)
			}
		}
	}
}

func inactive(jobs []Job, lambda float64) []int {
	var out []int
	for j := range jobs {
		if taskByTaskRemaining(jobs[j], lambda) == 0 {
			out = append(out, j)
		}
	}
	return out
}

func TestMachines(t *testing.T) { t.Parallel(); rapid.Check(t, testMachines) }

// testMachinesIsApportion: Machines is exactly what its doc comment says —
// alloc.Apportion of the real shares of Shares with priority Υ_j(t) —
// for every cluster size, including M a multiple of βN (whole shares with
// no remainder) and snapshots full of ties in Υ_j(t). Machines works the
// rounding out from the shares' structure; this runs the general routine.
func testMachinesIsApportion(t *rapid.T) {
	jobs := someJobs(t, 0, 60)
	beta := drawBeta(t)
	lambda := rapid.SampledFrom([]float64{0, 1}).Draw(t, "lambda")
	active := len(rankOrder(jobs, lambda))
	machines := rapid.OneOf(
		rapid.IntRange(0, 200),
		rapid.SampledFrom([]int{11000, 1 << 40, alloc.MaxTotal}),
		rapid.Map(rapid.IntRange(1, 50), func(k int) int { return k * max(1, int(math.Round(beta*float64(active)))) }),
	).Draw(t, "machines")
	got, err := Machines(nil, jobs, machines, beta, lambda, nil)
	if err != nil {
		t.Fatalf("Machines: %v", err)
	}
	shares, _ := Shares(nil, jobs, machines, beta, lambda, nil)
	priority := make([]float64, len(jobs))
	for j := range jobs {
		priority[j], _ = RemainingEffectiveWorkload(jobs[j], lambda)
	}
	total := 0
	if active > 0 {
		total = machines
	}
	want, err := alloc.Apportion(nil, shares, total, priority, nil)
	if err != nil {
		t.Fatalf("alloc.Apportion: %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Machines = %v\nApportion = %v\nof shares %v", got, want, shares)
	}
}

func TestMachinesIsApportion(t *testing.T) { t.Parallel(); rapid.Check(t, testMachinesIsApportion) }

func TestMachinesWorked(t *testing.T) {
	t.Parallel()
	// Four jobs with Υ(t) = 4, 2, 8, 2 (λ = 0) on 10 machines. Ranks:
	// job 1 (2), job 3 (2, larger index), job 0 (4), job 2 (8).
	jobs := []Job{
		{Map: Phase{Tasks: 4, Mean: 1, Unscheduled: 4}},
		{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}},
		{Map: Phase{Tasks: 8, Mean: 1, Unscheduled: 8}},
		{Map: Phase{Tasks: 2, Mean: 1, Unscheduled: 2}},
	}
	// β = 0.5: βN = 2, jobs 1 and 3 get M/2 = 5 each.
	// β = 0.7: βN = 2.8, full 10/2.8 = 3.571…, partial 0.8·3.571… = 2.857…
	//   → 3, 3, 2 plus 2 units for the largest remainders .857 (job 0) and
	//   .571 (job 1, before job 3): [3 4 0 3].
	// β = 1: 2.5 each → two units to the two smallest: [2 3 2 3].
	for _, c := range []struct {
		beta float64
		want []int
	}{{0.5, []int{0, 5, 0, 5}}, {0.7, []int{3, 4, 0, 3}}, {1, []int{2, 3, 2, 3}}} {
		got, err := Machines(nil, jobs, 10, c.beta, 0, nil)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("β = %v: Machines = %v, %v; want %v", c.beta, got, err, c.want)
		}
	}
}

// testSharesNoPanic: bad scalars and jobs give an InputError and leave dst
// alone; good ones give finite shares summing to M.
func testSharesNoPanic(t *rapid.T) {
	jobs := genJobs(t, 0, 8, 4, 2)
	corrupt(t, jobs)
	machines := anyInt(t, "machines", 0, 1, 7, 11000)
	beta := anyFloat(t, "beta", 0, 1, 0.5, 1.5, 5e-324)
	lambda := anyFloat(t, "lambda", 0, 1)
	sentinel := []float64{-7, -7, -7, -7, -7, -7, -7, -7, -7}
	dst := slices.Clone(sentinel)
	got, err := Shares(dst, jobs, machines, beta, lambda, nil)
	idst := []int{-7, -7, -7, -7, -7, -7, -7, -7, -7}
	igot, ierr := Machines(idst, jobs, machines, beta, lambda, nil)
	if (err == nil) != (ierr == nil) {
		t.Fatalf("Shares err %v, Machines err %v", err, ierr)
	}
	if err != nil {
		if !isInputError(err, "competitive.Shares") || !isInputError(ierr, "competitive.Machines") {
			t.Fatalf("errors %v, %v are not InputErrors of the functions", err, ierr)
		}
		if got != nil || igot != nil || !slices.Equal(dst, sentinel) || slices.ContainsFunc(idst, func(v int) bool { return v != -7 }) {
			t.Fatalf("on error: results %v %v, dst %v %v modified", got, igot, dst, idst)
		}
		return
	}
	sum, isum := 0.0, 0
	for j := range got {
		if !(got[j] >= 0) || math.IsInf(got[j], 0) || igot[j] < 0 {
			t.Fatalf("share %v / %d machines for job %d", got[j], igot[j], j)
		}
		sum += got[j]
		isum += igot[j]
	}
	if isum != 0 && isum != machines || (isum == 0 && !(sum == 0)) {
		t.Fatalf("Σ machines = %d, Σ shares = %v, M = %d", isum, sum, machines)
	}
}

func TestSharesNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testSharesNoPanic) }

func FuzzShares(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSharesNoPanic)) }

func FuzzMachines(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSharesNoPanic)) }

// benchSnapshot builds n jobs like a busy cluster's: a few tasks each, most
// still mapping, some with running copies — one copy per running task, at
// most benchMachines in all. A machine runs one copy (o_j(t) counts
// machines, Xu et al. §4.1), so a snapshot with more copies than machines
// is not a state of the model and Plan and SREWC reject it: without the
// cap the jobs' 0–2 running tasks each summed past 11 000 from n = 11 123
// on, and BenchmarkSREWC/n=100000 failed on its own fixture
// (TestBenchSnapshotFits). The cap leaves the snapshots of n ≤ 10 000
// unchanged (the same draws, Σ o below 11 000).
func benchSnapshot(n int) []Job {
	rng := rand.New(rand.NewPCG(1, 1))
	jobs := make([]Job, n)
	used := 0
	for j := range jobs {
		maps := 1 + rng.IntN(200)
		running := min(rng.IntN(3), maps, benchMachines-used)
		used += running
		jobs[j] = Job{
			Map:    Phase{Tasks: maps, Mean: 1 + 20*rng.Float64(), SD: rng.Float64(), Unscheduled: maps - running},
			Reduce: Phase{Tasks: 1 + rng.IntN(20), Mean: 1 + 50*rng.Float64(), SD: rng.Float64()},
		}
		jobs[j].Reduce.Unscheduled = jobs[j].Reduce.Tasks
		for i := 0; i < running; i++ {
			jobs[j].Map.Running = append(jobs[j].Map.Running, 1)
		}
	}
	return jobs
}

const benchMachines = 11000 // the Google cluster of §5

var benchSizes = []int{10, 100, 1000, 10000, 100000}

func benchmarkMachines(b *testing.B, n int) {
	jobs := benchSnapshot(n)
	dst := make([]int, n)
	var ws Workspace
	if _, err := Machines(dst, jobs, benchMachines, 0.7, 1, &ws); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst, _ = Machines(dst, jobs, benchMachines, 0.7, 1, &ws)
	}
	b.StopTimer()
	sum := 0
	for _, g := range dst {
		sum += g
	}
	if sum != benchMachines {
		b.Fatalf("Σ g = %d", sum)
	}
}

func benchmarkShares(b *testing.B, n int) {
	jobs := benchSnapshot(n)
	dst := make([]float64, n)
	var ws Workspace
	if _, err := Shares(dst, jobs, benchMachines, 0.7, 1, &ws); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst, _ = Shares(dst, jobs, benchMachines, 0.7, 1, &ws)
	}
	b.StopTimer()
	if sum := floatSum(dst); !closeTo(sum, benchMachines, 1e-9) {
		b.Fatalf("Σ g = %v", sum)
	}
}

func floatSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// benchmarkTwoPass is the baseline the issue sets: two passes over the
// snapshot — count the active jobs, then give each active job M/N (the
// Fair allocation, which needs no order and no rounding).
func benchmarkTwoPass(b *testing.B, n int) {
	jobs := benchSnapshot(n)
	dst := make([]float64, n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		active := 0
		for j := range jobs {
			if jobs[j].active() {
				active++
			}
		}
		share := float64(benchMachines) / float64(active)
		for j := range jobs {
			dst[j] = 0
			if jobs[j].active() {
				dst[j] = share
			}
		}
	}
	b.StopTimer()
	if sum := floatSum(dst); !closeTo(sum, benchMachines, 1e-9) {
		b.Fatalf("Σ = %v", sum)
	}
}

func BenchmarkMachines(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("n="+itoa(n), func(b *testing.B) { benchmarkMachines(b, n) })
	}
}

func BenchmarkShares(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("n="+itoa(n), func(b *testing.B) { benchmarkShares(b, n) })
	}
}

func BenchmarkTwoPassScan(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("n="+itoa(n), func(b *testing.B) { benchmarkTwoPass(b, n) })
	}
}

func TestMachinesAllocationFree(t *testing.T) {
	jobs := benchSnapshot(2000)
	dst := make([]int, len(jobs))
	var ws Workspace
	if _, err := Machines(dst, jobs, benchMachines, 0.7, 1, &ws); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { Machines(dst, jobs, benchMachines, 0.7, 1, &ws) }); a != 0 {
		t.Fatalf("Machines: %v allocs/op with a reused dst and workspace", a)
	}
	fdst := make([]float64, len(jobs))
	if _, err := Shares(fdst, jobs, benchMachines, 0.7, 1, &ws); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { Shares(fdst, jobs, benchMachines, 0.7, 1, &ws) }); a != 0 {
		t.Fatalf("Shares: %v allocs/op with a reused dst and workspace", a)
	}
}

// BenchmarkRatio times Machines, Shares and the two-pass scan alternately
// inside one loop, so that all three see the same machine load (the
// benchmark machine is shared), and reports each one's ns/op and the
// ratios to the scan: the target is Machines ≤ 4× the scan at
// n = 10 000.
func BenchmarkRatio(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("n="+itoa(n), func(b *testing.B) {
			jobs := benchSnapshot(n)
			idst := make([]int, n)
			fdst := make([]float64, n)
			base := make([]float64, n)
			var ws Workspace
			if _, err := Machines(idst, jobs, benchMachines, 0.7, 1, &ws); err != nil {
				b.Fatal(err)
			}
			var tm, ts, tb time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				idst, _ = Machines(idst, jobs, benchMachines, 0.7, 1, &ws)
				t1 := time.Now()
				fdst, _ = Shares(fdst, jobs, benchMachines, 0.7, 1, &ws)
				t2 := time.Now()
				active := 0
				for j := range jobs {
					if jobs[j].active() {
						active++
					}
				}
				share := float64(benchMachines) / float64(active)
				for j := range jobs {
					base[j] = 0
					if jobs[j].active() {
						base[j] = share
					}
				}
				t3 := time.Now()
				tm, ts, tb = tm+t1.Sub(t0), ts+t2.Sub(t1), tb+t3.Sub(t2)
			}
			b.StopTimer()
			sum := 0
			for _, g := range idst {
				sum += g
			}
			if sum != benchMachines || !closeTo(floatSum(fdst), benchMachines, 1e-9) || !closeTo(floatSum(base), benchMachines, 1e-9) {
				b.Fatalf("Σ g = %d, %v, %v", sum, floatSum(fdst), floatSum(base))
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
			b.ReportMetric(per(tm), "machines-ns/op")
			b.ReportMetric(per(ts), "shares-ns/op")
			b.ReportMetric(per(tb), "scan-ns/op")
			b.ReportMetric(float64(tm)/float64(tb), "machines/scan")
			b.ReportMetric(float64(ts)/float64(tb), "shares/scan")
		})
	}
}

// TestNegativeZero: a mean or SD of −0 is 0 — valid where 0 is — although
// the scan's bit test sends it to the exact check: the same shares.
func TestNegativeZero(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	plus := []Job{
		{Map: Phase{Tasks: 3, Mean: 2, Unscheduled: 3}, Reduce: Phase{}},
		{Map: Phase{Tasks: 1, Mean: 5, SD: 0, Unscheduled: 1}},
	}
	minus := cloneJobs(plus)
	minus[0].Reduce.Mean, minus[0].Map.SD, minus[1].Map.SD = negZero, negZero, negZero
	for _, beta := range []float64{0.5, 1} {
		want, err1 := Machines(nil, plus, 7, beta, 1, nil)
		got, err2 := Machines(nil, minus, 7, beta, 1, nil)
		if err1 != nil || err2 != nil || !slices.Equal(got, want) {
			t.Errorf("β = %v: Machines with −0 = %v, %v; with +0 = %v, %v", beta, got, err2, want, err1)
		}
		wantF, _ := Shares(nil, plus, 7, beta, 1, nil)
		gotF, err := Shares(nil, minus, 7, beta, 1, nil)
		if err != nil || !slices.Equal(gotF, wantF) {
			t.Errorf("β = %v: Shares with −0 = %v, %v; with +0 = %v", beta, gotF, err, wantF)
		}
	}
}
