package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendBox draws leg in a white box in the corner of the data area of p
// drawn on c that hides the least of the curves (lines in data
// coordinates), top left on a tie.
func legendBox(c draw.Canvas, p *gplot.Plot, leg *gplot.Legend, lines []plotter.XYs) {
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
	var box vg.Rectangle
	best := -1
	for _, corner := range [][2]bool{{true, true}, {false, true}, {false, false}, {true, false}} {
		left, top := corner[0], corner[1]
		b := vg.Rectangle{Min: vg.Point{X: dc.Min.X + pad, Y: dc.Min.Y + pad}}
		if !left {
			b.Min.X = dc.Max.X - pad - w
		}
		if top {
			b.Min.Y = dc.Max.Y - pad - h
		}
		b.Max = vg.Point{X: b.Min.X + w, Y: b.Min.Y + h}
		hidden := 0
		for _, q := range pts {
			if q.X >= b.Min.X && q.X <= b.Max.X && q.Y >= b.Min.Y && q.Y <= b.Max.Y {
				hidden++
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
