package specsched_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

func TestInputErrorFormat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  specsched.InputError
		want string
	}{
		{specsched.InputError{Func: "alloc.Allocate", Index: 3, Field: "remaining", Value: math.NaN(), Reason: "must be finite and ≥ 0"},
			"alloc.Allocate: job 3: remaining = NaN: must be finite and ≥ 0"},
		{specsched.InputError{Func: "alloc.Allocate", Index: -1, Field: "beta", Value: 1, Reason: "must be a finite number > 1"},
			"alloc.Allocate: beta = 1: must be a finite number > 1"},
		{specsched.InputError{Func: "f", Index: 0, Field: "x", Value: math.Inf(-1), Reason: "r"}, "f: job 0: x = -Inf: r"},
		// Every digit of the value, the shortest form that reads back as it.
		{specsched.InputError{Func: "f", Index: -1, Field: "eps", Value: 0.1234567890123, Reason: "r"}, "f: eps = 0.1234567890123: r"},
		{specsched.InputError{Func: "f", Index: 0, Field: "x", Value: -1.5e-300, Reason: "r"}, "f: job 0: x = -1.5e-300: r"},
		{specsched.InputError{Func: "stragglers.Speculate", Item: "task", Index: 2, Field: "copies", Value: -1, Reason: "r"},
			"stragglers.Speculate: task 2: copies = -1: r"},
		{specsched.InputError{Func: "probe.ParsePolicy", Index: -1, Field: "policy", Text: "eagle2", Reason: "unknown policy"},
			`probe.ParsePolicy: policy = "eagle2": unknown policy`},
		{specsched.InputError{Func: "f", Index: 1, Item: "sample", Field: "rng", Text: "nil", Reason: "must not be nil"},
			`f: sample 1: rng = "nil": must not be nil`},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		var ie *specsched.InputError
		if wrapped := fmt.Errorf("wrapped: %w", &tc.err); !errors.As(wrapped, &ie) || ie.Field != tc.err.Field {
			t.Errorf("errors.As did not find the InputError in %v", wrapped)
		}
	}
}

// testInputErrorNoPanic: any field values format without panicking, and the
// message names the function, the field and, for a job, its index.
func testInputErrorNoPanic(t *rapid.T) {
	e := specsched.InputError{
		Func:   rapid.String().Draw(t, "func"),
		Index:  rapid.Int().Draw(t, "index"),
		Field:  rapid.String().Draw(t, "field"),
		Value:  rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1)})).Draw(t, "value"),
		Item:   rapid.SampledFrom([]string{"", "task", "sample"}).Draw(t, "item"),
		Text:   rapid.OneOf(rapid.Just(""), rapid.String()).Draw(t, "text"),
		Reason: rapid.String().Draw(t, "reason"),
	}
	msg := e.Error()
	if !strings.HasPrefix(msg, e.Func+": ") || !strings.Contains(msg, e.Field+" = ") {
		t.Fatalf("message %q does not name func %q and field %q", msg, e.Func, e.Field)
	}
	item := e.Item
	if item == "" {
		item = "job"
	}
	if e.Index >= 0 && !strings.Contains(msg, fmt.Sprintf("%s %d: ", item, e.Index)) {
		t.Fatalf("message %q does not name %s %d", msg, item, e.Index)
	}
	if e.Text != "" && !strings.Contains(msg, " = "+wantQuote(e.Text)+": ") {
		t.Fatalf("message %q does not quote the text %q as the value", msg, e.Text)
	}
}

// wantQuote is the quoted text the messages must show: the whole text if it
// has at most 40 characters, else its first 40 and "…" after the quotes.
// Characters are counted as range over a string counts them (an invalid
// byte is one), independently of the decoder loop in errors.go.
func wantQuote(text string) string {
	n := 0
	for i := range text {
		if n == 40 {
			return strconv.Quote(text[:i]) + "…"
		}
		n++
	}
	return strconv.Quote(text)
}

func TestInputErrorNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testInputErrorNoPanic) }

func FuzzInputError(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testInputErrorNoPanic)) }

