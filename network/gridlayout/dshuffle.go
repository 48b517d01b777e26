package gridlayout

import (
	"fmt"
	"math"
	"math/cmplx"
	"sort"
)

// MaxDShuffleNodes and MaxDShuffleWeight bound the d-shuffles DShuffle lays
// out: N ≤ 4096 and N·d² ≤ 32768, since the area grows as (dN/log_d N)²
// (the 4-shuffle with N = 4096 already needs 53 million grid vertices and
// gigabytes to check).
const (
	MaxDShuffleNodes  = 4096
	MaxDShuffleWeight = 1 << 15
)

// DShuffle lays out the d-shuffle with N = d^n vertices (given as its wire
// multigraph g: the simulator's directed links as undirected wires, a link
// and its reverse as one wire, self-loops omitted since a loop needs no
// wire between squares) by the general channel router, with the vertices
// placed after the complex-plane diagram of the shuffle-exchange graph
// (Hoey & Leiserson, the starting point of Kleitman, Leighton, Lepley and
// Miller's optimal layout): x = x_{n−1}…x_0 sits at z(x) = Σ x_i ω^i,
// ω = e^{2πi/n}. A d-shuffle link x → y = x·d − x_{n−1}·d^n + β has
// z(y) = ω·z(x) + β − x_{n−1}: a rotation by 2π/n and a short shift, so
// links are short in the plane. The plane is snapped to an array by rank:
// rows by Im z, then columns by Re z within a row.
//
// This is not the thesis's construction (Thm 5.11 turns the KLLM layout of
// the shuffle-exchange graph into a 2-shuffle layout, Thm 5.12 binary-codes
// the d-ary digits onto it); DShuffleAreaBound gives the order it reaches,
// and the report prints the measured ratio.
func DShuffle(d, n int, g []Pair) (*Embedding, error) {
	nodes, ok := dshuffleNodes(d, n)
	if !ok || nodes > MaxDShuffleNodes || nodes*d*d > MaxDShuffleWeight {
		return nil, fmt.Errorf("d-shuffle layout: d = %d, n = %d, want 2 ≤ d, 1 ≤ n, N = d^n ≤ %d and N·d² ≤ %d", d, n, MaxDShuffleNodes, MaxDShuffleWeight)
	}
	pl := complexPlacement(d, n, nodes)
	name := fmt.Sprintf("%d-shuffle n=%d: complex-plane placement (%d×%d array, k-d tree of the plane), channel-routed", d, n, pl.Cols, pl.Rows)
	e, err := ArrayLayout(name, nodes, g, pl)
	if err != nil {
		return nil, err
	}
	for k := range e.Edges {
		e.Edges[k].Label = "shift"
	}
	return e, nil
}

func dshuffleNodes(d, n int) (int, bool) {
	if d < 2 || n < 1 {
		return 0, false
	}
	p := 1
	for range n {
		if p > MaxDShuffleNodes {
			return 0, false
		}
		p *= d
	}
	return p, true
}

// complexPlacement ranks the vertices by Im z into rows of ⌈√N⌉ and each
// row by Re z into columns (ties by address, so the placement is fixed).
func complexPlacement(d, n, nodes int) Placement {
	z := make([]complex128, nodes)
	for x := range nodes {
		v := x
		for i := range n {
			z[x] += complex(float64(v%d), 0) * cmplx.Rect(1, 2*math.Pi*float64(i)/float64(n))
			v /= d
		}
		// Round away the floating-point noise so equal points tie exactly.
		z[x] = complex(math.Round(real(z[x])*1e9)/1e9, math.Round(imag(z[x])*1e9)/1e9)
	}
	cols := int(math.Ceil(math.Sqrt(float64(nodes))))
	rows := (nodes + cols - 1) / cols
	pl := Placement{Cols: cols, Rows: rows, Col: make([]int, nodes), Row: make([]int, nodes)}
	all := make([]int, nodes)
	for i := range all {
		all[i] = i
	}
	kdPlace(all, z, pl, 0, 0, cols, rows)
	return pl
}

// kdPlace fills the w×h block of cells at (c0, r0) with the points vs by
// recursive bisection (a k-d tree): halve the block's longer side, and give
// each half the points on its side of the median (Re z for a column split,
// Im z for a row split) in proportion to its cells, so the array keeps the
// plane's geometry.
func kdPlace(vs []int, z []complex128, pl Placement, c0, r0, w, h int) {
	if len(vs) == 0 {
		return
	}
	if w*h == 1 {
		pl.Col[vs[0]], pl.Row[vs[0]] = c0, r0
		return
	}
	byCol := w >= h
	key := func(v int) (float64, float64) {
		if byCol {
			return real(z[v]), imag(z[v])
		}
		return imag(z[v]), real(z[v])
	}
	sort.Slice(vs, func(i, j int) bool {
		a1, a2 := key(vs[i])
		b1, b2 := key(vs[j])
		if a1 != b1 {
			return a1 < b1
		}
		if a2 != b2 {
			return a2 < b2
		}
		return vs[i] < vs[j]
	})
	cells, first := w*h, h*(w/2)
	if !byCol {
		first = w * (h / 2)
	}
	k := (len(vs)*first + cells/2) / cells
	k = min(first, max(len(vs)-(cells-first), k))
	if byCol {
		kdPlace(vs[:k], z, pl, c0, r0, w/2, h)
		kdPlace(vs[k:], z, pl, c0+w/2, r0, w-w/2, h)
		return
	}
	kdPlace(vs[:k], z, pl, c0, r0, w, h/2)
	kdPlace(vs[k:], z, pl, c0, r0+h/2, w, h-h/2)
}

// DShuffleAreaBound is (dN/log_d N)² with N = d^n, log_d N = n: the order of
// both Cor 5.10's lower bound and Thm 5.12's upper bound (Θ, no constant
// given).
func DShuffleAreaBound(d, n int) float64 {
	nodes := math.Pow(float64(d), float64(n))
	return math.Pow(float64(d)*nodes/float64(n), 2)
}
