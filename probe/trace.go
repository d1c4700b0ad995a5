package probe

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/specsched/specsched"
)

// A Job is one job of a workload: when it is submitted, the actual duration
// of each of its tasks, and the scheduler's estimate of its mean task
// duration, from which it is classified and ordered.
type Job struct {
	Submit    float64   // submission time, seconds
	Durations []float64 // actual task durations, seconds, one per task
	EstTask   float64   // estimated mean task duration, seconds
}

// A TraceError reports a malformed line of a trace (specsched.TraceError,
// with Func "probe.ParseTrace"): its 1-based line number, the field
// ("submit_time", "n_tasks", "mean_duration", "d3", "line" for a line
// without the three leading fields, "" for a line too long to read), the
// offending text and what was wrong.
type TraceError = specsched.TraceError

// traceErr returns the TraceError of ParseTrace for line, field and text.
func traceErr(line int, field, text, reason string) error {
	return &TraceError{Func: "probe.ParseTrace", Line: line, Field: field, Text: text, Reason: reason}
}

// maxTraceLine bounds one line of a trace, its newline not counted (a job
// of a million tasks fits): 64 MiB.
const maxTraceLine = 64 << 20

// ParseTrace reads a workload in the text format of the public Hawk/Eagle
// simulator, one job per line:
//
//	submit_time n_tasks mean_duration d1 … dn
//
// fields separated by blanks: the job's submission time, its number of
// tasks n, the estimated mean task duration (the scheduler's estimate,
// Job.EstTask) and the n actual task durations, all in seconds. Blank lines
// and lines starting with '#' are skipped, and so is a UTF-8 byte-order
// mark at the start of the input. Jobs are returned in file order; the
// simulator orders them by submission time.
//
// Complexity: O(size of the input).
//
// Errors: a line with fewer than 3 fields, a time or duration that is not a
// finite number ≥ 0, an n_tasks that is not an integer ≥ 1, or a number of
// durations other than n_tasks returns a *TraceError with the line number;
// a read error is returned as is. So does a line longer than 64 MiB
// (67108864 bytes, the newline not counted; the message is "line longer
// than 67108864 bytes (64 MiB)", as sim.ParseTrace's for its own bound):
// ParseTrace stops reading there, so a file that is one huge line costs
// O(64 MiB) memory before it is rejected.
func ParseTrace(r io.Reader) ([]Job, error) {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3) // a UTF-8 byte-order mark, as some editors write
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), maxTraceLine+1) // + the newline
	var jobs []Job
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		job, err := parseTraceLine(line, strings.Fields(text))
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &TraceError{Func: "probe.ParseTrace", Line: line + 1, Reason: longerThan("line", maxTraceLine)}
		}
		return nil, err
	}
	return jobs, nil
}

// longerThan is the reason of an error on a line (or record) longer than max
// bytes, worded as sim.ParseTrace words it.
func longerThan(what string, max int) string {
	return fmt.Sprintf("%s longer than %d bytes (%d MiB)", what, max, max>>20)
}

func parseTraceLine(line int, f []string) (Job, error) {
	if len(f) < 3 {
		return Job{}, traceErr(line, "line", strings.Join(f, " "), "want submit_time n_tasks mean_duration d1 … dn")
	}
	num := func(field, text string) (float64, error) {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return 0, traceErr(line, field, text, "must be a finite number ≥ 0")
		}
		return v, nil
	}
	submit, err := num("submit_time", f[0])
	if err != nil {
		return Job{}, err
	}
	n, perr := strconv.Atoi(f[1])
	if perr != nil || n < 1 {
		return Job{}, traceErr(line, "n_tasks", f[1], "must be an integer ≥ 1")
	}
	est, err := num("mean_duration", f[2])
	if err != nil {
		return Job{}, err
	}
	if len(f)-3 != n {
		return Job{}, traceErr(line, "n_tasks", f[1], fmt.Sprintf("line has %d durations", len(f)-3))
	}
	durations := make([]float64, n)
	for i := range durations {
		if durations[i], err = num("d"+strconv.Itoa(i+1), f[3+i]); err != nil {
			return Job{}, err
		}
	}
	return Job{Submit: submit, Durations: durations, EstTask: est}, nil
}

// WriteTrace writes jobs in ParseTrace's format, one line per job, numbers
// in the shortest form that reads back exactly. It returns the first write
// error. Jobs are not validated: write what ParseTrace would accept.
func WriteTrace(w io.Writer, jobs []Job) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, j := range jobs {
		buf = strconv.AppendFloat(buf[:0], j.Submit, 'g', -1, 64)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(len(j.Durations)), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, j.EstTask, 'g', -1, 64)
		for _, d := range j.Durations {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, d, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
