package gridlayout

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/network/topology"
)

// Gray is the reflected Gray code G(x) = x ⊕ ⌊x/2⌋.
func Gray(x int) int { return x ^ x>>1 }

// GridMap is Brebner's Thm 5.16 embedding of the side×side grid (the
// simulator's 2-D mesh, or torus when Torus) into the cube of dimension
// CubeDim = 2⌈lg side⌉: node (x, y) goes to G(x)·2^⌈lg side⌉ + G(y). The
// thesis prints the cube size as 2^⌈lg N⌉; it must be 2^(2⌈lg N⌉).
type GridMap struct {
	Side    int   `json:"side"`
	Torus   bool  `json:"torus"`
	CubeDim int   `json:"cube_dim"`
	Nodes   int   `json:"cube_nodes"`
	Edges   int   `json:"grid_edges"`
	Map     []int `json:"-"`
	// Dilation is the longest cube distance between the images of a grid
	// edge's ends; CubeEdges how many grid edges map onto an edge of the
	// simulator's hypercube (all of them when Dilation is 1).
	Dilation  int `json:"dilation"`
	CubeEdges int `json:"cube_edges"`
}

// GridInCube builds and measures the Gray-code embedding of the side×side
// mesh (or torus) as topology.Build wires it. The reflected Gray code is
// cyclic only over a power of two, so a torus's wraparound edges have
// dilation 1 only when side is a power of two.
func GridInCube(side int, torus bool) (*GridMap, error) {
	kind := "mesh"
	if torus {
		kind = "torus"
	}
	g, err := topology.Build(topology.Spec{Kind: kind, K: side, N: 2})
	if err != nil {
		return nil, err
	}
	half := bits.Len(uint(side - 1)) // ⌈lg side⌉
	m := &GridMap{Side: side, Torus: torus, CubeDim: 2 * half, Nodes: 1 << (2 * half)}
	cube, err := topology.Build(topology.Spec{Kind: "hypercube", D: max(1, m.CubeDim)})
	if err != nil {
		return nil, err
	}
	isCubeEdge := func(a, b int) bool {
		for _, end := range cube.Switches[a].Out {
			if int(end.Switch) == b {
				return true
			}
		}
		return false
	}
	m.Map = make([]int, side*side)
	seen := make(map[int]bool, side*side)
	for v := range m.Map {
		x, y := v%side, v/side // the simulator's node x + side·y
		m.Map[v] = Gray(x)<<half | Gray(y)
		if seen[m.Map[v]] {
			return nil, fmt.Errorf("grid in cube: two grid nodes map to cube node %d", m.Map[v])
		}
		seen[m.Map[v]] = true
	}
	for _, p := range GraphOf(g) {
		a, b := m.Map[p.U], m.Map[p.V]
		m.Edges++
		m.Dilation = max(m.Dilation, bits.OnesCount(uint(a^b)))
		if isCubeEdge(a, b) {
			m.CubeEdges++
		}
	}
	return m, nil
}
