package sim

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

const sampleSwim = "../internal/testdata/swim/sample.tsv"

// swimDataDir returns ../shared/data/swim relative to the module root (the
// directory of go.mod above the test's working directory), or skips the
// test when the Facebook samples are not there: the module ships no copy.
func swimDataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the working directory")
		}
		dir = parent
	}
	data := filepath.Join(dir, "..", "shared", "data", "swim")
	if _, err := os.Stat(data); err != nil {
		t.Skipf("the SWIM samples are not at %s (../shared/data/swim from the module root): %v", data, err)
	}
	return data
}

// testRule is the rule of the hand-worked examples: 100-byte blocks, 10
// bytes per second, at least 1 s, one group of β = 1.5, truncation at 15.
func testRule() SwimConfig {
	return SwimConfig{BlockSize: 100, Rate: 10, MinTask: 1, MaxSlowdown: 15,
		Groups: []Group{{Beta: 1.5, Weight: 1}}, SlowStart: 0.8}
}

// truncatedMean is E[X | X ≤ c] for X ~ Pareto(xm, β), computed
// independently of the code under test: c − ∫_{xm}^{c} F(x) dx / F(c), the
// integral by Gauss–Legendre quadrature of gonum's Pareto CDF.
func truncatedMean(xm, beta, c float64) float64 {
	p := distuv.Pareto{Xm: xm, Alpha: beta}
	return c - quad.Fixed(p.CDF, xm, c, 400, nil, 0)/p.CDF(c)
}

