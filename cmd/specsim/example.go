package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/specsched/specsched/sim"
)

const exampleSummary = `Runs the worked example of the Hopper thesis (§2, Table 2.1, Figures
2.1–2.3) on 6 slots: job A with tasks of 8, 3, 3, 3 time units, job B with
6, 6, 3, 3, 1, 1, every speculative copy taking 2 (1 for B5, B6), copies made
when t_rem > t_new. Prints each policy's completion times of A and B and,
where the thesis has a figure, its caption's values.

Figures 2.1 and 2.3 judge a task a straggler as soon as it starts; Figure
2.2's vacant slot needs a detection delay of one time unit (see the sim
package's tests for the schedules derived by hand).`

// exampleRow is one policy's outcome on the thesis's example.
type exampleRow struct {
	Policy    string      `json:"policy"`
	Detect    float64     `json:"detect_after"` // time units a task runs before it can be judged a straggler
	A         float64     `json:"a"`
	B         float64     `json:"b"`
	timeStats             // of the two completion times
	Figure    string      `json:"figure,omitempty"`
	Thesis    *[2]float64 `json:"thesis,omitempty"`
	Note      string      `json:"note,omitempty"` // what a row without a figure shows
}

var exampleRuns = []struct {
	policy sim.Preset
	detect float64 // fraction of t_new = 2
	figure string
	thesis *[2]float64
	note   string
}{
	{sim.SRPT, 0, "", nil, ""},
	{sim.Fair, 0, "", nil, ""},
	{sim.SRPTBestEffort, 0, "2.1a", &[2]float64{5, 8}, ""},
	{sim.FairBestEffort, 0, "2.1b", &[2]float64{6, 8}, ""},
	{sim.SRPTBudgeted, 0.5, "2.2a", &[2]float64{3, 7}, ""},
	{sim.FairBudgeted, 0.5, "2.2b", &[2]float64{6, 8}, ""},
	{sim.Hopper, 0, "2.3", &[2]float64{3, 6}, ""},
	{sim.HopperEps, 0, "", nil, ""},
	{sim.HopperDAG, 0, "", nil, ""},
	{sim.HopperHetero, 0, "", nil, ""},
	{sim.SREWC, 0, "", nil, ""},
	// Hopper under Figure 2.2's detection delay: its head start in Figure
	// 2.3 needs prompt detection (derived by hand in sim's
	// example_thesis_test.go).
	{sim.Hopper, 0.5, "", nil, "Figure 2.3 with Figure 2.2's delay (below)"},
}

// exampleLegend explains the table's columns and the rows without a figure.
const exampleLegend = `
detect after: time units a task runs before it can be judged a straggler
(t_new = 2). srpt and fair never speculate; the thesis has no figure for
hopper-eps, hopper-dag, hopper-hetero and srewc. Figure 2.2 needs a delay of 1
(its slot 6 is vacant from time 0 to 3). The last row runs Hopper with that
delay: A cannot copy A1 at time 0, so its fifth slot goes to B, and from time
3 Algorithm 1 gives A (one task left) one slot: A1 is never copied and A ends
at 8. Figure 2.3's head start needs prompt detection.`

func runExample(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("example", exampleSummary, stderr)
	jsonOut := jsonFlag(fs, "run")
	if err := parse(fs, args); err != nil {
		return err
	}
	var rows []exampleRow
	for _, ex := range exampleRuns {
		cfg := sim.DefaultConfig(ex.policy, 6)
		cfg.Budget = 2
		cfg.Speculation = sim.Speculation{Estimator: sim.Oracle, Detect: ex.detect}
		r, err := sim.Simulate(sim.ThesisExample(), cfg)
		if err != nil {
			return err
		}
		a, b := r.Jobs[0].Completion, r.Jobs[1].Completion
		s := sim.Summarize(r)
		rows = append(rows, exampleRow{Policy: ex.policy.String(), Detect: 2 * ex.detect, A: a, B: b,
			timeStats: s.Summary, Figure: ex.figure, Thesis: ex.thesis, Note: ex.note})
	}
	if *jsonOut {
		return writeJSON(stdout, rows)
	}
	fmt.Fprintln(stdout, "The thesis's example (Table 2.1) on 6 slots: completion times of jobs A and B")
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "policy\tdetect after\tA\tB\tmean\tthesis")
	for _, r := range rows {
		thesis := r.Note
		if r.Thesis != nil {
			thesis = fmt.Sprintf("Figure %s: (%g, %g)", r.Figure, r.Thesis[0], r.Thesis[1])
		}
		fmt.Fprintf(tw, "%s\t%g\t%g\t%g\t%g\t%s\n", r.Policy, r.Detect, r.A, r.B, r.Mean, thesis)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(stdout, exampleLegend)
	return err
}
