package gridlayout

import (
	"fmt"
	"math/bits"
)

// MaxCubeLikeDim is the largest dimension CubeLike lays out (the checker's
// bitmap must hold the box).
const MaxCubeLikeDim = 10

// CubePlacement is the recursive (H-tree order) placement of Varvarigos
// §7.5 for a 2^d-vertex cube-like network: dimension 2j is bit j of the
// column, dimension 2j+1 bit j of the row. The top two bits pick the four
// quarters H_00, H_01, H_10, H_11, each laid out the same way inside, so a
// dimension-i link of a pseudocube or permutation cube (which flips bit i
// and changes only bits below i) stays inside its block of 2^(i+1) nodes.
func CubePlacement(d int) Placement {
	mc, mr := (d+1)/2, d/2
	pl := Placement{Cols: 1 << mc, Rows: 1 << mr, Col: make([]int, 1<<d), Row: make([]int, 1<<d)}
	for v := range pl.Col {
		for k := range d {
			if v>>k&1 == 0 {
				continue
			}
			if k%2 == 0 {
				pl.Col[v] |= 1 << (k / 2)
			} else {
				pl.Row[v] |= 1 << (k / 2)
			}
		}
	}
	return pl
}

// CubeLike lays out a network on 2^d vertices (the folded cube, a
// permutation cube or a pseudocube, given as its wire multigraph g) by the
// general channel router on the recursive cube placement.
func CubeLike(kind string, d int, g []Pair) (*Embedding, error) {
	if d < 1 || d > MaxCubeLikeDim {
		return nil, fmt.Errorf("%s layout: d = %d, want 1 ≤ d ≤ %d", kind, d, MaxCubeLikeDim)
	}
	pl := CubePlacement(d)
	name := fmt.Sprintf("%s d=%d: recursive cube placement (%d×%d array, quarters H_00…H_11 as Varvarigos §7.5), channel-routed", kind, d, pl.Cols, pl.Rows)
	e, err := ArrayLayout(name, 1<<d, g, pl)
	if err != nil {
		return nil, err
	}
	for k := range e.Edges {
		ed := &e.Edges[k]
		x := ed.U ^ ed.V
		switch {
		case kind == "folded-cube" && x == 1<<d-1:
			ed.Label = "complement"
		default:
			ed.Label = fmt.Sprintf("dim %d", bits.Len(uint(x))-1)
		}
	}
	return e, nil
}

// FoldedCubeArea is Varvarigos §7.5's bound for the folded cube: the
// hypercube's layout plus the complement links in at most 4N horizontal and
// 4N vertical unidirectional channels, area ≤ A_cube + 16N².
func FoldedCubeArea(cubeArea int64, d int) int64 {
	n := int64(1) << d
	return cubeArea + 16*n*n
}

// PseudocubeSide is Varvarigos §7.5 Proposition 1's side without its
// unstated Θ(√maxdeg)·√N term: the recurrence L(N) = 2L(N/4) + 4N sums to
// 8N (N a power of 4).
func PseudocubeSide(d int) int64 { return 8 << d }