// TestTraceErrorFormat: the two forms of the message, worked by hand (they
// are the messages sim.ParseTrace and probe.ParseTrace gave before the type
// was shared), and errors.As through a wrap.
func TestTraceErrorFormat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  specsched.TraceError
		want string
	}{
		{specsched.TraceError{Func: "sim.ParseTrace", Line: 3, Reason: "4 fields, the header has 5"},
			"sim.ParseTrace: line 3: 4 fields, the header has 5"},
		{specsched.TraceError{Func: "sim.ParseTrace", Line: 2, Field: "beta", Text: "0.5", Reason: "must be a number in (1, 1e6]"},
			`sim.ParseTrace: line 2: beta "0.5": must be a number in (1, 1e6]`},
		{specsched.TraceError{Func: "probe.ParseTrace", Line: 7, Field: "d3", Text: "-1", Reason: "must be a finite number ≥ 0"},
			`probe.ParseTrace: line 7: d3 "-1": must be a finite number ≥ 0`},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		var te *specsched.TraceError
		if wrapped := fmt.Errorf("file: %w", &tc.err); !errors.As(wrapped, &te) || *te != tc.err {
			t.Errorf("errors.As did not find the TraceError in %v", wrapped)
		}
	}
}

// testTraceErrorNoPanic: any field values format without panicking; the
// message names the function and the line, and the field and its quoted
// text when there is a field.
func testTraceErrorNoPanic(t *rapid.T) {
	e := specsched.TraceError{
		Func:   rapid.String().Draw(t, "func"),
		Line:   rapid.Int().Draw(t, "line"),
		Field:  rapid.String().Draw(t, "field"),
		Text:   rapid.String().Draw(t, "text"),
		Reason: rapid.String().Draw(t, "reason"),
	}
	msg := e.Error()
	if !strings.HasPrefix(msg, fmt.Sprintf("%s: line %d: ", e.Func, e.Line)) || !strings.HasSuffix(msg, ": "+e.Reason) {
		t.Fatalf("message %q does not name func %q, line %d and reason %q", msg, e.Func, e.Line, e.Reason)
	}
	if e.Field != "" && !strings.Contains(msg, e.Field+" "+wantQuote(e.Text)+": ") {
		t.Fatalf("message %q does not name field %q with text %q", msg, e.Field, e.Text)
	}
	if !utf8.ValidString(msg) {
		t.Fatalf("message %q is not valid UTF-8", msg)
	}
}

func TestTraceErrorNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testTraceErrorNoPanic) }

func FuzzTraceError(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testTraceErrorNoPanic)) }

// TestQuotedTextBounded: a megabyte-long offending text gives a message of
// a few dozen bytes, cut between characters (worked by hand: 39 x's then a
// 3-byte "€" is 40 characters; an invalid byte counts as one and is
// escaped; a text of exactly 40 characters is quoted whole).
func TestQuotedTextBounded(t *testing.T) {
	t.Parallel()
	x39 := strings.Repeat("x", 39)
	for _, tc := range []struct {
		text, want string
	}{
		{strings.Repeat("7", 1<<20), `"` + strings.Repeat("7", 40) + `"…`},
		{x39 + "€€€", `"` + x39 + `€"…`},
		{x39 + "\xff" + "tail", `"` + x39 + `\xff"…`},
		{x39 + "\xff", `"` + x39 + `\xff"`},
		{x39 + "y", `"` + x39 + `y"`},
		{"é\n", `"é\n"`},
	} {
		e := specsched.TraceError{Func: "sim.ParseTrace", Line: 2, Field: "duration", Text: tc.text, Reason: "r"}
		want := "sim.ParseTrace: line 2: duration " + tc.want + ": r"
		if got := e.Error(); got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
		ie := specsched.InputError{Func: "f", Index: -1, Field: "policy", Text: tc.text, Reason: "r"}
		if got, want := ie.Error(), "f: policy = "+tc.want+": r"; got != want {
			t.Errorf("InputError.Error() = %q, want %q", got, want)
		}
	}
}
