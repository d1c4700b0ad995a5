package probe

import (
	"math"
	"slices"
	"testing"

	"github.com/specsched/specsched"
	"pgregory.net/rapid"
)

// testSummarize compares the percentiles with the order statistic
// x_(⌈p·n⌉) of each class, computed by sorting here, and the mean with a
// plain sum in job order.
func testSummarize(t *rapid.T) {
	n := rapid.IntRange(0, 60).Draw(t, "jobs")
	r := &Result{Completion: make([]float64, n), Class: make([]Class, n)}
	var short, long []float64
	for j := range r.Completion {
		r.Completion[j] = float64(rapid.IntRange(0, 1000).Draw(t, "completion"))
		if rapid.Bool().Draw(t, "long") {
			r.Class[j] = Long
			long = append(long, r.Completion[j])
		} else {
			short = append(short, r.Completion[j])
		}
	}
	before := slices.Clone(r.Completion)
	s := r.Summarize()
	if !slices.Equal(before, r.Completion) {
		t.Fatalf("Completion modified")
	}
	check := func(name string, x []float64, got specsched.Summary) {
		if len(x) == 0 {
			if got.Jobs != 0 || !math.IsNaN(got.Mean) || !math.IsNaN(got.P50) || !math.IsNaN(got.P99) {
				t.Fatalf("%s: empty class gave %+v", name, got)
			}
			return
		}
		sum := 0.0
		for _, c := range x {
			sum += c
		}
		mean := sum / float64(len(x))
		if math.Abs(got.Mean-mean) > 1e-12*mean {
			t.Fatalf("%s: mean %v, want %v", name, got.Mean, mean)
		}
		slices.Sort(x)
		at := func(p float64) float64 { return x[int(math.Ceil(p*float64(len(x))))-1] }
		want := specsched.Summary{Jobs: len(x), Mean: got.Mean, P50: at(0.5), P90: at(0.9), P99: at(0.99)}
		if got != want {
			t.Fatalf("%s: got %+v; want %+v", name, got, want)
		}
	}
	check("short", short, s.Short)
	check("long", long, s.Long)
}

func TestSummarize(t *testing.T) { t.Parallel(); rapid.Check(t, testSummarize) }

func TestPolicyNames(t *testing.T) {
	t.Parallel()
	for p := Eagle; p <= Hopper; p++ {
		got, err := ParsePolicy(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), got, err)
		}
	}
	if _, err := ParsePolicy("fifo"); !isInputError(err) {
		t.Errorf("ParsePolicy(fifo): %v", err)
	}
	if Scheduler(9).String() != "Scheduler(9)" {
		t.Errorf("String of unknown policy: %q", Scheduler(9).String())
	}
}

func TestShortPartition(t *testing.T) {
	t.Parallel()
	cases := []struct {
		nodes int
		f     float64
		want  int
	}{
		{15000, ShortPartitionGoogle, 2550}, // 17% of 15 000
		{100, 0.02, 2},
		{10, 0.25, 3}, // 2.5: the tie goes to the short partition
		{10, 0.24, 2},
		{10, 0, 0},
		{10, 1, 10},
		{0, 0.5, 0},
	}
	for _, c := range cases {
		got, err := ShortPartition(c.nodes, c.f)
		if err != nil || got != c.want {
			t.Errorf("ShortPartition(%d, %v) = %d, %v; want %d", c.nodes, c.f, got, err, c.want)
		}
	}
	for _, f := range []float64{-0.1, 1.1, math.NaN()} {
		if _, err := ShortPartition(10, f); !isInputError(err) {
			t.Errorf("ShortPartition(10, %v): %v", f, err)
		}
	}
	if _, err := ShortPartition(-1, 0.5); !isInputError(err) {
		t.Errorf("negative nodes: %v", err)
	}
}

func testShortPartitionNoPanic(t *rapid.T) {
	nodes := rapid.IntRange(-2, 1<<20).Draw(t, "nodes")
	f := anyFloat(t, "fraction") / 100
	got, err := ShortPartition(nodes, f)
	if err != nil {
		if !isInputError(err) {
			t.Fatalf("error %T", err)
		}
		return
	}
	// Within one node of the real share.
	if math.Abs(float64(got)-f*float64(nodes)) >= 1 || got < 0 || got > nodes {
		t.Fatalf("ShortPartition(%d, %v) = %d", nodes, f, got)
	}
}

func TestShortPartitionNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testShortPartitionNoPanic) }
func FuzzShortPartition(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testShortPartitionNoPanic)) }
func FuzzParsePolicy(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := ParsePolicy(s); err == nil && p.String() != s {
			t.Fatalf("ParsePolicy(%q) = %v", s, p)
		}
	})
}

func FuzzSummarize(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testSummarize)) }
