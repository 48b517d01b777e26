// Package plot draws a sweep's load curves: mean latency and accepted
// throughput against the measured offered load, one curve per combination
// of the varied keys other than the load (traffic.load if it is varied,
// otherwise the last varied key), as SVG and as a 1920 × 1200 PNG.
//
// The latency plot's axis is clipped at ClipFactor × the zero-load latency
// (rounded up to a tick) when a point lies above that, so the region below
// saturation fills the plot; a point above is drawn as an arrow on the top
// edge. Each point has its 95 % confidence interval (latency_ci95) as an
// error bar, and a dashed line shows the zero-load latency of docs/hardware.md's
// closed form (network.ZeroLoadLatency). Saturated points (accepted less
// than offered, see network.Judge) are ringed and incomplete ones (measured
// packets not all delivered) boxed; each curve's legend entry gives its
// saturation throughput (see Saturation). A deadlocked point has no
// meaningful latency: it is left out of the lines and named in the legend.
package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network/sweep"
)

// Files are the names Write writes, in order.
var Files = []string{
	"latency-vs-offered.svg", "latency-vs-offered.png",
	"accepted-vs-offered.svg", "accepted-vs-offered.png",
}

// LoadKey is the key whose values run along a curve.
const LoadKey = "traffic.load"

// RatioKey is Chiang's communication ratio R (blocking tasks).
const RatioKey = "traffic.ratio"

// ClipFactor is where the latency axis is clipped, in multiples of the
// largest zero-load latency of the curves (or, where the formula does not
// apply, of the lowest mean latency measured).
const ClipFactor = 4

// TaskFiles are the names Write adds when the sweep's points measured
// blocking tasks' system utilisation (traffic.pattern blocking-multicast).
var TaskFiles = []string{"utilization.svg", "utilization.png"}

// Write draws f's two plots into dir as SVG and PNG (the names in Files),
// and the utilisation plot (TaskFiles) when a point measured one.
func Write(dir string, f *sweep.File, o Options) error {
	kinds := []Kind{Latency, Accepted}
	for _, r := range f.Rows {
		if r.SystemUtilization != nil {
			kinds = append(kinds, Utilization)
			break
		}
	}
	for _, kind := range kinds {
		fig, err := Draw(f, kind, o)
		if err != nil {
			return err
		}
		for _, ext := range []string{".svg", ".png"} {
			name := filepath.Join(dir, kind.file+ext)
			if err := fig.save(name); err != nil {
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
	// Utilization is Chiang's Fig 5.1(b): the share of the time blocking
	// tasks compute.
	Utilization = Kind{"utilization", "System utilisation vs offered load", "system utilisation (share of the time computing)",
		func(r *sweep.Row) float64 {
			if r.SystemUtilization == nil {
				return math.NaN()
			}
			return float64(*r.SystemUtilization)
		}}
)

// Figure is a drawn plot with its legend, which Render sets beside the
// axes.
type Figure struct {
	Plot   *gplot.Plot
	Legend Legend
}

// save writes the figure as SVG or PNG, by name's extension.
func (fig *Figure) save(name string) error {
	var w io.WriterTo
	switch filepath.Ext(name) {
	case ".png":
		c := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI))
		fig.Render(draw.New(c))
		w = vgimg.PngCanvas{Canvas: c}
	default:
		c := vgsvg.New(Width, Height)
		fig.Render(draw.New(c))
		w = c
	}
	// Whole or not at all: a failed write keeps the previous plot.
	return outfile.Write(name, func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	})
}

