package topology

import (
	"reflect"
	"strings"
	"testing"
)

// gridDist is the Manhattan (mesh) or ring (torus) distance between nodes
// a and b of a grid with the given sides (node id = Σ x_i Π_{j<i} side_j).
func gridDist(sides []int, torus bool, a, b int) int {
	dist := 0
	for _, k := range sides {
		x := a%k - b%k
		x = max(x, -x)
		if torus {
			x = min(x, k-x)
		}
		dist += x
		a, b = a/k, b/k
	}
	return dist
}

// A 3×5 mesh and a 4×6 torus (and 3-D ones): every pair's route, by DOR in
// either order, by the random interleaving and with random ties, has the
// Manhattan or torus distance.
func TestRectangularRoutes(t *testing.T) {
	for _, c := range []struct {
		kind  string
		sides IntList
	}{{"mesh", IntList{3, 5}}, {"torus", IntList{4, 6}}, {"mesh", IntList{5, 2, 3}}, {"torus", IntList{3, 4, 5}}, {"torus", IntList{7, 3}}} {
		for _, extra := range []Spec{{}, {Order: IntList{1, 0}}, {Routing: "random-order"}, {Tie: "random"}, {Routing: "random-order", Tie: "random"}} {
			s := extra
			s.Kind = c.kind
			s.SetSides(c.sides)
			if len(c.sides) != 2 && s.Order != nil {
				s.Order = IntList{2, 1, 0}
			}
			topo := mustBuild(t, s)
			want := 1
			for _, v := range c.sides {
				want *= v
			}
			if topo.Terminals() != want {
				t.Fatalf("%s %v: %d terminals, want %d", c.kind, c.sides, topo.Terminals(), want)
			}
			for src, row := range allPairs(t, topo, func(s, d int) uint64 { return uint64(s*131 + d*7) }) {
				for dst, h := range row {
					if d := gridDist(c.sides, c.kind == "torus", src, dst); h-1 != d {
						t.Fatalf("%s %v %+v %d→%d: %d links, want %d", c.kind, c.sides, extra, src, dst, h-1, d)
					}
				}
			}
		}
	}
}

// Wiring and labels of the 3×5 mesh: x runs over 3 nodes, y over 5.
func TestRectangularWiring(t *testing.T) {
	s := Spec{Kind: "mesh"}
	if err := s.Set("k", "3,5"); err != nil {
		t.Fatal(err)
	}
	m := mustBuild(t, s) // n omitted: the list's length
	// Node 5 = (2,1): x+ is the edge, y+ is node 8 = (2,2).
	if m.Switches[5].Label != "r(2,1)" || m.Switches[5].Out[1].Connected() {
		t.Errorf("r(2,1): %s %+v", m.Switches[5].Label, m.Switches[5].Out[1])
	}
	if e := m.Switches[5].Out[3]; e != (End{Switch: 8, Port: 2, Terminal: -1}) {
		t.Errorf("y+: %+v", e)
	}
	if m.Radix != 0 || m.Digits != 0 {
		t.Errorf("a rectangular grid has no digit shape: Radix %d Digits %d", m.Radix, m.Digits)
	}
	tor := mustBuild(t, Spec{Kind: "torus", Sides: IntList{4, 6}, N: 2})
	// (3,5) = node 23 wraps to (0,5) = 20 in x and to (3,0) = 3 in y.
	if e := tor.Switches[23].Out[1]; e != (End{Switch: 20, Port: 0, Terminal: -1}) {
		t.Errorf("x wrap: %+v", e)
	}
	if e := tor.Switches[23].Out[3]; e != (End{Switch: 3, Port: 2, Terminal: -1}) {
		t.Errorf("y wrap: %+v", e)
	}
}

// A list of equal sides is the square grid, built identically to scalar k.
func TestEqualSidesAreSquare(t *testing.T) {
	for _, kind := range []string{"mesh", "torus"} {
		list := Spec{Kind: kind}
		if err := list.Set("k", "4,4"); err != nil {
			t.Fatal(err)
		}
		if c := list.Canonical(); c.K != 4 || c.N != 2 || c.Sides != nil {
			t.Fatalf("Canonical(%+v) = %+v", list, c)
		}
		a, b := mustBuild(t, list), mustBuild(t, Spec{Kind: kind, K: 4, N: 2})
		if !reflect.DeepEqual(a.Switches, b.Switches) || a.Radix != 4 || a.Router.Name() != b.Router.Name() {
			t.Errorf("%s k=4,4 differs from k=4", kind)
		}
		if v, _ := list.Value("k"); v != "4,4" {
			t.Errorf("Value(k) = %q", v)
		}
	}
	// Set with one integer clears a list.
	s := Spec{Kind: "mesh", Sides: IntList{3, 5}}
	if err := s.Set("k", "6"); err != nil || s.Sides != nil || s.K != 6 {
		t.Errorf("Set(k, 6) = %+v, %v", s, err)
	}
}

// Bad lists: one line naming topology.k, its value and what is allowed.
func TestRectangularBadSpecs(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Kind: "mesh", Sides: IntList{4, 6}, N: 3}, "topology.k: 4,6 is not allowed (allowed: a list of n = 3 sides"},
		{Spec{Kind: "mesh", Sides: append(make(IntList, 20), 3)}, "topology.k: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3 is not allowed (allowed: a list of at most 20 sides"},
		{Spec{Kind: "torus", Sides: IntList{4, 1}}, "topology.k: 4,1 is not allowed (allowed: sides of at least 2"},
		{Spec{Kind: "mesh", Sides: IntList{1024, 2048}}, "topology.k: 1024,2048 is not allowed (allowed: sides whose product"},
		{Spec{Kind: "hypercube", D: 3, Sides: IntList{2, 2}}, "topology.k: 2,2 is not allowed (allowed: no value for hypercube"},
		{Spec{Kind: "omega", Sides: IntList{2, 2}, N: 2}, "topology.k: 2,2 is not allowed (allowed: a single integer for omega"},
		{Spec{Kind: "dshuffle", D: 2, N: 2, Sides: IntList{2, 2}}, "topology.k: 2,2 is not allowed"},
	} {
		_, err := Build(c.spec)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Build(%+v) = %v, want %q…", c.spec, err, c.want)
		}
	}
}
