package probe

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// sampleTrace is the fixture shipped in internal/testdata; a missing file
// fails the test.
var sampleTrace = filepath.Join("..", "internal", "testdata", "probe", "sample.trace")

func TestParseTraceSample(t *testing.T) {
	t.Parallel()
	f, err := os.Open(sampleTrace)
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	defer f.Close()
	jobs, err := ParseTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	// Hand-read from the file.
	want := []Job{
		{Submit: 0, EstTask: 10, Durations: []float64{9, 10, 11}},
		{Submit: 0.5, EstTask: 4, Durations: []float64{4}},
		{Submit: 1, EstTask: 100, Durations: []float64{90, 110, 100, 100}},
		{Submit: 2.25, EstTask: 20, Durations: []float64{15, 25}},
		{Submit: 3, EstTask: 1.5, Durations: []float64{1.5}},
		{Submit: 4, EstTask: 200, Durations: []float64{180, 220, 190, 210, 200, 200}},
		{Submit: 6, EstTask: 7, Durations: []float64{6, 8}},
	}
	if d := cmp.Diff(want, jobs); d != "" {
		t.Fatalf("sample (-want +got):\n%s", d)
	}
	// The sample runs under every policy and conserves its tasks.
	for p := Eagle; p <= Hopper; p++ {
		cfg := DefaultConfig(p, 6, 50)
		cfg.ShortFraction = 1.0 / 3
		cfg.RecordTasks = true
		r, err := Simulate(jobs, cfg, rngFrom(3))
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		checkConservation(t, jobs, r)
		if r.Class[2] != Long || r.Class[5] != Long || r.Class[0] != Short {
			t.Fatalf("%v: classes %v", p, r.Class)
		}
	}
}

func TestParseTraceErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text  string
		line  int
		field string
	}{
		{"0 1 1 1\n1 2 3 4\n", 2, "n_tasks"},   // too few durations
		{"0 1 1 1 2\n", 1, "n_tasks"},          // too many
		{"\n# c\nx 1 1 1\n", 3, "submit_time"}, // blank and comment lines count
		{"0 0 1\n", 1, "n_tasks"},              // no task
		{"0 1.5 1 1\n", 1, "n_tasks"},          // not an integer
		{"0 1 NaN 1\n", 1, "mean_duration"},    // NaN
		{"0 1 1 -1\n", 1, "d1"},                // negative duration
		{"0 2 1 1 +Inf\n", 1, "d2"},            // infinite
		{"-1 1 1 1\n", 1, "submit_time"},       // negative time
		{"0 1\n", 1, "line"},                   // too few fields
	}
	for _, c := range cases {
		_, err := ParseTrace(strings.NewReader(c.text))
		var te *TraceError
		if !errors.As(err, &te) || te.Line != c.line || te.Field != c.field {
			t.Errorf("ParseTrace(%q) = %v; want line %d field %s", c.text, err, c.line, c.field)
		}
	}
	// A count that disagrees with the durations says how many there are.
	for text, want := range map[string]string{"0 1 1 1\n1 2 3 4\n": "line has 1 durations", "0 1 1 1 2\n": "line has 2 durations"} {
		var te *TraceError
		if _, err := ParseTrace(strings.NewReader(text)); !errors.As(err, &te) || te.Reason != want {
			t.Errorf("ParseTrace(%q) = %v; want the reason %q", text, err, want)
		}
	}
}

