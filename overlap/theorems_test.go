package overlap

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func total(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// completions returns the sorted completion times arrival + response.
func completions(jobs []Arrival, resp []float64, keep func(Arrival) bool) []float64 {
	var c []float64
	for i, a := range jobs {
		if keep(a) {
			c = append(c, a.Time+resp[i])
		}
	}
	slices.Sort(c)
	return c
}

// dominates checks that fast has completed at least as many jobs as slow at
// every instant: the k-th completion of fast is no later than slow's.
func dominates(t *rapid.T, what string, fast, slow []float64) {
	for k := range fast {
		if fast[k] > slow[k]+relTol*math.Max(1, slow[k]) {
			t.Fatalf("%s: completion #%d at %v, after the reference's %v\nfast %v\nslow %v", what, k+1, fast[k], slow[k], fast, slow)
		}
	}
}

// testTheorem3SamplePath: the sample-path argument of Theorem 3's proof.
// MaxSRPT (either shuffle variant) at speed s has, at every instant,
// completed at least as many jobs as a single SRPT server of speed s on
// sizes z_i = max(x_i, y_i) with the same arrivals — the job with least
// L_i(t) = max(x_i(t), y_i(t)) loses L at rate s, as the SRPT head does.
// The reference SRPT is the test's own O(n²) loop.
func testTheorem3SamplePath(t *rapid.T) {
	jobs := genArrivals(t, 14)
	speed := rapid.Float64Range(0.25, 3).Draw(t, "speed")
	kind := rapid.SampledFrom([]Algorithm{MaxSRPT, MaxSRPTStrict}).Draw(t, "kind")
	resp, err := Simulate(nil, jobs, speed, Discipline{Algorithm: kind}, nil)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	arr, z := make([]float64, len(jobs)), make([]float64, len(jobs))
	for i, a := range jobs {
		arr[i], z[i] = a.Time, math.Max(a.Map, a.Shuffle)
	}
	srpt := refSRPT(arr, z, speed)
	slices.Sort(srpt)
	dominates(t, kind.String(), completions(jobs, resp, func(Arrival) bool { return true }), srpt)
}

func TestTheorem3SamplePath(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTheorem3SamplePath)
}

// testTheorem5SamplePath: the argument of Theorem 5's proof for SplitSRPT
// as analysed (SplitSRPTStrict). The map-heavy jobs (x ≥ y) are served as
// one SRPT queue on their map sizes at speed μ₂(t)·s ≥ s·β/(1+β), their
// shuffle never lagging; the shuffle-heavy jobs as one SRPT queue on their
// shuffle sizes at speed μ₂(t)·s. So each class has, at every instant,
// completed at least as many jobs as a single SRPT server of speed
// s·β/(1+β) on that class's sizes, β ≤ min_t β(t) being the least
// imbalance of any job.
func testTheorem5SamplePath(t *rapid.T) {
	jobs := genArrivals(t, 14)
	speed := rapid.Float64Range(0.25, 3).Draw(t, "speed")
	resp, err := Simulate(nil, jobs, speed, Discipline{Algorithm: SplitSRPTStrict}, nil)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	beta := math.Inf(1)
	for _, a := range jobs {
		if a.Map > 0 || a.Shuffle > 0 {
			beta = math.Min(beta, imbalanceRef(a.Map, a.Shuffle))
		}
	}
	slow := speed * beta / (1 + beta)
	if math.IsInf(beta, 1) {
		slow = speed
	}
	for class, keep := range []func(Arrival) bool{
		func(a Arrival) bool { return a.Map >= a.Shuffle },
		func(a Arrival) bool { return a.Map < a.Shuffle },
	} {
		var arr, size []float64
		for _, a := range jobs {
			if keep(a) {
				arr = append(arr, a.Time)
				if class == 0 {
					size = append(size, a.Map)
				} else {
					size = append(size, a.Shuffle)
				}
			}
		}
		srpt := refSRPT(arr, size, slow)
		slices.Sort(srpt)
		dominates(t, []string{"map-heavy class", "shuffle-heavy class"}[class], completions(jobs, resp, keep), srpt)
	}
}

func imbalanceRef(x, y float64) float64 {
	if x == 0 || y == 0 {
		return math.Inf(1)
	}
	return math.Max(x/y, y/x)
}

func TestTheorem5SamplePath(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testTheorem5SamplePath)
}

