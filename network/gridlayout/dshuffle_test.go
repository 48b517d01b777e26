package gridlayout

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// The d-shuffle's wires, from the definition rather than the simulator:
// x — x·d mod N + β for every x and β, a link and its reverse one wire,
// self-loops none.
func TestGraphOfDShuffleIsDeBruijn(t *testing.T) {
	for _, c := range [][2]int{{2, 1}, {2, 2}, {2, 5}, {3, 3}, {5, 2}} {
		d, n := c[0], c[1]
		nodes, _ := dshuffleNodes(d, n)
		want := map[Pair]bool{}
		for x := range nodes {
			for b := range d {
				if y := x*d%nodes + b; y != x {
					want[pairOf(x, y)] = true
				}
			}
		}
		got := GraphOf(build(t, topology.Spec{Kind: "dshuffle", D: d, N: n}))
		if len(got) != len(want) {
			t.Fatalf("d=%d n=%d: %d wires, want %d", d, n, len(got), len(want))
		}
		for _, p := range got {
			if !want[p] {
				t.Fatalf("d=%d n=%d: wire %v is not a de Bruijn edge", d, n, p)
			}
		}
	}
}

// Every layout passes the checker against the simulator's d-shuffle, and
// its area stays within a flat band of the Θ((dN/log_d N)²) order. The
// measured ratios (this construction, these sizes):
//
//	d=2: n=4 9.75, n=6 12.81, n=8 12.95, n=10 12.90
//	d=3: n=4 7.11;  d=4: n=3 4.92, n=4 5.94;  d=5: n=3 4.99;  d=8: n=2 1.67
//
// (and, too slow for a unit test, d=3 n=6 8.30, d=4 n=5 6.63, d=8 n=3 4.52).
func TestDShuffleLayoutAreas(t *testing.T) {
	for _, c := range []struct {
		d, n       int
		area       int64
		side       int
		ratioBelow float64
	}{
		{2, 1, 0, 1, 1}, {2, 2, 0, 1, 100}, {2, 3, 0, 1, 100}, {2, 4, 624, 1, 10}, {2, 6, 5832, 1, 13}, {2, 8, 53040, 1, 13}, {2, 10, 541080, 1, 13},
		{3, 2, 0, 2, 100}, {3, 4, 26244, 2, 7.2}, {4, 3, 35820, 2, 5}, {4, 4, 389256, 2, 6},
		{5, 2, 0, 3, 100}, {5, 3, 216630, 3, 5}, {8, 2, 109512, 4, 1.7}, {16, 1, 7743, 4, 0.12},
	} {
		topo := build(t, topology.Spec{Kind: "dshuffle", D: c.d, N: c.n})
		g := GraphOf(topo)
		e, err := DShuffle(c.d, c.n, g)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(e, len(topo.Switches), g); err != nil {
			t.Fatalf("d=%d n=%d: %v", c.d, c.n, err)
		}
		if e.Side != c.side {
			t.Errorf("d=%d n=%d: square side %d, want %d", c.d, c.n, e.Side, c.side)
		}
		a := e.Bounds().Area()
		if c.area != 0 && a != c.area {
			t.Errorf("d=%d n=%d: area %d, measured %d before", c.d, c.n, a, c.area)
		}
		if r := float64(a) / DShuffleAreaBound(c.d, c.n); r >= c.ratioBelow && c.area != 0 {
			t.Errorf("d=%d n=%d: area/(dN/log_d N)² = %.2f, want < %.2f", c.d, c.n, r, c.ratioBelow)
		}
	}
	for _, c := range [][2]int{{4, 7}, {4, 6}, {33, 1}, {2, 13}} {
		if _, err := DShuffle(c[0], c[1], nil); err == nil {
			t.Errorf("DShuffle(%d, %d) (N > 4096 or N·d² > 32768) did not refuse", c[0], c[1])
		}
	}
}

