package plot

import (
	"image/color"
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Legend is a figure's key. It is drawn in a column of its own right of
// the axes, never over the data: its entries are wrapped to the column's
// width (at most legendShare of the canvas) and, when they would not fit
// its height, set in a smaller font, down to minTextSize.
type Legend struct {
	entries []legendEntry
}

type legendEntry struct {
	text   string
	thumbs []gplot.Thumbnailer
}

// Add adds an entry: its text and the thumbnails drawn beside it.
func (l *Legend) Add(text string, thumbs ...gplot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{text, thumbs})
}

// Legend layout: the most of the canvas' width the column takes, the
// thumbnails' width, the gaps, and the smallest font any text is set in.
var (
	legendShare  = 0.36
	thumbWidth   = vg.Points(28)
	legendPad    = vg.Points(6)
	entryGap     = vg.Points(5)
	minTextSize  = 6.0
	legendIndent = thumbWidth + vg.Points(6) // from the column's left to the text
)

// legendLayout is the legend set for one canvas: its font, each entry's
// lines, and the column's size.
type legendLayout struct {
	style         text.Style
	lines         [][]string
	width, height vg.Length
}

// layout sets the legend for a canvas of width w and height h: in
// legendSize if it fits, else in the largest smaller size that does.
func (l *Legend) layout(w, h vg.Length) legendLayout {
	var lay legendLayout
	if len(l.entries) == 0 {
		return lay
	}
	textW := vg.Length(legendShare)*w - legendIndent - 2*legendPad
	for size := float64(legendSize); ; size-- {
		lay = legendLayout{style: textStyle(size)}
		lineH := lay.style.Height("Xg")
		var widest vg.Length
		for i, e := range l.entries {
			ls := wrap(lay.style, e.text, textW)
			lay.lines = append(lay.lines, ls)
			for _, s := range ls {
				widest = max(widest, lay.style.Width(s))
			}
			lay.height += vg.Length(max(len(ls), 1)) * lineH
			if i > 0 {
				lay.height += entryGap
			}
		}
		lay.width = legendIndent + widest + 2*legendPad
		lay.height += 2 * legendPad
		if lay.height <= h || size <= minTextSize {
			return lay
		}
	}
}

// draw draws the legend set by lay with its top left corner at at.
func (l *Legend) draw(c draw.Canvas, lay legendLayout, at vg.Point) {
	box := vg.Rectangle{Min: vg.Point{X: at.X, Y: at.Y - lay.height}, Max: vg.Point{X: at.X + lay.width, Y: at.Y}}
	c.SetColor(color.White)
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0xAA}, Width: vg.Points(0.75)})
	c.Stroke(box.Path())
	lineH := lay.style.Height("Xg")
	descent := lay.style.FontExtents().Descent
	y := at.Y - legendPad
	for i, e := range l.entries {
		thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: at.X + legendPad, Y: y - lineH},
			Max: vg.Point{X: at.X + legendPad + thumbWidth, Y: y},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&thumb)
		}
		for _, s := range lay.lines[i] {
			c.FillText(lay.style, vg.Point{X: at.X + legendPad + legendIndent, Y: y - lineH + descent}, s)
			y -= lineH
		}
		y -= entryGap
	}
}

func textStyle(size float64) text.Style {
	return text.Style{Font: sans(size), Handler: gplot.DefaultTextHandler, Color: color.Black}
}

// wrap breaks s into lines no wider than w in sty, at spaces; a word wider
// than w alone is broken where it must be.
func wrap(sty text.Style, s string, w vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if sty.Width(try) <= w {
			line = try
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = word
		for sty.Width(line) > w && len([]rune(line)) > 1 {
			r := []rune(line)
			n := len(r) - 1
			for n > 1 && sty.Width(string(r[:n])) > w {
				n--
			}
			lines = append(lines, string(r[:n]))
			line = string(r[n:])
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// Render draws the figure on c: the legend in a column on the right, the
// plot (its title wrapped to its width, its axis labels set smaller where
// they would not fit) in the rest. The y axis' label is drawn here, in a
// strip of its own, centred on the axis: gonum centres its room for the
// label at the middle of the axis' values, which on a log axis lies high
// up, and lowers the axis' top to fit it.
func (fig *Figure) Render(c draw.Canvas) {
	p := fig.Plot
	w, h := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
	lay := fig.Legend.layout(w, h-2*legendPad)
	pc := c
	if lay.width > 0 {
		pc.Max.X -= lay.width + 2*legendPad
	}
	title, xl, yl := p.Title, p.X.Label, p.Y.Label
	defer func() { p.Title, p.X.Label, p.Y.Label = title, xl, yl }() // (rendered as SVG, then PNG)
	p.Y.Label.Text = ""
	ys := yl.TextStyle
	if yl.Text != "" {
		pc.Min.X += ys.Height(yl.Text) + yl.Padding
	}
	p.Title.TextStyle.Font.Size, p.Title.Text = fitText(p.Title.TextStyle, p.Title.Text, pc.Max.X-pc.Min.X-2*legendPad, true)
	dc := p.DataCanvas(pc)
	p.X.Label.TextStyle.Font.Size, p.X.Label.Text = fitText(p.X.Label.TextStyle, p.X.Label.Text, dc.Max.X-dc.Min.X, false)
	var ytext string
	ys.Font.Size, ytext = fitText(ys, yl.Text, dc.Max.Y-dc.Min.Y, false)
	p.Draw(pc)
	dc = p.DataCanvas(pc)
	if ytext != "" {
		ys.Rotation += math.Pi / 2
		c.FillText(ys, vg.Point{X: c.Min.X + ys.Height(ytext) - ys.FontExtents().Descent, Y: dc.Center().Y}, ytext)
	}
	if lay.width > 0 {
		// Level with the top of the axes, or higher if it is taller.
		top := max(min(dc.Max.Y, c.Max.Y-legendPad), c.Min.Y+legendPad+lay.height)
		fig.Legend.draw(c, lay, vg.Point{X: pc.Max.X + legendPad, Y: top})
	}
}

// fitText sets s in sty within width w: in a smaller size if it is wider
// (down to minTextSize); if lines, wrapped, and set smaller while it takes
// more than two lines.
func fitText(sty text.Style, s string, w vg.Length, lines bool) (vg.Length, string) {
	set := func() string {
		if !lines {
			return s
		}
		return strings.Join(wrap(sty, s, w), "\n")
	}
	out := set()
	for sty.Font.Size > vg.Length(minTextSize) && (sty.Width(out) > w || strings.Count(out, "\n") > 1) {
		sty.Font.Size--
		out = set()
	}
	return sty.Font.Size, out
}
