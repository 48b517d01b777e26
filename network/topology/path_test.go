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
				t.Fatalf("%s d=%d %d→%d aux %d: Path %v, Route trace %v", c.routing, c.spec.D, src, dst, w.Aux, got, trace)
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