// TestCorollary4Tight runs MaxSRPT and the paper's alternative schedule on
// Corollary 4's family and checks both totals against closed forms derived
// by hand, then the ratio against 2α/(1+α).
//
// MaxSRPT (m = n/2): the (α−ε, 1) jobs go first, one at a time; each keeps
// the map station busy α−ε and its shuffle (rate 1/(α−ε) < 1) keeps pace, so
// the j-th completes at j(α−ε). From T₀ = m(α−ε) the (1, α) jobs follow:
// their maps take 1 each and make shuffle work at α ≥ 1 per unit, so the
// shuffle station, serving them in order at rate 1, is never starved and
// the j-th completes at T₀ + jα. T = (α−ε)m(m+1)/2 + m·T₀ + αm(m+1)/2.
//
// Alternative (FIFO on the listed order (1,α), (α−ε,1), …): per pair the
// shuffle station has 1+α of work and the map station 1+α−ε, so the map
// station runs ahead and the shuffle station is never starved (A_j's
// shuffle is made at α ≥ 1 per unit; B_j's map, done by j(1+α−ε), is ahead
// of its shuffle): A_j completes at (j−1)(1+α) + α and B_j at j(1+α).
// T' = (1+α)m² + αm. As m → ∞, T/T' → (2α − 3ε/2)/(1+α) (paper: T ~
// n²α/2 − 3n²ε/8, T' ~ n²(1+α)/4), and always T/T' ≤ 2α/(1+α).
func TestCorollary4Tight(t *testing.T) {
	t.Parallel()
	sizes := []int{2, 10, 100, 1000}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, c := range []struct{ alpha, eps float64 }{{2, 0.1}, {3, 0.5}, {1.5, 0.1}, {4, 0.01}} {
		prev := 0.0
		for _, n := range sizes {
			jobs, err := Corollary4Instance(n, c.alpha, c.eps)
			if err != nil {
				t.Fatal(err)
			}
			m := float64(n / 2)
			a, e := c.alpha, c.eps
			wantT := (a-e)*m*(m+1)/2 + m*m*(a-e) + a*m*(m+1)/2
			wantAlt := (1+a)*m*m + a*m
			for _, kind := range []Algorithm{MaxSRPT, MaxSRPTStrict} {
				resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: kind}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := total(resp); !near(got, wantT, wantT) {
					t.Errorf("α=%v ε=%v n=%d %v: T = %v, want %v", a, e, n, kind, got, wantT)
				}
			}
			resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: FIFO}, nil)
			if err != nil {
				t.Fatal(err)
			}
			alt := total(resp)
			if !near(alt, wantAlt, wantAlt) {
				t.Errorf("α=%v ε=%v n=%d: alternative T' = %v, want %v", a, e, n, alt, wantAlt)
			}
			ratio := wantT / alt
			if bound := 2 * a / (1 + a); ratio > bound {
				t.Errorf("α=%v ε=%v n=%d: ratio %v exceeds Corollary 4's %v", a, e, n, ratio, bound)
			}
			if ratio <= prev {
				t.Errorf("α=%v ε=%v n=%d: ratio %v did not grow (was %v)", a, e, n, ratio, prev)
			}
			prev = ratio
		}
		limit := (2*c.alpha - 1.5*c.eps) / (1 + c.alpha)
		if n := sizes[len(sizes)-1]; limit-prev > 2*limit/float64(n) {
			t.Errorf("α=%v ε=%v: ratio %v at n=%d is not near its limit %v", c.alpha, c.eps, prev, n, limit)
		}
	}
}

// TestCorollary6Tight does the same for SplitSRPT on Corollary 6's family.
//
// SplitSRPT (β(t) = β while any job is present, μ₁ = 1/(1+β), μ₂ = β/(1+β)):
// the (β, 1) jobs are map-heavy and go one at a time with map capacity μ₂,
// β/μ₂ = 1+β each, their shuffle (rate μ₂/β = μ₁) keeping pace: the j-th
// completes at j(1+β). The big job is shuffle-heavy: map capacity μ₁, its
// shuffle made at β·μ₁ = μ₂, exactly its class's shuffle capacity, so it
// completes with its map at (n−1)/μ₁ = (n−1)(1+β).
// T = (1+β)n(n−1)/2 + (1+β)(n−1); no class ever has spare capacity, so the
// shared variant is the same.
//
// Alternative (FIFO: the (β, 1) jobs one by one, then the big job): the j-th
// small job completes at jβ (map-bound, shuffle at 1/β keeps pace). The big
// job's map then runs at 1 from (n−1)β, making shuffle work at β > 1 per
// unit, so its shuffle runs at 1 throughout and ends at 2(n−1)β.
// T' = βn(n−1)/2 + 2β(n−1). T/T' → 1 + 1/β, and T/T' ≤ 1 + 1/β.
func TestCorollary6Tight(t *testing.T) {
	t.Parallel()
	sizes := []int{2, 10, 100, 1000}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, b := range []float64{1.5, 2, 4} {
		prev := 0.0
		for _, n := range sizes {
			jobs, err := Corollary6Instance(n, b)
			if err != nil {
				t.Fatal(err)
			}
			nf := float64(n)
			wantT := (1+b)*nf*(nf-1)/2 + (1+b)*(nf-1)
			wantAlt := b*nf*(nf-1)/2 + 2*b*(nf-1)
			for _, kind := range []Algorithm{SplitSRPTStrict, SplitSRPT} {
				resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: kind}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := total(resp); !near(got, wantT, wantT) {
					t.Errorf("β=%v n=%d %v: T = %v, want %v", b, n, kind, got, wantT)
				}
			}
			resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: FIFO}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if alt := total(resp); !near(alt, wantAlt, wantAlt) {
				t.Errorf("β=%v n=%d: alternative T' = %v, want %v", b, n, alt, wantAlt)
			}
			ratio := wantT / wantAlt
			if ratio > 1+1/b {
				t.Errorf("β=%v n=%d: ratio %v exceeds Corollary 6's %v", b, n, ratio, 1+1/b)
			}
			if ratio <= prev {
				t.Errorf("β=%v n=%d: ratio %v did not grow (was %v)", b, n, ratio, prev)
			}
			prev = ratio
		}
		if n := sizes[len(sizes)-1]; 1+1/b-prev > 10/float64(n) {
			t.Errorf("β=%v: ratio %v at n=%d is not near its limit %v", b, prev, n, 1+1/b)
		}
	}
}

