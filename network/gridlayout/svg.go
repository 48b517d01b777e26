package gridlayout

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// svgUnit is the drawing's pixels per grid unit.
const svgUnit = 10

// palette colours the edge classes (labels) in order of first appearance.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939"}

// WriteSVG draws e: one <rect class="vertex"> per vertex square and one
// <polyline class="edge"> per path, coloured by the edge's label, with north
// up. Grid vertices are svgUnit pixels apart.
func WriteSVG(w io.Writer, e *Embedding, title string) error {
	b := e.Bounds()
	bw := bufio.NewWriter(w)
	px := func(x int) int { return (x-b.MinX)*svgUnit + svgUnit }
	py := func(y int) int { return (b.MaxY-y)*svgUnit + svgUnit }
	colour := map[string]string{}
	var labels []string
	for k := range e.Edges {
		if l := e.Edges[k].Label; colour[l] == "" {
			colour[l] = palette[len(labels)%len(palette)]
			labels = append(labels, l)
		}
	}
	// The legend sits below the drawing, one line per label.
	width, height := (b.Width()+1)*svgUnit, (b.Height()+1)*svgUnit
	legendY := height + 4
	height += 14*len(labels) + 4
	width = max(width, 120)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	fmt.Fprintf(bw, "<title>%s</title>\n", esc(title))
	fmt.Fprintf(bw, `<rect class="background" x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintln(bw, `<g class="edges" fill="none" stroke-width="2" stroke-linejoin="round">`)
	for k := range e.Edges {
		ed := &e.Edges[k]
		var pts strings.Builder
		for i, p := range Corners(ed.Path) {
			if i > 0 {
				pts.WriteByte(' ')
			}
			fmt.Fprintf(&pts, "%d,%d", px(p.X), py(p.Y))
		}
		fmt.Fprintf(bw, `<polyline class="edge" data-u="%d" data-v="%d" data-length="%d" data-label="%s" stroke="%s" points="%s"/>`+"\n",
			ed.U, ed.V, ed.Length(), esc(ed.Label), colour[ed.Label], pts.String())
	}
	fmt.Fprintln(bw, "</g>")
	fmt.Fprintln(bw, `<g class="vertices" fill="#444" stroke="black" stroke-width="1">`)
	inset := svgUnit / 3
	for v := range e.Pos {
		sq := e.Square(v)
		fmt.Fprintf(bw, `<rect class="vertex" data-v="%d" x="%d" y="%d" width="%d" height="%d"/>`+"\n",
			v, px(sq.MinX)-inset, py(sq.MaxY)-inset, (sq.Width()-1)*svgUnit+2*inset, (sq.Height()-1)*svgUnit+2*inset)
	}
	fmt.Fprintln(bw, "</g>")
	fmt.Fprintln(bw, `<g class="legend" font-family="sans-serif" font-size="10">`)
	for i, l := range labels {
		fmt.Fprintf(bw, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", svgUnit, legendY+14*i+10, colour[l], esc(l))
	}
	fmt.Fprintln(bw, "</g>")
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
