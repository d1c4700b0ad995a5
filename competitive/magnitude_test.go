package competitive

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/internal/testutil"
)

// Generators of the adversarial review's classes (issues 11, 17): means,
// SDs and λ anywhere in float64's range with subnormals and exact ties,
// counts at 2^53, clusters at 2^53.

// extremeCount is a count of 0–3 or in [2^53 − 8, 2^53].
func extremeCount(t *rapid.T, label string) int {
	return rapid.OneOf(rapid.IntRange(0, 3), testutil.NearMaxCount()).Draw(t, label)
}

// extremePhase draws a valid phase whose counts are small or near 2^53;
// a started phase may have finished tasks and up to two running tasks
// (copies small or about 2^51, so their sum stays ≤ 2^53).
func extremePhase(t *rapid.T, label string, started bool) Phase {
	p := Phase{Tasks: extremeCount(t, label+"_tasks"), SD: testutil.Magnitude().Draw(t, label+"_sd")}
	p.Mean = testutil.Magnitude().Draw(t, label+"_mean")
	if p.Tasks > 0 && p.Mean == 0 {
		p.Mean = 1
	}
	if !started {
		p.Unscheduled = p.Tasks
		return p
	}
	var left []int
	for _, u := range []int{0, 1, 2, 3, p.Tasks - 3, p.Tasks - 1, p.Tasks} {
		if u >= 0 && u <= p.Tasks {
			left = append(left, u)
		}
	}
	unfinished := rapid.SampledFrom(left).Draw(t, label+"_unfinished")
	running := rapid.IntRange(0, min(2, unfinished)).Draw(t, label+"_running")
	p.Unscheduled = unfinished - running
	for range running {
		p.Running = append(p.Running, rapid.OneOf(rapid.IntRange(1, 3), rapid.IntRange(1<<51-8, 1<<51)).Draw(t, label+"_copies"))
	}
	return p
}

// extremeJobs draws 0–6 valid jobs of extremePhase.
func extremeJobs(t *rapid.T) []Job {
	jobs := make([]Job, rapid.IntRange(0, 6).Draw(t, "n"))
	for j := range jobs {
		if rapid.Bool().Draw(t, "reducing") {
			jobs[j].Map = extremePhase(t, "map", false)
			jobs[j].Map.Unscheduled = 0
			jobs[j].Reduce = extremePhase(t, "reduce", true)
		} else {
			jobs[j].Map = extremePhase(t, "map", true)
			jobs[j].Reduce = extremePhase(t, "reduce", false)
		}
		if j > 0 && rapid.IntRange(0, 3).Draw(t, "tie") == 0 { // an exact tie with an earlier job
			jobs[j] = cloneJobs(jobs[:j])[rapid.IntRange(0, j-1).Draw(t, "tieWith")]
		}
	}
	return jobs
}

func extremeLambda(t *rapid.T) float64 {
	return rapid.OneOf(rapid.SampledFrom([]float64{0, 1}), testutil.Magnitude()).Draw(t, "lambda")
}

func extremeBeta(t *rapid.T) float64 {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{1, 0.5, 1.0 / 3, 1.0 / 7, 5e-324}),
		testutil.PositiveMagnitude().Filter(func(b float64) bool { return b <= 1 }),
	).Draw(t, "beta")
}

func extremeMachines(t *rapid.T, label string) int {
	return rapid.OneOf(rapid.IntRange(0, 20), testutil.NearMaxCount()).Draw(t, label)
}

// wantInputErr fails unless err is a *specsched.InputError of fn.
func wantInputErr(t *rapid.T, err error, fn string) {
	var ie *specsched.InputError
	if !errors.As(err, &ie) || ie.Func != fn {
		t.Fatalf("%s: err = %v, want an InputError", fn, err)
	}
}

// exact is x as a big.Float of ample precision; bigPrec keeps every
// product and sum of a few float64s exact.
const bigPrec = 4096

