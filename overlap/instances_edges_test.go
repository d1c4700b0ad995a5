package overlap

import (
	"errors"
	"strings"
	"testing"

	"github.com/specsched/specsched"
)

// TestCorollary4InstanceErrors: each refused (α, ε) names the parameter
// and the condition it breaks, by the doc's special cases — α finite and
// > 1; 0 < ε < α − 1; α − ε, as a float64, strictly between 1 and α. The
// conditions overlap (α = 1 leaves no ε; ε = α − 1 makes α − ε = 1), so
// each case pins which check refuses it.
func TestCorollary4InstanceErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		alpha, eps   float64
		field, cause string
	}{
		{1, 0.5, "alpha", "> 1"},                     // α = 1: refused as α, not for lack of an ε
		{2, 0, "eps", "(0, alpha−1)"},                // ε = 0: the open interval's lower end
		{2, 1, "eps", "(0, alpha−1)"},                // ε = α − 1: its upper end (α − ε = 1)
		{2, -1, "eps", "(0, alpha−1)"},               // below it (α − ε = 3 > α)
		{2, 1.5, "eps", "(0, alpha−1)"},              // above it (α − ε = 0.5 < 1)
		{2, 1e-17, "eps", "rounds to alpha"},         // in the interval, below half an ulp of 2
		{1 + 1e-15, 1e-16, "eps", "rounds to alpha"}, // α − ε rounds to α (ulp of α is 2.2e-16)
		{1e300, 1e283, "eps", "rounds to alpha"},     // ε below half an ulp of 1e300
		{1 + 0x1p-52, 0x1.8p-53, "eps", "or to 1"},   // ε < α − 1 = 2^-52, α − ε = 1 + 2^-54 rounds to 1
		{1.5, 0.25, "", ""},                          // accepted: (1, 1.5), (1.25, 1)
		{2, 1 - 2.3e-16, "", ""},                     // accepted: α − ε = 1 + 2^-52, the float after 1
		{4, 1e-15, "", ""},                           // accepted: 4 − 1e-15 is below 4 (ulp 8.9e-16)
		{1 + 0x1p-50, 0x1p-51, "", ""},               // accepted: α − ε = 1 + 2^-51 strictly between 1 and α
	} {
		jobs, err := Corollary4Instance(4, c.alpha, c.eps)
		if c.field == "" {
			if err != nil || len(jobs) != 4 || jobs[1].Map != c.alpha-c.eps {
				t.Errorf("Corollary4Instance(4, %g, %g) = %v, %v; want the instance", c.alpha, c.eps, jobs, err)
			}
			continue
		}
		var in *specsched.InputError
		if !errors.As(err, &in) || in.Field != c.field || !strings.Contains(in.Reason, c.cause) {
			t.Errorf("Corollary4Instance(4, %g, %g): %v; want field %q, %q", c.alpha, c.eps, err, c.field, c.cause)
		}
	}
}

// TestTheorem2K: k = ⌊n^{1/3}⌋ against a brute force over every n up to
// 10⁵ and around every cube m³ up to 10⁹ (m³ − 1 → m − 1, m³ → m), the
// bounds of n: 1 and 10⁹ accepted (k = 1, 1000), 0 and 10⁹ + 1 refused —
// without building the 10⁹-job instance.
func TestTheorem2K(t *testing.T) {
	t.Parallel()
	const fn = "test"
	m := 1
	for n := 1; n <= 100000; n++ {
		for (m+1)*(m+1)*(m+1) <= n {
			m++
		}
		if k, err := theorem2K(fn, n); err != nil || k != m {
			t.Fatalf("theorem2K(%d) = %d, %v; want %d", n, k, err, m)
		}
	}
	for m := 2; m <= 1000; m++ {
		c := m * m * m
		if k, err := theorem2K(fn, c-1); err != nil || k != m-1 {
			t.Fatalf("theorem2K(%d) = %d, %v; want %d", c-1, k, err, m-1)
		}
		if k, err := theorem2K(fn, c); err != nil || k != m {
			t.Fatalf("theorem2K(%d) = %d, %v; want %d", c, k, err, m)
		}
	}
	for _, n := range []int{0, -1, 1e9 + 1} {
		var in *specsched.InputError
		if _, err := theorem2K(fn, n); !errors.As(err, &in) || in.Field != "n" {
			t.Errorf("theorem2K(%d): %v, want an InputError on n", n, err)
		}
	}
}

