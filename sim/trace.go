package sim

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/stragglers"
)

// A TraceError reports a malformed trace (specsched.TraceError, with Func
// "sim.ParseTrace"): the 1-based line, the column (Field, "" when the line as
// a whole is at fault), the offending text and what was wrong.
type TraceError = specsched.TraceError

// parseTrace is the Func of ParseTrace's errors.
const parseTrace = "sim.ParseTrace"

// Trace columns.
const (
	colJob      = "job"
	colArrival  = "arrival"
	colPhase    = "phase"
	colDuration = "duration"
	colGroup    = "group"
	colBeta     = "beta"
	colStart    = "start"
)

// ParseTrace reads a workload in the simulator's CSV trace format: one row
// per task, after a header row naming the columns (in any order):
//
//		job,arrival,phase,duration[,group][,beta][,start]
//
//	  - job: the job's identifier (any text); a job's rows are contiguous.
//	  - arrival: the job's arrival time, a finite number ≥ 0, the same on
//	    all its rows.
//	  - phase: the task's phase, 0, 1, … in non-decreasing order within the
//	    job and without gaps; phases form a chain (see Job).
//	  - duration: how long the task's first copy runs, > 0. Further copies
//	    take the duration of a task of the same phase chosen at random (Xu et
//	    al. §5); see Phase.
//	  - group (optional): the job's straggler group, an integer ≥ 0
//	    (default 0), the same on all its rows.
//	  - beta (optional): the Pareto tail index β > 1 the job's scheduler
//	    assumes, the same on all its rows. Without it, β is fitted for each
//	    group by maximum likelihood on the group's durations
//	    (stragglers.FitPareto), as the thesis fits each job group's β (§6.4.2).
//	  - start (optional, phases ≥ 1): the fraction of the upstream phase's
//	    tasks that must finish before the phase may start, in (0, 1]
//	    (default 1), the same on all rows of the phase.
//
// Blank lines and lines starting with '#' are skipped; fields are trimmed
// of blanks. A UTF-8 byte-order mark at the start of the input (what
// spreadsheets write when they export CSV) is skipped. Times are in any
// unit, the same for all. Jobs are returned in file order.
//
// Errors: a missing or unknown header column, a row with the wrong number
// of fields, a number that does not parse or is out of range (a duration
// below MinTimeRatio × the arrival included, see Simulate), a job whose
// rows are not contiguous or disagree on arrival, group or beta, phases out
// of order, rows of a phase that disagree on start, and a group whose β
// cannot be fitted (fewer than two distinct durations) or is fitted ≤ 1 (no
// finite mean; give a beta column) return a *TraceError with the line; a read
// error is returned as is. So does a line longer than MaxTraceLine, 1 MiB
// (1048576 bytes, the newline not counted; the message is "line longer
// than 1048576 bytes (1 MiB)", as probe.ParseTrace's for its own bound),
// or a record (a quoted field may span lines) longer than MaxTraceRecord,
// 4 MiB, the error naming the line the record starts on: no trace row
// needs that much, and ParseTrace stops reading there, so a malformed file
// costs O(MaxTraceRecord) memory before it is rejected.
// O(size of the input).
func ParseTrace(r io.Reader) ([]Job, error) {
	lim := &lineLimit{r: r, line: 1}
	br := bufio.NewReader(lim)
	skipBOM(br)
	rd := csv.NewReader(br)
	rd.Comment = '#'
	rd.TrimLeadingSpace = true
	rd.FieldsPerRecord = -1
	rd.ReuseRecord = true
	var cols map[string]int
	var jobs []Job
	ids := map[string]bool{}
	var id string
	groupFirstLine := map[int]int{}
	explicitBeta := false
	for {
		rec, err := rd.Read()
		if lim.cut {
			return nil, lim.recordErr(rd, err)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &TraceError{Func: parseTrace, Line: pe.Line, Reason: pe.Err.Error()}
			}
			if te := lim.err(err); te != nil {
				return nil, te
			}
			return nil, err
		}
		lim.recordStart = rd.InputOffset()
		line, _ := rd.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if cols == nil {
			if cols, err = traceHeader(line, rec); err != nil {
				return nil, err
			}
			_, explicitBeta = cols[colBeta]
			continue
		}
		if len(rec) != len(cols) {
			return nil, &TraceError{Func: parseTrace, Line: line, Reason: fmt.Sprintf("%d fields, the header has %d", len(rec), len(cols))}
		}
		field := func(c string) string { return strings.TrimSpace(rec[cols[c]]) }
		rowID := field(colJob)
		arrival, err := traceFloat(line, colArrival, field(colArrival), 0, MaxTime, true)
		if err != nil {
			return nil, err
		}
		phase, err := traceInt(line, colPhase, field(colPhase), 0, 1<<16)
		if err != nil {
			return nil, err
		}
		duration, err := traceFloat(line, colDuration, field(colDuration), 0, MaxTime, false)
		if err != nil {
			return nil, err
		}
		if duration < arrival*MinTimeRatio {
			return nil, &TraceError{Func: parseTrace, Line: line, Field: colDuration, Text: field(colDuration), Reason: tooShort}
		}
		group := 0
		if _, ok := cols[colGroup]; ok {
			if group, err = traceInt(line, colGroup, field(colGroup), 0, 1<<30); err != nil {
				return nil, err
			}
		}
		beta := 0.0
		if explicitBeta {
			text := field(colBeta)
			if beta, err = strconv.ParseFloat(text, 64); err != nil || !(beta > 1 && beta <= 1e6) {
				return nil, &TraceError{Func: parseTrace, Line: line, Field: colBeta, Text: text, Reason: "must be a number in (1, 1e6]"}
			}
		}
		start := 0.0
		if _, ok := cols[colStart]; ok {
			if start, err = traceFloat(line, colStart, field(colStart), 0, 1, false); err != nil {
				return nil, err
			}
		}

		if len(jobs) == 0 || rowID != id {
			if ids[rowID] {
				return nil, &TraceError{Func: parseTrace, Line: line, Field: colJob, Text: rowID, Reason: "the job's rows are not contiguous"}
			}
			if phase != 0 {
				return nil, &TraceError{Func: parseTrace, Line: line, Field: colPhase, Text: field(colPhase), Reason: "a job's first row must be of phase 0"}
			}
			ids[rowID] = true
			id = rowID
			jobs = append(jobs, Job{Arrival: arrival, Group: group, Beta: beta})
			if _, ok := groupFirstLine[group]; !ok {
				groupFirstLine[group] = line
			}
		}
		job := &jobs[len(jobs)-1]
		switch {
		case arrival != job.Arrival:
			return nil, &TraceError{Func: parseTrace, Line: line, Field: colArrival, Text: field(colArrival), Reason: "differs from the job's first row"}
		case group != job.Group:
			return nil, &TraceError{Func: parseTrace, Line: line, Field: colGroup, Text: field(colGroup), Reason: "differs from the job's first row"}
		case beta != job.Beta:
			return nil, &TraceError{Func: parseTrace, Line: line, Field: colBeta, Text: field(colBeta), Reason: "differs from the job's first row"}
		}
		last := len(job.Phases) - 1
		switch {
		case phase == last+1:
			job.Phases = append(job.Phases, Phase{Start: start})
		case phase != last:
			return nil, &TraceError{Func: parseTrace, Line: line, Field: colPhase, Text: field(colPhase), Reason: "phases must be 0, 1, … without gaps, in order"}
		case phase > 0 && start != job.Phases[last].Start:
			return nil, &TraceError{Func: parseTrace, Line: line, Field: colStart, Text: field(colStart), Reason: "differs from the phase's first row"}
		}
		ph := &job.Phases[len(job.Phases)-1]
		ph.Durations = append(ph.Durations, duration)
		ph.Tasks++
	}
	if cols == nil {
		return []Job{}, nil
	}
	if !explicitBeta {
		if err := fitGroups(jobs, groupFirstLine); err != nil {
			return nil, err
		}
	}
	if jobs == nil {
		jobs = []Job{}
	}
	return jobs, nil
}

