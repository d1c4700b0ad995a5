package specsched

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// An InputError reports an invalid value handed to one of the library's
// exported functions: which function, which job (or none, for a scalar
// parameter), which field, the offending value and what was wrong with it.
//
// Every exported function validates its inputs before computing anything
// and returns an *InputError instead of panicking; test for it with
// errors.As.
//
// Field is spelled as the caller's code spells what it passed: a
// parameter by its name in the signature ("remaining", "slots", "beta"),
// a field of a struct argument by its Go name and path from that
// argument ("Slots", "Speculation.Detect", a job's "Phases[1].Scale"), a
// length as len(x) and a derived quantity by its expression
// ("sum(shares)"). Index counts jobs unless Item says what it counts.
type InputError struct {
	Func   string  // the exported function, e.g. "alloc.Allocate"
	Index  int     // the job (or task, or sample) index; -1 for a scalar parameter
	Item   string  // what Index counts: "task", "sample", …; "" means "job"
	Field  string  // the parameter or field at fault, as the caller writes it (see below)
	Value  float64 // the offending value (NaN, ±Inf and integers are exact)
	Text   string  // the offending value when it is not a number (a name, "nil"); Value is then 0
	Reason string  // what the value must satisfy, e.g. "must be finite and ≥ 0"
}

// Error formats the error as "func: job i: field = value: reason", leaving out
// the job for scalar parameters, with Item for "job" when it is set and the
// quoted Text for the value when it is set (its first MaxQuoted characters
// and "…" when it is longer).
func (e *InputError) Error() string {
	value := strconv.FormatFloat(e.Value, 'g', -1, 64)
	if e.Text != "" {
		value = quote(e.Text)
	}
	if e.Index < 0 {
		return fmt.Sprintf("%s: %s = %s: %s", e.Func, e.Field, value, e.Reason)
	}
	item := e.Item
	if item == "" {
		item = "job"
	}
	return fmt.Sprintf("%s: %s %d: %s = %s: %s", e.Func, item, e.Index, e.Field, value, e.Reason)
}

// A TraceError reports a malformed trace read by one of the simulators'
// ParseTrace functions (sim.ParseTrace, probe.ParseTrace): which parser,
// the 1-based line, the field or column at fault, its text and what was
// wrong with it. sim.TraceError and probe.TraceError are this type.
type TraceError struct {
	Func   string // the parser, e.g. "sim.ParseTrace"
	Line   int    // 1-based line number
	Field  string // the field or column, e.g. "duration", "n_tasks", "header"; "" when the line as a whole is at fault
	Text   string // the offending text (unused when Field is "")
	Reason string // what was wrong, e.g. "must be a finite number ≥ 0"
}

// Error formats the error as `func: line n: field "text": reason`, or
// "func: line n: reason" when no field is named. A Text longer than
// MaxQuoted characters is cut to its first MaxQuoted, followed by "…"
// outside the quotes: a trace's bad field can be megabytes long, and the
// message stays a line.
func (e *TraceError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: line %d: %s", e.Func, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: line %d: %s %s: %s", e.Func, e.Line, e.Field, quote(e.Text), e.Reason)
}

// MaxQuoted is how many characters of an offending text the messages of
// InputError and TraceError quote: enough to recognise a field, short
// enough that the message stays one line.
const MaxQuoted = 40

// quote is strconv.Quote of text, or of its first MaxQuoted characters
// followed by "…" when it is longer. The cut falls between two characters
// (an invalid UTF-8 byte counts as one, as strconv.Quote escapes it as
// one), so the quoted prefix is the text's own. O(MaxQuoted).
func quote(text string) string {
	cut := 0
	for n := 0; cut < len(text); n++ {
		if n == MaxQuoted {
			return strconv.Quote(text[:cut]) + "…"
		}
		_, size := utf8.DecodeRuneInString(text[cut:])
		cut += size
	}
	return strconv.Quote(text)
}