func exact(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

// exactPerTask is E + λσ exactly.
func exactPerTask(p *Phase, lambda float64) *big.Float {
	v := exact(lambda)
	v.Mul(v, exact(p.SD))
	return v.Add(v, exact(p.Mean))
}

// exactWorkload is Υ_j (remaining = false) or Υ_j(t), exactly.
func exactWorkload(job *Job, lambda float64, remaining bool) *big.Float {
	sum := exact(0)
	for _, p := range []*Phase{&job.Map, &job.Reduce} {
		n := p.Tasks
		if remaining {
			n = p.unfinished()
		}
		if n > 0 {
			sum.Add(sum, new(big.Float).SetPrec(bigPrec).Mul(exact(float64(n)), exactPerTask(p, lambda)))
		}
	}
	return sum
}

// agrees reports whether got is ref correctly rounded up to relTol, or
// both are below the normal range (where float64 keeps fewer digits).
func agrees(got float64, ref *big.Float, relTol float64) bool {
	want, _ := ref.Float64()
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return false
	}
	if math.Abs(want) < 0x1p-1000 {
		return math.Abs(got-want) <= 0x1p-1000
	}
	return math.Abs(got-want) <= relTol*math.Abs(want)
}

// overflows reports whether ref is beyond float64's range (up to relTol).
func overflows(ref *big.Float, relTol float64) bool {
	return ref.Cmp(exact(math.MaxFloat64*(1-relTol))) > 0
}

// testMagnitudeWorkload: EffectiveWorkload and RemainingEffectiveWorkload
// are Υ_j and Υ_j(t) correctly rounded (a few ulps), or InputErrors only
// when Υ_j, or a phase's E + λσ, leaves float64's range.
func testMagnitudeWorkload(t *rapid.T) {
	jobs := extremeJobs(t)
	if len(jobs) == 0 {
		return
	}
	job, lambda := jobs[0], extremeLambda(t)
	for _, remaining := range []bool{false, true} {
		f, fn := EffectiveWorkload, "competitive.EffectiveWorkload"
		if remaining {
			f, fn = RemainingEffectiveWorkload, "competitive.RemainingEffectiveWorkload"
		}
		got, err := f(job, lambda)
		if err != nil {
			wantInputErr(t, err, fn)
			if !overflows(exactWorkload(&job, lambda, false), 1e-15) && !overflows(exactPerTask(&job.Map, lambda), 0) && !overflows(exactPerTask(&job.Reduce, lambda), 0) {
				t.Fatalf("%s rejected a job whose Υ_j fits float64: %v", fn, err)
			}
			continue
		}
		if ref := exactWorkload(&job, lambda, remaining); !agrees(got, ref, 1e-15) {
			t.Fatalf("%s = %v, exact %v", fn, got, ref.Text('g', 17))
		}
	}
}

func TestMagnitudeWorkload(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeWorkload) }

// testMagnitudeShares: Shares is finite, ≥ 0 and sums to M; Machines sums
// to M exactly, stays within a machine of each share and equals
// alloc.Apportion of the shares (when alloc accepts them); or both reject
// the input alike.
func testMagnitudeShares(t *rapid.T) {
	jobs := extremeJobs(t)
	lambda, beta, m := extremeLambda(t), extremeBeta(t), extremeMachines(t, "machines")
	shares, err := Shares(nil, jobs, m, beta, lambda, nil)
	got, err2 := Machines(nil, jobs, m, beta, lambda, nil)
	if err != nil || err2 != nil {
		wantInputErr(t, err, "competitive.Shares")
		wantInputErr(t, err2, "competitive.Machines")
		return
	}
	active, sum, isum := 0, 0.0, 0
	priority := make([]float64, len(jobs))
	for j := range jobs {
		if !(shares[j] >= 0) || math.IsInf(shares[j], 0) {
			t.Fatalf("share %d = %v", j, shares[j])
		}
		if math.Abs(float64(got[j])-shares[j]) > 1 {
			t.Fatalf("job %d: %d machines for a share of %v", j, got[j], shares[j])
		}
		active += b2i(jobs[j].active())
		sum += shares[j]
		isum += got[j]
		priority[j] = jobs[j].remaining(lambda)
	}
	total := m * b2i(active > 0)
	if isum != total || math.Abs(sum-float64(total)) > 1e-9*float64(total) {
		t.Fatalf("Σ shares = %v, Σ machines = %d, want %d", sum, isum, total)
	}
	if want, err := alloc.Apportion(nil, shares, total, priority, nil); err == nil && !slices.Equal(got, want) {
		t.Fatalf("Machines = %v, alloc.Apportion = %v of %v", got, want, shares)
	}
}