// Bounds of ParseTrace's input: a line and a record (a quoted field may
// span lines) of a trace. A row of the format takes well under a kilobyte
// unless its job identifier is long; these leave room for long identifiers
// while keeping a file that is one huge line from filling memory.
const (
	MaxTraceLine   = 1 << 20
	MaxTraceRecord = 4 << 20
)

// errTooLong is lineLimit's read error, turned into a *TraceError by err.
var errTooLong = errors.New("sim: trace line too long")

// lineLimit passes r through, failing with errTooLong once a line runs past
// MaxTraceLine bytes, and cutting the input short (io.EOF, cut set) once
// the bytes read since recordStart (the csv reader's offset after the last
// record, set by ParseTrace) pass MaxTraceRecord plus the read-ahead of the
// bufio.Reader in between: the csv reader then ends the record in progress
// and reports the line it started on (recordErr). It counts the lines it
// passes, so the error names the line it stopped in.
type lineLimit struct {
	r           io.Reader
	read        int64 // bytes passed on
	recordStart int64
	line        int // 1-based line of the next byte
	lineLen     int // bytes of that line passed on
	tooLong     string
	cut         bool // the record bound cut the input short
}

func (l *lineLimit) Read(p []byte) (int, error) {
	switch {
	case l.cut:
		return 0, io.EOF
	case l.tooLong != "":
		return 0, errTooLong
	}
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		l.lineLen++
		switch {
		case l.read+int64(i) >= l.recordStart+MaxTraceRecord+bufioSize:
			l.cut = true
			l.read += int64(i)
			return i, io.EOF
		case b == '\n':
			l.line++
			l.lineLen = 0
			continue
		case l.lineLen > MaxTraceLine:
			l.tooLong = longerThan("line", MaxTraceLine)
		default:
			continue
		}
		l.read += int64(i)
		return i, errTooLong
	}
	l.read += int64(n)
	return n, err
}