// Draw makes one plot (Latency or Accepted) of f.
func Draw(f *sweep.File, k Kind, o Options) (*Figure, error) {
	p := gplot.New()
	styleAxes(p)
	p.Title.Text = k.title
	if setup := describeSetup(f); setup != "" {
		p.Title.Text += ": " + setup
	}
	p.X.Label.Text = "offered load, measured (flits/node/cycle)"
	p.Y.Label.Text = k.ylabel
	p.Add(plotter.NewGrid())
	fig := newFigure(p)

	cs := curves(f)
	d := &drawing{fig: fig, kind: k, byRatio: loadKey(f) == RatioKey}
	if d.byRatio {
		p.Title.Text = strings.Replace(p.Title.Text, "vs offered load", "vs communication ratio R", 1)
		p.X.Label.Text = "communication ratio R (traffic.ratio)"
	}
	if k.file == Latency.file {
		d.zero, d.whys = zeroLoads(f, cs)
		d.lo, d.hi = d.latencyRange(cs)
		if d.log = useLog(o.Scale, d.lo, d.hi); !d.log {
			d.clipAt(cs)
		}
	}
	for i, c := range cs {
		if err := d.curve(i, c); err != nil {
			return nil, err
		}
	}
	if err := d.finish(f, cs); err != nil {
		return nil, err
	}
	return fig, nil
}

// drawing is the state of one Draw.
type drawing struct {
	fig  *Figure
	kind Kind
	// byRatio: a sweep over traffic.ratio, drawn against R as Chiang's
	// Figs 5.1 and 5.9–5.11 are (R is their load axis).
	byRatio bool
	// zero is each curve's zero-load latency (NaN: none), whys why not.
	zero []float64
	whys []string
	// clip is the latency axis' top when clipped (0: not clipped), clipStep
	// its tick step and clipBase what it is a multiple of.
	clip, clipStep float64
	clipBase       string
	// log: the latency axis is logarithmic (and not clipped); lo and hi
	// are the lowest and highest mean latency drawn.
	log    bool
	lo, hi float64
	// maxX and maxY are the largest values drawn (maxY with error bars).
	maxX, maxY float64
	points     int
	// off holds the points above the clipped axis; unmeasured counts those
	// without a latency (unbounded).
	off                   offScale
	unmeasured            int
	saturated, incomplete plotter.XYs
	deadlocked            []*sweep.Row
}

func (d *drawing) y(r *sweep.Row) float64 { return d.kind.y(r) }

// unbounded reports a saturated point whose run stopped (run.max_backlog)
// before a measured packet arrived: no mean latency, and no bound on it.
// The latency plot draws it on the clipped axis' top edge.
func (d *drawing) unbounded(r *sweep.Row) bool {
	return d.kind.file == Latency.file && r.Saturated && math.IsNaN(d.y(r))
}

// clipAt sets the clip from the zero-load latencies, or from the lowest
// measured latency where there are none, if any point lies above it.
func (d *drawing) clipAt(cs []*curve) {
	base, what := 0.0, "zero-load latency"
	for _, t := range d.zero {
		if finite(t) {
			base = max(base, t)
		}
	}
	var highest float64
	lowest := 0.0
	for _, c := range cs {
		for _, r := range c.rows {
			y := d.y(r)
			if d.unbounded(r) {
				y = math.Inf(1)
			}
			if drawn(r) && !math.IsNaN(y) {
				highest = max(highest, y)
				if finite(y) && (lowest == 0 || y < lowest) {
					lowest = y
				}
			}
		}
	}
	if base == 0 {
		base, what = lowest, "lowest mean latency measured"
	}
	if base <= 0 || highest <= ClipFactor*base {
		return
	}
	d.clip, d.clipStep = axisTop(ClipFactor * base)
	d.clipBase = fmt.Sprintf("%g × the %s, %.3g", float64(ClipFactor), what, base)
}

