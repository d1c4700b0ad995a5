package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

const sampleTrace = "../internal/testdata/sim/sample.csv"

// normalised returns jobs as ParseTrace would give them back from
// WriteTrace: Start 0 and the first phase's Start written as 1, no
// CopyDurations (copies borrow from the phase).
func normalised(jobs []Job) []Job {
	out := make([]Job, len(jobs))
	for j, job := range jobs {
		job.NewCopy = 0
		ph := make([]Phase, len(job.Phases))
		for p, x := range job.Phases {
			if x.Start == 0 || p == 0 {
				x.Start = 1
			}
			x.CopyDurations = nil
			ph[p] = x
		}
		job.Phases = ph
		out[j] = job
	}
	return out
}

// testTraceRoundTrip: jobs with known durations written by WriteTrace read
// back as the same jobs.
func testTraceRoundTrip(t *rapid.T) {
	jobs := explicitJobs(t, 6, false)
	var buf bytes.Buffer
	if err := WriteTrace(&buf, jobs, 1); err != nil {
		t.Fatalf("WriteTrace: %v", err)
	}
	got, err := ParseTrace(&buf)
	if err != nil {
		t.Fatalf("ParseTrace: %v\n%s", err, buf.String())
	}
	if diff := cmp.Diff(normalised(jobs), got); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
}

func TestTraceRoundTrip(t *testing.T) { t.Parallel(); rapid.Check(t, testTraceRoundTrip) }
func FuzzWriteTrace(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(testTraceRoundTrip)) }

// TestTraceFirstCopies: a Pareto workload written with seed s describes the
// first copies Simulate runs with seed s: both runs start the same tasks at
// the same times for the same durations until the first speculative copy
// (here never: speculation off).
func TestTraceFirstCopies(t *testing.T) {
	t.Parallel()
	jobs := []Job{
		{Arrival: 0, Beta: 1.3, Phases: []Phase{{Tasks: 5, Scale: 0.5, Cap: 6}, {Tasks: 2, Scale: 1, Start: 0.6}}},
		{Arrival: 0.5, Beta: 1.8, Phases: []Phase{{Tasks: 3, Scale: 0.2}}},
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, jobs, 99); err != nil {
		t.Fatal(err)
	}
	traced, err := ParseTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig(SRPT, 3)
	cfg.Seed = 99
	cfg.Record = true
	a, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Simulate(traced, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.Copies, b.Copies); diff != "" {
		t.Fatalf("copies differ (-drawn +traced):\n%s", diff)
	}
}