// recordErr is the error of a record cut short by the record bound, given
// what rd.Read returned after the cut: it names the line the record
// started on, as the csv reader reports it — a quoted field left open at
// the cut (a *csv.ParseError's StartLine) or a record ended by the cut
// (rd.FieldPos) — or, when only blank and comment lines (which the csv
// reader skips) came since the last record, the line the cut fell in.
func (l *lineLimit) recordErr(rd *csv.Reader, err error) error {
	var pe *csv.ParseError
	start := 0
	switch {
	case errors.As(err, &pe):
		start = pe.StartLine
	case err == nil:
		start, _ = rd.FieldPos(0)
	}
	if start == 0 {
		return &TraceError{Func: parseTrace, Line: l.line,
			Reason: longerThan("blank and comment lines since the last record", MaxTraceRecord)}
	}
	return &TraceError{Func: parseTrace, Line: start,
		Reason: longerThan("record starting on this line", MaxTraceRecord) + ": an unclosed quote?"}
}

// longerThan is the reason of an error on a line or record longer than max
// bytes, worded as probe.ParseTrace words it.
func longerThan(what string, max int) string {
	return fmt.Sprintf("%s longer than %d bytes (%d MiB)", what, max, max>>20)
}

// bufioSize is the size of bufio.NewReader's buffer, the most the csv
// reader reads ahead of its offset.
const bufioSize = 4096

// err returns the *TraceError of a read error of errTooLong, or nil.
func (l *lineLimit) err(err error) error {
	if !errors.Is(err, errTooLong) {
		return nil
	}
	return &TraceError{Func: parseTrace, Line: l.line, Reason: l.tooLong}
}

// skipBOM drops a UTF-8 byte-order mark at the start of br.
func skipBOM(br *bufio.Reader) {
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
}

func traceHeader(line int, rec []string) (map[string]int, error) {
	cols := make(map[string]int, len(rec))
	for i, name := range rec {
		name = strings.ToLower(strings.TrimSpace(name))
		switch name {
		case colJob, colArrival, colPhase, colDuration, colGroup, colBeta, colStart:
		default:
			return nil, &TraceError{Func: parseTrace, Line: line, Field: "header", Text: name,
				Reason: "unknown column (want job, arrival, phase, duration, group, beta, start)"}
		}
		if _, dup := cols[name]; dup {
			return nil, &TraceError{Func: parseTrace, Line: line, Field: "header", Text: name, Reason: "duplicate column"}
		}
		cols[name] = i
	}
	for _, need := range []string{colJob, colArrival, colPhase, colDuration} {
		if _, ok := cols[need]; !ok {
			return nil, &TraceError{Func: parseTrace, Line: line, Field: "header", Text: strings.Join(rec, ","), Reason: "missing column " + need}
		}
	}
	return cols, nil
}