// latencyRange is the lowest and highest mean latency of the points drawn
// (0, 0 for none; a log axis needs lo above 0).
func (d *drawing) latencyRange(cs []*curve) (lo, hi float64) {
	lo = math.Inf(1)
	for _, c := range cs {
		for _, r := range c.rows {
			if y := d.y(r); drawn(r) && finite(y) {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return 0, 0
	}
	return lo, hi
}

// curve draws curve i: its line and markers, error bars (latency), and
// collects its saturated, incomplete and deadlocked points.
func (d *drawing) curve(i int, c *curve) error {
	var line, marks plotter.XYs
	var bars []errBar
	for _, r := range c.rows {
		if r.DeadlockCycle != nil {
			d.deadlocked = append(d.deadlocked, r)
			continue
		}
		x, y := float64(r.Offered), d.y(r)
		if d.byRatio {
			x, _ = strconv.ParseFloat(r.Value(RatioKey), 64)
		}
		if d.unbounded(r) && (d.clip > 0 || d.log) && finite(x) {
			d.maxX = max(d.maxX, x)
			d.off.pts = append(d.off.pts, offPoint{x, math.NaN(), curveColor(i), true, r.Incomplete})
			d.unmeasured++
			continue
		}
		if !finite(x) || !finite(y) {
			continue
		}
		line = append(line, plotter.XY{X: x, Y: y})
		d.maxX = max(d.maxX, x)
		d.maxY = max(d.maxY, y)
		if d.clip > 0 && y > d.clip {
			d.off.pts = append(d.off.pts, offPoint{x, y, curveColor(i), r.Saturated, r.Incomplete})
			continue
		}
		at := plotter.XY{X: x, Y: y}
		marks = append(marks, at)
		if ci := float64(r.LatencyCI95); d.kind.file == Latency.file && finite(ci) && ci > 0 {
			bars = append(bars, errBar{x, y, ci})
			d.maxY = max(d.maxY, y+ci)
		}
		if r.Saturated {
			d.saturated = append(d.saturated, at)
		} else if r.Incomplete {
			d.incomplete = append(d.incomplete, at)
		}
	}
	if len(line) == 0 {
		return nil
	}
	d.points += len(line)
	col := curveColor(i)
	l, err := plotter.NewLine(line)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = col, curveWidth, curveDashes(i)
	d.fig.Plot.Add(l)
	if len(bars) > 0 {
		d.fig.Plot.Add(&errBars{bars: bars, color: col})
	}
	glyph := draw.GlyphStyle{Color: col, Radius: glyphRadius, Shape: curveShape(i)}
	thumbs := []gplot.Thumbnailer{l}
	if len(marks) > 0 {
		s, err := plotter.NewScatter(marks)
		if err != nil {
			return err
		}
		s.GlyphStyle = glyph
		d.fig.Plot.Add(s)
		thumbs = append(thumbs, s)
	}
	d.fig.Legend.Add(c.legendLabel(), thumbs...)
	return nil
}

// finish adds the zero-load lines, the marks, the reference diagonal, the
// deadlocked points' entry and the axes' ranges.
func (d *drawing) finish(f *sweep.File, cs []*curve) error {
	p := d.fig.Plot
	if d.kind.file == Latency.file {
		if err := d.zeroLoadLines(cs); err != nil {
			return err
		}
	}
	if d.byRatio && d.kind.file == Utilization.file {
		// Without contention a blocking task computes 1 − R of the time.
		if err := d.reference(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 0}}, "optimum 1 − R"); err != nil {
			return err
		}
		d.maxX = max(d.maxX, 1)
	}
	if d.kind.file == Accepted.file && d.maxX > 0 && !d.byRatio {
		if err := d.reference(plotter.XYs{{X: 0, Y: 0}, {X: d.maxX, Y: d.maxX}}, "accepted = offered"); err != nil {
			return err
		}
	}
	offSat, offInc := 0, 0
	for _, o := range d.off.pts {
		if o.saturated {
			offSat++
		} else if o.incomplete {
			offInc++
		}
	}
	for _, m := range []struct {
		pts   plotter.XYs
		off   int
		shape draw.GlyphDrawer
		label string
	}{
		{d.saturated, offSat, markGlyph{}, "saturated: accepted < offered (ringed)"},
		{d.incomplete, offInc, markGlyph{box: true}, "incomplete: measured packets not all delivered (boxed)"},
	} {
		if len(m.pts)+m.off == 0 {
			continue
		}
		sty := draw.GlyphStyle{Color: markColor, Radius: ringRadius, Shape: m.shape}
		if len(m.pts) > 0 {
			s, err := plotter.NewScatter(m.pts)
			if err != nil {
				return err
			}
			s.GlyphStyle = sty
			p.Add(s)
		}
		d.fig.Legend.Add(m.label, thumb(sty))
	}
	if len(d.off.pts) > 0 {
		p.Add(&d.off)
		label := fmt.Sprintf("latency above %g cycles (the axis ends at %s): drawn on the top edge, with its value", d.clip, d.clipBase)
		switch {
		case d.log:
			label = "no latency measured (the run stopped at run.max_backlog): drawn on the top edge"
		case d.unmeasured > 0:
			label = fmt.Sprintf("latency above %g cycles (the axis ends at %s), or none measured (the run stopped at run.max_backlog): drawn on the top edge, with its value", d.clip, d.clipBase)
		}
		d.fig.Legend.Add(label,
			thumb{Color: markColor, Radius: arrowRadius, Shape: arrowGlyph{}})
	}
	if d.kind.file == Latency.file && d.points > 0 {
		d.fig.Legend.Add("error bars: 95 % confidence interval of the mean", &errBars{color: markColor})
	}
	d.deadlockEntry()
	d.axes()
	return nil
}

