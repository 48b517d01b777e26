package plot

import (
	"fmt"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DelayPoint is one measured load of a dynamic-broadcasting sweep.
type DelayPoint struct {
	Rho, Delay, CI95 float64
	Stable           bool // false: the queues grew (ringed; the delay is not a steady-state mean)
}

// DelayCurve is a measured curve: its name and points in rising ρ.
type DelayCurve struct {
	Name   string
	Points []DelayPoint
}

// DelayPlot is mean delay against load ρ for dynamic broadcasting
// (Varvarigos ch. 4): the measured curves, the Dynamic Broadcasting
// Theorem's upper bound (Eq. 4.1) and its value at the lowest admissible a
// as curves up to the stability threshold ρ*, which is marked.
type DelayPlot struct {
	Title     string
	Curves    []DelayCurve
	Bound     func(rho float64) float64 // Eq. 4.1's upper bound (NaN at or above ρ*)
	Low       func(rho float64) float64 // the theorem's lower end, min T(a)
	Threshold float64                   // ρ*
	Marks     []DelayMark               // further loads to mark (e.g. a measured threshold)
	More      []DelayBound              // further bounds to draw (e.g. the folded cube's eq. 6)
	Scale     Scale                     // the delay axis' (auto: log past LogRatio)
}

// DelayBound is a further bound on the delay as a function of the load
// (+Inf or NaN where it has none).
type DelayBound struct {
	Name string
	F    func(rho float64) float64
}

// DelayMark is a load marked by a vertical line.
type DelayMark struct {
	Rho   float64
	Label string
}

// Save writes the plot to name, as PNG for a .png name and SVG otherwise.
func (dp *DelayPlot) Save(name string) error {
	fig, err := dp.figure()
	if err != nil {
		return err
	}
	if err := fig.save(name); err != nil {
		return fmt.Errorf("%s: cannot write plot: %v", name, err)
	}
	return nil
}

func (dp *DelayPlot) figure() (*Figure, error) {
	p := gplot.New()
	styleAxes(p)
	p.Title.Text = dp.Title
	p.X.Label.Text = "load ρ = λNX"
	p.Y.Label.Text = "mean delay, request to broadcast done (packet times)"
	p.Add(plotter.NewGrid())
	fig := newFigure(p)
	maxY, maxX := 0.0, dp.Threshold
	for i, c := range dp.Curves {
		y, err := dp.measured(fig, i, c)
		if err != nil {
			return nil, err
		}
		maxY = max(maxY, y)
		for _, pt := range c.Points {
			maxX = max(maxX, pt.Rho)
		}
	}
	// The theorem's curves, clipped at 1.5× the largest stable point.
	top := 1.5 * maxY
	if top <= 0 {
		top = 10
	}
	lo := dp.lowest()
	log := useLog(dp.Scale, lo, maxY)
	if err := dp.theory(p, fig, top, log); err != nil {
		return nil, err
	}
	for _, m := range dp.Marks {
		maxX = max(maxX, m.Rho)
	}
	p.X.Min, p.Y.Min = 0, 0
	setAxisTop(&p.X, math.Min(1, maxX*1.05))
	if log {
		setLogAxis(&p.Y, 0.9*lo, top)
		p.Y.Label.Text += ", log scale"
	} else {
		setAxisTop(&p.Y, top)
	}
	marks := append([]DelayMark{{dp.Threshold, fmt.Sprintf("stability threshold ρ* = %.5f (Eq. 4.1)", dp.Threshold)}}, dp.Marks...)
	for i, m := range marks {
		th, err := plotter.NewLine(plotter.XYs{{X: m.Rho, Y: p.Y.Min}, {X: m.Rho, Y: p.Y.Max}})
		if err != nil {
			return nil, err
		}
		th.Color, th.Width, th.Dashes = markColor, markWidth, []vg.Length{vg.Points(2), vg.Points(3)}
		if i > 0 {
			th.Color, th.Dashes = curveColor(i), []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}
		}
		p.Add(th)
		fig.Legend.Add(m.Label, th)
	}
	return fig, nil
}

