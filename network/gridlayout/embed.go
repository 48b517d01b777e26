// Package gridlayout builds and checks grid embeddings (VLSI layouts) of
// interconnection networks in Thompson's model, as Brebner's thesis
// (1983, chapter 5, Def 5.1/5.2) uses it: every vertex of a degree-d graph is
// a ⌈d/4⌉ × ⌈d/4⌉ square of grid vertices, every undirected edge is a path
// along grid edges from one endpoint's square to the other's, no two paths
// share a grid edge (they may cross at grid vertices), and no path passes
// through a third vertex's square. The area is the number of grid vertices
// in the smallest enclosing rectangle.
//
// This is the chip-area view of a network; it has nothing to do with
// network/layout.go, which lays out the simulation kernel's buffers.
//
// The constructions are the folded torus of Thm 5.5 (FoldedTorus), the
// cube's Θ(N²) layout of Thm 5.8 (Cube) and the grid-in-cube Gray-code
// embedding of Thm 5.16 (GridInCube); for the d-shuffle (DShuffle, with
// Thm 5.12's binary-coded mapping in BinaryCodedPath) and Varvarigos's
// folded cube, permutation cube and pseudocube (CubeLike), a general
// channel router (ArrayLayout) on a placement. Check verifies an embedding against
// the graph that network/topology.Build wires for the simulator (GraphOf),
// so a layout cannot drift from the simulated network.
package gridlayout

import "sort"

// Point is a grid vertex.
type Point struct{ X, Y int }

// Edge is one undirected graph edge and the grid path that embeds it:
// Path[0] lies in U's square, the last point in V's square, and consecutive
// points are one grid step apart. Label names the edge's class for reports
// and drawings ("x", "y", "dim 3").
type Edge struct {
	U, V  int
	Label string
	Path  []Point
}

// Length is the number of grid edges on the path.
func (e *Edge) Length() int { return len(e.Path) - 1 }

// Embedding is a grid embedding: vertex v's square has its lower-left grid
// vertex at Pos[v] and side Side; Edges holds one path per graph edge.
type Embedding struct {
	Name  string // the construction, for reports
	Side  int
	Pos   []Point
	Edges []Edge
}

// Box is a bounding box, inclusive on both ends.
type Box struct {
	MinX int `json:"min_x"`
	MinY int `json:"min_y"`
	MaxX int `json:"max_x"`
	MaxY int `json:"max_y"`
}

// Width is the number of grid columns in the box.
func (b Box) Width() int { return b.MaxX - b.MinX + 1 }

// Height is the number of grid rows in the box.
func (b Box) Height() int { return b.MaxY - b.MinY + 1 }

// Area is the number of grid vertices in the box (Brebner's area measure).
func (b Box) Area() int64 { return int64(b.Width()) * int64(b.Height()) }

// Contains reports whether p lies in the box.
func (b Box) Contains(p Point) bool {
	return p.X >= b.MinX && p.X <= b.MaxX && p.Y >= b.MinY && p.Y <= b.MaxY
}

// Bounds is the smallest box holding every vertex square and every path.
func (e *Embedding) Bounds() Box {
	b := Box{MinX: 1 << 62, MinY: 1 << 62, MaxX: -1 << 62, MaxY: -1 << 62}
	add := func(p Point) {
		b.MinX, b.MaxX = min(b.MinX, p.X), max(b.MaxX, p.X)
		b.MinY, b.MaxY = min(b.MinY, p.Y), max(b.MaxY, p.Y)
	}
	for _, p := range e.Pos {
		add(p)
		add(Point{p.X + e.Side - 1, p.Y + e.Side - 1})
	}
	for i := range e.Edges {
		for _, p := range e.Edges[i].Path {
			add(p)
		}
	}
	if b.MinX > b.MaxX {
		return Box{}
	}
	return b
}

// Square is vertex v's square.
func (e *Embedding) Square(v int) Box {
	p := e.Pos[v]
	return Box{p.X, p.Y, p.X + e.Side - 1, p.Y + e.Side - 1}
}

// LengthCount is how many edges have one path length.
type LengthCount struct {
	Length int
	Count  int
}

// Lengths is the edge-length distribution, shortest first.
func (e *Embedding) Lengths() []LengthCount {
	m := map[int]int{}
	for i := range e.Edges {
		m[e.Edges[i].Length()]++
	}
	out := make([]LengthCount, 0, len(m))
	for l, c := range m {
		out = append(out, LengthCount{l, c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Length < out[j].Length })
	return out
}

// WireLength is the total path length (grid edges used by all paths).
func (e *Embedding) WireLength() int64 {
	var s int64
	for i := range e.Edges {
		s += int64(e.Edges[i].Length())
	}
	return s
}

// SideFor is Def 5.2's vertex square side for a degree-d graph: ⌈d/4⌉, so
// that the square's perimeter offers d exits.
func SideFor(degree int) int { return max(1, (degree+3)/4) }

// polyline expands corner points into unit steps: each consecutive pair of
// corners must share a coordinate.
func polyline(corners ...Point) []Point {
	out := []Point{corners[0]}
	for _, c := range corners[1:] {
		p := out[len(out)-1]
		if p.X != c.X && p.Y != c.Y {
			panic("gridlayout: polyline corners must be axis-aligned")
		}
		for p != c {
			p.X += sign(c.X - p.X)
			p.Y += sign(c.Y - p.Y)
			out = append(out, p)
		}
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Corners reduces a path to its end points and turning points (for drawing).
func Corners(path []Point) []Point {
	if len(path) <= 2 {
		return append([]Point(nil), path...)
	}
	out := []Point{path[0]}
	for i := 1; i < len(path)-1; i++ {
		a, b, c := path[i-1], path[i], path[i+1]
		if (a.X == b.X) != (b.X == c.X) || (a.Y == b.Y) != (b.Y == c.Y) ||
			sign(b.X-a.X) != sign(c.X-b.X) || sign(b.Y-a.Y) != sign(c.Y-b.Y) {
			out = append(out, b)
		}
	}
	return append(out, path[len(path)-1])
}