// TestTraceFitsGroups: without a beta column, each group's β is the Pareto
// maximum-likelihood estimate n/Σ ln(x_i/min x) of its durations, computed
// here directly.
func TestTraceFitsGroups(t *testing.T) {
	t.Parallel()
	in := "job,arrival,phase,duration,group\n" +
		"a,0,0,1,0\na,0,0,2,0\na,0,1,4,0\n" +
		"b,1,0,3,1\nb,1,0,9,1\n" +
		"c,2,0,1.5,0\n"
	jobs, err := ParseTrace(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	mle := func(xs ...float64) float64 {
		lo := math.Inf(1)
		for _, x := range xs {
			lo = math.Min(lo, x)
		}
		var s float64
		for _, x := range xs {
			s += math.Log(x / lo)
		}
		return float64(len(xs)) / s
	}
	want0, want1 := mle(1, 2, 4, 1.5), mle(3, 9)
	if got := jobs[0].Beta; math.Abs(got-want0) > 1e-12 || jobs[2].Beta != got {
		t.Errorf("group 0: β %g and %g, want %g", got, jobs[2].Beta, want0)
	}
	if got := jobs[1].Beta; math.Abs(got-want1) > 1e-12 {
		t.Errorf("group 1: β %g, want %g", got, want1)
	}
	if len(jobs[0].Phases) != 2 || jobs[0].Phases[1].Tasks != 1 || jobs[0].Phases[0].Tasks != 2 {
		t.Errorf("job a parsed as %+v", jobs[0])
	}
}

// TestTraceErrors: every malformed trace names its line and column.
func TestTraceErrors(t *testing.T) {
	t.Parallel()
	head := "job,arrival,phase,duration,beta\n"
	for _, tc := range []struct {
		name, in string
		line     int
		column   string
	}{
		{"unknown column", "job,arrival,phase,duration,speed\n", 1, "header"},
		{"missing column", "job,arrival,duration\n", 1, "header"},
		{"duplicate column", "job,job,arrival,phase,duration\n", 1, "header"},
		{"short row", head + "a,0,0,1\n", 2, ""},
		{"bad arrival", head + "a,x,0,1,1.5\n", 2, "arrival"},
		{"negative arrival", head + "a,-1,0,1,1.5\n", 2, "arrival"},
		{"NaN duration", "# comment\n" + head + "a,0,0,NaN,1.5\n", 3, "duration"},
		{"zero duration", head + "a,0,0,0,1.5\n", 2, "duration"},
		{"infinite duration", head + "a,0,0,+Inf,1.5\n", 2, "duration"},
		{"duration below the arrival's resolution", head + "a,1e12,0,1e-12,1.5\n", 2, "duration"},
		{"bad phase", head + "a,0,0,1,1.5\na,0,x,1,1.5\n", 3, "phase"},
		{"phase gap", head + "a,0,0,1,1.5\na,0,2,1,1.5\n", 3, "phase"},
		{"phase back", head + "a,0,0,1,1.5\na,0,1,1,1.5\na,0,0,1,1.5\n", 4, "phase"},
		{"first phase not 0", head + "a,0,1,1,1.5\n", 2, "phase"},
		{"beta ≤ 1", head + "a,0,0,1,1\n", 2, "beta"},
		{"beta above 1e6", head + "a,0,0,1,1.000001e6\n", 2, "beta"},
		{"beta differs", head + "a,0,0,1,1.5\na,0,0,1,1.6\n", 3, "beta"},
		{"arrival differs", head + "a,0,0,1,1.5\na,1,0,1,1.5\n", 3, "arrival"},
		{"job not contiguous", head + "a,0,0,1,1.5\nb,0,0,1,1.5\na,0,0,1,1.5\n", 4, "job"},
		{"bad group", "job,arrival,phase,duration,group\na,0,0,1,-2\n", 2, "group"},
		{"start out of range", "job,arrival,phase,duration,beta,start\na,0,0,1,1.5,1.5\n", 2, "start"},
		{"start differs", "job,arrival,phase,duration,beta,start\na,0,0,1,1.5,1\na,0,1,1,1.5,0.5\na,0,1,1,1.5,0.6\n", 4, "start"},
		{"unfittable group", "job,arrival,phase,duration\n\na,0,0,1\na,0,0,1\n", 3, "group"},
		{"fit ≤ 1", "job,arrival,phase,duration\na,0,0,1\na,0,0,1000\na,0,0,1000000\n", 2, "group"},
		{"bare quote", head + "a,0,0,\"1,1.5\n", 2, ""},
	} {
		_, err := ParseTrace(strings.NewReader(tc.in))
		var te *TraceError
		if !errors.As(err, &te) {
			t.Errorf("%s: error %v, want a *TraceError", tc.name, err)
			continue
		}
		if te.Line != tc.line || te.Field != tc.column {
			t.Errorf("%s: line %d column %q (%v), want line %d column %q", tc.name, te.Line, te.Field, err, tc.line, tc.column)
		}
		if !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: message %q does not name the line", tc.name, err)
		}
	}
}

// TestSampleTrace: the shipped sample parses, round-trips and simulates.
// A missing fixture fails.
func TestSampleTrace(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(sampleTrace)
	if err != nil {
		t.Fatalf("sample trace: %v", err)
	}
	jobs, err := ParseTrace(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 30 {
		t.Fatalf("%d jobs in the sample, want 30", len(jobs))
	}
	for _, p := range Policies() {
		cfg := DefaultConfig(p, 20)
		cfg.Record = true
		r, err := Simulate(jobs, cfg)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		checkRun(t, jobs, cfg, r, false)
	}
}

// testParseTraceNoPanic feeds ParseTrace lines assembled from valid and
// invalid fields: it returns an error or jobs that Simulate accepts.
func testParseTraceNoPanic(t *rapid.T) {
	fields := []string{"a", "b", "0", "1", "2", "-1", "1.5", "NaN", "+Inf", "1e400", "", " ", "\"", "x", "0.5"}
	var sb strings.Builder
	if rapid.Bool().Draw(t, "header") {
		sb.WriteString("job,arrival,phase,duration,group,beta,start\n")
	}
	rows := rapid.IntRange(0, 8).Draw(t, "rows")
	for i := 0; i < rows; i++ {
		n := rapid.IntRange(0, 8).Draw(t, "fields")
		for k := 0; k < n; k++ {
			if k > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(rapid.SampledFrom(fields).Draw(t, "field"))
		}
		sb.WriteByte('\n')
	}
	jobs, err := ParseTrace(strings.NewReader(sb.String()))
	if err != nil {
		var te *TraceError
		if !errors.As(err, &te) {
			t.Fatalf("error %v is not a *TraceError", err)
		}
		return
	}
	if _, err := Simulate(jobs, DefaultConfig(Hopper, 3)); err != nil {
		t.Fatalf("ParseTrace accepted %q but Simulate rejects it: %v", sb.String(), err)
	}
}

func TestParseTraceNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testParseTraceNoPanic) }
func FuzzParseTrace(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testParseTraceNoPanic)) }

