package collective

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Embeddings of Varvarigos §2.8 and §2.9 (digest 000a §4.10, §4.11).
//
// §2.8: relabel a sparse guest graph so that its adjacency matrix has a
// small bandwidth B (a_ij = 0 for |i−j| > (B−1)/2) — the thesis cites
// [Pis84] for heuristics; we use reverse Cuthill–McKee, the standard one —
// then store vertex i at the Binary-Gray node of column i (banded.go's
// bandLayout with 2^β ≥ (B−1)/2): neighbours i, j with |i−j| ≤ 2^β lie in
// the same or adjacent Gray columns, so the dilation is at most β + 1 ≈
// log₂ B.
//
// §2.9: K blocks of 2^{l_i}×2^{l_i} with Σ 2^{l_i} = 2^d go to disjoint
// subcubes (*^{l_i} x_i), the x_i (d − l_i bits) a prefix code; Kraft's
// equality Σ 2^{−(d−l_i)} = 1 guarantees one ([Gal68]), which prefixCode
// constructs. (*^l x) fixes the last d − l bits, so two subcubes are
// disjoint iff neither x ends the other: the code is prefix-free read
// from the last bit, which the thesis calls the prefix condition.

// guest is a sparse graph on n vertices (adjacency lists, sorted).
type guest struct {
	name string
	adj  [][]int32
}

// newGuest builds task.graph on n = 2^d vertices with labels shuffled by
// seed (so the bandwidth the relabelling removes is there to remove):
// grid and torus (2^{⌊d/2⌋} × 2^{⌈d/2⌉}, 4 neighbours), random (each vertex
// joined to task.degree others drawn at random).
func newGuest(kind string, d, degree int, seed uint64) (*guest, error) {
	n := 1 << d
	rng := rand.New(rand.NewPCG(seed, 0x656d6264))
	perm := rng.Perm(n)
	g := &guest{name: kind, adj: make([][]int32, n)}
	link := func(a, b int) {
		u, v := int32(perm[a]), int32(perm[b])
		if u != v && !slices.Contains(g.adj[u], v) {
			g.adj[u] = append(g.adj[u], v)
			g.adj[v] = append(g.adj[v], u)
		}
	}
	rows, cols := 1<<(d/2), 1<<(d-d/2)
	switch kind {
	case "grid", "torus":
		for r := range rows {
			for c := range cols {
				if c+1 < cols || kind == "torus" && cols > 2 {
					link(r*cols+c, r*cols+(c+1)%cols)
				}
				if r+1 < rows || kind == "torus" && rows > 2 {
					link(r*cols+c, (r+1)%rows*cols+c)
				}
			}
		}
		g.name = fmt.Sprintf("%s %d×%d", kind, rows, cols)
	case "random":
		for v := range n {
			for range degree {
				link(v, rng.IntN(n))
			}
		}
		g.name = fmt.Sprintf("random, each vertex joined to %d drawn at random", degree)
	default:
		return nil, inputerr.New("task.graph", kind, "grid, torus or random")
	}
	for _, a := range g.adj {
		slices.Sort(a)
	}
	return g, nil
}

// halfBand is max |σ(u) − σ(v)| over the edges, σ a vertex's label (nil:
// the identity); the bandwidth is B = 2·halfBand + 1.
func (g *guest) halfBand(sigma []int32) int {
	b := 0
	lab := func(v int32) int {
		if sigma == nil {
			return int(v)
		}
		return int(sigma[v])
	}
	for u, a := range g.adj {
		for _, v := range a {
			b = max(b, abs(lab(int32(u))-lab(v)))
		}
	}
	return b
}

// rcm is the reverse Cuthill–McKee labelling: per component, a BFS from a
// pseudo-peripheral vertex (the last vertex of repeated BFS from a vertex
// of least degree) visiting neighbours by increasing degree; the order
// reversed. It returns σ, vertex → label.
func (g *guest) rcm() []int32 {
	n := len(g.adj)
	order := make([]int32, 0, n)
	seen := make([]bool, n)
	dist := make([]int32, n)
	bfs := func(root int32, mark bool) (last int32, comp []int32) {
		for i := range dist {
			dist[i] = -1
		}
		q := []int32{root}
		dist[root] = 0
		var nb []int32
		for i := 0; i < len(q); i++ {
			u := q[i]
			nb = append(nb[:0], g.adj[u]...)
			slices.SortStableFunc(nb, func(a, b int32) int { return len(g.adj[a]) - len(g.adj[b]) })
			for _, v := range nb {
				if dist[v] < 0 && !seen[v] {
					dist[v] = dist[u] + 1
					q = append(q, v)
				}
			}
		}
		if mark {
			for _, v := range q {
				seen[v] = true
			}
		}
		return q[len(q)-1], q
	}
	for {
		start := int32(-1)
		for v := range n {
			if !seen[v] && (start < 0 || len(g.adj[v]) < len(g.adj[start])) {
				start = int32(v)
			}
		}
		if start < 0 {
			break
		}
		for range 4 { // (a pseudo-peripheral vertex: a few BFS sweeps)
			far, _ := bfs(start, false)
			if far == start {
				break
			}
			start = far
		}
		_, comp := bfs(start, true)
		order = append(order, comp...)
	}
	sigma := make([]int32, n)
	for i, v := range order {
		sigma[v] = int32(n - 1 - i)
	}
	return sigma
}

// blocksParam reads task.blocks, the l_i of the blocks (2^{l_i}×2^{l_i}):
// a comma list with Σ 2^{l_i} = 2^d (default d−1, d−2, …, 1, 1).
func blocksParam(params map[string]string, d int) ([]int, error) {
	v, ok := params["task.blocks"]
	if !ok {
		var ls []int
		for l := d - 1; l >= 1; l-- {
			ls = append(ls, l)
		}
		return append(ls, 1), nil
	}
	var ls []int
	sum := 0
	for _, f := range strings.Split(v, ",") {
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || l < 0 || l > d {
			return nil, inputerr.New("task.blocks", v, "a comma list of block exponents l_i from 0 to %d with Σ 2^{l_i} = 2^d = %d", d, 1<<d)
		}
		ls = append(ls, l)
		sum += 1 << l
	}
	if sum != 1<<d {
		return nil, inputerr.New("task.blocks", v, "block exponents with Σ 2^{l_i} = 2^d = %d (these sum to %d)", 1<<d, sum)
	}
	return ls, nil
}

// prefixCode builds codewords of lengths lens with Σ 2^{−len} = 1 (Kraft's
// equality): the canonical construction, shortest first, each codeword the
// previous one plus one, shifted to its length ([Gal68] p. 48). Codeword i
// is returned as an integer whose bit k is its k-th symbol (read from bit
// 0 upward, as the subcube (*^l x) fixes x on the low bits).
func prefixCode(lens []int) []int {
	idx := make([]int, len(lens))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return lens[a] - lens[b] })
	out := make([]int, len(lens))
	code, prev := 0, 0
	for k, i := range idx {
		if k > 0 {
			code++
		}
		code <<= lens[i] - prev
		prev = lens[i]
		out[i] = reverseBits(code, lens[i]) // (most significant symbol first → bit 0 first)
	}
	return out
}

func reverseBits(x, n int) int {
	return int(bits.Reverse64(uint64(x)) >> (64 - n) & (1<<n - 1))
}
