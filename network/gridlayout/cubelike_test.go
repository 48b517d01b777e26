package gridlayout

import (
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// Varvarigos §7.5's networks, each checked against the simulator's build
// (random members from several seeds), with the areas this construction
// measures. The folded cube stays within §7.5's A_cube + 16N², A_cube
// being the d-cube laid out the same way.
func TestCubeLikeLayouts(t *testing.T) {
	for _, c := range []struct {
		kind string
		sym  bool
		d    int
		seed uint64
		area int64 // 0: not pinned
	}{
		{"folded-cube", false, 2, 0, 0}, {"folded-cube", false, 3, 0, 234}, {"folded-cube", false, 4, 0, 868},
		{"folded-cube", false, 6, 0, 12430}, {"folded-cube", false, 8, 0, 159588},
		{"permutation-cube", false, 3, 1, 322}, {"permutation-cube", false, 6, 1, 25050}, {"permutation-cube", false, 7, 9, 0},
		{"permutation-cube", true, 5, 2, 0}, {"permutation-cube", true, 8, 3, 0},
		{"pseudocube", false, 3, 1, 294}, {"pseudocube", false, 6, 1, 28103}, {"pseudocube", false, 7, 4, 0}, {"pseudocube", false, 8, 5, 0},
	} {
		topo := build(t, topology.Spec{Kind: c.kind, D: c.d, Seed: c.seed, Symmetric: c.sym})
		g := GraphOf(topo)
		e, err := CubeLike(c.kind, c.d, g)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(e, len(topo.Switches), g); err != nil {
			t.Fatalf("%s d=%d seed %d: %v", c.kind, c.d, c.seed, err)
		}
		a := e.Bounds().Area()
		if c.area != 0 && a != c.area {
			t.Errorf("%s d=%d seed %d: area %d, measured %d before", c.kind, c.d, c.seed, a, c.area)
		}
		nn := int64(1) << (2 * c.d)
		if a > 8*nn {
			t.Errorf("%s d=%d: area %d > 8N² (Θ(N²) expected)", c.kind, c.d, a)
		}
		if c.kind == "folded-cube" {
			cube, err := CubeLike("hypercube", c.d, GraphOf(build(t, topology.Spec{Kind: "hypercube", D: c.d})))
			if err != nil {
				t.Fatal(err)
			}
			if ca := cube.Bounds().Area(); a <= ca || a > FoldedCubeArea(ca, c.d) {
				t.Errorf("folded-cube d=%d: area %d, want above A_cube = %d and ≤ A_cube + 16N² = %d", c.d, a, ca, FoldedCubeArea(ca, c.d))
			}
			labels := map[string]int{}
			for _, ed := range e.Edges {
				labels[ed.Label]++
			}
			if labels["complement"] != 1<<(c.d-1) {
				t.Errorf("folded-cube d=%d: %d complement wires, want N/2 = %d", c.d, labels["complement"], 1<<(c.d-1))
			}
		}
		if c.kind == "pseudocube" && int64(max(e.Bounds().Width(), e.Bounds().Height())) > PseudocubeSide(c.d) {
			t.Errorf("pseudocube d=%d: side above 8N", c.d)
		}
	}
	if _, err := CubeLike("pseudocube", 11, nil); err == nil {
		t.Error("d = 11 accepted")
	}
}

// The recursive placement keeps each quarter H_ab (top two bits) in its
// own quadrant, recursively: a dimension-i link stays in a block of 2^(i+1)
// vertices that is a rectangle of the array.
func TestCubePlacementQuarters(t *testing.T) {
	for d := 1; d <= 8; d++ {
		pl := CubePlacement(d)
		if err := pl.valid(1 << d); err != nil {
			t.Fatal(err)
		}
		for v := range 1 << d {
			hi := v >> (d - 2 + max(0, 2-d))
			// The top bit (d−1) picks the half along its axis.
			top := d - 1
			var half, cells int
			if top%2 == 0 {
				half, cells = pl.Col[v]>>(top/2), pl.Cols
			} else {
				half, cells = pl.Row[v]>>(top/2), pl.Rows
			}
			if half != v>>top&1 || cells != 1<<(top/2+1) {
				t.Fatalf("d=%d vertex %d (quarter %b) at (%d,%d): not in its half", d, v, hi, pl.Col[v], pl.Row[v])
			}
		}
	}
}