// TestTraceBOM: a UTF-8 byte-order mark before the header (what spreadsheet
// exports write) is skipped: the sample with one parses as the sample
// without, comments and all; one anywhere else is still text.
func TestTraceBOM(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(sampleTrace)
	if err != nil {
		t.Fatalf("sample trace: %v", err)
	}
	want, err := ParseTrace(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseTrace(bytes.NewReader(append([]byte("\ufeff"), data...)))
	if err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("with a BOM (-without +with):\n%s", d)
	}
	// A bare header behind a BOM: "job" is known, not "\ufeffjob".
	if _, err := ParseTrace(strings.NewReader("\ufeffjob,arrival,phase,duration,beta\na,0,0,1,1.5\n")); err != nil {
		t.Errorf("BOM before the header: %v", err)
	}
	// Only the first three bytes: a second BOM is part of the column name.
	_, err = ParseTrace(strings.NewReader("\ufeff\ufeffjob,arrival,phase,duration,beta\n"))
	var te *TraceError
	if !errors.As(err, &te) || te.Line != 1 || te.Field != "header" || te.Text != "\ufeffjob" {
		t.Errorf("two BOMs: %v, want the header's unknown column \"\\ufeffjob\"", err)
	}
}

// countingReader yields prefix, then n copies of fill, and counts the bytes
// it hands out.
type countingReader struct {
	prefix string
	fill   byte
	n      int64
	read   int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) && c.read < int64(len(c.prefix))+c.n {
		if c.read < int64(len(c.prefix)) {
			p[k] = c.prefix[c.read]
		} else {
			p[k] = c.fill
		}
		k++
		c.read++
	}
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

// TestTraceTooLong: a file that is one 100 MB line is rejected after about
// MaxTraceLine bytes, with a one-line message naming the line, and parsing
// it allocates O(MaxTraceLine), not O(file). Not parallel: it measures the
// heap allocated while it runs.
func TestTraceTooLong(t *testing.T) {
	const head = "job,arrival,phase,duration\n"
	for _, tc := range []struct {
		name   string
		prefix string
		fill   byte
		line   int
		reason string
	}{
		// A 100 MB job identifier on line 2.
		{"long field", head, 'j', 2, "line longer than 1048576 bytes (1 MiB)"}, // as probe.ParseTrace words it
		// A 100 MB header (one column name).
		{"long header", "", 'c', 1, "line longer than 1048576 bytes (1 MiB)"},
		// A quoted job identifier of 100 MB in lines of one byte: the error
		// names the line the record starts on (it named the line, about
		// 4 194 304, where the bound was hit).
		{"long record", head + "\"", '\n', 2, "record starting on this line longer than 4194304 bytes (4 MiB)"},
		{"long record after blank and comment lines", head + "\n# note\n\n\"", '\n', 5, "record starting on this line longer than 4194304 bytes (4 MiB)"},
		// 100 MB of blank lines: no record, and the csv reader skips them.
		{"blank lines", head, '\n', 0, "blank and comment lines since the last record longer than 4194304 bytes (4 MiB)"},
	} {
		src := &countingReader{prefix: tc.prefix, fill: tc.fill, n: 100 << 20}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ParseTrace(src)
		runtime.ReadMemStats(&after)
		var te *TraceError
		if !errors.As(err, &te) || !strings.HasPrefix(te.Reason, tc.reason) {
			t.Errorf("%s: error %v, want a *TraceError %q", tc.name, err, tc.reason)
			continue
		}
		// Without a record, the record check names the line it trips in,
		// within the bufio read-ahead of MaxTraceRecord.
		if tc.line == 0 && (te.Line < MaxTraceRecord-10 || te.Line > MaxTraceRecord+bufioSize+10) {
			t.Errorf("%s: line %d, want about %d", tc.name, te.Line, MaxTraceRecord)
		} else if tc.line != 0 && te.Line != tc.line {
			t.Errorf("%s: line %d, want %d", tc.name, te.Line, tc.line)
		}
		if msg := err.Error(); len(msg) > 200 {
			t.Errorf("%s: a %d-byte message", tc.name, len(msg))
		}
		if src.read > MaxTraceRecord+2*bufioSize+int64(len(tc.prefix)) {
			t.Errorf("%s: read %d bytes of the input, want at most about %d", tc.name, src.read, MaxTraceRecord)
		}
		// The csv reader keeps the partial record (≤ MaxTraceRecord) and
		// grows its buffer by doubling: a few times the bound, far from 100 MB.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*MaxTraceRecord {
			t.Errorf("%s: allocated %d bytes, want O(%d)", tc.name, alloc, MaxTraceRecord)
		}
	}
}

