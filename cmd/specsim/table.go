package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// writeTable prints the cluster results: one row per policy, then the gain
// over SRPT by job size.
func writeTable(w io.Writer, rows []clusterResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean\tp50\tp90\tp99\tvs SRPT\tvs Fair\tslowed\tavg slow\tworst\tutil\tcopies\twasted\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t%s\t%s\t%s\t%.3f\t%d\t%s\t\n",
			r.Policy, r.Mean, r.P50, r.P90, r.P99,
			pct(r.GainSRPT), pct(r.GainFair), pct(r.SlowedFrac), pct(r.SlowdownMean), pct(r.SlowdownWorst),
			r.Utilisation, r.Copies, pct(r.WastedFrac))
	}
	tw.Flush()
	if len(rows) == 0 || len(rows[0].Bins) == 0 {
		return
	}
	fmt.Fprintln(w, "\ngain over SRPT by job size (tasks):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"policy"}
	for _, b := range rows[0].Bins {
		if b.Hi == nil {
			head = append(head, fmt.Sprintf(">%d (%d jobs)", b.Lo-1, b.Jobs))
		} else {
			head = append(head, fmt.Sprintf("%d–%d (%d jobs)", b.Lo, *b.Hi, b.Jobs))
		}
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range rows {
		cells := []string{r.Policy}
		for _, b := range r.Bins {
			if b.Gain == nil {
				cells = append(cells, "–")
			} else {
				cells = append(cells, pct(*b.Gain))
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	tw.Flush()
	fmt.Fprintln(w, `
vs SRPT, vs Fair: reduction of the mean completion time against srpt and fair.
slowed: jobs completing later than under fair; avg slow, worst: by how much.
util: busy slot-time over capacity; copies: speculative copies and clones;
wasted: share of the busy slot-time held by copies that were killed.`)
}

// pct formats a fraction as a percentage with one decimal.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