func traceFloat(line int, col, text string, lo, hi float64, closedLo bool) (float64, error) {
	v, err := strconv.ParseFloat(text, 64)
	ok := err == nil && v <= hi && (v > lo || closedLo && v == lo)
	if !ok {
		interval := "("
		if closedLo {
			interval = "["
		}
		return 0, &TraceError{Func: parseTrace, Line: line, Field: col, Text: text,
			Reason: fmt.Sprintf("must be a number in %s%g, %g]", interval, lo, hi)}
	}
	return v, nil
}

func traceInt(line int, col, text string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(text)
	if err != nil || v < lo || v > hi {
		return 0, &TraceError{Func: parseTrace, Line: line, Field: col, Text: text, Reason: fmt.Sprintf("must be an integer in [%d, %d]", lo, hi)}
	}
	return v, nil
}

// fitGroups sets every job's Beta to its group's maximum-likelihood fit.
func fitGroups(jobs []Job, firstLine map[int]int) error {
	durations := map[int][]float64{}
	for j := range jobs {
		for _, ph := range jobs[j].Phases {
			durations[jobs[j].Group] = append(durations[jobs[j].Group], ph.Durations...)
		}
	}
	groups := make([]int, 0, len(durations))
	for g := range durations {
		groups = append(groups, g)
	}
	slices.Sort(groups) // report the first failing group, deterministically
	betas := make(map[int]float64, len(durations))
	for _, g := range groups {
		_, beta, err := stragglers.FitPareto(durations[g])
		if err != nil || !(beta > 1) || math.IsInf(beta, 0) {
			reason := fmt.Sprintf("its durations fit β = %.3g ≤ 1 (no finite mean); add a beta column", beta)
			var ie *specsched.InputError
			if errors.As(err, &ie) {
				reason = "cannot fit its Pareto β (" + ie.Reason + "); add a beta column"
			} else if err != nil {
				reason = "cannot fit its Pareto β (" + err.Error() + "); add a beta column"
			}
			return &TraceError{Func: parseTrace, Line: firstLine[g], Field: colGroup, Text: strconv.Itoa(g), Reason: reason}
		}
		betas[g] = beta
	}
	for j := range jobs {
		jobs[j].Beta = betas[jobs[j].Group]
	}
	return nil
}

// WriteTrace writes jobs in ParseTrace's format, with the group, beta and
// start columns, jobs named by their index. A phase without Durations is
// written with the durations its tasks' first copies take in Simulate
// with the given seed (and the service model CopyService), so that
// ParseTrace(WriteTrace(jobs)) describes the same first copies. Reading it
// back gives the same jobs except that further copies borrow durations from
// the phase instead of drawing new ones (or using CopyDurations).
//
// An error is returned for an invalid job (see Simulate) and for a write
// error. O(tasks).
func WriteTrace(w io.Writer, jobs []Job, seed uint64) error {
	if _, err := validateJobs("sim.WriteTrace", jobs); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "job,arrival,phase,duration,group,beta,start")
	task := 0
	for j := range jobs {
		job := &jobs[j]
		for p := range job.Phases {
			ph := &job.Phases[p]
			start := ph.Start
			if start == 0 || p == 0 {
				start = 1
			}
			for i := 0; i < ph.Tasks; i++ {
				d := firstDuration(seed, job, ph, i, task)
				task++
				fmt.Fprintf(bw, "%d,%s,%d,%s,%d,%s,%s\n", j, fmtFloat(job.Arrival), p, fmtFloat(d),
					job.Group, fmtFloat(job.Beta), fmtFloat(start))
			}
		}
	}
	return bw.Flush()
}

// fmtFloat formats v with the fewest digits that read back exactly.
func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
