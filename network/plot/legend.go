package plot

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Render draws the figure on c. The legend goes in a white box at the
// corner (or halfway up a side) of the data area that hides the least of
// the curves; if every place hides some and the y axis may grow (it is not
// clipped), the axis is raised a tick at a time, up to twice its height,
// to make room above the curves.
func (fig *Figure) Render(c draw.Canvas) {
	p := fig.Plot
	if fig.growStep > 0 {
		p.Y.Max = fig.baseMax // (the same figure is rendered as SVG, then PNG)
	}
	box, hidden := fig.placeLegend(c)
	for hidden > 0 && fig.growStep > 0 && p.Y.Max+fig.growStep <= 2*fig.baseMax+1e-9 {
		p.Y.Max += fig.growStep
		box, hidden = fig.placeLegend(c)
	}
	p.Draw(c)
	if box.Max.X <= box.Min.X {
		return
	}
	c.SetColor(color.NRGBA{0xFF, 0xFF, 0xFF, 0xE6})
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0xAA}, Width: vg.Points(0.75)})
	c.Stroke(box.Path())
	pad := legendPad
	fig.Legend.Draw(draw.Crop(draw.Canvas{Canvas: c.Canvas, Rectangle: box}, pad, -pad, pad, -pad))
}

// legendPad is the space around the legend box and inside it.
var legendPad = vg.Points(6)

// placeLegend chooses the legend's box on c: the place that hides the
// least of the curves (lines and marks in data coordinates; a mark counts
// as much as a line segment), top left on a tie; hidden is how much it
// hides.
func (fig *Figure) placeLegend(c draw.Canvas) (box vg.Rectangle, hidden int) {
	p, leg := fig.Plot, &fig.Legend
	dc := p.DataCanvas(c)
	r := leg.Rectangle(dc)
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	if w <= 0 {
		return vg.Rectangle{}, 0
	}
	pad := legendPad
	h += leg.TextStyle.FontExtents().Descent + 2*pad
	w += 2 * pad
	trX, trY := p.Transforms(&dc)
	at := func(x, y float64) vg.Point { return vg.Point{X: trX(min(x, p.X.Max)), Y: trY(min(y, p.Y.Max))} }
	var pts, ms []vg.Point
	for _, l := range fig.lines {
		for i := range l {
			pts = append(pts, at(l[i].X, l[i].Y))
			for k := 1; i > 0 && k < 16; k++ {
				// The segment's course, sampled, clamped to the axes.
				f := float64(k) / 16
				pts = append(pts, at(l[i-1].X+f*(l[i].X-l[i-1].X), l[i-1].Y+f*(l[i].Y-l[i-1].Y)))
			}
		}
	}
	for _, m := range fig.marks {
		ms = append(ms, at(m.X, m.Y))
	}
	in := func(q vg.Point, b vg.Rectangle, r vg.Length) bool {
		return q.X >= b.Min.X-r && q.X <= b.Max.X+r && q.Y >= b.Min.Y-r && q.Y <= b.Max.Y+r
	}
	best := -1
	// Corners first, then halfway up the sides: 0 left/bottom, 1 right/top.
	for _, f := range [][2]float64{{0, 1}, {1, 1}, {1, 0}, {0, 0}, {1, 0.5}, {0, 0.5}} {
		var b vg.Rectangle
		b.Min.X = dc.Min.X + pad + vg.Length(f[0])*(dc.Max.X-dc.Min.X-2*pad-w)
		b.Min.Y = dc.Min.Y + pad + vg.Length(f[1])*(dc.Max.Y-dc.Min.Y-2*pad-h)
		b.Max = vg.Point{X: b.Min.X + w, Y: b.Min.Y + h}
		n := 0
		for _, q := range pts {
			if in(q, b, 0) {
				n++
			}
		}
		for _, q := range ms {
			if in(q, b, ringRadius) {
				n += 16
			}
		}
		if best < 0 || n < best {
			box, best = b, n
		}
	}
	return box, best
}
