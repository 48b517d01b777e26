package plot

import (
	"math"
	"path/filepath"
	"testing"
)

// A further bound (the folded cube's eq. 6) is drawn and named in the
// legend; where it is infinite (at the threshold) it is left out.
func TestDelayPlotMoreBounds(t *testing.T) {
	dp := testDelayPlot()
	dp.More = []DelayBound{{Name: "paper eq. 6", F: func(r float64) float64 {
		if r >= dp.Threshold {
			return math.Inf(1)
		}
		return 3 / (dp.Threshold - r)
	}}}
	name := filepath.Join(t.TempDir(), "d.svg")
	if err := dp.Save(name); err != nil {
		t.Fatal(err)
	}
	if !readSVG(t, name).hasText("paper eq. 6") {
		t.Error("the SVG has no \"paper eq. 6\"")
	}
}
