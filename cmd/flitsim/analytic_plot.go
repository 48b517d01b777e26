package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/analytic"
	"github.com/flitsim/flitsim/network/plot"
)

// analyticPlotFlags are analytic's --plot, --figure and --slots.
type analyticPlotFlags struct {
	file, figure *string
	slots        *int64
}

func addAnalyticPlotFlags(fs *pflag.FlagSet) analyticPlotFlags {
	f := analyticPlotFlags{
		file:   fs.String("plot", "", "draw analysis against simulation to `FILE` (.svg or .png; --figure picks which)"),
		figure: fs.String("figure", "", "the thesis's figure to draw: "+strings.Join(figureNames, ", ")),
		slots:  fs.Int64("slots", 300, "measured slots of each simulated point (0: the analysis alone)"),
	}
	_ = fs.SetAnnotation("figure", valuesAnnotation, figureNames)
	return f
}

// figurePoint is one x of a curve: the analysis and, where it ran, the
// simulation (null: none).
type figurePoint struct {
	X          float64  `json:"x"`
	Analysis   *float64 `json:"analysis"`
	Simulation *float64 `json:"simulation"`
}

// figureCurve is one curve of a figure.
type figureCurve struct {
	Name   string        `json:"name"`
	Points []figurePoint `json:"points"`
	line   []plot.XY     // the model, finely sampled (drawn, not printed)
	dashed bool
	note   string // the line's legend entry, when not "NAME, analysis"
}

// figureResult is what analytic --plot prints.
type figureResult struct {
	Figure string        `json:"figure"`
	Title  string        `json:"title"`
	D      int           `json:"d"`
	Slots  int64         `json:"slots"`
	X      string        `json:"x"`
	Y      string        `json:"y"`
	Curves []figureCurve `json:"curves"`
}

// analyticPlot is analytic --plot: it evaluates the figure, draws it and
// prints its simulated points beside the analysis.
func analyticPlot(pf analyticPlotFlags, file string, sets []string, stdout io.Writer, format string) error {
	name := *pf.file
	switch {
	case name == "":
		return inputerr.New("--plot", `""`, "a file name ending in .svg or .png (--figure and --slots draw a plot)")
	case !strings.HasSuffix(name, ".svg") && !strings.HasSuffix(name, ".png"):
		return inputerr.New("--plot", name, "a file name ending in .svg or .png")
	case !slices.Contains(figureNames, *pf.figure):
		return inputerr.New("--figure", *pf.figure, "%s (Fig. 5.2 is a diagram of links, not a curve)", strings.Join(figureNames, ", "))
	case *pf.slots < 0:
		return inputerr.New("--slots", *pf.slots, "0 (the analysis alone) or more")
	}
	var d int
	base, err := configs.LoadDecoded(file, sets, func(c *network.Config) error {
		if err := checkHypercube(c); err != nil {
			return err
		}
		switch d = c.Topology.D; {
		case d == 0:
			return nil // (the figure's own)
		case d > maxSimD && *pf.slots > 0:
			return inputerr.New("topology.d", d, "2 to %d with simulated points (--slots 0 draws the analysis alone, to 62)", maxSimD)
		}
		return checkD(d)
	})
	if err != nil {
		return err
	}
	files := configFiles(file, base)
	files.Output("--plot", name)
	if err := files.Check(); err != nil {
		return err
	}
	var res *figureResult
	if *pf.figure == "6.5" {
		res, err = saturationFigure(base, d, *pf.slots)
	} else {
		res, err = loadFigure(base, *pf.figure, d, *pf.slots)
	}
	if err != nil {
		return err
	}
	if err := res.draw(name); err != nil {
		return err
	}
	if format == "json" {
		return writeLayoutAny(stdout, res)
	}
	x := "load"
	if res.X == "d" {
		x = "d"
	}
	return renderTable(stdout, []string{"curve", x, "analysis", "simulation", "difference"}, res.rows())
}

// maxSimD is the largest cube a figure simulates (2^14 nodes: seconds a
// point).
const maxSimD = 14

