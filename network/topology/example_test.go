package topology_test

import (
	"fmt"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
)

// A unidirectional ring of four switches given as an edge list (port 0 to
// the next switch, port 1 the terminal) with a routing function, and the
// route it gives from terminal 3 to terminal 1. A routing function that
// never reaches the destination is refused.
func ExampleFromEdges() {
	e := topology.Edges{Switches: 4, Ports: 2}
	for s := range 4 {
		e.Links = append(e.Links, topology.Link{From: s, FromPort: 0, To: (s + 1) % 4, ToPort: 0})
		e.Terms = append(e.Terms, topology.Attach{Switch: s, Port: 1})
	}
	e.Route = func(sw, dst int) int {
		if sw == dst {
			return 1 // eject
		}
		return 0 // onward
	}
	t, err := topology.FromEdges(e)
	if err != nil {
		fmt.Println(err)
		return
	}
	hops, _ := topology.Trace(t, &flit.Worm{Src: 3, Dst: 1})
	for _, h := range hops {
		fmt.Printf("%s in %d out %d\n", h.Label, h.In, h.Out)
	}

	e.Route = func(sw, dst int) int { return 0 } // round and round
	_, err = topology.FromEdges(e)
	fmt.Println(err)
	// Output:
	// s3 in 1 out 0
	// s0 in 0 out 0
	// s1 in 0 out 1
	// topology.Edges.Route: terminal 0 → 0 comes back to s0 (allowed a port at every switch on the way, reaching the destination without a loop)
}