func TestMagnitudeShares(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeShares) }

// smallWork bounds the launches and random draws a property lets a call
// make (the calls themselves accept up to MaxActions).
const smallWork = 1 << 12

// checkActions fails on an action that names no job or task of the
// snapshot, or no copy.
func checkActions(t *rapid.T, jobs []Job, actions []Action) {
	for _, a := range actions {
		if a.Job < 0 || a.Job >= len(jobs) || a.Copies < 1 || a.Stage > ReduceStage {
			t.Fatalf("malformed action %+v", a)
		}
		p := jobs[a.Job].phase(a.Stage)
		if n := map[ActionKind]int{Launch: p.Unscheduled, Clone: len(p.Running), Preempt: len(p.Running)}[a.Kind]; a.Task < 0 || a.Task >= n {
			t.Fatalf("action %+v names no task (%d)", a, n)
		}
	}
}

// testMagnitudePlan: SREWC and Plan on extreme snapshots and clusters
// answer with well-formed actions that leave every active job with its
// g_j(t) machines (Preemptive), or reject with an InputError — a plan
// beyond MaxActions included. Calls whose work would be large but
// accepted are made with a nil rng (no draws) or skipped.
func testMagnitudePlan(t *rapid.T) {
	jobs := extremeJobs(t)
	lambda, beta := extremeLambda(t), extremeBeta(t)
	used := 0
	for j := range jobs {
		used += jobs[j].copies()
	}
	cluster := min(maxCount, used+extremeMachines(t, "spare"))
	if rapid.Bool().Draw(t, "anyCluster") {
		cluster = extremeMachines(t, "cluster")
	}
	mode := rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode")
	allot, err := Machines(nil, jobs, cluster, beta, lambda, nil)
	if err != nil {
		wantInputErr(t, err, "competitive.Machines")
		return
	}
	launched, preempted := 0, 0
	for j := range jobs {
		if k := allot[j] - jobs[j].copies(); jobs[j].active() && k > 0 {
			launched += min(k, jobs[j].phase(jobs[j].stage()).Unscheduled)
		} else if jobs[j].active() && mode == Preemptive {
			preempted -= k
		}
	}
	if launched > smallWork && launched <= MaxActions {
		return // accepted, but too large for a property
	}
	var rng *rand.Rand
	if preempted <= smallWork && rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
	}
	before := cloneJobs(jobs)
	for _, fn := range []string{"competitive.SREWC", "competitive.Plan"} {
		var actions []Action
		if fn == "competitive.SREWC" {
			actions, err = SREWC(nil, jobs, cluster, beta, lambda, mode, rng, nil)
		} else {
			actions, err = Plan(nil, jobs, allot, cluster, lambda, mode, rng, nil)
		}
		mustNotChange(t, before, jobs)
		if err != nil {
			wantInputErr(t, err, fn)
			if used <= cluster && launched <= MaxActions && preempted <= MaxActions {
				t.Fatalf("%s rejected a valid snapshot: %v", fn, err)
			}
			continue
		}
		checkActions(t, jobs, actions)
		if mode != Preemptive {
			continue
		}
		held := make([]int, len(jobs))
		for j := range jobs {
			held[j] = jobs[j].copies()
		}
		for _, a := range actions {
			held[a.Job] += map[ActionKind]int{Launch: 1, Clone: 1, Preempt: -1}[a.Kind] * a.Copies
		}
		for j := range jobs {
			if jobs[j].active() && held[j] != allot[j] {
				t.Fatalf("%s: job %d ends the slot with %d machines, g = %d", fn, j, held[j], allot[j])
			}
		}
	}
}

func TestMagnitudePlan(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudePlan) }