// loadFigure evaluates a figure over p0: each curve's model on 101 loads,
// and at simLoads the model beside the simulation.
func loadFigure(base network.Config, id string, d int, slots int64) (*figureResult, error) {
	f := figures[id]
	if d == 0 {
		d = f.d
	}
	y := "throughput per node (packets/node/slot)"
	if f.share {
		y = "delivered / admitted (p_d/p_1)"
	}
	res := &figureResult{Figure: id, Title: fmt.Sprintf("Fig. %s: %s (d = %d)", id, f.title, d), D: d, Slots: slots, X: "p0", Y: y}
	for _, c := range f.curves {
		fc := figureCurve{Name: c.name()}
		for i := 0; i <= 100; i++ {
			p0 := float64(i) / 100
			R, p, err := modelAt(c, d, p0)
			if err != nil {
				return nil, err
			}
			fc.line = append(fc.line, plot.XY{X: p0, Y: f.yOf(R, p)})
		}
		for _, p0 := range simLoads {
			R, p, err := modelAt(c, d, p0)
			if err != nil {
				return nil, err
			}
			pt := figurePoint{X: p0, Analysis: ptr(f.yOf(R, p))}
			r, ok, err := simulateAt(base, c, d, p0, slots)
			if err != nil {
				return nil, err
			}
			if ok {
				pt.Simulation = ptr(f.yOf(*r.ThroughputPerNode, r.PType))
			}
			fc.Points = append(fc.Points, pt)
		}
		res.Curves = append(res.Curves, fc)
	}
	if id == "6.4" {
		res.Curves = append(res.Curves, stableCurves(d)...)
	}
	return res, nil
}

func ptr(v float64) *float64 { return &v }

// stableCurves are Fig. 6.4's arrival lines 2d·q_a·(1 − m) for q_a = 0.05
// and 1/d with q_r = 1, drawn against the attempt rate p0 = q_a + m(1 −
// q_a) (eq. 6.1), each with its stable point (analysis only).
func stableCurves(d int) []figureCurve {
	var out []figureCurve
	for _, qa := range []float64{0.05, 1 / float64(d)} {
		c, m, err := analytic.CSRStable(d, qa, 1)
		if err != nil {
			continue
		}
		name := fmt.Sprintf("new packets 2d·q_a·(1 − m), q_a = %.4g, q_r = 1", qa)
		out = append(out, figureCurve{
			Name:   name,
			Points: []figurePoint{{X: c.Attempt, Analysis: ptr(c.ThroughputPerNode)}},
			line:   []plot.XY{{X: qa, Y: 2 * float64(d) * qa}, {X: 1, Y: 0}},
			dashed: true,
			note:   fmt.Sprintf("%s; stable point m = %.3f", name, m),
		})
	}
	return out
}

// draw writes the figure to name.
func (res *figureResult) draw(name string) error {
	mp := &plot.ModelPlot{Title: res.Title, XLabel: res.X, YLabel: res.Y}
	if res.X == "p0" {
		mp.XLabel, mp.XMax = "load p0 (new packet per free link buffer per slot; CSR: attempt rate)", 1
	}
	for _, c := range res.Curves {
		mc := plot.ModelCurve{Line: c.line, LineName: c.Name + ", analysis", Dashed: c.dashed}
		if c.note != "" {
			mc.LineName = c.note
		}
		for _, pt := range c.Points {
			switch {
			case pt.Simulation != nil:
				mc.Points = append(mc.Points, plot.XY{X: pt.X, Y: *pt.Simulation})
				mc.PointsName = c.Name + fmt.Sprintf(", simulation (%d slots a point)", res.Slots)
			case c.note != "" && pt.Analysis != nil: // (a stable point)
				mc.Points = append(mc.Points, plot.XY{X: pt.X, Y: *pt.Analysis})
				mc.PointsName = "stable point (eq. 6.1)"
			}
		}
		mp.Curves = append(mp.Curves, mc)
	}
	return mp.Save(name)
}