// TestParseTraceBOM: a UTF-8 byte-order mark at the start of the sample is
// skipped (the first line is the sample's own); a second one is text, and
// its line is rejected.
func TestParseTraceBOM(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(sampleTrace)
	if err != nil {
		t.Fatalf("fixture: %v", err)
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
	if jobs, err := ParseTrace(strings.NewReader("\ufeff0 1 2 3\n")); err != nil || len(jobs) != 1 || jobs[0].Durations[0] != 3 {
		t.Errorf("BOM before a job: %v, %v", jobs, err)
	}
	_, err = ParseTrace(strings.NewReader("\ufeff\ufeff0 1 2 3\n"))
	var te *TraceError
	if !errors.As(err, &te) || te.Line != 1 || te.Field != "submit_time" {
		t.Errorf("two BOMs: %v, want line 1's submit_time", err)
	}
}

// TestParseTraceLongFieldMessage: a bad field of a megabyte gives a
// message quoting its first 40 characters, not the megabyte.
func TestParseTraceLongFieldMessage(t *testing.T) {
	t.Parallel()
	field := strings.Repeat("5", 1<<20) + "x"
	_, err := ParseTrace(strings.NewReader("0 1 2 " + field + "\n"))
	var te *TraceError
	if !errors.As(err, &te) || te.Line != 1 || te.Field != "d1" {
		t.Fatalf("error %.200v, want line 1's d1", err)
	}
	want := `probe.ParseTrace: line 1: d1 "` + strings.Repeat("5", 40) + `"…: must be a finite number ≥ 0`
	if msg := err.Error(); msg != want {
		t.Errorf("message %.300q, want %q", msg, want)
	}
}

// testTraceRoundTrip: WriteTrace then ParseTrace gives the jobs back
// exactly (shortest round-tripping float format).
func testTraceRoundTrip(t *rapid.T) {
	n := rapid.IntRange(0, 10).Draw(t, "jobs")
	jobs := make([]Job, n)
	for j := range jobs {
		jobs[j] = Job{
			Submit:    rapid.Float64Range(0, 1e9).Draw(t, "submit"),
			EstTask:   rapid.Float64Range(0, 1e6).Draw(t, "est"),
			Durations: rapid.SliceOfN(rapid.Float64Range(0, 1e6), 1, 8).Draw(t, "durations"),
		}
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, jobs); err != nil {
		t.Fatalf("WriteTrace: %v", err)
	}
	got, err := ParseTrace(&buf)
	if err != nil {
		t.Fatalf("ParseTrace: %v", err)
	}
	if len(jobs) == 0 && len(got) == 0 {
		return
	}
	if d := cmp.Diff(jobs, got); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}

func TestTraceRoundTrip(t *testing.T) { t.Parallel(); rapid.Check(t, testTraceRoundTrip) }

// testParseTraceNoPanic feeds arbitrary text: either an error naming a line
// within the input, or jobs that are all valid.
func testParseTraceNoPanic(t *rapid.T) {
	tokens := []string{"0", "1", "2", "1.5", "-1", "NaN", "+Inf", "x", "1e400", " ", "\t", "\n", "#", "3"}
	text := strings.Join(rapid.SliceOfN(rapid.SampledFrom(tokens), 0, 40).Draw(t, "tokens"), " ")
	text += rapid.String().Draw(t, "tail")
	jobs, err := ParseTrace(strings.NewReader(text))
	if err != nil {
		var te *TraceError
		if !errors.As(err, &te) || te.Line < 1 || te.Line > strings.Count(text, "\n")+1 {
			t.Fatalf("error %v", err)
		}
		return
	}
	for _, j := range jobs {
		if len(j.Durations) == 0 || math.IsNaN(j.EstTask) || j.Submit < 0 {
			t.Fatalf("invalid job %+v", j)
		}
	}
}

func TestParseTraceNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testParseTraceNoPanic) }
func FuzzParseTrace(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testParseTraceNoPanic)) }
func FuzzWriteTrace(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testTraceRoundTrip)) }

// spaces is an endless reader of blanks.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestParseTraceLineBound: a line of 64 MiB (the newline not counted) is
// read, one byte more is rejected naming the line, in the words
// sim.ParseTrace uses for its own bound. Not parallel: it holds a 64 MiB
// line.
func TestParseTraceLineBound(t *testing.T) {
	const job = "0 1 1 1"
	padded := func(n int) io.Reader { // job, then blanks to n bytes, then a newline
		return io.MultiReader(strings.NewReader(job), io.LimitReader(spaces{}, int64(n-len(job))), strings.NewReader("\n"))
	}
	jobs, err := ParseTrace(io.MultiReader(padded(64<<20), strings.NewReader("# end\n")))
	if err != nil || len(jobs) != 1 || jobs[0].Submit != 0 || len(jobs[0].Durations) != 1 {
		t.Errorf("a line of 64 MiB: %d jobs, %v; want the one job", len(jobs), err)
	}
	_, err = ParseTrace(io.MultiReader(strings.NewReader(job+"\n"), padded(64<<20+1)))
	const want = "probe.ParseTrace: line 2: line longer than 67108864 bytes (64 MiB)"
	var te *TraceError
	if !errors.As(err, &te) || te.Line != 2 || err.Error() != want {
		t.Errorf("a line of 64 MiB + 1 byte: %v; want %s", err, want)
	}
}