// testMagnitudeSEW: SEW on extreme snapshots and clusters answers with
// well-formed actions that launch and clone what sewWork counts, or
// rejects with an InputError.
func testMagnitudeSEW(t *rapid.T) {
	jobs := extremeJobs(t)
	lambda := extremeLambda(t)
	var used [2]int
	for j := range jobs {
		used[jobs[j].stage()] += jobs[j].copies()
	}
	m := min(maxCount, 2*max(used[0], used[1])+extremeMachines(t, "spare"))
	if rapid.Bool().Draw(t, "anyCluster") {
		m = extremeMachines(t, "machines")
	}
	var rng *rand.Rand
	if rapid.Bool().Draw(t, "random") {
		rng = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 4))
	}
	var launches, clones int
	if m != 1 && used[0] <= (m+1)/2 && used[1] <= m/2 {
		for z, group := range [2]int{(m + 1) / 2, m / 2} {
			l, c, _ := sewWork(jobs, Stage(z), group-used[z], max(lambda, 0))
			launches, clones = max(launches, l), max(clones, c)
		}
	}
	if (launches > smallWork && launches <= MaxActions) || (rng != nil && clones > smallWork && clones <= MaxActions) {
		return // accepted, but too large for a property
	}
	actions, err := SEW(nil, jobs, m, lambda, rng, nil)
	if err != nil {
		wantInputErr(t, err, "competitive.SEW")
		return
	}
	checkActions(t, jobs, actions)
}

func TestMagnitudeSEW(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeSEW) }

// refLowerBound is eq. (18) in exact arithmetic.
func refLowerBound(jobs []Job, machines int, peak float64) *big.Float {
	chain := exact(0)
	works := make([]*big.Float, len(jobs))
	for j := range jobs {
		for _, p := range []*Phase{&jobs[j].Map, &jobs[j].Reduce} {
			if p.Tasks > 0 {
				chain.Add(chain, exact(p.Mean))
			}
		}
		works[j] = exactWorkload(&jobs[j], 0, false)
	}
	slices.SortFunc(works, func(a, b *big.Float) int { return a.Cmp(b) })
	srpt := exact(0)
	for j, w := range works {
		srpt.Add(srpt, new(big.Float).SetPrec(bigPrec).Mul(exact(float64(len(works)-j)), w))
	}
	chain.Quo(chain, exact(peak))
	srpt.Quo(srpt, exact(float64(machines)))
	if chain.Cmp(srpt) > 0 {
		return chain
	}
	return srpt
}

// refSEWBound is Theorem 2's bound for job j in exact arithmetic, with
// the ranking (ties) of the float64 Υ_i that SEWBound sorts by.
func refSEWBound(jobs []Job, j, machines int, lambda float64) *big.Float {
	b := exact(0)
	if jobs[j].Map.Tasks+jobs[j].Reduce.Tasks == 0 {
		return b
	}
	for _, p := range []*Phase{&jobs[j].Map, &jobs[j].Reduce} {
		if p.Tasks > 0 {
			b.Add(b, exactPerTask(p, lambda))
		}
	}
	a := exact(0)
	for i := range jobs {
		if jobs[i].total(lambda) <= jobs[j].total(lambda) {
			a.Add(a, exactWorkload(&jobs[i], lambda, false))
		}
	}
	a.Mul(a, exact(2))
	a.Quo(a, exact(float64(machines)))
	return b.Add(b, a)
}

// someOverflows reports whether a job's Υ_j, or a phase's E + λσ, leaves
// float64's range: the documented rejection of every function here.
func someOverflows(jobs []Job, lambda float64) bool {
	for j := range jobs {
		if overflows(exactWorkload(&jobs[j], lambda, false), 0) || overflows(exactPerTask(&jobs[j].Map, lambda), 0) || overflows(exactPerTask(&jobs[j].Reduce, lambda), 0) {
			return true
		}
	}
	return false
}

