package sim

import (
	"errors"
	"math"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// resultOf builds a Result with the given completions and task counts.
func resultOf(completions []float64, tasks []int) *Result {
	r := &Result{Jobs: make([]JobResult, len(completions))}
	for i, c := range completions {
		r.Jobs[i] = JobResult{Completion: c, Finish: c, Tasks: tasks[i]}
	}
	return r
}

func drawResults(t *rapid.T) (base, r *Result) {
	n := rapid.IntRange(1, 40).Draw(t, "n")
	b := make([]float64, n)
	c := make([]float64, n)
	tasks := make([]int, n)
	for i := range b {
		b[i] = quarter(t, 0, 20, "base")
		c[i] = quarter(t, 0, 20, "c")
		tasks[i] = rapid.IntRange(1, 800).Draw(t, "tasks")
	}
	return resultOf(b, tasks), resultOf(c, tasks)
}

// testSummarize compares the percentiles with the definition: the q-th
// percentile is the ⌈q·n⌉-th smallest completion time.
func testSummarize(t *rapid.T) {
	_, r := drawResults(t)
	s := Summarize(r)
	c := Completions(nil, r)
	slices.Sort(c)
	n := len(c)
	rank := func(q float64) float64 { return c[int(math.Ceil(q*float64(n)))-1] }
	var sum float64
	for _, x := range c {
		sum += x
	}
	if s.Jobs != n || math.Abs(s.Mean-sum/float64(n)) > 1e-12*math.Max(1, sum) {
		t.Fatalf("jobs %d mean %g, want %d, %g", s.Jobs, s.Mean, n, sum/float64(n))
	}
	for _, q := range []struct {
		p    float64
		got  float64
		name string
	}{{0.5, s.P50, "p50"}, {0.9, s.P90, "p90"}, {0.99, s.P99, "p99"}} {
		if want := rank(q.p); q.got != want {
			t.Fatalf("%s = %g, want %g (sorted %v)", q.name, q.got, want, c)
		}
	}
}

func TestSummarize(t *testing.T) { t.Parallel(); rapid.Check(t, testSummarize) }

// testComparisons checks Gain, Slowdowns and BinGains against direct
// computations over the job pairs.
func testComparisons(t *rapid.T) {
	base, r := drawResults(t)
	var mb, mr float64
	slowed, worst, total := 0, 0.0, 0.0
	for i := range base.Jobs {
		b, c := base.Jobs[i].Completion, r.Jobs[i].Completion
		mb += b
		mr += c
		if c > b && b > 0 {
			slowed++
			total += (c - b) / b
			worst = math.Max(worst, (c-b)/b)
		}
	}
	g, err := Gain(base, r)
	if mb == 0 {
		if err == nil {
			t.Fatalf("Gain with a zero base mean: no error")
		}
	} else if err != nil || math.Abs(g-(mb-mr)/mb) > 1e-12 {
		t.Fatalf("Gain = %g, %v, want %g", g, err, (mb-mr)/mb)
	}
	s, err := Slowdowns(base, r)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(base.Jobs))
	if s.Fraction != float64(slowed)/n || s.Worst != worst || (slowed > 0 && math.Abs(s.Mean-total/float64(slowed)) > 1e-12) {
		t.Fatalf("Slowdowns = %+v, want fraction %g mean %g worst %g", s, float64(slowed)/n, total/math.Max(1, float64(slowed)), worst)
	}
	bins, err := BinGains(nil, base, r, DefaultBins)
	if err != nil {
		t.Fatal(err)
	}
	jobs := 0
	for _, bin := range bins {
		var sb, sr float64
		k := 0
		for i := range base.Jobs {
			if tk := base.Jobs[i].Tasks; tk >= bin.Lo && tk <= bin.Hi {
				sb += base.Jobs[i].Completion
				sr += r.Jobs[i].Completion
				k++
			}
		}
		jobs += bin.Jobs
		if k != bin.Jobs || (sb > 0 && math.Abs(bin.Gain-(sb-sr)/sb) > 1e-12) || (sb == 0 && !math.IsNaN(bin.Gain)) {
			t.Fatalf("bin %+v: want %d jobs, gain %g", bin, k, (sb-sr)/sb)
		}
	}
	if jobs != len(base.Jobs) || bins[0].Lo != 1 || bins[len(bins)-1].Hi != math.MaxInt {
		t.Fatalf("bins %+v do not cover the jobs once", bins)
	}
}

func TestComparisons(t *testing.T) { t.Parallel(); rapid.Check(t, testComparisons) }