// reference draws a dashed grey reference line, named in the legend.
func (d *drawing) reference(pts plotter.XYs, label string) error {
	ref, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	ref.Color, ref.Width, ref.Dashes = color.Gray{Y: 150}, markWidth, []vg.Length{vg.Points(4), vg.Points(3)}
	d.fig.Plot.Add(ref)
	d.fig.Legend.Add(label, ref)
	return nil
}

// axes sets the ranges and ticks: from 0, the latency axis clipped if it
// is, the accepted plot on the offered load's scale.
func (d *drawing) axes() {
	p := d.fig.Plot
	if d.points == 0 {
		// Nothing to draw: give the axes a range all the same.
		setAxis(&p.X, 1, 0.2)
		setAxis(&p.Y, 1, 0.2)
		return
	}
	setAxisTop(&p.X, d.maxX)
	switch {
	case d.log:
		lo := d.lo // (and the zero-load lines)
		for _, t := range d.zero {
			if finite(t) && t > 0 {
				lo = min(lo, t)
			}
		}
		setLogAxis(&p.Y, 0.9*lo, d.maxY)
		p.Y.Label.Text += ", log scale"
	case d.clip > 0:
		setAxis(&p.Y, d.clip, d.clipStep)
	case d.kind.file == Accepted.file:
		setAxisTop(&p.Y, max(d.maxX, d.maxY))
	default:
		setAxisTop(&p.Y, d.maxY)
	}
}

// deadlockEntry names the deadlocked points (or counts them) in the
// legend.
func (d *drawing) deadlockEntry() {
	if len(d.deadlocked) == 0 {
		return
	}
	mark, _ := plotter.NewScatter(plotter.XYs{})
	mark.Shape = draw.CrossGlyph{}
	mark.Color = color.RGBA{R: 200, A: 255}
	label := fmt.Sprintf("deadlocked, not drawn: %d points", len(d.deadlocked))
	if len(d.deadlocked) <= 3 {
		parts := make([]string, len(d.deadlocked))
		for i, r := range d.deadlocked {
			parts[i] = fmt.Sprintf("point %d (%s)", r.Point, describe(r))
		}
		label = "deadlocked, not drawn: " + strings.Join(parts, "; ")
	}
	d.fig.Legend.Add(label, mark)
}

// describe names r's varied values in words.
func describe(r *sweep.Row) string {
	parts := make([]string, len(r.Values))
	for i, kv := range r.Values {
		parts[i] = inWords(kv.Key, kv.Value)
	}
	return strings.Join(parts, ", ")
}

// newFigure is p with an empty legend.
func newFigure(p *gplot.Plot) *Figure { return &Figure{Plot: p} }
