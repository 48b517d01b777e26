package plot

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// d = 6, t_p = 0 (ρ* = 0.84): a sweep's measured delays.
func testDelayPlot() *DelayPlot {
	bound := func(r float64) float64 {
		if r >= 0.84 {
			return math.NaN()
		}
		return 3.2 + 30*r*r/(1-r/0.84)
	}
	fixed := DelayCurve{Name: "fixed intervals"}
	hw := DelayCurve{Name: "hardware intervals"}
	for i, r := range []float64{0.1, 0.3, 0.5, 0.7, 0.8, 0.86} {
		fixed.Points = append(fixed.Points, DelayPoint{Rho: r, Delay: []float64{3.54, 4.69, 6.71, 13.06, 32.17, 294}[i], CI95: 0.1 * float64(i+1), Stable: r < 0.84})
		hw.Points = append(hw.Points, DelayPoint{Rho: r, Delay: []float64{2.97, 3.70, 5.03, 8.59, 15.69, 34.08}[i], CI95: 0.05 * float64(i+1), Stable: true})
	}
	return &DelayPlot{Title: "Dynamic broadcasting, hypercube d = 6", Curves: []DelayCurve{fixed, hw}, Bound: bound, Low: func(r float64) float64 { return 0.9 * bound(r) }, Threshold: 0.84, Marks: []DelayMark{{0.913, "hardware intervals: queues grow above 0.913"}}}
}

func TestDelayPlotSave(t *testing.T) {
	dir := t.TempDir()
	dp := testDelayPlot()
	for _, name := range []string{"d.svg", "d.png"} {
		if err := dp.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	doc := readSVG(t, filepath.Join(dir, "d.svg"))
	for _, want := range []string{"stability threshold ρ* = 0.84000", "queues grow above 0.913", "Eq. 4.1 upper bound", "fixed intervals: queues grew", "hardware intervals", "load ρ = λNX"} {
		if !doc.hasText(want) {
			t.Errorf("the SVG has no %q", want)
		}
	}
	png, err := os.ReadFile(filepath.Join(dir, "d.png"))
	if err != nil || len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Errorf("PNG: %d bytes, %v", len(png), err)
	}
	if out := os.Getenv("DYNB_PLOT"); out != "" { // (for looking at it)
		if err := dp.Save(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDelayPlotScale: the delay axis is logarithmic when asked for (its
// label says so, its ticks are spaced by their logarithm) and linear when
// asked for.
func TestDelayPlotScale(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []Scale{ScaleLog, ScaleLinear} {
		dp := testDelayPlot()
		dp.Scale = s
		name := filepath.Join(dir, string(s)+".svg")
		if err := dp.Save(name); err != nil {
			t.Fatal(err)
		}
		doc := readSVG(t, name)
		doc.axesScaled(t, s == ScaleLog)
		if doc.hasText("log scale") != (s == ScaleLog) {
			t.Errorf("%s: %q", s, doc.texts)
		}
	}
}
