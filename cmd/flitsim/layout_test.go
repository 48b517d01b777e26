package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestLayoutJSONTorus(t *testing.T) {
	code, out, stderr := runMain(t, "layout", "--set", "topology.kind=torus", "--set", "topology.k=8", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Width       int            `json:"width"`
		Height      int            `json:"height"`
		Area        int64          `json:"area"`
		EdgeLengths map[string]int `json:"edge_lengths"`
		Edges       int            `json:"edges"`
		Checked     bool           `json:"checked"`
		Bisection   struct {
			Lower, Upper int
		} `json:"bisection"`
		Box struct {
			MinX int `json:"min_x"`
			MinY int `json:"min_y"`
			MaxX int `json:"max_x"`
			MaxY int `json:"max_y"`
		} `json:"bounding_box"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// n = 4: the (4n+2)×(4n+4) box of Thm 5.5, 104 paths of length 4 and 24 of 8.
	if r.Width != 18 || r.Height != 20 || r.Area != 360 || !r.Checked || r.Edges != 128 {
		t.Errorf("got %+v", r)
	}
	if len(r.EdgeLengths) != 2 || r.EdgeLengths["4"] != 104 || r.EdgeLengths["8"] != 24 {
		t.Errorf("edge_lengths %v", r.EdgeLengths)
	}
	if r.Bisection.Lower != 16 || r.Bisection.Upper != 16 {
		t.Errorf("bisection %+v, want 2k = 16", r.Bisection)
	}
	if r.Box.MinX != -1 || r.Box.MinY != -2 || r.Box.MaxX != 16 || r.Box.MaxY != 17 {
		t.Errorf("bounding_box %+v", r.Box)
	}
}

func TestLayoutTableCube(t *testing.T) {
	code, out, stderr := runMain(t, "layout", "--set", "topology.kind=hypercube", "--set", "topology.d=4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"16 × 16", "256 grid vertices", "bisection width ≥", "EDGE LENGTH", "dilation 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// The SVG parses as XML and has one vertex rectangle per vertex and one
// polyline per edge.
func TestLayoutSVG(t *testing.T) {
	for _, c := range []struct {
		args          []string
		vertex, edges int
	}{
		{[]string{"--set", "topology.kind=torus", "--set", "topology.k=6"}, 36, 72},
		{[]string{"--set", "topology.kind=hypercube", "--set", "topology.d=5"}, 32, 80},
		// 32 links less 2 self-loops, and 0101 ↔ 1010 is one wire.
		{[]string{"--set", "topology.kind=dshuffle", "--set", "topology.d=2", "--set", "topology.n=4"}, 16, 29},
		{[]string{"--set", "topology.kind=folded-cube", "--set", "topology.d=3"}, 8, 16},
	} {
		code, out, stderr := runMain(t, append(append([]string{"layout"}, c.args...), "--format", "svg")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		counts := map[string]int{}
		dec := xml.NewDecoder(strings.NewReader(out))
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%v: not XML: %v", c.args, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Local
				}
				for _, a := range se.Attr {
					if a.Name.Local == "class" {
						counts[se.Name.Local+"."+a.Value]++
					}
				}
			}
		}
		if root != "svg" || counts["rect.vertex"] != c.vertex || counts["polyline.edge"] != c.edges {
			t.Errorf("%v: root %q, counts %v, want %d vertices and %d edges", c.args, root, counts, c.vertex, c.edges)
		}
	}
}

// The d-shuffle is laid out and checked; the JSON carries Thm 5.9's bound,
// the area against Θ((dN/log_d N)²) and Thm 5.12's binary-coded load.
func TestLayoutDShuffleJSON(t *testing.T) {
	code, out, stderr := runMain(t, "layout", "--set", "topology.kind=dshuffle", "--set", "topology.d=3", "--set", "topology.n=4", "-f", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Nodes, Edges int
		Area         int64
		Checked      bool
		Bisection    struct{ Lower int }
		AreaBound    struct {
			Formula      string
			Value, Ratio float64
		} `json:"area_bound"`
		BinaryCoded struct {
			MaxLoad int `json:"max_load"`
			Bound   int
		} `json:"binary_coded"`
		EdgeLengths map[string]int `json:"edge_lengths"`
		Scaling     []struct {
			N     int
			Area  int64
			Ratio float64
		} `json:"area_scaling"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// 81 vertices; 3·81 links less the 3 self-loops (aaaa), and the 6
	// links of the 3 two-cycles abab ↔ baba are 3 wires: 237. Thm 5.9:
	// ⌈40·41/(4·27)⌉ = 16.
	if r.Nodes != 81 || r.Edges != 237 || !r.Checked || r.Area != 26244 || r.Bisection.Lower != 16 {
		t.Errorf("got %+v", r)
	}
	if r.AreaBound.Formula != "(dN/log_d N)²" || r.AreaBound.Value != 3690.5625 || r.AreaBound.Ratio < 7.1 || r.AreaBound.Ratio > 7.2 {
		t.Errorf("area_bound %+v", r.AreaBound)
	}
	if len(r.Scaling) != 3 || r.Scaling[2].Area != r.Area || r.Scaling[0].N != 2 || r.Scaling[0].Ratio <= 0 {
		t.Errorf("area_scaling %+v", r.Scaling)
	}
	if r.BinaryCoded.MaxLoad == 0 || r.BinaryCoded.MaxLoad > r.BinaryCoded.Bound || r.BinaryCoded.Bound != 4 {
		t.Errorf("binary_coded %+v", r.BinaryCoded)
	}
	sum := 0
	for _, c := range r.EdgeLengths {
		sum += c
	}
	if sum != r.Edges {
		t.Errorf("edge_lengths count %d edges, want %d", sum, r.Edges)
	}
}

// Varvarigos §7.5's networks through the same command, with the seed's
// figure for each.
func TestLayoutCubeLikeTables(t *testing.T) {
	for _, c := range []struct {
		kind string
		want []string
	}{
		{"folded-cube", []string{"A_cube + 16N²", "868 grid vertices", "A_cube = 462", "checked"}},
		{"permutation-cube", []string{"Θ(N²)", "no constant given"}},
		{"pseudocube", []string{"8N = 128", "Proposition 1"}},
	} {
		code, out, stderr := runMain(t, "layout", "--set", "topology.kind="+c.kind, "--set", "topology.d=4")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.kind, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: table lacks %q:\n%s", c.kind, w, out)
			}
		}
	}
}

