package plot

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/sweep"
)

// point is a made-up result.
type point struct {
	lat, ci, acc float64
	sat          bool
}

// madeUp is a 4×4 mesh sweep (default config: 4-flit packets, 4-flit input
// buffers, 1-cycle links) of two curves over loads 0.1..0.5, whose packets
// pass 3.5 routers on average.
func madeUp(t *testing.T, curves ...[]point) *sweep.File {
	t.Helper()
	s, err := sweep.NewSpec("", []string{"topology.k=4"}, []string{"switching=wormhole,vct", "traffic.load=0.1:0.5:0.1"})
	if err != nil {
		t.Fatal(err)
	}
	f := &sweep.File{Format: sweep.Format, Sweep: *s}
	for c, pts := range curves {
		for j, p := range pts {
			i := c*5 + j
			r := &network.Result{Offered: 0.1 * float64(j+1), Throughput: p.acc, Hops: 3.5,
				Latency: network.Summary{Count: 1000, Mean: p.lat, CI95: p.ci}}
			r.Saturated = p.sat
			if math.IsNaN(p.lat) {
				r.Latency.Count = 0 // no packet measured: a null latency
			}
			f.Rows = append(f.Rows, sweep.NewRow(s, i, r))
		}
	}
	return f
}

var (
	wormhole = []point{{8, 0.2, 0.1, false}, {9, 0.3, 0.2, false}, {11, 0.5, 0.3, false}, {16, 1.5, 0.4, false}, {200, 20, 0.42, true}}
	vct      = []point{{8.5, 0.2, 0.1, false}, {10, 0.4, 0.2, false}, {14, 0.8, 0.3, false}, {29, 3, 0.38, true}, {150, 30, 0.37, true}}
)

// TestLatencySVG reads the latency plot's SVG elements: the clipped axis,
// the error bars, the off-scale arrows, the saturated rings, the zero-load
// line at the formula's value and the saturation throughputs in the legend.
func TestLatencySVG(t *testing.T) {
	f := madeUp(t, wormhole, vct)
	dir := t.TempDir()
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	xm, ym := doc.axes(t)

	// The zero-load latency by the closed form of docs/hardware.md: 3.5 routers, halfway
	// between 3 and 4; 4 flits.
	cfg, err := f.Sweep.Load(0)
	if err != nil {
		t.Fatal(err)
	}
	t0 := float64(network.ZeroLoadLatency(cfg, 3, 4)+network.ZeroLoadLatency(cfg, 4, 4)) / 2
	if t0 != 7.5 {
		t.Fatalf("zero-load latency %v, the closed form gives (3.5+1)·1 + 3 = 7.5", t0)
	}

	// The axis is clipped at 4·T0 rounded up to its next tick.
	top := ym.labels[len(ym.labels)-1]
	step := ym.labels[1] - ym.labels[0]
	if ym.labels[0] != 0 || top < ClipFactor*t0 || top >= ClipFactor*t0+step {
		t.Errorf("latency axis ticks %v: want 0 up to the first tick ≥ %v", ym.labels, ClipFactor*t0)
	}
	if !doc.hasText(fmt.Sprintf("(the axis ends at 4 × the zero-load latency, %g)", t0)) {
		t.Errorf("the legend does not say the axis is clipped: %q", doc.texts)
	}

	// The zero-load line spans the data area at T0.
	zl := doc.where(func(p svgPath) bool {
		return p.stroke == "#555555" && p.horizontal() && p.maxX-p.minX > xm.at(0.4)-xm.at(0)
	})
	if len(zl) != 1 || !near(zl[0].minY, ym.at(t0)) || !near(zl[0].minX, xm.at(0)) {
		t.Errorf("zero-load line: %+v, want one at y=%v", zl, ym.at(t0))
	}
	if !doc.hasText("zero-load latency 7.50 cycles (the closed form: no waiting)") {
		t.Errorf("no zero-load legend entry")
	}

	rings := doc.where(isRing)
	checkPoints(t, doc, xm, ym, rings, wormhole, vct)
	if len(rings) != 3+1 {
		t.Errorf("%d rings, want the 3 saturated points' and the legend's", len(rings))
	}
	for _, s := range []string{
		"switching wormhole: saturation throughput 0.420 (saturated from offered load 0.5)",
		"switching vct: saturation throughput 0.380 (saturated from offered load 0.4)",
		"saturated: accepted < offered (ringed)",
		fmt.Sprintf("latency above %g cycles (the axis ends at", top),
		"error bars: 95 % confidence interval of the mean",
		"Mean latency vs offered load: mesh k=4 n=2, uniform traffic, 4-flit packets",
	} {
		if !doc.hasText(s) {
			t.Errorf("no text %q in %q", s, doc.texts)
		}
	}

	// The accepted plot names the same saturation throughputs.
	doc = readSVG(t, filepath.Join(dir, "accepted-vs-offered.svg"))
	if !doc.hasText("switching vct: saturation throughput 0.380") || len(doc.where(isRing)) != 3+1 {
		t.Errorf("accepted plot: no saturation throughput or rings")
	}
}

