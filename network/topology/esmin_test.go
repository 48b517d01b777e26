package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// esminPaths returns the route of s→d for every path index q.
func esminPaths(t *testing.T, dims []int, s, d int) []string {
	t.Helper()
	n := 0
	for _, c := range dims {
		n = max(n, c+1)
	}
	m := len(dims) - n
	var out []string
	for q := 0; q < 1<<m; q++ {
		topo := mustBuild(t, Spec{Kind: "esmin", Dims: dims, Path: "given", PathIndex: q})
		out = append(out, fmt.Sprint(trace(t, topo, s, d, 0)))
	}
	return out
}

func TestESMINLemma14(t *testing.T) {
	for _, dims := range [][]int{{2, 1, 0}, {1, 2, 1, 2, 0}, {2, 2, 2, 1, 0}, {1, 1, 2, 2, 0}, {2, 1, 2, 2, 0}, {1, 3, 2, 1, 0}, {1, 2, 3, 3, 1, 1, 0}} {
		n := 0
		for _, c := range dims {
			n = max(n, c+1)
		}
		m := len(dims) - n
		N := 1 << n
		topos := make([]*Topology, 1<<m)
		for q := range topos {
			topos[q] = mustBuild(t, Spec{Kind: "esmin", Dims: dims, Path: "given", PathIndex: q})
		}
		first := mustBuild(t, Spec{Kind: "esmin", Dims: dims})
		latest := mustBuild(t, Spec{Kind: "esmin", Dims: dims, Path: "latest"})
		random := mustBuild(t, Spec{Kind: "esmin", Dims: dims, Path: "random"})
		for s := 0; s < N; s++ {
			for d := 0; d < N; d++ {
				paths := map[string]bool{}
				for q := range topos {
					hops := trace(t, topos[q], s, d, 0)
					if len(hops) != len(dims) {
						t.Fatalf("%v %d→%d q=%d: %d hops", dims, s, d, q, len(hops))
					}
					paths[fmt.Sprint(hops)] = true
					r := trace(t, random, s, d, uint64(q))
					if fmt.Sprint(r) != fmt.Sprint(hops) {
						t.Fatalf("%v: random with Aux %d differs from given %d", dims, q, q)
					}
				}
				if len(paths) != 1<<m {
					t.Fatalf("%v %d→%d: %d distinct paths, want %d", dims, s, d, len(paths), 1<<m)
				}
				for _, o := range []*Topology{first, latest} {
					if !paths[fmt.Sprint(trace(t, o, s, d, 0))] {
						t.Fatalf("%v %d→%d: %s path not among the 2^m", dims, s, d, o.Router.Name())
					}
				}
				// LB goes straight (row unchanged) at the free stages, FB
				// after the first stage of each dimension.
				lb := trace(t, latest, s, d, 0)
				last := map[int]int{}
				for i, c := range dims {
					last[c] = i
				}
				for i := 0; i+1 < len(lb); i++ {
					if last[dims[i]] != i && lb[i].Switch%(N/2) != lb[i+1].Switch%(N/2) {
						t.Fatalf("%v %d→%d LB not straight at stage %d: %v", dims, s, d, len(dims)-1-i, lb)
					}
				}
			}
		}
	}
	// Fig 6.4 count: CU-ESMIN(8:1,2,1,2,0) has 4 paths per pair.
	if p := esminPaths(t, []int{1, 2, 1, 2, 0}, 0, 3); len(p) != 4 {
		t.Errorf("paths %d", len(p))
	}
}

func TestESMINShape(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}})
	if len(topo.Switches) != 20 || topo.Switches[0].Label != "s4,0" || topo.Switches[19].Label != "s0,3" || topo.Radix != 2 || topo.Digits != 3 {
		t.Errorf("shape: %d %s %s", len(topo.Switches), topo.Switches[0].Label, topo.Switches[19].Label)
	}
	// s4,1 output 1 = address 3 → β_1(3) = 3 → s3,1 input 1.
	if e := topo.Switches[1].Out[1]; e != (End{Switch: 5, Port: 1, Terminal: -1}) {
		t.Errorf("s4,1 out 1: %+v", e)
	}
	// s4,1 output 0 = address 2 → β_1(2) = 1 → s3,0 input 1.
	if e := topo.Switches[1].Out[0]; e != (End{Switch: 4, Port: 1, Terminal: -1}) {
		t.Errorf("s4,1 out 0: %+v", e)
	}
	// Random draws stay below 2^m and cover it.
	rng := rand.New(rand.NewPCG(5, 6))
	r := mustBuild(t, Spec{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}, Path: "random"})
	seen := map[uint64]bool{}
	for range 200 {
		w := &flit.Worm{}
		r.Router.Init(w, rng)
		if w.Aux >= 4 {
			t.Fatalf("aux %d", w.Aux)
		}
		seen[w.Aux] = true
	}
	if len(seen) != 4 {
		t.Errorf("random paths drawn: %v", seen)
	}
}