func TestLayoutBadInput(t *testing.T) {
	for _, c := range []struct {
		args  []string
		parts []string
	}{
		{[]string{"--set", "topology.kind=torus", "--set", "topology.k=7"}, []string{"topology.k: 7", "even"}},
		{[]string{"--set", "topology.kind=torus", "--set", "topology.k=8", "--set", "topology.n=3"}, []string{"topology.n: 3", "2-D"}},
		{[]string{"--set", "topology.kind=mesh", "--set", "topology.k=4", "--set", "topology.n=2"}, []string{"topology.kind: mesh", "torus", "hypercube"}},
		{[]string{"--set", "topology.kind=hypercube", "--set", "topology.d=11"}, []string{"topology.d: 11", "1 to 10"}},
		{[]string{"--set", "topology.kind=dshuffle", "--set", "topology.d=1", "--set", "topology.n=4"}, []string{"topology.d: 1"}},
		{[]string{"--set", "topology.kind=dshuffle", "--set", "topology.d=4", "--set", "topology.n=7"}, []string{"topology.n: 7", "at most 5 digits"}},
		{[]string{"--set", "topology.kind=dshuffle", "--set", "topology.d=40", "--set", "topology.n=1"}, []string{"topology.d: 40", "2 to 32"}},
		{[]string{"--set", "topology.kind=pseudocube", "--set", "topology.d=11"}, []string{"topology.d: 11", "2 to 10"}},
		{[]string{"--format", "png"}, []string{"--format", "png", "svg"}},
		{[]string{"--set", "topology.x=1"}, []string{"topology.x"}},
		// The default experiment (an 8×8 mesh): which kinds it lays out.
		{nil, []string{"default configuration (mesh k=8 n=2)", "torus (2-D, even k), hypercube, dshuffle, folded-cube, permutation-cube, pseudocube", "-c FILE"}},
	} {
		wantFail(t, 2, append([]string{"layout"}, c.args...), c.parts...)
	}
}

func TestLayoutHelp(t *testing.T) {
	if _, out, _ := runMain(t, "help"); !strings.Contains(out, "flitsim layout") {
		t.Errorf("help does not list layout:\n%s", out)
	}
	if code, out, _ := runMain(t, "help", "layout"); code != 0 || !strings.Contains(out, "Usage: flitsim layout") || !strings.Contains(out, "--format") {
		t.Errorf("help layout: exit %d\n%s", code, out)
	}
}

// Past 32 distinct lengths the table groups them by power-of-two ranges.
func TestLayoutLengthRows(t *testing.T) {
	var ls []int
	count := map[int]int{}
	for l := 1; l <= 40; l++ {
		ls = append(ls, l)
		count[l] = 1
	}
	got := fmt.Sprint(lengthRows(ls, count))
	if want := "[[1–1 1] [2–3 2] [4–7 4] [8–15 8] [16–31 16] [32–63 9]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := fmt.Sprint(lengthRows([]int{4, 8}, map[int]int{4: 3, 8: 5})); got != "[[4 3] [8 5]]" {
		t.Errorf("short distribution: %s", got)
	}
}