// TestTheorem2InstanceBranch1, worked by hand: n = 1 (k = 1) under 2-LPS
// (the map station shares itself between the two jobs present): the type-1
// job (1, 1/2) and the type-2 job (1, 3/2) each get map speed 1/2, so at
// t = k² = 1 the type-2 job has done 1/2 ≥ k²/5 = 1/5 of map work — the
// proof's branch 1: k³ + 1 = 2 type-1 jobs (1, 1/2) arrive at t = k² + j =
// 1, 2. Under FIFO the type-1 job (index 0) has the map station to itself
// until t = 1, the type-2 job does no map work, and branch 2 follows: two
// type-2 jobs (1, 3/2) at 2k² + j·3k/2 = 2, 3.5.
func TestTheorem2InstanceBranch1(t *testing.T) {
	t.Parallel()
	head := []Arrival{{Map: 1, Shuffle: 0.5}, {Map: 1, Shuffle: 1.5}}
	for _, c := range []struct {
		d      Discipline
		branch int
		tail   []Arrival
	}{
		{Discipline{Algorithm: KLPS, K: 2}, 1, []Arrival{{Time: 1, Map: 1, Shuffle: 0.5}, {Time: 2, Map: 1, Shuffle: 0.5}}},
		{Discipline{Algorithm: FIFO}, 2, []Arrival{{Time: 2, Map: 1, Shuffle: 1.5}, {Time: 3.5, Map: 1, Shuffle: 1.5}}},
	} {
		jobs, branch, err := Theorem2Instance(1, c.d, nil)
		want := append(append([]Arrival{}, head...), c.tail...)
		if err != nil || branch != c.branch || len(jobs) != len(want) {
			t.Fatalf("Theorem2Instance(1, %v) = %v, branch %d, %v; want %v, branch %d", c.d, jobs, branch, err, want, c.branch)
		}
		for i := range want {
			if jobs[i] != want[i] {
				t.Errorf("Theorem2Instance(1, %v)[%d] = %+v, want %+v", c.d, i, jobs[i], want[i])
			}
		}
	}
}

// TestTheorem2InstanceK3: n = 27 (k = 3) under FIFO, by the doc: 9 type-1
// jobs (1, 1/2), 3 type-2 jobs (3, 9/2), and — FIFO runs the type-1 jobs'
// maps back to back until t = 9, doing no type-2 map work, branch 2 —
// k³ + 1 = 28 type-2 jobs at 2k² + j·3k/2 = 18 + 4.5j: 40 jobs in all.
func TestTheorem2InstanceK3(t *testing.T) {
	t.Parallel()
	jobs, branch, err := Theorem2Instance(27, Discipline{Algorithm: FIFO}, nil)
	if err != nil || branch != 2 || len(jobs) != 9+3+28 {
		t.Fatalf("Theorem2Instance(27, FIFO): %d jobs, branch %d, %v", len(jobs), branch, err)
	}
	for i, a := range jobs {
		w := Arrival{Map: 1, Shuffle: 0.5}
		switch {
		case i >= 12:
			w = Arrival{Time: 18 + 4.5*float64(i-12), Map: 3, Shuffle: 4.5}
		case i >= 9:
			w = Arrival{Map: 3, Shuffle: 4.5}
		}
		if a != w {
			t.Errorf("Theorem2Instance(27)[%d] = %+v, want %+v", i, a, w)
		}
	}
}
