// Package plot draws a sweep's load curves: mean latency and accepted
// throughput against the measured offered load, one line per combination of
// the varied keys other than the load (traffic.load if it is varied,
// otherwise the last varied key), as SVG and PNG.
//
// A deadlocked point has no meaningful latency: it is left out of the lines
// and named in the legend. Saturated points (accepted less than offered,
// see network.Judge) and incomplete ones (measured packets not all
// delivered) are drawn, ringed.
package plot

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flitsim/flitsim/network/sweep"
)

// Files are the names Write writes, in order.
var Files = []string{
	"latency-vs-offered.svg", "latency-vs-offered.png",
	"accepted-vs-offered.svg", "accepted-vs-offered.png",
}

// Size of the plots.
const (
	Width  = 7 * vg.Inch
	Height = 4.5 * vg.Inch
)

// LoadKey is the key whose values run along a curve.
const LoadKey = "traffic.load"

// Write draws f's two plots into dir as SVG and PNG (the names in Files).
func Write(dir string, f *sweep.File) error {
	for _, kind := range []Kind{Latency, Accepted} {
		p, err := Draw(f, kind)
		if err != nil {
			return err
		}
		for _, ext := range []string{".svg", ".png"} {
			name := filepath.Join(dir, kind.file+ext)
			if err := p.Save(Width, Height, name); err != nil {
				return fmt.Errorf("%s: cannot write plot: %v", name, err)
			}
		}
	}
	return nil
}

// Kind is a kind of plot: what the y axis shows.
type Kind struct {
	file, title, ylabel string
	y                   func(r *sweep.Row) float64
}

// The kinds of plot Draw makes.
var (
	Latency = Kind{"latency-vs-offered", "Mean latency vs offered load", "mean latency (cycles)",
		func(r *sweep.Row) float64 { return float64(r.LatencyMean) }}
	Accepted = Kind{"accepted-vs-offered", "Accepted vs offered load", "accepted throughput (flits/node/cycle)",
		func(r *sweep.Row) float64 { return float64(r.Throughput) }}
)

// curve is one line: the rows of one combination of the other keys.
type curve struct {
	label string
	rows  []*sweep.Row
}

// curves groups f's rows (in grid order) by the varied keys other than the
// load key.
func curves(f *sweep.File) (out []*curve) {
	vary := f.Sweep.Vary
	if len(vary) == 0 {
		return []*curve{{label: "measured", rows: rowPtrs(f)}}
	}
	loadKey := vary[len(vary)-1].Key
	for _, v := range vary {
		if v.Key == LoadKey {
			loadKey = LoadKey
		}
	}
	byLabel := map[string]*curve{}
	for i := range f.Rows {
		r := &f.Rows[i]
		var parts []string
		for _, kv := range r.Values {
			if kv.Key != loadKey {
				parts = append(parts, kv.Key+"="+kv.Value)
			}
		}
		label := strings.Join(parts, ", ")
		c := byLabel[label]
		if c == nil {
			c = &curve{label: label}
			byLabel[label] = c
			out = append(out, c)
		}
		c.rows = append(c.rows, r)
	}
	if len(out) == 1 && out[0].label == "" {
		for _, v := range vary {
			if v.Key == loadKey {
				out[0].label = v.Key + "=" + v.Spec
			}
		}
	}
	return out
}

func rowPtrs(f *sweep.File) []*sweep.Row {
	out := make([]*sweep.Row, len(f.Rows))
	for i := range f.Rows {
		out[i] = &f.Rows[i]
	}
	return out
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Draw makes one plot (Latency or Accepted) of f.
func Draw(f *sweep.File, k Kind) (*gplot.Plot, error) {
	p := gplot.New()
	p.Title.Text = k.title
	p.X.Label.Text = "offered load, measured (flits/node/cycle)"
	p.Y.Label.Text = k.ylabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	cs := curves(f)
	var deadlocked []*sweep.Row
	var incomplete plotter.XYs
	maxX := 0.0
	points := 0
	for i, c := range cs {
		var xys plotter.XYs
		for _, r := range c.rows {
			if r.DeadlockCycle != nil {
				deadlocked = append(deadlocked, r)
				continue
			}
			x, y := float64(r.Offered), k.y(r)
			if !finite(x) || !finite(y) {
				continue
			}
			xys = append(xys, plotter.XY{X: x, Y: y})
			maxX = max(maxX, x)
			if r.Saturated || r.Incomplete {
				incomplete = append(incomplete, plotter.XY{X: x, Y: y})
			}
		}
		if len(xys) == 0 {
			continue
		}
		points += len(xys)
		line, marks, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i / 7)
		marks.Color = plotutil.Color(i)
		marks.Shape = plotutil.Shape(i)
		p.Add(line, marks)
		p.Legend.Add(c.label, line, marks)
	}
	if k.file == Accepted.file && maxX > 0 {
		ref, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: maxX, Y: maxX}})
		if err != nil {
			return nil, err
		}
		ref.Color = color.Gray{Y: 150}
		ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(ref)
		p.Legend.Add("accepted = offered", ref)
	}
	if len(incomplete) > 0 {
		s, err := plotter.NewScatter(incomplete)
		if err != nil {
			return nil, err
		}
		s.Shape = draw.RingGlyph{}
		s.Radius = vg.Points(6)
		s.Color = color.Black
		p.Add(s)
		p.Legend.Add("saturated or incomplete", s)
	}
	if len(deadlocked) > 0 {
		mark, err := plotter.NewScatter(plotter.XYs{})
		if err != nil {
			return nil, err
		}
		mark.Shape = draw.CrossGlyph{}
		mark.Color = color.RGBA{R: 200, A: 255}
		label := fmt.Sprintf("deadlocked, not drawn: %d points", len(deadlocked))
		if len(deadlocked) <= 3 {
			parts := make([]string, len(deadlocked))
			for i, r := range deadlocked {
				parts[i] = fmt.Sprintf("point %d (%s)", r.Point, describe(r))
			}
			label = "deadlocked, not drawn: " + strings.Join(parts, "; ")
		}
		p.Legend.Add(label, mark)
	}
	if points == 0 {
		// Nothing to draw: give the axes a range all the same.
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	}
	return p, nil
}

func describe(r *sweep.Row) string {
	parts := make([]string, len(r.Values))
	for i, kv := range r.Values {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, ", ")
}
