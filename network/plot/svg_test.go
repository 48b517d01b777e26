package plot

import (
	"encoding/xml"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// svgDoc is what the tests read from an SVG: its paths and texts, in the
// canvas' points with y up (gonum's top-level flip undone).
type svgDoc struct {
	paths []svgPath
	texts []string
	// numbers are the texts in the tick labels' size that read as numbers
	// (tick labels) with their y attribute.
	numbers []svgNum
	// all are the text elements with their position and size.
	all []svgText
}

// svgText is a text element: x and y as written (in the frame of a
// rotate(90) group if rotated), its font size.
type svgText struct {
	s          string
	x, y, size float64
	rotated    bool
}

type svgPath struct {
	d                      string
	pts                    [][2]float64 // end points of the commands, in order
	stroke, fill           string
	width                  float64
	arc                    bool
	closed                 bool
	minX, maxX, minY, maxY float64
}

type svgNum struct {
	v, y, x float64
}

var (
	pathCmd  = regexp.MustCompile(`([MLAZ])([^MLAZ]*)`)
	fontSize = regexp.MustCompile(`font-size:([0-9.]+)px`)
)

// readSVG parses name with encoding/xml.
func readSVG(t *testing.T, name string) *svgDoc {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	doc := &svgDoc{}
	var inText bool
	var textX, textY, textSize float64
	var rot []bool // per open g: whether it rotates
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "path":
				doc.paths = append(doc.paths, parsePath(t, el))
			case "g":
				r := false
				for _, a := range el.Attr {
					r = r || a.Name.Local == "transform" && strings.Contains(a.Value, "rotate(90)")
				}
				rot = append(rot, r)
			case "text":
				inText = true
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "x":
						textX, _ = strconv.ParseFloat(a.Value, 64)
					case "y":
						textY, _ = strconv.ParseFloat(a.Value, 64)
					case "style":
						if m := fontSize.FindStringSubmatch(a.Value); m != nil {
							textSize, _ = strconv.ParseFloat(m[1], 64)
						}
					}
				}
			}
		case xml.CharData:
			if inText {
				s := strings.TrimSpace(string(el))
				doc.texts = append(doc.texts, s)
				doc.all = append(doc.all, svgText{s, textX, textY, textSize, len(rot) > 0 && rot[len(rot)-1]})
				if v, err := strconv.ParseFloat(s, 64); err == nil && textSize == tickSize {
					doc.numbers = append(doc.numbers, svgNum{v, textY, textX})
				}
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "text":
				inText = false
			case "g":
				rot = rot[:len(rot)-1]
			}
		}
	}
	if len(doc.paths) == 0 {
		t.Fatalf("%s: no paths", name)
	}
	return doc
}

func parsePath(t *testing.T, el xml.StartElement) svgPath {
	p := svgPath{minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "d":
			p.d = a.Value
		case "style":
			for _, kv := range strings.Split(a.Value, ";") {
				k, v, _ := strings.Cut(kv, ":")
				switch k {
				case "stroke":
					p.stroke = v
				case "fill":
					p.fill = v
				case "stroke-width":
					p.width, _ = strconv.ParseFloat(v, 64)
				}
			}
		}
	}
	if p.stroke != "" && p.stroke != "none" && p.width == 0 {
		p.width = 1 // the SVG default gonum leaves out
	}
	for _, m := range pathCmd.FindAllStringSubmatch(p.d, -1) {
		if m[1] == "Z" {
			p.closed = true
			continue
		}
		f := strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' || r == ' ' })
		if len(f) < 2 {
			t.Fatalf("path %q: command %q", p.d, m[0])
		}
		x, _ := strconv.ParseFloat(f[len(f)-2], 64)
		y, _ := strconv.ParseFloat(f[len(f)-1], 64)
		p.arc = p.arc || m[1] == "A"
		p.pts = append(p.pts, [2]float64{x, y})
		p.minX, p.maxX = min(p.minX, x), max(p.maxX, x)
		p.minY, p.maxY = min(p.minY, y), max(p.maxY, y)
	}
	return p
}

func (p svgPath) centre() (x, y float64) { return (p.minX + p.maxX) / 2, (p.minY + p.maxY) / 2 }

// vertical is a two-point vertical stroke.
func (p svgPath) vertical() bool {
	return len(p.pts) == 2 && p.pts[0][0] == p.pts[1][0] && p.minY < p.maxY
}

