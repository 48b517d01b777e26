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
	// numbers are the texts that read as numbers (tick labels) with their
	// y attribute.
	numbers []svgNum
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
	v, y float64
}

var pathCmd = regexp.MustCompile(`([MLAZ])([^MLAZ]*)`)

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
	var textY float64
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
			case "text":
				inText = true
				for _, a := range el.Attr {
					if a.Name.Local == "y" {
						textY, _ = strconv.ParseFloat(a.Value, 64)
					}
				}
			}
		case xml.CharData:
			if inText {
				s := strings.TrimSpace(string(el))
				doc.texts = append(doc.texts, s)
				if v, err := strconv.ParseFloat(s, 64); err == nil {
					doc.numbers = append(doc.numbers, svgNum{v, textY})
				}
			}
		case xml.EndElement:
			if el.Name.Local == "text" {
				inText = false
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

// hasText reports whether a text element holds s.
func (d *svgDoc) hasText(s string) bool {
	for _, t := range d.texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// axisMap is a data-to-canvas mapping read off an axis' labelled ticks.
type axisMap struct {
	a, b   float64   // canvas = a + b·value
	labels []float64 // the tick labels' values, ascending
}

func (m axisMap) at(v float64) float64 { return m.a + m.b*v }

// axes reads both axes: the tick marks (black, 6 pt: Tick.Length) paired in
// order with the numeric labels (the x axis' labels share one baseline).
func (d *svgDoc) axes(t *testing.T) (x, y axisMap) {
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
	for _, n := range d.numbers {
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
