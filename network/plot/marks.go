package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// errBar is one point's 95 % confidence interval: y ± ci at x.
type errBar struct{ x, y, ci float64 }

// errBars draws a curve's error bars, cut at the axis' ends (a cut end has
// no cap).
type errBars struct {
	bars  []errBar
	color color.Color
}

func (e *errBars) style() draw.LineStyle {
	return draw.LineStyle{Color: e.color, Width: errBarWidth}
}

// Plot implements gplot.Plotter.
func (e *errBars) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	capW := glyphRadius * 1.2
	for _, b := range e.bars {
		lo, hi := max(b.y-b.ci, p.Y.Min), min(b.y+b.ci, p.Y.Max)
		if hi <= lo {
			continue
		}
		x, ylo, yhi := trX(b.x), trY(lo), trY(hi)
		c.StrokeLine2(e.style(), x, ylo, x, yhi)
		if lo == b.y-b.ci {
			c.StrokeLine2(e.style(), x-capW, ylo, x+capW, ylo)
		}
		if hi == b.y+b.ci {
			c.StrokeLine2(e.style(), x-capW, yhi, x+capW, yhi)
		}
	}
}

// Thumbnail implements gplot.Thumbnailer: one bar with its caps.
func (e *errBars) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	h := (c.Max.Y - c.Min.Y) * 0.45
	y := (c.Min.Y + c.Max.Y) / 2
	capW := glyphRadius * 1.2
	c.StrokeLine2(e.style(), x, y-h, x, y+h)
	c.StrokeLine2(e.style(), x-capW, y-h, x+capW, y-h)
	c.StrokeLine2(e.style(), x-capW, y+h, x+capW, y+h)
}

// hLine is a horizontal line across the whole data area at Y.
type hLine struct {
	Y     float64
	style draw.LineStyle
}

