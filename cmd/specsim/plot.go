package main

import (
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/specsched/specsched/sim"
)

// maxPoints bounds the points drawn per curve: the CDF is sampled at evenly
// spaced ranks, which keeps an SVG of a million jobs small.
const maxPoints = 400

// plotCDF draws the empirical CDF of job completion time of every row on a
// logarithmic time axis labelled xLabel and saves it to file (.svg or .png).
func plotCDF(file string, rows []clusterResult, xLabel string) error {
	p := plot.New()
	p.Title.Text = "Job completion time"
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "fraction of jobs completed"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = false
	p.Legend.Left = false
	p.Add(plotter.NewGrid())
	for i, r := range rows {
		c := sim.Completions(nil, r.result)
		slices.Sort(c)
		n := len(c)
		step := max(1, n/maxPoints)
		var pts plotter.XYs
		for k := 0; k < n; k += step {
			pts = append(pts, plotter.XY{X: positive(c[k]), Y: float64(k+1) / float64(n)})
		}
		pts = append(pts, plotter.XY{X: positive(c[n-1]), Y: 1})
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i / 7)
		line.Width = vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(r.Policy, line)
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}

// positive keeps a completion time on the log axis (a job of zero duration
// cannot be drawn there).
func positive(x float64) float64 { return max(x, 1e-9) }
