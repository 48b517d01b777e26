package plot

import (
	"fmt"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ModelPlot is an analytic model's curves against simulated points, as in
// `flitsim analytic --plot` (Varvarigos 1992's Figs. 5.3–5.7, 6.4, 6.5):
// each curve's model is a line, its simulation points of the same colour
// and the curve's own marker, named apart in the legend.
type ModelPlot struct {
	Title, XLabel, YLabel string
	XMax                  float64 // the x axis' top (0: the largest x drawn)
	YMax                  float64 // the y axis' top (0: the largest y drawn)
	Curves                []ModelCurve
}

// ModelCurve is one curve: a model line, points, or both.
type ModelCurve struct {
	Line       []XY   // the model, in rising x (none: points only)
	LineName   string // its legend entry
	Dashed     bool   // a dashed line (a bound or a derived curve)
	Points     []XY   // measured (simulated) points
	PointsName string // their legend entry
}

// XY is a point.
type XY struct{ X, Y float64 }

// Save writes the plot to name, as PNG for a .png name and SVG otherwise.
func (mp *ModelPlot) Save(name string) error {
	fig, err := mp.figure()
	if err != nil {
		return err
	}
	if err := fig.save(name); err != nil {
		return fmt.Errorf("%s: cannot write plot: %v", name, err)
	}
	return nil
}

func (mp *ModelPlot) figure() (*Figure, error) {
	p := gplot.New()
	styleAxes(p)
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = mp.Title, mp.XLabel, mp.YLabel
	p.Add(plotter.NewGrid())
	fig := newFigure(p)
	maxX, maxY := 0.0, 0.0
	for i, c := range mp.Curves {
		col := curveColor(i)
		if len(c.Line) > 1 {
			l, err := plotter.NewLine(xys(c.Line))
			if err != nil {
				return nil, err
			}
			l.Color, l.Width, l.Dashes = col, curveWidth, curveDashes(i)
			if c.Dashed {
				l.Dashes = []vg.Length{vg.Points(7), vg.Points(4)}
			}
			p.Add(l)
			fig.Legend.Add(c.LineName, l)
		}
		if len(c.Points) > 0 {
			s, err := plotter.NewScatter(xys(c.Points))
			if err != nil {
				return nil, err
			}
			s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: glyphRadius, Shape: curveShape(i)}
			p.Add(s)
			fig.Legend.Add(c.PointsName, s)
		}
		for _, pt := range append(append([]XY{}, c.Line...), c.Points...) {
			if finite(pt.X) && finite(pt.Y) {
				maxX, maxY = max(maxX, pt.X), max(maxY, pt.Y)
			}
		}
	}
	if mp.XMax > 0 {
		maxX = mp.XMax
	}
	if mp.YMax > 0 {
		maxY = mp.YMax
	}
	p.X.Min, p.Y.Min = 0, 0
	setAxisTop(&p.X, max(maxX, 1e-9))
	setAxisTop(&p.Y, max(maxY*1.02, 1e-9))
	return fig, nil
}

// xys is pts without the points that are not finite (a model's gaps).
func xys(pts []XY) plotter.XYs {
	out := make(plotter.XYs, 0, len(pts))
	for _, pt := range pts {
		if finite(pt.X) && finite(pt.Y) {
			out = append(out, plotter.XY{X: pt.X, Y: pt.Y})
		}
	}
	return out
}