func TestMetricsErrors(t *testing.T) {
	t.Parallel()
	a := resultOf([]float64{1, 2}, []int{1, 1})
	b := resultOf([]float64{1}, []int{1})
	if _, err := Gain(a, b); !isInputError(err) {
		t.Errorf("Gain of different job counts: %v", err)
	}
	if _, err := Slowdowns(a, b); !isInputError(err) {
		t.Errorf("Slowdowns of different job counts: %v", err)
	}
	dst := []BinGain{{Jobs: 7}}
	for _, edges := range [][]int{{0}, {5, 5}, {10, 3}} {
		if got, err := BinGains(dst, a, a, edges); !isInputError(err) || got != nil || dst[0].Jobs != 7 {
			t.Errorf("BinGains(edges %v) = %v, %v; dst %v", edges, got, err, dst)
		}
	}
	s := Summarize(&Result{})
	if !math.IsNaN(s.Mean) || !math.IsNaN(s.P99) || s.Jobs != 0 {
		t.Errorf("Summarize of no jobs = %+v", s)
	}
	// A worked case: completions 4, 2 against 2, 2: one job slowed by 100%.
	g, _ := Gain(resultOf([]float64{2, 2}, []int{1, 1}), resultOf([]float64{4, 2}, []int{1, 1}))
	sd, _ := Slowdowns(resultOf([]float64{2, 2}, []int{1, 1}), resultOf([]float64{4, 2}, []int{1, 1}))
	if g != -0.5 || sd != (Slowdown{Fraction: 0.5, Mean: 1, Worst: 1}) {
		t.Errorf("worked case: gain %g slowdown %+v", g, sd)
	}
}

// TestBinGainsAliasedDst: a dst that shares memory with an input (made here
// with unsafe, the only way for slices of different types) is rejected with
// Field "dst", and dst and the inputs are untouched.
func TestBinGainsAliasedDst(t *testing.T) {
	t.Parallel()
	a := resultOf([]float64{1, 2, 3, 4}, []int{1, 1, 8, 30})
	b := resultOf([]float64{2, 2, 2, 2}, []int{1, 1, 8, 30})
	edges := make([]int, 64)
	for i := range edges {
		edges[i] = i + 1
	}
	size := int(unsafe.Sizeof(BinGain{}))
	bins := func(p unsafe.Pointer, bytes int) []BinGain {
		return unsafe.Slice((*BinGain)(p), bytes/size)
	}
	wantEdges := slices.Clone(edges)
	wantA, wantB := slices.Clone(a.Jobs), slices.Clone(b.Jobs)
	for name, dst := range map[string][]BinGain{
		"edges":     bins(unsafe.Pointer(&edges[0]), len(edges)*int(unsafe.Sizeof(edges[0]))),
		"base.Jobs": bins(unsafe.Pointer(&a.Jobs[0]), len(a.Jobs)*int(unsafe.Sizeof(a.Jobs[0]))),
		"r.Jobs":    bins(unsafe.Pointer(&b.Jobs[0]), len(b.Jobs)*int(unsafe.Sizeof(b.Jobs[0]))),
	} {
		in := edges[:2] // 3 bins: they fit in every dst above
		if name == "edges" {
			in = edges[:8] // 9 bins, over the first 8 edges
		}
		if len(dst) < len(in)+1 {
			t.Fatalf("%s: test dst of %d bins is too small", name, len(dst))
		}
		got, err := BinGains(dst, a, b, in)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "dst" || got != nil {
			t.Errorf("dst over %s: %v, %v; want an InputError for dst", name, got, err)
		}
		if !slices.Equal(edges, wantEdges) || !slices.Equal(a.Jobs, wantA) || !slices.Equal(b.Jobs, wantB) {
			t.Fatalf("dst over %s: inputs modified", name)
		}
	}
	// A dst whose last bin alone overlaps edges is rejected too.
	buf := make([]int, 32)
	dst := bins(unsafe.Pointer(&buf[0]), len(buf)*int(unsafe.Sizeof(buf[0])))
	lastBin := size * 2 / int(unsafe.Sizeof(buf[0])) // buf index where dst[2] starts
	in := buf[lastBin : lastBin+2]
	in[0], in[1] = 5, 20
	if got, err := BinGains(dst[:3], a, b, in); err == nil || got != nil || in[0] != 5 || in[1] != 20 {
		t.Errorf("dst[2] over edges: %v, %v; edges %v", got, err, in)
	}
	// A separate dst works, and one of the right size is reused.
	dst = make([]BinGain, 3)
	got, err := BinGains(dst, a, b, edges[:2])
	if err != nil || &got[0] != &dst[0] {
		t.Errorf("separate dst: %v, reused %v", err, err == nil && &got[0] == &dst[0])
	}
}