// theory draws the theorem's curves (Eq. 4.1's bound and its lowest-a form,
// then any further named bounds) up to the threshold, clipped at top.
func (dp *DelayPlot) theory(p *gplot.Plot, fig *Figure, top float64, log bool) error {
	type theoryCurve struct {
		name string
		f    func(float64) float64
		dash []vg.Length
	}
	curves := []theoryCurve{{"Eq. 4.1 upper bound", dp.Bound, nil}, {"Eq. 4.1 at the lowest a", dp.Low, []vg.Length{vg.Points(6), vg.Points(4)}}}
	for _, b := range dp.More {
		curves = append(curves, theoryCurve{b.Name, b.F, []vg.Length{vg.Points(2), vg.Points(2)}})
	}
	for _, tc := range curves {
		if tc.f == nil {
			continue
		}
		var xy plotter.XYs
		for i := 0; i <= 400; i++ {
			r := dp.Threshold * float64(i) / 400
			if y := tc.f(r); !math.IsNaN(y) && y <= top && (!log || y > 0) {
				xy = append(xy, plotter.XY{X: r, Y: y})
			}
		}
		if len(xy) < 2 {
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color, l.Width, l.Dashes = zeroLoadColor, curveWidth, tc.dash
		p.Add(l)
		fig.Legend.Add(tc.name, l)
	}
	return nil
}

// measured draws curve i: its stable points joined, with 95 % error bars;
// unstable points ringed (their delay grows with the run) and left out of
// the line. It returns the largest stable delay.
func (dp *DelayPlot) measured(fig *Figure, i int, c DelayCurve) (float64, error) {
	var line, rings plotter.XYs
	var bars []errBar
	maxY := 0.0
	for _, pt := range c.Points {
		if !finite(pt.Delay) {
			continue
		}
		if !pt.Stable {
			rings = append(rings, plotter.XY{X: pt.Rho, Y: pt.Delay})
			continue
		}
		line = append(line, plotter.XY{X: pt.Rho, Y: pt.Delay})
		maxY = max(maxY, pt.Delay+max(pt.CI95, 0))
		if finite(pt.CI95) && pt.CI95 > 0 {
			bars = append(bars, errBar{pt.Rho, pt.Delay, pt.CI95})
		}
	}
	col := curveColor(i)
	var thumbs []gplot.Thumbnailer
	if len(line) > 0 {
		l, err := plotter.NewLine(line)
		if err != nil {
			return 0, err
		}
		l.Color, l.Width, l.Dashes = col, curveWidth, curveDashes(i)
		s, err := plotter.NewScatter(line)
		if err != nil {
			return 0, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: glyphRadius, Shape: curveShape(i)}
		fig.Plot.Add(l, s)
		thumbs = append(thumbs, l, s)
		if len(bars) > 0 {
			fig.Plot.Add(&errBars{bars: bars, color: col})
		}
	}
	if len(thumbs) > 0 {
		fig.Legend.Add(c.Name, thumbs...)
	}
	if len(rings) > 0 {
		s, err := plotter.NewScatter(clipRings(rings, maxY))
		if err != nil {
			return 0, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: ringRadius, Shape: markGlyph{}}
		fig.Plot.Add(s)
		fig.Legend.Add(c.Name+": queues grew (delay capped)", s)
	}
	return maxY, nil
}

// lowest is the lowest measured delay (0 for none; a log axis needs it
// above 0).
func (dp *DelayPlot) lowest() float64 {
	lo := math.Inf(1)
	for _, c := range dp.Curves {
		for _, pt := range c.Points {
			if finite(pt.Delay) {
				lo = min(lo, pt.Delay)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return 0
	}
	return lo
}

// clipRings puts the unstable points, whose delay has no steady mean, at
// 1.4× the largest stable delay so they show on the plot.
func clipRings(xy plotter.XYs, maxY float64) plotter.XYs {
	out := make(plotter.XYs, len(xy))
	for i, p := range xy {
		out[i] = p
		if maxY > 0 {
			out[i].Y = math.Min(p.Y, 1.4*maxY)
		}
	}
	return out
}
