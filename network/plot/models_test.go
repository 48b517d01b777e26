package plot

import (
	"path/filepath"
	"testing"
)

// TestModelPlotSave: the SVG names every line and point set and puts the
// points where their values say.
func TestModelPlotSave(t *testing.T) {
	mp := &ModelPlot{Title: "Priority scheme, d = 6", XLabel: "load p0", YLabel: "throughput per node", XMax: 1,
		Curves: []ModelCurve{
			{Line: []XY{{0, 0}, {0.5, 1.2}, {1, 1.4}}, LineName: "k = 0, analysis", Points: []XY{{0.5, 1.19}, {1, 1.41}}, PointsName: "k = 0, simulation"},
			{Line: []XY{{0, 0}, {1, 1.7}}, LineName: "k = 1, analysis", Dashed: true},
			{Points: []XY{{0.2, 0.8}}, PointsName: "deflection, simulation"},
		}}
	dir := t.TempDir()
	name := filepath.Join(dir, "m.svg")
	if err := mp.Save(name); err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, name)
	for _, want := range []string{"Priority scheme, d = 6", "k = 0, analysis", "k = 0, simulation", "k = 1, analysis", "deflection, simulation", "load p0"} {
		if !doc.hasText(want) {
			t.Errorf("the SVG has no %q", want)
		}
	}
	if err := mp.Save(filepath.Join(dir, "m.png")); err != nil {
		t.Fatal(err)
	}
}
