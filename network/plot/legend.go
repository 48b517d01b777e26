package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendBox draws leg in a white box at the corner (or halfway up a side)
// of the data area of p drawn on c that hides the least of the curves
// (lines and marks in data coordinates; a mark counts as much as a line
// segment), top left on a tie.
func legendBox(c draw.Canvas, p *gplot.Plot, leg *gplot.Legend, lines []plotter.XYs, marks plotter.XYs) {
	dc := p.DataCanvas(c)
	r := leg.Rectangle(dc)
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	if w <= 0 {
		return
	}
	pad := vg.Points(6)
	h += leg.TextStyle.FontExtents().Descent + 2*pad
	w += 2 * pad
	trX, trY := p.Transforms(&dc)
	var pts []vg.Point
	for _, l := range lines {
		for i := range l {
			// The line's course, sampled, clamped to the axes as drawn.
			for k := 0; k < 16 && (k == 0 || i > 0); k++ {
				x, y := l[i].X, l[i].Y
				if i > 0 {
					f := float64(k) / 16
					x, y = l[i-1].X+f*(x-l[i-1].X), l[i-1].Y+f*(y-l[i-1].Y)
				}
				pts = append(pts, vg.Point{X: trX(min(x, p.X.Max)), Y: trY(min(y, p.Y.Max))})
			}
		}
	}
	var ms []vg.Point
	for _, m := range marks {
		ms = append(ms, vg.Point{X: trX(min(m.X, p.X.Max)), Y: trY(min(m.Y, p.Y.Max))})
	}
	in := func(q vg.Point, b vg.Rectangle, r vg.Length) bool {
		return q.X >= b.Min.X-r && q.X <= b.Max.X+r && q.Y >= b.Min.Y-r && q.Y <= b.Max.Y+r
	}
	var box vg.Rectangle
	best := -1
	// Corners first, then halfway up the sides: 0 left/bottom, 1 right/top.
	for _, at := range [][2]float64{{0, 1}, {1, 1}, {1, 0}, {0, 0}, {1, 0.5}, {0, 0.5}} {
		var b vg.Rectangle
		b.Min.X = dc.Min.X + pad + vg.Length(at[0])*(dc.Max.X-dc.Min.X-2*pad-w)
		b.Min.Y = dc.Min.Y + pad + vg.Length(at[1])*(dc.Max.Y-dc.Min.Y-2*pad-h)
		b.Max = vg.Point{X: b.Min.X + w, Y: b.Min.Y + h}
		hidden := 0
		for _, q := range pts {
			if in(q, b, 0) {
				hidden++
			}
		}
		for _, q := range ms {
			if in(q, b, ringRadius) {
				hidden += 16
			}
		}
		if best < 0 || hidden < best {
			box, best = b, hidden
		}
	}
	c.SetColor(color.NRGBA{0xFF, 0xFF, 0xFF, 0xE6})
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0xAA}, Width: vg.Points(0.75)})
	c.Stroke(box.Path())
	leg.Draw(draw.Crop(draw.Canvas{Canvas: c.Canvas, Rectangle: box}, pad, -pad, pad, -pad))
}
