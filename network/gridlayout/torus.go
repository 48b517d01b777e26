package gridlayout

import "fmt"

// FoldedTorus is the layout of Brebner's Thm 5.5 for the 2n×2n torus
// (k = 2n): the plain grid layout folded about both middle lines, so the
// four quadrants (blocks) interleave at offsets 0..3 of a 4-unit pitch and
// every torus edge becomes a path of length 4 or 8. Vertex (i, j) is the
// simulator's node i + 2n·j (i along dimension 0, drawn as x).
//
// Coordinates follow the digest (§6.2), which corrects the OCR's indices:
// block 2 is at x = 4(2n−i−1)+1 (the OCR's 4(n−i−1)+1 would be negative),
// and the bottom wrap between blocks 2 and 4 is for n ≤ i ≤ 2n−1. The box is
// x ∈ [−1, 4n], y ∈ [−2, 4n+1]: (4n+2) × (4n+4) grid vertices.
func FoldedTorus(n int) (*Embedding, error) {
	if n < 1 {
		return nil, fmt.Errorf("folded torus: n = %d, want n ≥ 1 (a 2n×2n torus)", n)
	}
	k := 2 * n
	e := &Embedding{
		Name: fmt.Sprintf("folded %d×%d torus (Brebner Thm 5.5)", k, k),
		Side: 1,
		Pos:  make([]Point, k*k),
	}
	id := func(i, j int) int { return i + k*j }
	for j := range k {
		for i := range k {
			e.Pos[id(i, j)] = torusPos(n, i, j)
		}
	}
	// Edges inside a block: straight paths between neighbours that are not
	// separated by a fold (i = n−1, n) or a wrap (i = 2n−1, 0).
	for j := range k {
		for i := range k {
			if i != n-1 && i != k-1 {
				e.add(id(i, j), id(i+1, j), "x", polyline(e.Pos[id(i, j)], e.Pos[id(i+1, j)]))
			}
			if j != n-1 && j != k-1 {
				e.add(id(i, j), id(i, j+1), "y", polyline(e.Pos[id(i, j)], e.Pos[id(i, j+1)]))
			}
		}
	}
	for j := range k {
		if j < n { // blocks (1)-(2)
			y := 4 * j
			e.add(id(0, j), id(k-1, j), "x wrap", polyline(Point{0, y}, Point{-1, y}, Point{-1, y + 1}, Point{1, y + 1}))
			e.add(id(n-1, j), id(n, j), "x fold", polyline(Point{4*n - 4, y}, Point{4 * n, y}, Point{4 * n, y + 1}, Point{4*n - 3, y + 1}))
		} else { // blocks (3)-(4)
			y := 4*(k-j-1) + 2
			e.add(id(0, j), id(k-1, j), "x wrap", polyline(Point{2, y}, Point{-1, y}, Point{-1, y + 1}, Point{3, y + 1}))
			e.add(id(n-1, j), id(n, j), "x fold", polyline(Point{4*n - 2, y}, Point{4 * n, y}, Point{4 * n, y + 1}, Point{4*n - 1, y + 1}))
		}
	}
	for i := range k {
		if i < n { // blocks (1)-(3)
			x := 4 * i
			e.add(id(i, 0), id(i, k-1), "y wrap", polyline(Point{x, 0}, Point{x, -2}, Point{x + 2, -2}, Point{x + 2, 2}))
			e.add(id(i, n-1), id(i, n), "y fold", polyline(Point{x, 4*n - 4}, Point{x, 4 * n}, Point{x + 2, 4 * n}, Point{x + 2, 4*n - 2}))
		} else { // blocks (2)-(4)
			x := 4 * (k - i - 1)
			e.add(id(i, 0), id(i, k-1), "y wrap", polyline(Point{x + 1, 1}, Point{x + 1, -1}, Point{x + 3, -1}, Point{x + 3, 3}))
			e.add(id(i, n-1), id(i, n), "y fold", polyline(Point{x + 1, 4*n - 3}, Point{x + 1, 4*n + 1}, Point{x + 3, 4*n + 1}, Point{x + 3, 4*n - 1}))
		}
	}
	return e, nil
}

// torusPos places vertex (i, j) of the 2n×2n torus: block (1) i, j < n;
// (2) i ≥ n, j < n; (3) i < n, j ≥ n; (4) i, j ≥ n.
func torusPos(n, i, j int) Point {
	k := 2 * n
	switch {
	case i < n && j < n:
		return Point{4 * i, 4 * j}
	case j < n:
		return Point{4*(k-i-1) + 1, 4*j + 1}
	case i < n:
		return Point{4*i + 2, 4*(k-j-1) + 2}
	}
	return Point{4*(k-i-1) + 3, 4*(k-j-1) + 3}
}

func (e *Embedding) add(u, v int, label string, path []Point) {
	e.Edges = append(e.Edges, Edge{U: u, V: v, Label: label, Path: path})
}