func (p svgPath) horizontal() bool {
	return len(p.pts) == 2 && p.pts[0][1] == p.pts[1][1] && p.minX < p.maxX
}

// where returns the paths that satisfy keep.
func (d *svgDoc) where(keep func(p svgPath) bool) (out []svgPath) {
	for _, p := range d.paths {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// hasText reports whether the text elements hold s, read in order as one
// text (the legend wraps its entries onto several lines).
func (d *svgDoc) hasText(s string) bool {
	return strings.Contains(strings.Join(d.texts, " "), s)
}

// axisMap is a data-to-canvas mapping read off an axis' labelled ticks.
type axisMap struct {
	a, b   float64   // canvas = a + b·value (b·log10 value if log)
	labels []float64 // the tick labels' values, ascending
	log    bool
}

func (m axisMap) at(v float64) float64 {
	if m.log {
		v = math.Log10(v)
	}
	return m.a + m.b*v
}

// axesLog is axes for a plot whose y axis is logarithmic.
func (d *svgDoc) axesLog(t *testing.T) (x, y axisMap) {
	t.Helper()
	return d.axesScaled(t, true)
}

// axes reads both axes: the tick marks (black, 6 pt: Tick.Length) paired in
// order with the numeric labels (the x axis' labels share one baseline).
func (d *svgDoc) axes(t *testing.T) (x, y axisMap) {
	t.Helper()
	return d.axesScaled(t, false)
}

// axesScaled reads both axes, the y axis' labels evenly spaced in their
// logarithm if ylog. (The log axis' unlabelled ticks are left out.)
func (d *svgDoc) axesScaled(t *testing.T, ylog bool) (x, y axisMap) {
	t.Helper()
	tick := func(p svgPath) bool {
		return p.stroke == "#000000" && len(p.pts) == 2 &&
			math.Abs(math.Hypot(p.maxX-p.minX, p.maxY-p.minY)-6) < 0.01
	}
	var xt, yt []float64
	for _, p := range d.where(tick) {
		if p.vertical() {
			xt = append(xt, p.minX)
		} else {
			yt = append(yt, p.minY)
		}
	}
	byY := map[float64][]float64{}
	right := math.Inf(-1)
	for _, x := range xt {
		right = max(right, x)
	}
	for _, n := range d.numbers {
		if n.x > right+30 {
			continue // (a legend line that reads as a number)
		}
		byY[n.y] = append(byY[n.y], n.v)
	}
	var xl, yl []float64
	for _, vs := range byY {
		if len(vs) == len(xt) && xl == nil {
			xl = vs
		} else {
			yl = append(yl, vs...)
		}
	}
	if ylog {
		// Keep the tick marks level with a label.
		var at []float64
		for _, p := range yt {
			for _, n := range d.numbers {
				if math.Abs(n.y+p) < 8 || math.Abs(n.y-p) < 8 {
					at = append(at, p)
					break
				}
			}
		}
		yt = at
		logs := make([]float64, len(yl))
		for i, v := range yl {
			logs[i] = math.Log10(v)
		}
		ym := fit(t, "y", yt, logs)
		ym.log = true
		sort.Float64s(yl)
		ym.labels = yl
		return fit(t, "x", xt, xl), ym
	}
	return fit(t, "x", xt, xl), fit(t, "y", yt, yl)
}

func fit(t *testing.T, name string, pos, vals []float64) axisMap {
	t.Helper()
	sort.Float64s(pos)
	sort.Float64s(vals)
	if len(pos) < 2 || len(pos) != len(vals) {
		t.Fatalf("%s axis: %d tick marks, labels %v", name, len(pos), vals)
	}
	n := len(pos) - 1
	b := (pos[n] - pos[0]) / (vals[n] - vals[0])
	m := axisMap{a: pos[0] - b*vals[0], b: b, labels: vals}
	for i := range pos {
		if math.Abs(m.at(vals[i])-pos[i]) > 0.05 {
			t.Fatalf("%s axis: ticks not evenly labelled: %v at %v", name, vals, pos)
		}
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.1 }

// svgColor is how gonum's SVG writes c.
func svgColor(i int) string {
	c := curveColor(i)
	return "#" + strings.ToUpper(strconv.FormatUint(uint64(c.R)<<16|uint64(c.G)<<8|uint64(c.B)|1<<24, 16)[1:])
}
