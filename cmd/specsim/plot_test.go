package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/specsched/specsched/sim"
)

// TestTicks125: the log axis is labelled at 1, 2 and 5 times each power of
// ten (issue 19: only 1 and 10 were labelled), worked out by hand for the
// default run's range; many decades label only the powers of ten.
func TestTicks125(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lo, hi        float64
		labels, minor string
	}{
		{0.35, 200, "0.5 1 2 5 10 20 50 100 200", "0.4 0.6 0.7 0.8 0.9 3 4 6 7 8 9 30 40 60 70 80 90"},
		{1, 10, "1 2 5 10", "3 4 6 7 8 9"},
		{0.02, 0.3, "0.02 0.05 0.1 0.2", "0.03 0.04 0.06 0.07 0.08 0.09 0.3"},
		{1e-9, 100, "1e-09 1e-08 1e-07 1e-06 1e-05 0.0001 0.001 0.01 0.1 1 10 100", ""},
	} {
		var labels, minor []string
		for _, tk := range ticks125(tc.lo, tc.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			} else if tc.minor != "" {
				minor = append(minor, strconv.FormatFloat(tk.Value, 'g', -1, 64))
			}
		}
		if got := strings.Join(labels, " "); got != tc.labels {
			t.Errorf("ticks125(%g, %g) labels %q, want %q", tc.lo, tc.hi, got, tc.labels)
		}
		if got := strings.Join(minor, " "); got != tc.minor {
			t.Errorf("ticks125(%g, %g) minor ticks %q, want %q", tc.lo, tc.hi, got, tc.minor)
		}
	}
	// Too narrow for two labels: the default ticker's, which labels something.
	for _, r := range [][2]float64{{1.1, 1.9}, {0, 5}} {
		ticks := ticks125(r[0], r[1])
		if !slices.Equal(ticks, plot.DefaultTicks{}.Ticks(r[0], r[1])) {
			t.Errorf("ticks125(%g, %g) = %v, want plot.DefaultTicks's", r[0], r[1], ticks)
		}
	}
	if ticks := ticks125(3, 3); !slices.Equal(ticks, []plot.Tick{{Value: 3, Label: "3"}}) {
		t.Errorf("ticks125(3, 3) = %v, want one tick labelled 3", ticks)
	}
}

// TestPlotStyles: the eleven presets differ pairwise in colour and in dash
// pattern (issue 19: fair and hopper-hetero were both red), a preset keeps
// its style whatever else is plotted, and combinations get styles of their
// own.
func TestPlotStyles(t *testing.T) {
	t.Parallel()
	presets := sim.Policies()
	if len(presets) > len(plotDashes) || len(presets) > len(plotColors) {
		t.Fatalf("%d presets, %d colours, %d dash patterns", len(presets), len(plotColors), len(plotDashes))
	}
	rows := make([]clusterResult, len(presets))
	for i, p := range presets {
		rows[i].Policy = p.String()
	}
	rows = append(rows, clusterResult{Policy: "fair+plan"}, clusterResult{Policy: "srewc+launch"})
	type style struct{ color, dash string }
	seen := map[string]string{}
	colours, dashes := map[string]string{}, map[string]string{}
	for i, r := range rows {
		c, d := policyStyle(styleIndex(rows, i))
		s := style{fmt.Sprint(c), fmt.Sprint(d)}
		if other, ok := seen[s.color+s.dash]; ok {
			t.Errorf("%s and %s share colour %s and dashes %s", r.Policy, other, s.color, s.dash)
		}
		seen[s.color+s.dash] = r.Policy
		if i < len(presets) {
			if other, ok := colours[s.color]; ok {
				t.Errorf("presets %s and %s share colour %s", r.Policy, other, s.color)
			}
			if other, ok := dashes[s.dash]; ok {
				t.Errorf("presets %s and %s share dashes %s", r.Policy, other, s.dash)
			}
			colours[s.color], dashes[s.dash] = r.Policy, r.Policy
		}
	}
	// hopper alone is drawn as in the full plot.
	sub := []clusterResult{{Policy: "hopper"}, {Policy: "fair+plan"}}
	if styleIndex(sub, 0) != styleIndex(rows, 2) || styleIndex(sub, 1) != len(presets) {
		t.Errorf("styles of a subset: %d, %d", styleIndex(sub, 0), styleIndex(sub, 1))
	}
}

// TestPlotLegendOutside: the legend lies to the right of the data area,
// not over the curves (issue 19: it covered their bottom right), and fits
// on the canvas plotCDF makes.
func TestPlotLegendOutside(t *testing.T) {
	t.Parallel()
	rows := clusterRows(t, small)
	p, legend, err := cdfPlot(rows, "x")
	if err != nil {
		t.Fatal(err)
	}
	width := plotWidth + legendGap + legendWidth(&legend)
	c := draw.NewCanvas(new(recorder.Canvas), width, plotHeight)
	data, key := drawCDF(c, p, &legend)
	if !(key.Min.X >= data.Max.X+legendGap-0.01) {
		t.Errorf("legend %v overlaps the data area %v", key, data)
	}
	if key.Max.X > width+0.01 || key.Min.Y < 0 || key.Max.Y > data.Max.Y+0.01 {
		t.Errorf("legend %v leaves the canvas %v×%v or rises above the axes %v", key, width, plotHeight, data)
	}
	if data.Max.X-data.Min.X < plotWidth/2 {
		t.Errorf("data area %v, less than half the plot", data)
	}
}

