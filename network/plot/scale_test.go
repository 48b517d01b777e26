package plot

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// TestLogScale: latencies spanning more than LogRatio (8 to 200 cycles)
// get a log axis by default, labelled at 1, 2 and 5 × 10^n and spaced by
// their logarithm, every point on it (no arrows), and the label says so;
// a span within LogRatio stays linear unless the log scale is asked for.
func TestLogScale(t *testing.T) {
	f := madeUp(t, wormhole, vct)
	dir := t.TempDir()
	if err := Write(dir, f, Options{}); err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	xm, ym := doc.axesLog(t) // (fails unless the ticks are log-spaced)
	// From below 0.9 × 8 to above 200 + 20 (the error bar).
	if want := []float64{5, 10, 20, 50, 100, 200, 500}; !slices.Equal(ym.labels, want) {
		t.Errorf("log axis labels %v, want %v", ym.labels, want)
	}
	if !doc.hasText("mean latency (cycles), log scale") || doc.hasText("axis ends") {
		t.Errorf("label: %q", doc.texts)
	}
	for c, pts := range [][]point{wormhole, vct} {
		if arrows := doc.where(func(p svgPath) bool { return p.fill == svgColor(c) && len(p.pts) == 7 }); len(arrows) != 0 {
			t.Errorf("curve %d: %d arrows on a log axis", c, len(arrows))
		}
		bars := doc.where(func(p svgPath) bool { return p.stroke == svgColor(c) && p.width == 1.25 && p.vertical() })
		for j, p := range pts {
			x, lo, hi := xm.at(0.1*float64(j+1)), ym.at(p.lat-p.ci), ym.at(p.lat+p.ci)
			if !hasBar(bars, x, lo, hi) {
				t.Errorf("curve %d point %d (%v ± %v): no error bar %v..%v at x=%v", c, j, p.lat, p.ci, lo, hi, x)
			}
		}
	}

	low := []point{{8, 0.2, 0.1, false}, {9, 0.3, 0.2, false}, {11, 0.5, 0.3, false}, {16, 1.5, 0.4, false}, {20, 2, 0.5, false}}
	f = madeUp(t, low, low)
	for _, c := range []struct {
		o   Options
		log bool
	}{{Options{}, false}, {Options{Scale: ScaleLinear}, false}, {Options{Scale: ScaleLog}, true}} {
		if err := Write(dir, f, c.o); err != nil {
			t.Fatal(err)
		}
		doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
		doc.axesScaled(t, c.log)
		if doc.hasText("log scale") != c.log {
			t.Errorf("scale %q over 8..20 cycles: log %v, want %v", c.o.Scale, !c.log, c.log)
		}
	}
}

func TestParseScale(t *testing.T) {
	for in, want := range map[string]Scale{"": ScaleAuto, "auto": ScaleAuto, "log": ScaleLog, "linear": ScaleLinear} {
		if got, err := ParseScale("--plot-scale", in); got != want || err != nil {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
	if _, err := ParseScale("--plot-scale", "Log"); err == nil || err.Error() != `--plot-scale: "Log" is not allowed (allowed: auto, linear, log)` {
		t.Errorf("Log: %v", err)
	}
}

// TestClippedValues: on a clipped linear axis every point above it is an
// arrow on the top edge with its latency written beside it, in its
// curve's colour, so a curve wholly above the axis still shows.
func TestClippedValues(t *testing.T) {
	high := []point{{100, 2, 0.1, false}, {150, 3, 0.2, false}, {300, 5, 0.3, false}, {900, 30, 0.32, true}, {2500, 90, 0.33, true}}
	f := madeUp(t, wormhole, high) // (the second curve wholly above 4 × 7.5)
	dir := t.TempDir()
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	xm, ym := doc.axes(t)
	top := ym.labels[len(ym.labels)-1]
	for c, pts := range [][]point{wormhole, high} {
		arrows := doc.where(func(p svgPath) bool { return p.fill == svgColor(c) && len(p.pts) == 7 })
		for j, p := range pts {
			if p.lat <= top {
				continue
			}
			x := xm.at(0.1 * float64(j+1))
			var arrow *svgPath
			for i, a := range arrows {
				if near(a.pts[0][0], x) {
					arrow = &arrows[i]
				}
			}
			if arrow == nil {
				t.Errorf("curve %d point %d (latency %v): no arrow", c, j, p.lat)
				continue
			}
			// The value: a text in the values' size beside the arrow.
			found := false
			for _, tx := range doc.all {
				if tx.s == valueText(p.lat) && tx.size == offValueSize && math.Abs(tx.x-x) < 50 &&
					math.Abs(-tx.y-arrow.pts[1][1]) < ringRadius.Points() {
					found = true
				}
			}
			if !found {
				t.Errorf("curve %d point %d: no value %q beside its arrow at (%v, %v)", c, j, valueText(p.lat), x, arrow.pts[1][1])
			}
		}
	}
	if got := []string{valueText(2500.4), valueText(29.04), valueText(math.NaN())}; !slices.Equal(got, []string{"2500", "29", "none"}) {
		t.Errorf("valueText: %q", got)
	}
}

// glyphWidth estimates a glyph's advance in Liberation Sans, in ems (the
// metrics of Helvetica, which it matches), by classes of width.
func glyphWidth(r rune) float64 {
	switch {
	case strings.ContainsRune("ijl", r):
		return 0.23
	case strings.ContainsRune(".,:;'|! ftI", r):
		return 0.28
	case strings.ContainsRune("r()[]-/", r):
		return 0.34
	case strings.ContainsRune("ckszvxy", r):
		return 0.5
	case strings.ContainsRune("mM", r):
		return 0.84
	case strings.ContainsRune("wW", r):
		return 0.75
	case r >= 'A' && r <= 'Z', r == '×', r == '≥', r == '%':
		return 0.68
	}
	return 0.56
}

// TestNoTextPastCanvas draws the six-curve plots (long legend entries and
// title) on the usual canvas and on a small one, and checks by an
// estimate of the glyphs' widths that no text runs past the canvas.
func TestNoTextPastCanvas(t *testing.T) {
	f, _ := sixCurves(t)
	f.Sweep.Sets = append(f.Sweep.Sets, "traffic.pattern=transpose", "traffic.flits=16-64")
	for _, size := range [][2]vg.Length{{Width, Height}, {4 * vg.Inch, 3 * vg.Inch}} {
		for _, k := range []Kind{Latency, Accepted} {
			for _, o := range []Options{linear, {Scale: ScaleLog}} {
				fig, err := Draw(f, k, o)
				if err != nil {
					t.Fatal(err)
				}
				c := vgsvg.New(size[0], size[1])
				fig.Render(draw.New(c))
				name := filepath.Join(t.TempDir(), "p.svg")
				out, err := os.Create(name)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.WriteTo(out); err != nil {
					t.Fatal(err)
				}
				out.Close()
				w, h := size[0].Points(), size[1].Points()
				for _, tx := range readSVG(t, name).all {
					var est float64
					for _, r := range tx.s {
						est += glyphWidth(r) * tx.size
					}
					// Along its baseline: x (rotated: up the canvas).
					end := w
					if tx.rotated {
						end = h
					}
					if tx.x < -0.5 || tx.x+est > end+0.5 {
						t.Errorf("%v×%v %s %s: %q runs from %.1f to about %.1f, past 0..%v", w, h, k.file, o.Scale, tx.s, tx.x, tx.x+est, end)
					}
				}
			}
		}
	}
}