// Plot implements gplot.Plotter.
func (h *hLine) Plot(c draw.Canvas, p *gplot.Plot) {
	if h.Y < p.Y.Min || h.Y > p.Y.Max {
		return
	}
	_, trY := p.Transforms(&c)
	y := trY(h.Y)
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

// Thumbnail implements gplot.Thumbnailer.
func (h *hLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

// zeroLoadLines draws one dashed line per distinct zero-load latency of the
// curves (to 0.01 cycle) and says in the legend whose it is and, for curves
// without one, why.
func (d *drawing) zeroLoadLines(cs []*curve) error {
	type group struct {
		t      float64
		curves []int
	}
	var groups []*group
	missing := 0
	for i, t := range d.zero {
		if !finite(t) {
			missing++
			continue
		}
		var g *group
		for _, h := range groups {
			if math.Abs(h.t-t) < 0.005 {
				g = h
			}
		}
		if g == nil {
			g = &group{t: t}
			groups = append(groups, g)
		}
		g.curves = append(g.curves, i)
	}
	for _, g := range groups {
		col := color.Color(zeroLoadColor)
		label := fmt.Sprintf("zero-load latency %.2f cycles (the closed form: no waiting)", g.t)
		if len(groups) > 1 {
			names := make([]string, len(g.curves))
			for j, i := range g.curves {
				names[j] = cs[i].label
			}
			label += ": " + strings.Join(names, "; ")
			if len(g.curves) == 1 {
				col = curveColor(g.curves[0])
			}
		}
		l := &hLine{Y: g.t, style: draw.LineStyle{Color: col, Width: markWidth,
			Dashes: []vg.Length{vg.Points(8), vg.Points(4)}}}
		d.fig.Plot.Add(l)
		d.fig.Legend.Add(label, l)
	}
	if missing > 0 && len(d.whys) > 0 {
		which := fmt.Sprintf(" for %d of %d curves", missing, len(d.zero))
		if len(d.zero) == 1 {
			which = ""
		}
		d.fig.Legend.Add(fmt.Sprintf("no zero-load line%s: %s", which, strings.Join(d.whys, "; ")))
	}
	return nil
}

// offPoint is a point above the clipped latency axis, or without a
// latency (value NaN).
type offPoint struct {
	x, value              float64
	color                 color.Color
	saturated, incomplete bool
}

// offScale draws the points above the clipped axis as arrows on its top
// edge, in their curve's colour, each with its value written beside it
// (so a curve wholly above the axis still shows where it is), ringed
// (boxed) when saturated (incomplete). Arrows that would overlap (several
// curves past saturation at about the same offered load) are stacked
// downwards, offSpacing apart, in curve order.
type offScale struct {
	pts []offPoint
}

// offValueSize is the size of the values written beside the arrows.
const offValueSize = 9

// Arrow size and stacking distance.
var (
	arrowRadius = ringRadius * 0.8
	offSpacing  = ringRadius * 2.2
)

// Plot implements gplot.Plotter.
func (o *offScale) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, _ := p.Transforms(&c)
	var placed []vg.Point
	for _, pt := range o.pts {
		at := vg.Point{X: trX(pt.x), Y: c.Max.Y}
		// Below every placed arrow it would overlap.
		for again := true; again; {
			again = false
			for _, q := range placed {
				if q.Y == at.Y && vg.Length(math.Abs(float64(q.X-at.X))) < 2*ringRadius {
					at.Y -= offSpacing
					again = true
				}
			}
		}
		placed = append(placed, at)
		c.DrawGlyph(draw.GlyphStyle{Color: pt.color, Radius: arrowRadius, Shape: arrowGlyph{}}, at)
		if pt.saturated || pt.incomplete {
			c.DrawGlyph(draw.GlyphStyle{Color: markColor, Radius: ringRadius, Shape: markGlyph{box: !pt.saturated}}, at)
		}
	}
	o.values(c, placed)
}

// values writes each arrow's value beside it: on its right, or on its left
// where the right would cover another arrow or value or leave the canvas
// (on the right if both would).
func (o *offScale) values(c draw.Canvas, arrows []vg.Point) {
	var taken []vg.Rectangle
	for _, at := range arrows {
		r := ringRadius
		taken = append(taken, vg.Rectangle{Min: vg.Point{X: at.X - r, Y: at.Y - r}, Max: vg.Point{X: at.X + r, Y: at.Y + r}})
	}
	free := func(b vg.Rectangle) bool {
		if b.Min.X < c.Min.X || b.Max.X > c.Max.X {
			return false
		}
		for _, t := range taken {
			if b.Min.X < t.Max.X && t.Min.X < b.Max.X && b.Min.Y < t.Max.Y && t.Min.Y < b.Max.Y {
				return false
			}
		}
		return true
	}
	for i, pt := range o.pts {
		at, s := arrows[i], valueText(o.pts[i].value)
		sty := textStyle(offValueSize)
		sty.Color, sty.YAlign = pt.color, draw.YCenter
		w, h := sty.Width(s), sty.Height(s)/2
		gap := ringRadius + vg.Points(1)
		right := vg.Rectangle{Min: vg.Point{X: at.X + gap, Y: at.Y - h}, Max: vg.Point{X: at.X + gap + w, Y: at.Y + h}}
		left := vg.Rectangle{Min: vg.Point{X: at.X - gap - w, Y: at.Y - h}, Max: vg.Point{X: at.X - gap, Y: at.Y + h}}
		box := right
		if !free(right) && (free(left) || right.Max.X > c.Max.X) {
			box = left
		}
		taken = append(taken, box)
		c.FillText(sty, vg.Point{X: box.Min.X, Y: at.Y}, s)
	}
}

// GlyphBoxes implements gplot.GlyphBoxer: room for the top arrows.
func (o *offScale) GlyphBoxes(p *gplot.Plot) []gplot.GlyphBox {
	out := make([]gplot.GlyphBox, len(o.pts))
	for i, pt := range o.pts {
		r := ringRadius
		out[i] = gplot.GlyphBox{X: p.X.Norm(pt.x), Y: 1,
			Rectangle: vg.Rectangle{Min: vg.Point{X: -r, Y: -r}, Max: vg.Point{X: r, Y: r}}}
	}
	return out
}

// thumb is a legend thumbnail: a glyph at a radius that fits a legend line.
type thumb draw.GlyphStyle

// Thumbnail implements gplot.Thumbnailer.
func (t thumb) Thumbnail(c *draw.Canvas) {
	sty := draw.GlyphStyle(t)
	sty.Radius = min(sty.Radius, vg.Points(5.5))
	c.DrawGlyph(sty, c.Center())
}
