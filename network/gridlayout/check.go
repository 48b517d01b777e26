package gridlayout

import "fmt"

// Fault kinds reported by Check.
const (
	FaultSquares  = "squares"        // wrong number of squares, too small, or overlapping
	FaultStep     = "step"           // a path step is not one grid edge, or a path is empty
	FaultEndpoint = "endpoint"       // a path does not start in U's square or end in V's
	FaultThrough  = "through-vertex" // a path passes through a vertex square
	FaultOverlap  = "overlap"        // two paths (or one path twice) use the same grid edge
	FaultMissing  = "missing-edge"   // a graph edge has no path
	FaultExtra    = "extra-edge"     // a path embeds an edge the graph does not have
)

// Fault is the first violation Check found.
type Fault struct {
	Kind string
	Edge int // index into Embedding.Edges, or -1
	Msg  string
}

func (f *Fault) Error() string { return "layout check: " + f.Kind + ": " + f.Msg }

// MaxCheckArea bounds the bounding box Check accepts (it keeps one word per
// grid vertex and grid edge).
const MaxCheckArea = 1 << 26

// Check verifies that e is a grid embedding (Def 5.2) of the undirected
// multigraph g on nodes vertices: one square of side ≥ ⌈degree/4⌉ per
// vertex, squares disjoint; every path made of unit grid steps from U's
// square to V's square; no path point other than its two ends inside any
// vertex square (wires leave a square at its perimeter); no grid edge used
// twice; and the embedded edges equal g as a multiset.
func Check(e *Embedding, nodes int, g []Pair) error {
	if len(e.Pos) != nodes {
		return &Fault{FaultSquares, -1, fmt.Sprintf("%d vertex squares for %d vertices", len(e.Pos), nodes)}
	}
	if need := SideFor(MaxDegree(nodes, g)); e.Side < need {
		return &Fault{FaultSquares, -1, fmt.Sprintf("square side %d is below ⌈degree/4⌉ = %d", e.Side, need)}
	}
	if err := checkEdgeSet(e, g); err != nil {
		return err
	}
	box := e.Bounds()
	if box.Area() > MaxCheckArea {
		return &Fault{FaultSquares, -1, fmt.Sprintf("bounding box %d×%d is larger than the checker's %d grid vertices", box.Width(), box.Height(), MaxCheckArea)}
	}
	w := box.Width()
	idx := func(p Point) int { return (p.Y-box.MinY)*w + p.X - box.MinX }
	owner := make([]int32, box.Area()) // vertex whose square holds the point, +1
	for v := range e.Pos {
		sq := e.Square(v)
		for y := sq.MinY; y <= sq.MaxY; y++ {
			for x := sq.MinX; x <= sq.MaxX; x++ {
				i := idx(Point{x, y})
				if owner[i] != 0 {
					return &Fault{FaultSquares, -1, fmt.Sprintf("squares of vertices %d and %d overlap at (%d,%d)", owner[i]-1, v, x, y)}
				}
				owner[i] = int32(v + 1)
			}
		}
	}
	// used[2i] is the grid edge from point i to the right, used[2i+1] the
	// one upward; each holds the path index + 1.
	used := make([]int32, 2*box.Area())
	for k := range e.Edges {
		if err := checkPath(e, k, owner, used, idx); err != nil {
			return err
		}
	}
	return nil
}

func checkPath(e *Embedding, k int, owner, used []int32, idx func(Point) int) error {
	ed := &e.Edges[k]
	name := fmt.Sprintf("edge {%d,%d} (path %d)", ed.U, ed.V, k)
	if len(ed.Path) < 2 {
		return &Fault{FaultStep, k, name + " has fewer than two points"}
	}
	first, last := ed.Path[0], ed.Path[len(ed.Path)-1]
	if !e.Square(ed.U).Contains(first) || !e.Square(ed.V).Contains(last) {
		return &Fault{FaultEndpoint, k, fmt.Sprintf("%s runs from (%d,%d) to (%d,%d), not from vertex %d's square to vertex %d's",
			name, first.X, first.Y, last.X, last.Y, ed.U, ed.V)}
	}
	for i, p := range ed.Path {
		if i > 0 && i < len(ed.Path)-1 {
			if v := owner[idx(p)]; v != 0 {
				return &Fault{FaultThrough, k, fmt.Sprintf("%s passes through vertex %d's square at (%d,%d)", name, v-1, p.X, p.Y)}
			}
		}
		if i == 0 {
			continue
		}
		q := ed.Path[i-1]
		dx, dy := p.X-q.X, p.Y-q.Y
		if dx*dx+dy*dy != 1 {
			return &Fault{FaultStep, k, fmt.Sprintf("%s steps from (%d,%d) to (%d,%d), not one grid edge", name, q.X, q.Y, p.X, p.Y)}
		}
		lo, up := q, 1
		if dx != 0 {
			up = 0
		}
		if dx < 0 || dy < 0 {
			lo = p
		}
		slot := 2*idx(lo) + up
		if o := used[slot]; o != 0 {
			other := "itself"
			if int(o-1) != k {
				other = fmt.Sprintf("path %d (edge {%d,%d})", o-1, e.Edges[o-1].U, e.Edges[o-1].V)
			}
			return &Fault{FaultOverlap, k, fmt.Sprintf("%s shares the grid edge (%d,%d)–(%d,%d) with %s", name, q.X, q.Y, p.X, p.Y, other)}
		}
		used[slot] = int32(k + 1)
	}
	return nil
}

// checkEdgeSet compares the embedded edges with g as multisets.
func checkEdgeSet(e *Embedding, g []Pair) error {
	want := map[Pair]int{}
	for _, p := range g {
		want[p]++
	}
	for k := range e.Edges {
		p := pairOf(e.Edges[k].U, e.Edges[k].V)
		if want[p] == 0 {
			return &Fault{FaultExtra, k, fmt.Sprintf("path %d embeds {%d,%d}, which the network does not have (or has fewer times)", k, p.U, p.V)}
		}
		want[p]--
	}
	for _, p := range g { // g's order, so the report is deterministic
		if want[p] > 0 {
			return &Fault{FaultMissing, -1, fmt.Sprintf("the network's edge {%d,%d} has no path", p.U, p.V)}
		}
	}
	return nil
}