// TestSwimRule: the rule on hand-worked lines. With 100-byte blocks and 10
// B/s: 250 input bytes are 3 map tasks of 250/3 bytes, mean 25/3 s; 100
// shuffle bytes 1 reducer of 10 s, starting at 80% of the maps; an empty
// job 1 task of MinTask = 1 s; a reduce-only job has its reduce phase
// first; 1 input byte is a task of 0.1 s, floored at 1 s; 300 bytes are 3
// tasks of 10 s. Every phase's truncated Pareto law has that mean and a cap
// of 15·x_m.
func TestSwimRule(t *testing.T) {
	recs := []SwimJob{
		{Name: "a", Submit: 5, Gap: 5, MapInput: 250, Shuffle: 100, ReduceOutput: 7},
		{Name: "b", Submit: 6, Gap: 1},
		{Name: "c", Submit: 6, Shuffle: 250},
		{Name: "d", Submit: 7, Gap: 1, MapInput: 1, ReduceOutput: 9},
		{Name: "e", Submit: 8, Gap: 1, MapInput: 300, Shuffle: 301},
	}
	type phase struct {
		tasks       int
		mean, start float64
	}
	want := [][]phase{
		{{3, 25.0 / 3, 0}, {1, 10, 0.8}},
		{{1, 1, 0}},
		{{3, 25.0 / 3, 0}},
		{{1, 1, 0}},
		{{3, 10, 0}, {4, 301.0 / 4 / 10, 0.8}},
	}
	jobs, err := SwimJobs(recs, testRule(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != len(recs) {
		t.Fatalf("%d jobs of %d records", len(jobs), len(recs))
	}
	for j, job := range jobs {
		if job.Arrival != recs[j].Submit || job.Beta != 1.5 || job.Group != 0 {
			t.Errorf("job %d: arrival %g β %g group %d, want %g, 1.5, 0", j, job.Arrival, job.Beta, job.Group, recs[j].Submit)
		}
		if len(job.Phases) != len(want[j]) {
			t.Fatalf("job %d: %d phases, want %d", j, len(job.Phases), len(want[j]))
		}
		for p, ph := range job.Phases {
			w := want[j][p]
			if ph.Tasks != w.tasks || ph.Start != w.start || ph.Durations != nil {
				t.Errorf("job %d phase %d: %d tasks, start %g, durations %v; want %d, %g, nil", j, p, ph.Tasks, ph.Start, ph.Durations, w.tasks, w.start)
			}
			if math.Abs(ph.Cap-15*ph.Scale) > 1e-12*ph.Cap {
				t.Errorf("job %d phase %d: cap %g, want 15 × scale %g", j, p, ph.Cap, ph.Scale)
			}
			if m := truncatedMean(ph.Scale, 1.5, ph.Cap); math.Abs(m-w.mean) > 1e-6*w.mean {
				t.Errorf("job %d phase %d: mean duration %g, want %g", j, p, m, w.mean)
			}
		}
	}
}

// TestSwimNoCap: MaxSlowdown 0 leaves the Pareto untruncated: x_m =
// mean·(β−1)/β and no Cap.
func TestSwimNoCap(t *testing.T) {
	c := testRule()
	c.MaxSlowdown = 0
	jobs, err := SwimJobs([]SwimJob{{Name: "a", MapInput: 100}}, c, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if ph := jobs[0].Phases[0]; ph.Cap != 0 || math.Abs(ph.Scale-10*0.5/1.5) > 1e-12 {
		t.Errorf("scale %g cap %g, want %g and 0", ph.Scale, ph.Cap, 10*0.5/1.5)
	}
}

// TestSwimGroups: jobs draw their group by weight. With weights 1:1:2 over
// n = 20 000 jobs each count is Binomial(n, p); the test fails beyond 5
// standard deviations (false alarm < 1e-6 per group).
func TestSwimGroups(t *testing.T) {
	c := testRule()
	c.Groups = []Group{{Beta: 1.1, Weight: 1}, {Beta: 1.4, Weight: 1}, {Beta: 1.8, Weight: 2}}
	const n = 20000
	recs := make([]SwimJob, n)
	jobs, err := SwimJobs(recs, c, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, 3)
	for _, j := range jobs {
		counts[j.Group]++
		if j.Beta != c.Groups[j.Group].Beta {
			t.Fatalf("job of group %d has β %g", j.Group, j.Beta)
		}
	}
	for g, p := range []float64{0.25, 0.25, 0.5} {
		if d := math.Abs(float64(counts[g]) - n*p); d > 5*math.Sqrt(n*p*(1-p)) {
			t.Errorf("group %d: %d jobs, want %g ± 5σ", g, counts[g], n*p)
		}
	}
}

// TestSwimDeterministic: the same records, rule and seed give the same jobs
// and, simulated with one seed, the same results; another seed draws other
// groups. Neither the records nor the rule are modified.
func TestSwimDeterministic(t *testing.T) {
	f, err := os.Open(sampleSwim)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ParseSwim(f)
	if err != nil {
		t.Fatal(err)
	}
	recsCopy := append([]SwimJob(nil), recs...)
	c := SwimFB2009()
	c.Groups = append([]Group(nil), c.Groups...)
	cCopy := c
	cCopy.Groups = append([]Group(nil), c.Groups...)
	a, err := SwimJobs(recs, c, rand.New(rand.NewPCG(7, 0x5eed)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SwimJobs(recs, c, rand.New(rand.NewPCG(7, 0x5eed)))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, other jobs (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(recsCopy, recs); diff != "" {
		t.Errorf("SwimJobs modified its records:\n%s", diff)
	}
	if diff := cmp.Diff(cCopy, c); diff != "" {
		t.Errorf("SwimJobs modified its rule:\n%s", diff)
	}
	other, _ := SwimJobs(recs, c, rand.New(rand.NewPCG(8, 0x5eed)))
	if cmp.Equal(a, other) {
		t.Error("seeds 7 and 8 drew the same groups for all 20 jobs")
	}
	for _, p := range Policies() {
		cfg := DefaultConfig(p, 40)
		cfg.Seed = 3
		r1, err := Simulate(a, cfg)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		r2, _ := Simulate(a, cfg)
		if diff := cmp.Diff(r1, r2); diff != "" {
			t.Errorf("%v: two runs differ:\n%s", p, diff)
		}
		if len(r1.Jobs) != len(recs) {
			t.Errorf("%v: %d results for %d jobs", p, len(r1.Jobs), len(recs))
		}
	}
}

// TestParseSwim: the format's tolerances — a byte-order mark, CRLF line
// ends, blanks around fields, blank and '#' lines — and the fields read.
func TestParseSwim(t *testing.T) {
	in := "\ufeffjob0\t49\t49\t740773\t2339561\t627471\r\n\n# comment\n job1 \t101\t52\t0\t1\t2\n"
	got, err := ParseSwim(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []SwimJob{
		{Name: "job0", Submit: 49, Gap: 49, MapInput: 740773, Shuffle: 2339561, ReduceOutput: 627471},
		{Name: "job1", Submit: 101, Gap: 52, Shuffle: 1, ReduceOutput: 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got, err := ParseSwim(strings.NewReader("")); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty input: %v, %v; want an empty slice", got, err)
	}
	if got, err := ParseSwim(strings.NewReader("\ufeff")); err != nil || len(got) != 0 {
		t.Errorf("a lone BOM: %v, %v; want no jobs", got, err)
	}
}

// TestParseSwimErrors: each malformed line is reported with its 1-based
// line and column.
func TestParseSwimErrors(t *testing.T) {
	const ok = "j\t1\t1\t2\t3\t4\n"
	long := strings.Repeat("x", 200)
	for _, tc := range []struct {
		in    string
		line  int
		field string
	}{
		{"j\t1\t1\t2\t3\n", 1, ""},
		{ok + "\nj\t1\t0\t2\t3\t4\t5\n", 3, ""},
		{ok + "j 1 0 2 3 4\n", 2, ""},
		{"\t1\t1\t2\t3\t4\n", 1, "name"},
		{"j\tx\t1\t2\t3\t4\n", 1, "submit"},
		{"j\t-1\t1\t2\t3\t4\n", 1, "submit"},
		{"j\tNaN\t1\t2\t3\t4\n", 1, "submit"},
		{"j\t1e13\t1e13\t2\t3\t4\n", 1, "submit"},
		{"j\t1\t+Inf\t2\t3\t4\n", 1, "gap"},
		{"j\t1\t2\t2\t3\t4\n", 1, "gap"},
		{ok + "k\t5\t3\t2\t3\t4\n", 2, "gap"},
		{ok + "k\t0\t0\t2\t3\t4\n", 2, "submit"},
		{"j\t1\t1\t2.5\t3\t4\n", 1, "map_input"},
		{"j\t1\t1\t-2\t3\t4\n", 1, "map_input"},
		{"j\t1\t1\t2\t1e3\t4\n", 1, "shuffle"},
		{"j\t1\t1\t2\t3\t99999999999999999999\n", 1, "reduce_output"},
		{"\ufeff" + ok + "# x\n\n" + long + "\t1\t0\t2\t3\t-4\n", 4, "reduce_output"},
		{ok + strings.Repeat("y", MaxSwimLine+1) + "\n" + ok, 2, ""},
	} {
		_, err := ParseSwim(strings.NewReader(tc.in))
		var te *TraceError
		if !errors.As(err, &te) || te.Func != "sim.ParseSwim" || te.Line != tc.line || te.Field != tc.field {
			t.Errorf("%.60q: error %v, want a sim.ParseSwim TraceError at line %d, field %q", tc.in, err, tc.line, tc.field)
			continue
		}
		if n := len([]rune(te.Error())); n > 400 {
			t.Errorf("%.60q: a %d-character message", tc.in, n)
		}
		if tc.field == "reduce_output" && strings.Contains(te.Error(), long) {
			t.Errorf("the message quotes the whole long name: %v", te)
		}
	}
}

// errReader fails after its data.
type errReader struct{ data string }

var errRead = errors.New("disk on fire")

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errRead
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestParseSwimReadError: a read error is returned as is.
func TestParseSwimReadError(t *testing.T) {
	if _, err := ParseSwim(&errReader{"j\t1\t1\t2\t3\t4\n"}); !errors.Is(err, errRead) {
		t.Errorf("error %v, want the reader's", err)
	}
}

// TestSwimJobsErrors: invalid rules and records are InputErrors naming the
// field (and the job or group).
func TestSwimJobsErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rec := []SwimJob{{Name: "a", Submit: 1, MapInput: 10}}
	for _, tc := range []struct {
		mod   func(*SwimConfig, []SwimJob)
		field string
		index int
	}{
		{func(c *SwimConfig, _ []SwimJob) { c.BlockSize = 0 }, "BlockSize", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.BlockSize = 1<<50 + 1 }, "BlockSize", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.Rate = math.NaN() }, "Rate", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.Rate = 0 }, "Rate", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.MinTask = 0 }, "MinTask", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.MinTask = math.Inf(1) }, "MinTask", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.MaxSlowdown = 0.5 }, "MaxSlowdown", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.Groups = nil }, "len(Groups)", -1},
		{func(c *SwimConfig, _ []SwimJob) { c.Groups = []Group{{Beta: 2, Weight: 1}, {Beta: 1, Weight: 1}} }, "Groups.Beta", 1},
		{func(c *SwimConfig, _ []SwimJob) { c.Groups = []Group{{Beta: 2, Weight: math.Inf(1)}} }, "Groups.Weight", 0},
		{func(c *SwimConfig, _ []SwimJob) { c.SlowStart = 0 }, "SlowStart", -1},
		{func(_ *SwimConfig, r []SwimJob) { r[0].Submit = -1 }, "Submit", 0},
		{func(_ *SwimConfig, r []SwimJob) { r[0].Submit = math.NaN() }, "Submit", 0},
		{func(_ *SwimConfig, r []SwimJob) { r[0].MapInput = -1 }, "MapInput", 0},
		{func(_ *SwimConfig, r []SwimJob) { r[0].Shuffle = -1 }, "Shuffle", 0},
		{func(_ *SwimConfig, r []SwimJob) { r[0].ReduceOutput = -1 }, "ReduceOutput", 0},
		{func(c *SwimConfig, r []SwimJob) { c.BlockSize = 1; r[0].MapInput = MaxTasks + 1 }, "MapInput", 0},
		{func(c *SwimConfig, r []SwimJob) { c.BlockSize = 1; r[0].MapInput = math.MaxInt64 }, "MapInput", 0},
		{func(c *SwimConfig, r []SwimJob) { c.BlockSize = 1; r[0].MapInput = MaxTasks; r[0].Shuffle = 1 }, "Phases", 0},
		{func(c *SwimConfig, r []SwimJob) { c.MinTask = 1e-6; r[0].Submit = 1e12 }, "Phases[0].Scale", 0},
		{func(c *SwimConfig, r []SwimJob) { c.Rate = 1e-6; c.BlockSize = 1 << 50; r[0].MapInput = 1 << 50 }, "Phases[0].Scale", 0},
	} {
		c := testRule()
		r := append([]SwimJob(nil), rec...)
		tc.mod(&c, r)
		_, err := SwimJobs(r, c, rng)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "sim.SwimJobs" || ie.Field != tc.field || ie.Index != tc.index {
			t.Errorf("%s: error %v, want an InputError of sim.SwimJobs on %s, index %d", tc.field, err, tc.field, tc.index)
		}
	}
	if _, err := SwimJobs(rec, testRule(), nil); !isInputError(err) {
		t.Errorf("nil rng: error %v", err)
	}
}