// TestTraceLongFieldMessage: a bad field of half a megabyte (under the line
// bound) gives a message that quotes its first 40 characters.
func TestTraceLongFieldMessage(t *testing.T) {
	t.Parallel()
	field := strings.Repeat("9", 1<<19) + "x"
	_, err := ParseTrace(strings.NewReader("job,arrival,phase,duration\na,0,0," + field + "\n"))
	var te *TraceError
	if !errors.As(err, &te) || te.Line != 2 || te.Field != "duration" {
		t.Fatalf("error %.200v, want line 2's duration", err)
	}
	want := `sim.ParseTrace: line 2: duration "` + strings.Repeat("9", 40) + `"…: must be a number in (0, `
	if msg := err.Error(); !strings.HasPrefix(msg, want) || len(msg) > 120 {
		t.Errorf("message %.300q, want %q…, ≤ 120 bytes", msg, want)
	}
}

// TestTraceBlankOnlyWhenBlank: only a line with nothing but spaces is
// skipped as blank; a row whose first field is empty is still a row (its
// job id is ""), never dropped.
func TestTraceBlankOnlyWhenBlank(t *testing.T) {
	t.Parallel()
	jobs, err := ParseTrace(strings.NewReader("job,arrival,phase,duration,beta\n   \n,0,0,1,1.5\n\nb,1,0,2,1.5\n"))
	if err != nil || len(jobs) != 2 || jobs[0].Arrival != 0 || jobs[1].Arrival != 1 {
		t.Fatalf("ParseTrace = %+v, %v; want the jobs \"\" at 0 and b at 1", jobs, err)
	}
}

// TestTraceBetaBound: β may be exactly 1e6, the top of its range.
func TestTraceBetaBound(t *testing.T) {
	t.Parallel()
	jobs, err := ParseTrace(strings.NewReader("job,arrival,phase,duration,beta\na,0,0,1,1e6\n"))
	if err != nil || len(jobs) != 1 || jobs[0].Beta != 1e6 {
		t.Fatalf("ParseTrace = %+v, %v; want one job with β = 1e6", jobs, err)
	}
}

// TestTraceFitAtOne: a group whose durations fit β = 1 exactly — the
// maximum-likelihood β̂ of {1, e²} is 2/(ln 1 + ln e²) = 1 — has no finite
// mean: an error naming the group, not a job with β = 1. And a group
// number may be 2^30, the top of its range.
func TestTraceFitAtOne(t *testing.T) {
	t.Parallel()
	in := fmt.Sprintf("job,arrival,phase,duration,group\na,0,0,1,0\nb,0,0,%v,0\n", math.Exp(2))
	_, err := ParseTrace(strings.NewReader(in))
	var te *TraceError
	if !errors.As(err, &te) || te.Field != "group" || !strings.Contains(te.Reason, "β = 1 ≤ 1") {
		t.Fatalf("ParseTrace(%q) = %v; want a TraceError on group: β = 1 ≤ 1", in, err)
	}
	in = "job,arrival,phase,duration,group,beta\na,0,0,1,1073741824,1.5\n"
	if jobs, err := ParseTrace(strings.NewReader(in)); err != nil || len(jobs) != 1 || jobs[0].Group != 1<<30 {
		t.Fatalf("ParseTrace(%q) = %+v, %v; want one job of group 2^30", in, jobs, err)
	}
}

// TestTraceLineAtBound: a line of exactly MaxTraceLine bytes (a comment
// here) is read; one byte more is the error of TestTraceTooLong.
func TestTraceLineAtBound(t *testing.T) {
	t.Parallel()
	in := "#" + strings.Repeat("x", MaxTraceLine-1) + "\njob,arrival,phase,duration,beta\na,0,0,1,1.5\n"
	if jobs, err := ParseTrace(strings.NewReader(in)); err != nil || len(jobs) != 1 {
		t.Fatalf("a %d-byte comment line: %d jobs, %v; want it read", MaxTraceLine, len(jobs), err)
	}
	in = "#" + strings.Repeat("x", MaxTraceLine) + "\njob,arrival,phase,duration,beta\na,0,0,1,1.5\n"
	if _, err := ParseTrace(strings.NewReader(in)); err == nil {
		t.Fatalf("a %d-byte comment line was read; want the line bound's error", MaxTraceLine+1)
	}
}

// TestTraceFirstPhaseStart: the first phase has no upstream phase, so its
// start (Phase.Start, a fraction of the upstream phase's tasks) is not
// compared across its rows; a later phase's is (TestTraceErrors).
func TestTraceFirstPhaseStart(t *testing.T) {
	t.Parallel()
	in := "job,arrival,phase,duration,beta,start\na,0,0,1,1.5,0.2\na,0,0,1,1.5,0.5\n"
	if jobs, err := ParseTrace(strings.NewReader(in)); err != nil || len(jobs) != 1 {
		t.Fatalf("ParseTrace(%q) = %+v, %v; want one job", in, jobs, err)
	}
}