// clusterRows runs the cluster command's pipeline on args and returns its
// rows, results included.
func clusterRows(t *testing.T, args []string) []clusterResult {
	t.Helper()
	f, err := parseClusterFlags(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, err := f.workload()
	if err != nil {
		t.Fatal(err)
	}
	specs := withBaselines(f.specs)
	cfgs, err := f.configs(specs)
	if err != nil {
		t.Fatal(err)
	}
	results, err := runAll(jobs, specs, cfgs, newProgress(io.Discard, false, 0))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := compare(specs, results)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPlotPathFirst: the -plot file is checked before any work (it was
// written after the whole simulation, whose table was then lost): a bad
// extension exits 2 and a path that cannot be created exits 1 — before
// -beta 0.5, which the workload rejects, is even looked at. The extension
// is read in any case, and a file created for a run that then fails is
// removed, while an existing file is left as it was.
func TestPlotPathFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.svg")
	if err := os.WriteFile(existing, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-plot", filepath.Join(dir, "no", "such", "x.png"), "-beta", "0.5"}, 1, "specsim cluster: -plot: open "},
		{[]string{"-plot", filepath.Join(dir, "x.gif"), "-beta", "0.5"}, 2, ".svg or .png"},
		{[]string{"-plot", filepath.Join(dir, "x"), "-beta", "0.5"}, 2, ".svg or .png"},
		{[]string{"-plot", filepath.Join(dir, "new.svg"), "-beta", "0.5"}, 2, "-beta"},
		{[]string{"-plot", existing, "-beta", "0.5"}, 2, "-beta"},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.msg) {
			t.Errorf("specsim %v: exit %d, stdout %q, stderr %q; want exit %d mentioning %q", tc.args, code, out, errOut, tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.svg")); !os.IsNotExist(err) {
		t.Errorf("new.svg of a failed run: %v; want it removed", err)
	}
	if data, err := os.ReadFile(existing); string(data) != "keep" {
		t.Errorf("old.svg after a failed run: %q, %v; want it untouched", data, err)
	}
	// Upper-case extensions: a PNG and an SVG, by their first bytes.
	for file, magic := range map[string]string{"cdf.PNG": "\x89PNG\r\n", "cdf.Svg": "<?xml"} {
		path := filepath.Join(dir, file)
		args := append([]string{"-policies", "hopper", "-plot", path}, small...)
		if code, _, errOut := runCmd(t, args...); code != 0 {
			t.Fatalf("specsim %v: exit %d: %s", args, code, errOut)
		}
		if data, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(data), magic) {
			t.Errorf("%s: %.8q, %v; want it to start %q", file, data, err, magic)
		}
	}
	// An existing file is overwritten by a run that succeeds.
	args := append([]string{"-policies", "hopper", "-plot", existing}, small...)
	if code, _, errOut := runCmd(t, args...); code != 0 {
		t.Fatalf("specsim %v: exit %d: %s", args, code, errOut)
	}
	if data, _ := os.ReadFile(existing); !strings.HasPrefix(string(data), "<?xml") {
		t.Errorf("old.svg after a run: %.8q; want an SVG", data)
	}
}

// TestCDFPoints: drawn as plotter.PostStep draws them (horizontally from
// each point to the next one's time, then vertically), cdfPoints trace the
// empirical CDF F(x) = #{c ≤ x}/n, counted here by brute force: exactly
// for n ≤ maxPoints (ties included), and below it by less than
// 1/maxPoints for a larger n. The curve starts at 0 and ends at 1.
func TestCDFPoints(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 7, maxPoints, maxPoints + 1, 5000} {
		c := make([]float64, n)
		for i := range c {
			c[i] = float64(1 + rng.IntN(max(2, n/3))) // ties
		}
		slices.Sort(c)
		ecdf := func(x float64) float64 {
			k := 0
			for _, v := range c {
				if v <= x {
					k++
				}
			}
			return float64(k) / float64(n)
		}
		pts := cdfPoints(c)
		if first, last := pts[0], pts[len(pts)-1]; first.X != c[0] || first.Y != 0 || last.X != c[n-1] || last.Y != 1 {
			t.Errorf("n = %d: from %v to %v, want from (%g, 0) to (%g, 1)", n, first, last, c[0], c[n-1])
		}
		tol := 0.0
		if n > maxPoints {
			tol = 1.0 / maxPoints
		}
		for i := 1; i < len(pts)-1; i++ {
			p, next := pts[i], pts[i+1]
			if p.X > next.X || p.Y > next.Y {
				t.Fatalf("n = %d: points %d, %d: %v then %v, want both coordinates non-decreasing", n, i, i+1, p, next)
			}
			if p.X == next.X {
				continue // a vertical step
			}
			// The horizontal run from p to next is at p.Y, on [p.X, next.X),
			// where the CDF rises from F(p.X) to F just below next.X.
			below := 0
			for _, v := range c {
				if v < next.X {
					below++
				}
			}
			lo, hi := ecdf(p.X), float64(below)/float64(n)
			if p.Y > lo || hi-p.Y > tol {
				t.Errorf("n = %d: drawn %g on [%g, %g), where the CDF runs from %g to %g", n, p.Y, p.X, next.X, lo, hi)
			}
		}
	}
}