// rows are the printed table: every point with a simulation or, for
// curves without one, the analysis alone.
func (res *figureResult) rows() [][]string {
	show := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprintf("%.4f", *v)
	}
	var rows [][]string
	for _, c := range res.Curves {
		for _, pt := range c.Points {
			diff := "—"
			if pt.Analysis != nil && pt.Simulation != nil && *pt.Analysis != 0 {
				diff = fmt.Sprintf("%+.1f %%", 100*(*pt.Simulation-*pt.Analysis) / *pt.Analysis)
			}
			rows = append(rows, []string{c.Name, num(pt.X), show(pt.Analysis), show(pt.Simulation), diff})
		}
	}
	return rows
}

// saturationMax is the largest d Fig. 6.5's analysis reaches (the thesis's
// axis) and satSimDefault the largest it simulates unless topology.d says.
const (
	saturationMax = 15
	satSimDefault = 8
)

// satCurve is a scheme of Fig. 6.5: its analysis (nil: simulation only,
// as the thesis's deflection curves) and the load its simulation runs at.
type satCurve struct {
	name  string
	curve figCurve
	model func(d int) (sat, p0 float64)
}

// satCurves are Fig. 6.5's seven curves (saturation point = the largest
// throughput per node over 2).
var satCurves = []satCurve{
	{"(1) CSR, β = 0", figCurve{"csr", "0"}, func(d int) (float64, float64) {
		m, _ := analytic.CSRModel(d, 1)
		return m.ThroughputPerNode / 2, 1
	}},
	{"(2) priority deflection", figCurve{"deflection-priority", "0"}, nil},
	{"(3) simple deflection", figCurve{"deflection-simple", "0"}, nil},
	{"(4) priority, k = 0", figCurve{"priority", "0"}, func(d int) (float64, float64) {
		m, _ := analytic.PriorityUnbuffered(d, 1)
		return m.ThroughputPerNode / 2, 1
	}},
	{"(5) priority, k = 1", figCurve{"priority", "1"}, func(d int) (float64, float64) {
		m, _ := analytic.PriorityBuffered(d, 1, 1)
		return m.ThroughputPerNode / 2, 1
	}},
	{"(6) simple, k = 0", figCurve{"simple", "0"}, func(d int) (float64, float64) {
		R, p0, _ := analytic.SimpleMax(d)
		return R / 2, p0
	}},
	{"(7) wormhole (blocking), Dally's method [derived]", figCurve{"wormhole", ""}, func(d int) (float64, float64) {
		return analytic.WormholeSaturation(d), math.NaN()
	}},
}

// saturationFigure is Fig. 6.5: each scheme's saturation point against d,
// the analysis for d = 2 … 15, simulations for d = 3 up to dsim at p0 = 1
// (the simple scheme: at the load of its analytic peak).
func saturationFigure(base network.Config, dsim int, slots int64) (*figureResult, error) {
	if dsim == 0 {
		dsim = satSimDefault
	}
	res := &figureResult{Figure: "6.5", Title: "Fig. 6.5: saturation point against the hypercube's dimension",
		D: dsim, Slots: slots, X: "d", Y: "saturation point (largest throughput per node / 2)"}
	for _, sc := range satCurves {
		fc := figureCurve{Name: sc.name, dashed: sc.curve.scheme == "wormhole"}
		if sc.model != nil {
			for d := 2; d <= saturationMax; d++ {
				s, _ := sc.model(d)
				fc.line = append(fc.line, plot.XY{X: float64(d), Y: s})
			}
		}
		for d := 3; d <= dsim; d++ {
			pt, p0 := figurePoint{X: float64(d)}, 1.0
			if sc.model != nil {
				s, at := sc.model(d)
				pt.Analysis, p0 = ptr(s), at
			}
			r, ok, err := simulateAt(base, sc.curve, d, p0, slots)
			if err != nil {
				return nil, err
			}
			if ok {
				pt.Simulation = ptr(*r.ThroughputPerNode / 2)
			}
			fc.Points = append(fc.Points, pt)
		}
		res.Curves = append(res.Curves, fc)
	}
	return res, nil
}
