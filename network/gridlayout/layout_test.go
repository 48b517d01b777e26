package gridlayout

import (
	"errors"
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

func build(t *testing.T, s topology.Spec) *topology.Topology {
	t.Helper()
	topo, err := topology.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

func checkAgainst(t *testing.T, e *Embedding, s topology.Spec) {
	t.Helper()
	topo := build(t, s)
	if err := Check(e, len(topo.Switches), GraphOf(topo)); err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
}

// The digest's §6.2 table: the 2n×2n torus in a (4n+2)×(4n+4) box over
// x ∈ [−1, 4n], y ∈ [−2, 4n+1], paths of length 4 and 8 only.
func TestFoldedTorusTable(t *testing.T) {
	table := []struct{ n, edges, w, h, area int }{
		{1, 8, 6, 8, 48}, {2, 32, 10, 12, 120}, {3, 72, 14, 16, 224}, {4, 128, 18, 20, 360}, {5, 200, 22, 24, 528},
	}
	for _, r := range table {
		e, err := FoldedTorus(r.n)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainst(t, e, topology.Spec{Kind: "torus", K: 2 * r.n, N: 2})
		b := e.Bounds()
		if len(e.Edges) != r.edges || b.Width() != r.w || b.Height() != r.h || b.Area() != int64(r.area) {
			t.Errorf("n=%d: %d edges in %d×%d = %d, want %d in %d×%d = %d", r.n, len(e.Edges), b.Width(), b.Height(), b.Area(), r.edges, r.w, r.h, r.area)
		}
		if want := (Box{-1, -2, 4 * r.n, 4*r.n + 1}); b != want {
			t.Errorf("n=%d: box %+v, want %+v", r.n, b, want)
		}
		// Length 4: edges inside a block (2k(k−2)), the left wraps of blocks
		// (1)-(2) and the right folds of (3)-(4) (n each); all else 8.
		k := 2 * r.n
		want := []LengthCount{{4, 2*k*(k-2) + 2*r.n}, {8, 6 * r.n}}
		if got := e.Lengths(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("n=%d: lengths %v, want %v", r.n, got, want)
		}
	}
}

// Thm 5.8's scheme: exactly N×N for d ≤ 4 (digest §6.3); beyond, the
// measured areas of this construction, all within 1.41 N².
func TestCubeAreas(t *testing.T) {
	want := map[int][2]int{1: {2, 2}, 2: {4, 4}, 3: {8, 8}, 4: {16, 16},
		5: {40, 36}, 6: {72, 72}, 7: {144, 128}, 8: {256, 256}, 9: {544, 480}, 10: {960, 960}}
	for d := 1; d <= MaxCubeDim; d++ {
		e, err := Cube(d)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainst(t, e, topology.Spec{Kind: "hypercube", D: d})
		b := e.Bounds()
		if [2]int{b.Width(), b.Height()} != want[d] {
			t.Errorf("d=%d: %d×%d, want %d×%d", d, b.Width(), b.Height(), want[d][0], want[d][1])
		}
		n2 := int64(1) << (2 * d)
		if d <= 4 && b.Area() != n2 || float64(b.Area()) > 1.41*float64(n2) {
			t.Errorf("d=%d: area %d, N² = %d", d, b.Area(), n2)
		}
		if e.Side != SideFor(d) {
			t.Errorf("d=%d: side %d, want ⌈d/4⌉ = %d", d, e.Side, SideFor(d))
		}
		// The longest wires are dimensions 0 and 1 (digest §6.3).
		long := e.Lengths()[len(e.Lengths())-1].Length
		for _, ed := range e.Edges {
			if ed.Length() == long && ed.Label != "dim 0" && ed.Label != "dim 1" {
				t.Errorf("d=%d: longest wire (%d) is %s", d, long, ed.Label)
			}
		}
	}
}

func TestGraphOfCountsUndirectedEdges(t *testing.T) {
	for _, c := range []struct {
		s    topology.Spec
		want int
	}{
		{topology.Spec{Kind: "torus", K: 2, N: 2}, 8}, // direct and wraparound links are two wires
		{topology.Spec{Kind: "torus", K: 4, N: 2}, 32},
		{topology.Spec{Kind: "mesh", K: 4, N: 2}, 24},
		{topology.Spec{Kind: "hypercube", D: 4}, 32},
	} {
		if got := len(GraphOf(build(t, c.s))); got != c.want {
			t.Errorf("%+v: %d edges, want %d", c.s, got, c.want)
		}
	}
}

// Thm 5.16 with the digest's worked sizes: dilation 1 into 2^(2⌈lg N⌉) nodes.
func TestGridInCubeDilationOne(t *testing.T) {
	for side, nodes := range map[int]int{4: 16, 5: 64, 8: 64, 10: 256, 32: 1024} {
		m, err := GridInCube(side, false)
		if err != nil {
			t.Fatal(err)
		}
		if m.Nodes != nodes || m.Dilation != 1 || m.CubeEdges != m.Edges || m.Edges != 2*side*(side-1) {
			t.Errorf("%d×%d grid: %+v, want %d cube nodes, dilation 1, all %d edges on cube edges", side, side, *m, nodes, 2*side*(side-1))
		}
	}
	// The torus's wraparound keeps dilation 1 only when the side is a
	// power of two: G(0) = 0 and G(9) = 1101₂ differ in three bits.
	for side, dil := range map[int]int{8: 1, 10: 3} {
		m, err := GridInCube(side, true)
		if err != nil {
			t.Fatal(err)
		}
		if m.Dilation != dil {
			t.Errorf("%d×%d torus: dilation %d, want %d", side, side, m.Dilation, dil)
		}
	}
}

func TestTorusEdgeLoadIsUniform(t *testing.T) {
	for _, k := range []int{2, 4, 6, 8} {
		lo, hi := TorusEdgeLoad(k)
		if want := int64(k * k * k); lo != want || hi != want {
			t.Errorf("k=%d: edge load %d..%d quarter routes, want %d", k, lo, hi, want)
		}
	}
}

func TestDShuffleBisectionLower(t *testing.T) {
	for _, c := range []struct{ d, n, want int }{{2, 8, 16}, {2, 10, 52}, {3, 6, 92}, {4, 4, 64}} {
		got, err := DShuffleBisectionLower(c.d, c.n)
		if err != nil || got != int64(c.want) {
			t.Errorf("d=%d n=%d: %d %v, want %d", c.d, c.n, got, err, c.want)
		}
	}
	if _, err := DShuffleBisectionLower(1, 3); err == nil {
		t.Error("d = 1 accepted")
	}
}

func TestCubeBisectionWorked(t *testing.T) {
	if b := CubeBisection(4); b.Lower != 8 || b.Upper != 8 {
		t.Errorf("N = 16: %+v, want ω = 8", b)
	}
}

// line is a hand-made embedding: squares of side 1 at the given points.
func line(pos ...Point) *Embedding { return &Embedding{Side: 1, Pos: pos} }

func TestCheckCatchesEachFault(t *testing.T) {
	p := func(c ...Point) []Point { return polyline(c...) }
	cases := []struct {
		name  string
		e     *Embedding
		g     []Pair
		fault string
	}{
		{"overlap", &Embedding{Side: 1, Pos: []Point{{0, 0}, {2, 0}, {2, 2}}, Edges: []Edge{
			{U: 0, V: 1, Path: p(Point{0, 0}, Point{2, 0})},
			{U: 0, V: 2, Path: p(Point{0, 0}, Point{1, 0}, Point{1, 2}, Point{2, 2})}}},
			[]Pair{{0, 1}, {0, 2}}, FaultOverlap},
		{"self-overlap", &Embedding{Side: 1, Pos: []Point{{0, 0}, {2, 0}}, Edges: []Edge{
			{U: 0, V: 1, Path: p(Point{0, 0}, Point{0, 1}, Point{0, 2}, Point{0, 1}, Point{1, 1}, Point{2, 1}, Point{2, 0})}}},
			[]Pair{{0, 1}}, FaultOverlap},
		{"through vertex", &Embedding{Side: 1, Pos: []Point{{0, 0}, {1, 0}, {2, 0}}, Edges: []Edge{
			{U: 0, V: 2, Path: p(Point{0, 0}, Point{2, 0})}}},
			[]Pair{{0, 2}}, FaultThrough},
		{"missing edge", &Embedding{Side: 1, Pos: []Point{{0, 0}, {1, 0}, {2, 0}}, Edges: []Edge{
			{U: 0, V: 1, Path: p(Point{0, 0}, Point{1, 0})}}},
			[]Pair{{0, 1}, {1, 2}}, FaultMissing},
		{"extra edge", &Embedding{Side: 1, Pos: []Point{{0, 0}, {1, 0}}, Edges: []Edge{
			{U: 0, V: 1, Path: p(Point{0, 0}, Point{1, 0})},
			{U: 0, V: 1, Path: p(Point{0, 0}, Point{0, 1}, Point{1, 1}, Point{1, 0})}}},
			[]Pair{{0, 1}}, FaultExtra},
		{"wrong endpoint", &Embedding{Side: 1, Pos: []Point{{0, 0}, {2, 0}}, Edges: []Edge{
			{U: 0, V: 1, Path: p(Point{0, 0}, Point{2, 0}, Point{2, 1})}}},
			[]Pair{{0, 1}}, FaultEndpoint},
		{"jump", &Embedding{Side: 1, Pos: []Point{{0, 0}, {2, 0}}, Edges: []Edge{
			{U: 0, V: 1, Path: []Point{{0, 0}, {2, 0}}}}},
			[]Pair{{0, 1}}, FaultStep},
		{"squares overlap", &Embedding{Side: 2, Pos: []Point{{0, 0}, {1, 1}}}, nil, FaultSquares},
		{"square too small", &Embedding{Side: 1, Pos: []Point{{0, 0}, {3, 0}}, Edges: nil},
			[]Pair{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}}, FaultSquares},
	}
	for _, c := range cases {
		err := Check(c.e, len(c.e.Pos), c.g)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != c.fault {
			t.Errorf("%s: got %v, want a %s fault", c.name, err, c.fault)
		}
	}
}

// Faults planted in real layouts (the 2×2 and 4×4 folded tori) are caught.
func TestCheckCatchesFaultsInFoldedTorus(t *testing.T) {
	mutate := map[string]func(e *Embedding){
		FaultMissing: func(e *Embedding) { e.Edges = e.Edges[:len(e.Edges)-1] },
		FaultExtra:   func(e *Embedding) { e.Edges[0].V = e.Edges[0].U + 5 },
		FaultEndpoint: func(e *Embedding) {
			e.Edges[0].U, e.Edges[0].V = e.Edges[0].V, e.Edges[0].U
		},
		// Edge 0 joins (0,0) and (4,0) straight; the detour crosses the
		// square of vertex (3,0) at (1,1).
		FaultThrough: func(e *Embedding) {
			e.Edges[0].Path = polyline(Point{0, 0}, Point{1, 0}, Point{1, 2}, Point{4, 2}, Point{4, 0})
		},
	}
	for want, f := range mutate {
		topo := build(t, topology.Spec{Kind: "torus", K: 4, N: 2})
		e, _ := FoldedTorus(2)
		f(e)
		if err := Check(e, 16, GraphOf(topo)); !isFault(err, want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
	// In the 2×2 torus the wrap and the fold join the same two vertices:
	// giving both the same path keeps the edge multiset and endpoints right.
	topo := build(t, topology.Spec{Kind: "torus", K: 2, N: 2})
	e, _ := FoldedTorus(1)
	if err := Check(e, 4, GraphOf(topo)); err != nil {
		t.Fatal(err)
	}
	for i := range e.Edges {
		for j := i + 1; j < len(e.Edges); j++ {
			if e.Edges[i].U == e.Edges[j].U && e.Edges[i].V == e.Edges[j].V {
				e.Edges[j].Path = e.Edges[i].Path
				if err := Check(e, 4, GraphOf(topo)); !isFault(err, FaultOverlap) {
					t.Errorf("overlap: got %v", err)
				}
				return
			}
		}
	}
	t.Fatal("no parallel edges in the 2×2 torus layout")
}

func isFault(err error, kind string) bool {
	var f *Fault
	return errors.As(err, &f) && f.Kind == kind
}

func TestCornersUndoPolyline(t *testing.T) {
	for _, c := range [][]Point{
		{{0, 0}, {4, 0}},
		{{4, 0}, {8, 0}, {8, 1}, {5, 1}},
		{{0, 0}, {0, -2}, {2, -2}, {2, 2}},
	} {
		if got := Corners(polyline(c...)); fmt.Sprint(got) != fmt.Sprint(c) {
			t.Errorf("Corners(polyline(%v)) = %v", c, got)
		}
	}
}
