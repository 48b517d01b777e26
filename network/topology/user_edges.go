package topology

import (
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Link is one directed link of an edge list: output port FromPort of switch
// From feeds input port ToPort of switch To.
type Link struct{ From, FromPort, To, ToPort int }

// Attach places a terminal at port Port of switch Switch: the terminal
// injects into that input port and is reached through that output port.
type Attach struct{ Switch, Port int }

// Edges is a network given as an edge list: the Go form of a topology file
// (docs/configuration.md, "Topology files"), for programs that build networks themselves.
type Edges struct {
	Switches int      // switches 0..Switches−1
	Ports    int      // ports per switch (input p pairs with output p)
	Links    []Link   // directed links; give both directions for a duplex link
	Terms    []Attach // terminal t attaches at Terms[t]
	// Route is the routing function: the output port a packet for terminal
	// dst leaves switch sw on (−1: none, as for a switch no such packet
	// reaches). Nil routes over shortest paths, the lowest port on ties.
	Route func(sw, dst int) int
}

// FromEdges builds e's topology with its routing, checked as a topology
// file is (every port used once, every terminal reaching every other
// without a loop). Errors are *inputerr.Error placed at "edges:N", the N-th
// statement in the order switches, then links, then terminals (so a bad
// link i is at edges:Switches+1+i). Switch s is labelled "s<s>".
func FromEdges(e Edges) (*Topology, error) {
	var b strings.Builder
	for s := range e.Switches {
		fmt.Fprintf(&b, "switch s%d %d\n", s, e.Ports)
	}
	for _, l := range e.Links {
		fmt.Fprintf(&b, "link s%d.%d s%d.%d\n", l.From, l.FromPort, l.To, l.ToPort)
	}
	for t, a := range e.Terms {
		fmt.Fprintf(&b, "terminal %d s%d.%d\n", t, a.Switch, a.Port)
	}
	t, err := ParseFile([]byte(b.String()), "edges")
	if err != nil || e.Route == nil {
		return t, err
	}
	// The file's shortest-path table is replaced by the function's: an
	// entry naming no wired port is no entry (walking into it fails).
	n := t.Terminals()
	r := &tableRouter{name: "table", n: n, port: make([]int8, len(t.Switches)*n)}
	for sw := range t.Switches {
		for dst := range n {
			p := e.Route(sw, dst)
			if p < 0 || p >= len(t.Switches[sw].Out) || !t.Switches[sw].Out[p].Connected() {
				p = noPort
			}
			r.port[sw*n+dst] = int8(p)
		}
	}
	if err := checkTable(t, r, nil, nil); err != nil {
		if ie, ok := err.(*inputerr.Error); ok {
			ie.Key, ie.Value = "topology.Edges.Route", ""
			ie.Problem, ie.Allowed = ie.Allowed, "a port at every switch on the way, reaching the destination without a loop"
		}
		return nil, err
	}
	t.Router = r
	return t, nil
}
