package main

import (
	"errors"
	"image/color"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/specsched/specsched/sim"
)

// maxPoints bounds the points drawn per curve: the CDF is sampled at evenly
// spaced ranks, which keeps an SVG of a million jobs small.
const maxPoints = 400

// The plot's size: the axes take plotWidth, the legend the width of its
// longest name to their right.
const (
	plotWidth  = 8 * vg.Inch
	plotHeight = 5 * vg.Inch
	legendGap  = vg.Length(12) // points between the axes and the legend
)

// plotFormat is the image format of a -plot file name, from its extension
// in any case (cdf.SVG is an SVG), or "" when it is neither .svg nor .png.
func plotFormat(file string) string {
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case ".svg", ".png":
		return ext[1:]
	}
	return ""
}

// A plotOutput is the -plot file, opened before any work so that a path
// that cannot be written fails at once rather than after the simulation.
// An existing file is not truncated until the plot is written.
type plotOutput struct {
	f       *os.File
	created bool // the file did not exist: discard removes it
}

// openPlot opens file for writing, creating it if it does not exist.
func openPlot(file string) (*plotOutput, error) {
	_, statErr := os.Stat(file)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	return &plotOutput{f: f, created: errors.Is(statErr, fs.ErrNotExist)}, nil
}

// discard closes the file after a failed run, and removes it if openPlot
// created it; after plotCDF has closed it, it does nothing.
func (o *plotOutput) discard() {
	if o.f == nil {
		return
	}
	o.f.Close()
	if o.created {
		os.Remove(o.f.Name())
	}
	o.f = nil
}

// plotCDF draws the empirical CDF of job completion time of every row on a
// logarithmic time axis labelled xLabel and writes it to out, in the format
// of its name's extension (plotFormat), and closes it; on an error the
// caller discards out. Each policy has its own colour and dash pattern
// (policyStyle), and the legend stands to the right of the axes, outside
// the curves.
func plotCDF(out *plotOutput, rows []clusterResult, xLabel string) error {
	p, legend, err := cdfPlot(rows, xLabel)
	if err != nil {
		return err
	}
	width := plotWidth + legendGap + legendWidth(&legend)
	c, err := draw.NewFormattedCanvas(width, plotHeight, plotFormat(out.f.Name()))
	if err != nil {
		return err
	}
	drawCDF(draw.New(c), p, &legend)
	if err := out.f.Truncate(0); err != nil {
		return err
	}
	if _, err := c.WriteTo(out.f); err != nil {
		return err
	}
	err = out.f.Close()
	out.f = nil
	return err
}

// cdfPlot returns the plot of the rows' CDFs and, apart, their legend.
func cdfPlot(rows []clusterResult, xLabel string) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = "Job completion time"
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "fraction of jobs completed"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(ticks125)
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(36) // long enough to show a dash pattern
	for i, r := range rows {
		c := sim.Completions(nil, r.result)
		slices.Sort(c)
		line, err := plotter.NewLine(cdfPoints(c))
		if err != nil {
			return nil, legend, err
		}
		line.StepStyle = plotter.PostStep // an empirical CDF is a step function
		line.Color, line.Dashes = policyStyle(styleIndex(rows, i))
		line.Width = vg.Points(1.5)
		p.Add(line)
		legend.Add(r.Policy, line)
	}
	return p, legend, nil
}

// cdfPoints are the corners of the empirical CDF of the sorted times c
// (not empty), drawn with plotter.PostStep — from each point horizontally
// to the next one's time, then up to its value: (c[0], 0), then
// (c[k], (k+1)/n), the CDF just after c[k], for every step-th rank k and
// the last, step = max(1, n/maxPoints). With n ≤ maxPoints that is the
// CDF exactly; otherwise a drawn value is below the CDF by at most
// (step−1)/n < 1/maxPoints. O(n/step) points.
func cdfPoints(c []float64) plotter.XYs {
	n := len(c)
	step := max(1, n/maxPoints)
	pts := plotter.XYs{{X: positive(c[0]), Y: 0}}
	for k := 0; k < n; k += step {
		pts = append(pts, plotter.XY{X: positive(c[k]), Y: float64(k+1) / float64(n)})
	}
	if (n-1)%step != 0 {
		pts = append(pts, plotter.XY{X: positive(c[n-1]), Y: 1})
	}
	return pts
}

