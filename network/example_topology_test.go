package network_test

import (
	"fmt"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

// line is a linear array of n switches given as an edge list: port 0 leads
// left, port 1 right, port 2 to the switch's terminal. Its routing function
// goes straight toward the destination (deadlock-free: no cycle of links).
func line(n int) topology.Edges {
	e := topology.Edges{Switches: n, Ports: 3}
	for s := range n {
		e.Terms = append(e.Terms, topology.Attach{Switch: s, Port: 2})
		if s+1 < n { // a link each way between s and s+1
			e.Links = append(e.Links,
				topology.Link{From: s, FromPort: 1, To: s + 1, ToPort: 0},
				topology.Link{From: s + 1, FromPort: 0, To: s, ToPort: 1})
		}
	}
	e.Route = func(sw, dst int) int {
		switch {
		case dst < sw:
			return 0
		case dst > sw:
			return 1
		}
		return 2
	}
	return e
}

// A custom topology given as an edge list with a routing function: build it
// with topology.FromEdges (checked like a topology file: every terminal
// must reach every other without a loop) and register it as a kind, with
// its parameters and routing functions. A config then names it as
// topology.kind like any built-in kind, from Go or from YAML files loaded by
// the same program. (Without Go, a topology file does the same:
// docs/configuration.md, "Topology files".)
func Example_customTopology() {
	if _, done := topology.Kind("line"); !done { // (a kind registers once per program)
		topology.Register(topology.KindSpec{
			Name: "line",
			Desc: "a linear array of k switches, one terminal each",
			Params: []topology.Param{{Key: "k", Default: "8", Allowed: "2 to 64", Desc: "switches",
				Check: func(s topology.Spec) string {
					if s.K < 2 || s.K > 64 {
						return "an integer from 2 to 64"
					}
					return ""
				}}},
			Routings: []topology.Routing{{Name: "straight", Desc: "toward the destination",
				New: func(t *topology.Topology, _ topology.Spec) (topology.Router, error) { return t.Router, nil }}},
			Build: func(s topology.Spec) (*topology.Topology, error) { return topology.FromEdges(line(s.K)) },
		})
	}
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "line", K: 6}
	c.Traffic.Load = 0.1
	c.Run.Warmup, c.Run.Measure = 200, 2000
	r, err := network.Run(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, %d terminals: %s, mean latency %.2f, %.2f switches per packet\n",
		c.Topology.Kind, r.Terminals, r.Status, r.Latency.Mean, r.Hops)

	c.Topology.K = 100
	_, err = network.Run(c)
	fmt.Println(err)
	// Output:
	// line, 6 terminals: ok, mean latency 7.72, 3.31 switches per packet
	// topology.k: 100 is not allowed (allowed: an integer from 2 to 64)
}