// testMagnitudeBounds: LowerBound, SEWBound and SREWCRatio agree with
// their formulas in exact arithmetic (a few ulps per term), and reject
// only what overflows float64; the O(1) functions give finite results.
func testMagnitudeBounds(t *rapid.T) {
	const tol = 1e-13
	jobs := extremeJobs(t)
	lambda := extremeLambda(t)
	m := max(1, extremeMachines(t, "machines"))
	peak := rapid.OneOf(rapid.Just(1.0), testutil.Magnitude().Filter(func(p float64) bool { return p >= 1 })).Draw(t, "peak")
	if lb, err := LowerBound(jobs, m, peak, nil); err != nil {
		wantInputErr(t, err, "competitive.LowerBound")
		if ref := refLowerBound(jobs, m, peak); !overflows(ref, tol) && !someOverflows(jobs, 0) {
			t.Fatalf("LowerBound rejected a bound of %v: %v", ref.Text('g', 17), err)
		}
	} else if ref := refLowerBound(jobs, m, peak); !agrees(lb, ref, tol) {
		t.Fatalf("LowerBound = %v, exact %v", lb, ref.Text('g', 17))
	}
	if got, err := SEWBound(nil, jobs, m, lambda, nil); err != nil {
		wantInputErr(t, err, "competitive.SEWBound")
		var ie *specsched.InputError
		if errors.As(err, &ie) && ie.Field == "effective workload" && ie.Index >= 0 && !someOverflows(jobs, lambda) {
			if ref := refSEWBound(jobs, ie.Index, m, lambda); !overflows(ref, tol) {
				t.Fatalf("SEWBound rejected job %d's bound of %v: %v", ie.Index, ref.Text('g', 17), err)
			}
		}
	} else {
		for j := range jobs {
			if ref := refSEWBound(jobs, j, m, lambda); !agrees(got[j], ref, tol) {
				t.Fatalf("SEWBound[%d] = %v, exact %v", j, got[j], ref.Text('g', 17))
			}
		}
	}
	beta := rapid.OneOf(rapid.Just(0.5), testutil.PositiveMagnitude().Filter(func(b float64) bool { return b <= 0.5 })).Draw(t, "beta")
	eps := testutil.PositiveMagnitude().Draw(t, "eps")
	ref := exact(float64(m) + 1) // 2(M + δ + MΔ)/(βε), δ = 1 + 2β + ε
	ref.Add(ref, new(big.Float).SetPrec(bigPrec).Mul(exact(2), exact(beta)))
	ref.Add(ref, exact(eps))
	ref.Add(ref, new(big.Float).SetPrec(bigPrec).Mul(exact(float64(m)), exact(peak)))
	ref.Mul(ref, exact(2))
	ref.Quo(ref, new(big.Float).SetPrec(bigPrec).Mul(exact(beta), exact(eps)))
	if c, err := SREWCRatio(m, beta, eps, peak); err != nil {
		wantInputErr(t, err, "competitive.SREWCRatio")
		if !overflows(ref, tol) {
			t.Fatalf("SREWCRatio rejected a constant of %v: %v", ref.Text('g', 17), err)
		}
	} else if !agrees(c, ref, tol) {
		t.Fatalf("SREWCRatio = %v, exact %v", c, ref.Text('g', 17))
	}
	for name, call := range map[string]func() (float64, error){
		"SEWConfidence": func() (float64, error) { return SEWConfidence(lambda) },
		"SEWRatio":      func() (float64, error) { return SEWRatio(peak) },
		"SREWCSpeed":    func() (float64, error) { return SREWCSpeed(beta, eps) },
	} {
		if v, err := call(); err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
			t.Fatalf("%s = %v, %v", name, v, err)
		}
	}
}

func TestMagnitudeBounds(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeBounds) }