// legendWidth is the width the legend's longest entry takes.
func legendWidth(l *plot.Legend) vg.Length {
	return l.Rectangle(draw.Canvas{}).Size().X
}

// drawCDF draws p on c and the legend to its right, level with the top of
// the axes; it returns the data area and the legend's extent.
func drawCDF(c draw.Canvas, p *plot.Plot, legend *plot.Legend) (data, key vg.Rectangle) {
	lw := legendWidth(legend)
	axes := draw.Crop(c, 0, -(legendGap + lw), 0, 0)
	p.Draw(axes)
	data = p.DataCanvas(axes).Rectangle
	side := draw.Crop(c, axes.Max.X-c.Min.X+legendGap, 0, 0, data.Max.Y-c.Max.Y)
	legend.Draw(side)
	return data, legend.Rectangle(side)
}

// styleIndex is the style of rows[i]'s policy: a preset's index in
// sim.Policies, so that a policy looks the same in every plot whatever
// -policies names; a combination allocator+rule takes the next indices in
// the order of the rows.
func styleIndex(rows []clusterResult, i int) int {
	presets := sim.Policies()
	for k, p := range presets {
		if p.String() == rows[i].Policy {
			return k
		}
	}
	combos := 0
	for _, r := range rows[:i] {
		if !slices.ContainsFunc(presets, func(p sim.Preset) bool { return p.String() == r.Policy }) {
			combos++
		}
	}
	return len(presets) + combos
}

// plotColors are twelve colours that tell apart on screen and on paper
// (matplotlib's "tab10" qualitative palette, then black and navy).
var plotColors = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xff, 0x7f, 0x0e, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
	{0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xbc, 0xbd, 0x22, 0xff},
	{0x17, 0xbe, 0xcf, 0xff}, {0x00, 0x00, 0x00, 0xff}, {0x00, 0x00, 0x80, 0xff},
}

// plotDashes are eleven dash patterns (on, off, … in points), solid first.
var plotDashes = [][]float64{
	{}, {6, 3}, {2, 2}, {8, 3, 2, 3}, {12, 4}, {4, 2, 1, 2, 1, 2},
	{1, 3}, {10, 3, 3, 3, 3, 3}, {5, 5}, {16, 4, 4, 4}, {3, 2, 8, 2},
}

// policyStyle is the colour and dash pattern of style index i. With 12
// colours and 11 patterns (coprime), the first 11 indices — the presets —
// differ in both, and the first 132 in at least one.
func policyStyle(i int) (color.Color, []vg.Length) {
	var dashes []vg.Length
	for _, d := range plotDashes[i%len(plotDashes)] {
		dashes = append(dashes, vg.Points(d))
	}
	return plotColors[i%len(plotColors)], dashes
}

// ticks125 marks a logarithmic axis over [lo, hi]: labels at 1, 2 and 5
// times each power of ten, unlabelled minor ticks at the other integer
// multiples. Over more than six decades only the powers of ten are
// labelled; a range too narrow for two labels gets plot.DefaultTicks, and
// an empty one a single label.
func ticks125(lo, hi float64) []plot.Tick {
	if !(hi > lo) { // plot widens an empty range first; DefaultTicks panics on one
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', -1, 64)}}
	}
	if !(lo > 0) || math.IsInf(hi, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	first, last := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	labelled := func(m int) bool { return m == 1 || m == 2 || m == 5 }
	if last-first > 6 {
		labelled = func(m int) bool { return m == 1 }
	}
	var ticks []plot.Tick
	labels := 0
	const slack = 1e-9 // a tick at an end of the range that rounding moved off it
	for e := first; e <= last; e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, e)
			if e < 0 {
				v = float64(m) / math.Pow(10, -e) // 0.3, not 0.30000000000000004
			}
			if v < lo*(1-slack) || v > hi*(1+slack) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled(m) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
				labels++
			}
			ticks = append(ticks, t)
		}
	}
	if labels < 2 {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	return ticks
}

// positive keeps a completion time on the log axis (a job of zero duration
// cannot be drawn there).
func positive(x float64) float64 { return max(x, 1e-9) }