// TestLatencyNotClipped: below 4·T0 everywhere the axis ends at the data
// and says nothing of clipping; without the formula (a multicast pattern
// here is not possible on a mesh, so shallow buffers on slow links) the
// clip is at 4× the lowest latency measured.
func TestLatencyNotClipped(t *testing.T) {
	low := []point{{8, 0.2, 0.1, false}, {9, 0.3, 0.2, false}, {11, 0.5, 0.3, false}, {16, 1.5, 0.4, false}, {20, 2, 0.5, false}}
	f := madeUp(t, low, low)
	dir := t.TempDir()
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	_, ym := doc.axes(t)
	if top := ym.labels[len(ym.labels)-1]; top < 22 || top > 30 || doc.hasText("axis ends") {
		t.Errorf("unclipped axis: ticks %v", ym.labels)
	}
	if !doc.hasText("switching wormhole: not saturated up to offered load 0.5") {
		t.Errorf("legend: %q", doc.texts)
	}

	f = madeUp(t, wormhole, vct)
	f.Sweep.Sets = append(f.Sweep.Sets, "link.latency=8")
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	doc = readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	if !doc.hasText("the axis ends at 4 × the lowest mean latency measured, 8") ||
		!doc.hasText("no zero-load line for 2 of 2 curves: buffers shallower than 8 flits do not pipeline") {
		t.Errorf("without the formula: %q", doc.texts)
	}
}

// checkPoints finds each made-up point of each curve in doc: an error bar
// (± ci95, cut at the axis' top) or, above the top, an arrow on the edge
// (below the arrows of earlier curves at the same load); a ring if
// saturated.
func checkPoints(t *testing.T, doc *svgDoc, xm, ym axisMap, rings []svgPath, curves ...[]point) {
	t.Helper()
	top := ym.labels[len(ym.labels)-1]
	stacked := map[int]int{}
	for c, pts := range curves {
		col := svgColor(c)
		bars := doc.where(func(p svgPath) bool { return p.stroke == col && p.width == 1.25 && p.vertical() })
		arrows := doc.where(func(p svgPath) bool { return p.fill == col && len(p.pts) == 7 })
		wantBars, wantArrows := 0, 0
		for j, p := range pts {
			x := xm.at(0.1 * float64(j+1))
			y := ym.at(p.lat)
			if p.lat > top {
				// An arrow on the top edge, no error bar; below the
				// arrows of earlier curves at the same load.
				wantArrows++
				y = ym.at(top) - float64(stacked[j])*offSpacing.Points()
				stacked[j]++
				if !hasArrow(arrows, x, y) {
					t.Errorf("curve %d point %d (latency %v): no arrow at the top edge", c, j, p.lat)
				}
			} else {
				// ± ci95, cut at the top.
				wantBars++
				lo, hi := ym.at(p.lat-p.ci), ym.at(min(p.lat+p.ci, top))
				if !hasBar(bars, x, lo, hi) {
					t.Errorf("curve %d point %d: no error bar %v..%v at x=%v among %+v", c, j, lo, hi, x, bars)
				}
			}
			if p.sat && !hasRing(rings, x, y) {
				t.Errorf("curve %d point %d is saturated but not ringed", c, j)
			}
		}
		if len(bars) != wantBars || len(arrows) != wantArrows {
			t.Errorf("curve %d: %d error bars, %d arrows; want %d, %d", c, len(bars), len(arrows), wantBars, wantArrows)
		}
	}
}

func hasBar(bars []svgPath, x, lo, hi float64) bool {
	for _, b := range bars {
		if near(b.minX, x) && near(b.minY, lo) && near(b.maxY, hi) {
			return true
		}
	}
	return false
}

// hasArrow: an arrow's wide points (its first and last but tip) lie on
// the point's y.
func hasArrow(arrows []svgPath, x, y float64) bool {
	for _, a := range arrows {
		if near(a.pts[0][0], x) && near(a.pts[1][1], y) && near(a.pts[6][1], y) {
			return true
		}
	}
	return false
}