// testMagnitudeSimulate: Simulate with works, speeds and peaks across
// float64's range returns finite flowtimes or an InputError, within a
// MaxSlots of 500 slots — and promptly, rejecting up front a task that
// needs more.
func testMagnitudeSimulate(t *rapid.T) {
	jobs := make([]SimJob, rapid.IntRange(0, 3).Draw(t, "n"))
	for j := range jobs {
		jobs[j] = SimJob{
			Arrival:     rapid.OneOf(rapid.IntRange(0, 3), rapid.Just(maxSimSlot)).Draw(t, "arrival"),
			MapTasks:    rapid.IntRange(0, 3).Draw(t, "mapTasks"),
			ReduceTasks: rapid.IntRange(0, 2).Draw(t, "reduceTasks"),
			MapWork:     testutil.PositiveMagnitude().Draw(t, "mapWork"),
			ReduceWork:  testutil.PositiveMagnitude().Draw(t, "reduceWork"),
		}
	}
	cfg := Config{
		Machines:  rapid.IntRange(2, 6).Draw(t, "machines"),
		Algorithm: rapid.SampledFrom([]Algorithm{AlgorithmSEW, AlgorithmSREWC, AlgorithmFair}).Draw(t, "policy"),
		Beta:      extremeBeta(t),
		Lambda:    extremeLambda(t),
		Mode:      rapid.SampledFrom([]Mode{Preemptive, NonPreemptive}).Draw(t, "mode"),
		Speed:     testutil.Magnitude().Draw(t, "speed"),
		Peak:      rapid.OneOf(rapid.Just(1.0), testutil.Magnitude().Filter(func(p float64) bool { return p >= 1 })).Draw(t, "peak"),
		MaxSlots:  500,
	}
	start := time.Now()
	flow, _, err := simulate(jobs, cfg, nil)
	if err != nil {
		wantInputErr(t, err, "competitive.Simulate")
	}
	for j, f := range flow {
		if f < 0 {
			t.Fatalf("job %d: flowtime %d", j, f)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Simulate took %v for at most 500 slots", d)
	}
}

func TestMagnitudeSimulate(t *testing.T) { t.Parallel(); rapid.Check(t, testMagnitudeSimulate) }

// TestMagnitudeRegressions: answers that left float64's range inside a
// computation although the answer itself fits, found by the properties
// above (each failed before its fix), checked against exact arithmetic.
func TestMagnitudeRegressions(t *testing.T) {
	t.Parallel()
	const tol = 1e-15
	huge := []Job{{Map: Phase{Tasks: 1, Mean: 1e308, Unscheduled: 1}}, {Map: Phase{Tasks: 1, Mean: 1e308, Unscheduled: 1}}}
	// LowerBound: Σ means and Σ (N+1−j)·w_(j) overflow; the bound is
	// max(2e308/1e300, 3e308/2^53).
	if got, err := LowerBound(huge, 1<<53, 1e300, nil); err != nil || !agrees(got, refLowerBound(huge, 1<<53, 1e300), tol) {
		t.Errorf("LowerBound = %v, %v; want %v", got, err, refLowerBound(huge, 1<<53, 1e300).Text('g', 17))
	}
	// SEWBound: 1e308 + 2·1e308/4 = 1.5e308 (the check 4·ΣΥ_i < +Inf
	// rejected it); with both jobs A_j = 2e308 and M = 2^20.
	if got, err := SEWBound(nil, huge[:1], 4, 0, nil); err != nil || got[0] != 1.5e308 {
		t.Errorf("SEWBound = %v, %v; want [1.5e308]", got, err)
	}
	if got, err := SEWBound(nil, huge, 1<<20, 0, nil); err != nil || !agrees(got[1], refSEWBound(huge, 1, 1<<20, 0), tol) {
		t.Errorf("SEWBound = %v, %v; want %v for both", got, err, refSEWBound(huge, 1, 1<<20, 0).Text('g', 17))
	}
	// SREWCRatio: M·Δ overflows, 2(M + δ + MΔ)/(βε) ≈ 3.6e16 does not.
	ref := exact(1 << 53)
	ref.Add(ref, exact(2))
	ref.Add(ref, exact(1e300))
	ref.Add(ref, new(big.Float).SetPrec(bigPrec).Mul(exact(1<<53), exact(1e300)))
	ref.Mul(ref, exact(2))
	ref.Quo(ref, new(big.Float).SetPrec(bigPrec).Mul(exact(0.5), exact(1e300)))
	if got, err := SREWCRatio(1<<53, 0.5, 1e300, 1e300); err != nil || !agrees(got, ref, 1e-14) {
		t.Errorf("SREWCRatio = %v, %v; want %v", got, err, ref.Text('g', 17))
	}
	// Υ_j with λσ subnormal: 2^53 tasks bring it back into the normal
	// range, where it must keep its digits (it lost 7 of them).
	job := Job{Map: Phase{Tasks: 1 << 53, Mean: 5e-324, SD: 1.2345678901234567e-307, Unscheduled: 1 << 53}}
	for _, lambda := range []float64{1e-10, 3e10} {
		want := exactWorkload(&job, lambda, false)
		if got, err := EffectiveWorkload(job, lambda); err != nil || !agrees(got, want, 1e-15) {
			t.Errorf("EffectiveWorkload(λ = %v) = %v, %v; want %v", lambda, got, err, want.Text('g', 17))
		}
		if got, err := RemainingEffectiveWorkload(job, lambda); err != nil || !agrees(got, want, 1e-15) {
			t.Errorf("RemainingEffectiveWorkload(λ = %v) = %v, %v; want %v", lambda, got, err, want.Text('g', 17))
		}
	}
	// E + λσ overflowing in a phase without tasks: rejected (0·Inf), naming
	// the phase's sd rather than a NaN workload.
	var ie *specsched.InputError
	_, err := EffectiveWorkload(Job{Map: Phase{Tasks: 1, Mean: 1, Unscheduled: 1}, Reduce: Phase{Mean: 1e308, SD: 1e308}}, 2)
	if !errors.As(err, &ie) || ie.Field != "Reduce.SD" || ie.Value != 1e308 {
		t.Errorf("err = %v, want an InputError on reduce.sd = 1e308", err)
	}
	// Simulate: a task needing 1e300 slots is rejected at once (it ran
	// 2^50 slots before giving up); one that needs exactly MaxSlots runs.
	start := time.Now()
	_, _, err = simulate([]SimJob{{MapTasks: 1, MapWork: 1e300}}, Config{Machines: 1, Algorithm: AlgorithmFair}, nil)
	if !errors.As(err, &ie) || ie.Field != "MapWork" || time.Since(start) > time.Second {
		t.Errorf("Simulate, work 1e300: %v after %v; want an InputError on MapWork at once", err, time.Since(start))
	}
	if flow, _, err := simulate([]SimJob{{MapTasks: 1, MapWork: 10}}, Config{Machines: 1, Algorithm: AlgorithmFair, MaxSlots: 10}, nil); err != nil || flow[0] != 10 {
		t.Errorf("Simulate, work 10 in MaxSlots 10: %v, %v; want flowtime 10", flow, err)
	}
	_, _, err = simulate([]SimJob{{MapTasks: 1, ReduceTasks: 1, MapWork: 1, ReduceWork: 10.5}}, Config{Machines: 1, Algorithm: AlgorithmFair, MaxSlots: 10}, nil)
	if !errors.As(err, &ie) || ie.Field != "ReduceWork" {
		t.Errorf("Simulate, reduce work 10.5 in MaxSlots 10: %v; want an InputError on ReduceWork", err)
	}
}

// TestTinyBits: scanJobs' bit test for tiny per-task values is tiny.
func TestTinyBits(t *testing.T) {
	t.Parallel()
	for _, x := range []float64{0, 5e-324, 0x1p-1022, math.Nextafter(0x1p-1000, 0), 0x1p-1000, 1, math.MaxFloat64} {
		for _, y := range []float64{0, 1e-310, 1} {
			got := min(math.Float64bits(x)-1, math.Float64bits(y)-1) < tinyBits-1
			if want := tiny(x) || tiny(y); got != want {
				t.Errorf("x = %v, y = %v: bit test %v, tiny %v", x, y, got, want)
			}
		}
	}
	// And a job with a tiny per-task value keeps Υ_j(t)'s digits in
	// Machines' loads: exactly 1.11200034299948757…e-301 (λσ subnormal),
	// it ranks after a job of 1.11200034299948e-301 (without the digits it
	// was 1.1120002414e-301 and ranked first).
	jobs := []Job{{Map: Phase{Tasks: 1 << 53, Mean: 5e-324, SD: 1.2345678901234567e-307, Unscheduled: 1 << 53}}, {Map: Phase{Tasks: 1, Mean: 1.11200034299948e-301, Unscheduled: 1}}}
	g, err := Machines(nil, jobs, 3, 1, 1e-10, nil)
	if want := []int{1, 2}; err != nil || !slices.Equal(g, want) {
		t.Errorf("Machines = %v, %v; want %v", g, err, want)
	}
}
