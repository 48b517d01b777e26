package plot

import (
	"image/color"
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Size of the plots: 10 × 6.25 in, so the PNG at DPI is 1920 × 1200 pixels
// (a full slide) and the SVG 720 × 450 pt.
const (
	Width  = 10 * vg.Inch
	Height = 6.25 * vg.Inch
	DPI    = 192
)

// Font sizes, in points of the 10-inch canvas: on a 13.3-inch slide they
// show about a third larger.
const (
	titleSize  = 16
	labelSize  = 14
	tickSize   = 12
	legendSize = 12
)

// Line widths. The error bars' width is theirs alone, which lets the tests
// find them in the SVG.
var (
	curveWidth  = vg.Points(2.5)
	errBarWidth = vg.Points(1.25)
	markWidth   = vg.Points(1.5)
	glyphRadius = vg.Points(4.5)
	ringRadius  = vg.Points(8.5)
)

// palette is the Okabe–Ito colour-blind-safe set (yellow left out: too pale
// on white), then a brown; curves past its length repeat it dashed.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x8C, 0x56, 0x4B, 0xFF}, // brown
}

// zeroLoadColor draws the zero-load line; markColor the saturated and
// incomplete marks.
var (
	zeroLoadColor = color.RGBA{0x55, 0x55, 0x55, 0xFF}
	markColor     = color.RGBA{0x00, 0x00, 0x00, 0xFF}
)

func curveColor(i int) color.RGBA { return palette[i%len(palette)] }

// curveDashes: solid for the first round of colours, then dashed.
func curveDashes(i int) []vg.Length {
	if i/len(palette)%2 == 0 {
		return nil
	}
	return []vg.Length{vg.Points(6), vg.Points(3)}
}

// shapes are the curves' markers, filled first (they read best at slide
// size), then outlined.
var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, diamondGlyph{}, triangleDownGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
}

func curveShape(i int) draw.GlyphDrawer { return shapes[i%len(shapes)] }

// diamondGlyph is a filled diamond.
type diamondGlyph struct{}

func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.25
	c.FillPolygon(sty.Color, []vg.Point{
		{X: pt.X, Y: pt.Y + r}, {X: pt.X + r, Y: pt.Y}, {X: pt.X, Y: pt.Y - r}, {X: pt.X - r, Y: pt.Y},
	})
}

// triangleDownGlyph is a filled triangle pointing down.
type triangleDownGlyph struct{}

func (triangleDownGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.2
	c.FillPolygon(sty.Color, []vg.Point{
		{X: pt.X - r, Y: pt.Y + r*0.6}, {X: pt.X + r, Y: pt.Y + r*0.6}, {X: pt.X, Y: pt.Y - r},
	})
}

// arrowGlyph is a filled arrow pointing up: a point whose latency is above
// the clipped axis, drawn at its top edge.
type arrowGlyph struct{}

func (arrowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r, s := sty.Radius, sty.Radius/3
	c.FillPolygon(sty.Color, []vg.Point{
		{X: pt.X, Y: pt.Y + r}, {X: pt.X + r, Y: pt.Y}, {X: pt.X + s, Y: pt.Y},
		{X: pt.X + s, Y: pt.Y - r}, {X: pt.X - s, Y: pt.Y - r}, {X: pt.X - s, Y: pt.Y}, {X: pt.X - r, Y: pt.Y},
	})
}

func sans(size float64) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: font.Length(size)}
}

// styleAxes sets the fonts, the white background and the tick marks.
func styleAxes(p *gplot.Plot) {
	p.BackgroundColor = color.White
	p.Title.TextStyle.Font = sans(titleSize)
	p.Title.Padding = vg.Points(8)
	for _, a := range []*gplot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
		a.Padding = vg.Points(4)
		a.Tick.Length = vg.Points(6)
		a.Label.Padding = vg.Points(4)
	}
}

// niceStep is the smallest of 1, 2, 5 × 10^n that is at least span/8: about
// eight ticks over span.
func niceStep(span float64) float64 {
	if !(span > 0) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / 8
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// axisTop rounds v up to a whole number of niceStep(v): the top of an axis
// from 0 that ends on a labelled tick.
func axisTop(v float64) (top, step float64) {
	step = niceStep(v)
	top = math.Ceil(v/step*(1-1e-9)) * step
	if top <= 0 {
		top = step
	}
	return top, step
}

// ticks labels every step from 0 with as few decimals as the step needs.
type ticks struct{ step float64 }

func (t ticks) Ticks(lo, hi float64) []gplot.Tick {
	dec := 0
	for s := t.step; s < 1-1e-9 && dec < 10; s *= 10 {
		dec++
	}
	var out []gplot.Tick
	for i := math.Ceil(lo/t.step - 1e-9); i*t.step <= hi+t.step*1e-9; i++ {
		v := i*t.step + 0 // (never −0)
		out = append(out, gplot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', dec, 64)})
	}
	return out
}

// setAxis runs a from 0 to top with a tick every step.
func setAxis(a *gplot.Axis, top, step float64) {
	a.Min, a.Max = 0, top
	a.Tick.Marker = ticks{step}
}

// setAxisTop runs a from 0 to axisTop(v) and returns the tick step.
func setAxisTop(a *gplot.Axis, v float64) float64 {
	top, step := axisTop(v)
	setAxis(a, top, step)
	return step
}

// markGlyph rings (or, box, boxes) a saturated (incomplete) point with a
// line thicker than gonum's outlined glyphs, to read at slide size.
type markGlyph struct{ box bool }

func (m markGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: markWidth})
	r := sty.Radius
	var p vg.Path
	if m.box {
		r *= 0.85
		p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X - r, Y: pt.Y + r})
	} else {
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
	}
	p.Close()
	c.Stroke(p)
}