// TestSwimFacebook: the two Facebook samples load with the job counts of
// their README (5 894 and 24 442), span one day, and give the tasks the
// rule implies: the totals below were computed from the files with awk,
// independently of this code (Σ ⌈bytes/block⌉ over map input and shuffle,
// plus one task per job without bytes: 86 and 409 jobs).
func TestSwimFacebook(t *testing.T) {
	dir := swimDataDir(t)
	for _, tc := range []struct {
		file        string
		rule        SwimConfig
		jobs, tasks int
		lastArrival float64
	}{
		{"FB-2009_samples_24_times_1hr_0.tsv", SwimFB2009(), 5894, 405919 + 332123 + 86, 86404},
		{"FB-2010_samples_24_times_1hr_0.tsv", SwimFB2010(), 24442, 8084447 + 3275879 + 409, 86408},
	} {
		f, err := os.Open(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ParseSwim(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if len(recs) != tc.jobs {
			t.Errorf("%s: %d jobs, the README says %d", tc.file, len(recs), tc.jobs)
		}
		jobs, err := SwimJobs(recs, tc.rule, rand.New(rand.NewPCG(1, 0x5eed)))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		tasks := 0
		for _, j := range jobs {
			tasks += jobTasks(&j)
		}
		if tasks != tc.tasks {
			t.Errorf("%s: %d tasks, want %d", tc.file, tasks, tc.tasks)
		}
		if last := jobs[len(jobs)-1].Arrival; last != tc.lastArrival {
			t.Errorf("%s: last arrival %g s, want %g (one day)", tc.file, last, tc.lastArrival)
		}
	}
}

// TestSwimSample: the excerpt of internal/testdata runs under every policy.
func TestSwimSample(t *testing.T) {
	f, err := os.Open(sampleSwim)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ParseSwim(f)
	if err != nil || len(recs) != 20 {
		t.Fatalf("%d jobs, %v; want 20", len(recs), err)
	}
	jobs, err := SwimJobs(recs, SwimFB2009(), rand.New(rand.NewPCG(1, 0x5eed)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Policies() {
		r, err := Simulate(jobs, DefaultConfig(p, 20))
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		for j, jr := range r.Jobs {
			if !(jr.Completion > 0) {
				t.Errorf("%v: job %d completes in %g", p, j, jr.Completion)
			}
		}
	}
}

// testParseSwimNoPanic feeds ParseSwim lines assembled from valid and
// invalid fields: it returns a *TraceError, or jobs that SwimJobs converts
// (with the FB-2010 rule) into jobs Simulate accepts.
func testParseSwimNoPanic(t *rapid.T) {
	fields := []string{"job0", "0", "1", "2", "10", "-1", "1.5", "NaN", "+Inf", "1e400", "", " ", "x", "\ufeff", "99999999999999999999", "#"}
	var sb strings.Builder
	if rapid.Bool().Draw(t, "bom") {
		sb.WriteString("\ufeff")
	}
	rows := rapid.IntRange(0, 8).Draw(t, "rows")
	for i := 0; i < rows; i++ {
		n := rapid.IntRange(0, 8).Draw(t, "fields")
		for k := 0; k < n; k++ {
			if k > 0 {
				sb.WriteByte('\t')
			}
			sb.WriteString(rapid.SampledFrom(fields).Draw(t, "field"))
		}
		sb.WriteString(rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "eol"))
	}
	recs, err := ParseSwim(strings.NewReader(sb.String()))
	if err != nil {
		var te *TraceError
		if !errors.As(err, &te) || te.Line < 1 || te.Line > rows {
			t.Fatalf("error %v is not a *TraceError within the %d lines", err, rows)
		}
		return
	}
	jobs, err := SwimJobs(recs, SwimFB2010(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatalf("ParseSwim accepted %q but SwimJobs rejects it: %v", sb.String(), err)
	}
	if _, err := Simulate(jobs, DefaultConfig(Hopper, 3)); err != nil {
		t.Fatalf("%q: Simulate rejects the jobs: %v", sb.String(), err)
	}
}

func TestParseSwimNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testParseSwimNoPanic) }
func FuzzParseSwim(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testParseSwimNoPanic)) }