func hasRing(rings []svgPath, x, y float64) bool {
	for _, r := range rings {
		if cx, cy := r.centre(); near(cx, x) && near(cy, y) {
			return true
		}
	}
	return false
}

// TestUnboundedPoint: a saturated point without a latency (its run stopped
// at run.max_backlog before a measured packet arrived) is an arrow on the
// top edge of the clipped axis, ringed, and the legend says why.
func TestUnboundedPoint(t *testing.T) {
	low := []point{{8, 0.2, 0.1, false}, {9, 0.3, 0.2, false}, {11, 0.5, 0.3, false}, {16, 1.5, 0.4, false}, {math.NaN(), 0, 0.42, true}}
	f := madeUp(t, low, low)
	dir := t.TempDir()
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	xm, ym := doc.axes(t)
	top := ym.labels[len(ym.labels)-1]
	if top != 30 {
		t.Errorf("axis ticks %v: want it clipped at 30 (4 × 7.5)", ym.labels)
	}
	for c := range 2 {
		arrows := doc.where(func(p svgPath) bool { return p.fill == svgColor(c) && len(p.pts) == 7 })
		y := ym.at(top) - float64(c)*offSpacing.Points()
		if len(arrows) != 1 || !hasArrow(arrows, xm.at(0.5), y) {
			t.Errorf("curve %d: arrows %+v, want one at (%v, %v)", c, arrows, xm.at(0.5), y)
		}
	}
	if len(doc.where(isRing)) != 2+1 {
		t.Errorf("the unbounded points are not ringed")
	}
	if !doc.hasText("latency above 30 cycles (the axis ends at 4 × the zero-load latency, 7.5), or none measured (the run stopped at run.max_backlog)") {
		t.Errorf("legend: %q", doc.texts)
	}
}

// sixCurves is a sweep of the six arbiters over loads 0.1..0.7, each
// saturating at about 0.52 (latency 300 past it).
func sixCurves(t *testing.T) (*sweep.File, [][3]float64) {
	t.Helper()
	arbiters := []string{"round-robin", "oldest", "upper-first", "source", "clock", "grab"}
	s, err := sweep.NewSpec("", []string{"topology.k=4"}, []string{"arbiter=" + strings.Join(arbiters, ","), "traffic.load=0.1:0.7:0.1"})
	if err != nil {
		t.Fatal(err)
	}
	f := &sweep.File{Format: sweep.Format, Sweep: *s}
	var pts [][3]float64 // offered, accepted, latency
	for i := 0; i < s.Points; i++ {
		off := 0.1 * float64(i%7+1)
		limit := 0.52 + 0.01*float64(i/7)
		acc := min(off, limit)
		lat := 8 + 20*off*off
		if off > limit {
			lat = 300
		}
		r := &network.Result{Offered: off, Throughput: acc, Hops: 3.5,
			Latency: network.Summary{Count: 1000, Mean: lat, CI95: 0.5}, Saturated: off > limit}
		f.Rows = append(f.Rows, sweep.NewRow(s, i, r))
		pts = append(pts, [3]float64{off, acc, lat})
	}
	return f, pts
}

// TestLegendOutsideAxes: with six curves the legend's box lies right of
// the axes, inside the canvas, in both plots, on either scale.
func TestLegendOutsideAxes(t *testing.T) {
	f, _ := sixCurves(t)
	for _, o := range []Options{linear, {Scale: ScaleLog}} {
		dir := t.TempDir()
		if err := Write(dir, f, o); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"accepted-vs-offered.svg", "latency-vs-offered.svg"} {
			doc := readSVG(t, filepath.Join(dir, name))
			xm, _ := doc.axesScaled(t, o.Scale == ScaleLog && name == "latency-vs-offered.svg")
			boxes := doc.where(func(p svgPath) bool { return p.stroke == "#AAAAAA" && p.closed })
			if len(boxes) != 1 {
				t.Fatalf("%s: %d legend boxes", name, len(boxes))
			}
			b, right := boxes[0], xm.at(xm.labels[len(xm.labels)-1])
			if b.minX <= right || b.maxX > Width.Points() || b.minY < 0 || b.maxY > Height.Points() {
				t.Errorf("%s %s: the legend box %v..%v × %v..%v is not right of the axes (x ≤ %v) inside the canvas",
					o.Scale, name, b.minX, b.maxX, b.minY, b.maxY, right)
			}
		}
	}
}

// linear draws the latency axis linearly (and clipped), as the tests of
// the clip and its marks need whatever the latencies' span.
var linear = Options{Scale: ScaleLinear}
