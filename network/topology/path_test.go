package topology

import (
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// TestPathIsRouteTrace: a PathRouter's Path equals the hop-by-hop trace of
// its Route, for random packets.
func TestPathIsRouteTrace(t *testing.T) {
	for _, c := range []struct {
		kind, routing string
		spec          Spec
	}{
		{"hypercube", "random-order", Spec{Kind: "hypercube", D: 7}},
		{"hypercube", "semi-strict", Spec{Kind: "hypercube", D: 6}},
		{"hypercube", "random-order", Spec{Kind: "hypercube", D: 12}},
		{"hypercube", "random-order", Spec{Kind: "hypercube", D: 13}},
		{"hypercube", "random-order", Spec{Kind: "hypercube", D: 15}},
		{"hypercube", "random-order", Spec{Kind: "hypercube", D: 16}},
		{"hypercube", "random-order", Spec{Kind: "hypercube", D: 17}},
		{"hypercube", "ecube", Spec{Kind: "hypercube", D: 7}},
		{"hypercube", "ecube", Spec{Kind: "hypercube", D: 5, Order: IntList{3, 0, 4, 1, 2}}},
		{"hypercube", "ecube-random", Spec{Kind: "hypercube", D: 6}},
		{"hypercube", "ecube-random", Spec{Kind: "hypercube", D: 12}},
		{"mesh", "random-order", Spec{Kind: "mesh", K: 6, N: 2}},
		{"mesh", "random-order", Spec{Kind: "mesh", K: 3, N: 4}},
		{"torus", "random-order", Spec{Kind: "torus", K: 7, N: 2}},
		{"torus", "random-order", Spec{Kind: "torus", K: 8, N: 2, Tie: "random"}},
		{"torus", "random-order", Spec{Kind: "torus", K: 4, N: 3}},
		{"torus", "random-order", Spec{Kind: "torus", Sides: []int{5, 2, 6}, N: 3, Tie: "random"}},
		{"mesh", "dor", Spec{Kind: "mesh", K: 5, N: 3}},
		{"mesh", "dor", Spec{Kind: "mesh", K: 20, N: 2}},
		{"torus", "dor", Spec{Kind: "torus", K: 6, N: 2, Tie: "random"}},
		{"torus", "dor", Spec{Kind: "torus", K: 20, N: 2}},
		{"torus", "dor", Spec{Kind: "torus", K: 9, N: 2, Order: IntList{1, 0}}},
		{"torus", "dor", Spec{Kind: "torus", Sides: []int{3, 4, 2}, N: 3, Tie: "random"}},
		{"ccc", "standard", Spec{Kind: "ccc", N: 2}},
		{"ccc", "standard", Spec{Kind: "ccc", N: 3}},
		{"ccc", "standard", Spec{Kind: "ccc", N: 4, Tie: "random"}},
		{"ccc", "standard", Spec{Kind: "ccc", N: 5}},
	} {
		c.spec.Routing = c.routing
		topo, err := Build(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		pr, ok := topo.Router.(PathRouter)
		if !ok {
			t.Fatalf("%s %s: not a PathRouter", c.kind, c.routing)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			src, dst := rng.IntN(topo.Terminals()), rng.IntN(topo.Terminals())
			w := flit.Worm{Src: int32(src), Dst: int32(dst)}
			pr.Init(&w, rng)
			sw, in := int(topo.InSwitch[src]), int(topo.InPort[src])
			var trace []uint8
			for n := 0; n < 64; n++ {
				o := pr.Route(sw, in, &w).First()
				trace = append(trace, uint8(o))
				e := topo.Switches[sw].Out[o]
				if e.Switch < 0 {
					break
				}
				sw, in = int(e.Switch), int(e.Port)
			}
			got := pr.Path(int(topo.InSwitch[src]), int(topo.InPort[src]), &w, nil)
			if string(got) != string(trace) {
				t.Fatalf("%+v %d→%d aux %d: Path %v, Route trace %v", c.spec, src, dst, w.Aux, got, trace)
			}
		}
	}
}

// TestPathHeadIsRouteHeadTrace: a StatefulPathRouter's PathHead equals the
// hop-by-hop trace of RouteHead, and leaves the same state.
func TestPathHeadIsRouteHeadTrace(t *testing.T) {
	for _, spec := range []Spec{
		{Kind: "dshuffle", D: 3, N: 4, Routing: "standard"},
		{Kind: "dshuffle", D: 2, N: 6, Routing: "standard"},
		{Kind: "dshuffle", D: 3, N: 4, Routing: "shortest"},
		{Kind: "dshuffle", D: 2, N: 7, Routing: "shortest"},
		{Kind: "dshuffle", D: 5, N: 1, Routing: "shortest"},
		{Kind: "shuffle-exchange", N: 1, Routing: "standard"},
		{Kind: "shuffle-exchange", N: 6, Routing: "standard"},
		{Kind: "ccc-plus", N: 2, Routing: "upfal"},
		{Kind: "ccc-plus", N: 4, Routing: "upfal"},
		{Kind: "ccc-plus", N: 5, Routing: "upfal"},
	} {
		topo, err := Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		pr, ok := topo.Router.(StatefulPathRouter)
		if !ok {
			t.Fatalf("%+v: not a StatefulPathRouter", spec)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			src, dst := rng.IntN(topo.Terminals()), rng.IntN(topo.Terminals())
			w := flit.Worm{Src: int32(src), Dst: int32(dst)}
			pr.Init(&w, rng)
			sw, in := int(topo.InSwitch[src]), int(topo.InPort[src])
			var trace []uint8
			var st flit.RouteState
			for n := 0; n < 64; n++ {
				o := pr.RouteHead(sw, in, &w, &st).First()
				trace = append(trace, uint8(o))
				e := topo.Switches[sw].Out[o]
				if e.Switch < 0 {
					if e.Terminal != int32(dst) {
						t.Fatalf("%d→%d ends at terminal %d", src, dst, e.Terminal)
					}
					break
				}
				sw, in = int(e.Switch), int(e.Port)
			}
			var st2 flit.RouteState
			got, ok := pr.PathHead(int(topo.InSwitch[src]), int(topo.InPort[src]), &w, &st2, nil)
			if !ok || string(got) != string(trace) || st2 != st {
				t.Fatalf("%+v %d→%d: PathHead %v (ok %v, state %+v), RouteHead trace %v (state %+v)", spec, src, dst, got, ok, st2, trace, st)
			}
		}
	}
}