// TestTheorem2Adversary builds Theorem 2's instance against each policy and
// checks the proof's claims: the policy's total response time exceeds the
// proof's lower bound for its branch; an explicit better schedule — for
// branch 1 MaxSRPT (type-1 jobs, key 1, always before type-2, key 3k/2:
// all type-1 work done by k², each later type-1 job served on arrival), for
// branch 2 FIFO with the type-2 jobs first (all initial jobs done by 2k²) —
// costs less than the proof's upper bound; and the ratio grows with
// k = ⌊n^{1/3}⌋ (Ω(n^{1/3})).
func TestTheorem2Adversary(t *testing.T) {
	t.Parallel()
	ns := []int{512, 4096}
	if testing.Short() {
		ns = []int{64, 512}
	}
	for _, kind := range allAlgorithms {
		prev := 0.0
		for _, n := range ns {
			jobs, branch, err := Theorem2Instance(n, Discipline{Algorithm: kind}, nil)
			if err != nil {
				t.Fatal(err)
			}
			k := int(math.Round(math.Cbrt(float64(n))))
			kf := float64(k)
			if len(jobs) != k*k+k+k*k*k+1 {
				t.Fatalf("%v n=%d: %d jobs, want k²+k+k³+1 = %d", kind, n, len(jobs), k*k+k+k*k*k+1)
			}
			resp, err := Simulate(nil, jobs, 1, Discipline{Algorithm: kind}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := total(resp)
			var lower, upper float64
			var alt []float64
			if branch == 1 {
				lower = (kf*kf/5 + 1) * kf * kf * kf
				upper = (kf*kf+kf)*kf*kf + (kf+1)*kf*kf*kf + kf*3*kf*kf/2
				alt, err = Simulate(nil, jobs, 1, Discipline{Algorithm: MaxSRPT}, nil)
			} else {
				lower = (2*kf/15 + 1) * 3 * kf * kf * kf * kf / 2
				upper = (kf*kf+kf)*2*kf*kf + 3*kf*kf*kf*kf/2
				reordered := slices.Concat(jobs[k*k:k*k+k], jobs[:k*k], jobs[k*k+k:])
				alt, err = Simulate(nil, reordered, 1, Discipline{Algorithm: FIFO}, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got <= lower {
				t.Errorf("%v n=%d branch %d: T = %v, not above the proof's %v", kind, n, branch, got, lower)
			}
			if a := total(alt); a >= upper {
				t.Errorf("%v n=%d branch %d: better schedule costs %v, not below the proof's %v", kind, n, branch, a, upper)
			}
			ratio := got / total(alt)
			if ratio <= prev {
				t.Errorf("%v n=%d: ratio %v did not grow with k (was %v)", kind, n, ratio, prev)
			}
			prev = ratio
		}
	}
	// Policies that do type-2 map work early fall in branch 1; MaxSRPT does
	// none (type-1 keys are smaller) and falls in branch 2.
	if _, b, _ := Theorem2Instance(512, Discipline{Algorithm: SplitSRPTStrict}, nil); b != 1 {
		t.Errorf("SplitSRPTStrict (type-2 map share μ₁ = 0.4 ≥ 1/5): branch %d, want 1", b)
	}
	if _, b, _ := Theorem2Instance(512, Discipline{Algorithm: MaxSRPT}, nil); b != 2 {
		t.Errorf("MaxSRPT: branch %d, want 2", b)
	}
}

// testLowerBoundBelowPolicies: the §5.1 lower bound is at most every
// policy's total response time, on random instances and speeds.
func testLowerBoundBelowPolicies(t *rapid.T) {
	jobs := genArrivals(t, 12)
	speed := rapid.Float64Range(0.25, 3).Draw(t, "speed")
	lb, err := LowerBound(jobs, speed, nil)
	if err != nil {
		t.Fatalf("LowerBound: %v", err)
	}
	for _, kind := range allAlgorithms {
		resp, err := Simulate(nil, jobs, speed, Discipline{Algorithm: kind}, nil)
		if err != nil {
			t.Fatalf("Simulate: %v", err)
		}
		if got := total(resp); lb > got+relTol*math.Max(1, got) {
			t.Fatalf("%v: total %v below the lower bound %v", kind, got, lb)
		}
	}
}

func TestLowerBoundBelowPolicies(t *testing.T) {
	t.Parallel()
	rapid.Check(t, testLowerBoundBelowPolicies)
}
