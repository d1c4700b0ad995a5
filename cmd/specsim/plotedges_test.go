package main

// Tests of the plot's edges that the mutation pass of issue 19 found
// unchecked: the canvas size, where the legend is drawn, the last point of
// a sampled CDF and the ends of ticks125.

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestPlotSize: the SVG plotCDF writes is 5 inches (360 pt) high and 8
// inches (576 pt) of axes wide plus the 12 pt gap plus the legend's width.
func TestPlotSize(t *testing.T) {
	t.Parallel()
	rows := clusterRows(t, small)
	_, legend, err := cdfPlot(rows, "x")
	if err != nil {
		t.Fatal(err)
	}
	lw := float64(legendWidth(&legend))
	if lw < 20 {
		t.Fatalf("legend width %g pt", lw)
	}
	file := filepath.Join(t.TempDir(), "cdf.svg")
	out, err := openPlot(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := plotCDF(out, rows, "x"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no <svg width height> in %.300s", b)
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	if math.Abs(w-(8*72+12+lw)) > 0.01 || h != 5*72 {
		t.Errorf("SVG %g × %g pt, want %g × 360", w, h, 8*72+12+lw)
	}
}

// TestPlotLegendDrawn: the legend's entries are drawn where the canvas
// plotCDF sizes leaves room for them — their thumbnails start legendGap
// right of the axes' part of the canvas and the widest name ends at the
// canvas's right edge — also on a canvas that does not start at x = 0.
// (drawCDF's returned extent is plot.Legend.Rectangle's, which for a
// Left legend is anchored at the right edge whatever the drawing does; so
// the drawn text is checked, from a recorder.)
func TestPlotLegendDrawn(t *testing.T) {
	t.Parallel()
	rows := clusterRows(t, small)
	p, legend, err := cdfPlot(rows, "x")
	if err != nil {
		t.Fatal(err)
	}
	lw := legendWidth(&legend)
	width := plotWidth + legendGap + lw
	const offX, offY = 50, 20
	rec := new(recorder.Canvas)
	c := draw.Crop(draw.NewCanvas(rec, offX+width, offY+plotHeight), offX, 0, offY, 0)
	drawCDF(c, p, &legend)
	names := map[string]bool{}
	for _, r := range rows {
		names[r.Policy] = true
	}
	em := legend.TextStyle.Rectangle(" ").Max.X
	left, right := vg.Length(math.Inf(1)), vg.Length(math.Inf(-1))
	drawn := 0
	for _, a := range rec.Actions {
		fs, ok := a.(*recorder.FillString)
		if !ok || !names[fs.String] {
			continue
		}
		drawn++
		left = min(left, fs.Point.X-legend.ThumbnailWidth-em)
		right = max(right, fs.Point.X+legend.TextStyle.Rectangle(fs.String).Max.X)
	}
	if drawn != len(rows) {
		t.Fatalf("%d legend entries drawn, want %d", drawn, len(rows))
	}
	wantLeft := offX + plotWidth + legendGap
	if math.Abs(float64(left-wantLeft)) > 0.01 || math.Abs(float64(right-c.Max.X)) > 0.01 {
		t.Errorf("legend drawn over x ∈ [%v, %v], want [%v, %v]", left, right, wantLeft, c.Max.X)
	}
}

// TestCDFPointsLast: with n = 1201 times, step = ⌊1201/400⌋ = 3 and the
// ranks 0, 3, …, 1200 end on the last one, so no extra end point: 1 + 401
// points. With n = 1200 the ranks end at 1197 and (c[1199], 1) is added:
// 1 + 400 + 1. With n = 1199, step 2: ranks 0, 2, …, 1198, 1 + 600; with
// n = 800, step 2, ranks up to 798 and the end: 1 + 400 + 1; n = 801: 1 + 401.
func TestCDFPointsLast(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]int{1201: 402, 1200: 402, 1199: 601, 800: 402, 801: 402} {
		c := make([]float64, n)
		for i := range c {
			c[i] = float64(i + 1)
		}
		pts := cdfPoints(c)
		last := pts[len(pts)-1]
		if len(pts) != want || last.X != float64(n) || last.Y != 1 || pts[len(pts)-2].Y == 1 {
			t.Errorf("n = %d: %d points ending %v, %v; want %d ending (%d, 1) once", n, len(pts), pts[len(pts)-2], last, want, n)
		}
	}
}

// labels are the labelled ticks' labels.
func labels(ticks []plot.Tick) []string {
	var out []string
	for _, t := range ticks {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

// TestTicks125Ends: worked by hand — an empty range is one label, the
// value in full (0.35, not 0.3 or 0.4); exactly six decades keep the
// 1-2-5 labels (more than six would label only the powers of ten); two
// labels are enough (1 to 2: the ticks 1 and 2, not plot.DefaultTicks);
// and a tick lying within the relative slack 1e-9 of an end, the ends of
// the closed range [lo(1−slack), hi(1+slack)] included, is kept.
func TestTicks125Ends(t *testing.T) {
	t.Parallel()
	if got := ticks125(0.35, 0.35); len(got) != 1 || got[0].Value != 0.35 || got[0].Label != "0.35" {
		t.Errorf("ticks125(0.35, 0.35) = %v, want one tick labelled 0.35", got)
	}
	want6 := []string{"1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000", "5000",
		"10000", "20000", "50000", "100000", "200000", "500000", "1e+06"}
	if got := labels(ticks125(1, 1e6)); !slices.Equal(got, want6) {
		t.Errorf("labels over [1, 1e6]: %q, want %q", got, want6)
	}
	if got := ticks125(1, 2); !slices.Equal(got, []plot.Tick{{Value: 1, Label: "1"}, {Value: 2, Label: "2"}}) {
		t.Errorf("ticks125(1, 2) = %v, want 1 and 2 labelled", got)
	}
	const slack = 1e-9
	// lo with lo·(1−slack) == 2 exactly, hi with hi·(1+slack) == 50 exactly:
	// 2 and 50 lie on the ends of the widened range.
	lo := exactEnd(2, 1-slack)
	hi := exactEnd(50, 1+slack)
	got := ticks125(lo, hi)
	if len(got) == 0 || got[0].Value != 2 || got[0].Label != "2" || got[len(got)-1].Value != 50 || got[len(got)-1].Label != "50" {
		t.Errorf("ticks125(%v, %v) = %v, want from 2 to 50, both labelled", lo, hi, got)
	}
}

// exactEnd returns an x with x·f == v in floating point (f within 1e-8 of
// 1), searching the floats next to v/f.
func exactEnd(v, f float64) float64 {
	x := v / f
	for range 64 {
		switch p := x * f; {
		case p == v:
			return x
		case p < v:
			x = math.Nextafter(x, math.Inf(1))
		default:
			x = math.Nextafter(x, math.Inf(-1))
		}
	}
	panic("no exact end")
}