// Digest §6.4's worked example: the 8-shuffle link 615₈ → 152₈ (drop 6,
// shift in 2) is the 2-shuffle path 110 001 101 → 100 011 010 →
// 000 110 101 → 001 101 010, shifting in 0, 1, 0.
func TestBinaryCodedWorkedExample(t *testing.T) {
	path, shifted, err := BinaryCodedPath(8, 3, 0o615, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{0b110001101, 0b100011010, 0b000110101, 0b001101010}
	if fmt.Sprint(path) != fmt.Sprint(want) || fmt.Sprint(shifted) != "[0 1 0]" {
		t.Errorf("path %b shifting in %v, want %b shifting in [0 1 0]", path, shifted, want)
	}
	if path[3] != BinaryCode(8, 3, 0o152) {
		t.Errorf("ends at %b, want code(152₈) = %b", path[3], BinaryCode(8, 3, 0o152))
	}
	// A non-power of two: digit 4 of the 5-shuffle is 100 in three bits.
	if p, s, _ := BinaryCodedPath(5, 2, 13, 4); fmt.Sprint(p, s) != "[19 39 14 28] [1 0 0]" || p[3] != BinaryCode(5, 2, 19) {
		t.Errorf("5-shuffle 23₅ → 34₅: %v %v", p, s)
	}
	for _, bad := range [][3]int{{1, 3, 0}, {8, 0, 0}, {8, 3, 8}, {8, 3, -1}, {8, 21, 0}} {
		if _, _, err := BinaryCodedPath(bad[0], bad[1], 0, bad[2]); err == nil {
			t.Errorf("BinaryCodedPath%v accepted", bad)
		}
	}
}

// Thm 5.12's count: at most ⌈lg d⌉·2^(⌈lg d⌉−1) d-shuffle links on one
// 2-shuffle link, exactly that many when d is a power of two (every
// nb-bit string is then a valid point of every path step).
func TestBinaryCodedLoad(t *testing.T) {
	for _, c := range [][3]int{{2, 4, 1}, {3, 3, 0}, {4, 3, 4}, {5, 2, 0}, {6, 2, 0}, {8, 2, 12}, {8, 3, 12}, {16, 2, 32}} {
		d, n, exact := c[0], c[1], c[2]
		got, err := BinaryCodedLoad(d, n)
		if err != nil {
			t.Fatal(err)
		}
		bound := BinaryCodedLoadBound(d)
		if got > bound || exact != 0 && got != exact || bound < exact {
			t.Errorf("d=%d n=%d: max load %d, bound %d, want exactly %d when d is a power of two", d, n, got, bound, exact)
		}
	}
}

// The channel router on random multigraphs (parallel edges, high degree,
// empty cells, odd shapes): the checker must pass every time.
func TestArrayLayoutRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 60 {
		nodes := 1 + rng.IntN(40)
		cols := 1 + rng.IntN(9)
		rows := (nodes+cols-1)/cols + rng.IntN(3)
		cells := rng.Perm(cols * rows)
		pl := Placement{Cols: cols, Rows: rows, Col: make([]int, nodes), Row: make([]int, nodes)}
		for v := range nodes {
			pl.Col[v], pl.Row[v] = cells[v]%cols, cells[v]/cols
		}
		var g []Pair
		for range rng.IntN(4 * nodes) {
			if u, v := rng.IntN(nodes), rng.IntN(nodes); u != v {
				g = append(g, pairOf(u, v))
			}
		}
		sortPairs(g)
		e, err := ArrayLayout("random", nodes, g, pl)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(e, nodes, g); err != nil {
			t.Fatalf("trial %d (%d vertices, %d edges, %d×%d): %v", trial, nodes, len(g), cols, rows, err)
		}
	}
	bad := Placement{Cols: 2, Rows: 1, Col: []int{0, 0}, Row: []int{0, 0}}
	if _, err := ArrayLayout("clash", 2, nil, bad); err == nil {
		t.Error("two vertices in one cell accepted")
	}
}

// Euler orientation: out- and in-degree differ by at most one everywhere.
func TestEulerOrientBalances(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 30 {
		nodes := 2 + rng.IntN(30)
		var g []Pair
		for range rng.IntN(6 * nodes) {
			if u, v := rng.IntN(nodes), rng.IntN(nodes); u != v {
				g = append(g, pairOf(u, v))
			}
		}
		tails, _, _ := eulerOrient(nodes, g)
		bal := make([]int, nodes)
		for k, p := range g {
			h := p.U + p.V - tails[k]
			if tails[k] != p.U && tails[k] != p.V {
				t.Fatalf("edge %v: tail %d is not an end", p, tails[k])
			}
			bal[tails[k]]++
			bal[h]--
		}
		for v, b := range bal {
			if b < -1 || b > 1 {
				t.Fatalf("vertex %d: out − in = %d", v, b)
			}
		}
	}
}
